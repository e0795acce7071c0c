//! Threat-space search: VCF (victory by continuous fours) and VCT (by threes and fours).
//!
//! An AND/OR search where the attacker only makes threats and the defender only answers
//! them, so the tree stays narrow and a win it finds is proven:
//! - after an attacker's four the defender has one move, the five-point (two five-points, or
//!   in renju a five-point forbidden to a black defender, and the attacker wins);
//! - after an open three (VCT only) the defender may take any defence point or make a four of
//!   his own; any other move lets the attacker make an open four. Every reply must lose;
//! - a defender's four must be blocked, and in VCF the block must itself be a four;
//! - (VCT only, outside renju) a quiet threat: in the first plies of a search the attacker
//!   may also make a closed three after which he would win by fours were it his move again.
//!   The defender must break that VCF: on its points, with a four of his own, or with a stone
//!   that could turn one of his forced blocks into a four; any other stone leaves every four
//!   of the line a four and every block a block, and the attacker plays the same line. When
//!   he answers with a four and the attacker blocks, the VCF is looked for again: a threat
//!   made before the block may still stand.
//!
//! Renju: black's threats never stand on forbidden points, and an open three whose open-four
//! point is forbidden is no threat.
//!
//! Two caches of its own (rather than the search's TT, whose entries they must not evict):
//! positions where no win was found within a depth, and (VCT only) positions won, with the
//! first move and the length, so that a VCT reached again by another order of threats is not
//! proven twice. A VCF is cheap enough to prove again, and its lines are replayed whole by
//! the tests, so its wins are not cached (a cached win gives only its first move).
//!
//! Killers per ply, kept from search to search within a move: the attacker's threat that
//! last won is tried first, and so is the defender's answer to a quiet threat that last
//! refuted one. Against an open three the defender tries his fours first instead
//! ([`ThreatSearch::defend`]).

use std::time::Instant;

use game_core::GomokuRule;

use super::board::{Board, Point};
use super::movegen::{defence_points, four_moves, open_four_points, sort_by_score, vcf_breakers};
use super::params::{
    OPEN_THREE_PLIES, QUIET_ANSWER_PLIES, QUIET_DEPTH_LEAST, QUIET_MOVES, QUIET_PLIES,
    QUIET_VCF_NODES, QUIET_VCF_PLIES,
};
use super::pattern::Pattern;
use crate::engine::StopFlag;

/// A proven win: the moves from the position (attacker first, the defender's forced or first
/// answer between) and how many plies it takes to the five.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    pub line: Vec<Point>,
    pub plies: u32,
}

/// The threat searcher: budget, node count and caches.
pub struct ThreatSearch {
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
    aborted: bool,
    failed: Vec<(u64, u8)>,
    /// VCT wins: key, first move, plies.
    won: Vec<(u64, Point, u8)>,
    /// Move lists by depth of recursion, reused from node to node.
    buffers: Vec<Vec<Point>>,
    /// Plies from the root of the current search.
    ply: usize,
    /// Per side ([`ATTACKER`], [`DEFENDER`]) and ply, the attacker's threat that last won and
    /// the defender's answer that last refuted: tried first at the next node of that ply.
    killers: [[Point; KILLER_PLIES]; 2],
    /// Whether a VCT's attacker may also make quiet threats (see [`ThreatSearch::set_quiet`]).
    quiet: bool,
    /// The node count at which a probe (the VCF after a quiet move) stops.
    probe_limit: u64,
    /// The probe stopped on its limit: its failure proves nothing and is not cached.
    probe_cut: bool,
}

/// No killer at a ply.
const NO_KILLER: Point = Point::MAX;
/// Plies that keep killers (deeper nodes go without).
const KILLER_PLIES: usize = 64;
/// The killers' sides.
const ATTACKER: usize = 0;
const DEFENDER: usize = 1;

