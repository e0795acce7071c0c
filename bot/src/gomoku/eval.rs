//! Evaluation: a position is worth the sum of its empty points' values ([`super::points`])
//! for the side to move against the opponent's, the side to move's counted a little higher
//! because it plays next.
//!
//! The board keeps these sums up to date move by move ([`super::board::Summary::total`]), so
//! the evaluation itself is a few additions.

use super::board::Board;

/// The static value for the side to move, in centi-stones.
///
/// A five-point of the opponent's is left out: the side to move must and will block it, so
/// counting it would reward making fours just before the horizon.
#[must_use]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.turn();
    let them = 1 - me;
    let mine = board.summary(me).total;
    let mut theirs = board.summary(them).total;
    for p in board.summary(them).fives.iter() {
        theirs -= board.value(p, them);
    }
    (mine * 5 / 4 - theirs) / 2
}
