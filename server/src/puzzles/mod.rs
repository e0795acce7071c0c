//! Puzzles: "find the win" positions for Gomoku (VCF, freestyle and renju), Othello (endgames)
//! and Connect Four, made and proven by the bots' solvers (`kibitz puzzles generate`) and
//! shipped in the binary with their proofs, so that the server checks an attempt by walking
//! the proof's tree ([`game_core::puzzle`]) and needs no solver of its own.
//!
//! - [`set`]: the shipped sets, looked up by id, variant and theme; the daily puzzle; hints.
//! - [`rating`]: Glicko-2 puzzle ratings — each puzzle's and each player's per variant, one
//!   attempt being a game between them that the player wins by solving it.

pub mod rating;
pub mod set;

pub use set::{PuzzleSet, VARIANTS};
