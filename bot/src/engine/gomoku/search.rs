//! The Gomoku alpha-beta search: iterative deepening over principal-variation search (PVS)
//! with a transposition table, threat-driven move generation, forced-move and singular
//! extensions, late move reductions and pruning, killer and history ordering, and at the
//! leaves a quiescence search over fours (full strength) or a small VCF (the levels below).
//!
//! Gomoku has a search of its own rather than the shared [`crate::engine::search`] because its best
//! tools are Gomoku's: a four is answered by one forced move, which costs no depth (so a
//! line of fours is followed to its end at any depth); an open three narrows the answers to
//! its defence points and our fours, and so (at full strength) does a quiet move after which
//! the opponent would win by fours were it his move again: the answers are that line's
//! points and our fours; and a quiet move (one that makes no threat and stops
//! none) may be reduced or pruned, which the threat flags of the board tell at once.
//!
//! Values follow [`crate::engine::value`]: a win is `WIN - plies` from the root, a loss the negative.
//! At a fixed depth the search is deterministic.

mod node;

use std::time::Instant;

use super::board::{Board, Point};
use super::eval;
use super::movegen::{self, open_four_points};
use super::params::{
    DISTRACT_DISTANCE, LEAF_VCF_NODES, LEAF_VCF_PLIES, QUIESCE_FOURS, QUIESCE_PLAIN_FOURS,
    QUIESCE_SALT, QUIESCE_TT_SMALLER,
};
use super::pattern::Pattern;
use super::threat::ThreatSearch;
use crate::engine::search::noise_of;
use crate::engine::tt::{score_to_tt, Bound, Entry, TranspositionTable};
use crate::engine::value::{WIN, WIN_BOUND};
use crate::engine::watchdog::Watchdog;
use crate::engine::StopFlag;

/// Deepest ply of the search tree (extensions included).
pub const MAX_PLY: usize = 128;
/// No move (an empty TT slot or killer).
const NO_MOVE: Point = Point::MAX;

/// What a search may do and for how long.
#[derive(Clone, Debug)]
pub struct Limits {
    pub max_depth: u32,
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// Evaluation noise in [-noise, noise] at the leaves (lower levels), 0 at full strength.
    pub noise: i32,
    pub seed: u64,
    /// Forced answers to open threes and open fours seen as won (level 3 up).
    pub tactics: bool,
    /// Wins through fours looked for at the leaves: a small VCF, or at full strength the
    /// quiescence search over fours.
    pub probe_vcf: bool,
    /// Full strength (level 10): the learned evaluation; a ply less for the moves after one
    /// that raised alpha, for the moves that make no four in a node far above beta, and in a
    /// node the TT knows no move for; a ply more for a singular TT move and for a threatened
    /// node at the horizon; trivial moves, and distracting fours under threat, pruned near
    /// the leaves; the quiescence search over fours. The levels below keep the hand-set
    /// evaluation and the plain depth their noise was calibrated with.
    pub full_strength: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 1,
            deadline: None,
            max_nodes: None,
            noise: 0,
            seed: 0,
            tactics: true,
            probe_vcf: true,
            full_strength: true,
        }
    }
}

/// A completed iteration (or the usable part of an interrupted one).
#[derive(Clone, Debug)]
pub struct Iteration {
    pub depth: u32,
    /// Deepest ply reached, extensions included.
    pub seldepth: u32,
    pub score: i32,
    pub best: Point,
    pub pv: Vec<Point>,
    /// Nodes since the search started.
    pub nodes: u64,
    /// The root moves, best first, with their last scores (`-WIN - 1` when unsearched):
    /// the order the engine's safety check walks.
    pub ranking: Vec<(Point, i32)>,
}

