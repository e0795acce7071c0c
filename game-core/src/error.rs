//! The error types of the crate: syntax, legality and game-spec errors are distinct types so a
//! caller can tell "this is not a move" from "this move is not allowed here".

use thiserror::Error;

/// A move text that is not a move of the game at all (step one of parsing).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot parse move {text:?}: {reason}")]
pub struct ParseMoveError {
    pub text: String,
    pub reason: &'static str,
}

impl ParseMoveError {
    pub fn new(text: &str, reason: &'static str) -> Self {
        // Keep error texts short even for huge inputs.
        let text: String = text.chars().take(32).collect();
        ParseMoveError { text, reason }
    }
}

/// Why a renju move is forbidden for black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl std::fmt::Display for Forbidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        })
    }
}

/// A well-formed move that is not legal in the position (step two).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalMoveError {
    #[error("{0} is occupied")]
    Occupied(String),
    #[error("{0} is off the board")]
    OutOfBoard(String),
    #[error("column {0} is full")]
    ColumnFull(String),
    #[error("{0} flips nothing")]
    NoFlip(String),
    #[error("{0} is forbidden for black ({1})")]
    Forbidden(String, Forbidden),
    #[error("cannot pass while a move is available")]
    PassNotAllowed,
    #[error("the only legal move is pass")]
    MustPass,
    #[error("the game is over")]
    GameOver,
}

/// Either step of resolving a move text against a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error(transparent)]
    Parse(#[from] ParseMoveError),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
}

/// A game spec that describes no playable game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("gomoku size must be 5..=26, got {0}")]
    GomokuSize(u32),
    #[error("connect4 columns and rows must be 4..=12, got {0}x{1}")]
    Connect4Size(u32, u32),
    #[error("blocked cell [{0},{1}] is off the board")]
    BlockedOffBoard(u32, u32),
    #[error("blocked cell [{0},{1}] is listed twice")]
    BlockedTwice(u32, u32),
    #[error("opening move {index}: {error}")]
    Opening { index: usize, error: MoveError },
    #[error("bad position text: {0}")]
    PositionText(String),
    #[error("the {opening} opening rule needs {needs}")]
    OpeningRuleMismatch {
        opening: &'static str,
        needs: &'static str,
    },
    /// Set-up moves given for a game with an opening rule, whose opening starts on an empty
    /// board.
    #[error("the {0} opening rule starts on an empty board: no opening moves")]
    SetupWithOpeningRule(&'static str),
    #[error("the game has no opening rule")]
    NoOpeningRule,
    /// A spec with an opening rule given where only a plain position can be made: its games
    /// start with [`crate::opening::Opening`] (see [`crate::game::Game`]).
    #[error("the {0} opening rule is not available here")]
    OpeningRuleNotRun(&'static str),
}
