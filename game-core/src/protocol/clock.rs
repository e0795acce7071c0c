//! Time controls on the wire: a Fischer clock, a clock per move or a correspondence clock of
//! days per move, checked when read (an out-of-range value gets a clear message), and the
//! clocks of a running game.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::Color;

/// A time control. `null` on the wire (an `Option<ClockSpec>` of `None`) means untimed.
///
/// Bounds checked by [`ClockSpec::validate`] (parsing accepts any non-negative numbers so that
/// an out-of-range value gets a clear message rather than a type error):
/// - Fischer: `initial_ms` in 1 s ..= 3 h, `increment_ms` in 0 ..= 60 s;
/// - per move: `move_ms` in 1 s ..= 1 h;
/// - correspondence: `days` in 1 ..= 14, `vacation_days` in 0 ..= 30.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockSpec {
    /// `{"initial_ms":300000,"increment_ms":2000}`: a bank of time plus an increment after each
    /// move. A missing `increment_ms` reads as 0 (sudden death).
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// `{"move_ms":5000}`: a fixed time for every move, nothing carried over.
    PerMove { move_ms: u64 },
    /// `{"days":3,"vacation_days":7}`: correspondence. Each move may take `days` days; a side
    /// that goes over draws on its own `vacation_days` for the whole game before its flag
    /// falls. Runs on the wall clock, so a restart or a change of node charges the time that
    /// passed meanwhile. A missing `vacation_days` reads as 0.
    Days { days: u64, vacation_days: u64 },
}

/// One day in milliseconds: the unit of a correspondence clock.
pub const DAY_MS: u64 = 24 * 3_600_000;
/// Fewest days per move of a correspondence clock.
pub const MIN_DAYS: u64 = 1;
/// Most days per move of a correspondence clock.
pub const MAX_DAYS: u64 = 14;
/// Most vacation days of a correspondence clock, per side and game.
pub const MAX_VACATION_DAYS: u64 = 30;

/// Smallest `initial_ms` of a Fischer clock: 1 s.
pub const MIN_INITIAL_MS: u64 = 1_000;
/// Largest `initial_ms` of a Fischer clock: 3 h.
pub const MAX_INITIAL_MS: u64 = 3 * 3_600_000;
/// Largest `increment_ms` of a Fischer clock: 60 s.
pub const MAX_INCREMENT_MS: u64 = 60_000;
/// Smallest `move_ms` of a per-move clock: 1 s.
pub const MIN_MOVE_MS: u64 = 1_000;
/// Largest `move_ms` of a per-move clock: 1 h.
pub const MAX_MOVE_MS: u64 = 3_600_000;

/// A clock whose numbers are out of the accepted ranges.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ClockError {
    #[error("initial_ms must be {MIN_INITIAL_MS}..={MAX_INITIAL_MS}, got {0}")]
    Initial(u64),
    #[error("increment_ms must be 0..={MAX_INCREMENT_MS}, got {0}")]
    Increment(u64),
    #[error("move_ms must be {MIN_MOVE_MS}..={MAX_MOVE_MS}, got {0}")]
    PerMove(u64),
    #[error("days must be {MIN_DAYS}..={MAX_DAYS}, got {0}")]
    Days(u64),
    #[error("vacation_days must be 0..={MAX_VACATION_DAYS}, got {0}")]
    Vacation(u64),
}

impl ClockSpec {
    /// Checks the bounds documented on [`ClockSpec`].
    pub fn validate(&self) -> Result<(), ClockError> {
        match *self {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => {
                if !(MIN_INITIAL_MS..=MAX_INITIAL_MS).contains(&initial_ms) {
                    return Err(ClockError::Initial(initial_ms));
                }
                if increment_ms > MAX_INCREMENT_MS {
                    return Err(ClockError::Increment(increment_ms));
                }
            }
            ClockSpec::PerMove { move_ms } => {
                if !(MIN_MOVE_MS..=MAX_MOVE_MS).contains(&move_ms) {
                    return Err(ClockError::PerMove(move_ms));
                }
            }
            ClockSpec::Days {
                days,
                vacation_days,
            } => {
                if !(MIN_DAYS..=MAX_DAYS).contains(&days) {
                    return Err(ClockError::Days(days));
                }
                if vacation_days > MAX_VACATION_DAYS {
                    return Err(ClockError::Vacation(vacation_days));
                }
            }
        }
        Ok(())
    }

