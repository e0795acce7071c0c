//! The exact endgame solver: the final disc difference for the side to move with perfect
//! play from both sides, empties to the winner (the FFO convention, so always even).
//!
//! # Contract
//! `solve_window(mover, opponent, alpha, beta)` with `-65 <= alpha < beta <= 65` returns,
//! for the true value `v`: exactly `v` if `alpha < v < beta`; a value `<= alpha` that is
//! `>= v` if `v <= alpha`; a value `>= beta` that is `<= v` if `v >= beta` (fail-soft).
//! `None` means the search was stopped (stop flag or deadline) and nothing is known.
//!
//! # Structure
//! Its own tight loops on the engine's bitboards ([`super::bitboard`]), not the shared
//! search: an endgame node is cheap to value exactly and its children are many, so the
//! tricks differ by depth.
//! - The root ([`Solver::solve`]): MTD(f) — a guess of the value from a search of the
//!   evaluation, then null-window questions around it until the bounds meet.
//! - Nodes searched with an open window ([`Solver::solve_window`] with a wide window):
//!   [`Solver::pvs`], the first move with the window, the others with a null window first.
//! - Everything else is a null-window question, "is the value above `alpha`?":
//!   - more than [`DEEP_EMPTIES`] empties ([`Solver::nws_deep`]): the table of bounds
//!     ([`table`]), a stability cutoff (the opponent's stable discs cap our result),
//!     enhanced transposition cutoffs, and move ordering ([`ordering`]): by shallow
//!     searches of the evaluation from [`EVAL_ORDER_EMPTIES`] empties up, fastest-first
//!     below;
//!   - up to [`DEEP_EMPTIES`] empties ([`last_empties`]): parity-ordered search without a
//!     table, then dedicated code for the last four empties.

mod last_empties;
pub mod ordering;
pub mod table;

use std::time::Instant;

use super::bitboard::{can_move, legal_moves};
use super::board::{final_score, game_over, PASS};
use super::eval::Evaluator;
use super::params::{DEEP_EMPTIES, ESTIMATE_DEPTH, EVAL_ORDER_EMPTIES};
use crate::engine::watchdog::Watchdog;
use crate::engine::StopFlag;
use last_empties::{parity_of, solve_small, stability_cutoff, INFINITY};
use ordering::{value_fast, value_with_eval, MoveList};
use table::{EndgameTable, NO_MOVE};

/// The depth of the ordering searches of a node with `empties` empty squares: deeper where
/// the subtree is bigger.
fn sort_depth(empties: u32) -> u32 {
    (empties.saturating_sub(15) / 3).min(4)
}

/// An exact solver with its own table; keep one per game to reuse what it learnt.
pub struct Solver {
    table: EndgameTable,
    /// Nodes visited since the solver was made (callers take differences).
    pub nodes: u64,
    watchdog: Watchdog,
    /// [`DEEP_EMPTIES`], lowered by the tests to exercise the deep code on small positions.
    deep_empties: u32,
    /// [`EVAL_ORDER_EMPTIES`], lowered by the tests likewise.
    eval_order_empties: u32,
    eval: &'static Evaluator,
}

/// The exact result of a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move.
    pub score: i32,
    /// The best move ([`PASS`] when the side to move must pass).
    pub best: u8,
    /// A best line, starting with `best`.
    pub pv: Vec<u8>,
}

/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 1 << 14;

impl Solver {
    /// A solver with a table of `2^tt_bits` entries.
    #[must_use]
    pub fn new(tt_bits: u32) -> Solver {
        Solver {
            table: EndgameTable::new(tt_bits),
            nodes: 0,
            watchdog: Watchdog::new(CHECK_EVERY),
            deep_empties: DEEP_EMPTIES,
            eval_order_empties: EVAL_ORDER_EMPTIES,
            eval: Evaluator::embedded(),
        }
    }

    /// Forgets the table (a deterministic search starts from nothing).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Where to stop: the stop flag and an optional deadline.
    pub fn set_limits(&mut self, stop: &StopFlag, deadline: Option<Instant>) {
        self.watchdog.arm(deadline, None, stop);
    }

    /// The value within `(alpha, beta)` as the module contract says, or `None` if stopped.
    pub fn solve_window(
        &mut self,
        mover: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.watchdog.restart();
        if self.watchdog.over(self.nodes) {
            return None;
        }
        let empties = 64 - (mover | opponent).count_ones();
        let value = self.pvs(mover, opponent, alpha, beta, empties);
        (!self.watchdog.stopped()).then_some(value)
    }

