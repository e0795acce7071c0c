//! What the store keeps, as plain values: players, rooms with their seats, moves and chat, and
//! the writes that change them. Every backend stores and returns exactly these.

use serde::{Deserialize, Serialize};

use game_core::protocol::{ClockSpec, GameResult, RatingOutcome, RoomStatus};
use game_core::{Color, GameSpec};

/// One durable write. Each is all or nothing: a backend applies every part of it or none.
#[derive(Clone, Debug)]
pub enum Write {
    /// A player, new or under a new name.
    Player(StoredPlayer),
    /// A new room with its seats (and status: a room made with both seats taken is playing).
    NewRoom(Box<StoredRoom>),
    /// One event of a room; refused whole under a fence other than the room's (see
    /// [`RoomChange::fence`]).
    Room(RoomChange),
    /// A rematch: the new room, and the event of the old room that links to it, together,
    /// so that neither is stored without the other (nor either when `change` is fenced off).
    Rematch {
        next: Box<StoredRoom>,
        change: RoomChange,
    },
    /// Forgets these players if, still, they were last seen before `seen_before_ms` and sit in
    /// no unfinished room; bots are kept.
    ForgetPlayers {
        ids: Vec<String>,
        seen_before_ms: u64,
    },
    /// Takes `room` over under `fence`: its stored fence becomes `fence`, unless it is
    /// already greater (refused: a newer owner has claimed the room).
    Claim {
        room: String,
        fence: u64,
    },
    /// The engine review of a finished room (replacing an earlier one).
    Review {
        room: String,
        review: Box<game_core::protocol::Review>,
    },
    /// A new account for a stored player: refused with [`super::StoreError::NameTaken`] when
    /// its name (case-insensitively) is another's, or [`super::StoreError::HasAccount`] when
    /// the player already has one.
    NewAccount(StoredAccount),
    /// Another token of a player (a sign-in from another browser).
    Token {
        token_hash: String,
        player: String,
    },
    /// Forgets a token (a sign-out). A player's first token is replaced by an unusable one.
    DropToken {
        token_hash: String,
        replacement: String,
    },
    /// A tournament's whole document, new or replacing the stored one (its `created_ms` is
    /// kept from the first write).
    Tournament(StoredTournament),
    /// An edit of a stored tournament: written only if the stored document is still
    /// `before`, the one the edit was made from; otherwise refused whole with
    /// [`super::StoreError::Edited`] (another edit came first: read it again and redo).
    TournamentEdit {
        before: String,
        after: StoredTournament,
    },
    /// Indexes a finished room in the opening explorer unless it is already (a game that
    /// ended before the index existed); marks it indexed either way.
    IndexEnded {
        room: String,
    },
    /// A puzzle attempt of an account, with the ratings it leads to: stored only if it is the
    /// account's first attempt at that puzzle (a second changes nothing, ratings included).
    PuzzleAttempt(PuzzleAttempt),
    /// `player` is a moderator from now on (kept once).
    GrantModerator {
        player: String,
        at_ms: u64,
    },
    /// A player's report, with its context.
    Report(Box<StoredReport>),
    /// A moderator's action, carried out and written to the audit log in one transaction.
    Moderate(Box<StoredAction>),
    /// An account follows a player (kept once).
    Follow {
        player: String,
        followed: String,
        at_ms: u64,
    },
    Unfollow {
        player: String,
        followed: String,
    },
    /// `player` blocks `blocked` (kept once).
    Block {
        player: String,
        blocked: String,
        at_ms: u64,
    },
    /// `player` no longer blocks `blocked`.
    Unblock {
        player: String,
        blocked: String,
    },
    /// A puzzle made from a game of the hall: stored unless one of its id (the same position
    /// up to the board's symmetries) is already.
    HallPuzzle(Box<game_core::puzzle::Puzzle>),
    /// Writes nothing; answered once everything queued before it is committed.
    Barrier,
}

