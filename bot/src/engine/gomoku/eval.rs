//! Evaluation: a position is worth what its empty points are worth to the side to move
//! against what they are worth to the opponent — with one of two sets of point weights: the
//! *learned* worths of [`super::learned`] (by point shape, for the colour to move and the
//! colour waiting, by rule), which full strength uses; or the *hand-set* values of
//! [`super::points`] that the lower levels' noise was calibrated against.
//!
//! The board keeps every sum up to date move by move ([`super::board::Summary`]), so the
//! evaluation itself is a few additions.

use super::board::Board;
use super::learned::{MOVER, UNIT, WAITING};

/// The static value for the side to move, in centi-stones: with the learned worths when
/// `learned`, else with the hand-set values (the side to move's counted 5/4).
///
/// A five-point of the opponent's is left out: the side to move must and will block it, so
/// counting it would reward making fours just before the horizon.
#[must_use]
pub fn evaluate(board: &Board, learned: bool) -> i32 {
    let me = board.turn();
    let them = 1 - me;
    if learned {
        let mut theirs = board.summary(them).worth_totals[WAITING];
        for p in board.summary(them).fives.iter() {
            theirs -= board.worth(p, them, WAITING);
        }
        return (board.summary(me).worth_totals[MOVER] - theirs) / UNIT;
    }
    let mut theirs = board.summary(them).total;
    for p in board.summary(them).fives.iter() {
        theirs -= board.value(p, them);
    }
    (board.summary(me).total * 5 / 4 - theirs) / 2
}
