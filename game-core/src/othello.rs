//! Othello 8x8 on bitboards: forced passes, the end when neither side can move, the final
//! score with empties to the winner, and the 64-character FFO position text.
//!
//! Squares are numbered `8 * row + col` with row 0 the top row ("1") and col 0 column `a`, so
//! `a1` is bit 0 and `h8` bit 63 — the order of the FFO text. The free functions
//! ([`legal_mask`], [`flips`], [`perft`]) work on a (mover, opponent) pair of bitboards so that
//! engines can run their searches without building an [`Othello`] at every node.

use std::fmt;
use std::str::FromStr;

use crate::error::{IllegalMoveError, ParseMoveError, SpecError};
use crate::position::{Cell, EndReason, Outcome, Position, Score};
use crate::Color;

/// Every square but column `a`: a shift towards column `h` that lands here did not wrap.
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square but column `h`.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
/// Columns `b`..`g`: a disc on the edge columns can never be flanked horizontally or
/// diagonally, and masking them out also stops a run from wrapping round a row end.
const INNER_COLS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The squares of the start position: d4 and e5 white, d5 and e4 black.
const START_BLACK: u64 = (1 << (8 * 3 + 4)) | (1 << (8 * 4 + 3));
const START_WHITE: u64 = (1 << (8 * 3 + 3)) | (1 << (8 * 4 + 4));

/// Squares from which `mover` could flank `opponent` along one axis (both directions at
/// once), given `inner`, the opponent discs that may sit inside a run on this axis.
///
/// Doubling the step after the first two rounds covers the longest run (six discs) in four
/// rounds instead of six.
#[inline(always)]
fn axis_moves(mover: u64, inner: u64, step: u32) -> u64 {
    let mut up = inner & (mover << step);
    let mut down = inner & (mover >> step);
    up |= inner & (up << step);
    down |= inner & (down >> step);
    let pair_up = inner & (inner << step);
    let pair_down = inner & (inner >> step);
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    up |= pair_up & (up << (2 * step));
    down |= pair_down & (down >> (2 * step));
    (up << step) | (down >> step)
}

/// The empty squares where `mover` may place a disc (flipping at least one `opponent` disc).
#[inline]
#[must_use]
pub fn legal_mask(mover: u64, opponent: u64) -> u64 {
    let inner = opponent & INNER_COLS;
    let moves = axis_moves(mover, inner, 1)
        | axis_moves(mover, opponent, 8)
        | axis_moves(mover, inner, 7)
        | axis_moves(mover, inner, 9);
    moves & !(mover | opponent)
}

/// The opponent discs flanked from `square` in the direction `step` walks, or 0.
#[inline(always)]
fn ray_flips(square: u64, mover: u64, opponent: u64, step: impl Fn(u64) -> u64) -> u64 {
    let mut run = 0;
    let mut x = step(square);
    while x & opponent != 0 {
        run |= x;
        x = step(x);
    }
    if x & mover != 0 {
        run
    } else {
        0
    }
}

/// The opponent discs that a disc of `mover` on `square` (0..64) would flip; 0 when the
/// placement flips nothing or `square` is off the board. Whether `square` is empty is the
/// caller's business.
#[inline]
#[must_use]
pub fn flips(mover: u64, opponent: u64, square: u32) -> u64 {
    if square >= 64 {
        return 0;
    }
    let sq = 1u64 << square;
    ray_flips(sq, mover, opponent, |b| (b << 1) & NOT_A)
        | ray_flips(sq, mover, opponent, |b| (b >> 1) & NOT_H)
        | ray_flips(sq, mover, opponent, |b| b << 8)
        | ray_flips(sq, mover, opponent, |b| b >> 8)
        | ray_flips(sq, mover, opponent, |b| (b << 9) & NOT_A)
        | ray_flips(sq, mover, opponent, |b| (b << 7) & NOT_H)
        | ray_flips(sq, mover, opponent, |b| (b >> 7) & NOT_A)
        | ray_flips(sq, mover, opponent, |b| (b >> 9) & NOT_H)
}

/// Leaves of the game tree `depth` moves below (mover, opponent), where a forced pass counts
/// as a move and a finished game is a leaf wherever it ends.
#[must_use]
pub fn perft(mover: u64, opponent: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = legal_mask(mover, opponent);
    if moves == 0 {
        // Either the pass, or the game is over and this node is a leaf; both count as one
        // at depth 1.
        if depth == 1 || legal_mask(opponent, mover) == 0 {
            return 1;
        }
        return perft(opponent, mover, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let square = moves.trailing_zeros();
        moves &= moves - 1;
        let flipped = flips(mover, opponent, square);
        let next_mover = opponent & !flipped;
        let next_opponent = mover | flipped | (1u64 << square);
        total += perft(next_mover, next_opponent, depth - 1);
    }
    total
}

/// The bit of a cell, if it is on the 8x8 board.
fn cell_bit(cell: Cell) -> Option<u32> {
    (cell.col < 8 && cell.row < 8).then(|| u32::from(cell.row) * 8 + u32::from(cell.col))
}

/// The cell of a bit index 0..64.
fn bit_cell(square: u32) -> Cell {
    // Both parts are below 8, so the narrowing is lossless.
    Cell::new((square % 8) as u8, (square / 8) as u8)
}

/// An Othello move: a square (`f5`, columns a–h, rows 1–8 top to bottom) or `pass`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OthelloMove {
    Place(Cell),
    Pass,
}

