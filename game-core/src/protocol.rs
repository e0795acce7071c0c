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

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use thiserror::Error;

use crate::position::{EndReason, Outcome, Score};
use crate::spec::{GameKind, GameSpec};
use crate::Color;

/// The protocol version announced in `welcome`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Bot levels a client may ask for (`create.bots`, `invite_bot`, `invite`).
pub const BOT_LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

// ---------------------------------------------------------------------------------------------
// Shared value types
// ---------------------------------------------------------------------------------------------

/// A time control. `null` on the wire (an `Option<ClockSpec>` of `None`) means untimed.
///
/// Bounds checked by [`ClockSpec::validate`] (parsing accepts any non-negative numbers so that
/// an out-of-range value gets a clear message rather than a type error):
/// - Fischer: `initial_ms` in 1 s ..= 3 h, `increment_ms` in 0 ..= 60 s;
/// - per move: `move_ms` in 1 s ..= 1 h.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockSpec {
    /// `{"initial_ms":300000,"increment_ms":2000}`: a bank of time plus an increment after each
    /// move. A missing `increment_ms` reads as 0 (sudden death).
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// `{"move_ms":5000}`: a fixed time for every move, nothing carried over.
    PerMove { move_ms: u64 },
}

/// Smallest `initial_ms` of a Fischer clock: 1 s.
pub const MIN_INITIAL_MS: u64 = 1_000;
/// Largest `initial_ms` of a Fischer clock: 3 h.
pub const MAX_INITIAL_MS: u64 = 3 * 3_600_000;
/// Largest `increment_ms` of a Fischer clock: 60 s.
pub const MAX_INCREMENT_MS: u64 = 60_000;
/// Smallest `move_ms` of a per-move clock: 1 s.
pub const MIN_MOVE_MS: u64 = 1_000;
/// Largest `move_ms` of a per-move clock: 1 h.
pub const MAX_MOVE_MS: u64 = 3_600_000;

/// A clock whose numbers are out of the accepted ranges.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    #[error("initial_ms must be {MIN_INITIAL_MS}..={MAX_INITIAL_MS}, got {0}")]
    Initial(u64),
    #[error("increment_ms must be 0..={MAX_INCREMENT_MS}, got {0}")]
    Increment(u64),
    #[error("move_ms must be {MIN_MOVE_MS}..={MAX_MOVE_MS}, got {0}")]
    PerMove(u64),
}

impl ClockSpec {
    /// Checks the bounds documented on [`ClockSpec`].
    pub fn validate(&self) -> Result<(), ClockError> {
        match *self {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => {
                if !(MIN_INITIAL_MS..=MAX_INITIAL_MS).contains(&initial_ms) {
                    return Err(ClockError::Initial(initial_ms));
                }
                if increment_ms > MAX_INCREMENT_MS {
                    return Err(ClockError::Increment(increment_ms));
                }
            }
            ClockSpec::PerMove { move_ms } => {
                if !(MIN_MOVE_MS..=MAX_MOVE_MS).contains(&move_ms) {
                    return Err(ClockError::PerMove(move_ms));
                }
            }
        }
        Ok(())
    }
}

/// The wire shape of both clock forms at once; [`ClockSpec`] decides which one it is, so that
/// a mixed or empty object gets a message that names the two shapes (an untagged enum would
/// only say "did not match any variant").
#[derive(Serialize, Deserialize)]
struct ClockWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    move_ms: Option<u64>,
}

impl Serialize for ClockSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = match *self {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => ClockWire {
                initial_ms: Some(initial_ms),
                increment_ms: Some(increment_ms),
                move_ms: None,
            },
            ClockSpec::PerMove { move_ms } => ClockWire {
                initial_ms: None,
                increment_ms: None,
                move_ms: Some(move_ms),
            },
        };
        wire.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ClockSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClockSpec, D::Error> {
        use serde::de::Error;
        let wire = ClockWire::deserialize(deserializer)?;
        match (wire.initial_ms, wire.increment_ms, wire.move_ms) {
            (Some(initial_ms), increment_ms, None) => Ok(ClockSpec::Fischer {
                initial_ms,
                increment_ms: increment_ms.unwrap_or(0),
            }),
            (None, None, Some(move_ms)) => Ok(ClockSpec::PerMove { move_ms }),
            (None, None, None) => Err(D::Error::custom(
                "clock must be {\"initial_ms\",\"increment_ms\"} or {\"move_ms\"} (or null for none)",
            )),
            (None, Some(_), None) => Err(D::Error::custom("clock has increment_ms without initial_ms")),
            _ => Err(D::Error::custom(
                "clock mixes initial_ms/increment_ms with move_ms; use one form",
            )),
        }
    }
}