/// The searcher; its tables live from one search to the next of a game.
pub struct Searcher {
    tt: TranspositionTable,
    /// The quiescence search's results, in a table of its own: its nodes outnumber the main
    /// search's, and would evict the entries that order and cut the main search.
    quiesce_tt: TranspositionTable,
    /// Per point, per side: how often a quiet move cut off lately.
    history: Vec<[i32; 2]>,
    killers: [[Point; 2]; MAX_PLY],
    /// Triangular principal-variation table.
    pv: Vec<[Point; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Static evaluations by ply, to tell whether the side to move is improving.
    evals: [i32; MAX_PLY],
    /// Per ply, the move a singular-extension test search leaves out (`NO_MOVE` for none).
    excluded: [Point; MAX_PLY],
    /// Per ply, whether the line from the root has had its one horizon threat extension.
    horizon_extended: [bool; MAX_PLY],
    moves: Vec<Vec<Point>>,
    keys: Vec<Vec<i32>>,
    threats: ThreatSearch,
    nodes: u64,
    /// Singular-extension test searches of the last search.
    singular_tests: u64,
    watchdog: Watchdog,
    limits: Limits,
    seldepth: usize,
}

/// Plies a late move is reduced by (`index` counts from 1): more for later moves and deeper
/// searches, less on the principal variation, more when the position is not improving.
fn reduction(depth: i32, index: usize, pv_node: bool, improving: bool) -> i32 {
    let r = f64::from(depth.max(1)).ln() * (index.max(1) as f64).ln();
    let r = r as i32;
    if pv_node {
        r - 1
    } else {
        r + i32::from(!improving && r > 1)
    }
}

/// Moves searched in a free position before the rest are pruned, by depth: the count grows a
/// little faster than the depth, and halves when the position is not improving.
fn late_move_count(depth: i32, improving: bool) -> usize {
    let d = f64::from(depth.max(0));
    let count = 3 + d.powf(1.32) as usize;
    if improving {
        count
    } else {
        (count / 2).max(2)
    }
}

/// A quiet move for the side `me` to move: it makes no four or open three and stops none of
/// the opponent's. Only quiet moves are reduced or pruned.
fn is_quiet(board: &Board, m: Point, me: usize) -> bool {
    let (mine, theirs) = (board.summary(me), board.summary(1 - me));
    !(mine.fours.contains(m)
        || mine.threes.contains(m)
        || theirs.fours.contains(m)
        || theirs.threes.contains(m))
}

/// A trivial move: a stone there makes no open two or better for either side, on any line.
/// Deep in the tree such moves are pruned, and elsewhere reduced more.
fn is_trivial(board: &Board, m: Point) -> bool {
    board.patterns(m, 0).iter().all(|&p| p < Pattern::Flex2)
        && board.patterns(m, 1).iter().all(|&p| p < Pattern::Flex2)
}

/// Whether `m` is more than [`DISTRACT_DISTANCE`] from the last move and from the one before.
fn far_from_both(board: &Board, m: Point) -> bool {
    [0, 1].iter().all(|&back| {
        board
            .recent_move(back)
            .is_some_and(|p| board.distance(m, p) > DISTRACT_DISTANCE)
    })
}

/// A move as the TT stores it: `u32::MAX` for none.
fn move_code(m: Point) -> u32 {
    if m == NO_MOVE {
        u32::MAX
    } else {
        u32::from(m)
    }
}

/// Whether colour `v` can make an open four on a point it may play.
fn has_open_four_point(board: &Board, v: usize) -> bool {
    !board.summary(v).flex4s.is_empty() && !open_four_points(board, v).is_empty()
}

impl Searcher {
    /// A searcher with a TT of `2^tt_bits` entries.
    #[must_use]
    pub fn new(tt_bits: u32) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_bits),
            quiesce_tt: TranspositionTable::new(tt_bits.saturating_sub(QUIESCE_TT_SMALLER)),
            history: Vec::new(),
            killers: [[NO_MOVE; 2]; MAX_PLY],
            pv: vec![[NO_MOVE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            evals: [0; MAX_PLY],
            excluded: [NO_MOVE; MAX_PLY],
            horizon_extended: [false; MAX_PLY],
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            keys: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            threats: ThreatSearch::new(16),
            nodes: 0,
            singular_tests: 0,
            watchdog: Watchdog::new(512),
            limits: Limits::default(),
            seldepth: 0,
        }
    }

