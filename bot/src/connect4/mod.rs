//! The Connect Four engine.

pub mod bitboard;
pub mod position;
pub mod solver;
pub mod table;

pub use position::{parse_position, BoardOptions};
