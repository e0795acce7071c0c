//! Time for one Gomoku move: the hard end that every part of the move's work stops at, and
//! the points in between where the root's threat searches hand over to the next phase; under
//! a clock, the longer end a move may be given when its search is unsure of it, and what
//! makes it unsure ([`Swings`]).
//!
//! The caller's limit is a promise to a server clock or a tournament manager, so the end
//! is the caller's deadline less a margin: the searches read the clock only every few hundred
//! nodes, and the answer must still be written out before the deadline.

use super::board::Point;
use super::params::{MARGIN_MAX, MARGIN_MIN, SWING_DROP};
use crate::engine::value::WIN_BOUND;
use std::time::{Duration, Instant};

/// The clock of one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    start: Instant,
    end: Option<Instant>,
    /// The end the move may be given instead when its search is unsure of it.
    longest: Option<Instant>,
}

impl MoveClock {
    /// A clock started at `start` for a move that must be decided by `deadline` (none: the
    /// move is limited by depth or nodes instead).
    #[must_use]
    pub fn new(start: Instant, deadline: Option<Instant>) -> MoveClock {
        let end = deadline.map(|d| end_before(start, d));
        MoveClock {
            start,
            end,
            longest: end,
        }
    }

    /// The clock, with a later deadline that the move may be given instead when its search is
    /// unsure of it (never earlier than the first).
    #[must_use]
    pub fn with_longest(self, deadline: Option<Instant>) -> MoveClock {
        let longest = match (self.end, deadline) {
            (Some(end), Some(d)) => Some(end_before(self.start, d).max(end)),
            _ => self.end,
        };
        MoveClock { longest, ..self }
    }

    /// Whether the move may still be given a later end.
    #[must_use]
    pub fn can_extend(&self) -> bool {
        self.longest > self.end
    }

    /// Gives the move its longest end: the shares of the move count from its start to that.
    pub fn extend(&mut self) {
        self.end = self.longest;
    }

    /// The hard end of the move's work, if it is timed.
    #[must_use]
    pub fn end(&self) -> Option<Instant> {
        self.end
    }

    /// The instant when `fraction` (0..=1) of the move's time has gone, if it is timed.
    #[must_use]
    pub fn at(&self, fraction: f64) -> Option<Instant> {
        self.end.map(|end| {
            let span = end.saturating_duration_since(self.start);
            self.start + span.mul_f64(fraction.clamp(0.0, 1.0))
        })
    }

    /// The instant `fraction` of the move's time from now (never after the end), if it is
    /// timed: the budget of a phase that starts now, whenever the ones before it ended.
    #[must_use]
    pub fn from_now(&self, fraction: f64) -> Option<Instant> {
        self.end.map(|end| {
            let span = end.saturating_duration_since(self.start);
            (Instant::now() + span.mul_f64(fraction.clamp(0.0, 1.0))).min(end)
        })
    }

    /// `fraction` of the move's time, if it is timed.
    #[must_use]
    pub fn span(&self, fraction: f64) -> Option<Duration> {
        self.end.map(|end| {
            end.saturating_duration_since(self.start)
                .mul_f64(fraction.clamp(0.0, 1.0))
        })
    }

    /// Whether the move is timed and `fraction` of its time has gone.
    #[must_use]
    pub fn past(&self, fraction: f64) -> bool {
        self.at(fraction).is_some_and(|t| Instant::now() >= t)
    }

    /// When the move started.
    #[must_use]
    pub fn start(&self) -> Instant {
        self.start
    }
}

/// What the completed iterations of a move's search said, as the time manager reads them. A
/// search is unsure of its move when its best move changed in its last iteration or in the
/// one it was cut short in, or when its score fell by [`SWING_DROP`] or more from the
/// iteration two before (of the same parity: a Gomoku search's scores rise and fall with its
/// depth's parity, the side that moved last looking better).
#[derive(Debug, Default)]
pub struct Swings {
    seen: Vec<(Point, i32)>,
}

impl Swings {
    /// One completed iteration's best move and score.
    pub fn see(&mut self, best: Point, score: i32) {
        self.seen.push((best, score));
    }

