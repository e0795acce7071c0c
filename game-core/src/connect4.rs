//! Connect Four on 4..=12 columns and rows with blocked cells, on bitboards wide enough for
//! 12x12, and the move-string and board-text formats of the engine contract.
//!
//! # Bit layout
//! The board is column-major: cell (`col`, `row`) is bit `col * stride + row` with
//! `stride = rows + 1`. The extra bit on top of every column (the sentinel) is never set, so
//! the classic shift-and test ([`has_four`]) cannot join a run across a column edge. Blocked
//! cells are in neither player's mask, so they break lines with no extra work.
//!
//! A 12x12 board needs 12 * 13 = 156 bits, more than a `u128`, hence [`WideBits`]. The
//! [`BitSet`] trait lets an engine run the same code on `u64`/`u128` when the board fits.
//!
//! ```
//! use game_core::connect4::{ConnectFour, Column};
//! use game_core::{Cell, Position};
//!
//! // Column 4 has a blocked cell at the bottom: the first stone there lands on row 2.
//! let pos = ConnectFour::new(7, 6, &[Cell::new(3, 0)]).unwrap();
//! let pos = pos.play(Column(3)).unwrap();
//! assert_eq!(pos.to_board_text(), "......./......./......./......./...X.../...#...");
//! ```

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::error::{IllegalMoveError, ParseMoveError, SpecError};
use crate::position::{Cell, EndReason, Outcome, Position};
use crate::Color;

mod bits;
pub use bits::{directions, fours_along, has_four, BitSet, Layout, WideBits};

/// Smallest and largest number of columns and of rows.
pub const MIN_SIZE: u8 = 4;
pub const MAX_SIZE: u8 = 12;

/// Perft on bits: `moved` is the side that just moved, `occupied` includes blocked cells.
fn perft_bits<B: BitSet>(layout: &Layout<B>, to_move: B, moved: B, occupied: B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if has_four(moved, layout.stride) {
        return 0;
    }
    // No free cell also covers the full board.
    let mut free = layout.free_cells(occupied);
    if depth == 1 {
        return u64::from(free.count_ones());
    }
    let mut count = 0;
    while !free.is_zero() {
        let stone = B::bit(free.trailing_zeros());
        free ^= stone;
        count += perft_bits(layout, moved, to_move | stone, occupied | stone, depth - 1);
    }
    count
}

/// The bitboard type of [`ConnectFour`].
pub type Bitboard = WideBits;

/// A Connect Four move: a 0-based column, written 1-based (`"4"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl FromStr for Column {
    type Err = ParseMoveError;

    /// A 1-based column number without sign or leading zero, `1`..=`99`. Whether the column
    /// is on a given board is a legality question.
    fn from_str(s: &str) -> Result<Self, ParseMoveError> {
        let bytes = s.as_bytes();
        if bytes.is_empty() {
            return Err(ParseMoveError::new(s, "empty move"));
        }
        if !bytes.iter().all(u8::is_ascii_digit) {
            return Err(ParseMoveError::new(s, "expected a column number"));
        }
        if bytes.len() > 2 {
            return Err(ParseMoveError::new(s, "column number too large"));
        }
        if bytes[0] == b'0' {
            return Err(ParseMoveError::new(s, "columns are numbered from 1"));
        }
        let n = bytes.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Ok(Column(n - 1))
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", u32::from(self.0) + 1)
    }
}

/// What occupies a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CellState {
    Empty,
    Blocked,
    Stone(Color),
}

/// A Connect Four position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    cols: u8,
    rows: u8,
    /// Indexed by [`Color::index`].
    stones: [Bitboard; 2],
    blocked: Bitboard,
    /// Row of the next stone in each column (blocked cells already skipped); `rows` when full.
    next_row: [u8; MAX_SIZE as usize],
    /// Non-blocked cells of the board: the game is a draw when `ply` reaches it.
    playable: u8,
    ply: u8,
    /// Kept apart from `ply` because a board text may give white one stone more.
    turn: Color,
}

