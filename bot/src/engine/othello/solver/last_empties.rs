//! The bottom of the exact search: null-window solvers for the last 1 to 4 empty squares and
//! a plain parity-ordered search a little above them. Most nodes of an endgame search are
//! here, so nothing is generated that can be avoided: the empty squares are passed as
//! squares, a move is tried only where an opponent disc is adjacent, and the last move is
//! scored by counting its flips ([`last_flip_count`]) without making it.
//!
//! Every function answers the null-window question "is the value above `alpha`?" and fails
//! soft: a value `<= alpha` is an upper bound, a value `> alpha` a lower bound. Values are
//! final disc differences for the side to move, empties to the winner.

use super::super::bitboard::{flips, legal_moves};
use super::super::board::{final_score, CORNERS};
use super::super::last_flip::last_flip_count;
use super::super::stability::stable_discs;

/// Beyond any disc difference.
pub const INFINITY: i32 = 65;

/// Quadrant bit of each square (1, 2, 4, 8 for a1-d4, e1-h4, a5-d8, e5-h8): a parity word
/// holds one bit per quadrant, set when the quadrant has an odd number of empties.
pub static QUADRANT_ID: [u32; 64] = quadrant_ids();

const fn quadrant_ids() -> [u32; 64] {
    let mut ids = [0u32; 64];
    let mut sq = 0;
    while sq < 64 {
        ids[sq] = 1 << ((sq / 32) * 2 + (sq % 8) / 4);
        sq += 1;
    }
    ids
}

/// The squares of the quadrants whose bits are set in `parity`.
static QUADRANT_SQUARES: [u64; 16] = quadrant_squares();

const fn quadrant_squares() -> [u64; 16] {
    let mut masks = [0u64; 16];
    let mut parity = 0;
    while parity < 16 {
        let mut sq = 0;
        while sq < 64 {
            if QUADRANT_ID[sq] & parity != 0 {
                masks[parity as usize] |= 1 << sq;
            }
            sq += 1;
        }
        parity += 1;
    }
    masks
}

