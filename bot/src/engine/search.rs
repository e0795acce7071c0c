//! The search every engine shares: iterative deepening over a negamax alpha-beta with
//! principal-variation search (PVS), a transposition table, and move ordering by TT move,
//! killer moves and history. Games plug in through [`SearchGame`].
//!
//! # Contract
//! `pvs(depth, alpha, beta)` returns the value of the position for the side to move:
//! - if the true value `v` is inside `(alpha, beta)`, exactly `v`;
//! - if `v <= alpha`, some value `<= alpha` (an upper bound; "fail low");
//! - if `v >= beta`, some value `>= beta` (a lower bound; "fail high").
//!
//! Wins are `WIN - plies` from the root (a quicker win scores higher), losses the negative;
//! anything beyond [`WIN_BOUND`] in absolute value is a proven result (the scale of
//! [`crate::engine::value`]). At a fixed depth the search is deterministic: the same position, depth
//! and seed give the same nodes and move.

use std::fmt::Debug;
use std::time::Instant;

use crate::engine::tt::{score_to_tt, Bound, Entry, TranspositionTable};
use crate::engine::value::{WIN, WIN_BOUND};
use crate::engine::watchdog::Watchdog;
use crate::engine::StopFlag;
/// Deepest ply the searcher keeps per-ply tables for.
pub const MAX_PLY: usize = 256;
/// History table size; `move_code` must stay below it.
pub const MOVE_CODES: usize = 1024;

/// What a game provides to the shared search.
pub trait SearchGame {
    type Move: Copy + Eq + Debug;

    /// Zobrist key of the position (side to move included).
    fn hash(&self) -> u64;
    /// Appends the moves to search, best-looking first (the order breaks ties in ordering).
    /// Empty only when the game is over.
    fn generate(&self, moves: &mut Vec<Self::Move>);
    fn play(&mut self, m: Self::Move);
    fn undo(&mut self, m: Self::Move);
    /// The value for the side to move if the game is over (`-WIN + ply` for a loss).
    fn terminal(&self, ply: u32) -> Option<i32>;
    /// Static evaluation for the side to move.
    fn evaluate(&self) -> i32;
    /// A small number (< [`MOVE_CODES`]) naming the move, for the TT and the history table.
    fn move_code(&self, m: Self::Move) -> u32;
    /// The move in protocol notation.
    fn notation(&self, m: Self::Move) -> String;

    /// A proven or exact value for this node, if the game has a cheaper way to get it (an
    /// endgame solver, a threat-space search). Called before the node is expanded; `nodes`
    /// counts the work done. The value must respect the search contract for `(alpha, beta)`.
    fn probe(
        &mut self,
        _depth: i32,
        _ply: u32,
        _alpha: i32,
        _beta: i32,
        _nodes: &mut u64,
    ) -> Option<i32> {
        None
    }

    /// The value at depth 0; the static evaluation unless the game searches further
    /// (quiescence).
    fn leaf(&mut self, _alpha: i32, _beta: i32, _ply: u32, _nodes: &mut u64) -> i32 {
        self.evaluate()
    }
}

/// Bounds on one search.
#[derive(Clone, Debug, Default)]
pub struct SearchBudget {
    pub max_depth: u32,
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// Evaluation noise in [-noise, noise], derived from the position key and `seed`, for
    /// the lower levels. 0 at full strength.
    pub noise: i32,
    pub seed: u64,
}

/// The result of a completed iteration.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    pub depth: u32,
    pub score: i32,
    pub best: M,
    pub pv: Vec<M>,
    pub nodes: u64,
}

/// The shared searcher; keeps its TT between searches of one game.
pub struct Searcher<M> {
    tt: TranspositionTable,
    killers: Vec<[u32; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<M>>,
    nodes: u64,
    budget: SearchBudget,
    watchdog: Watchdog,
}

/// Evaluation noise for the lower levels: a hash of the position key and the seed, spread
/// over [-noise, noise], so that a position always gets the same noise in one search.
#[must_use]
pub fn noise_of(key: u64, seed: u64, noise: i32) -> i32 {
    if noise <= 0 {
        return 0;
    }
    // SplitMix64 of key ^ seed: cheap, deterministic, well spread.
    let mut z = key ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % (2 * noise as u64 + 1)) as i32 - noise
}

impl<M: Copy + Eq + Debug> Searcher<M> {
    /// A searcher with a TT of `2^tt_bits` entries.
    #[must_use]
    pub fn new(tt_bits: u32) -> Searcher<M> {
        Searcher {
            tt: TranspositionTable::new(tt_bits),
            killers: vec![[u32::MAX; 2]; MAX_PLY],
            history: vec![0; MOVE_CODES],
            buffers: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            nodes: 0,
            budget: SearchBudget::default(),
            watchdog: Watchdog::new(1024),
        }
    }

