//! One node of the Gomoku alpha-beta search ([`Searcher::pvs`]), in the order it is worked:
//! what decides the node at once, the transposition table's word, the pruning before the
//! moves, the moves in their order, the search of each (singular test, reductions, re-search)
//! and the table's entry for what was found.

use super::super::board::{Board, Point};
use super::super::eval;
use super::super::movegen::{self, move_score, Situation};
use super::super::params::{
    FAIL_HIGH_MARGIN, FUTILITY_DEPTH, FUTILITY_MARGIN, HISTORY_MAX, LEAF_VCF_NODES, LEAF_VCF_PLIES,
    RAZOR_MARGIN, SINGULAR_DEPTH, SINGULAR_MARGIN, TRIVIAL_DEPTH, VCF_THREAT_DEPTH,
};
use super::{
    far_from_both, has_open_four_point, is_quiet, is_trivial, late_move_count, move_code,
    reduction, Searcher, MAX_PLY, NO_MOVE,
};
use crate::engine::tt::{score_to_tt, Bound, Entry};
use crate::engine::value::{WIN, WIN_BOUND};

/// What a node knows once it is past the checks that decide it at once: its window (after
/// mate-distance pruning), the table's entry, the threat against the side to move and the
/// static value.
struct Node {
    ply: usize,
    pv_node: bool,
    me: usize,
    them: usize,
    alpha: i32,
    beta: i32,
    /// The move a singular test leaves out (`NO_MOVE` in a normal search).
    excluded: Point,
    tt_entry: Option<Entry>,
    tt_move: Point,
    /// Their four, open three or four-three point is on the board.
    threatened: bool,
    static_eval: i32,
    improving: bool,
}

/// How the moves of a node are searched, decided once they are generated.
struct Plan {
    situation: Situation,
    /// A forced answer costs no depth: a line of fours is followed to its end.
    extension: i32,
    /// Far enough above beta that a cutoff is likely: moves that make no four go shallower.
    likely_fail_high: bool,
    /// Moves of a free position from this index on are not searched.
    late_moves: usize,
}

/// Where the search of a node's moves left it.
struct Searched {
    best_score: i32,
    best_move: Point,
    /// The depth as it ended (a move that raised alpha makes the later ones shallower).
    depth: i32,
    multi_cut: Option<i32>,
}

/// What the singular test of the table's move says.
enum Singular {
    /// Extend the move by this many plies (-1: reduce it).
    Extend(i32),
    /// Another move beats beta too: the node fails high with this score.
    MultiCut(i32),
    Stopped,
}

/// What a move is, for its pruning and its reduction.
struct MoveShape {
    four: bool,
    quiet: bool,
    trivial: bool,
    /// Under their threat, a four of ours far from both last moves mostly delays the
    /// defence: pruned near the leaves, reduced elsewhere.
    distract: bool,
}

/// Moves the best-keyed move from `i` on to `i`. Lazy selection: cutoffs come early, so a
/// full sort is mostly wasted.
fn select_next(moves: &mut [Point], keys: &mut [i32], i: usize) {
    let mut pick = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[pick] {
            pick = j;
        }
    }
    moves.swap(i, pick);
    keys.swap(i, pick);
}