/// The clocks of a running game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub black_ms: u64,
    pub white_ms: u64,
    /// The side whose time is running; `null` while the side to move has not made its first
    /// move (its time starts with it), before the game starts and after it ends.
    pub running: Option<Color>,
    /// While the side to move has not made its first move: the time it has left for it before
    /// the game is aborted (an addition to the v1 contract; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_ms: Option<u64>,
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The player id (public, unlike the token).
    pub player: String,
    pub name: String,
    pub bot: bool,
    pub online: bool,
    /// While the player is away from a game in progress: how long it has to come back, and
    /// when the opponent may claim. Absent otherwise (and from older servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<SeatAway>,
}

/// A seated player away from a game in progress, as of the message that carries it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAway {
    /// Time left before the player loses by abandonment (or the game is aborted).
    pub back_ms: u64,
    /// Time left before the opponent may `claim` the win or a draw (0: now).
    pub claim_ms: u64,
}

/// The away players of a room, in `crowd`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatsAway {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<SeatAway>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<SeatAway>,
}

impl SeatsAway {
    /// Nobody is away.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.black.is_none() && self.white.is_none()
    }

    #[must_use]
    pub fn of(&self, seat: Color) -> Option<SeatAway> {
        match seat {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// What a player claims when the opponent has stayed away for half the grace period.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    Win,
    Draw,
}

/// Both seats of a room; `null` for a free seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub black: Option<SeatInfo>,
    pub white: Option<SeatInfo>,
}

/// Presence of the two seated players, in `crowd`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatsOnline {
    pub black: bool,
    pub white: bool,
}

/// Who won: a side, nobody (a draw), or no result at all (an aborted game).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultKind {
    Black,
    White,
    Draw,
    /// Ended before both sides made their first move: no winner, and not a draw either.
    Aborted,
}

impl ResultKind {
    /// `None` is a draw.
    #[must_use]
    pub fn from_winner(winner: Option<Color>) -> ResultKind {
        match winner {
            Some(Color::Black) => ResultKind::Black,
            Some(Color::White) => ResultKind::White,
            None => ResultKind::Draw,
        }
    }

    /// The winning side, `None` for a draw or an aborted game.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            ResultKind::Black => Some(Color::Black),
            ResultKind::White => Some(Color::White),
            ResultKind::Draw | ResultKind::Aborted => None,
        }
    }
}

/// The end of a game, as `over` carries it (flattened) and `state.result` repeats it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub result: ResultKind,
    pub reason: EndReason,
    /// The winning cells (five or four in a row); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
    /// Final disc count, Othello only; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Score>,
}

impl GameResult {
    /// The result of a position that ended on the board.
    #[must_use]
    pub fn from_outcome(outcome: &Outcome) -> GameResult {
        GameResult {
            result: ResultKind::from_winner(outcome.winner),
            reason: outcome.reason,
            line: if outcome.line.is_empty() {
                None
            } else {
                Some(outcome.line.iter().map(ToString::to_string).collect())
            },
            score: outcome.score,
        }
    }
}

/// Where a room is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoomStatus {
    /// A seat is still free.
    Waiting,
    Playing,
    Over,
}

/// The seat asked for in `create`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatChoice {
    Black,
    White,
    /// Drawn by the server (the default when `seat` is absent).
    #[default]
    Random,
    /// The creator watches as a spectator.
    None,
}

/// How `join` enters a room.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JoinAs {
    Player,
    Spectator,
}

/// Bot levels per seat in `create` (`{"white":5}`). A key other than `black`/`white` is a bad
/// request rather than silently ignored, since the keys are the data here.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotSeats {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<u8>,
}

