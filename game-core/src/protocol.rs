//! The wire protocol v1: `ClientMsg` (client to server) and `ServerMsg` (server to client).
//!
//! One JSON object per WebSocket text frame; the field `t` names the message (see
//! `PROTOCOL.md`). Client messages are parsed in exactly one place, [`parse_client`], which turns
//! anything unexpected into a [`ParseError`] carrying the [`ErrorCode`] of the reply, so the
//! server can answer with an `error` and keep the connection open. Frame size and rate limits
//! are the frame layer's business, not this module's.
//!
//! Optional fields are left out of the output when absent, except those the contract shows as
//! `null` (`state.result`, `state.clock`, a free seat, `you`, `chat.seat`, every `clock`), which
//! are always written so a client can rely on the key being there.
//!
//! ```
//! use game_core::protocol::{parse_client, ClientMsg, ErrorCode};
//!
//! let msg = parse_client(r#"{"t":"move","room":"r1","move":"h8","id":"7"}"#).unwrap();
//! assert!(matches!(msg, ClientMsg::Move { ref room, .. } if room == "r1"));
//!
//! let err = parse_client(r#"{"t":"move","room":"r1"}"#).unwrap_err();
//! assert_eq!(err.code, ErrorCode::BadRequest);
//! assert_eq!(err.room.as_deref(), Some("r1"));
//! ```

use serde::{Deserialize, Serialize};

use crate::spec::GameSpec;
use crate::Color;

/// The protocol version announced in `welcome`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Bot levels a client may ask for (`create.bots`, `invite_bot`, `invite`).
pub const BOT_LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

mod challenge;
mod clock;
mod errors;
mod lobby;
mod types;

pub use challenge::*;
pub use clock::*;
pub use errors::*;
pub use lobby::*;
pub use types::*;

pub use crate::puzzle::{Puzzle, PuzzleJob};
pub use crate::review::{
    AnalysisPly, AnalyzeJob, LiveJob, LiveLine, RatedMove, Review, ReviewMark, ReviewPly,
    ReviewStatus,
};

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/// A message from a client to the server. Build it only with [`parse_client`] on the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMsg {
    Hello {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<BotHello>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        house: Option<HouseHello>,
    },
    Create {
        game: GameSpec,
        #[serde(default)]
        seat: SeatChoice,
        #[serde(default)]
        clock: Option<ClockSpec>,
        #[serde(default)]
        opening: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bots: Option<BotSeats>,
        #[serde(default)]
        private: bool,
        /// A rated game (both seats held by accounts; see docs/protocol.md "Ratings").
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        rated: bool,
    },
    Join {
        room: String,
        #[serde(rename = "as")]
        join_as: JoinAs,
    },
    Move {
        room: String,
        #[serde(rename = "move")]
        mv: String,
        /// Client request id: a resent move with the same id is answered, not replayed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    Resign {
        room: String,
    },
    /// Ends a game without a result, while a side has not made its first move yet.
    Abort {
        room: String,
    },
    /// Ends a game whose opponent has been away for half the grace period or more: a win (an
    /// abort before both sides have moved) or a draw.
    Claim {
        room: String,
        result: Claim,
    },
    Undo {
        room: String,
    },
    UndoReply {
        room: String,
        accept: bool,
    },
    Draw {
        room: String,
    },
    DrawReply {
        room: String,
        accept: bool,
    },
    Rematch {
        room: String,
    },
    Chat {
        room: String,
        text: String,
    },
    InviteBot {
        room: String,
        level: u8,
    },
    Leave {
        room: String,
    },
    Seek {
        game: GameSpec,
        #[serde(default)]
        clock: Option<ClockSpec>,
    },
    Unseek,
    /// Challenges a person (`to`: a player's id or an account's name) to a game.
    Challenge {
        to: String,
        game: GameSpec,
        #[serde(default)]
        clock: Option<ClockSpec>,
        #[serde(default)]
        color: ChallengeColor,
        #[serde(default)]
        rated: bool,
        /// A bot challenged: the level it plays at (1..=10; 10 in a rated game, 5 by
        /// default otherwise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
    },
    /// Accepts or declines a challenge.
    ChallengeReply {
        challenge: String,
        accept: bool,
        #[serde(default)]
        reason: DeclineReason,
    },
    /// Withdraws one's own challenge.
    ChallengeCancel {
        challenge: String,
    },
    Lobby,
    Unlobby,
    Decline {
        room: String,
    },
    /// Asks for the engine review of a finished game (`ask`, the default), or only for what
    /// there is of it (`ask: false`): the stored review, or whether one is being made.
    Review {
        room: String,
        #[serde(default = "yes")]
        ask: bool,
    },
    /// An analysis worker's result for one position of its job.
    Analysis {
        job: String,
        #[serde(flatten)]
        ply: AnalysisPly,
    },
    /// Starts (or replaces) this connection's live analysis of a position: a set-up board
    /// (`position`, [`crate::setup`]) or the game's start, then `moves`.
    Analyse {
        id: String,
        game: GameSpec,
        #[serde(default)]
        position: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        /// Moves to value one by one (the opening explorer's).
        #[serde(default)]
        rate: Vec<String>,
    },
    /// Ends this connection's live analysis.
    AnalyseStop,
    /// A worker's line at one depth of a live analysis.
    AnalysisLine {
        job: String,
        #[serde(flatten)]
        line: LiveLine,
    },
    /// A worker has finished a live analysis (its time is up or the position is solved).
    AnalysisDone {
        job: String,
    },
    /// A worker's value of one rated move of a live analysis.
    AnalysisMove {
        job: String,
        #[serde(flatten)]
        rated: RatedMove,
    },
    /// A worker's answer to `prove_puzzle`: the puzzle, or none and why.
    PuzzleProof {
        job: String,
        puzzle: Option<Box<Puzzle>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

fn yes() -> bool {
    true
}

/// The one table of client message names: each [`ClientMsg`] variant with its `t`, in the
/// order of the enum. It makes [`CLIENT_TYPES`] and [`ClientMsg::type_name`]; the names are the
/// ones serde writes (`rename_all = "snake_case"`), which the golden tests hold equal.
macro_rules! client_types {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// The values of `t` a client may send, in the order of [`ClientMsg`].
        pub const CLIENT_TYPES: &[&str] = &[$($name),*];

        impl ClientMsg {
            /// The value of `t`.
            #[must_use]
            pub fn type_name(&self) -> &'static str {
                match self {
                    $(ClientMsg::$variant { .. } => $name,)*
                }
            }
        }
    };
}