/// One event of a room as stored: everything in it is written together, so that, say, a move
/// that ends the game is never stored without its result, nor the result without the move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomChange {
    pub room: String,
    /// The room's event number after this change.
    pub seq: u64,
    /// Keep only the first this many moves (an accepted undo); applied before `moves`.
    pub truncate: Option<usize>,
    /// Moves to append, in order.
    pub moves: Vec<StoredMove>,
    /// Seats taken (`Some`) or given up (`None`).
    pub seats: Vec<(Color, Option<StoredSeat>)>,
    pub chat: Option<StoredChat>,
    /// A new status, with the result when the game ended.
    pub status: Option<(RoomStatus, Option<GameResult>)>,
    /// The room a rematch of this one was made in.
    pub rematch_next: Option<String>,
    /// Who has asked for a rematch, black and white.
    pub rematch_asks: Option<[bool; 2]>,
    /// The fencing token the change is made under: unless 0 (unfenced, as in a single
    /// server), the change is refused whole when the room's stored fence differs, so that an
    /// owner that lost the room can no longer write to it.
    pub fence: u64,
}

impl RoomChange {
    /// A change of `room` that only sets its event number.
    #[must_use]
    pub fn new(room: &str, seq: u64) -> RoomChange {
        RoomChange {
            room: room.to_string(),
            seq,
            ..RoomChange::default()
        }
    }
}

/// The fixed facts of a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRoomHead {
    pub id: String,
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub opening: Vec<String>,
    pub private: bool,
    pub created_ms: u64,
    pub creator: Option<String>,
    /// A rated room: its end changes the players' ratings (see [`crate::accounts::ratings`]).
    #[serde(default)]
    pub rated: bool,
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    pub player: String,
    pub name: String,
    pub bot: bool,
    /// The level a bot was invited at.
    pub level: Option<u8>,
}

/// One move with the clocks as they stood right after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    pub ply: usize,
    pub mv: String,
    pub by: Color,
    pub black_ms: Option<u64>,
    pub white_ms: Option<u64>,
    /// Wall-clock time of the move, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The mover's request id, so a resend after a restart is still answered, not replayed.
    /// Only the mover was ever told it: it is not published.
    #[serde(skip_serializing)]
    pub req_id: Option<String>,
    /// The room's event number of the `moved` that announced it.
    #[serde(default)]
    pub seq: u64,
}

/// One chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredChat {
    pub player: String,
    pub name: String,
    pub text: String,
    pub seat: Option<Color>,
    pub bot: bool,
    pub at_ms: u64,
}

/// A whole room as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRoom {
    #[serde(flatten)]
    pub head: StoredRoomHead,
    pub status: RoomStatus,
    pub result: Option<GameResult>,
    pub seq: u64,
    pub black: Option<StoredSeat>,
    pub white: Option<StoredSeat>,
    pub moves: Vec<StoredMove>,
    /// The fencing token of the room's owner (0: never claimed). The store's own guard, not
    /// part of the room's record: never exported.
    #[serde(skip)]
    pub fence: u64,
    /// What a rated room's end did to the ratings, once it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingOutcome>,
}

/// What a finished room keeps of its rematch: the room it was made in, and who asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredRematch {
    pub next: Option<String>,
    pub asked: [bool; 2],
}

/// A player as stored (the backend also keeps when it was last written: its last `hello`).
/// Its `token_hash` is unique: [`crate::store::Store::player_by_token`] finds it by that.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPlayer {
    pub id: String,
    pub name: String,
    pub token_hash: String,
    pub bot: bool,
}

/// An account: a player's claimed name (unique case-insensitively: [`name_key`]) and, for a
/// person, the hash of its password (PHC string, argon2id); a bot, registered by the bot key,
/// has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    pub player: String,
    pub name: String,
    pub password_hash: Option<String>,
    pub bot: bool,
    pub created_ms: u64,
}

