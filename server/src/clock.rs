//! Server-run game clocks: Fischer (a bank plus an increment per move), a fixed time per
//! move, or correspondence (days per move with a vacation allowance). Uses
//! `tokio::time::Instant` so tests can pause and advance time; a correspondence clock is
//! also charged the wall-clock time that passed while its room was out of memory (see
//! [`GameClock::charge`]).

use tokio::time::{Duration, Instant};

use game_core::protocol::{ClockSpec, ClockState, DAY_MS};
use game_core::Color;

/// The clocks of one game. A side's time runs only once that side has made its first move:
/// the first move of each side is free, and while it is awaited the turn is *held* (nothing
/// runs; the room aborts the game if it takes too long).
#[derive(Clone, Debug)]
pub struct GameClock {
    spec: ClockSpec,
    /// Time left for black and white when their clock last stopped (or at the start).
    remaining_ms: [u64; 2],
    /// The side whose time runs, and since when.
    running: Option<(Color, Instant)>,
    /// The side to move whose time does not run yet (its first move is awaited), and since
    /// when.
    held: Option<(Color, Instant)>,
    /// Time charged to a held turn on top of what its `Instant` says (a correspondence game
    /// reloaded after days, or the hall's clock advanced).
    held_charged_ms: u64,
    /// Correspondence: each side's vacation left, drawn on when a move takes longer than the
    /// days per move.
    vacation_ms: [u64; 2],
}

/// A side ran out of time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Flagged(pub Color);

/// Whether the side given the turn has made its first move: only then does its time run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Its time runs.
    Runs,
    /// Its first move is awaited: nothing runs.
    First,
}

impl Turn {
    /// `Runs` for a side that has moved before.
    #[must_use]
    pub fn after(has_moved: bool) -> Turn {
        if has_moved {
            Turn::Runs
        } else {
            Turn::First
        }
    }
}

impl GameClock {
    /// Fresh clocks, stopped.
    #[must_use]
    pub fn new(spec: ClockSpec) -> GameClock {
        let full = Self::full(spec);
        let vacation = Self::vacation(spec);
        GameClock {
            spec,
            remaining_ms: [full, full],
            running: None,
            held: None,
            held_charged_ms: 0,
            vacation_ms: [vacation, vacation],
        }
    }

    /// Clocks resumed from stored readings (after a restart), stopped. A correspondence
    /// reading is the days per move plus the vacation left, which is read back from it.
    #[must_use]
    pub fn resumed(spec: ClockSpec, black_ms: u64, white_ms: u64) -> GameClock {
        let per_move = Self::per_move(spec).unwrap_or(0);
        let vacation = |ms: u64| ms.saturating_sub(per_move).min(Self::vacation(spec));
        GameClock {
            spec,
            remaining_ms: [black_ms, white_ms],
            running: None,
            held: None,
            held_charged_ms: 0,
            vacation_ms: [vacation(black_ms), vacation(white_ms)],
        }
    }

    fn full(spec: ClockSpec) -> u64 {
        match spec {
            ClockSpec::Fischer { initial_ms, .. } => initial_ms,
            ClockSpec::PerMove { move_ms } => move_ms,
            ClockSpec::Days { .. } => Self::per_move(spec).unwrap_or(0) + Self::vacation(spec),
        }
    }

    /// The time each move starts with, for the clocks that reset per move.
    fn per_move(spec: ClockSpec) -> Option<u64> {
        match spec {
            ClockSpec::Fischer { .. } => None,
            ClockSpec::PerMove { move_ms } => Some(move_ms),
            ClockSpec::Days { days, .. } => Some(days.saturating_mul(DAY_MS)),
        }
    }

    /// A correspondence clock's vacation for the whole game, per side.
    fn vacation(spec: ClockSpec) -> u64 {
        match spec {
            ClockSpec::Days { vacation_days, .. } => vacation_days.saturating_mul(DAY_MS),
            _ => 0,
        }
    }

