//! The bot's searches: each runs on a blocking thread, so that the connection keeps answering
//! the server while the bot thinks, with a deadline from the clock; a stop flag ends a search
//! the room has moved past, and a finished search comes back to the bot as a [`Thought`].

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use game_core::protocol::{ClockSpec, RoomStatus};
use game_core::GameKind;
use tokio::sync::mpsc;

use super::table::Table;
use crate::engine::{
    move_time, Engine, Level, Score, SearchLimits, SearchRequest, SearchResult, StopFlag,
};

/// Makes a fresh engine for a game (each room keeps its own, with its own tables).
pub type EngineFactory = Arc<dyn Fn(GameKind) -> Option<Box<dyn Engine>> + Send + Sync>;

/// Time kept in hand on a clock for the network and the server's own bookkeeping.
const CLOCK_MARGIN: Duration = Duration::from_millis(80);

/// A finished search.
#[derive(Debug)]
pub struct Thought {
    pub room: String,
    pub ply: usize,
    pub result: Option<SearchResult>,
}

/// The time the bot has for a move, as the room's clock gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveClock {
    Untimed,
    /// A fixed time for each move.
    PerMove {
        left: Duration,
    },
    /// What is left of the game's time, and what each move adds.
    Game {
        left: Duration,
        increment: Duration,
    },
    /// A correspondence game: days per move, of which the bot takes at most the operator's
    /// limit, searching that long at every level.
    Correspondence {
        want: Duration,
        cap: Duration,
    },
    /// The bot's first move: its time does not run until it is made, but the server aborts
    /// a game whose first move takes too long, so the search takes no longer than the level
    /// thinks without a clock, nor than the clock would give a move (`most`).
    First {
        most: Duration,
    },
}

impl MoveClock {
    /// The bot's clock in the room now, with the margin already kept in hand.
    fn of(table: &Table, correspondence: Duration) -> MoveClock {
        let Some(left) = table.my_time_left() else {
            return MoveClock::Untimed;
        };
        let left = left.saturating_sub(CLOCK_MARGIN);
        if let Some(ClockSpec::Days { .. }) = table.control {
            return MoveClock::Correspondence {
                want: correspondence,
                cap: left.mul_f64(0.6),
            };
        }
        if !table.my_clock_runs() {
            let most = match table.control {
                Some(ClockSpec::PerMove { .. } | ClockSpec::Days { .. }) => left.mul_f64(0.6),
                Some(ClockSpec::Fischer { increment_ms, .. }) => {
                    move_time(left, Duration::from_millis(increment_ms))
                }
                None => move_time(left, Duration::ZERO),
            };
            return MoveClock::First { most };
        }
        match table.control {
            Some(ClockSpec::PerMove { .. } | ClockSpec::Days { .. }) => MoveClock::PerMove { left },
            Some(ClockSpec::Fischer { increment_ms, .. }) => MoveClock::Game {
                left,
                increment: Duration::from_millis(increment_ms),
            },
            None => MoveClock::Game {
                left,
                increment: Duration::ZERO,
            },
        }
    }

    /// The limits of a search that would take `think_time` without a clock.
    fn limits(self, think_time: Duration) -> SearchLimits {
        match self {
            MoveClock::Untimed => SearchLimits::Time(think_time),
            MoveClock::PerMove { left } => SearchLimits::Time(left.mul_f64(0.6).min(think_time)),
            MoveClock::Game { left, increment } => SearchLimits::Clock { left, increment },
            MoveClock::First { most } => SearchLimits::Time(most.min(think_time)),
            MoveClock::Correspondence { want, cap } => {
                SearchLimits::Time(want.max(think_time).min(cap))
            }
        }
    }
}

/// How the bot thinks in a room: its level there, the shortest time from its turn to its move
/// (never more than half the move's budget), and the most a correspondence move may take.
#[derive(Clone, Copy, Debug)]
pub struct HowToThink {
    pub level: Level,
    pub pace: Duration,
    pub correspondence: Duration,
}

/// The searches of one room: the one running, the room's engine, and what the last one
/// thought of the position.
pub struct Thinking {
    /// The ply being searched, and how to stop it.
    running: Option<(usize, StopFlag)>,
    engine: Arc<Mutex<Option<Box<dyn Engine>>>>,
    pub last_score: Option<Score>,
}

impl Thinking {
    #[must_use]
    pub fn new() -> Thinking {
        Thinking {
            running: None,
            engine: Arc::new(Mutex::new(None)),
            last_score: None,
        }
    }

    /// Stops the running search, if any; its thought will be ignored.
    pub fn stop(&mut self) {
        if let Some((_, stop)) = self.running.take() {
            stop.stop();
        }
    }