client_types! {
    Hello => "hello",
    Create => "create",
    Join => "join",
    Move => "move",
    Resign => "resign",
    Abort => "abort",
    Claim => "claim",
    Undo => "undo",
    UndoReply => "undo_reply",
    Draw => "draw",
    DrawReply => "draw_reply",
    Rematch => "rematch",
    Chat => "chat",
    InviteBot => "invite_bot",
    Leave => "leave",
    Seek => "seek",
    Unseek => "unseek",
    Challenge => "challenge",
    ChallengeReply => "challenge_reply",
    ChallengeCancel => "challenge_cancel",
    Lobby => "lobby",
    Unlobby => "unlobby",
    Decline => "decline",
    Review => "review",
    Analysis => "analysis",
    Analyse => "analyse",
    AnalyseStop => "analyse_stop",
    AnalysisLine => "analysis_line",
    AnalysisDone => "analysis_done",
    AnalysisMove => "analysis_move",
    PuzzleProof => "puzzle_proof",
}

impl ClientMsg {
    /// The JSON text of the message, for clients written in Rust (the bot, tests).
    #[must_use]
    pub fn to_json(&self) -> String {
        // An empty object draws an `unknown_type` error from the server: a visible failure
        // rather than a silently different request.
        serde_json::to_string(self).unwrap_or_else(|_| String::from("{}"))
    }
}

