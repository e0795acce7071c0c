//! Gomoku on square boards of 5..=26: freestyle, standard and renju rules.
//!
//! The position is only the stones (and the rule); whose turn it is follows from their count,
//! and the outcome is found by scanning the board, so two equal boards are equal positions.
//!
//! ```
//! use game_core::gomoku::Gomoku;
//! use game_core::{Cell, Color, GomokuRule, Position};
//!
//! let mut pos = Gomoku::new(15, GomokuRule::Freestyle).unwrap();
//! for m in ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"] {
//!     pos = pos.play(m.parse().unwrap()).unwrap();
//! }
//! let won = pos.play("h12".parse().unwrap()).unwrap();
//! let outcome = won.outcome().unwrap();
//! assert_eq!(outcome.winner, Some(Color::Black));
//! assert_eq!(outcome.line[0], "h8".parse::<Cell>().unwrap());
//! ```

use crate::error::{Forbidden, IllegalMoveError, MoveError, SpecError};
use crate::position::{Cell, EndReason, Outcome, Position};
use crate::renju::RenjuBoard;
use crate::spec::GomokuRule;
use crate::Color;

/// The four line directions as (column, row) steps; each line is reported in this direction.
const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A Gomoku position. Moves are [`Cell`]s (`h8`), rows counted from the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gomoku {
    size: u8,
    rule: GomokuRule,
    /// Row-major, `row * size + col`, row 0 at the bottom.
    cells: Vec<Option<Color>>,
    /// Stones on the board, kept beside `cells` so `turn` is O(1).
    stones: usize,
    /// The winning run on the board and whose it is. A move can only make a run through its
    /// own stone, so each move looks from there instead of scanning the board; a board given
    /// whole is scanned once.
    five: Option<(Color, Vec<Cell>)>,
}

impl Gomoku {
    /// An empty board; `size` must be 5..=26.
    pub fn new(size: u8, rule: GomokuRule) -> Result<Gomoku, SpecError> {
        if !(5..=26).contains(&size) {
            return Err(SpecError::GomokuSize(u32::from(size)));
        }
        let n = usize::from(size);
        Ok(Gomoku {
            size,
            rule,
            cells: vec![None; n * n],
            stones: 0,
            five: None,
        })
    }

    /// The empty board followed by checked `moves`, black first; the first illegal move is
    /// reported with its index.
    pub fn from_moves(size: u8, rule: GomokuRule, moves: &[Cell]) -> Result<Gomoku, SpecError> {
        let mut pos = Gomoku::new(size, rule)?;
        for (index, &m) in moves.iter().enumerate() {
            pos.is_legal(m).map_err(|e| SpecError::Opening {
                index,
                error: MoveError::Illegal(e),
            })?;
            pos.play_unchecked(m);
        }
        Ok(pos)
    }

    /// A board holding the given stones, without checking that a game could reach it (for
    /// problems and tests). Off-board or repeated cells are a [`SpecError::PositionText`].
    pub fn from_stones(
        size: u8,
        rule: GomokuRule,
        black: &[Cell],
        white: &[Cell],
    ) -> Result<Gomoku, SpecError> {
        let mut pos = Gomoku::new(size, rule)?;
        for (color, cells) in [(Color::Black, black), (Color::White, white)] {
            for &cell in cells {
                match pos.index(cell) {
                    None => {
                        return Err(SpecError::PositionText(format!("{cell} is off the board")))
                    }
                    Some(i) if pos.cells[i].is_some() => {
                        return Err(SpecError::PositionText(format!("{cell} is given twice")))
                    }
                    Some(i) => {
                        pos.cells[i] = Some(color);
                        pos.stones += 1;
                    }
                }
            }
        }
        // The side that just moved is looked at first, in case the board holds lines of both.
        let mover = pos.turn().other();
        pos.five = [mover, mover.other()]
            .into_iter()
            .find_map(|color| pos.winning_line(color).map(|line| (color, line)));
        Ok(pos)
    }

    pub fn size(&self) -> u8 {
        self.size
    }
    pub fn rule(&self) -> GomokuRule {
        self.rule
    }

    /// The board, row-major (`row * size + col`, row 0 at the bottom): the form the
    /// [`crate::renju`] helpers take.
    #[must_use]
    pub fn cells(&self) -> &[Option<Color>] {
        &self.cells
    }

