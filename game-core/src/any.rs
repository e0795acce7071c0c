//! [`AnyPosition`]: one enum over the three games, so the server can hold any game in a room
//! and speak notation strings to it.

use crate::connect4::{CellState, ConnectFour};
use crate::error::{MoveError, SpecError};
use crate::gomoku::Gomoku;
use crate::othello::{Othello, OthelloMove};
use crate::position::{Cell, Outcome, Position};
use crate::spec::{GameKind, GameSpec};
use crate::Color;

/// A position of any of the three games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    Gomoku(Gomoku),
    Othello(Othello),
    Connect4(ConnectFour),
}

/// Runs `$body` with `$p` bound to the concrete position.
macro_rules! each {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            AnyPosition::Gomoku($p) => $body,
            AnyPosition::Othello($p) => $body,
            AnyPosition::Connect4($p) => $body,
        }
    };
}

/// Checked play of a move text on a concrete position: unchanged on error.
fn play_text<P: Position>(pos: &mut P, text: &str) -> Result<String, MoveError> {
    let m = pos.parse_move(text)?;
    pos.play_unchecked(m);
    Ok(m.to_string())
}

impl AnyPosition {
    /// The start position of a validated spec. A spec with an opening rule has no plain start
    /// position: its game starts with [`crate::opening::Opening`], which hands over its
    /// position once the opening is over; here it is a [`SpecError::OpeningRuleNotRun`].
    pub fn new(spec: &GameSpec) -> Result<AnyPosition, SpecError> {
        spec.validate()?;
        Ok(match spec {
            GameSpec::Gomoku {
                size,
                rule,
                opening_rule,
            } => {
                if let Some(opening) = opening_rule {
                    return Err(SpecError::OpeningRuleNotRun(opening.as_str()));
                }
                AnyPosition::Gomoku(Gomoku::new(*size as u8, *rule)?)
            }
            GameSpec::Othello => AnyPosition::Othello(Othello::new()),
            GameSpec::Connect4 {
                cols,
                rows,
                blocked,
            } => {
                let cells: Vec<Cell> = blocked
                    .iter()
                    .map(|&[c, r]| Cell::new((c - 1) as u8, (r - 1) as u8))
                    .collect();
                AnyPosition::Connect4(ConnectFour::new(*cols as u8, *rows as u8, &cells)?)
            }
        })
    }

    /// The start position followed by `moves`; the first bad move is reported with its index.
    pub fn with_moves<S: AsRef<str>>(
        spec: &GameSpec,
        moves: &[S],
    ) -> Result<AnyPosition, SpecError> {
        let mut pos = AnyPosition::new(spec)?;
        for (index, m) in moves.iter().enumerate() {
            pos.play_str(m.as_ref())
                .map_err(|error| SpecError::Opening { index, error })?;
        }
        Ok(pos)
    }

    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Gomoku(_) => GameKind::Gomoku,
            AnyPosition::Othello(_) => GameKind::Othello,
            AnyPosition::Connect4(_) => GameKind::Connect4,
        }
    }

    #[must_use]
    pub fn turn(&self) -> Color {
        each!(self, p => p.turn())
    }

    #[must_use]
    pub fn ply(&self) -> usize {
        each!(self, p => p.ply())
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, p => p.outcome())
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Parses and plays a move text; returns the move in canonical notation. On error the
    /// position is unchanged.
    pub fn play_str(&mut self, text: &str) -> Result<String, MoveError> {
        each!(self, p => play_text(p, text))
    }

    /// Checks a move text without playing it; returns its canonical notation.
    pub fn check_str(&self, text: &str) -> Result<String, MoveError> {
        each!(self, p => p.parse_move(text).map(|m| m.to_string()))
    }

    /// Every legal move in notation.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        each!(self, p => p.legal_moves().iter().map(ToString::to_string).collect())
    }

    /// True when the side to move has no move but a pass (Othello only): the server plays it.
    #[must_use]
    pub fn must_pass(&self) -> bool {
        match self {
            AnyPosition::Othello(p) => p.legal_moves() == [OthelloMove::Pass],
            _ => false,
        }
    }

    /// Black's forbidden points (renju only; empty otherwise or when white is to move).
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<Cell> {
        match self {
            AnyPosition::Gomoku(p) if p.turn() == Color::Black => p.forbidden_points(),
            _ => Vec::new(),
        }
    }

    /// The board as text, for a picture of it: one character a cell — `.` empty, `x` black,
    /// `o` white, `#` blocked (Connect Four) — row by row from the top of the board as it is
    /// drawn, each row from the left. Gomoku and Connect Four number their rows from the
    /// bottom, so their last row comes first; Othello numbers them from the top.
    #[must_use]
    pub fn board_text(&self) -> String {
        let stone = |c: Option<Color>| match c {
            Some(Color::Black) => 'x',
            Some(Color::White) => 'o',
            None => '.',
        };
        match self {
            AnyPosition::Gomoku(p) => {
                let n = p.size();
                (0..n)
                    .rev()
                    .flat_map(|row| (0..n).map(move |col| Cell::new(col, row)))
                    .map(|cell| stone(p.stone(cell)))
                    .collect()
            }
            AnyPosition::Othello(p) => (0..8u8)
                .flat_map(|row| (0..8u8).map(move |col| Cell::new(col, row)))
                .map(|cell| stone(p.get(cell)))
                .collect(),
            AnyPosition::Connect4(p) => {
                let (cols, rows) = (p.cols(), p.rows());
                (0..rows)
                    .rev()
                    .flat_map(|row| (0..cols).map(move |col| Cell::new(col, row)))
                    .map(|cell| match p.cell(cell) {
                        Some(CellState::Blocked) => '#',
                        Some(CellState::Stone(c)) => stone(Some(c)),
                        Some(CellState::Empty) | None => '.',
                    })
                    .collect()
            }
        }
    }
}