/// Whether a stone of `a` on `p` makes an open four, or fours in two directions.
fn makes_two_fives(board: &Board, p: Point, a: usize) -> bool {
    let patterns = board.patterns(p, a);
    patterns.contains(&Pattern::Flex4)
        || patterns
            .iter()
            .filter(|&&x| x == Pattern::Block4 || x == Pattern::Flex4)
            .count()
            >= 2
}

/// Whether a stone of `a` on `p` may make open threes in two directions. A point's patterns
/// see four points each way, and a closed three there may be open beyond them: with `X.X.X.X`
/// and the other colour at its near end, the stone at the near end is a closed three, yet the
/// middle gap then makes two fives. So a move with an open and a closed three, or two closed
/// ones, is made and the directions of its open fours counted (rare: most moves have neither).
fn makes_two_threes(board: &mut Board, p: Point, a: usize) -> bool {
    let patterns = board.patterns(p, a);
    let open = patterns.iter().filter(|&&x| x == Pattern::Flex3).count();
    let closed = patterns.iter().filter(|&&x| x == Pattern::Block3).count();
    if open >= 2 {
        return true;
    }
    if open + closed < 2 {
        return false;
    }
    board.make(p);
    let fours = open_four_points(board, a);
    board.unmake();
    fours.iter().any(|&(_, d)| d != fours[0].1)
}

/// Salt that keeps VCF and VCT failures apart in the cache.
const VCT_SALT: u64 = 0x7C7C_1357_9BDF_2468;

impl ThreatSearch {
    /// A searcher with a failure cache of `2^cache_bits` entries.
    #[must_use]
    pub fn new(cache_bits: u32) -> ThreatSearch {
        ThreatSearch {
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            aborted: false,
            failed: vec![(0, 0); 1 << cache_bits.min(24)],
            won: vec![(0, 0, 0); 1 << cache_bits.min(24).saturating_sub(2)],
            buffers: Vec::new(),
            ply: 0,
            killers: [[NO_KILLER; KILLER_PLIES]; 2],
            quiet: true,
            probe_limit: u64::MAX,
            probe_cut: false,
        }
    }

    /// Lets (or stops) a VCT's attacker make quiet threats: a move that is neither four nor
    /// open three but after which he would win by fours were it his move again. Off, a VCT
    /// is the classical one (fours and open threes); renju boards never use them.
    pub fn set_quiet(&mut self, quiet: bool) {
        self.quiet = quiet;
    }

    fn take_buffer(&mut self) -> Vec<Point> {
        let mut b = self.buffers.pop().unwrap_or_default();
        b.clear();
        b
    }

    /// Limits the next searches: at most `max_nodes` nodes each, until `deadline`, or until
    /// `stop` is raised.
    pub fn set_budget(
        &mut self,
        max_nodes: u64,
        deadline: Option<Instant>,
        stop: Option<StopFlag>,
    ) {
        self.max_nodes = max_nodes;
        self.deadline = deadline;
        self.stop = stop;
    }

    /// Forgets the failures and the killers (for deterministic searches).
    pub fn clear(&mut self) {
        self.failed.fill((0, 0));
        self.won.fill((0, 0, 0));
        self.killers = [[NO_KILLER; KILLER_PLIES]; 2];
    }

    /// Moves the killer of `side` at this ply to the front of `moves`, the rest keeping their
    /// order: the nodes of one ply differ mostly by a stone far from the fight (another
    /// defence of the same threat, another root move checked).
    fn first(&self, side: usize, moves: &mut [Point]) {
        let Some(&k) = self.killers[side].get(self.ply) else {
            return;
        };
        if let Some(i) = moves.iter().position(|&m| m == k) {
            moves[..=i].rotate_right(1);
        }
    }

    /// Makes `m` the killer of `side` at this ply.
    fn remember(&mut self, side: usize, m: Point) {
        if let Some(k) = self.killers[side].get_mut(self.ply) {
            *k = m;
        }
    }

