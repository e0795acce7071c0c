//! Move ordering for the upper part of the exact search, where a good first move saves the
//! most: the table's move first, wipe-outs before it, then "fastest first" — moves that
//! leave the opponent few replies (corners counted double) and few squares to aim at, that
//! keep our corners anchored, on a good square, in a quadrant with an odd number of empties.
//! The weights are the classic ones of endgame solvers: mobility dominates, the rest breaks
//! ties.

use super::super::bitboard::{
    corner_stability, corner_weighted_count, flips, legal_moves, potential_moves,
};
use super::super::eval::Evaluate;
use super::super::midgame;
use super::super::weights::UNIT;
use super::last_empties::QUADRANT_ID;

const W_WIPEOUT: i32 = 1 << 30;
const W_TABLE_MOVE: i32 = 1 << 29;
const W_MOBILITY: i32 = 1 << 15;
const W_CORNER_STABILITY: i32 = 1 << 11;
const W_POTENTIAL_MOBILITY: i32 = 1 << 5;
const W_PARITY: i32 = 1 << 3;

/// The evaluation's weight in the ordering value, per disc of a child's value: a disc of
/// evaluation counts as much as one reply less (tuned on FFO #40-44).
const W_EVAL: i32 = 1 << 15;

/// A static value per square: corners best, the squares next to them worst.
#[rustfmt::skip]
const SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// A move with its flipped discs and its ordering value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Move {
    pub square: u8,
    pub flipped: u64,
    pub value: i32,
}

impl Move {
    /// The position after this move, the sides swapped: (new mover, new opponent).
    #[inline]
    #[must_use]
    pub fn play(&self, mover: u64, opponent: u64) -> (u64, u64) {
        (
            opponent & !self.flipped,
            mover | self.flipped | (1u64 << self.square),
        )
    }
}

/// The moves of a node, on the stack (no position has more than 33 legal moves).
pub struct MoveList {
    moves: [Move; 36],
    len: usize,
    /// How many moves [`MoveList::next_best`] has handed out.
    taken: usize,
}

impl MoveList {
    /// The legal moves `legal` of `mover`, with their flips, not yet valued.
    #[must_use]
    pub fn new(mover: u64, opponent: u64, legal: u64) -> MoveList {
        let mut list = MoveList {
            moves: [Move::default(); 36],
            len: 0,
            taken: 0,
        };
        let mut rest = legal;
        while rest != 0 && list.len < list.moves.len() {
            let square = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            list.moves[list.len] = Move {
                square: square as u8,
                flipped: flips(mover, opponent, square),
                value: 0,
            };
            list.len += 1;
        }
        list
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves[..self.len].iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Move> {
        self.moves[..self.len].iter_mut()
    }

    /// The best-valued move not handed out yet (a selection sort done lazily: a cut after
    /// the first move or two leaves the rest unsorted).
    pub fn next_best(&mut self) -> Option<Move> {
        if self.taken == self.len {
            return None;
        }
        let mut best = self.taken;
        for i in self.taken + 1..self.len {
            if self.moves[i].value > self.moves[best].value {
                best = i;
            }
        }
        self.moves.swap(self.taken, best);
        self.taken += 1;
        Some(self.moves[self.taken - 1])
    }
}

/// Values the moves of `list` (`mover` to move, `parity` the odd quadrants) by the
/// fastest-first rules of the module comment; `table_move` goes first.
pub fn value_fast(list: &mut MoveList, mover: u64, opponent: u64, table_move: u8, parity: u32) {
    for m in list.iter_mut() {
        let bit = 1u64 << m.square;
        let next_mover = opponent & !m.flipped;
        let next_opponent = mover | m.flipped | bit;
        m.value = if next_mover == 0 {
            W_WIPEOUT
        } else if m.square == table_move {
            W_TABLE_MOVE
        } else {
            let mut value = SQUARE_VALUE[m.square as usize];
            if parity & QUADRANT_ID[m.square as usize] != 0 {
                value += W_PARITY;
            }
            value += (36 - corner_weighted_count(potential_moves(next_mover, next_opponent)))
                * W_POTENTIAL_MOBILITY;
            value += corner_stability(next_opponent) * W_CORNER_STABILITY;
            value +=
                (36 - corner_weighted_count(legal_moves(next_mover, next_opponent))) * W_MOBILITY;
            value
        };
    }
}

/// How far below the node's `alpha` the ordering searches still tell moves apart: a child
/// that is clearly worse than that is cut off early, its exact shallow value does not
/// matter.
const SORT_MARGIN: i32 = 8;

/// Values the moves of `list` by a search of each child `depth` plies deep with the
/// evaluation, on top of the fastest-first terms — where the subtree of a node is big enough
/// to pay for it (near the root of the endgame). `alpha` is the node's (a disc difference);
/// `nodes` counts the search's nodes.
#[allow(clippy::too_many_arguments)]
pub fn value_with_eval<E: Evaluate + ?Sized>(
    list: &mut MoveList,
    mover: u64,
    opponent: u64,
    table_move: u8,
    parity: u32,
    eval: &E,
    depth: u32,
    alpha: i32,
    nodes: &mut u64,
) {
    value_fast(list, mover, opponent, table_move, parity);
    // The child's window: its value matters only while it is not far above -alpha.
    let child_beta = (-(alpha - SORT_MARGIN) * UNIT).min(midgame::INFINITE);
    for m in list.iter_mut() {
        if m.value >= W_TABLE_MOVE {
            continue;
        }
        let (next_mover, next_opponent) = m.play(mover, opponent);
        let child = midgame::search(
            eval,
            next_mover,
            next_opponent,
            depth,
            -midgame::INFINITE,
            child_beta,
            nodes,
        );
        m.value += (midgame::INFINITE - child) * W_EVAL / UNIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::test_support::START;

    #[test]
    fn lists_hand_out_moves_best_first() {
        let (black, white) = START;
        let legal = legal_moves(black, white);
        let mut list = MoveList::new(black, white, legal);
        assert_eq!(list.len(), 4);
        value_fast(&mut list, black, white, 19, 0);
        // The table's move comes first; every move comes out once.
        let first = list.next_best().expect("a move");
        assert_eq!(first.square, 19);
        assert_eq!(first.flipped, 1 << 27);
        let mut seen = 1u64 << first.square;
        let mut last = first.value;
        while let Some(m) = list.next_best() {
            assert!(m.value <= last);
            last = m.value;
            seen |= 1 << m.square;
        }
        assert_eq!(seen, legal);
    }
}