impl FromStr for OthelloMove {
    type Err = ParseMoveError;

    /// `pass` (any case) or a cell (`f5`, `F5`). A cell off the 8x8 board parses; it is
    /// rejected as off the board by [`Position::is_legal`].
    fn from_str(s: &str) -> Result<Self, ParseMoveError> {
        if s.eq_ignore_ascii_case("pass") {
            return Ok(OthelloMove::Pass);
        }
        s.parse::<Cell>()
            .map(OthelloMove::Place)
            .map_err(|e| ParseMoveError::new(s, e.reason))
    }
}

impl fmt::Display for OthelloMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OthelloMove::Place(cell) => write!(f, "{cell}"),
            OthelloMove::Pass => f.write_str("pass"),
        }
    }
}

/// An Othello position. Bit `8 * row + col` is the square (a1 = bit 0, h8 = bit 63).
///
/// The discs never overlap. `ply` counts moves including passes; a position read from text
/// does not know its passes and takes `discs - 4` (see [`Othello::from_text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Othello {
    black: u64,
    white: u64,
    turn: Color,
    ply: usize,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::new()
    }
}

impl Othello {
    /// The start position, black to move.
    #[must_use]
    pub fn new() -> Othello {
        Othello {
            black: START_BLACK,
            white: START_WHITE,
            turn: Color::Black,
            ply: 0,
        }
    }

    /// A position from its bitboards (bit `8 * row + col`); `ply` is taken as `discs - 4`
    /// as for the text. Overlapping bitboards are refused.
    pub fn from_bitboards(black: u64, white: u64, turn: Color) -> Result<Othello, SpecError> {
        if black & white != 0 {
            return Err(SpecError::PositionText(format!(
                "black and white share squares {:#018x}",
                black & white
            )));
        }
        let discs = (black | white).count_ones() as usize;
        Ok(Othello {
            black,
            white,
            turn,
            ply: discs.saturating_sub(4),
        })
    }

    /// Parses the FFO text: 64 characters a1..h8 row by row (`X` black, `O` white, `-` or
    /// `.` empty), whitespace, and `X` or `O` for the side to move. Anything after that is
    /// ignored (the test suites put the best moves there).
    ///
    /// The passes that led to the position are unknown, so `ply` is `discs - 4` (0 when
    /// fewer than four discs are on the board).
    pub fn from_text(text: &str) -> Result<Othello, SpecError> {
        let bad = |reason: String| Err(SpecError::PositionText(reason));
        let mut chars = text.trim_start().chars();
        let (mut black, mut white) = (0u64, 0u64);
        for square in 0..64u32 {
            match chars.next() {
                Some('X') => black |= 1 << square,
                Some('O') => white |= 1 << square,
                Some('-' | '.') => {}
                Some(c) => {
                    return bad(format!(
                        "square {} is {c:?}, expected X, O, - or .",
                        bit_cell(square)
                    ))
                }
                None => {
                    return bad(format!(
                        "the board has {square} squares, expected 64 (a1..h8)"
                    ))
                }
            }
        }
        let mut rest = chars.as_str();
        let trimmed = rest.trim_start_matches([' ', '\t']);
        if trimmed.len() == rest.len() {
            return bad(
                "expected a space and the side to move (X or O) after the 64 squares".into(),
            );
        }
        rest = trimmed;
        let turn = match rest.chars().next() {
            Some('X') => Color::Black,
            Some('O') => Color::White,
            Some(c) => return bad(format!("the side to move is {c:?}, expected X or O")),
            None => return bad("the side to move (X or O) is missing".into()),
        };
        Othello::from_bitboards(black, white, turn)
    }