/// The form of a name that uniqueness is judged on: `Alice` and `ALICE` are one name.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// One player's rating under one key, as stored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoredRating {
    pub key: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: u64,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaderRow {
    pub name: String,
    pub rating: f64,
    pub rd: f64,
    pub games: u64,
}

/// A rating after one rated game, for a player's history.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingPoint {
    pub key: String,
    pub at_ms: u64,
    pub rating: f64,
    pub room: String,
}

/// A game on a player's page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameLine {
    pub room: String,
    pub game: GameSpec,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The seats' player ids (a name may have changed since: a guest who claimed another).
    pub black_player: Option<String>,
    pub white_player: Option<String>,
    pub status: RoomStatus,
    pub result: Option<GameResult>,
    pub rated: bool,
    pub created_ms: u64,
}

/// What a player's page shows, read in one go.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerPage {
    pub player: String,
    pub name: String,
    pub bot: bool,
    pub ratings: Vec<StoredRating>,
    pub history: Vec<RatingPoint>,
    pub games: Vec<GameLine>,
}

/// A tournament as stored: one JSON document (`crate::tournament`'s), beside the two facts
/// the store lists tournaments by. The store never reads the document itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    pub id: String,
    /// `open`, `running` or `over`.
    pub status: String,
    pub created_ms: u64,
    pub doc: String,
}

/// A Glicko-2 puzzle rating (a player's per variant, or a puzzle's) and its attempts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StoredGlicko {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub plays: i64,
}

/// A stored puzzle of the hall's games: when it was stored (milliseconds since the Unix
/// epoch) and the puzzle.
pub type HallPuzzleRow = (u64, game_core::puzzle::Puzzle);

/// One rated puzzle attempt: who, which puzzle, the result and both ratings after it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleAttempt {
    pub player: String,
    pub puzzle: String,
    pub variant: String,
    pub solved: bool,
    pub at_ms: u64,
    pub player_after: StoredGlicko,
    pub puzzle_after: StoredGlicko,
}

/// A report of a player, a game or a chat line, with what the reporter saw around it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredReport {
    pub id: String,
    pub at_ms: u64,
    /// The reporting player.
    pub reporter: String,
    /// `player`, `game` or `chat`.
    pub kind: String,
    /// The reported player, `""` for none.
    pub player: String,
    /// The room, `""` for none.
    pub room: String,
    pub reason: String,
    pub note: String,
    /// The context as JSON: the reported name, the game's moves, the chat around the line.
    pub context: String,
    /// `open` until a moderator closes it.
    pub status: String,
}

/// A moderator's action as the audit log keeps it, and what it does to the store: `warn`
/// (nothing but the log), `mute`, `rated_ban`, `ban`, `close` (a sanction of that kind on
/// `player`), `lift` (the sanction of kind `detail` lifted), `rename` (the account's name
/// becomes `detail`), `hide_chat` (the line `detail` of `player` in `room` hidden for
/// everyone). A `report` named is closed by it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredAction {
    pub id: String,
    pub at_ms: u64,
    /// The moderator's player id.
    pub moderator: String,
    pub action: String,
    /// The player acted on.
    pub player: String,
    /// The room, `""` for none.
    pub room: String,
    pub reason: String,
    /// The new name, the hidden line, or the lifted sanction's kind; `""` otherwise.
    pub detail: String,
    /// When a mute or ban ends; `None`: for good (or not a sanction).
    pub until_ms: Option<u64>,
    /// The report this action answers, `""` for none.
    pub report: String,
}

/// A sanction in force: a mute, a ban from rated games, a ban or a closed account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSanction {
    pub player: String,
    /// `mute`, `rated_ban`, `ban` or `close`.
    pub kind: String,
    /// When it ends; `None`: for good.
    pub until_ms: Option<u64>,
    pub reason: String,
    pub moderator: String,
    pub at_ms: u64,
}