impl ConnectFour {
    /// An empty board; `blocked` cells are 0-based (column, row from the bottom). Errors carry
    /// sizes and 1-based cells, as the game spec writes them.
    pub fn new(cols: u8, rows: u8, blocked: &[Cell]) -> Result<ConnectFour, SpecError> {
        let size_ok = |n: u8| (MIN_SIZE..=MAX_SIZE).contains(&n);
        if !size_ok(cols) || !size_ok(rows) {
            return Err(SpecError::Connect4Size(cols.into(), rows.into()));
        }
        let mut pos = ConnectFour {
            cols,
            rows,
            stones: [Bitboard::ZERO; 2],
            blocked: Bitboard::ZERO,
            next_row: [0; MAX_SIZE as usize],
            playable: cols * rows,
            ply: 0,
            turn: Color::Black,
        };
        for &cell in blocked {
            let one_based = (u32::from(cell.col) + 1, u32::from(cell.row) + 1);
            if cell.col >= cols || cell.row >= rows {
                return Err(SpecError::BlockedOffBoard(one_based.0, one_based.1));
            }
            let bit = pos.bit_index(cell);
            if pos.blocked.has(bit) {
                return Err(SpecError::BlockedTwice(one_based.0, one_based.1));
            }
            pos.blocked |= Bitboard::bit(bit);
            pos.playable -= 1;
        }
        for col in 0..cols {
            pos.next_row[usize::from(col)] = pos.skip_blocked(col, 0);
        }
        Ok(pos)
    }

    #[must_use]
    pub fn cols(&self) -> u8 {
        self.cols
    }

    #[must_use]
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Bits per column in the bitboards: the rows and the sentinel.
    #[inline]
    #[must_use]
    pub fn stride(&self) -> u32 {
        u32::from(self.rows) + 1
    }

    /// Bit index of an on-board cell in the bitboards.
    #[inline]
    #[must_use]
    pub fn bit_index(&self, cell: Cell) -> u32 {
        u32::from(cell.col) * self.stride() + u32::from(cell.row)
    }

    /// The cell of a bit index.
    #[inline]
    #[must_use]
    pub fn cell_of_bit(&self, bit: u32) -> Cell {
        let stride = self.stride();
        // Both quotient and remainder are below 13 for any bit of the board.
        Cell::new((bit / stride) as u8, (bit % stride) as u8)
    }

    /// The stones of one side.
    #[inline]
    #[must_use]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The blocked cells as a bitboard.
    #[inline]
    #[must_use]
    pub fn blocked_bits(&self) -> Bitboard {
        self.blocked
    }

    /// Every cell of the board (no sentinels).
    #[must_use]
    pub fn board_bits(&self) -> Bitboard {
        let column = Bitboard::bit(u32::from(self.rows)).wrapping_sub(Bitboard::bit(0));
        (0..u32::from(self.cols)).fold(Bitboard::ZERO, |acc, c| {
            acc | (column << (c * self.stride()))
        })
    }

    /// The blocked cells, column by column from the bottom.
    #[must_use]
    pub fn blocked(&self) -> Vec<Cell> {
        let mut cells = Vec::new();
        let mut bits = self.blocked;
        while !bits.is_zero() {
            let bit = bits.trailing_zeros();
            cells.push(self.cell_of_bit(bit));
            bits ^= Bitboard::bit(bit);
        }
        cells
    }

    /// What is on a cell; `None` off the board.
    #[must_use]
    pub fn cell(&self, cell: Cell) -> Option<CellState> {
        if cell.col >= self.cols || cell.row >= self.rows {
            return None;
        }
        let bit = self.bit_index(cell);
        Some(if self.blocked.has(bit) {
            CellState::Blocked
        } else if self.stones[0].has(bit) {
            CellState::Stone(Color::Black)
        } else if self.stones[1].has(bit) {
            CellState::Stone(Color::White)
        } else {
            CellState::Empty
        })
    }

    /// The row the next stone in `col` would take, `None` if the column is full or off the
    /// board.
    #[inline]
    #[must_use]
    pub fn landing_row(&self, col: Column) -> Option<u8> {
        if col.0 >= self.cols {
            return None;
        }
        let row = self.next_row[usize::from(col.0)];
        (row < self.rows).then_some(row)
    }