    /// What `side` starts a turn with: a per-move clock's allowance (with a correspondence
    /// side's vacation left), or a Fischer bank as it stands.
    fn turn_allowance(&self, side: Color) -> u64 {
        match Self::per_move(self.spec) {
            Some(per_move) => per_move + self.vacation_ms[side.index()],
            None => self.remaining_ms[side.index()],
        }
    }

    /// The time a side has for its first move before the game is aborted: `default` (the
    /// hall's limit), or a correspondence clock's days per move.
    #[must_use]
    pub fn first_move_limit(&self, default: Duration) -> Duration {
        match self.spec {
            ClockSpec::Days { .. } => Duration::from_millis(Self::per_move(self.spec).unwrap_or(0)),
            _ => default,
        }
    }

    /// Charges `ms` of time that passed without the clock's `Instant` seeing it (a
    /// correspondence room reloaded after days, or the hall's clock advanced): to the
    /// running side, or to a held first move.
    pub fn charge(&mut self, ms: u64) {
        if let Some((side, _)) = self.running {
            let left = &mut self.remaining_ms[side.index()];
            *left = left.saturating_sub(ms);
        } else if self.held.is_some() {
            self.held_charged_ms = self.held_charged_ms.saturating_add(ms);
        }
    }

    /// When a held first move lapses, given the time a side has for it.
    #[must_use]
    pub fn held_deadline(&self, limit: Duration) -> Option<Instant> {
        let charged = Duration::from_millis(self.held_charged_ms);
        self.held
            .map(|(_, since)| since + limit.saturating_sub(charged))
    }

    /// Time left for the held first move, given the time a side has for it.
    #[must_use]
    pub fn held_left_ms(&self, limit: Duration, now: Instant) -> Option<u64> {
        self.held_deadline(limit)
            .map(|at| at.saturating_duration_since(now).as_millis() as u64)
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

    /// The readings for the protocol: a held turn shows no running side.
    #[must_use]
    pub fn state(&self, now: Instant) -> ClockState {
        ClockState {
            black_ms: self.left_ms(Color::Black, now),
            white_ms: self.left_ms(Color::White, now),
            running: self.running.map(|(c, _)| c),
            // The room adds the first-move limit it knows.
            abort_ms: None,
            black_vacation_ms: self.spec.is_correspondence().then_some(self.vacation_ms[0]),
            white_vacation_ms: self.spec.is_correspondence().then_some(self.vacation_ms[1]),
        }
    }

    /// Starts `side`'s time.
    pub fn start(&mut self, side: Color, now: Instant) {
        self.held = None;
        self.held_charged_ms = 0;
        self.running = Some((side, now));
    }

    /// Stops the clocks, keeping what each side has left.
    pub fn stop(&mut self, now: Instant) {
        self.settle(now);
        self.held = None;
        self.held_charged_ms = 0;
    }

    /// Charges the running side its time so far and stops it.
    fn settle(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining_ms[side.index()] = self.left_ms(side, now);
        }
        self.running = None;
    }

    /// `mover` moved at `now`: charge the time, add the increment (or reset a per-move clock)
    /// and give the other side the turn (`next`). A first move, made while the turn was
    /// held, costs nothing and earns no increment. A move after the flag fell is a loss on
    /// time.
    pub fn on_move(&mut self, mover: Color, next: Turn, now: Instant) -> Result<(), Flagged> {
        self.on_step(mover, mover.other(), next, false, now)
    }

