//! Renju forbidden points for black (overline, double four, double three under the RIF
//! definition, checked recursively).
//!
//! The definitions, for a black stone just placed on `p`:
//! - a *five* is exactly five black stones in a row; a move that makes one is a win, whatever
//!   else it makes;
//! - an *overline* is six or more in a row;
//! - a *four* is a line of black stones that one more stone turns into a five (exactly five);
//!   the fours through `p` are counted per direction, and a single line can hold two of them
//!   (`X.XXX.X`, `XX.XX.XX`). A *straight four* is one four with two five-points (`.XXXX.`);
//! - a *three* is a line through `p` that one more black stone, on a point that is itself not
//!   forbidden, turns into a straight four. That "not forbidden" is checked with this same
//!   test, recursively, on the board holding `p`.
//!
//! Everything works on [`RenjuBoard`], a padded copy of the board on which a move looks along
//! its four lines and never rescans the board; a candidate point costs a handful of line walks
//! unless it really holds two threes. Engines can keep one `RenjuBoard` and update it with
//! [`RenjuBoard::set`].

pub use crate::error::Forbidden;
use crate::position::Cell;
use crate::Color;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
/// The padding ring: neither empty nor black, so every walk along a black run or past an empty
/// point stops on it, one step outside the board.
const WALL: u8 = 3;

/// A board for the renju checks: row-major with a one-cell wall around it, so line walks need
/// no coordinate tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenjuBoard {
    size: u8,
    stride: usize,
    cells: Vec<u8>,
}

impl RenjuBoard {
    /// An empty `size` x `size` board.
    #[must_use]
    pub fn new(size: u8) -> RenjuBoard {
        let stride = usize::from(size) + 2;
        let mut cells = vec![WALL; stride * stride];
        for row in 0..size {
            for col in 0..size {
                cells[Self::index_in(stride, Cell::new(col, row))] = EMPTY;
            }
        }
        RenjuBoard {
            size,
            stride,
            cells,
        }
    }

    /// A board from row-major stones (`cells[row * size + col]`, rows from the bottom); missing
    /// entries are empty and extra ones ignored.
    #[must_use]
    pub fn from_stones(size: u8, stones: &[Option<Color>]) -> RenjuBoard {
        let mut board = RenjuBoard::new(size);
        let n = usize::from(size);
        for (i, stone) in stones.iter().enumerate().take(n * n) {
            // `i / n` and `i % n` are below `size`, so they fit in a u8.
            let cell = Cell::new((i % n) as u8, (i / n) as u8);
            board.set(cell, *stone);
        }
        board
    }

    #[must_use]
    pub fn size(&self) -> u8 {
        self.size
    }