    /// Starts a search of the room's position if it is the bot's turn and none runs for this
    /// ply yet, as `how` says; the thought comes back on `thoughts`.
    pub fn start(
        &mut self,
        room: &str,
        table: &Table,
        how: HowToThink,
        engines: &EngineFactory,
        thoughts: &mpsc::UnboundedSender<Thought>,
    ) {
        if !table.my_turn() {
            return;
        }
        let ply = table.moves.len();
        if self.running.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        self.stop();
        let game = match table.game() {
            Ok(game) => game,
            Err(e) => {
                tracing::warn!(%room, error = %e, "cannot rebuild the position");
                return;
            }
        };
        if game.position().is_over() {
            return;
        }
        let HowToThink { level, pace, .. } = how;
        let clock = MoveClock::of(table, how.correspondence);
        let stop = StopFlag::new();
        self.running = Some((ply, stop.clone()));
        let engine_slot = self.engine.clone();
        let engines = engines.clone();
        let thoughts = thoughts.clone();
        let room = room.to_string();
        let seed = rand::random::<u64>();
        let started = Instant::now();
        tokio::task::spawn_blocking(move || {
            let mut slot = engine_slot.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = engines(game.position().kind());
            }
            let mut wait = Duration::ZERO;
            let result = slot.as_mut().and_then(|engine| {
                let limits = clock.limits(engine.think_time(level));
                let budget = limits
                    .deadline(started)
                    .map_or(Duration::from_secs(1), |d| d.duration_since(started));
                wait = pace.min(budget / 2);
                let request = SearchRequest {
                    limits,
                    level,
                    stop,
                    seed,
                };
                // An opening rule's decision, while its opening runs; else a move.
                match game.opening().filter(|o| !o.is_over()) {
                    Some(opening) => engine.decide_opening(opening, &request),
                    None => engine.search_with(game.position(), &request),
                }
            });
            drop(slot);
            // A deliberate pause on this blocking thread, within the move's budget.
            if let Some(rest) = wait.checked_sub(started.elapsed()) {
                std::thread::sleep(rest);
            }
            let _ = thoughts.send(Thought { room, ply, result });
        });
    }

    /// Takes a finished search: true when it is the one running and the room still waits
    /// for it (`ply` moves played, the game on); a stale thought is dropped.
    pub fn finish(&mut self, thought: &Thought, table: &Table) -> bool {
        let current = self
            .running
            .as_ref()
            .is_some_and(|(p, _)| *p == thought.ply);
        if !current || table.moves.len() != thought.ply || table.status != RoomStatus::Playing {
            return false;
        }
        self.running = None;
        true
    }
}

#[cfg(test)]
mod tests {
    use game_core::protocol::{ClockState, RoomState, Seats};
    use game_core::{Color, GameSpec};

    use super::*;

    #[test]
    fn a_move_clock_bounds_the_search() {
        let think = Duration::from_secs(3);
        assert_eq!(MoveClock::Untimed.limits(think), SearchLimits::Time(think));
        let per_move = MoveClock::PerMove {
            left: Duration::from_secs(1),
        };
        assert_eq!(
            per_move.limits(think),
            SearchLimits::Time(Duration::from_millis(600))
        );
        let game = MoveClock::Game {
            left: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        assert_eq!(
            game.limits(think),
            SearchLimits::Clock {
                left: Duration::from_secs(60),
                increment: Duration::from_secs(1)
            }
        );
        let first = MoveClock::First {
            most: Duration::from_secs(8),
        };
        assert_eq!(first.limits(think), SearchLimits::Time(think));
        // Correspondence: the operator's limit at every level, within the time left.
        let days = MoveClock::Correspondence {
            want: Duration::from_secs(10),
            cap: Duration::from_secs(3600),
        };
        assert_eq!(
            days.limits(think),
            SearchLimits::Time(Duration::from_secs(10))
        );
        let short = MoveClock::Correspondence {
            want: Duration::from_secs(10),
            cap: Duration::from_secs(2),
        };
        assert_eq!(
            short.limits(think),
            SearchLimits::Time(Duration::from_secs(2))
        );
    }

    #[test]
    fn a_clock_that_waits_for_the_first_move_is_not_counted_down() {
        let state = RoomState {
            rated: false,
            rating: None,
            tournament: None,
            room: "r1".into(),
            seq: 0,
            game: GameSpec::Othello,
            opening: Vec::new(),
            moves: Vec::new(),
            to_move: Color::Black,
            status: RoomStatus::Playing,
            result: None,
            seats: Seats::default(),
            clock: Some(ClockState {
                black_ms: 300_000,
                white_ms: 300_000,
                running: None,
                abort_ms: None,
                black_vacation_ms: None,
                white_vacation_ms: None,
            }),
            spectators: 0,
            you: Some(Color::Black),
            opening_state: None,
            control: Some(ClockSpec::Fischer {
                initial_ms: 300_000,
                increment_ms: 0,
            }),
        };
        let mut table = Table::from_state(state, None);
        // Read a while after the state came: a clock that does not run has lost nothing.
        table.clock_at -= Duration::from_secs(20);
        assert_eq!(table.my_time_left(), Some(Duration::from_secs(300)));
        assert!(!table.my_clock_runs());
        let MoveClock::First { most } = MoveClock::of(&table, Duration::from_secs(10)) else {
            panic!("the bot's first move");
        };
        assert!(most < Duration::from_secs(13), "{most:?}");
        // Once its clock runs, the time since the reading counts.
        if let Some(clock) = table.clock.as_mut() {
            clock.running = Some(Color::Black);
        }
        assert!(table.my_clock_runs());
        assert_eq!(table.my_time_left(), Some(Duration::from_secs(280)));
        assert!(matches!(
            MoveClock::of(&table, Duration::from_secs(10)),
            MoveClock::Game { .. }
        ));
    }
}