    /// The FFO text of this position, `-` for empty squares.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text: String = (0..64)
            .map(|square| {
                let bit = 1u64 << square;
                if self.black & bit != 0 {
                    'X'
                } else if self.white & bit != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        text.push_str(match self.turn {
            Color::Black => " X",
            Color::White => " O",
        });
        text
    }

    /// Discs on the board now (no empties added; see [`Position::outcome`] for the final
    /// score).
    #[must_use]
    pub fn count(&self) -> Score {
        // At most 64 each.
        Score {
            black: self.black.count_ones() as u8,
            white: self.white.count_ones() as u8,
        }
    }

    /// The (black, white) bitboards.
    #[must_use]
    pub fn bitboards(&self) -> (u64, u64) {
        (self.black, self.white)
    }

    /// The (side to move, opponent) bitboards, the pair the free functions take.
    #[must_use]
    pub fn mover_bitboards(&self) -> (u64, u64) {
        match self.turn {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        }
    }

    /// The disc on a cell, `None` for an empty or off-board cell.
    #[must_use]
    pub fn get(&self, cell: Cell) -> Option<Color> {
        let bit = 1u64 << cell_bit(cell)?;
        if self.black & bit != 0 {
            Some(Color::Black)
        } else if self.white & bit != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The squares where the side to move may place a disc.
    #[must_use]
    pub fn legal_mask(&self) -> u64 {
        let (mover, opponent) = self.mover_bitboards();
        legal_mask(mover, opponent)
    }

    /// The discs the side to move would flip by playing `square` (0..64); 0 if none.
    #[must_use]
    pub fn flips(&self, square: u32) -> u64 {
        let (mover, opponent) = self.mover_bitboards();
        flips(mover, opponent, square)
    }

    /// [`perft`] from this position.
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        let (mover, opponent) = self.mover_bitboards();
        perft(mover, opponent, depth)
    }

    /// True when neither side can place a disc.
    fn finished(&self) -> bool {
        legal_mask(self.black, self.white) == 0 && legal_mask(self.white, self.black) == 0
    }
}

impl Position for Othello {
    type Move = OthelloMove;

    fn turn(&self) -> Color {
        self.turn
    }

    fn ply(&self) -> usize {
        self.ply
    }

    fn legal_moves(&self) -> Vec<OthelloMove> {
        let mut mask = self.legal_mask();
        if mask == 0 {
            let (mover, opponent) = self.mover_bitboards();
            return if legal_mask(opponent, mover) == 0 {
                Vec::new()
            } else {
                vec![OthelloMove::Pass]
            };
        }
        let mut moves = Vec::with_capacity(mask.count_ones() as usize);
        while mask != 0 {
            moves.push(OthelloMove::Place(bit_cell(mask.trailing_zeros())));
            mask &= mask - 1;
        }
        moves
    }

    fn is_legal(&self, m: OthelloMove) -> Result<(), IllegalMoveError> {
        if self.finished() {
            return Err(IllegalMoveError::GameOver);
        }
        let mask = self.legal_mask();
        match m {
            OthelloMove::Pass if mask == 0 => Ok(()),
            OthelloMove::Pass => Err(IllegalMoveError::PassNotAllowed),
            OthelloMove::Place(cell) => {
                let Some(square) = cell_bit(cell) else {
                    return Err(IllegalMoveError::OutOfBoard(m.to_string()));
                };
                if mask == 0 {
                    Err(IllegalMoveError::MustPass)
                } else if (self.black | self.white) & (1 << square) != 0 {
                    Err(IllegalMoveError::Occupied(m.to_string()))
                } else if mask & (1 << square) == 0 {
                    Err(IllegalMoveError::NoFlip(m.to_string()))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays a legal move. An illegal one leaves some unspecified but consistent position
    /// (an off-board cell changes nothing); it never panics.
    fn play_unchecked(&mut self, m: OthelloMove) {
        if let OthelloMove::Place(cell) = m {
            let Some(square) = cell_bit(cell) else {
                return;
            };
            let (mover, opponent) = self.mover_bitboards();
            let changed = flips(mover, opponent, square) | (1 << square);
            let (mover, opponent) = (mover | changed, opponent & !changed);
            (self.black, self.white) = match self.turn {
                Color::Black => (mover, opponent),
                Color::White => (opponent, mover),
            };
        }
        self.turn = self.turn.other();
        self.ply += 1;
    }

    /// When neither side can move: the winner by discs, the score with the empty squares
    /// given to the winner (FFO convention), split equally on a draw (equal counts leave an
    /// even number of empties).
    fn outcome(&self) -> Option<Outcome> {
        if !self.finished() {
            return None;
        }
        let Score { black, white } = self.count();
        let empties = 64 - black - white;
        let (winner, score) = match black.cmp(&white) {
            std::cmp::Ordering::Greater => (
                Some(Color::Black),
                Score {
                    black: black + empties,
                    white,
                },
            ),
            std::cmp::Ordering::Less => (
                Some(Color::White),
                Score {
                    black,
                    white: white + empties,
                },
            ),
            std::cmp::Ordering::Equal => (
                None,
                Score {
                    black: black + empties / 2,
                    white: white + empties / 2,
                },
            ),
        };
        Some(Outcome {
            winner,
            reason: EndReason::Count,
            line: Vec::new(),
            score: Some(score),
        })
    }
}