    /// A decision of an opening rule, charged like a move, after which `to` acts (`next`),
    /// which may be the mover again. With `swap` the players exchanged colours, so the two
    /// sides' times change hands: each player keeps their own time.
    pub fn on_step(
        &mut self,
        mover: Color,
        to: Color,
        next: Turn,
        swap: bool,
        now: Instant,
    ) -> Result<(), Flagged> {
        if matches!(self.running, Some((side, _)) if side == mover) {
            let left = self.left_ms(mover, now);
            if left == 0 {
                return Err(Flagged(mover));
            }
            self.remaining_ms[mover.index()] = match self.spec {
                ClockSpec::Fischer { increment_ms, .. } => left.saturating_add(increment_ms),
                ClockSpec::PerMove { move_ms } => move_ms,
                ClockSpec::Days { .. } => {
                    // Time over the days per move came off the vacation.
                    let vacation = &mut self.vacation_ms[mover.index()];
                    *vacation = (*vacation).min(left);
                    self.turn_allowance(mover)
                }
            };
            // The mover's time is settled above; `give_turn` must not charge it again.
            self.running = None;
        }
        if swap {
            self.settle(now);
            self.remaining_ms.swap(0, 1);
            self.vacation_ms.swap(0, 1);
        }
        self.give_turn(to, next, now);
        Ok(())
    }

    /// A pass played by the server: it takes no thinking, so the passer keeps the time it
    /// had when its turn began (no increment), and the other side gets the turn.
    pub fn on_pass(&mut self, passer: Color, next: Turn, now: Instant) {
        if Self::per_move(self.spec).is_some() {
            self.remaining_ms[passer.index()] = self.turn_allowance(passer);
        }
        if matches!(self.running, Some((side, _)) if side == passer) {
            self.running = None;
        }
        self.give_turn(passer.other(), next, now);
    }