/// The parity word of a set of empty squares.
#[inline]
#[must_use]
pub fn parity_of(empty: u64) -> u32 {
    let mut parity = 0;
    let mut rest = empty;
    while rest != 0 {
        parity ^= QUADRANT_ID[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    parity
}

/// The squares around each square.
pub static NEIGHBOURS: [u64; 64] = neighbour_masks();

const fn neighbour_masks() -> [u64; 64] {
    let mut masks = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    masks[sq] |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    masks
}

/// The lowest value worth a stability test at `n` empties: the opponent's stable discs cap
/// our result at `64 - 2 * stable`, which can only fall to `alpha` when `alpha` is high —
/// the more empties, the fewer stable discs there can be. (The classic thresholds.)
pub static STABILITY_THRESHOLD: [i32; 65] = stability_thresholds();

const fn stability_thresholds() -> [i32; 65] {
    const KNOWN: [i32; 48] = [
        99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
        46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64,
        64, 64,
    ];
    let mut table = [99; 65];
    let mut n = 0;
    while n < KNOWN.len() {
        table[n] = KNOWN[n];
        n += 1;
    }
    table
}

/// The opponent's stable discs make the value at most this; `None` if that cannot cut.
#[inline]
pub fn stability_cutoff(mover: u64, opponent: u64, alpha: i32, empties: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[empties as usize] {
        return None;
    }
    let ceiling = 64 - 2 * stable_discs(opponent, mover).count_ones() as i32;
    (ceiling <= alpha).then_some(ceiling)
}

/// The value of the last move on `square`, the only empty square. Lazy: once the value is
/// known to be `<= alpha` whatever the opponent could do, it is returned early.
#[inline]
pub fn solve1(mover: u64, alpha: i32, square: usize) -> i32 {
    let discs = mover.count_ones() as i32;
    let flipped = last_flip_count(mover, square);
    // Mover ends with discs + 1 + flipped of 64.
    let mut score = 2 * (discs + 1 + flipped) - 64;
    if flipped == 0 {
        // The mover cannot play: the opponent fills the square, or nobody can.
        if score <= 0 {
            // Mover has at most 31 discs and will not gain any.
            score -= 2;
            if score > alpha {
                score -= 2 * last_flip_count(!mover & !(1u64 << square), square);
            }
        } else if score > alpha {
            let theirs = last_flip_count(!mover & !(1u64 << square), square);
            if theirs != 0 {
                score -= 2 * theirs + 2;
            }
        }
    }
    score
}

/// Two empty squares.
#[inline]
fn solve2(mover: u64, opponent: u64, alpha: i32, x1: usize, x2: usize, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let beta = alpha + 1;
    let mut best;
    if let Some(f) = try_move(mover, opponent, x1) {
        *nodes += 1;
        best = -solve1(opponent & !f, -beta, x2);
        if best <= alpha {
            if let Some(f) = try_move(mover, opponent, x2) {
                *nodes += 1;
                best = best.max(-solve1(opponent & !f, -beta, x1));
            }
        }
        return best;
    }
    if let Some(f) = try_move(mover, opponent, x2) {
        *nodes += 1;
        return -solve1(opponent & !f, -beta, x1);
    }
    // The mover passes.
    if let Some(f) = try_move(opponent, mover, x1) {
        *nodes += 1;
        best = solve1(mover & !f, alpha, x2);
        if best > alpha {
            if let Some(f) = try_move(opponent, mover, x2) {
                *nodes += 1;
                best = best.min(solve1(mover & !f, alpha, x1));
            }
        }
        return best;
    }
    if let Some(f) = try_move(opponent, mover, x2) {
        *nodes += 1;
        return solve1(mover & !f, alpha, x1);
    }
    final_score(mover, opponent)
}

/// The discs flipped by `mover` on `square`, if the move is legal.
#[inline(always)]
fn try_move(mover: u64, opponent: u64, square: usize) -> Option<u64> {
    if NEIGHBOURS[square] & opponent == 0 {
        return None;
    }
    let f = flips(mover, opponent, square);
    (f != 0).then_some(f)
}

/// Three empty squares, the one alone in its quadrant first (parity).
#[inline]
fn solve3(
    mover: u64,
    opponent: u64,
    alpha: i32,
    squares: [usize; 3],
    parity: u32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let [mut x1, mut x2, mut x3] = squares;
    if parity & QUADRANT_ID[x1] == 0 {
        if parity & QUADRANT_ID[x2] != 0 {
            (x1, x2) = (x2, x1);
        } else {
            (x1, x3) = (x3, x1);
        }
    }
    let order = [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)];
    let mut best = -INFINITY;
    for &(x, a, b) in &order {
        if let Some(f) = try_move(mover, opponent, x) {
            let score = -solve2(opponent & !f, mover | f | (1 << x), -alpha - 1, a, b, nodes);
            if score > alpha {
                return score;
            }
            best = best.max(score);
        }
    }
    if best > -INFINITY {
        return best;
    }
    // The mover passes.
    best = INFINITY;
    for &(x, a, b) in &order {
        if let Some(f) = try_move(opponent, mover, x) {
            let score = solve2(mover & !f, opponent | f | (1 << x), alpha, a, b, nodes);
            if score <= alpha {
                return score;
            }
            best = best.min(score);
        }
    }
    if best < INFINITY {
        best
    } else {
        final_score(mover, opponent)
    }
}

/// Four empty squares, those in odd quadrants first.
pub fn solve4(mover: u64, opponent: u64, alpha: i32, empty: u64, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if let Some(ceiling) = stability_cutoff(mover, opponent, alpha, 4) {
        return ceiling;
    }
    let parity = parity_of(empty);
    let odd = QUADRANT_SQUARES[parity as usize];
    let mut squares = [0usize; 4];
    let mut n = 0;
    for group in [empty & odd, empty & !odd] {
        let mut rest = group;
        while rest != 0 {
            squares[n] = rest.trailing_zeros() as usize;
            n += 1;
            rest &= rest - 1;
        }
    }
    let [x1, x2, x3, x4] = squares;
    let order = [
        (x1, [x2, x3, x4]),
        (x2, [x1, x3, x4]),
        (x3, [x1, x2, x4]),
        (x4, [x1, x2, x3]),
    ];
    let mut best = -INFINITY;
    for &(x, rest) in &order {
        if let Some(f) = try_move(mover, opponent, x) {
            let score = -solve3(
                opponent & !f,
                mover | f | (1 << x),
                -alpha - 1,
                rest,
                parity ^ QUADRANT_ID[x],
                nodes,
            );
            if score > alpha {
                return score;
            }
            best = best.max(score);
        }
    }
    if best > -INFINITY {
        return best;
    }
    // The mover passes.
    best = INFINITY;
    for &(x, rest) in &order {
        if let Some(f) = try_move(opponent, mover, x) {
            let score = solve3(
                mover & !f,
                opponent | f | (1 << x),
                alpha,
                rest,
                parity ^ QUADRANT_ID[x],
                nodes,
            );
            if score <= alpha {
                return score;
            }
            best = best.min(score);
        }
    }
    if best < INFINITY {
        best
    } else {
        final_score(mover, opponent)
    }
}

/// A few empties above four: alpha-beta over the legal moves, odd quadrants first and
/// corners first inside them, no table.
pub fn shallow(
    mover: u64,
    opponent: u64,
    alpha: i32,
    empty: u64,
    parity: u32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let empties = empty.count_ones();
    if let Some(ceiling) = stability_cutoff(mover, opponent, alpha, empties) {
        return ceiling;
    }
    let legal = legal_moves(mover, opponent);
    if legal == 0 {
        if legal_moves(opponent, mover) == 0 {
            return final_score(mover, opponent);
        }
        return -shallow(opponent, mover, -alpha - 1, empty, parity, nodes);
    }
    let odd = QUADRANT_SQUARES[parity as usize];
    let mut best = -INFINITY;
    for group in [
        legal & odd & CORNERS,
        legal & odd & !CORNERS,
        legal & !odd & CORNERS,
        legal & !odd & !CORNERS,
    ] {
        let mut rest = group;
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let f = flips(mover, opponent, x);
            let next_mover = opponent & !f;
            let next_opponent = mover | f | (1 << x);
            let left = empty & !(1 << x);
            let score = if empties == 5 {
                -solve4(next_mover, next_opponent, -alpha - 1, left, nodes)
            } else {
                -shallow(
                    next_mover,
                    next_opponent,
                    -alpha - 1,
                    left,
                    parity ^ QUADRANT_ID[x],
                    nodes,
                )
            };
            if score > alpha {
                return score;
            }
            best = best.max(score);
        }
    }
    best
}