    /// Every stone with its cell, in row-major order from a1.
    pub fn stones(&self) -> impl Iterator<Item = (Cell, Color)> + '_ {
        let n = usize::from(self.size);
        self.cells.iter().enumerate().filter_map(move |(i, s)| {
            // Coordinates below `size` fit in a u8.
            s.map(|color| (Cell::new((i % n) as u8, (i / n) as u8), color))
        })
    }

    fn index(&self, cell: Cell) -> Option<usize> {
        (cell.col < self.size && cell.row < self.size)
            .then(|| usize::from(cell.row) * usize::from(self.size) + usize::from(cell.col))
    }

    /// The stone on a cell, if any (None also for off-board cells).
    pub fn stone(&self, cell: Cell) -> Option<Color> {
        self.index(cell).and_then(|i| self.cells[i])
    }

    fn renju_board(&self) -> RenjuBoard {
        RenjuBoard::from_stones(self.size, &self.cells)
    }

    /// Black's forbidden points under renju (empty for the other rules), whoever is to move.
    pub fn forbidden_points(&self) -> Vec<Cell> {
        if self.rule != GomokuRule::Renju {
            return Vec::new();
        }
        self.renju_board().forbidden_points()
    }

    /// Whether black playing the empty cell `cell` would be forbidden under renju, and why.
    pub fn forbidden_kind(&self, cell: Cell) -> Option<Forbidden> {
        if self.rule != GomokuRule::Renju {
            return None;
        }
        self.renju_board().forbidden(cell)
    }

    /// Whether a run of `len` stones of `color` wins under the rule.
    fn wins(&self, color: Color, len: usize) -> bool {
        match (self.rule, color) {
            (GomokuRule::Freestyle, _) | (GomokuRule::Renju, Color::White) => len >= 5,
            (GomokuRule::Standard, _) | (GomokuRule::Renju, Color::Black) => len == 5,
        }
    }

    /// The first winning run of `color` in row-major order, whole: for an overline that wins
    /// (freestyle, or white in renju) that is every stone of the run, not just five.
    fn winning_line(&self, color: Color) -> Option<Vec<Cell>> {
        for (start, c) in self.stones() {
            if c != color {
                continue;
            }
            for (dc, dr) in DIRECTIONS {
                // Only the first stone of a run starts it.
                if self
                    .neighbour(start, (-dc, -dr))
                    .and_then(|p| self.stone(p))
                    == Some(color)
                {
                    continue;
                }
                let line = self.run_from(start, (dc, dr));
                if self.wins(color, line.len()) {
                    return Some(line);
                }
            }
        }
        None
    }

    /// The winning run of `cell`'s stone that passes through `cell`, reported as
    /// [`Gomoku::winning_line`] would find it: of several, the one whose first stone comes
    /// first in row-major order, then by direction.
    fn winning_line_through(&self, cell: Cell) -> Option<Vec<Cell>> {
        let color = self.stone(cell)?;
        let mut best: Option<(usize, Vec<Cell>)> = None;
        for (dc, dr) in DIRECTIONS {
            let mut start = cell;
            while let Some(prev) = self
                .neighbour(start, (-dc, -dr))
                .filter(|&p| self.stone(p) == Some(color))
            {
                start = prev;
            }
            let line = self.run_from(start, (dc, dr));
            let first = self.index(start).unwrap_or(usize::MAX);
            if self.wins(color, line.len()) && best.as_ref().is_none_or(|(b, _)| first < *b) {
                best = Some((first, line));
            }
        }
        best.map(|(_, line)| line)
    }

    /// The cell one step from `cell`, if it is on the board.
    fn neighbour(&self, cell: Cell, (dc, dr): (i8, i8)) -> Option<Cell> {
        let col = cell.col.checked_add_signed(dc)?;
        let row = cell.row.checked_add_signed(dr)?;
        self.index(Cell::new(col, row)).map(|_| Cell::new(col, row))
    }

    /// The stones of `start`'s colour in a row from `start` in direction `dir`.
    fn run_from(&self, start: Cell, dir: (i8, i8)) -> Vec<Cell> {
        let color = self.stone(start);
        let mut line = vec![start];
        let mut at = start;
        while let Some(next) = self.neighbour(at, dir).filter(|&n| self.stone(n) == color) {
            line.push(next);
            at = next;
        }
        line
    }
}

impl Position for Gomoku {
    type Move = Cell;

    fn turn(&self) -> Color {
        Color::from_ply(self.stones)
    }

    fn ply(&self) -> usize {
        self.stones
    }

