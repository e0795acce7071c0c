//! The engine's view of an Othello position: a (mover, opponent) pair of bitboards with the
//! rules borrowed from `game_core::othello`, square masks, the position key, the final score,
//! and the `SearchGame` glue that lets the shared midgame search run on it.
//!
//! Squares are game-core's: bit `8 * row + col`, a1 = bit 0, row 1 at the top. A forced pass
//! is a move ([`PASS`]) so that the search tree alternates sides like the game does.

use game_core::othello::{flips, legal_mask};

use super::eval;
use super::solver::Solver;
use crate::search::SearchGame;

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
    legal_mask(mover, opponent) == 0 && legal_mask(opponent, mover) == 0
}

/// The (mover, opponent) pair after `mover` places a disc on `square` (which must be legal),
/// with the sides swapped so that the first is the new side to move.
#[inline]
#[must_use]
pub fn after_move(mover: u64, opponent: u64, square: u8) -> (u64, u64) {
    if square == PASS {
        return (opponent, mover);
    }
    let flipped = flips(mover, opponent, u32::from(square));
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

/// Exact final results live in a band just below the proven-win scores of the shared
/// search: above any evaluation, below [`WIN_BOUND`](crate::search::WIN_BOUND). A game's end
/// comes at a different ply on different lines, and only the disc difference matters, so
/// these scores do not depend on the ply (and the TT leaves them alone, unlike mate scores).
pub const EXACT_BASE: i32 = crate::search::WIN_BOUND - 100;

/// An exact final disc difference in the shared search's units: a win of `d` discs is
/// `EXACT_BASE + d`, a loss the negative, a draw 0.
#[must_use]
pub fn exact_to_search(diff: i32) -> i32 {
    match diff.cmp(&0) {
        std::cmp::Ordering::Greater => EXACT_BASE + diff,
        std::cmp::Ordering::Less => -EXACT_BASE + diff,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The disc difference of a score in the exact band (`|score| > EXACT_BASE`), else `None`.
#[must_use]
pub fn search_to_exact(score: i32) -> Option<i32> {
    if score > EXACT_BASE {
        Some((score - EXACT_BASE).min(64))
    } else if score < -EXACT_BASE {
        Some((score + EXACT_BASE).max(-64))
    } else {
        None
    }
}

/// The disc-difference window `(a, b)` to solve so that a result `v` respects the search
/// contract for the search window `(alpha, beta)` once encoded: `a` is the largest
/// difference whose encoding is at most `alpha` (-65 if none), `b` the smallest whose
/// encoding is at least `beta` (65 if none).
#[must_use]
pub fn search_window_to_exact(alpha: i32, beta: i32) -> (i32, i32) {
    let a = (-64..=64)
        .rev()
        .find(|&d| exact_to_search(d) <= alpha)
        .unwrap_or(-65);
    let b = (-64..=64)
        .find(|&d| exact_to_search(d) >= beta)
        .unwrap_or(65);
    (a, b)
}

/// How many plies beyond the remaining depth a node may have left and still be solved
/// exactly by [`SearchGame::probe`].
pub const PROBE_SLACK: i32 = 4;

/// The position as the shared search sees it, with what it needs to solve endgames exactly
/// on the way ([`SearchGame::probe`]).
pub struct Game {
    pub mover: u64,
    pub opponent: u64,
    stack: Vec<(u64, u64)>,
    /// Squares allowed at the root (a level's explicit loss-blocking filter); all otherwise.
    pub root_filter: u64,
    /// Nodes with at most this many empties are solved exactly instead of evaluated.
    pub probe_empties: u32,
    pub solver: Solver,
}

impl Game {
    #[must_use]
    pub fn new(mover: u64, opponent: u64, solver: Solver) -> Game {
        Game {
            mover,
            opponent,
            stack: Vec::with_capacity(64),
            root_filter: u64::MAX,
            probe_empties: 0,
            solver,
        }
    }

    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.mover | self.opponent).count_ones()
    }
}

impl SearchGame for Game {
    type Move = u8;

    fn hash(&self) -> u64 {
        position_key(self.mover, self.opponent)
    }

    fn generate(&self, moves: &mut Vec<u8>) {
        let mut legal = legal_mask(self.mover, self.opponent);
        if self.stack.is_empty() && legal & self.root_filter != 0 {
            legal &= self.root_filter;
        }
        if legal == 0 {
            if legal_mask(self.opponent, self.mover) != 0 {
                moves.push(PASS);
            }
            return;
        }
        moves.extend(
            SQUARE_ORDER
                .iter()
                .copied()
                .filter(|&sq| legal & (1u64 << sq) != 0),
        );
    }

    fn play(&mut self, m: u8) {
        self.stack.push((self.mover, self.opponent));
        (self.mover, self.opponent) = after_move(self.mover, self.opponent, m);
    }

    fn undo(&mut self, _m: u8) {
        if let Some((mover, opponent)) = self.stack.pop() {
            self.mover = mover;
            self.opponent = opponent;
        }
    }

    fn terminal(&self, _ply: u32) -> Option<i32> {
        game_over(self.mover, self.opponent)
            .then(|| exact_to_search(final_score(self.mover, self.opponent)))
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self.mover, self.opponent)
    }

    fn move_code(&self, m: u8) -> u32 {
        u32::from(m)
    }

    fn notation(&self, m: u8) -> String {
        square_name(m)
    }

    fn probe(
        &mut self,
        depth: i32,
        _ply: u32,
        alpha: i32,
        beta: i32,
        nodes: &mut u64,
    ) -> Option<i32> {
        // Only where the midgame search would go nearly to the end anyway: an exact solve
        // in place of a shallow leaf search costs far more than it brings.
        let empties = self.empties();
        if empties > self.probe_empties || empties as i32 > depth + PROBE_SLACK {
            return None;
        }
        let (a, b) = search_window_to_exact(alpha, beta);
        let before = self.solver.nodes;
        let value = self.solver.solve_window(self.mover, self.opponent, a, b);
        *nodes += self.solver.nodes - before;
        value.map(exact_to_search)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::WIN_BOUND;

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
    fn exact_encoding_is_monotone_and_invertible() {
        let mut last = i32::MIN;
        for d in -64..=64 {
            let s = exact_to_search(d);
            assert!(s > last, "{d}");
            last = s;
            assert!(s.abs() < WIN_BOUND);
            if d != 0 {
                assert_eq!(search_to_exact(s), Some(d));
            }
        }
        assert_eq!(search_to_exact(2_500), None);
        assert_eq!(search_window_to_exact(-3, 250), (-1, 1));
        assert_eq!(
            search_window_to_exact(exact_to_search(10), WIN_BOUND),
            (10, 65)
        );
        assert_eq!(search_window_to_exact(-WIN_BOUND, -EXACT_BASE), (-65, 0));
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
