//! What every engine shares: the [`Engine`] trait, search limits and requests, the result of
//! a search, levels 1–10 and the stop flag that links a search to its caller.

//!
//! # Layout
//! - this file: the `Engine` trait and what every engine shares.
//! - [`value`]: the shared search's value scale (proven wins by distance) and its scores.
//! - [`tt`]: the Zobrist-keyed transposition table.
//! - [`watchdog`]: the deadline, node budget and stop flag every search reads as it goes.
//! - [`search`]: the generic iterative-deepening PVS alpha-beta over a `SearchGame`.
//! - [`connect4`], [`othello`], [`gomoku`]: one engine per game, each with its level table
//!   and its tuned parameters.
//! - [`registry`]: which engine plays which game; position parsing for analyze and bench.
//! - [`beginner`]: a rule-following beginner for each game, the yardstick below level 1.

pub mod beginner;
pub mod connect4;
pub mod gomoku;
pub mod othello;
pub mod registry;
pub mod search;
pub mod tt;
pub mod value;
pub mod watchdog;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::AnyPosition;
use serde::Serialize;

/// How long or how deep to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimits {
    /// Up to this depth (plies), then stop. Deterministic.
    Depth(u32),
    /// Up to about this many nodes. Deterministic.
    Nodes(u64),
    /// Up to this much wall time.
    Time(Duration),
    /// A game clock: time left and increment of the side to move; the engine budgets a move
    /// ([`move_time`]), and one that is unsure of its move may take longer
    /// ([`longest_move_time`]).
    Clock { left: Duration, increment: Duration },
    /// A move that usually takes `usual` and may take up to `most` where the search is unsure
    /// of its move (a tournament manager's match time under its turn limit). Engines that
    /// manage no time take `usual`.
    Range { usual: Duration, most: Duration },
    /// Prove the result: exact solvers only (Connect Four, Othello), threat search for Gomoku.
    Solve,
    /// Until stopped.
    Infinite,
}

impl SearchLimits {
    /// The wall-clock deadline of a search that starts at `start`, if these limits have one.
    #[must_use]
    pub fn deadline(self, start: Instant) -> Option<Instant> {
        match self {
            SearchLimits::Time(t) => Some(start + t),
            SearchLimits::Clock { left, increment } => Some(start + move_time(left, increment)),
            SearchLimits::Range { usual, .. } => Some(start + usual),
            SearchLimits::Depth(_)
            | SearchLimits::Nodes(_)
            | SearchLimits::Solve
            | SearchLimits::Infinite => None,
        }
    }

    /// The latest a search that starts at `start` may end when it is unsure of its move (its
    /// best move changed late, or its score fell): a clock's or a range's longest move, else
    /// the [`SearchLimits::deadline`].
    #[must_use]
    pub fn longest_deadline(self, start: Instant) -> Option<Instant> {
        match self {
            SearchLimits::Clock { left, increment } => {
                Some(start + longest_move_time(left, increment))
            }
            SearchLimits::Range { usual, most } => Some(start + most.max(usual)),
            _ => self.deadline(start),
        }
    }

    /// The deepest iteration to search: the depth asked for, never beyond `level_cap`.
    #[must_use]
    pub fn max_depth(self, level_cap: u32) -> u32 {
        match self {
            SearchLimits::Depth(d) => d.min(level_cap),
            _ => level_cap,
        }
    }

    /// The node budget, if these limits are one.
    #[must_use]
    pub fn max_nodes(self) -> Option<u64> {
        match self {
            SearchLimits::Nodes(n) => Some(n),
            _ => None,
        }
    }
}

/// Everything a search is asked besides the position.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub limits: SearchLimits,
    pub level: Level,
    /// Stops the search from another thread.
    pub stop: StopFlag,
    /// Feeds the level's randomness, so that a run can be repeated.
    pub seed: u64,
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

impl Score {
    /// The score as one number, for whoever keeps scores as numbers (`kibitz analyze`'s
    /// `score`, the opening book): a heuristic or exact value as it is, a proven win as
    /// 100,000 minus its plies, a proven loss the negative.
    #[must_use]
    pub fn as_number(self) -> i32 {
        match self {
            Score::Heuristic(s) | Score::Exact(s) => s,
            Score::WinIn(n) if n > 0 => 100_000 - n,
            Score::WinIn(n) => -100_000 - n,
        }
    }
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

impl SearchResult {
    /// Whether the move came from an opening book: the engines report a book move with the
    /// depth of the book's own offline search, no nodes and no proof. It searched nothing
    /// now, so the protocols show it as a book move rather than as a search of that depth
    /// (a depth average read from their lines would count the book's depth as the search's).
    #[must_use]
    pub fn is_book_move(&self) -> bool {
        self.nodes == 0 && self.depth > 0 && !self.exact
    }
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

/// A playing strength 1..=10 (docs/engines.md, "Levels"): 10 is full strength within the time
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

