//! The Othello engine's tuned parameters, in one place: where the endgame solver changes its
//! ways and how far the midgame search probes for exact values. Each was set by timing the
//! FFO endgames (docs/benchmarks-log.md); a change here is a change of speed, to be measured
//! the same way. The evaluation's weights are trained data (`weights.bin`, `weights.rs`).

// The endgame solver: the table and the move ordering.

/// Nodes with more empties than this use the table and the full move ordering; below it
/// they cost more than the nodes they save.
pub const DEEP_EMPTIES: u32 = 7;
/// Nodes with at least this many empties order their moves with shallow searches of the
/// evaluation: their subtrees are big enough to pay for it.
pub const EVAL_ORDER_EMPTIES: u32 = 16;

// The endgame solver: the first null window's guess.

/// The depth of the search that guesses the root's value for the first null window (tuned
/// on FFO #40-44: deeper guesses save more than they cost up to about here).
pub(super) const ESTIMATE_DEPTH: u32 = 10;

// The midgame search: exact probes.

/// How many plies beyond the remaining depth a node may have left and still be solved
/// exactly by [`crate::engine::search::SearchGame::probe`].
pub const PROBE_SLACK: i32 = 4;