    /// Forgets everything learnt (for deterministic, repeatable searches).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.quiesce_tt.clear();
        self.history.clear();
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        self.threats.clear();
    }

    /// Nodes of the last search (threat-search nodes included).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Singular-extension test searches of the last search (full strength only).
    #[must_use]
    pub fn singular_tests(&self) -> u64 {
        self.singular_tests
    }

    /// Whether the last search stopped on its limits before its last iteration finished.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.watchdog.stopped()
    }

    fn out_of_time(&mut self) -> bool {
        self.watchdog.over(self.nodes)
    }

    /// Iterative deepening over `root` (the moves to consider, best-looking first; not
    /// empty). `on_iteration` sees every completed depth. Returns the last completed
    /// iteration, or the better part of an interrupted one.
    pub fn search(
        &mut self,
        board: &mut Board,
        root: &[Point],
        limits: Limits,
        stop: &StopFlag,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Iteration {
        self.watchdog.arm(limits.deadline, limits.max_nodes, stop);
        self.limits = limits;
        self.nodes = 0;
        self.singular_tests = 0;
        self.seldepth = 0;
        let len = board.points().last().map_or(0, |&p| usize::from(p) + 1);
        if self.history.len() < len {
            self.history = vec![[0; 2]; len];
        }
        let mut ranking: Vec<(Point, i32)> = root.iter().map(|&p| (p, -WIN - 1)).collect();
        let mut best = Iteration {
            depth: 0,
            seldepth: 0,
            score: 0,
            best: root[0],
            pv: vec![root[0]],
            nodes: 0,
            ranking: ranking.clone(),
        };
        let mut previous: i32 = 0;
        for depth in 1..=self.limits.max_depth.max(1) {
            // Aspiration: a window around the last score, widened when the score leaves it.
            let mut delta = 60;
            let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < WIN_BOUND {
                (previous - delta, previous + delta)
            } else {
                (-WIN - 1, WIN + 1)
            };
            let outcome = loop {
                let outcome = self.root(board, &mut ranking, depth as i32, alpha, beta);
                if self.watchdog.stopped() {
                    break outcome;
                }
                match outcome {
                    Some((score, _)) if score <= alpha && alpha > -WIN - 1 => {
                        alpha = (score - delta).max(-WIN - 1);
                    }
                    Some((score, _)) if score >= beta && beta < WIN + 1 => {
                        beta = (score + delta).min(WIN + 1);
                    }
                    _ => break outcome,
                }
                delta *= 4;
            };
            match outcome {
                Some((score, complete)) if complete || self.watchdog.stopped() => {
                    let it = Iteration {
                        depth: if self.watchdog.stopped() {
                            best.depth
                        } else {
                            depth
                        },
                        seldepth: self.seldepth as u32,
                        score,
                        best: ranking[0].0,
                        pv: self.pv[0][..self.pv_len[0]].to_vec(),
                        nodes: self.nodes,
                        ranking: ranking.clone(),
                    };
                    previous = score;
                    if !self.watchdog.stopped() {
                        on_iteration(&it);
                    }
                    best = it;
                }
                _ => {}
            }
            if self.watchdog.stopped() || best.score.abs() >= WIN_BOUND {
                break;
            }
        }
        best.nodes = self.nodes;
        if best.pv.is_empty() {
            best.pv = vec![best.best];
        }
        best
    }

    /// One iteration at the root within `(alpha, beta)`. Keeps `ranking` best first. Returns
    /// the best score and whether the iteration finished; `None` when it was interrupted
    /// before anything better than the last iteration's move was proven.
    fn root(
        &mut self,
        board: &mut Board,
        ranking: &mut [(Point, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, bool)> {
        let me = board.turn();
        let mut best: Option<(usize, i32)> = None;
        self.pv_len[0] = 0;
        self.horizon_extended[0] = false;
        self.evals[0] = eval::evaluate(board, self.limits.full_strength);
        for (i, entry) in ranking.iter_mut().enumerate() {
            let m = entry.0;
            let quiet = is_quiet(board, m, me);
            board.make(m);
            self.nodes += 1;
            let score = if i == 0 {
                -self.pvs(board, depth - 1, 1, -beta, -alpha)
            } else {
                let r = if quiet && depth >= 4 && i >= 4 {
                    reduction(depth, i + 1, true, true).clamp(0, 2)
                } else {
                    0
                };
                let mut s = -self.pvs(board, depth - 1 - r, 1, -alpha - 1, -alpha);
                if r > 0 && s > alpha && !self.watchdog.stopped() {
                    s = -self.pvs(board, depth - 1, 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta && !self.watchdog.stopped() {
                    s = -self.pvs(board, depth - 1, 1, -beta, -alpha);
                }
                s
            };
            board.unmake();
            if self.watchdog.stopped() {
                break;
            }
            entry.1 = score;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
                if score > alpha {
                    alpha = score;
                    self.pv[0][0] = m;
                    let n = self.pv_len[1];
                    let (head, tail) = self.pv.split_at_mut(1);
                    head[0][1..=n].copy_from_slice(&tail[0][..n]);
                    self.pv_len[0] = n + 1;
                }
                if score >= beta {
                    break;
                }
            }
        }
        let (i, score) = best?;
        if self.watchdog.stopped() && i == 0 && self.pv_len[0] == 0 {
            // Only the old best move was searched, and not to the end: nothing new.
            return None;
        }
        // Best first; the others by their scores of this iteration where searched.
        ranking[..=i].rotate_right(1);
        if !self.watchdog.stopped() {
            ranking[1..].sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        }
        if self.pv_len[0] == 0 {
            self.pv[0][0] = ranking[0].0;
            self.pv_len[0] = 1;
        }
        let key = board.hash();
        if !self.watchdog.stopped() {
            self.tt.store(
                key,
                Entry {
                    key,
                    score: score_to_tt(score, 0),
                    depth: depth as i16,
                    bound: Bound::Exact,
                    best: u32::from(ranking[0].0),
                },
            );
        }
        Some((score, !self.watchdog.stopped()))
    }
    /// The value at the horizon. At full strength, the quiescence search over fours; below
    /// it, a proven win when a small VCF finds one, else the static evaluation (with the
    /// level's noise).
    fn leaf(&mut self, board: &mut Board, ply: usize, alpha: i32, beta: i32) -> i32 {
        if self.limits.full_strength && self.limits.probe_vcf && self.limits.noise == 0 {
            return self.quiesce(board, ply, alpha, beta, 0);
        }
        let me = board.turn();
        if self.limits.probe_vcf && !board.summary(me).fours.is_empty() {
            self.threats.set_budget(LEAF_VCF_NODES, None, None);
            let win = self.threats.vcf(board, LEAF_VCF_PLIES);
            self.nodes += self.threats.nodes();
            if let Some(win) = win {
                return WIN - ply as i32 - win.plies as i32;
            }
        }
        eval::evaluate(board, self.limits.full_strength)
            + noise_of(board.hash(), self.limits.seed, self.limits.noise)
    }

    /// Quiescence over fours: the side to move may stand on the static value or make a four,
    /// and the answer to a four is forced, so a line of fours is followed until it wins,
    /// fizzles or runs past [`QUIESCE_FOURS`]. `fours` counts the fours of the line so far.
    /// The first [`QUIESCE_PLAIN_FOURS`] may be any four; later ones must also make a two
    /// or better on another line, which is what a four needs to lead anywhere. The values are
    /// kept in the quiescence table (a line of fours reached in another order is not searched
    /// again).
    fn quiesce(&mut self, board: &mut Board, ply: usize, alpha: i32, beta: i32, fours: u32) -> i32 {
        let mut alpha = alpha;
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if board.last_made_five() {
            return -WIN + ply as i32;
        }
        if ply >= MAX_PLY - 2 || board.stones() == board.points().len() {
            return eval::evaluate(board, true);
        }
        let me = board.turn();
        match self.decided(board, ply) {
            Err(score) => return score,
            Ok(Some(x)) => {
                // The answer to a four: forced, no standing pat.
                board.make(x);
                let score = -self.quiesce(board, ply + 1, -beta, -alpha, fours);
                board.unmake();
                return score;
            }
            Ok(None) => {}
        }
        let stand = eval::evaluate(board, true);
        if stand >= beta || fours >= QUIESCE_FOURS {
            return stand;
        }
        // The same fours in another order come to the same position: its value is known.
        let key = board.hash() ^ QUIESCE_SALT.wrapping_mul(u64::from(fours) + 1);
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.quiesce_tt.probe(key) {
            if let Some(s) = e.cutoff(ply as u32, alpha, beta) {
                return s;
            }
            tt_move = Point::try_from(e.best).unwrap_or(NO_MOVE);
        }
        let original_alpha = alpha.max(stand);
        alpha = original_alpha;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        let plus_only = fours >= QUIESCE_PLAIN_FOURS;
        for p in board.summary(me).fours.iter() {
            if plus_only
                && !board
                    .patterns(p, me)
                    .iter()
                    .any(|&x| x >= Pattern::Flex2 && !x.is_four())
            {
                continue;
            }
            if board.is_legal(p, me) {
                moves.push(p);
            }
        }
        movegen::sort_by_score(board, me, &mut moves);
        if let Some(i) = moves.iter().position(|&m| m == tt_move) {
            moves[..=i].rotate_right(1);
        }
        let mut best = stand;
        let mut best_move = NO_MOVE;
        for &m in &moves {
            board.make(m);
            let score = -self.quiesce(board, ply + 1, -beta, -alpha, fours + 1);
            board.unmake();
            if self.watchdog.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if !self.watchdog.stopped() {
            self.quiesce_tt.store(
                key,
                Entry {
                    key,
                    score: score_to_tt(best, ply as u32),
                    depth: 0,
                    bound: Bound::of(best, original_alpha, beta),
                    best: move_code(best_move),
                },
            );
        }
        best
    }
}