    /// The masks of this board size in bitboard type `B` (which must hold
    /// `cols * stride` bits).
    #[must_use]
    pub fn layout<B: BitSet>(&self) -> Layout<B> {
        let bottom = (0..u32::from(self.cols)).fold(Bitboard::ZERO, |acc, c| {
            acc | Bitboard::bit(c * self.stride())
        });
        Layout {
            stride: self.stride(),
            bottom: B::from_wide(bottom),
            board: B::from_wide(self.board_bits()),
        }
    }

    /// Number of legal move sequences of `depth` plies (a won or drawn position has no moves).
    /// Runs on `u64` or `u128` when the board fits.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let bits = u32::from(self.cols) * self.stride();
        if bits <= u64::BITS {
            self.perft_in::<u64>(depth)
        } else if bits <= u128::BITS {
            self.perft_in::<u128>(depth)
        } else {
            self.perft_in::<WideBits>(depth)
        }
    }

    fn perft_in<B: BitSet>(&self, depth: u32) -> u64 {
        let to_move = B::from_wide(self.stones(self.turn));
        let moved = B::from_wide(self.stones(self.turn.other()));
        let occupied = to_move | moved | B::from_wide(self.blocked);
        perft_bits(&self.layout(), to_move, moved, occupied, depth)
    }

    /// Parses a board text: rows from top to bottom separated by `/`, one character a cell
    /// (`.` empty, `X` black, `O` white, `#` blocked). The side to move is the one with fewer
    /// stones, black when equal.
    pub fn from_board_text(text: &str) -> Result<ConnectFour, SpecError> {
        let bad = |msg: &str| SpecError::PositionText(msg.to_string());
        let lines: Vec<&[u8]> = text.trim().split('/').map(str::as_bytes).collect();
        let cols = lines.first().map_or(0, |l| l.len());
        if lines.iter().any(|l| l.len() != cols) {
            return Err(bad("rows of different lengths"));
        }
        let size = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
        let (cols, rows) = (size(cols), size(lines.len()));
        // Checked before the cells so cell coordinates below fit in a u8.
        ConnectFour::new(cols, rows, &[])?;
        let mut blocked = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            for (col, &ch) in line.iter().enumerate() {
                if !matches!(ch, b'.' | b'X' | b'O' | b'#') {
                    return Err(bad("cells must be '.', 'X', 'O' or '#'"));
                }
                if ch == b'#' {
                    blocked.push(Cell::new(col as u8, (lines.len() - 1 - i) as u8));
                }
            }
        }
        let mut pos = ConnectFour::new(cols, rows, &blocked)?;
        for col in 0..cols {
            let mut gap = false;
            for row in 0..rows {
                let ch = lines[usize::from(rows - 1 - row)][usize::from(col)];
                let color = match ch {
                    b'X' => Color::Black,
                    b'O' => Color::White,
                    b'.' => {
                        gap = true;
                        continue;
                    }
                    _ => continue,
                };
                if gap {
                    return Err(bad("a stone floats above an empty cell"));
                }
                pos.put(Column(col), color);
            }
        }
        let black = pos.stones[0].count_ones();
        let white = pos.stones[1].count_ones();
        if black.abs_diff(white) > 1 {
            return Err(bad("stone counts differ by more than one"));
        }
        pos.turn = if black <= white {
            Color::Black
        } else {
            Color::White
        };
        if has_four(pos.stones(pos.turn), pos.stride()) {
            return Err(bad("the side to move already has four in a row"));
        }
        Ok(pos)
    }

    /// The board text of this position (see [`ConnectFour::from_board_text`]).
    #[must_use]
    pub fn to_board_text(&self) -> String {
        let mut text = String::with_capacity(usize::from(self.rows) * (usize::from(self.cols) + 1));
        for row in (0..self.rows).rev() {
            if row + 1 < self.rows {
                text.push('/');
            }
            for col in 0..self.cols {
                text.push(match self.cell(Cell::new(col, row)) {
                    Some(CellState::Stone(Color::Black)) => 'X',
                    Some(CellState::Stone(Color::White)) => 'O',
                    Some(CellState::Blocked) => '#',
                    Some(CellState::Empty) | None => '.',
                });
            }
        }
        text
    }

    /// First row at or above `row` in `col` that is not blocked; `rows` if none.
    fn skip_blocked(&self, col: u8, mut row: u8) -> u8 {
        while row < self.rows && self.blocked.has(self.bit_index(Cell::new(col, row))) {
            row += 1;
        }
        row
    }

    /// Drops a stone of `color` into an open column; does not touch the turn.
    #[inline]
    fn put(&mut self, col: Column, color: Color) {
        let c = usize::from(col.0);
        let row = self.next_row[c];
        self.stones[color.index()] |= Bitboard::bit(self.bit_index(Cell::new(col.0, row)));
        self.next_row[c] = self.skip_blocked(col.0, row + 1);
        self.ply += 1;
    }

    /// Whether the side that just moved has four, or the board is full.
    #[inline]
    fn ended(&self) -> bool {
        self.ply >= self.playable || has_four(self.stones(self.turn.other()), self.stride())
    }

    /// The longest run of `color` with four or more, in order along the line.
    fn winning_line(&self, color: Color) -> Option<Vec<Cell>> {
        let stones = self.stones(color);
        directions(self.stride()).into_iter().find_map(|d| {
            let fours = fours_along(stones, d);
            if fours.is_zero() {
                return None;
            }
            let mut start = fours.trailing_zeros();
            while start >= d && stones.has(start - d) {
                start -= d;
            }
            let mut line = Vec::new();
            let mut bit = start;
            while stones.has(bit) {
                line.push(self.cell_of_bit(bit));
                bit += d;
            }
            Some(line)
        })
    }
}