    /// Forgets everything learnt (for deterministic, repeatable searches).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.iter_mut().for_each(|k| *k = [u32::MAX; 2]);
        self.history.fill(0);
    }

    /// Nodes searched by the last call.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn out_of_budget(&mut self) -> bool {
        self.watchdog.over(self.nodes)
    }

    /// Iterative deepening from depth 1 to `budget.max_depth`. Returns the last completed
    /// iteration (or the best move of an interrupted first one); `None` if the game is over.
    /// `on_iteration` sees each completed depth.
    pub fn search<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        budget: SearchBudget,
        stop: &StopFlag,
        mut on_iteration: impl FnMut(&Iteration<M>),
    ) -> Option<Iteration<M>> {
        self.watchdog.arm(budget.deadline, budget.max_nodes, stop);
        self.budget = budget;
        self.nodes = 0;
        let mut root_moves = Vec::new();
        game.generate(&mut root_moves);
        if root_moves.is_empty() {
            return None;
        }
        let mut best: Option<Iteration<M>> = None;
        for depth in 1..=self.budget.max_depth.max(1) {
            let (score, mv) = self.root(game, &mut root_moves, depth as i32);
            if self.watchdog.stopped() {
                if best.is_none() {
                    if let Some(mv) = mv {
                        best = Some(Iteration {
                            depth: 0,
                            score,
                            best: mv,
                            pv: vec![mv],
                            nodes: self.nodes,
                        });
                    }
                }
                break;
            }
            let Some(mv) = mv else { break };
            let pv = self.principal_variation(game, mv, depth as usize);
            let it = Iteration {
                depth,
                score,
                best: mv,
                pv,
                nodes: self.nodes,
            };
            on_iteration(&it);
            let proven = score.abs() >= WIN_BOUND;
            best = Some(it);
            if proven {
                break;
            }
        }
        if best.is_none() {
            // Not even one move was searched: take the generator's first choice.
            best = Some(Iteration {
                depth: 0,
                score: 0,
                best: root_moves[0],
                pv: vec![root_moves[0]],
                nodes: self.nodes,
            });
        }
        best
    }

    /// One iteration at the root; keeps the best move first in `moves` for the next one.
    fn root<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        moves: &mut [M],
        depth: i32,
    ) -> (i32, Option<M>) {
        let mut alpha = -WIN - 1;
        let beta = WIN + 1;
        let mut best: Option<(usize, i32)> = None;
        for (i, &m) in moves.iter().enumerate() {
            game.play(m);
            self.nodes += 1;
            let score = if i == 0 {
                -self.pvs(game, depth - 1, 1, -beta, -alpha)
            } else {
                let s = -self.pvs(game, depth - 1, 1, -alpha - 1, -alpha);
                if s > alpha && !self.watchdog.stopped() {
                    -self.pvs(game, depth - 1, 1, -beta, -alpha)
                } else {
                    s
                }
            };
            game.undo(m);
            if self.watchdog.stopped() {
                break;
            }
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
                alpha = alpha.max(score);
            }
        }
        match best {
            Some((i, score)) => {
                // Best first, the rest in their order (a stable move-to-front).
                moves[..=i].rotate_right(1);
                let key = game.hash();
                let code = game.move_code(moves[0]);
                self.tt.store(
                    key,
                    Entry {
                        key,
                        score: score_to_tt(score, 0),
                        depth: depth as i16,
                        bound: Bound::Exact,
                        best: code,
                    },
                );
                (score, Some(moves[0]))
            }
            None => (0, None),
        }
    }

    fn pvs<G: SearchGame<Move = M>>(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        if let Some(v) = game.terminal(ply) {
            return v;
        }
        // Mate-distance pruning: nothing here can beat a win already found closer to the root.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if let Some(v) = game.probe(depth, ply, alpha, beta, &mut self.nodes) {
            return v;
        }
        if depth <= 0 || ply as usize >= MAX_PLY - 1 {
            let v = game.leaf(alpha, beta, ply, &mut self.nodes);
            return if v.abs() >= WIN_BOUND {
                v
            } else {
                v + noise_of(game.hash(), self.budget.seed, self.budget.noise)
            };
        }
        let key = game.hash();
        let mut tt_best = u32::MAX;
        if let Some(e) = self.tt.probe(key) {
            tt_best = e.best;
            if i32::from(e.depth) >= depth {
                if let Some(s) = e.cutoff(ply, alpha, beta) {
                    return s;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply as usize]);
        moves.clear();
        game.generate(&mut moves);
        if moves.is_empty() {
            self.buffers[ply as usize] = moves;
            return game.evaluate();
        }
        self.order(game, &mut moves, tt_best, ply);
        let original_alpha = alpha;
        let mut best_score = -WIN - 1;
        let mut best_code = u32::MAX;
        for (i, &m) in moves.iter().enumerate() {
            game.play(m);
            self.nodes += 1;
            let score = if i == 0 {
                -self.pvs(game, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let s = -self.pvs(game, depth - 1, ply + 1, -alpha - 1, -alpha);
                if s > alpha && s < beta && !self.watchdog.stopped() {
                    -self.pvs(game, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    s
                }
            };
            game.undo(m);
            if self.watchdog.stopped() {
                break;
            }
            if score > best_score {
                best_score = score;
                best_code = game.move_code(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let code = game.move_code(m);
                let k = &mut self.killers[ply as usize];
                if k[0] != code {
                    k[1] = k[0];
                    k[0] = code;
                }
                if let Some(h) = self.history.get_mut(code as usize) {
                    *h += depth * depth;
                }
                break;
            }
        }
        self.buffers[ply as usize] = moves;
        if self.watchdog.stopped() {
            return 0;
        }
        self.tt.store(
            key,
            Entry {
                key,
                score: score_to_tt(best_score, ply),
                depth: depth as i16,
                bound: Bound::of(best_score, original_alpha, beta),
                best: best_code,
            },
        );
        best_score
    }

    /// TT move first, then killers, then by history; the generator's order breaks ties.
    fn order<G: SearchGame<Move = M>>(&self, game: &G, moves: &mut [M], tt_best: u32, ply: u32) {
        let killers = self.killers[ply as usize];
        let rank = |m: &M| -> i64 {
            let code = game.move_code(*m);
            if code == tt_best {
                return -(1 << 40);
            }
            if code == killers[0] {
                return -(1 << 39);
            }
            if code == killers[1] {
                return -(1 << 38);
            }
            -i64::from(self.history.get(code as usize).copied().unwrap_or(0))
        };
        moves.sort_by_key(rank);
    }

    /// The best line, following TT moves from the root.
    fn principal_variation<G: SearchGame<Move = M>>(
        &self,
        game: &mut G,
        first: M,
        max: usize,
    ) -> Vec<M> {
        let mut pv = vec![first];
        game.play(first);
        let mut buf = Vec::new();
        while pv.len() < max.max(1) {
            if game.terminal(pv.len() as u32).is_some() {
                break;
            }
            let Some(e) = self.tt.probe(game.hash()) else {
                break;
            };
            buf.clear();
            game.generate(&mut buf);
            let Some(&m) = buf.iter().find(|m| game.move_code(**m) == e.best) else {
                break;
            };
            game.play(m);
            pv.push(m);
        }
        for &m in pv.iter().rev() {
            game.undo(m);
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim with 1–3 stones per move: the player who takes the last stone wins. A position is
    /// lost exactly when the pile is a multiple of 4.
    #[derive(Clone)]
    struct Nim {
        pile: u32,
        history: Vec<u32>,
    }

    impl SearchGame for Nim {
        type Move = u32;
        fn hash(&self) -> u64 {
            u64::from(self.pile).wrapping_mul(0x9E37_79B9_7F4A_7C15) + 1
        }
        fn generate(&self, moves: &mut Vec<u32>) {
            moves.extend((1..=3).filter(|&k| k <= self.pile));
        }
        fn play(&mut self, m: u32) {
            self.pile -= m;
            self.history.push(m);
        }
        fn undo(&mut self, m: u32) {
            self.pile += m;
            self.history.pop();
        }
        fn terminal(&self, ply: u32) -> Option<i32> {
            // The previous player took the last stone: the side to move has lost.
            (self.pile == 0).then(|| -WIN + ply as i32)
        }
        fn evaluate(&self) -> i32 {
            0
        }
        fn move_code(&self, m: u32) -> u32 {
            m
        }
        fn notation(&self, m: u32) -> String {
            m.to_string()
        }
    }

    fn solve(pile: u32, depth: u32) -> Iteration<u32> {
        let mut s = Searcher::new(12);
        let mut g = Nim {
            pile,
            history: Vec::new(),
        };
        let budget = SearchBudget {
            max_depth: depth,
            ..SearchBudget::default()
        };
        s.search(&mut g, budget, &StopFlag::new(), |_| {}).unwrap()
    }

    #[test]
    fn solves_nim_with_exact_distances() {
        for pile in 1..=13 {
            let it = solve(pile, 20);
            if pile % 4 == 0 {
                assert!(it.score <= -WIN_BOUND, "pile {pile} is lost: {}", it.score);
            } else {
                assert!(it.score >= WIN_BOUND, "pile {pile} is won: {}", it.score);
                assert_eq!(it.best, pile % 4, "pile {pile}");
                // Winning line length: each round of two plies removes 4 stones.
                let plies = WIN - it.score;
                assert_eq!(plies as u32, 1 + 2 * (pile / 4), "pile {pile}");
            }
        }
    }

    #[test]
    fn fixed_depth_is_deterministic_and_stop_flag_aborts() {
        let a = solve(21, 9);
        let b = solve(21, 9);
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
        let mut s = Searcher::new(10);
        let mut g = Nim {
            pile: 40,
            history: Vec::new(),
        };
        let stop = StopFlag::new();
        stop.stop();
        let budget = SearchBudget {
            max_depth: 30,
            ..SearchBudget::default()
        };
        // Stopped before it starts: still a legal move.
        let it = s.search(&mut g, budget, &stop, |_| {}).unwrap();
        assert!((1..=3).contains(&it.best));
        assert_eq!(g.pile, 40, "the position is restored");
    }
}
