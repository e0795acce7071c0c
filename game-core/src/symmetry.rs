//! The eight symmetries of a square board — rotations and reflections about its centre — and
//! when two Gomoku positions are the same up to them: what makes two proposed 5th moves of a
//! renju opening "symmetrical".
//!
//! ```
//! use game_core::gomoku::Gomoku;
//! use game_core::symmetry;
//! use game_core::{Cell, Color, GomokuRule};
//!
//! let cells = |s: &str| -> Vec<Cell> { s.split(' ').map(|c| c.parse().unwrap()).collect() };
//! // Black h8 and h10, white h9 and h7: the position is its own mirror image across column h.
//! let pos = Gomoku::from_stones(15, GomokuRule::Renju, &cells("h8 h10"), &cells("h9 h7")).unwrap();
//! let g6: Cell = "g6".parse().unwrap();
//! let i6: Cell = "i6".parse().unwrap();
//! let i7: Cell = "i7".parse().unwrap();
//! assert!(symmetry::equivalent(&pos, g6, i6, Color::Black));
//! assert!(!symmetry::equivalent(&pos, g6, i7, Color::Black));
//! ```

use std::collections::HashSet;

use crate::gomoku::Gomoku;
use crate::position::Cell;
use crate::Color;

/// One of the eight symmetries of a square board. Rows count from the bottom, as in the
/// notation, so `Rotate90` turns the board a quarter counter-clockwise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    Identity,
    Rotate90,
    Rotate180,
    Rotate270,
    /// Left and right exchanged: column `a` becomes the last column.
    MirrorColumns,
    /// Top and bottom exchanged: row 1 becomes the last row.
    MirrorRows,
    /// Reflection in the diagonal through a1: `b1` becomes `a2`.
    MirrorDiagonal,
    /// Reflection in the other diagonal.
    MirrorAntiDiagonal,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::MirrorDiagonal,
        Symmetry::MirrorAntiDiagonal,
    ];

    /// The image of `cell` on a `size` x `size` board. A cell off the board is returned as it
    /// is: it has no image.
    #[must_use]
    pub fn apply(self, cell: Cell, size: u8) -> Cell {
        if cell.col >= size || cell.row >= size {
            return cell;
        }
        let last = size - 1;
        let (c, r) = (cell.col, cell.row);
        let (col, row) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::Rotate90 => (last - r, c),
            Symmetry::Rotate180 => (last - c, last - r),
            Symmetry::Rotate270 => (r, last - c),
            Symmetry::MirrorColumns => (last - c, r),
            Symmetry::MirrorRows => (c, last - r),
            Symmetry::MirrorDiagonal => (r, c),
            Symmetry::MirrorAntiDiagonal => (last - r, last - c),
        };
        Cell::new(col, row)
    }
}

/// The stones of a position, each with its colour's index, sorted: the form two positions
/// are compared in.
type Stones = Vec<(Cell, usize)>;

fn image(stones: &[(Cell, usize)], symmetry: Symmetry, size: u8) -> Stones {
    let mut image: Stones = stones
        .iter()
        .map(|&(cell, color)| (symmetry.apply(cell, size), color))
        .collect();
    image.sort_unstable();
    image
}

/// The smallest of the eight images: equal for two positions exactly when a symmetry of the
/// board maps one onto the other.
fn canonical(stones: &[(Cell, usize)], size: u8) -> Stones {
    Symmetry::ALL
        .iter()
        .map(|&s| image(stones, s, size))
        .min()
        .unwrap_or_default()
}

fn stones_of(pos: &Gomoku) -> Stones {
    pos.stones()
        .map(|(cell, color)| (cell, color.index()))
        .collect()
}

fn with_stone(pos: &Gomoku, cell: Cell, color: Color) -> Stones {
    let mut stones = stones_of(pos);
    stones.push((cell, color.index()));
    stones
}

/// The symmetries of the board that map the stones of `pos` onto themselves, colours kept.
/// The identity is always one of them.
#[must_use]
pub fn symmetries_of(pos: &Gomoku) -> Vec<Symmetry> {
    let stones = stones_of(pos);
    let own = image(&stones, Symmetry::Identity, pos.size());
    Symmetry::ALL
        .into_iter()
        .filter(|&s| image(&stones, s, pos.size()) == own)
        .collect()
}

/// Whether a stone of `color` on `a` and one on `b` make positions that a symmetry of the
/// board maps onto each other. Equal cells are equivalent. For the positions of a renju
/// opening, whose first stone holds the centre, that is: some symmetry keeping `pos` maps `a`
/// onto `b`.
#[must_use]
pub fn equivalent(pos: &Gomoku, a: Cell, b: Cell, color: Color) -> bool {
    a == b
        || canonical(&with_stone(pos, a, color), pos.size())
            == canonical(&with_stone(pos, b, color), pos.size())
}

/// The first cell of each class of `cells` that are equivalent for a stone of `color`, in
/// the order given.
#[must_use]
pub fn distinct(pos: &Gomoku, cells: &[Cell], color: Color) -> Vec<Cell> {
    let mut seen = HashSet::new();
    cells
        .iter()
        .copied()
        .filter(|&cell| seen.insert(canonical(&with_stone(pos, cell, color), pos.size())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GomokuRule;

    #[test]
    fn the_eight_symmetries_are_distinct_and_closed() {
        let cell = Cell::new(1, 2);
        let images: HashSet<Cell> = Symmetry::ALL.iter().map(|s| s.apply(cell, 9)).collect();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            // Each symmetry, applied to every cell, is a permutation of the board.
            let all: HashSet<Cell> = (0..9)
                .flat_map(|r| (0..9).map(move |c| Cell::new(c, r)))
                .map(|c| s.apply(c, 9))
                .collect();
            assert_eq!(all.len(), 81);
        }
        assert_eq!(
            Symmetry::Rotate90.apply(Cell::new(8, 0), 9),
            Cell::new(8, 8)
        );
        assert_eq!(
            Symmetry::Rotate90.apply(Cell::new(20, 0), 9),
            Cell::new(20, 0)
        );
    }

    #[test]
    fn the_empty_board_and_the_centre_keep_every_symmetry() {
        let empty = Gomoku::new(15, GomokuRule::Renju).unwrap();
        assert_eq!(symmetries_of(&empty).len(), 8);
        let centre = Gomoku::from_stones(15, GomokuRule::Renju, &[Cell::new(7, 7)], &[]).unwrap();
        assert_eq!(symmetries_of(&centre).len(), 8);
        let off = Gomoku::from_stones(15, GomokuRule::Renju, &[Cell::new(7, 8)], &[]).unwrap();
        assert_eq!(
            symmetries_of(&off),
            vec![Symmetry::Identity, Symmetry::MirrorColumns]
        );
    }
}
