//! The [`Position`] trait shared by the three games, and what a finished game reports.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{IllegalMoveError, MoveError, ParseMoveError};
use crate::Color;

/// A board cell, 0-based. `row` counts from the bottom in Gomoku and Connect Four (as the
/// notation does) and from the top in Othello. Displayed as a column letter and a 1-based row
/// (`h8`), the notation of winning lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    #[must_use]
    pub fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }
}

impl FromStr for Cell {
    type Err = ParseMoveError;

    /// A column letter (`a`..`z`, either case) and a 1-based row number: `h8`, `O15`.
    /// Whether the cell is on a given board is a legality question, not a syntax one.
    fn from_str(text: &str) -> Result<Cell, ParseMoveError> {
        let bytes = text.as_bytes();
        let Some((&letter, digits)) = bytes.split_first() else {
            return Err(ParseMoveError::new(text, "empty move"));
        };
        let letter = letter.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(ParseMoveError::new(text, "expected a column letter a-z"));
        }
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(ParseMoveError::new(
                text,
                "expected a row number after the letter",
            ));
        }
        let row: u8 = digits.iter().fold(0, |n, d| n * 10 + (d - b'0'));
        if row == 0 || digits[0] == b'0' {
            return Err(ParseMoveError::new(text, "rows are numbered from 1"));
        }
        Ok(Cell::new(letter - b'a', row - 1))
    }
}

impl Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Columns past `z` never occur on a board; show them as `?` rather than overflow.
        let letter = if self.col < 26 {
            (b'a' + self.col) as char
        } else {
            '?'
        };
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}

/// Why a game ended. The first four come from the position; the rest from the players or the
/// clock, decided by the server.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    Five,
    Four,
    Count,
    Full,
    Resign,
    Timeout,
    Agreement,
    Abandoned,
    /// Ended before both sides had made their first move, by a player or by the server when
    /// the side to move did not make it in time: no result.
    Aborted,
}

/// Final disc count of an Othello game, empties given to the winner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Score {
    pub black: u8,
    pub white: u8,
}

/// How a finished position ended. Computed from the position, never stored beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// The winning cells (five or four in a row), in order along the line; empty otherwise.
    pub line: Vec<Cell>,
    /// Othello only.
    pub score: Option<Score>,
}

/// A checked `play` that failed: the unchanged position and the reason.
#[derive(Clone, Debug)]
pub struct PlayError<P> {
    pub position: P,
    pub error: IllegalMoveError,
}

/// The rules of one game. Implemented by [`crate::gomoku::Gomoku`],
/// [`crate::othello::Othello`] and [`crate::connect4::ConnectFour`].
pub trait Position: Clone + PartialEq + Eq + Debug {
    /// A move. Parsing its text is syntax only (`FromStr`); legality is [`Position::is_legal`].
    type Move: Copy + Eq + Debug + std::hash::Hash + Display + FromStr<Err = ParseMoveError>;

    /// The side to move.
    fn turn(&self) -> Color;

    /// Moves played so far (Othello passes included).
    fn ply(&self) -> usize;

    /// Every legal move; empty when the game is over. An Othello side that must pass has
    /// exactly one legal move, the pass.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Whether `m` is legal here, and if not, why.
    fn is_legal(&self, m: Self::Move) -> Result<(), IllegalMoveError>;

    /// Plays a move the caller knows to be legal (engines that generated it themselves).
    fn play_unchecked(&mut self, m: Self::Move);

    /// The result if the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Checked play: the new position, or the unchanged one with the reason.
    fn play(self, m: Self::Move) -> Result<Self, PlayError<Self>> {
        match self.is_legal(m) {
            Ok(()) => {
                let mut next = self;
                next.play_unchecked(m);
                Ok(next)
            }
            Err(error) => Err(PlayError {
                position: self,
                error,
            }),
        }
    }

    /// Parses a move text and checks it against this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let m: Self::Move = text.trim().parse()?;
        self.is_legal(m)?;
        Ok(m)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}