    fn index_in(stride: usize, cell: Cell) -> usize {
        (usize::from(cell.row) + 1) * stride + usize::from(cell.col) + 1
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.col < self.size && cell.row < self.size).then(|| Self::index_in(self.stride, cell))
    }

    /// The stone on a cell (None for empty or off-board cells).
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<Color> {
        match self.index(cell).map(|i| self.cells[i]) {
            Some(BLACK) => Some(Color::Black),
            Some(WHITE) => Some(Color::White),
            _ => None,
        }
    }

    /// Puts or removes a stone; off-board cells are ignored.
    pub fn set(&mut self, cell: Cell, stone: Option<Color>) {
        if let Some(i) = self.index(cell) {
            self.cells[i] = match stone {
                None => EMPTY,
                Some(Color::Black) => BLACK,
                Some(Color::White) => WHITE,
            };
        }
    }

    /// Whether black playing the empty `cell` is forbidden, and why. None for a legal point, a
    /// winning point (a five beats any forbidden shape made with it), and for occupied or
    /// off-board cells. The board is left as it was found: the `&mut` is for trying stones.
    pub fn forbidden(&mut self, cell: Cell) -> Option<Forbidden> {
        let i = self.index(cell)?;
        if self.cells[i] != EMPTY {
            return None;
        }
        self.forbidden_at(i)
    }

    /// Every empty point where black would be forbidden, in row-major order from a1.
    pub fn forbidden_points(&mut self) -> Vec<Cell> {
        let mut points = Vec::new();
        for row in 0..self.size {
            for col in 0..self.size {
                let cell = Cell::new(col, row);
                if self.forbidden(cell).is_some() {
                    points.push(cell);
                }
            }
        }
        points
    }

    /// Whether some empty point is not forbidden for black (short-circuits on the first one).
    pub fn black_has_move(&mut self) -> bool {
        (0..self.size).any(|row| {
            (0..self.size).any(|col| {
                let i = Self::index_in(self.stride, Cell::new(col, row));
                self.cells[i] == EMPTY && self.forbidden_at(i).is_none()
            })
        })
    }

    fn directions(&self) -> [usize; 4] {
        [1, self.stride, self.stride + 1, self.stride - 1]
    }

    /// Black stones in a row from `i` (excluded) in direction `d`, forwards or backwards.
    fn run(&self, i: usize, d: usize, forward: bool) -> usize {
        let mut n = 0;
        let mut j = i;
        loop {
            j = if forward { j + d } else { j - d };
            if self.cells[j] != BLACK {
                return n;
            }
            n += 1;
        }
    }

    /// Tries black on the empty index `i`.
    fn forbidden_at(&mut self, i: usize) -> Option<Forbidden> {
        self.cells[i] = BLACK;
        let kind = self.placed_kind(i);
        self.cells[i] = EMPTY;
        kind
    }

    /// The forbidden shape made by the black stone on `i`, if any.
    fn placed_kind(&mut self, i: usize) -> Option<Forbidden> {
        let dirs = self.directions();
        let mut spans = [(0, 0); 4];
        let mut overline = false;
        for (span, &d) in spans.iter_mut().zip(&dirs) {
            let (back, fwd) = (self.run(i, d, false), self.run(i, d, true));
            match back + fwd + 1 {
                5 => return None,
                n if n > 5 => overline = true,
                _ => {}
            }
            *span = (back, fwd);
        }
        if overline {
            return Some(Forbidden::Overline);
        }

        let mut fours = 0;
        let mut has_four = [false; 4];
        for k in 0..4 {
            let n = self.fours(i, dirs[k], spans[k]);
            has_four[k] = n > 0;
            fours += n;
        }
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }

        // Find the candidate three-points first, without recursion: most points have fewer
        // than two threes and are settled here cheaply.
        let mut candidates = [[None; 2]; 4];
        let mut lines = 0;
        for k in 0..4 {
            if !has_four[k] {
                candidates[k] = self.straight_four_points(i, dirs[k], spans[k]);
                if candidates[k].iter().any(Option::is_some) {
                    lines += 1;
                }
            }
        }
        if lines < 2 {
            return None;
        }
        let mut threes = 0;
        for points in candidates {
            if points.iter().all(Option::is_none) {
                continue;
            }
            let mut real = false;
            for q in points.into_iter().flatten() {
                if self.forbidden_at(q).is_none() {
                    real = true;
                    break;
                }
            }
            lines -= 1;
            if real {
                threes += 1;
                if threes >= 2 {
                    return Some(Forbidden::DoubleThree);
                }
            } else if threes + lines < 2 {
                return None;
            }
        }
        None
    }

    /// Whether the empty index `e` completes exactly five with the `len` stones before it on
    /// its side (walking away from them in direction `d`).
    fn five_point(&self, e: usize, d: usize, len: usize, forward: bool) -> bool {
        self.cells[e] == EMPTY && len + 1 + self.run(e, d, forward) == 5
    }

    /// The number of fours through the stone on `i` in direction `d` (0, 1 or 2), given the
    /// black run `(back, fwd)` around it.
    ///
    /// A five-point must be the first non-black point past the run on its side, since the five
    /// holds every point between it and `i`; so a line has at most two, one per side. Two of
    /// them are one straight four when they bracket exactly four stones, else two fours.
    fn fours(&self, i: usize, d: usize, (back, fwd): (usize, usize)) -> usize {
        let len = back + fwd + 1;
        let lo = i - (back + 1) * d;
        let hi = i + (fwd + 1) * d;
        let low_five = self.five_point(lo, d, len, false);
        let high_five = self.five_point(hi, d, len, true);
        match (low_five, high_five) {
            (true, true) if len == 4 => 1,
            _ => usize::from(low_five) + usize::from(high_five),
        }
    }

    /// The points that would turn the line through `i` in direction `d` into a straight four
    /// holding `i`, not yet checked for being forbidden themselves. The added stone must join
    /// the run of `i` (a straight four is four in a row), so only the first point past the run
    /// on each side can do it.
    fn straight_four_points(
        &self,
        i: usize,
        d: usize,
        (back, fwd): (usize, usize),
    ) -> [Option<usize>; 2] {
        let len = back + fwd + 1;
        let lo = i - (back + 1) * d;
        let hi = i + (fwd + 1) * d;
        let mut points = [None; 2];
        if self.cells[lo] == EMPTY {
            let beyond = self.run(lo, d, false);
            if len + 1 + beyond == 4 {
                let end = lo - (beyond + 1) * d;
                if self.straight_ends(end, hi, d) {
                    points[0] = Some(lo);
                }
            }
        }
        if self.cells[hi] == EMPTY {
            let beyond = self.run(hi, d, true);
            if len + 1 + beyond == 4 {
                let end = hi + (beyond + 1) * d;
                if self.straight_ends(lo, end, d) {
                    points[1] = Some(hi);
                }
            }
        }
        points
    }

    /// Whether the two points bracketing a run of four are both five-points: empty, and not
    /// followed by a black stone (which would make the five an overline).
    fn straight_ends(&self, low: usize, high: usize, d: usize) -> bool {
        self.cells[low] == EMPTY
            && self.cells[high] == EMPTY
            && self.cells[low - d] != BLACK
            && self.cells[high + d] != BLACK
    }
}