    /// The exact value of the position, its best move and a best line; `None` if stopped or
    /// if the game is over.
    pub fn solve(&mut self, mover: u64, opponent: u64) -> Option<Solution> {
        if game_over(mover, opponent) {
            return None;
        }
        // MTD(f): null-window questions from a guess, each answer narrowing the range; the
        // table keeps what every pass learnt, and a good guess needs only a few passes.
        let mut guess = self.estimate(mover, opponent);
        let (mut lower, mut upper) = (-64, 64);
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            let r = self.solve_window(mover, opponent, beta - 1, beta)?;
            if r >= beta {
                lower = r;
            } else {
                upper = r;
            }
            guess = r;
        }
        let score = guess;
        let pv = self.principal_variation(mover, opponent, score);
        if self.watchdog.stopped() {
            return None;
        }
        Some(Solution {
            score,
            best: pv.first().copied().unwrap_or(PASS),
            pv,
        })
    }

    /// A guess of the exact value from a shallow search of the evaluation, made even (as
    /// exact values are).
    fn estimate(&mut self, mover: u64, opponent: u64) -> i32 {
        let empties = 64 - (mover | opponent).count_ones();
        let value = super::midgame::search(
            self.eval,
            mover,
            opponent,
            ESTIMATE_DEPTH.min(empties.saturating_sub(4)),
            -super::midgame::INFINITE,
            super::midgame::INFINITE,
            &mut self.nodes,
        );
        let discs = (value as f32 / super::weights::UNIT as f32 / 2.0).round() as i32 * 2;
        discs.clamp(-64, 64)
    }

    /// A line of best moves from a position of known value `score`: at each step, the first
    /// move whose exact value (cheap now, with the table full of it) equals the position's.
    fn principal_variation(&mut self, mut mover: u64, mut opponent: u64, score: i32) -> Vec<u8> {
        let mut pv = Vec::new();
        let mut value = score;
        while !game_over(mover, opponent) && !self.watchdog.stopped() {
            let legal = legal_moves(mover, opponent);
            if legal == 0 {
                pv.push(PASS);
                (mover, opponent, value) = (opponent, mover, -value);
                continue;
            }
            let empties = 64 - (mover | opponent).count_ones();
            let table_move = self
                .table
                .probe(mover, opponent)
                .map_or(NO_MOVE, |b| b.best);
            let mut list = MoveList::new(mover, opponent, legal);
            value_fast(
                &mut list,
                mover,
                opponent,
                table_move,
                parity_of(!(mover | opponent)),
            );
            let mut chosen = None;
            while let Some(m) = list.next_best() {
                let (next_mover, next_opponent) = m.play(mover, opponent);
                // Is the child's value exactly -value? Two null windows around it.
                let child = -value;
                let above = self.nws(next_mover, next_opponent, child - 1, empties - 1);
                if above > child - 1
                    && self.nws(next_mover, next_opponent, child, empties - 1) <= child
                {
                    chosen = Some((m.square, next_mover, next_opponent));
                    break;
                }
            }
            let Some((square, next_mover, next_opponent)) = chosen else {
                break;
            };
            pv.push(square);
            (mover, opponent, value) = (next_mover, next_opponent, -value);
        }
        pv
    }

    /// The value with an open window `(alpha, beta)`, fail-soft.
    fn pvs(
        &mut self,
        mover: u64,
        opponent: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
    ) -> i32 {
        if beta <= alpha + 1 {
            return self.nws(mover, opponent, alpha, empties);
        }
        self.nodes += 1;
        if self.watchdog.over(self.nodes) {
            return alpha;
        }
        let legal = legal_moves(mover, opponent);
        if legal == 0 {
            if !can_move(opponent, mover) {
                return final_score(mover, opponent);
            }
            return -self.pvs(opponent, mover, -beta, -alpha, empties);
        }
        let window = (alpha, beta);
        let mut table_move = NO_MOVE;
        if let Some(b) = self.table.probe(mover, opponent) {
            table_move = b.best;
            let (lower, upper) = (i32::from(b.lower), i32::from(b.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mut list = MoveList::new(mover, opponent, legal);
        // Principal-variation nodes are few: they can afford a deeper ordering search.
        self.order(&mut list, mover, opponent, table_move, empties, alpha, 1);
        let mut best = -INFINITY;
        let mut best_square = NO_MOVE;
        let mut first = true;
        while let Some(m) = list.next_best() {
            let (next_mover, next_opponent) = m.play(mover, opponent);
            let score = if first {
                -self.pvs(next_mover, next_opponent, -beta, -alpha, empties - 1)
            } else {
                let scout = -self.nws(next_mover, next_opponent, -alpha - 1, empties - 1);
                if scout > alpha && scout < beta {
                    -self.pvs(next_mover, next_opponent, -beta, -scout, empties - 1)
                } else {
                    scout
                }
            };
            first = false;
            if self.watchdog.stopped() {
                return alpha;
            }
            if score > best {
                best = score;
                best_square = m.square;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        self.table
            .store(mover, opponent, empties, window, best, best_square);
        best
    }

    /// Values the moves for ordering: with the evaluation near the root of the endgame,
    /// `extra_depth` plies deeper at principal-variation nodes; fastest-first below.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &mut self,
        list: &mut MoveList,
        mover: u64,
        opponent: u64,
        table_move: u8,
        empties: u32,
        alpha: i32,
        extra_depth: u32,
    ) {
        let parity = parity_of(!(mover | opponent));
        if empties >= self.eval_order_empties {
            let depth = (sort_depth(empties) + extra_depth).min(empties.saturating_sub(2));
            value_with_eval(
                list,
                mover,
                opponent,
                table_move,
                parity,
                self.eval,
                depth,
                alpha,
                &mut self.nodes,
            );
        } else {
            value_fast(list, mover, opponent, table_move, parity);
        }
    }

    /// The null-window value: is the value above `alpha`? Fail-soft.
    #[inline]
    fn nws(&mut self, mover: u64, opponent: u64, alpha: i32, empties: u32) -> i32 {
        if empties > self.deep_empties {
            self.nws_deep(mover, opponent, alpha, empties)
        } else {
            solve_small(mover, opponent, alpha, &mut self.nodes)
        }
    }

    /// A null-window node with many empties: stability cutoff, table, ordered moves.
    fn nws_deep(&mut self, mover: u64, opponent: u64, alpha: i32, empties: u32) -> i32 {
        self.nodes += 1;
        if self.watchdog.over(self.nodes) {
            return alpha;
        }
        if let Some(ceiling) = stability_cutoff(mover, opponent, alpha, empties) {
            return ceiling;
        }
        let mut table_move = NO_MOVE;
        if let Some(b) = self.table.probe(mover, opponent) {
            if i32::from(b.lower) > alpha {
                return i32::from(b.lower);
            }
            if i32::from(b.upper) <= alpha {
                return i32::from(b.upper);
            }
            table_move = b.best;
        }
        let legal = legal_moves(mover, opponent);
        if legal == 0 {
            if !can_move(opponent, mover) {
                return final_score(mover, opponent);
            }
            return -self.nws_deep(opponent, mover, -alpha - 1, empties);
        }
        let mut list = MoveList::new(mover, opponent, legal);
        if empties >= self.eval_order_empties {
            // Enhanced transposition cutoff: a child already known to be bad enough for
            // the opponent settles the node before any ordering search is paid for.
            for m in list.iter() {
                let (next_mover, next_opponent) = m.play(mover, opponent);
                if let Some(b) = self.table.probe(next_mover, next_opponent) {
                    let score = -i32::from(b.upper);
                    if score > alpha {
                        return score;
                    }
                }
            }
        }
        if list.len() > 1 {
            self.order(&mut list, mover, opponent, table_move, empties, alpha, 0);
        }
        let mut best = -INFINITY;
        let mut best_square = NO_MOVE;
        while let Some(m) = list.next_best() {
            let (next_mover, next_opponent) = m.play(mover, opponent);
            let score = -self.nws(next_mover, next_opponent, -alpha - 1, empties - 1);
            if score > best {
                best = score;
                best_square = m.square;
                if score > alpha {
                    break;
                }
            }
        }
        if !self.watchdog.stopped() {
            self.table.store(
                mover,
                opponent,
                empties,
                (alpha, alpha + 1),
                best,
                best_square,
            );
        }
        best
    }
}

#[cfg(test)]
mod tests;