/// The null-window value of any position with at most [`super::DEEP_EMPTIES`] empties.
#[inline]
pub fn solve_small(mover: u64, opponent: u64, alpha: i32, nodes: &mut u64) -> i32 {
    let empty = !(mover | opponent);
    match empty.count_ones() {
        0 => {
            *nodes += 1;
            final_score(mover, opponent)
        }
        1 => {
            *nodes += 1;
            solve1(mover, alpha, empty.trailing_zeros() as usize)
        }
        2 => {
            let x1 = empty.trailing_zeros() as usize;
            let x2 = 63 - empty.leading_zeros() as usize;
            solve2(mover, opponent, alpha, x1, x2, nodes)
        }
        3 => {
            let x1 = empty.trailing_zeros() as usize;
            let x3 = 63 - empty.leading_zeros() as usize;
            let x2 = (empty & !(1 << x1) & !(1 << x3)).trailing_zeros() as usize;
            solve3(
                mover,
                opponent,
                alpha,
                [x1, x2, x3],
                parity_of(empty),
                nodes,
            )
        }
        4 => solve4(mover, opponent, alpha, empty, nodes),
        _ => shallow(mover, opponent, alpha, empty, parity_of(empty), nodes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::test_support::{brute_force, random_position, Rng};

    /// Every bottom solver against brute force, for windows on both sides of the value.
    #[test]
    fn null_window_answers_match_brute_force() {
        let mut rng = Rng(0x1a57);
        let mut nodes = 0;
        for game in 0..1500 {
            let (mover, opponent) = random_position(&mut rng, 1 + game % 7);
            let v = brute_force(mover, opponent);
            for alpha in [v - 3, v - 2, v - 1, v, v + 1, -65, 64] {
                let r = solve_small(mover, opponent, alpha, &mut nodes);
                if v <= alpha {
                    assert!(r <= alpha && r >= v, "v {v} alpha {alpha}: {r}");
                } else {
                    assert!(r > alpha && r <= v, "v {v} alpha {alpha}: {r}");
                }
            }
        }
    }

    #[test]
    fn quadrants_and_parity() {
        assert_eq!(QUADRANT_ID[0], 1);
        assert_eq!(QUADRANT_ID[7], 2);
        assert_eq!(QUADRANT_ID[56], 4);
        assert_eq!(QUADRANT_ID[63], 8);
        assert_eq!(parity_of(0b11), 0);
        assert_eq!(parity_of(0b111 | (1 << 63)), 9);
        assert_eq!(QUADRANT_SQUARES[15], u64::MAX);
    }
}
