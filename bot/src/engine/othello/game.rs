//! The Othello position as the shared midgame search sees it ([`SearchGame`]), with exact
//! endgame solving on the way ([`SearchGame::probe`]), and the band of search values that
//! holds exact final disc differences.

use game_core::othello::legal_mask;

use super::board::{
    after_move, final_score, game_over, position_key, square_name, PASS, SQUARE_ORDER,
};
use super::eval;
use super::params::PROBE_SLACK;
use super::solver::Solver;
use crate::engine::search::SearchGame;
use crate::engine::value::WIN_BOUND;

/// Exact final results live in a band just below the proven-win scores of the shared
/// search: above any evaluation, below [`WIN_BOUND`]. A game's end
/// comes at a different ply on different lines, and only the disc difference matters, so
/// these scores do not depend on the ply (and the TT leaves them alone, unlike mate scores).
pub const EXACT_BASE: i32 = WIN_BOUND - 100;

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
}