/// The `bot` part of a bot's `hello`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotHello {
    /// The key the server was started with.
    pub key: String,
    /// The games this bot plays.
    pub games: Vec<GameKind>,
    /// How many games it plays at once.
    pub capacity: u32,
    /// Also takes `analyze` jobs: reviews of finished games (an addition to the v1 contract).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub analysis: bool,
}

/// The `house` part of the server's own clients' `hello` (the showcase): the server's bot key
/// proves the connection belongs to the server, and such a connection is no spectator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseHello {
    /// The key the server was started with.
    pub key: String,
}

/// A room waiting for a player, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenRoom {
    pub room: String,
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub seats: Seats,
    /// Creation time, milliseconds since the Unix epoch.
    pub created: u64,
}

/// A game in progress, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    pub room: String,
    pub game: GameSpec,
    pub seats: Seats,
    pub spectators: u32,
    pub ply: u32,
    /// The position as [`crate::AnyPosition::board_text`] draws it, for the lobby's small
    /// boards (an addition to the v1 contract; absent from older servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The last move played, in canonical notation (absent before the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

/// A connected bot, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotInfo {
    pub name: String,
    pub games: Vec<GameKind>,
    /// The levels it plays (normally all of [`BOT_LEVELS`]).
    pub levels: Vec<u8>,
    /// Games it is playing now.
    pub busy: u32,
    /// Games it can play at once.
    pub capacity: u32,
}

/// Players waiting for quick pairing with one game and clock, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekInfo {
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub waiting: u32,
}

/// The four lobby lists. The server sends at most so many entries of each list (the newest
/// open rooms, the most watched live games) and, beside them, how many there are in all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyLists {
    pub open: Vec<OpenRoom>,
    pub live: Vec<LiveGame>,
    pub bots: Vec<BotInfo>,
    pub seeks: Vec<SeekInfo>,
    /// Open rooms in all, listed or not (an addition to the v1 contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_total: Option<u32>,
    /// Live games in all, listed or not (an addition to the v1 contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_total: Option<u32>,
}

/// Everything a client needs to draw a room from scratch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomState {
    pub room: String,
    /// The number of the last event of the room (see `seq` in the contract).
    pub seq: u64,
    pub game: GameSpec,
    /// Moves set before the game started.
    pub opening: Vec<String>,
    /// Moves played since the opening.
    pub moves: Vec<String>,
    pub to_move: Color,
    pub status: RoomStatus,
    pub result: Option<GameResult>,
    pub seats: Seats,
    pub clock: Option<ClockState>,
    pub spectators: u32,
    /// The receiver's seat, `null` for a spectator.
    pub you: Option<Color>,
    /// The room's time control (an addition to the contract; absent when untimed), so a
    /// client that arrives by a link can show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<ClockSpec>,
    /// Where the opening rule stands, for a game with one (absent otherwise); its choices
    /// are the first entries of `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_state: Option<crate::opening::OpeningView>,
    /// A rated room (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// What the game did to the ratings, once a rated game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingOutcome>,
    /// The id of the tournament this game is played in (absent otherwise, and once the room
    /// is reloaded after its end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
}

/// One side's rating before and after a rated game (rounded to whole points).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    pub color: Color,
    pub player: String,
    pub name: String,
    pub before: i32,
    pub after: i32,
    /// The rating deviation after the game.
    pub rd: i32,
    /// Whether the rating after the game is still provisional (deviation above 110).
    pub provisional: bool,
}

/// What a rated game did to the ratings: a change for each side, or none and why.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingOutcome {
    pub changes: Vec<RatingChange>,
    /// Why the game was not rated after all (`repeat`: a person's fourth rated game against
    /// the same bot within a day).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<String>,
}

pub use crate::review::{AnalysisPly, AnalyzeJob, Review, ReviewMark, ReviewPly, ReviewStatus};

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
    Lobby => "lobby",
    Unlobby => "unlobby",
    Decline => "decline",
    Review => "review",
    Analysis => "analysis",
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

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// The `code` of an `error` reply: exactly the codes of the contract.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadJson,
    UnknownType,
    BadRequest,
    HelloRequired,
    BadToken,
    BadBotKey,
    NoSuchRoom,
    RoomFull,
    NotAPlayer,
    NotYourTurn,
    IllegalMove,
    Forbidden,
    GameOver,
    NoBotAvailable,
    BadGame,
    RateLimited,
    TooLong,
    NameTaken,
    AccountNeeded,
}

