//! Server-run game clocks: Fischer (a bank plus an increment per move) or a fixed time per
//! move. Uses `tokio::time::Instant` so tests can pause and advance time.

use tokio::time::{Duration, Instant};

use game_core::protocol::{ClockSpec, ClockState};
use game_core::Color;

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct GameClock {
    spec: ClockSpec,
    /// Time left for black and white when their clock last stopped (or at the start).
    remaining_ms: [u64; 2],
    /// The side whose time runs, and since when.
    running: Option<(Color, Instant)>,
}

/// A side ran out of time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Flagged(pub Color);

impl GameClock {
    /// Fresh clocks, stopped.
    #[must_use]
    pub fn new(spec: ClockSpec) -> GameClock {
        let full = Self::full(spec);
        GameClock {
            spec,
            remaining_ms: [full, full],
            running: None,
        }
    }

    /// Clocks resumed from stored readings (after a restart), stopped.
    #[must_use]
    pub fn resumed(spec: ClockSpec, black_ms: u64, white_ms: u64) -> GameClock {
        GameClock {
            spec,
            remaining_ms: [black_ms, white_ms],
            running: None,
        }
    }

    fn full(spec: ClockSpec) -> u64 {
        match spec {
            ClockSpec::Fischer { initial_ms, .. } => initial_ms,
            ClockSpec::PerMove { move_ms } => move_ms,
        }
    }

    #[must_use]
    pub fn spec(&self) -> ClockSpec {
        self.spec
    }

    /// Time left for `side` at `now`.
    #[must_use]
    pub fn left_ms(&self, side: Color, now: Instant) -> u64 {
        let base = self.remaining_ms[side.index()];
        match self.running {
            Some((running, since)) if running == side => {
                base.saturating_sub(now.saturating_duration_since(since).as_millis() as u64)
            }
            _ => base,
        }
    }

    /// The readings for the protocol.
    #[must_use]
    pub fn state(&self, now: Instant) -> ClockState {
        ClockState {
            black_ms: self.left_ms(Color::Black, now),
            white_ms: self.left_ms(Color::White, now),
            running: self.running.map(|(c, _)| c),
        }
    }

    /// Starts `side`'s time.
    pub fn start(&mut self, side: Color, now: Instant) {
        self.running = Some((side, now));
    }

    /// Stops the clocks, keeping what each side has left.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining_ms[side.index()] = self.left_ms(side, now);
        }
        self.running = None;
    }

    /// `mover` moved at `now`: charge the time, add the increment (or reset a per-move clock)
    /// and start the other side. A move after the flag fell is a loss on time.
    pub fn on_move(&mut self, mover: Color, now: Instant) -> Result<(), Flagged> {
        let left = self.left_ms(mover, now);
        if matches!(self.running, Some((side, _)) if side == mover) && left == 0 {
            return Err(Flagged(mover));
        }
        self.remaining_ms[mover.index()] = match self.spec {
            ClockSpec::Fischer { increment_ms, .. } => left.saturating_add(increment_ms),
            ClockSpec::PerMove { move_ms } => move_ms,
        };
        // The mover's time is settled above; `start_turn` must not charge it again.
        self.running = None;
        self.start_turn(mover.other(), now);
        Ok(())
    }

    /// A pass played by the server: it takes no thinking, so the passer keeps the time it
    /// had when its turn began (no increment), and the other side's time starts.
    pub fn on_pass(&mut self, passer: Color, now: Instant) {
        if let ClockSpec::PerMove { move_ms } = self.spec {
            self.remaining_ms[passer.index()] = move_ms;
        }
        self.running = None;
        self.start_turn(passer.other(), now);
    }

    /// Gives the turn to `side` (after a move, a pass or an undo).
    pub fn start_turn(&mut self, side: Color, now: Instant) {
        if let Some((running, _)) = self.running {
            if running != side {
                self.remaining_ms[running.index()] = self.left_ms(running, now);
            }
        }
        if let ClockSpec::PerMove { move_ms } = self.spec {
            self.remaining_ms[side.index()] = move_ms;
        }
        self.running = Some((side, now));
    }

    /// When the running side's flag falls.
    #[must_use]
    pub fn deadline(&self) -> Option<(Color, Instant)> {
        self.running.map(|(side, since)| {
            (
                side,
                since + Duration::from_millis(self.remaining_ms[side.index()]),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn fischer_charges_and_adds_increment() {
        let mut c = GameClock::new(ClockSpec::Fischer {
            initial_ms: 10_000,
            increment_ms: 1_000,
        });
        let t0 = Instant::now();
        c.start(Color::Black, t0);
        let t1 = t0 + Duration::from_millis(3_000);
        assert_eq!(c.left_ms(Color::Black, t1), 7_000);
        c.on_move(Color::Black, t1).unwrap();
        assert_eq!(c.left_ms(Color::Black, t1), 8_000);
        assert_eq!(c.state(t1).running, Some(Color::White));
        let t2 = t1 + Duration::from_millis(10_000);
        assert_eq!(c.left_ms(Color::White, t2), 0);
        assert_eq!(c.on_move(Color::White, t2), Err(Flagged(Color::White)));
        assert_eq!(c.deadline().unwrap().1, t1 + Duration::from_millis(10_000));
    }

    #[tokio::test(start_paused = true)]
    async fn per_move_resets_and_pass_costs_nothing() {
        let mut c = GameClock::new(ClockSpec::PerMove { move_ms: 5_000 });
        let t0 = Instant::now();
        c.start(Color::Black, t0);
        let t1 = t0 + Duration::from_millis(4_000);
        c.on_move(Color::Black, t1).unwrap();
        assert_eq!(c.left_ms(Color::Black, t1), 5_000);
        assert_eq!(c.left_ms(Color::White, t1), 5_000);
        c.on_pass(Color::White, t1);
        assert_eq!(c.state(t1).running, Some(Color::Black));
        c.stop(t1 + Duration::from_millis(1_000));
        assert_eq!(c.left_ms(Color::Black, t1 + Duration::from_secs(9)), 4_000);
    }
}
