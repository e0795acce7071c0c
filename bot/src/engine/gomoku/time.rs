//! Time for one Gomoku move: the hard end that every part of the move's work stops at, and
//! the points in between where the root's threat searches hand over to the next phase.
//!
//! The caller's limit is a promise to a server clock or a tournament manager, so the end
//! is the caller's deadline less a margin: the searches read the clock only every few hundred
//! nodes, and the answer must still be written out before the deadline.

use super::params::{MARGIN_MAX, MARGIN_MIN};
use std::time::{Duration, Instant};

/// The clock of one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveClock {
    start: Instant,
    end: Option<Instant>,
}

impl MoveClock {
    /// A clock started at `start` for a move that must be decided by `deadline` (none: the
    /// move is limited by depth or nodes instead).
    #[must_use]
    pub fn new(start: Instant, deadline: Option<Instant>) -> MoveClock {
        let end = deadline.map(|d| {
            let span = d.saturating_duration_since(start);
            let margin = (span / 30).clamp(MARGIN_MIN, MARGIN_MAX);
            start + span.saturating_sub(margin)
        });
        MoveClock { start, end }
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
}
