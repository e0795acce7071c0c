//! Puzzles: "find the win" positions for Gomoku (VCF and VCT, freestyle and renju), Othello
//! (endgames) and Connect Four, made and proven by the bots' solvers (`kibitz puzzles
//! generate`) and shipped in the binary with their proofs, so that the server checks an
//! attempt by walking the proof's tree ([`game_core::puzzle`]) and needs no solver of its own;
//! and more of them from the hall's own games, proven by the analysis workers.
//!
//! - [`set`]: a set of puzzles, looked up by id, variant and theme; the daily puzzle; hints.
//! - [`library`]: the shipped set and the hall's puzzles read from the store, as one set.
//! - [`hall`]: the candidates that reviews find (missed wins), waiting for a worker's proof.
//! - [`rating`]: Glicko-2 puzzle ratings — each puzzle's and each player's per variant, one
//!   attempt being a game between them that the player wins by solving it.

pub mod hall;
pub mod library;
pub mod rating;
pub mod set;

pub use library::PuzzleLibrary;
pub use set::{PuzzleSet, VARIANTS};