    /// This level's row of a table that has one for each level, 1 first.
    #[must_use]
    pub fn pick<T: Copy>(self, rows: [T; 10]) -> T {
        // A level is 1..=10 by construction, so the index is always in the table.
        rows[usize::from(self.0 - 1)]
    }
}

/// An engine for one game: searches a position within limits.
pub trait Engine: Send {
    /// Searches `position` as `request` asks and returns the best move found; `None` when
    /// the game is over or is not this engine's.
    fn search_with(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
    ) -> Option<SearchResult>;

    /// [`Engine::search_with`], the request spelled out.
    fn search(
        &mut self,
        position: &AnyPosition,
        limits: SearchLimits,
        level: Level,
        stop: &StopFlag,
        seed: u64,
    ) -> Option<SearchResult> {
        let request = SearchRequest {
            limits,
            level,
            stop: stop.clone(),
            seed,
        };
        self.search_with(position, &request)
    }

    /// The decision of whoever acts in an opening rule (swap2, Soosõrv-8, Taraguchi-10),
    /// as a result whose `best` is the choice's text; `None` for an engine that does not
    /// play opening rules, or once the opening is over.
    fn decide_opening(
        &mut self,
        _opening: &game_core::opening::Opening,
        _request: &SearchRequest,
    ) -> Option<SearchResult> {
        None
    }

    /// How long `level` thinks about a move of an untimed game: 0.3 s at level 1 up to 3 s
    /// at level 10.
    fn think_time(&self, level: Level) -> Duration {
        Duration::from_millis(300 * u64::from(level.get()))
    }
}

/// Time to spend on one move under a clock: a slice of what is left plus most of the
/// increment, never more than a third of what is left, less a margin for the network and
/// the server's own bookkeeping — so a bot never loses on time.
#[must_use]
pub fn move_time(left: Duration, increment: Duration) -> Duration {
    let usable = usable_time(left);
    let want = usable / 25 + increment * 3 / 4;
    want.min(usable / 3)
        .max(Duration::from_millis(5).min(usable))
}

/// How many times its usual time a move under a clock may take when the search is unsure of
/// it (docs/benchmarks-log/gomoku-learned-1.md, "A time manager").
pub const LONGEST_MOVE_FACTOR: u32 = 3;

/// The most one move under a clock may take when the search is unsure of it:
/// [`LONGEST_MOVE_FACTOR`] times its [`move_time`], still never more than a third of what is
/// left less the margin. The usual time is a slice of what is left, so a clock spent faster
/// on the hard moves gives the later moves less, and never runs out.
#[must_use]
pub fn longest_move_time(left: Duration, increment: Duration) -> Duration {
    let usual = move_time(left, increment);
    (usual * LONGEST_MOVE_FACTOR)
        .min(usable_time(left) / 3)
        .max(usual)
}

/// What is left of a clock less the margin for the network and the server's bookkeeping.
fn usable_time(left: Duration) -> Duration {
    let margin = Duration::from_millis(150).min(left / 4);
    left.saturating_sub(margin)
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
                let longest = longest_move_time(left, Duration::from_millis(inc_ms));
                assert!(
                    t <= longest && longest <= left,
                    "{left_ms} {inc_ms}: {longest:?}"
                );
                assert!(
                    longest <= left / 3 + Duration::from_millis(5),
                    "{left_ms} {inc_ms}: {longest:?}"
                );
            }
        }
        assert!(move_time(Duration::from_secs(60), Duration::ZERO) >= Duration::from_secs(2));
        let (left, none) = (Duration::from_secs(60), Duration::ZERO);
        assert_eq!(longest_move_time(left, none), move_time(left, none) * 3);
        assert_eq!(Level::new(0).get(), 1);
        assert_eq!(Level::new(99), Level::MAX);
        let rows = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(Level::new(1).pick(rows), 1);
        assert_eq!(Level::MAX.pick(rows), 10);
    }

    /// An engine that never finds a move: what the trait provides, alone.
    struct Resigns;

    impl Engine for Resigns {
        fn search_with(&mut self, _: &AnyPosition, _: &SearchRequest) -> Option<SearchResult> {
            None
        }
    }

    #[test]
    fn untimed_games_get_more_time_at_higher_levels() {
        assert_eq!(
            Resigns.think_time(Level::new(1)),
            Duration::from_millis(300)
        );
        assert_eq!(Resigns.think_time(Level::MAX), Duration::from_secs(3));
        let clock = SearchLimits::Clock {
            left: Duration::from_secs(60),
            increment: Duration::ZERO,
        };
        let start = Instant::now();
        assert!(clock.deadline(start) > Some(start));
        assert_eq!(SearchLimits::Depth(3).deadline(start), None);
    }
}
