//! Evaluation: a position is worth the sum of its empty points' values for the side to move
//! against the opponent's, the side to move's counted higher because it plays next — with
//! one of two sets of point weights ([`super::points`]): the *fitted* worths, and the side to
//! move's factor with them, fitted to self-play results (`examples/gomoku_train.rs`), which
//! full strength uses; or the *hand-set* values that the lower levels' noise was calibrated
//! against.
//!
//! The board keeps both sums up to date move by move ([`super::board::Summary`]), so the
//! evaluation itself is a few additions.

use super::board::Board;
use super::params::{MOVER_DEN, MOVER_NUM};

/// The static value for the side to move, in centi-stones: with the fitted worths when
/// `fitted`, else with the hand-set values (the side to move's counted 5/4).
///
/// A five-point of the opponent's is left out: the side to move must and will block it, so
/// counting it would reward making fours just before the horizon.
#[must_use]
pub fn evaluate(board: &Board, fitted: bool) -> i32 {
    let me = board.turn();
    let them = 1 - me;
    let total = |v: usize| {
        let s = board.summary(v);
        if fitted {
            s.worth_total
        } else {
            s.total
        }
    };
    let (num, den) = if fitted {
        (MOVER_NUM, MOVER_DEN)
    } else {
        (5, 4)
    };
    let mut theirs = total(them);
    for p in board.summary(them).fives.iter() {
        theirs -= if fitted {
            board.worth(p, them)
        } else {
            board.value(p, them)
        };
    }
    (total(me) * num / den - theirs) / 2
}
