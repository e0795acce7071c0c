//! The engine's view of an Othello position: a (mover, opponent) pair of bitboards with the
//! engine's own fast rules ([`super::bitboard`]), square masks, the position key and the final
//! score — what the evaluation, the solver and the search glue ([`super::game`]) stand on.
//!
//! Squares are game-core's: bit `8 * row + col`, a1 = bit 0, row 1 at the top. A forced pass
//! is a move ([`PASS`]) so that the search tree alternates sides like the game does.

use super::bitboard::{flips, legal_moves};

/// The move code of a forced pass (squares are 0..64).
pub const PASS: u8 = 64;

pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// Squares on the rim of the board.
pub const EDGES: u64 = 0xff81_8181_8181_81ff;
/// Columns a and h: no horizontal neighbour on one side.
pub const WALL_COLS: u64 = 0x8181_8181_8181_8181;
/// Rows 1 and 8.
pub const WALL_ROWS: u64 = 0xff00_0000_0000_00ff;
pub const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
pub const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The four 4x4 quadrants, for parity ordering: a region with an odd number of empties is
/// one where the side that moves into it first can hope to move last.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The squares in the order the move generators try them when nothing better is known:
/// corners, then the A/B-squares of the edges, the centre, the C-squares, and the X-squares
/// (diagonally next to a corner) last — roughly the classic square values.
pub const SQUARE_ORDER: [u8; 64] = square_order();

const fn square_rank(sq: usize) -> u8 {
    // Distance from the nearest edge along each axis, folded into one class per square.
    let row = sq / 8;
    let col = sq % 8;
    let r = if row < 4 { row } else { 7 - row };
    let c = if col < 4 { col } else { 7 - col };
    let (a, b) = if r < c { (r, c) } else { (c, r) };
    match (a, b) {
        (0, 0) => 0,     // corner
        (0, 2..) => 1,   // A and B edge squares
        (2.., 2..) => 2, // centre
        (1, 2..) => 3,   // the ring inside the edges
        (0, 1) => 4,     // C-squares
        _ => 5,          // X-squares
    }
}

const fn square_order() -> [u8; 64] {
    let mut order = [0u8; 64];
    let mut n = 0;
    let mut rank = 0;
    while rank < 6 {
        let mut sq = 0;
        while sq < 64 {
            if square_rank(sq) == rank {
                order[n] = sq as u8;
                n += 1;
            }
            sq += 1;
        }
        rank += 1;
    }
    order
}

/// Random keys for tabulation hashing: one table of 256 keys per byte (8 squares) of each
/// side's bitboard. This is Zobrist hashing done eight squares at a time — 16 lookups per
/// key, and nothing to keep in step when a move flips discs, since the key is recomputed
/// from the bitboards.
static ZOBRIST: [[u64; 256]; 16] = zobrist_keys();

const fn zobrist_keys() -> [[u64; 256]; 16] {
    let mut keys = [[0u64; 256]; 16];
    let mut state: u64 = 0x0123_4567_89ab_cdef;
    let mut t = 0;
    while t < 16 {
        let mut i = 0;
        while i < 256 {
            // SplitMix64.
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[t][i] = z ^ (z >> 31);
            i += 1;
        }
        t += 1;
    }
    keys
}

/// The key of the position with `mover` to move. Colours do not matter: the value of a
/// position for the side to move depends only on which discs are its own.
#[inline]
#[must_use]
pub fn position_key(mover: u64, opponent: u64) -> u64 {
    let mut key = 0;
    let mut i = 0;
    while i < 8 {
        key ^= ZOBRIST[i][((mover >> (8 * i)) & 0xff) as usize];
        key ^= ZOBRIST[8 + i][((opponent >> (8 * i)) & 0xff) as usize];
        i += 1;
    }
    key
}

/// The final disc difference for `mover` when the game is over: the empty squares go to the
/// winner (the FFO convention), so the result is always even.
#[inline]
#[must_use]
pub fn final_score(mover: u64, opponent: u64) -> i32 {
    let p = mover.count_ones() as i32;
    let o = opponent.count_ones() as i32;
    let diff = p - o;
    let empties = 64 - p - o;
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => diff + empties,
        std::cmp::Ordering::Less => diff - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// True when neither side can move.
#[inline]
#[must_use]
pub fn game_over(mover: u64, opponent: u64) -> bool {
    legal_moves(mover, opponent) == 0 && legal_moves(opponent, mover) == 0
}

/// The (mover, opponent) pair after `mover` places a disc on `square` (which must be legal),
/// with the sides swapped so that the first is the new side to move.
#[inline]
#[must_use]
pub fn after_move(mover: u64, opponent: u64, square: u8) -> (u64, u64) {
    if square == PASS {
        return (opponent, mover);
    }
    let flipped = flips(mover, opponent, usize::from(square));
    (opponent & !flipped, mover | flipped | (1u64 << square))
}

/// A move in protocol notation: `f5`, or `pass`.
#[must_use]
pub fn square_name(square: u8) -> String {
    if square >= PASS {
        return "pass".to_string();
    }
    let col = (b'a' + square % 8) as char;
    format!("{col}{}", square / 8 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_order_lists_every_square_once() {
        let mut seen = 0u64;
        for &sq in &SQUARE_ORDER {
            seen |= 1 << sq;
        }
        assert_eq!(seen, u64::MAX);
        assert_eq!(SQUARE_ORDER[..4], [0, 7, 56, 63]);
        assert!([9, 14, 49, 54]
            .iter()
            .all(|sq| SQUARE_ORDER[60..].contains(sq)));
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        assert_eq!(final_score(0b111, 0b1000), 2 + 60);
        assert_eq!(final_score(0b1, 0b110), -1 - 61);
        assert_eq!(final_score(0b11, 0b1100), 0);
        assert_eq!(final_score(u64::MAX, 0), 64);
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(63), "h8");
        assert_eq!(square_name(37), "f5");
        assert_eq!(square_name(PASS), "pass");
        assert_ne!(position_key(1, 2), position_key(2, 1));
    }
}