/// A message from the server to a client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    Welcome {
        player: String,
        name: String,
        token: String,
        protocol: u32,
        /// The player has an account (a claimed name with a password, or a registered bot).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        account: bool,
        /// The longest name a guest may go by on this server, in characters: a client's
        /// name box takes no more.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name_max: Option<u32>,
    },
    Created {
        room: String,
    },
    State(Box<RoomState>),
    Moved {
        room: String,
        seq: u64,
        ply: u32,
        #[serde(rename = "move")]
        mv: String,
        by: Color,
        to_move: Color,
        clock: Option<ClockState>,
        /// The mover's request id; sent only to the mover.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
    Over {
        room: String,
        seq: u64,
        #[serde(flatten)]
        result: GameResult,
    },
    /// What a rated game's end did to its players' ratings (sent once the change is stored).
    Rated {
        room: String,
        #[serde(flatten)]
        outcome: RatingOutcome,
    },
    UndoOffer {
        room: String,
        seq: u64,
        by: Color,
    },
    Undone {
        room: String,
        seq: u64,
        /// The position is now after this many moves.
        ply: u32,
    },
    DrawOffer {
        room: String,
        seq: u64,
        by: Color,
    },
    Rematch {
        room: String,
        seq: u64,
        /// The new room.
        next: String,
    },
    Chat {
        room: String,
        seq: u64,
        /// The sender's player id.
        from: String,
        name: String,
        text: String,
        bot: bool,
        /// The sender's seat, `null` for a spectator.
        seat: Option<Color>,
    },
    /// A moderator hid a chat line of `player` in `room` for everyone: clients drop it.
    ChatHidden {
        room: String,
        player: String,
        text: String,
    },
    /// To a player a moderator acted on: `action` `warn`, `mute`, `rated_ban`, `ban`,
    /// `close` or `lift`, why, and until when (`null`: for good, or a warning).
    Sanction {
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        until_ms: Option<u64>,
        reason: String,
        /// `lift`: the sanction lifted (`mute`, `rated_ban`, `ban`, `close`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<String>,
    },
    Crowd {
        room: String,
        spectators: u32,
        online: SeatsOnline,
        /// The seated players away from a game in progress (an addition to the v1 contract).
        #[serde(default, skip_serializing_if = "SeatsAway::is_empty")]
        away: SeatsAway,
    },
    Seeking {
        seek: String,
    },
    /// The challenger's challenge is open.
    ChallengeSent {
        challenge: String,
        to: String,
    },
    /// A challenge to the receiver.
    Challenged {
        challenge: String,
        from: Challenger,
        game: GameSpec,
        clock: Option<ClockSpec>,
        color: ChallengeColor,
        rated: bool,
    },
    /// The challenged player declined the challenger's challenge.
    ChallengeDeclined {
        challenge: String,
        by: String,
        reason: DeclineReason,
        message: String,
    },
    /// A challenge is no longer open.
    ChallengeGone {
        challenge: String,
        why: ChallengeEnd,
    },
    Lobby(LobbyLists),
    Invite {
        room: String,
        game: GameSpec,
        seat: Color,
        level: u8,
        clock: Option<ClockSpec>,
    },
    /// A job for an analysis worker.
    Analyze(Box<AnalyzeJob>),
    /// A live analysis for a worker.
    AnalyseLive(Box<LiveJob>),
    /// A position of a hall's game for a worker to prove a puzzle from.
    ProvePuzzle(Box<PuzzleJob>),
    /// Stop a live analysis (to its worker).
    AnalyseStop {
        job: String,
    },
    /// One depth of the asker's live analysis, with the worker's name.
    AnalysisLine {
        id: String,
        by: String,
        #[serde(flatten)]
        line: LiveLine,
    },
    /// The value of one rated move of the asker's live analysis, with the worker's name.
    AnalysisMove {
        id: String,
        by: String,
        #[serde(flatten)]
        rated: RatedMove,
    },
    /// Where the asker's live analysis stands: `pending`, `running`, `done` or `failed`.
    AnalysisStatus {
        id: String,
        status: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// Where the review of a finished game stands, with the review once it is made.
    Review {
        room: String,
        status: ReviewStatus,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        review: Option<Box<Review>>,
    },
    Error {
        code: ErrorCode,
        message: String,
        /// The `t` of the message that was refused.
        #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
        reference: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
    },
}

/// Sent in place of a message that failed to serialise, which the types above make impossible
/// in practice (no maps with non-string keys, no non-finite floats).
const SERIALISE_FALLBACK: &str =
    r#"{"t":"error","code":"bad_request","message":"internal error: reply not serialisable"}"#;

impl ServerMsg {
    /// The JSON text of the message, for one WebSocket text frame.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| String::from(SERIALISE_FALLBACK))
    }

    /// An `error` reply with no reference.
    #[must_use]
    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            code,
            message: message.into(),
            reference: None,
            room: None,
            id: None,
        }
    }
}

/// Parses a server message, for clients written in Rust (the bot, tests). Unknown fields are
/// ignored, as on the server side.
pub fn parse_server(text: &str) -> Result<ServerMsg, serde_json::Error> {
    serde_json::from_str(text)
}