    fn legal_moves(&self) -> Vec<Cell> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut renju = (self.rule == GomokuRule::Renju && self.turn() == Color::Black)
            .then(|| self.renju_board());
        let n = self.size;
        (0..n)
            .flat_map(|row| (0..n).map(move |col| Cell::new(col, row)))
            .filter(|&cell| self.stone(cell).is_none())
            .filter(|&cell| renju.as_mut().is_none_or(|b| b.forbidden(cell).is_none()))
            .collect()
    }

    fn is_legal(&self, m: Cell) -> Result<(), IllegalMoveError> {
        if self.outcome().is_some() {
            return Err(IllegalMoveError::GameOver);
        }
        let Some(i) = self.index(m) else {
            return Err(IllegalMoveError::OutOfBoard(m.to_string()));
        };
        if self.cells[i].is_some() {
            return Err(IllegalMoveError::Occupied(m.to_string()));
        }
        if self.turn() == Color::Black {
            if let Some(kind) = self.forbidden_kind(m) {
                return Err(IllegalMoveError::Forbidden(m.to_string(), kind));
            }
        }
        Ok(())
    }

    /// Off-board moves are ignored and an occupied cell is overwritten, so that a wrong
    /// "unchecked" move cannot panic.
    fn play_unchecked(&mut self, m: Cell) {
        let turn = self.turn();
        if let Some(i) = self.index(m) {
            if self.cells[i].is_none() {
                self.stones += 1;
            }
            self.cells[i] = Some(turn);
            if self.five.is_none() {
                self.five = self.winning_line_through(m).map(|line| (turn, line));
            }
        }
    }

    /// A winning line ends the game (the side that just moved is looked at first, in case a
    /// board built with [`Gomoku::from_stones`] holds lines of both). A full board is a draw,
    /// and so, in renju, is black to move with every empty point forbidden: nothing is left to
    /// play, and [`EndReason::Full`] says so.
    fn outcome(&self) -> Option<Outcome> {
        if let Some((color, line)) = &self.five {
            return Some(Outcome {
                winner: Some(*color),
                reason: EndReason::Five,
                line: line.clone(),
                score: None,
            });
        }
        let draw = Outcome {
            winner: None,
            reason: EndReason::Full,
            line: Vec::new(),
            score: None,
        };
        if self.stones == self.cells.len() {
            return Some(draw);
        }
        if self.rule == GomokuRule::Renju
            && self.turn() == Color::Black
            && !self.renju_board().black_has_move()
        {
            return Some(draw);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(s: &str) -> Vec<Cell> {
        s.split_whitespace().map(|m| m.parse().unwrap()).collect()
    }

    #[test]
    fn sizes_outside_5_to_26_are_refused() {
        assert_eq!(
            Gomoku::new(4, GomokuRule::Freestyle),
            Err(SpecError::GomokuSize(4))
        );
        assert_eq!(
            Gomoku::new(27, GomokuRule::Renju),
            Err(SpecError::GomokuSize(27))
        );
        assert!(Gomoku::new(5, GomokuRule::Standard).is_ok());
        assert!(Gomoku::new(26, GomokuRule::Standard).is_ok());
    }

    #[test]
    fn winning_line_runs_along_the_anti_diagonal_in_order() {
        let pos = Gomoku::from_stones(
            15,
            GomokuRule::Standard,
            &cells("a5 b4 c3 d2 e1"),
            &cells("o1 o2 o3 o4"),
        )
        .unwrap();
        let outcome = pos.outcome().unwrap();
        assert_eq!(outcome.winner, Some(Color::Black));
        assert_eq!(outcome.line, cells("a5 b4 c3 d2 e1"));
    }

    #[test]
    fn from_stones_refuses_repeats_and_off_board_cells() {
        let twice = Gomoku::from_stones(9, GomokuRule::Renju, &cells("e5"), &cells("e5"));
        assert!(matches!(twice, Err(SpecError::PositionText(_))));
        let off = Gomoku::from_stones(9, GomokuRule::Renju, &cells("j1"), &[]);
        assert!(matches!(off, Err(SpecError::PositionText(_))));
    }

    /// The end found from each last stone is the one a scan of the whole board finds, over
    /// random games of every rule on small and large boards.
    #[test]
    fn the_end_found_from_the_last_stone_matches_a_scan_of_the_board() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        for game in 0..300 {
            let size = [5, 6, 7, 9, 15][game % 5];
            let rule = [
                GomokuRule::Freestyle,
                GomokuRule::Standard,
                GomokuRule::Renju,
            ][game % 3];
            let mut pos = Gomoku::new(size, rule).unwrap();
            while pos.outcome().is_none() {
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[next(moves.len())]);
                let whole = Gomoku::from_stones(
                    size,
                    rule,
                    &pos.stones()
                        .filter(|s| s.1 == Color::Black)
                        .map(|s| s.0)
                        .collect::<Vec<_>>(),
                    &pos.stones()
                        .filter(|s| s.1 == Color::White)
                        .map(|s| s.0)
                        .collect::<Vec<_>>(),
                )
                .unwrap();
                assert_eq!(
                    pos.outcome(),
                    whole.outcome(),
                    "game {game} at ply {}",
                    pos.ply()
                );
            }
        }
    }
}