/// Whether black playing `cell` on a row-major board of stones is forbidden, and why.
#[must_use]
pub fn forbidden_kind(size: u8, stones: &[Option<Color>], cell: Cell) -> Option<Forbidden> {
    RenjuBoard::from_stones(size, stones).forbidden(cell)
}

/// Every empty point of a row-major board of stones where black would be forbidden.
#[must_use]
pub fn forbidden_points(size: u8, stones: &[Option<Color>]) -> Vec<Cell> {
    RenjuBoard::from_stones(size, stones).forbidden_points()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(black: &[&str], white: &[&str]) -> RenjuBoard {
        let mut b = RenjuBoard::new(15);
        for s in black {
            b.set(s.parse().unwrap(), Some(Color::Black));
        }
        for s in white {
            b.set(s.parse().unwrap(), Some(Color::White));
        }
        b
    }

    #[test]
    fn the_wall_stops_walks_at_every_edge() {
        // Black stones along the whole edge and in the corners: no walk may run off the vector.
        let mut b = RenjuBoard::new(5);
        for k in 0..5 {
            b.set(Cell::new(k, 0), Some(Color::Black));
        }
        assert_eq!(b.forbidden_points(), Vec::<Cell>::new());
        assert_eq!(b.get(Cell::new(4, 0)), Some(Color::Black));
        assert_eq!(b.get(Cell::new(5, 0)), None);
    }

    #[test]
    fn checks_leave_the_board_unchanged() {
        let mut b = board(&["h8", "i8", "h9", "h10", "j8"], &["g7"]);
        let before = b.clone();
        let _ = b.forbidden_points();
        assert_eq!(b, before);
    }
}
