//! Connect Four on 4..=12 columns and rows with blocked cells, on bitboards wide enough for
//! 12x12, and the move-string and board-text formats of the engine contract.

use std::fmt;
use std::str::FromStr;

use crate::error::{IllegalMoveError, ParseMoveError, SpecError};
use crate::position::{Cell, Outcome, Position};
use crate::Color;

/// A Connect Four move: a 0-based column, written 1-based (`"4"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Column(pub u8);

impl FromStr for Column {
    type Err = ParseMoveError;
    fn from_str(_s: &str) -> Result<Self, ParseMoveError> {
        todo!("connect4")
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", u32::from(self.0) + 1)
    }
}

/// A Connect Four position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    cols: u8,
    rows: u8,
}

impl ConnectFour {
    /// An empty board; `blocked` cells are 0-based (column, row from the bottom).
    pub fn new(cols: u8, rows: u8, blocked: &[Cell]) -> Result<ConnectFour, SpecError> {
        let _ = (cols, rows, blocked);
        todo!("connect4")
    }
    pub fn cols(&self) -> u8 {
        self.cols
    }
    pub fn rows(&self) -> u8 {
        self.rows
    }
}

impl Position for ConnectFour {
    type Move = Column;
    fn turn(&self) -> Color {
        todo!("connect4")
    }
    fn ply(&self) -> usize {
        todo!("connect4")
    }
    fn legal_moves(&self) -> Vec<Column> {
        todo!("connect4")
    }
    fn is_legal(&self, _m: Column) -> Result<(), IllegalMoveError> {
        todo!("connect4")
    }
    fn play_unchecked(&mut self, _m: Column) {
        todo!("connect4")
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!("connect4")
    }
}