impl Searcher {
    /// The principal-variation search of one node: `depth` plies left, `ply` from the root.
    pub(super) fn pvs(
        &mut self,
        board: &mut Board,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let (alpha, beta, block) = match self.enter(board, ply, alpha, beta) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let depth = self.horizon_depth(board, ply, depth, block.is_none());
        if depth <= 0 && block.is_none() {
            return self.leaf(board, ply, alpha, beta);
        }
        let key = board.hash();
        let (tt_entry, tt_move) = match self.probe(key, ply, depth, pv_node, alpha, beta) {
            Ok(probed) => probed,
            Err(score) => return score,
        };
        // Internal iterative reduction: a node the TT knows no move for is searched a ply
        // shallower (its move order is a guess; the next iteration will have one).
        let depth = if self.limits.full_strength && tt_move == NO_MOVE && depth >= 4 {
            depth - 1
        } else {
            depth
        };
        let node = Node {
            ply,
            pv_node,
            me: board.turn(),
            them: 1 - board.turn(),
            alpha,
            beta,
            excluded: self.excluded[ply],
            tt_entry,
            tt_move,
            threatened: block.is_some(),
            static_eval: 0,
            improving: false,
        };
        let node = self.judge(board, node);
        if let Some(score) = self.prune_before_moves(board, &node, depth) {
            return score;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        let searched = self
            .generate(board, &node, depth, &mut moves, &mut keys)
            .map(|plan| self.search_moves(board, &node, &plan, depth, &mut moves, &mut keys));
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        match searched {
            Some(searched) => self.conclude(key, &node, &searched),
            None => 0,
        }
    }

    /// The checks that decide a node before anything is searched: out of time, a five made,
    /// a full board, the deepest ply, mate distance, and the fives and open fours on the
    /// board ([`Searcher::decided`]). `Ok` with the narrowed window and the opponent's
    /// five-point to block, if any.
    fn enter(
        &mut self,
        board: &Board,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, i32, Option<Point>), i32> {
        self.pv_len[ply] = 0;
        if self.out_of_time() {
            return Err(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if board.last_made_five() {
            return Err(-WIN + ply as i32);
        }
        if board.stones() == board.points().len() {
            return Err(0);
        }
        if ply >= MAX_PLY - 2 {
            return Err(eval::evaluate(board, self.limits.full_strength));
        }
        // Mate-distance pruning: nothing here beats a win already found nearer the root.
        let alpha = alpha.max(-WIN + ply as i32);
        let beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        let block = self.decided(board, ply)?;
        Ok((alpha, beta, block))
    }

    /// The depth of a node, a ply more at the horizon under a threat of theirs that leaves us
    /// a few answers (an open three or a four-three point): what it wins is no static value.
    /// Once in a line: the answers include our fours, and a line of them would come back
    /// here at every step.
    fn horizon_depth(&mut self, board: &Board, ply: usize, depth: i32, unblocked: bool) -> i32 {
        let them = 1 - board.turn();
        let extend = depth <= 0
            && unblocked
            && self.limits.full_strength
            && self.limits.tactics
            && !self.horizon_extended[ply - 1]
            && !board.summary(them).four_threes.is_empty();
        self.horizon_extended[ply] = self.horizon_extended[ply - 1] || extend;
        if extend {
            1
        } else {
            depth
        }
    }

    /// The table's entry and move for `key`, or `Err` with the score when the entry settles
    /// the node (never at a PV node or in a singular test).
    fn probe(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        pv_node: bool,
        alpha: i32,
        beta: i32,
    ) -> Result<(Option<Entry>, Point), i32> {
        let tt_entry = self.tt.probe(key);
        let mut tt_move = NO_MOVE;
        if let Some(e) = tt_entry {
            tt_move = Point::try_from(e.best).unwrap_or(NO_MOVE);
            if !pv_node && self.excluded[ply] == NO_MOVE && i32::from(e.depth) >= depth {
                if let Some(s) = e.cutoff(ply as u32, alpha, beta) {
                    return Err(s);
                }
            }
        }
        Ok((tt_entry, tt_move))
    }

    /// The node's threat, static value and whether it improves on two plies before. Under a
    /// threat the static value means little: the parent's is taken.
    fn judge(&mut self, board: &Board, node: Node) -> Node {
        let ply = node.ply;
        let threatened = node.threatened || !board.summary(node.them).four_threes.is_empty();
        let static_eval = if threatened {
            -self.evals[ply - 1]
        } else {
            eval::evaluate(board, self.limits.full_strength)
        };
        self.evals[ply] = static_eval;
        let improving = ply >= 2 && static_eval > self.evals[ply - 2];
        Node {
            threatened,
            static_eval,
            improving,
            ..node
        }
    }

    /// Razoring and reverse futility, before any move: the score when one settles the node.
    /// Under a threat the moves are few and the static value means little: no pruning.
    fn prune_before_moves(&mut self, board: &mut Board, node: &Node, depth: i32) -> Option<i32> {
        if node.pv_node || node.threatened || node.beta.abs() >= WIN_BOUND {
            return None;
        }
        // Razoring: far below alpha near the horizon, only a forced win can help.
        if depth <= 2 && node.static_eval + RAZOR_MARGIN * depth < node.alpha {
            return Some(self.leaf(board, node.ply, node.alpha, node.beta));
        }
        // Reverse futility: far above beta with nothing to answer, the search would not
        // come down.
        let margin = FUTILITY_MARGIN * (depth - 1 - i32::from(node.improving)).max(0);
        if depth <= FUTILITY_DEPTH && node.static_eval - margin >= node.beta {
            return Some(node.static_eval);
        }
        None
    }

    /// The node's moves into `moves` with their ordering keys in `keys`, and how to search
    /// them; `None` when there is no move.
    fn generate(
        &mut self,
        board: &mut Board,
        node: &Node,
        depth: i32,
        moves: &mut Vec<Point>,
        keys: &mut Vec<i32>,
    ) -> Option<Plan> {
        moves.clear();
        keys.clear();
        let mut situation = movegen::forced_moves(board, self.limits.tactics, moves);
        if situation == Situation::Free
            && self.limits.full_strength
            && self.limits.tactics
            && depth >= VCF_THREAT_DEPTH
            && !board.summary(node.them).fours.is_empty()
            && self.answer_vcf_threat(board, moves)
        {
            situation = Situation::Defend;
        }
        if moves.is_empty() {
            return None;
        }
        let killers = self.killers[node.ply];
        for &m in moves.iter() {
            let k = if m == node.tt_move {
                1 << 30
            } else if m == killers[0] {
                1 << 26
            } else if m == killers[1] {
                1 << 25
            } else {
                move_score(board, m, node.me) * 32 + self.history[usize::from(m)][node.me] / 16
            };
            keys.push(k);
        }
        Some(Plan {
            situation,
            extension: i32::from(situation == Situation::Block || moves.len() == 1),
            // Short of reverse futility's margin.
            likely_fail_high: self.limits.full_strength
                && !node.pv_node
                && !node.threatened
                && node.beta.abs() < WIN_BOUND
                && node.static_eval >= node.beta + FAIL_HIGH_MARGIN * depth,
            late_moves: late_move_count(depth, node.improving),
        })
    }

    /// Searches the node's moves best-keyed first until one fails high, the time runs out or
    /// the rest are pruned.
    fn search_moves(
        &mut self,
        board: &mut Board,
        node: &Node,
        plan: &Plan,
        depth: i32,
        moves: &mut [Point],
        keys: &mut [i32],
    ) -> Searched {
        let free = plan.situation == Situation::Free;
        let mut alpha = node.alpha;
        let mut out = Searched {
            best_score: -WIN - 1,
            best_move: NO_MOVE,
            depth,
            multi_cut: None,
        };
        for i in 0..moves.len() {
            select_next(moves, keys, i);
            let m = moves[i];
            if m == node.excluded {
                continue;
            }
            let holding = out.best_score > -WIN_BOUND;
            // Move-count pruning: with a move that does not lose in hand, the late ones of a
            // free position are not searched (the order puts threats and good shape first).
            if free && i >= plan.late_moves && holding {
                break;
            }
            let singular = match self.singular_test(board, node, plan, m, out.depth) {
                Singular::Extend(plies) => plies,
                Singular::MultiCut(score) => {
                    out.multi_cut = Some(score);
                    break;
                }
                Singular::Stopped => break,
            };
            let shape = self.shape_of(board, node, plan, m);
            if (shape.trivial || shape.distract) && i > 0 && out.depth < TRIVIAL_DEPTH && holding {
                continue;
            }
            board.make(m);
            self.nodes += 1;
            let new_depth = out.depth - 1 + plan.extension + singular
                - i32::from(plan.likely_fail_high && !shape.four);
            let score = if i == 0 {
                -self.pvs(board, new_depth, node.ply + 1, -node.beta, -alpha)
            } else {
                let reduced = self.reduced_depth(node, plan, &shape, out.depth, new_depth, i);
                self.search_later(board, node, alpha, reduced, new_depth)
            };
            board.unmake();
            if self.watchdog.stopped() {
                break;
            }
            if score > out.best_score {
                out.best_score = score;
                out.best_move = m;
                if score > alpha {
                    alpha = score;
                    if self.raise_alpha(node, &mut out, alpha) {
                        if shape.quiet {
                            self.reward(node.ply, m, node.me, out.depth, &moves[..i]);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// Singular extension: when every other move fails well below the TT move's score in a
    /// shallower search, the TT move is the only good one and gets a ply more.
    fn singular_test(
        &mut self,
        board: &mut Board,
        node: &Node,
        plan: &Plan,
        m: Point,
        depth: i32,
    ) -> Singular {
        let Some(e) = node.tt_entry.filter(|e| {
            self.limits.full_strength
                && m == node.tt_move
                && node.excluded == NO_MOVE
                && plan.extension == 0
                && depth >= SINGULAR_DEPTH
                && e.bound != Bound::Upper
                && i32::from(e.depth) >= depth - 2
                && e.score.abs() < WIN_BOUND
        }) else {
            return Singular::Extend(0);
        };
        let singular_beta = e.score - SINGULAR_MARGIN * depth;
        self.singular_tests += 1;
        self.excluded[node.ply] = m;
        let s = self.pvs(board, depth / 2, node.ply, singular_beta - 1, singular_beta);
        self.excluded[node.ply] = NO_MOVE;
        if self.watchdog.stopped() {
            Singular::Stopped
        } else if s < singular_beta {
            Singular::Extend(1)
        } else if singular_beta >= node.beta {
            Singular::MultiCut(singular_beta)
        } else if e.score >= node.beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    fn shape_of(&self, board: &Board, node: &Node, plan: &Plan, m: Point) -> MoveShape {
        let free = plan.situation == Situation::Free;
        let quiet = free && m != node.tt_move && is_quiet(board, m, node.me);
        MoveShape {
            four: board.summary(node.me).fours.contains(m),
            quiet,
            trivial: self.limits.full_strength && quiet && is_trivial(board, m),
            distract: self.limits.full_strength
                && plan.situation == Situation::Defend
                && m != node.tt_move
                && !board.summary(node.them).fours.contains(m)
                && far_from_both(board, m),
        }
    }

    /// The depth a move after the first is searched at first: late move reductions, less
    /// for a threat, more for a trivial or distracting move; never below one ply.
    fn reduced_depth(
        &self,
        node: &Node,
        plan: &Plan,
        shape: &MoveShape,
        depth: i32,
        new_depth: i32,
        i: usize,
    ) -> i32 {
        let r = if depth >= 2 && (!shape.four || shape.distract) && plan.extension == 0 {
            reduction(depth, i + 1, node.pv_node, node.improving) - i32::from(!shape.quiet)
                + i32::from(shape.trivial)
                + 2 * i32::from(shape.distract)
        } else {
            0
        };
        (new_depth - r.max(0)).max(1).min(new_depth)
    }

    /// A move after the first (already made on `board`): a null window at the reduced depth,
    /// again at full depth when it beats alpha, and the full window when it may be exact.
    fn search_later(
        &mut self,
        board: &mut Board,
        node: &Node,
        alpha: i32,
        reduced: i32,
        new_depth: i32,
    ) -> i32 {
        let child = node.ply + 1;
        let mut s = -self.pvs(board, reduced, child, -alpha - 1, -alpha);
        if reduced < new_depth && s > alpha && !self.watchdog.stopped() {
            s = -self.pvs(board, new_depth, child, -alpha - 1, -alpha);
        }
        if s > alpha && s < node.beta && !self.watchdog.stopped() {
            s = -self.pvs(board, new_depth, child, -node.beta, -alpha);
        }
        s
    }

    /// A move raised alpha to `alpha`: the later moves, less likely to beat it, go a ply
    /// shallower; the PV takes the move. `true` when it fails high.
    fn raise_alpha(&mut self, node: &Node, out: &mut Searched, alpha: i32) -> bool {
        if self.limits.full_strength
            && out.depth > 2
            && out.depth < 12
            && alpha.abs() < WIN_BOUND
            && alpha < node.beta
        {
            out.depth -= 1;
        }
        if node.pv_node {
            let ply = node.ply;
            self.pv[ply][0] = out.best_move;
            let n = self.pv_len[ply + 1];
            let (head, tail) = self.pv.split_at_mut(ply + 1);
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
            self.pv_len[ply] = n + 1;
        }
        alpha >= node.beta
    }

    /// The node's value, stored in the table unless it is no value of the position (cut
    /// short, a multi-cut, or a singular test without one move).
    fn conclude(&mut self, key: u64, node: &Node, searched: &Searched) -> i32 {
        if self.watchdog.stopped() {
            return 0;
        }
        if let Some(score) = searched.multi_cut {
            return score;
        }
        if node.excluded != NO_MOVE {
            return searched.best_score;
        }
        self.tt.store(
            key,
            Entry {
                key,
                score: score_to_tt(searched.best_score, node.ply as u32),
                depth: searched.depth.clamp(-100, 100) as i16,
                bound: Bound::of(searched.best_score, node.alpha, node.beta),
                best: move_code(searched.best_move),
            },
        );
        searched.best_score
    }

    /// When the opponent would win by fours were it his move, `moves` becomes the moves that
    /// may stop that line ([`movegen::vcf_threat_answers`]) and the result is `true`;
    /// otherwise `moves` is left as it is.
    fn answer_vcf_threat(&mut self, board: &mut Board, moves: &mut Vec<Point>) -> bool {
        board.pass();
        self.threats.set_budget(LEAF_VCF_NODES, None, None);
        let win = self.threats.vcf(board, LEAF_VCF_PLIES);
        self.nodes += self.threats.nodes();
        board.unpass();
        let Some(win) = win else {
            return false;
        };
        let mut answers = Vec::with_capacity(win.line.len() + 4);
        movegen::vcf_threat_answers(board, &win.line, &mut answers);
        if answers.is_empty() {
            return false;
        }
        moves.clear();
        moves.extend_from_slice(&answers);
        true
    }

    /// A quiet move cut off: a killer of this ply, and history credit (the quiet moves tried
    /// before it lose some).
    fn reward(&mut self, ply: usize, m: Point, me: usize, depth: i32, before: &[Point]) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let bonus = (depth * depth).min(400);
        let update = |h: &mut i32, b: i32| *h += b - *h * b.abs() / HISTORY_MAX;
        update(&mut self.history[usize::from(m)][me], bonus);
        for &q in before {
            update(&mut self.history[usize::from(q)][me], -bonus);
        }
    }

    /// What the side to move's fives and open fours and the opponent's fives decide at once:
    /// `Err` with the score when the position is won or lost whatever is played, else the
    /// opponent's five-point that must be blocked, if any.
    pub(super) fn decided(&self, board: &Board, ply: usize) -> Result<Option<Point>, i32> {
        let me = board.turn();
        if !board.summary(me).fives.is_empty() {
            return Err(WIN - ply as i32 - 1);
        }
        match board.summary(1 - me).fives.first_two() {
            (Some(x), second) if second.is_some() || !board.is_legal(x, me) => {
                Err(-(WIN - ply as i32 - 2))
            }
            (None, _) if self.limits.tactics && has_open_four_point(board, me) => {
                // An open four, and they have no four to delay it with that matters: our
                // five comes before theirs.
                Err(WIN - ply as i32 - 3)
            }
            (block, _) => Ok(block),
        }
    }
}
