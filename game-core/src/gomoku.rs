//! Gomoku on square boards of 5..=26: freestyle, standard and renju rules.

use crate::error::{Forbidden, IllegalMoveError, SpecError};
use crate::position::{Cell, Outcome, Position};
use crate::spec::GomokuRule;
use crate::Color;

/// A Gomoku position. Moves are [`Cell`]s (`h8`), rows counted from the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gomoku {
    size: u8,
    rule: GomokuRule,
}

impl Gomoku {
    /// An empty board; `size` must be 5..=26.
    pub fn new(size: u8, rule: GomokuRule) -> Result<Gomoku, SpecError> {
        let _ = (size, rule);
        todo!("gomoku")
    }
    pub fn size(&self) -> u8 {
        self.size
    }
    pub fn rule(&self) -> GomokuRule {
        self.rule
    }
    /// The stone on a cell, if any (None also for off-board cells).
    pub fn stone(&self, _cell: Cell) -> Option<Color> {
        todo!("gomoku")
    }
    /// Black's forbidden points under renju (empty for the other rules), whoever is to move.
    pub fn forbidden_points(&self) -> Vec<Cell> {
        todo!("gomoku")
    }
    /// Whether black playing the empty cell `cell` would be forbidden under renju, and why.
    pub fn forbidden_kind(&self, _cell: Cell) -> Option<Forbidden> {
        todo!("gomoku")
    }
}

impl Position for Gomoku {
    type Move = Cell;
    fn turn(&self) -> Color {
        todo!("gomoku")
    }
    fn ply(&self) -> usize {
        todo!("gomoku")
    }
    fn legal_moves(&self) -> Vec<Cell> {
        todo!("gomoku")
    }
    fn is_legal(&self, _m: Cell) -> Result<(), IllegalMoveError> {
        todo!("gomoku")
    }
    fn play_unchecked(&mut self, _m: Cell) {
        todo!("gomoku")
    }
    fn outcome(&self) -> Option<Outcome> {
        todo!("gomoku")
    }
}
