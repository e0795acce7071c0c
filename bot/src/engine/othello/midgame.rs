//! A small fixed-depth alpha-beta over an evaluation ([`Evaluate`]), without a table: the
//! shallow searches that order the exact solver's moves near the root of an endgame, and
//! that choose the moves of self-play games. (The engine's own midgame search, with
//! iterative deepening and a table, is the shared search driven through [`super::game`].)
//!
//! Values are for the side to move in 1/[`UNIT`] discs; a finished game is worth its exact
//! final disc difference times [`UNIT`]. Fail-soft, like every search of the engine.

use super::bitboard::{corner_weighted_count, flips, legal_moves};
use super::board::final_score;
use super::eval::Evaluate;
use super::weights::UNIT;

/// Beyond any value.
pub const INFINITE: i32 = 65 * UNIT;

/// The value of the position `depth` plies deep (passes do not count as plies).
pub fn search<E: Evaluate + ?Sized>(
    eval: &E,
    mover: u64,
    opponent: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let legal = legal_moves(mover, opponent);
    if legal == 0 {
        if legal_moves(opponent, mover) == 0 {
            return final_score(mover, opponent) * UNIT;
        }
        return -search(eval, opponent, mover, depth, -beta, -alpha, nodes);
    }
    if depth == 0 {
        return eval.evaluate(mover, opponent);
    }
    let mut moves = [(0u8, 0u64, 0i32); 36];
    let n = ordered_moves(mover, opponent, legal, depth, &mut moves);
    let mut best = -INFINITE;
    for &(square, flipped, _) in &moves[..n] {
        let next_mover = opponent & !flipped;
        let next_opponent = mover | flipped | (1u64 << square);
        let score = -search(
            eval,
            next_mover,
            next_opponent,
            depth - 1,
            -beta,
            -alpha,
            nodes,
        );
        if score > best {
            best = score;
            if score >= beta {
                break;
            }
            alpha = alpha.max(score);
        }
    }
    best
}

/// Fills `moves` with (square, flipped, order value) and returns how many: above the last
/// ply, the moves that leave the opponent the fewest replies first.
fn ordered_moves(
    mover: u64,
    opponent: u64,
    legal: u64,
    depth: u32,
    moves: &mut [(u8, u64, i32); 36],
) -> usize {
    let mut n = 0;
    let mut rest = legal;
    while rest != 0 && n < moves.len() {
        let square = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let flipped = flips(mover, opponent, square);
        let value = if depth > 1 {
            let next_mover = opponent & !flipped;
            let next_opponent = mover | flipped | (1u64 << square);
            -corner_weighted_count(legal_moves(next_mover, next_opponent))
        } else {
            0
        };
        moves[n] = (square as u8, flipped, value);
        n += 1;
    }
    if depth > 1 {
        moves[..n].sort_unstable_by_key(|m| -m.2);
    }
    n
}

/// Every legal move of the position with its value `depth` plies deep (the move included),
/// best first; empty if the side to move must pass or the game is over.
pub fn rank_moves<E: Evaluate + ?Sized>(
    eval: &E,
    mover: u64,
    opponent: u64,
    depth: u32,
    nodes: &mut u64,
) -> Vec<(u8, i32)> {
    let mut ranked = Vec::new();
    let mut rest = legal_moves(mover, opponent);
    while rest != 0 {
        let square = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let flipped = flips(mover, opponent, square);
        let score = -search(
            eval,
            opponent & !flipped,
            mover | flipped | (1u64 << square),
            depth.saturating_sub(1),
            -INFINITE,
            INFINITE,
            nodes,
        );
        ranked.push((square as u8, score));
    }
    ranked.sort_by_key(|&(square, score)| (-score, square));
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::test_support::{brute_force, random_position, Rng};

    /// Counts discs: an evaluation simple enough to check searches against.
    struct DiscCount;

    impl Evaluate for DiscCount {
        fn evaluate(&self, mover: u64, opponent: u64) -> i32 {
            (mover.count_ones() as i32 - opponent.count_ones() as i32) * UNIT
        }
    }

    /// Plain minimax with the same conventions, no pruning.
    fn minimax(mover: u64, opponent: u64, depth: u32) -> i32 {
        let legal = legal_moves(mover, opponent);
        if legal == 0 {
            if legal_moves(opponent, mover) == 0 {
                return final_score(mover, opponent) * UNIT;
            }
            return -minimax(opponent, mover, depth);
        }
        if depth == 0 {
            return DiscCount.evaluate(mover, opponent);
        }
        let mut best = -INFINITE;
        let mut rest = legal;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let f = flips(mover, opponent, sq);
            best = best.max(-minimax(opponent & !f, mover | f | (1 << sq), depth - 1));
        }
        best
    }

    #[test]
    fn alpha_beta_equals_minimax_and_solves_the_end() {
        let mut rng = Rng(0xab);
        let mut nodes = 0;
        for n in 0..60 {
            let (mover, opponent) = random_position(&mut rng, 10 + n % 40);
            for depth in 0..4 {
                let full = search(
                    &DiscCount, mover, opponent, depth, -INFINITE, INFINITE, &mut nodes,
                );
                assert_eq!(full, minimax(mover, opponent, depth));
                let ranked = rank_moves(&DiscCount, mover, opponent, depth.max(1), &mut nodes);
                if let Some(&(_, top)) = ranked.first() {
                    assert_eq!(top, minimax(mover, opponent, depth.max(1)));
                }
            }
        }
        let (mover, opponent) = random_position(&mut rng, 7);
        let exact = search(
            &DiscCount, mover, opponent, 20, -INFINITE, INFINITE, &mut nodes,
        );
        assert_eq!(exact, brute_force(mover, opponent) * UNIT);
    }
}