    /// A correspondence clock (days per move): its games wait for players who come and go.
    #[must_use]
    pub fn is_correspondence(&self) -> bool {
        matches!(self, ClockSpec::Days { .. })
    }
}

/// The wire shape of both clock forms at once; [`ClockSpec`] decides which one it is, so that
/// a mixed or empty object gets a message that names the two shapes (an untagged enum would
/// only say "did not match any variant").
#[derive(Serialize, Deserialize)]
struct ClockWire {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    increment_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    move_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    days: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    vacation_days: Option<u64>,
}

impl ClockWire {
    fn empty() -> ClockWire {
        ClockWire {
            initial_ms: None,
            increment_ms: None,
            move_ms: None,
            days: None,
            vacation_days: None,
        }
    }
}

impl Serialize for ClockSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let wire = match *self {
            ClockSpec::Fischer {
                initial_ms,
                increment_ms,
            } => ClockWire {
                initial_ms: Some(initial_ms),
                increment_ms: Some(increment_ms),
                ..ClockWire::empty()
            },
            ClockSpec::PerMove { move_ms } => ClockWire {
                move_ms: Some(move_ms),
                ..ClockWire::empty()
            },
            ClockSpec::Days {
                days,
                vacation_days,
            } => ClockWire {
                days: Some(days),
                vacation_days: Some(vacation_days),
                ..ClockWire::empty()
            },
        };
        wire.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ClockSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClockSpec, D::Error> {
        use serde::de::Error;
        let wire = ClockWire::deserialize(deserializer)?;
        let timed = wire.initial_ms.is_some() || wire.increment_ms.is_some();
        let per_move = wire.move_ms.is_some();
        let days = wire.days.is_some() || wire.vacation_days.is_some();
        if usize::from(timed) + usize::from(per_move) + usize::from(days) > 1 {
            return Err(D::Error::custom(
                "clock mixes initial_ms/increment_ms, move_ms and days; use one form",
            ));
        }
        match wire {
            ClockWire {
                initial_ms: Some(initial_ms),
                increment_ms,
                ..
            } => Ok(ClockSpec::Fischer {
                initial_ms,
                increment_ms: increment_ms.unwrap_or(0),
            }),
            ClockWire {
                increment_ms: Some(_),
                ..
            } => Err(D::Error::custom("clock has increment_ms without initial_ms")),
            ClockWire {
                move_ms: Some(move_ms),
                ..
            } => Ok(ClockSpec::PerMove { move_ms }),
            ClockWire {
                days: Some(days),
                vacation_days,
                ..
            } => Ok(ClockSpec::Days {
                days,
                vacation_days: vacation_days.unwrap_or(0),
            }),
            ClockWire {
                vacation_days: Some(_),
                ..
            } => Err(D::Error::custom("clock has vacation_days without days")),
            _ => Err(D::Error::custom(
                "clock must be {\"initial_ms\",\"increment_ms\"}, {\"move_ms\"} or {\"days\",\"vacation_days\"} (or null for none)",
            )),
        }
    }
}

/// The clocks of a running game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub black_ms: u64,
    pub white_ms: u64,
    /// The side whose time is running; `null` while the side to move has not made its first
    /// move (its time starts with it), before the game starts and after it ends.
    pub running: Option<Color>,
    /// While the side to move has not made its first move: the time it has left for it before
    /// the game is aborted (an addition to the v1 contract; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abort_ms: Option<u64>,
    /// A correspondence clock: each side's vacation left as the turn began (already counted
    /// in `black_ms`/`white_ms`, which the move's own days are spent from first). Absent for
    /// other clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_vacation_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_vacation_ms: Option<u64>,
}
