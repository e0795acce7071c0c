//! Time controls on the wire: a Fischer clock or a clock per move, checked when read (an
//! out-of-range value gets a clear message), and the clocks of a running game.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::Color;

/// A time control. `null` on the wire (an `Option<ClockSpec>` of `None`) means untimed.
///
/// Bounds checked by [`ClockSpec::validate`] (parsing accepts any non-negative numbers so that
/// an out-of-range value gets a clear message rather than a type error):
/// - Fischer: `initial_ms` in 1 s ..= 3 h, `increment_ms` in 0 ..= 60 s;
/// - per move: `move_ms` in 1 s ..= 1 h.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClockSpec {
    /// `{"initial_ms":300000,"increment_ms":2000}`: a bank of time plus an increment after each
    /// move. A missing `increment_ms` reads as 0 (sudden death).
    Fischer { initial_ms: u64, increment_ms: u64 },
    /// `{"move_ms":5000}`: a fixed time for every move, nothing carried over.
    PerMove { move_ms: u64 },
}

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
        }
        Ok(())
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
                move_ms: None,
            },
            ClockSpec::PerMove { move_ms } => ClockWire {
                initial_ms: None,
                increment_ms: None,
                move_ms: Some(move_ms),
            },
        };
        wire.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ClockSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ClockSpec, D::Error> {
        use serde::de::Error;
        let wire = ClockWire::deserialize(deserializer)?;
        match (wire.initial_ms, wire.increment_ms, wire.move_ms) {
            (Some(initial_ms), increment_ms, None) => Ok(ClockSpec::Fischer {
                initial_ms,
                increment_ms: increment_ms.unwrap_or(0),
            }),
            (None, None, Some(move_ms)) => Ok(ClockSpec::PerMove { move_ms }),
            (None, None, None) => Err(D::Error::custom(
                "clock must be {\"initial_ms\",\"increment_ms\"} or {\"move_ms\"} (or null for none)",
            )),
            (None, Some(_), None) => Err(D::Error::custom("clock has increment_ms without initial_ms")),
            _ => Err(D::Error::custom(
                "clock mixes initial_ms/increment_ms with move_ms; use one form",
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
}