    /// Whether the search, whose answer is `best`, is unsure of it. Fewer than three
    /// iterations say too little, and a proven result needs no more time.
    #[must_use]
    pub fn unsure(&self, best: Point) -> bool {
        let n = self.seen.len();
        if n < 3 {
            return false;
        }
        let (last, score) = self.seen[n - 1];
        if score.abs() >= WIN_BOUND {
            return false;
        }
        best != last || self.seen[n - 2].0 != last || self.seen[n - 3].1 - score >= SWING_DROP
    }
}

/// The end of a move due by `deadline`, less the margin for writing the answer out.
fn end_before(start: Instant, deadline: Instant) -> Instant {
    let span = deadline.saturating_duration_since(start);
    let margin = (span / 30).clamp(MARGIN_MIN, MARGIN_MAX);
    start + span.saturating_sub(margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_end_stays_before_the_deadline_and_shares_in_between() {
        let start = Instant::now();
        for ms in [0u64, 1, 10, 100, 1_000, 60_000] {
            let deadline = start + Duration::from_millis(ms);
            let clock = MoveClock::new(start, Some(deadline));
            let end = clock.end().unwrap();
            assert!(end <= deadline, "{ms}");
            assert!(deadline - end <= MARGIN_MAX, "{ms}");
            let half = clock.at(0.5).unwrap();
            assert!(start <= half && half <= end);
            assert_eq!(clock.at(1.0), Some(end));
            assert_eq!(clock.span(1.0), Some(end - start), "{ms}");
            assert_eq!(clock.span(0.5), Some((end - start).mul_f64(0.5)), "{ms}");
        }
        let clock = MoveClock::new(start, Some(start + Duration::from_millis(100)));
        assert!(clock.from_now(0.2).unwrap() <= clock.end().unwrap());
        assert_eq!(clock.from_now(5.0), clock.end());
        let untimed = MoveClock::new(start, None);
        assert_eq!(untimed.end(), None);
        assert_eq!(untimed.from_now(0.5), None);
        assert_eq!(untimed.span(0.5), None);
        assert!(!untimed.past(0.0));
    }

    #[test]
    fn a_clock_is_extended_to_its_longest_end_once() {
        let start = Instant::now();
        let at = |ms| Some(start + Duration::from_millis(ms));
        let mut clock = MoveClock::new(start, at(1_000)).with_longest(at(3_000));
        assert!(clock.can_extend());
        let half = clock.at(0.5).unwrap();
        clock.extend();
        assert!(!clock.can_extend());
        assert!(clock.end().unwrap() > start + Duration::from_millis(2_900));
        assert!(clock.at(0.5).unwrap() > half + Duration::from_millis(900));
        // No longer end, or an earlier one: nothing to extend.
        let fixed = MoveClock::new(start, at(1_000));
        assert!(!fixed.can_extend());
        assert!(!fixed.with_longest(at(500)).can_extend());
        assert!(!MoveClock::new(start, None)
            .with_longest(at(500))
            .can_extend());
    }

    #[test]
    fn a_search_is_unsure_when_its_move_changes_or_its_score_falls() {
        let steady = |scores: &[i32]| {
            let mut s = Swings::default();
            for &v in scores {
                s.see(7, v);
            }
            s
        };
        assert!(!Swings::default().unsure(7));
        assert!(
            !steady(&[40, 10]).unsure(7),
            "two iterations say too little"
        );
        assert!(!steady(&[40, 10, 35, 20]).unsure(7));
        assert!(
            steady(&[40, 10, 35, 20]).unsure(8),
            "the cut-short iteration's move"
        );
        assert!(
            steady(&[40, 60, 35, 60 - SWING_DROP]).unsure(7),
            "fell by the drop"
        );
        assert!(!steady(&[40, 60, 35, 61 - SWING_DROP]).unsure(7));
        let mut changed = steady(&[40, 10, 35]);
        changed.see(9, 20);
        assert!(changed.unsure(9), "the last iteration's move is new");
        assert!(!steady(&[40, 10, WIN_BOUND]).unsure(7), "proven");
    }
}
