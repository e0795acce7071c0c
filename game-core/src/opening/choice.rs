//! The notation of opening choices: a stone as a move (`h8`), `swap`, `stay`, a colour
//! (`black`, `white`), `declare 3`, `fifths h8,j9` and `choose j9`. Parsing here is syntax
//! only; whether a choice is allowed now is [`super::Opening::is_legal`].

use std::fmt;
use std::str::FromStr;

use super::error::ParseChoiceError;
use crate::position::Cell;
use crate::Color;

/// One decision of an opening, as a player makes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpeningChoice {
    /// A stone on a cell, of the colour whose turn it is on the board: `h8`.
    Place(Cell),
    /// Take the other colour: `swap`.
    Swap,
    /// Keep one's colour: `stay`.
    Stay,
    /// Swap2, after the two extra stones: the colour the first player takes, `black` or
    /// `white`.
    Color(Color),
    /// Soosõrv-8: how many 5th moves will be offered, `declare 3`.
    Declare(u8),
    /// The 5th moves offered, in the order given: `fifths h8,j9,k10`.
    Fifths(Vec<Cell>),
    /// The offered 5th move that stays on the board: `choose j9`.
    Choose(Cell),
}

impl OpeningChoice {
    /// The word that names the kind of choice, for messages: `stone`, `swap`, `declare`...
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            OpeningChoice::Place(_) => "a stone",
            OpeningChoice::Swap => "swap",
            OpeningChoice::Stay => "stay",
            OpeningChoice::Color(_) => "a colour",
            OpeningChoice::Declare(_) => "declare",
            OpeningChoice::Fifths(_) => "fifths",
            OpeningChoice::Choose(_) => "choose",
        }
    }

    /// The stone the choice leaves on the board: a placed stone or the chosen 5th move.
    #[must_use]
    pub fn stone(&self) -> Option<Cell> {
        match self {
            OpeningChoice::Place(cell) | OpeningChoice::Choose(cell) => Some(*cell),
            _ => None,
        }
    }
}

/// The stones an opening rule's decisions put on the board, in order: a cell is a stone,
/// `choose c` is the stone `c`, every other decision (and a text that is no choice) places
/// nothing. How a stored game's opening reads as moves, for its review and the explorer.
#[must_use]
pub fn opening_stones(choices: &[&str]) -> Vec<String> {
    choices
        .iter()
        .filter_map(|c| c.parse::<OpeningChoice>().ok()?.stone())
        .map(|cell| cell.to_string())
        .collect()
}

impl fmt::Display for OpeningChoice {
    /// The canonical form: lower case, one space after the keyword, cells of a list joined by
    /// commas without spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningChoice::Place(cell) => write!(f, "{cell}"),
            OpeningChoice::Swap => f.write_str("swap"),
            OpeningChoice::Stay => f.write_str("stay"),
            OpeningChoice::Color(color) => f.write_str(color.as_str()),
            OpeningChoice::Declare(n) => write!(f, "declare {n}"),
            OpeningChoice::Fifths(cells) => {
                f.write_str("fifths ")?;
                for (i, cell) in cells.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{cell}")?;
                }
                Ok(())
            }
            OpeningChoice::Choose(cell) => write!(f, "choose {cell}"),
        }
    }
}

/// A cell argument: the cell's own syntax error, reported against the whole choice text.
fn cell_in(text: &str, arg: &str) -> Result<Cell, ParseChoiceError> {
    arg.parse::<Cell>()
        .map_err(|e| ParseChoiceError::new(text, e.reason))
}

fn no_argument(
    text: &str,
    rest: &str,
    choice: OpeningChoice,
) -> Result<OpeningChoice, ParseChoiceError> {
    if rest.is_empty() {
        Ok(choice)
    } else {
        Err(ParseChoiceError::new(text, "this choice takes no argument"))
    }
}

impl FromStr for OpeningChoice {
    type Err = ParseChoiceError;

    /// Keywords in either case, surrounding white space ignored, any white space after the
    /// keyword, and white space around the commas of a list.
    fn from_str(text: &str) -> Result<OpeningChoice, ParseChoiceError> {
        let trimmed = text.trim();
        let (word, rest) = match trimmed.split_once(char::is_whitespace) {
            Some((word, rest)) => (word, rest.trim()),
            None => (trimmed, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "" => Err(ParseChoiceError::new(text, "empty choice")),
            "swap" => no_argument(text, rest, OpeningChoice::Swap),
            "stay" => no_argument(text, rest, OpeningChoice::Stay),
            "black" => no_argument(text, rest, OpeningChoice::Color(Color::Black)),
            "white" => no_argument(text, rest, OpeningChoice::Color(Color::White)),
            "declare" => {
                let digits = rest.as_bytes();
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return Err(ParseChoiceError::new(text, "declare takes a number"));
                }
                if digits.len() > 1 && digits[0] == b'0' {
                    return Err(ParseChoiceError::new(text, "a number has no leading zero"));
                }
                rest.parse::<u8>()
                    .map(OpeningChoice::Declare)
                    .map_err(|_| ParseChoiceError::new(text, "the number is too large"))
            }
            "fifths" => {
                if rest.is_empty() {
                    return Err(ParseChoiceError::new(text, "fifths takes a list of cells"));
                }
                rest.split(',')
                    .map(|cell| cell_in(text, cell.trim()))
                    .collect::<Result<Vec<Cell>, _>>()
                    .map(OpeningChoice::Fifths)
            }
            "choose" => {
                if rest.is_empty() {
                    return Err(ParseChoiceError::new(text, "choose takes a cell"));
                }
                cell_in(text, rest).map(OpeningChoice::Choose)
            }
            _ if rest.is_empty() => {
                trimmed
                    .parse::<Cell>()
                    .map(OpeningChoice::Place)
                    .map_err(|_| {
                        ParseChoiceError::new(
                        text,
                        "expected a cell, swap, stay, black, white, declare N, fifths or choose",
                    )
                    })
            }
            _ => Err(ParseChoiceError::new(text, "unknown choice")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_decisions_leave_their_stones_only() {
        let choices = [
            "h8",
            "i9",
            "j7",
            "swap",
            "fifths h9,j10",
            "choose j10",
            "stay",
        ];
        assert_eq!(opening_stones(&choices), ["h8", "i9", "j7", "j10"]);
    }
}
