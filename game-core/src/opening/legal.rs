//! What an opening takes at a point: its phase, the kinds of choice open, and the areas stones
//! may go in.

use serde::{Deserialize, Serialize};

use crate::position::Cell;
use crate::Color;

/// Where a stone of the opening may go. On the wire: `"board"` or `{"central":5}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    /// Any cell of the board.
    Board,
    /// The central square with this many cells a side (odd); `Central(1)` is the centre.
    Central(u8),
}

impl Area {
    /// Whether `cell` lies in the area on a `size` x `size` board.
    #[must_use]
    pub fn contains(self, cell: Cell, size: u8) -> bool {
        let on_board = cell.col < size && cell.row < size;
        match self {
            Area::Board => on_board,
            Area::Central(side) => {
                let centre = size / 2;
                let reach = side / 2;
                on_board && cell.col.abs_diff(centre) <= reach && cell.row.abs_diff(centre) <= reach
            }
        }
    }
}

impl std::fmt::Display for Area {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Area::Board => f.write_str("the board"),
            Area::Central(1) => f.write_str("the centre"),
            Area::Central(side) => write!(f, "the central {side}x{side} square"),
        }
    }
}

/// A kind of choice the opening takes now. On the wire: an object with `kind` (`place`,
/// `swap`, `stay`, `choose_color`, `declare`, `propose_fifths`, `choose_fifth`) and the
/// fields below.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LegalChoice {
    /// A stone of `color` on an empty cell of `area`; `count` is how many stones the same
    /// player places in a row from here, this one included.
    Place {
        color: Color,
        count: u8,
        area: Area,
    },
    Swap,
    Stay,
    /// `black` or `white`.
    ChooseColor,
    /// `declare N` with N in 1..=`max`.
    Declare {
        max: u8,
    },
    /// `fifths` with exactly `n` black stones in `area`, no two symmetrical.
    ProposeFifths {
        n: u8,
        area: Area,
    },
    /// `choose` one of [`super::Opening::proposals`].
    ChooseFifth,
}

/// `anywhere` or `in the central 5x5 square`, for the messages of [`LegalChoice`].
struct Where(Area);

impl std::fmt::Display for Where {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Area::Board => f.write_str("anywhere"),
            area => write!(f, "in {area}"),
        }
    }
}

impl std::fmt::Display for LegalChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LegalChoice::Place { color, area, .. } => {
                write!(f, "a {color} stone {}", Where(*area))
            }
            LegalChoice::Swap => f.write_str("swap"),
            LegalChoice::Stay => f.write_str("stay"),
            LegalChoice::ChooseColor => f.write_str("black or white"),
            LegalChoice::Declare { max } => write!(f, "declare 1..={max}"),
            LegalChoice::ProposeFifths { n, area } => {
                write!(f, "fifths: {n} cells {}", Where(*area))
            }
            LegalChoice::ChooseFifth => f.write_str("choose one of the offered 5th moves"),
        }
    }
}

/// Where an opening stands. On the wire in snake case: `place`, `swap`, ...
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningPhase {
    /// A stone is due: one of the opening stones, or the next stone of the sequence.
    Place,
    /// The player to act may take the other colour.
    Swap,
    /// Swap2's choice: stay, swap, or two more stones.
    Swap2,
    /// Swap2 after the two more stones: the first player picks a colour.
    Color,
    /// Soosõrv-8: the number of 5th moves is declared.
    Declare,
    /// Black's 5th move: one stone, or the 5th moves offered.
    Fifth,
    /// White chooses one of the offered 5th moves.
    Choose,
    /// The opening is over; the game goes on as an ordinary game.
    Over,
}