    /// Nodes of the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last search stopped on its budget (so a failure is not a proof).
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A win for the side to move by fours alone, within `max_plies`.
    pub fn vcf(&mut self, board: &mut Board, max_plies: u32) -> Option<ThreatWin> {
        self.run(board, max_plies, false)
    }

    /// A win for the side to move by threes and fours, within `max_plies`.
    pub fn vct(&mut self, board: &mut Board, max_plies: u32) -> Option<ThreatWin> {
        self.run(board, max_plies, true)
    }

    fn run(&mut self, board: &mut Board, max_plies: u32, threes: bool) -> Option<ThreatWin> {
        self.nodes = 0;
        self.aborted = false;
        let mut line = Vec::new();
        let plies = board.threats_only(|board| self.attack(board, max_plies, threes, &mut line))?;
        Some(ThreatWin { line, plies })
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes >= self.probe_limit {
            self.probe_cut = true;
            return true;
        }
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        } else if self.nodes & 255 == 1 {
            // The first node of every search reads the clock too: a search started late
            // (one of many checks at the root) stops at once.
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.as_ref().is_some_and(StopFlag::is_stopped) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn cache_slot(&self, key: u64) -> usize {
        (key as usize) & (self.failed.len() - 1)
    }

    /// The attacker (side to move) threatens; on success `line` holds the winning line from
    /// here and the result is its length in plies.
    fn attack(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        line: &mut Vec<Point>,
    ) -> Option<u32> {
        if self.out_of_budget() {
            return None;
        }
        let a = board.turn();
        let d = 1 - a;
        if let Some(p) = board.summary(a).fives.iter().next() {
            line.push(p);
            return Some(1);
        }
        // A threat, its answer and the five.
        if depth < 3 {
            return None;
        }
        let (block, second) = board.summary(d).fives.first_two();
        if second.is_some() {
            return None;
        }
        let key = board.hash() ^ if threes { VCT_SALT } else { 0 };
        let slot = self.cache_slot(key);
        if self.failed[slot].0 == key && u32::from(self.failed[slot].1) >= depth {
            return None;
        }
        let won = (key as usize >> 8) & (self.won.len() - 1);
        if threes {
            let (k, first, plies) = self.won[won];
            if k == key && u32::from(plies) <= depth {
                line.push(first);
                return Some(u32::from(plies));
            }
        }
        let mut moves = self.take_buffer();
        match block {
            Some(x) => {
                // Their four first: the block is forced, and in VCF it must be a four too.
                if board.is_legal(x, a) && (threes || board.summary(a).fours.contains(x)) {
                    moves.push(x);
                }
            }
            None => {
                // With fewer than five plies left (the deepest nodes, the most numerous) only
                // a threat that no one stone answers can still win: a four is blocked, and a
                // new four after the block, its block and the five take five plies; an open
                // three is answered, and the open four, its block and the five take five too.
                // So only open fours, double fours and two open threes at once are tried.
                let short = depth < OPEN_THREE_PLIES;
                four_moves(board, a, &mut moves);
                if short {
                    moves.retain(|&p| makes_two_fives(board, p, a));
                }
                sort_by_score(board, a, &mut moves);
                if threes {
                    let fours = moves.len();
                    for p in board.summary(a).threes.iter() {
                        if !moves.contains(&p) && board.is_legal(p, a) {
                            moves.push(p);
                        }
                    }
                    if short {
                        let mut i = 0;
                        moves.retain(|&p| {
                            i += 1;
                            i <= fours || makes_two_threes(board, p, a)
                        });
                    }
                    sort_by_score(board, a, &mut moves[fours..]);
                }
                self.first(ATTACKER, &mut moves);
            }
        }
        let mut found = self.first_winning(board, depth, threes, &moves, line);
        if let Some((m, _)) = found {
            self.remember(ATTACKER, m);
        } else if threes
            && block.is_none()
            && depth >= QUIET_DEPTH_LEAST
            && self.ply < QUIET_PLIES
            && self.quiet_on(board)
            && !self.aborted
            && !self.probe_cut
        {
            found = self.quiet_threats(board, depth, &moves, line);
        }
        if let (true, Some((m, plies))) = (threes, found) {
            self.won[won] = (key, m, plies.min(255) as u8);
        }
        self.buffers.push(moves);
        if found.is_none() && !self.aborted && !self.probe_cut {
            self.failed[slot] = (key, depth.min(255) as u8);
        }
        found.map(|(_, plies)| plies)
    }

    /// The attacker (side to move) tries `threats` in turn: the first after which every
    /// answer loses, with the plies to the five; its line is appended to `line`.
    fn first_winning(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        threats: &[Point],
        line: &mut Vec<Point>,
    ) -> Option<(Point, u32)> {
        for &m in threats {
            let mark = line.len();
            line.push(m);
            board.make(m);
            self.ply += 1;
            let result = self.defend(board, depth - 1, threes, line);
            self.ply -= 1;
            board.unmake();
            if let Some(plies) = result {
                return Some((m, plies + 1));
            }
            line.truncate(mark);
            if self.aborted || self.probe_cut {
                break;
            }
        }
        None
    }

    /// Whether quiet threats may be made and answered on this board.
    fn quiet_on(&self, board: &Board) -> bool {
        self.quiet && board.rule() != GomokuRule::Renju
    }

    /// The attacker's quiet threats (he is to move, with `depth` plies; `tried` are the fours
    /// and threes already refuted): a move that makes a closed three, after which he would
    /// win by fours were it his move again. The defender must break that VCF: he answers on
    /// its points, with a four of his own, or with a stone that would turn one of his forced
    /// blocks into a four (see [`vcf_breakers`]); every other move leaves the VCF standing.
    fn quiet_threats(
        &mut self,
        board: &mut Board,
        depth: u32,
        tried: &[Point],
        line: &mut Vec<Point>,
    ) -> Option<(Point, u32)> {
        let a = board.turn();
        let mut quiet = self.take_buffer();
        let mut near = self.take_buffer();
        board.threat_candidates(&mut near);
        for &p in &near {
            if !tried.contains(&p)
                && board.patterns(p, a).contains(&Pattern::Block3)
                && board.is_legal(p, a)
            {
                quiet.push(p);
            }
        }
        self.buffers.push(near);
        sort_by_score(board, a, &mut quiet);
        quiet.truncate(QUIET_MOVES);
        let found = self.first_winning(board, depth, true, &quiet, line);
        self.buffers.push(quiet);
        found
    }

    /// The defender (side to move) faces neither four nor open three: when quiet threats
    /// are on and the attacker would win by fours were it his move (after his quiet move, or
    /// after he blocked a four of the defender's and the threat he made before still stands),
    /// every move that may break that VCF must lose; else the defender is free and the line
    /// fails.
    fn answer_vcf(&mut self, board: &mut Board, depth: u32, line: &mut Vec<Point>) -> Option<u32> {
        if !self.quiet_on(board) || self.ply >= QUIET_ANSWER_PLIES || depth < QUIET_DEPTH_LEAST - 1
        {
            return None;
        }
        board.pass();
        let vcf = self.probe_vcf(board, (depth - 1).min(QUIET_VCF_PLIES));
        board.unpass();
        let vcf = vcf?;
        let mut replies = self.take_buffer();
        vcf_breakers(board, &vcf, &mut replies);
        sort_by_score(board, board.turn(), &mut replies);
        self.first(DEFENDER, &mut replies);
        let result = self.refute_all(board, depth, true, &replies, line);
        self.buffers.push(replies);
        result
    }

    /// A win by fours for the side to move within `plies` and [`QUIET_VCF_NODES`] nodes: its
    /// line, the attacker's fours and the blocks they force in turn, ending on the five.
    fn probe_vcf(&mut self, board: &mut Board, plies: u32) -> Option<Vec<Point>> {
        let mut vcf = Vec::new();
        self.probe_limit = self.nodes.saturating_add(QUIET_VCF_NODES);
        let result = self.attack(board, plies, false, &mut vcf);
        self.probe_limit = u64::MAX;
        self.probe_cut = false;
        result.map(|_| vcf)
    }

    /// The defender (side to move) answers the attacker's threat; `Some` when every answer
    /// loses, with the plies of the longest.
    fn defend(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        line: &mut Vec<Point>,
    ) -> Option<u32> {
        if self.out_of_budget() {
            return None;
        }
        let d = board.turn();
        let a = 1 - d;
        if !board.summary(d).fives.is_empty() {
            return None;
        }
        let (first, second) = board.summary(a).fives.first_two();
        if let Some(x) = first {
            if let Some(y) = second {
                // Two five-points: whichever the defender blocks, the other wins. The line
                // shows a block he may play; when both are forbidden to black in renju it
                // ends on the four, as below.
                let (x, y) = if board.is_legal(x, d) { (x, y) } else { (y, x) };
                if board.is_legal(x, d) {
                    line.extend([x, y]);
                }
                return Some(2);
            }
            if !board.is_legal(x, d) {
                // Black cannot block on a forbidden point: whatever he plays, five follows.
                return Some(2);
            }
            let mark = line.len();
            line.push(x);
            board.make(x);
            self.ply += 1;
            let result = self.attack(board, depth.saturating_sub(1), threes, line);
            self.ply -= 1;
            board.unmake();
            if result.is_none() {
                line.truncate(mark);
            }
            return result.map(|plies| plies + 1);
        }
        if !threes {
            return None;
        }
        let threats = open_four_points(board, a);
        if threats.is_empty() {
            return self.answer_vcf(board, depth, line);
        }
        let mut replies = self.take_buffer();
        defence_points(board, d, &threats, &mut replies);
        let points = replies.len();
        four_moves(board, d, &mut replies);
        // The defender's fours first, then the points that stop the open four, each part
        // best-looking first; no killer. After a four and its block the attacker has two
        // plies fewer, so what lies below is small: it refutes the attack cheaply or the
        // proof goes on through it. Mixed by score with the last refutation first, the solver spent
        // 33.0M nodes on the forced-win set, and 18.2M so (docs/benchmarks-log/gomoku-learned-2.md,
        // "The defender's fours first").
        sort_by_score(board, d, &mut replies[..points]);
        sort_by_score(board, d, &mut replies[points..]);
        replies.rotate_left(points);
        if replies.is_empty() {
            // Any move, then the open four, a block and the five.
            self.buffers.push(replies);
            return Some(4);
        }
        let result = self.refute_all(board, depth, threes, &replies, line);
        self.buffers.push(replies);
        result
    }

    /// The defender (side to move) tries every one of `replies`; `Some` when each loses,
    /// with the plies of the longest, and the first reply's line appended to `line`.
    fn refute_all(
        &mut self,
        board: &mut Board,
        depth: u32,
        threes: bool,
        replies: &[Point],
        line: &mut Vec<Point>,
    ) -> Option<u32> {
        let mut longest = 0;
        let mut first_line = None;
        for &r in replies {
            let mut sub = vec![r];
            board.make(r);
            self.ply += 1;
            let result = self.attack(board, depth.saturating_sub(1), threes, &mut sub);
            self.ply -= 1;
            board.unmake();
            let Some(plies) = result else {
                if !self.aborted && !self.probe_cut {
                    self.remember(DEFENDER, r);
                }
                return None;
            };
            longest = longest.max(plies + 1);
            first_line.get_or_insert(sub);
        }
        line.extend(first_line.unwrap_or_default());
        Some(longest)
    }
}
