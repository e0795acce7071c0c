//! The one rate limiter of the server: a counter over fixed windows. It bounds a connection's
//! messages and refusals and a player's chat lines, each with its own [`Rate`].

use tokio::time::{Duration, Instant};

/// At most `max` events per `per`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rate {
    pub max: u32,
    pub per: Duration,
}

impl Rate {
    #[must_use]
    pub fn new(max: u32, per: Duration) -> Rate {
        Rate { max, per }
    }
}

/// Counts events in windows of a rate's length; a window opens with the first event after the
/// previous one closed. Two words of state, no allocation: one per connection or chatter.
#[derive(Clone, Debug, Default)]
pub struct RateWindow {
    opened: Option<Instant>,
    count: u32,
}

impl RateWindow {
    /// Counts an event at `now`; false when it goes past `rate` in its window. An event past
    /// the limit still counts, so a flood does not earn itself a fresh window.
    pub fn admit(&mut self, rate: Rate, now: Instant) -> bool {
        self.roll(rate, now);
        self.count = self.count.saturating_add(1);
        self.count <= rate.max
    }

    /// Whether an event at `now` would be admitted, counting nothing.
    #[must_use]
    pub fn would_admit(&self, rate: Rate, now: Instant) -> bool {
        self.current(rate, now) < rate.max
    }

    /// How long until the current window closes and events count afresh (zero when none
    /// counts now).
    #[must_use]
    pub fn closes_in(&self, rate: Rate, now: Instant) -> Duration {
        match self.opened {
            Some(opened) if self.current(rate, now) > 0 => {
                (opened + rate.per).saturating_duration_since(now)
            }
            _ => Duration::ZERO,
        }
    }

    /// Whether the window has closed: nothing counts any more.
    #[must_use]
    pub fn is_idle(&self, rate: Rate, now: Instant) -> bool {
        self.current(rate, now) == 0
    }

    fn current(&self, rate: Rate, now: Instant) -> u32 {
        match self.opened {
            Some(opened) if now.saturating_duration_since(opened) < rate.per => self.count,
            _ => 0,
        }
    }

    fn roll(&mut self, rate: Rate, now: Instant) {
        if self.current(rate, now) == 0 {
            self.opened = Some(now);
            self.count = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_up_to_the_limit_then_refuses_until_the_window_closes() {
        let rate = Rate::new(3, Duration::from_secs(10));
        let t0 = Instant::now();
        let mut w = RateWindow::default();
        assert!(w.would_admit(rate, t0));
        for _ in 0..3 {
            assert!(w.admit(rate, t0));
        }
        assert!(!w.would_admit(rate, t0));
        assert_eq!(
            w.closes_in(rate, t0 + Duration::from_secs(4)),
            Duration::from_secs(6)
        );
        assert!(!w.admit(rate, t0 + Duration::from_secs(9)));
        // The window opened at t0 closes at t0 + 10 s; refused events did not extend it.
        assert!(w.admit(rate, t0 + Duration::from_secs(10)));
        assert!(w.admit(rate, t0 + Duration::from_secs(11)));
    }

    #[test]
    fn a_zero_rate_refuses_everything() {
        let rate = Rate::new(0, Duration::from_secs(1));
        let mut w = RateWindow::default();
        assert!(!w.admit(rate, Instant::now()));
    }
}
