//! A hand-written evaluation, in centi-discs for the side to move: the one the engine played
//! with before it had learnt weights, kept as the player of the first self-play games that
//! the learnt weights are trained from ([`super::selfplay`]). Hand-set weights on the
//! features every Othello program starts from — mobility and potential mobility (frontier),
//! corners, X- and C-squares next to empty corners, stable discs, edges, and the disc count
//! and parity once the end is near. The weights slide with the number of empty squares.

use super::bitboard::legal_moves;
use super::board::{CORNERS, EDGES, NOT_A, NOT_H};
use super::eval::Evaluate;
use super::stability::stable_discs;
use super::weights::UNIT;

/// Per corner: the corner, its X-square and its two C-squares.
const CORNER_GROUPS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 48) | (1 << 57)),
    (1 << 63, 1 << 54, (1 << 55) | (1 << 62)),
];

/// The squares next to any of `discs`.
#[inline]
fn neighbours(discs: u64) -> u64 {
    let horizontal = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let around_row = discs | horizontal;
    horizontal | (around_row << 8) | (around_row >> 8)
}

#[inline]
fn count(bits: u64) -> i32 {
    bits.count_ones() as i32
}

/// The hand-written evaluation as an [`Evaluate`], in 1/[`UNIT`] discs.
pub struct Heuristic;

impl Evaluate for Heuristic {
    fn evaluate(&self, mover: u64, opponent: u64) -> i32 {
        evaluate(mover, opponent) * UNIT / 100
    }
}

/// The value of the position for `mover`, in centi-discs.
#[must_use]
pub fn evaluate(mover: u64, opponent: u64) -> i32 {
    let occupied = mover | opponent;
    let empty = !occupied;
    let empties = count(empty);

    let mobility = count(legal_moves(mover, opponent)) - count(legal_moves(opponent, mover));
    // Empty squares next to the opponent's discs are where our future moves come from.
    let potential = count(neighbours(opponent) & empty) - count(neighbours(mover) & empty);
    let corners = count(mover & CORNERS) - count(opponent & CORNERS);

    let mut x_squares = 0;
    let mut c_squares = 0;
    for &(corner, x, c) in &CORNER_GROUPS {
        if occupied & corner == 0 {
            x_squares += count(mover & x) - count(opponent & x);
            c_squares += count(mover & c) - count(opponent & c);
        }
    }
    let stable = count(stable_discs(mover, opponent)) - count(stable_discs(opponent, mover));
    let edges = count(mover & EDGES & !CORNERS) - count(opponent & EDGES & !CORNERS);
    let discs = count(mover) - count(opponent);

    // Early on, few discs and many options are good; near the end discs are what counts.
    let opening = empties.clamp(0, 60) - 20; // 40 early, 0 at 20 empties, negative later
    let disc_weight = if empties > 40 {
        -4
    } else if empties > 20 {
        0
    } else {
        (20 - empties) * 6
    };
    let mobility_weight = 30 + opening.max(0) / 4;
    let potential_weight = 8 + opening.max(0) / 8;
    // With an odd number of empties the side to move expects to play last.
    let parity = if empties <= 20 && empties % 2 == 1 {
        40
    } else {
        0
    };

    mobility_weight * mobility + potential_weight * potential + 350 * corners
        - 180 * x_squares
        - 50 * c_squares
        + 60 * stable
        + 6 * edges
        + disc_weight * discs
        + parity
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_corners_are_good() {
        let black = 0x0000_0008_1000_0000u64;
        let white = 0x0000_0010_0800_0000u64;
        // Symmetric position: same value for both sides (except parity, zero here).
        assert_eq!(evaluate(black, white), evaluate(white, black));
        let with_corner = evaluate(black | 1, white);
        assert!(with_corner > evaluate(black, white) + 200);
        // An X-square next to an empty corner is bad for its owner.
        assert!(evaluate(black | (1 << 9), white) < evaluate(black | (1 << 10), white));
    }
}
