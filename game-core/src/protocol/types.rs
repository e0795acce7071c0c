//! The protocol's shared value types: seats and who sits on them, results, a room's status
//! and whole state, the choices of `create` and `join`, a bot's `hello`, rating changes.

use serde::{Deserialize, Serialize};

use crate::position::{EndReason, Outcome, Score};
use crate::spec::{GameKind, GameSpec};
use crate::Color;

use super::ClockSpec;
use super::ClockState;

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
