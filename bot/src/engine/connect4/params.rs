//! The Connect Four engine's tuned parameters, in one place: the evaluation's weights for
//! threats, lines and tempo, set by matches between levels (docs/benchmarks-log.md); a change
//! here is a change of strength, to be measured the same way.

// The evaluation.

/// Weight of a threat of the owner's parity, of another threat, and of a stacked pair.
pub(super) const GOOD_THREAT: i32 = 90;
pub(super) const OTHER_THREAT: i32 = 35;
pub(super) const STACKED_THREATS: i32 = 160;
/// Points per line through a stone.
pub(super) const LINE_WEIGHT: i32 = 4;
/// The side to move's edge of having the next stone.
pub(super) const TEMPO: i32 = 6;
