//! The errors of an opening: a choice text that is no choice (syntax), a choice that is not
//! allowed now (legality), and a stored opening that does not replay.

use thiserror::Error;

use super::{Area, Role};
use crate::error::{IllegalMoveError, SpecError};
use crate::position::Cell;

/// A text that is not an opening choice at all (step one of parsing).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot parse choice {text:?}: {reason}")]
pub struct ParseChoiceError {
    pub text: String,
    pub reason: &'static str,
}

impl ParseChoiceError {
    pub fn new(text: &str, reason: &'static str) -> Self {
        // Keep error texts short even for huge inputs.
        let text: String = text.chars().take(32).collect();
        ParseChoiceError { text, reason }
    }
}

/// A well-formed choice that the opening does not allow now (step two). The opening is left
/// as it was.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    #[error("the opening is over")]
    Over,
    #[error("it is the {to_act} player's decision")]
    NotYourDecision { to_act: Role },
    /// A kind of choice the opening does not take at this point, e.g. `swap` when a stone is
    /// due.
    #[error("{choice} is not a choice now; expected {expected}")]
    NotNow {
        choice: &'static str,
        expected: String,
    },
    /// The stone cannot go there on the board: off it, occupied, or forbidden for black.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
    #[error("{cell} is outside {area}")]
    OutsideArea { cell: Cell, area: Area },
    #[error("the number of 5th moves must be 1..={max}, got {got}")]
    DeclareRange { got: u8, max: u8 },
    #[error("{expected} 5th moves are due, got {got}")]
    WrongCount { expected: u8, got: usize },
    #[error("{0} is offered twice")]
    Repeated(Cell),
    #[error("the 5th moves {0} and {1} are symmetrical")]
    Symmetrical(Cell, Cell),
    #[error("{0} is not one of the offered 5th moves")]
    NotOffered(Cell),
}

/// Either step of resolving a choice text against an opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChoiceError {
    #[error(transparent)]
    Parse(#[from] ParseChoiceError),
    #[error(transparent)]
    Illegal(#[from] OpeningError),
}

/// A stored opening that cannot be replayed: a bad spec, or the first choice that fails.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("opening choice {index}: {error}")]
    Choice { index: usize, error: ChoiceError },
}