impl ErrorCode {
    /// Every code, in the order of the contract.
    pub const ALL: [ErrorCode; 19] = [
        ErrorCode::BadJson,
        ErrorCode::UnknownType,
        ErrorCode::BadRequest,
        ErrorCode::HelloRequired,
        ErrorCode::BadToken,
        ErrorCode::BadBotKey,
        ErrorCode::NoSuchRoom,
        ErrorCode::RoomFull,
        ErrorCode::NotAPlayer,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::Forbidden,
        ErrorCode::GameOver,
        ErrorCode::NoBotAvailable,
        ErrorCode::BadGame,
        ErrorCode::RateLimited,
        ErrorCode::TooLong,
        ErrorCode::NameTaken,
        ErrorCode::AccountNeeded,
    ];

    /// The wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::BadBotKey => "bad_bot_key",
            ErrorCode::NoSuchRoom => "no_such_room",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NoBotAvailable => "no_bot_available",
            ErrorCode::BadGame => "bad_game",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::TooLong => "too_long",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::AccountNeeded => "account_needed",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A client frame that is not a valid [`ClientMsg`], with what could still be read of it so
/// the `error` reply can point at the request.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{code}: {message}")]
pub struct ParseError {
    /// `bad_json`, `unknown_type` or `bad_request`.
    pub code: ErrorCode,
    /// A short human explanation.
    pub message: String,
    /// The `t` of the frame, when it was a string.
    pub reference: Option<String>,
    /// The `room` of the frame, when it was a string.
    pub room: Option<String>,
    /// The `id` of the frame, when it was a string.
    pub id: Option<String>,
}

impl ParseError {
    /// The `error` reply to send back.
    #[must_use]
    pub fn to_server_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            code: self.code,
            message: self.message.clone(),
            reference: self.reference.clone(),
            room: self.room.clone(),
            id: self.id.clone(),
        }
    }
}

/// Longest human message built from serde's text or from echoed input, so a huge frame does
/// not come back as a huge error.
const MAX_MESSAGE_CHARS: usize = 160;

fn short(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
        s.push('…');
        s
    }
}

/// The one entry point for client frames.
///
/// - Not JSON, or JSON that is not an object (`[1]`, `"x"`, `3`, `null`): `bad_json`, since a
///   frame must be one JSON object.
/// - No `t`, a `t` that is not a string, or an unknown `t`: `unknown_type`.
/// - A known `t` with a missing field or a value of the wrong type or range: `bad_request`.
///
/// Unknown fields are ignored (except inside `create.bots`, whose keys must be seats).
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let fail = |code, message: String| ParseError {
        code,
        message,
        reference: None,
        room: None,
        id: None,
    };
    // Nearly every frame is well formed: read it straight into its message, and only when that
    // fails go through a JSON value to say what is wrong (and echo its room and id).
    if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
        return Ok(msg);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(ErrorCode::BadJson, short(&format!("invalid JSON: {e}"))))?;
    let Value::Object(ref object) = value else {
        return Err(fail(
            ErrorCode::BadJson,
            "a frame must be one JSON object".to_string(),
        ));
    };
    let string_field = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_string);
    let mut error = fail(ErrorCode::UnknownType, String::new());
    error.room = string_field("room");
    error.id = string_field("id");
    let Some(t) = object.get("t") else {
        error.message = "missing message type \"t\"".to_string();
        return Err(error);
    };
    let Some(t) = t.as_str() else {
        error.message = "message type \"t\" must be a string".to_string();
        return Err(error);
    };
    if !CLIENT_TYPES.contains(&t) {
        // Echo only a bounded prefix of a type we do not know: it can be any string.
        error.reference = Some(t.chars().take(32).collect());
        error.message = short(&format!("unknown message type {t:?}"));
        return Err(error);
    }
    let t = t.to_string();
    error.reference = Some(t.clone());
    serde_json::from_value(value).map_err(|e| {
        error.code = ErrorCode::BadRequest;
        error.message = short(&format!("bad {t}: {e}"));
        error
    })
}
