//! Othello 8x8 on bitboards: forced passes, the end when neither side can move, the final
//! score with empties to the winner, and the 64-character FFO position text.

use std::fmt;
use std::str::FromStr;

use crate::error::{IllegalMoveError, ParseMoveError, SpecError};
use crate::position::{Cell, Outcome, Position, Score};
use crate::Color;

/// An Othello move: a square (`f5`, columns a–h, rows 1–8 top to bottom) or `pass`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OthelloMove {
    Place(Cell),
    Pass,
}

impl FromStr for OthelloMove {
    type Err = ParseMoveError;
    fn from_str(_s: &str) -> Result<Self, ParseMoveError> {
        todo!("othello")
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, _f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!("othello")
    }
}

/// An Othello position. Bit `8 * row + col` is the square (a1 = bit 0, h8 = bit 63).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    black: u64,
    white: u64,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::new()
    }
}

impl Othello {
    /// The start position, black to move.
    #[must_use]
    pub fn new() -> Othello {
        todo!("othello")
    }
    /// Parses the FFO text: 64 characters a1..h8, a space, `X` or `O` to move.
    pub fn from_text(_text: &str) -> Result<Othello, SpecError> {
        todo!("othello")
    }
    /// The FFO text of this position.
    #[must_use]
    pub fn to_text(&self) -> String {
        todo!("othello")
    }
    /// Discs on the board now.
    #[must_use]
    pub fn count(&self) -> Score {
        todo!("othello")
    }
}

impl Position for Othello {
    type Move = OthelloMove;
    fn turn(&self) -> Color {
        todo!("othello")
    }
    fn ply(&self) -> usize {
        todo!("othello")
    }
    fn legal_moves(&self) -> Vec<OthelloMove> {
        todo!("othello")
    }
    fn is_legal(&self, _m: OthelloMove) -> Result<(), IllegalMoveError> {
        todo!("othello")
    }
    fn play_unchecked(&mut self, _m: OthelloMove) {
        todo!("othello")
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!("othello")
    }
}