    /// Gives the turn to `side` (at the start, after a move, a pass or an undo): the side
    /// that ran is charged, and `side`'s time runs, or is held until its first move.
    pub fn give_turn(&mut self, side: Color, turn: Turn, now: Instant) {
        self.settle(now);
        self.held = None;
        self.held_charged_ms = 0;
        if Self::per_move(self.spec).is_some() {
            self.remaining_ms[side.index()] = self.turn_allowance(side);
        }
        match turn {
            Turn::Runs => self.running = Some((side, now)),
            Turn::First => self.held = Some((side, now)),
        }
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

    /// The side whose first move is awaited, and since when.
    #[must_use]
    pub fn held(&self) -> Option<(Color, Instant)> {
        self.held
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
        c.on_move(Color::Black, Turn::Runs, t1).unwrap();
        assert_eq!(c.left_ms(Color::Black, t1), 8_000);
        assert_eq!(c.state(t1).running, Some(Color::White));
        let t2 = t1 + Duration::from_millis(10_000);
        assert_eq!(c.left_ms(Color::White, t2), 0);
        assert_eq!(
            c.on_move(Color::White, Turn::Runs, t2),
            Err(Flagged(Color::White))
        );
        assert_eq!(c.deadline().unwrap().1, t1 + Duration::from_millis(10_000));
    }

    #[tokio::test(start_paused = true)]
    async fn per_move_resets_and_pass_costs_nothing() {
        let mut c = GameClock::new(ClockSpec::PerMove { move_ms: 5_000 });
        let t0 = Instant::now();
        c.start(Color::Black, t0);
        let t1 = t0 + Duration::from_millis(4_000);
        c.on_move(Color::Black, Turn::Runs, t1).unwrap();
        assert_eq!(c.left_ms(Color::Black, t1), 5_000);
        assert_eq!(c.left_ms(Color::White, t1), 5_000);
        c.on_pass(Color::White, Turn::Runs, t1);
        assert_eq!(c.state(t1).running, Some(Color::Black));
        c.stop(t1 + Duration::from_millis(1_000));
        assert_eq!(c.left_ms(Color::Black, t1 + Duration::from_secs(9)), 4_000);
    }

    #[tokio::test(start_paused = true)]
    async fn a_first_move_is_free_and_a_held_turn_runs_nothing() {
        let mut c = GameClock::new(ClockSpec::Fischer {
            initial_ms: 10_000,
            increment_ms: 1_000,
        });
        let t0 = Instant::now();
        c.give_turn(Color::Black, Turn::First, t0);
        let t1 = t0 + Duration::from_millis(7_000);
        assert_eq!(c.state(t1).running, None);
        assert_eq!(c.left_ms(Color::Black, t1), 10_000);
        assert_eq!(c.held(), Some((Color::Black, t0)));
        assert_eq!(c.deadline(), None);
        // Black's first move: nothing charged, no increment; white's first move is awaited.
        c.on_move(Color::Black, Turn::First, t1).unwrap();
        assert_eq!(c.held(), Some((Color::White, t1)));
        let t2 = t1 + Duration::from_millis(3_000);
        c.on_move(Color::White, Turn::Runs, t2).unwrap();
        let readings = c.state(t2 + Duration::from_millis(500));
        assert_eq!(
            (readings.black_ms, readings.white_ms, readings.running),
            (9_500, 10_000, Some(Color::Black))
        );
        assert_eq!(c.held(), None);
        c.stop(t2);
        assert_eq!(c.held(), None);
    }

    #[tokio::test(start_paused = true)]
    async fn a_swap_hands_each_player_their_own_time() {
        let mut c = GameClock::new(ClockSpec::Fischer {
            initial_ms: 10_000,
            increment_ms: 0,
        });
        let t0 = Instant::now();
        c.give_turn(Color::Black, Turn::Runs, t0);
        // Black places a stone in 3 s and acts again: its time keeps running.
        c.on_step(
            Color::Black,
            Color::Black,
            Turn::Runs,
            false,
            t0 + Duration::from_secs(3),
        )
        .unwrap();
        assert_eq!(
            c.state(t0 + Duration::from_secs(3)).running,
            Some(Color::Black)
        );
        // 1 s more, then white takes over; white spends 2 s and swaps: white's 8 s go to
        // the black seat, and the old black player, now white, acts on its 6 s.
        c.on_move(Color::Black, Turn::Runs, t0 + Duration::from_secs(4))
            .unwrap();
        c.on_step(
            Color::White,
            Color::White,
            Turn::Runs,
            true,
            t0 + Duration::from_secs(6),
        )
        .unwrap();
        let state = c.state(t0 + Duration::from_secs(6));
        assert_eq!((state.black_ms, state.white_ms), (8_000, 6_000));
        assert_eq!(state.running, Some(Color::White));
    }

    #[tokio::test(start_paused = true)]
    async fn correspondence_draws_on_the_vacation_and_is_charged_time_it_did_not_see() {
        let spec = ClockSpec::Days {
            days: 2,
            vacation_days: 1,
        };
        let mut c = GameClock::new(spec);
        let t0 = Instant::now();
        // A first move may take the days per move, whatever the hall's limit, less the time
        // charged while the room was out of memory.
        c.give_turn(Color::Black, Turn::First, t0);
        let limit = c.first_move_limit(Duration::from_secs(30));
        assert_eq!(limit, Duration::from_millis(2 * DAY_MS));
        c.charge(DAY_MS);
        assert_eq!(
            c.held_deadline(limit),
            Some(t0 + Duration::from_millis(DAY_MS))
        );
        c.on_move(Color::Black, Turn::Runs, t0).unwrap();
        assert_eq!(c.left_ms(Color::White, t0), 3 * DAY_MS);
        // White takes 2.5 days: half a day comes off the vacation.
        let t1 = t0 + Duration::from_millis(2 * DAY_MS + DAY_MS / 2);
        c.on_move(Color::White, Turn::Runs, t1).unwrap();
        assert_eq!(c.left_ms(Color::White, t1), 2 * DAY_MS + DAY_MS / 2);
        // Read back after a restart, the vacation left is in the reading.
        let back = GameClock::resumed(spec, 3 * DAY_MS, 2 * DAY_MS + DAY_MS / 2);
        assert_eq!(back.vacation_ms, [DAY_MS, DAY_MS / 2]);
        // Black's turn, charged 2 days it did not see: a day left (its vacation).
        c.charge(2 * DAY_MS);
        assert_eq!(c.left_ms(Color::Black, t1), DAY_MS);
        let late = t1 + Duration::from_millis(DAY_MS);
        assert_eq!(c.deadline(), Some((Color::Black, late)));
        assert_eq!(
            c.on_move(Color::Black, Turn::Runs, late),
            Err(Flagged(Color::Black))
        );
    }
}
