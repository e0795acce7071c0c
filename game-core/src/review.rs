//! The wire types of an engine review: the job an analysis worker is given, its answer for
//! each position, and the review a finished game keeps (docs/protocol.md, "Reviews").

use serde::{Deserialize, Serialize};

use crate::spec::GameSpec;

/// The largest magnitude of an evaluation: a proven win for black is `+EVAL_WIN`.
pub const EVAL_WIN: i32 = 1000;

/// The longest best line a review keeps for one position.
pub const MAX_PV: usize = 12;

/// A job for an analysis worker: the game (without an opening rule: its decisions are
/// already stones in `setup`), the stones on the board before the moves to review, and those
/// moves. The worker answers one [`AnalysisPly`] for each move: the position before it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzeJob {
    pub job: String,
    pub game: GameSpec,
    pub setup: Vec<String>,
    pub moves: Vec<String>,
}

/// A worker's verdict on one position of its job: the position before move `ply` (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisPly {
    pub ply: u32,
    /// -1000..=1000 from black's view; ±1000 only for a proven win.
    pub eval: i32,
    /// The value is proven with best play (a win, a loss or a draw).
    #[serde(default)]
    pub proven: bool,
    /// For a proven win, its distance in plies: positive when black wins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    /// The engine's move, in canonical notation.
    pub best: String,
    /// The engine's line, starting with `best`.
    #[serde(default)]
    pub pv: Vec<String>,
}

/// What a review says about the move played from a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewMark {
    /// The mover's evaluation dropped by a large step.
    Mistake,
    /// The mover had a proven win and the move gave it up.
    MissedWin,
}

/// One reviewed position: the worker's verdict and the server's mark of the move played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewPly {
    pub eval: i32,
    #[serde(default)]
    pub proven: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    pub best: String,
    pub pv: Vec<String>,
    /// The move actually played from here.
    #[serde(rename = "move")]
    pub played: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<ReviewMark>,
}

/// The review of a finished game: entry `i` of `plies` is the position before entry
/// `from + i` of the room's `moves` (`from` skips the decisions of an opening rule).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    pub from: u32,
    pub plies: Vec<ReviewPly>,
    /// The name of the worker that made it.
    pub by: String,
    /// When it was made, milliseconds since the Unix epoch.
    pub made_ms: u64,
}

/// Where the review of a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewStatus {
    /// None made and none asked for.
    None,
    /// Waiting for a worker, or being made.
    Pending,
    /// Made: the message carries it.
    Done,
    /// Could not be made; `message` says why. Asking again tries again.
    Failed,
}

/// A live analysis for a worker (the analysis board's engine): the position — a set-up board
/// ([`crate::setup`]) or the game's start — with `moves` played from it, searched deeper and
/// deeper for `ms` milliseconds, one [`LiveLine`] a depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveJob {
    pub job: String,
    pub game: GameSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    pub ms: u64,
    /// Moves of the position to value one by one (the opening explorer's), each answered by
    /// a [`RatedMove`] after the position's own lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rate: Vec<String>,
}

/// What a live analysis found at one depth: the evaluation on the review's scale (from
/// black's view, ±1000 only for a proven win), the best move and line, and the work done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveLine {
    pub depth: u32,
    pub eval: i32,
    #[serde(default)]
    pub proven: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    pub best: String,
    #[serde(default)]
    pub pv: Vec<String>,
    #[serde(default)]
    pub nodes: u64,
    #[serde(default)]
    pub ms: u64,
    /// How a Gomoku win proven for the side to move goes: `vcf` or `vct`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
}

/// A live analysis's value of one rated move: the position after it, on the review's scale
/// (from black's view), searched to `depth`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatedMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub depth: u32,
    pub eval: i32,
    #[serde(default)]
    pub proven: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
}