impl Position for ConnectFour {
    type Move = Column;

    #[inline]
    fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    fn ply(&self) -> usize {
        usize::from(self.ply)
    }

    fn legal_moves(&self) -> Vec<Column> {
        if self.ended() {
            return Vec::new();
        }
        (0..self.cols)
            .filter(|&c| self.next_row[usize::from(c)] < self.rows)
            .map(Column)
            .collect()
    }

    fn is_legal(&self, m: Column) -> Result<(), IllegalMoveError> {
        if self.ended() {
            Err(IllegalMoveError::GameOver)
        } else if m.0 >= self.cols {
            Err(IllegalMoveError::OutOfBoard(m.to_string()))
        } else if self.next_row[usize::from(m.0)] >= self.rows {
            Err(IllegalMoveError::ColumnFull(m.to_string()))
        } else {
            Ok(())
        }
    }

    #[inline]
    fn play_unchecked(&mut self, m: Column) {
        self.put(m, self.turn);
        self.turn = self.turn.other();
    }

    fn outcome(&self) -> Option<Outcome> {
        let last = self.turn.other();
        if let Some(line) = self.winning_line(last) {
            return Some(Outcome {
                winner: Some(last),
                reason: EndReason::Four,
                line,
                score: None,
            });
        }
        (self.ply >= self.playable).then(|| Outcome {
            winner: None,
            reason: EndReason::Full,
            line: Vec::new(),
            score: None,
        })
    }
}

/// Parses a move string of the engine contract: 1-based column digits (`4453`), or for boards
/// of more than 9 columns numbers separated by commas (`10,3,4`). Anything after the first
/// space is ignored (the public test sets put the score there). Columns beyond `cols` are
/// rejected here, since the string only has a meaning for one board width.
pub fn parse_move_string(s: &str, cols: u8) -> Result<Vec<Column>, ParseMoveError> {
    let moves = s.split_whitespace().next().unwrap_or("");
    let check = |c: Column| {
        if c.0 < cols {
            Ok(c)
        } else {
            Err(ParseMoveError::new(s, "column beyond the board"))
        }
    };
    if moves.is_empty() {
        Ok(Vec::new())
    } else if cols > 9 {
        moves
            .split(',')
            .map(|t| {
                t.parse()
                    .map_err(|_| {
                        ParseMoveError::new(s, "expected column numbers separated by commas")
                    })
                    .and_then(check)
            })
            .collect()
    } else {
        moves
            .bytes()
            .map(|b| match b {
                b'1'..=b'9' => check(Column(b - b'1')),
                _ => Err(ParseMoveError::new(s, "expected column digits 1-9")),
            })
            .collect()
    }
}

/// Writes moves as a move string: digits for up to 9 columns, else comma-separated numbers.
#[must_use]
pub fn format_move_string(moves: &[Column], cols: u8) -> String {
    let sep = if cols > 9 { "," } else { "" };
    moves
        .iter()
        .map(Column::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}
