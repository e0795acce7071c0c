//! What every engine shares: search limits, the result of a search, levels 1–10 and the stop
//! flag that links a search to its caller.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use game_core::AnyPosition;
use serde::Serialize;

/// How long or how deep to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limits {
    /// Up to this depth (plies), then stop. Deterministic.
    Depth(u32),
    /// Up to about this many nodes. Deterministic.
    Nodes(u64),
    /// Up to this much wall time.
    Time(Duration),
    /// A game clock: time left and increment of the side to move; the engine budgets a move.
    Clock { left: Duration, increment: Duration },
    /// Prove the result: exact solvers only (Connect Four, Othello), threat search for Gomoku.
    Solve,
    /// Until stopped.
    Infinite,
}

/// A score as the engines report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// Heuristic, in the game's units (centi-stones for Gomoku, centi-discs for Othello).
    Heuristic(i32),
    /// Proven: the side to move wins (positive) or loses (negative) in this many plies.
    WinIn(i32),
    /// Proven exact value in the game's convention (Connect Four test-set score, Othello
    /// final disc difference).
    Exact(i32),
}

/// The outcome of a search, as `kibitz analyze` prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SearchResult {
    /// Best move in protocol notation.
    pub best: String,
    pub score: Score,
    /// True when the score is proven.
    pub exact: bool,
    pub depth: u32,
    pub nodes: u64,
    pub ms: u64,
    /// Principal variation in protocol notation (starts with `best`).
    pub pv: Vec<String>,
}

/// A shared flag that stops a running search from another thread.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    #[must_use]
    pub fn new() -> StopFlag {
        StopFlag::default()
    }
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A playing strength 1..=10 (ENGINES.md "Levels"): 10 is full strength within the time
/// given; lower levels search less and add controlled randomness. From level 3 up an engine
/// always takes an immediate win and blocks an immediate loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

impl Level {
    pub const MAX: Level = Level(10);

    /// Clamps into 1..=10.
    #[must_use]
    pub fn new(level: u8) -> Level {
        Level(level.clamp(1, 10))
    }
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }
}

/// An engine for one game: searches a position within limits.
pub trait Engine: Send {
    /// Searches `position` (which must not be over) and returns the best move found.
    /// `seed` feeds the level's randomness so a run can be repeated.
    fn search(
        &mut self,
        position: &AnyPosition,
        limits: Limits,
        level: Level,
        stop: &StopFlag,
        seed: u64,
    ) -> Option<SearchResult>;
}

/// Time to spend on one move under a clock: a slice of what is left plus most of the
/// increment, never more than a third of what is left, less a margin for the network and
/// the server's own bookkeeping — so a bot never loses on time.
#[must_use]
pub fn move_time(left: Duration, increment: Duration) -> Duration {
    let margin = Duration::from_millis(150).min(left / 4);
    let usable = left.saturating_sub(margin);
    let want = usable / 25 + increment * 3 / 4;
    want.min(usable / 3)
        .max(Duration::from_millis(5).min(usable))
}

/// The wall-clock deadline of a search that starts at `start`, if its limits have one.
#[must_use]
pub fn deadline(limits: Limits, start: std::time::Instant) -> Option<std::time::Instant> {
    match limits {
        Limits::Time(t) => Some(start + t),
        Limits::Clock { left, increment } => Some(start + move_time(left, increment)),
        Limits::Depth(_) | Limits::Nodes(_) | Limits::Solve | Limits::Infinite => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_time_stays_inside_the_clock() {
        for left_ms in [1u64, 10, 100, 500, 1_000, 5_000, 60_000, 600_000] {
            for inc_ms in [0u64, 100, 1_000, 5_000] {
                let left = Duration::from_millis(left_ms);
                let t = move_time(left, Duration::from_millis(inc_ms));
                assert!(t <= left, "{left_ms} {inc_ms}: {t:?}");
                assert!(
                    t <= left / 3 + Duration::from_millis(5),
                    "{left_ms} {inc_ms}: {t:?}"
                );
            }
        }
        assert!(move_time(Duration::from_secs(60), Duration::ZERO) >= Duration::from_secs(2));
        assert_eq!(Level::new(0).get(), 1);
        assert_eq!(Level::new(99), Level::MAX);
    }
}
