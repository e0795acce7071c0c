//! Move generation: the empty points near stones ranked by what they make for both colours,
//! and the forced replies — a five when there is one, the block of the opponent's four, and
//! against an open three only its defence points or a four of our own.
//!
//! Black's forbidden points (renju) are never generated.

use super::board::{Board, Point};
use super::learned::{ATTACK, DEFEND};
use super::pattern::{slot, Pattern, BLOCKED_DIGIT, POW3, REACH};
use super::points::is_four_three;

/// How a point ranks for the side `me` to move: what it makes for `me` and what it takes
/// from the opponent, by the board's move order (the hand-set values, the attack counted
/// 5/4, or full strength's learned scores).
#[must_use]
pub fn move_score(board: &Board, p: Point, me: usize) -> i32 {
    board.order(p, me, ATTACK) + board.order(p, 1 - me, DEFEND)
}

/// The points sorted by [`move_score`], best first; ties keep the given order.
pub fn sort_by_score(board: &Board, me: usize, points: &mut [Point]) {
    // Insertion sort: the lists are short (threat answers, candidates), and it allocates
    // nothing, unlike a cached-key sort.
    for i in 1..points.len() {
        let p = points[i];
        let key = move_score(board, p, me);
        let mut j = i;
        while j > 0 && move_score(board, points[j - 1], me) < key {
            points[j] = points[j - 1];
            j -= 1;
        }
        points[j] = p;
    }
}

/// What the position asks of the side to move, as [`forced_moves`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// A five-point of ours: the move wins.
    Win,
    /// A five-point of theirs: the block is the only move.
    Block,
    /// An open three or a four-three point of theirs: the moves that stop it, and our fours.
    Defend,
    /// Nothing forcing: the candidates near the stones.
    Free,
}

/// The open fours colour `a` could make next, as (point, direction) pairs; for black in renju
/// a forbidden point makes nothing.
#[must_use]
pub fn open_four_points(board: &Board, a: usize) -> Vec<(Point, usize)> {
    let mut pairs = Vec::new();
    for f in board.summary(a).flex4s.iter() {
        if a == 0 && board.is_forbidden(f) {
            continue;
        }
        for (d, &pat) in board.patterns(f, a).iter().enumerate() {
            if pat == Pattern::Flex4 {
                pairs.push((f, d));
            }
        }
    }
    pairs
}

/// Whether a stone of the opponent of `a` on the empty point `x` leaves `a` without the open
/// four that `a` makes on `f` in direction `d`.
fn spoils(board: &Board, a: usize, (f, d): (Point, usize), x: Point) -> bool {
    if x == f {
        return true;
    }
    let step = board.dirs()[d];
    let diff = x as isize - f as isize;
    for k in 1..=REACH as isize {
        for offset in [k, -k] {
            if diff == offset * step {
                let key = board.key(f, a, d) + BLOCKED_DIGIT * POW3[slot(offset as i32)];
                return board.table(a).get(key) < Pattern::Flex4;
            }
        }
    }
    false
}

/// The points where `me` stops every open four in `threats` (the opponent's open threes),
/// legal for `me`, appended to `out` without repeats. A stone can only change a pattern along
/// its own lines, so the candidates are the threat points and the cells on their lines.
pub fn defence_points(board: &Board, me: usize, threats: &[(Point, usize)], out: &mut Vec<Point>) {
    let them = 1 - me;
    let mut candidates: Vec<Point> = Vec::new();
    for &(f, d) in threats {
        candidates.push(f);
        let step = board.dirs()[d];
        for k in 1..=REACH as isize {
            for q in [f as isize - k * step, f as isize + k * step] {
                if board.cell_checked(q).is_some() && board.is_empty(q as Point) {
                    candidates.push(q as Point);
                }
            }
        }
    }
    for x in candidates {
        if out.contains(&x) || !board.is_legal(x, me) {
            continue;
        }
        if threats.iter().all(|&t| spoils(board, them, t, x)) {
            out.push(x);
        }
    }
}

/// Whether a stone of the opponent of `a` on the empty point `x` leaves `a` without the two
/// fours, or four and open three, that `a` makes on `f`.
fn spoils_four_three(board: &Board, a: usize, f: Point, x: Point) -> bool {
    if x == f {
        return true;
    }
    let mut patterns = *board.patterns(f, a);
    let diff = x as isize - f as isize;
    'lines: for (d, &step) in board.dirs().iter().enumerate() {
        for k in 1..=REACH as isize {
            for offset in [k, -k] {
                if diff == offset * step {
                    let key = board.key(f, a, d) + BLOCKED_DIGIT * POW3[slot(offset as i32)];
                    patterns[d] = board.table(a).get(key);
                    break 'lines;
                }
            }
        }
    }
    !is_four_three(&patterns)
}

/// The points where `me` stops every four-three (or double four) point of the opponent's,
/// legal for `me`, appended to `out` without repeats: the threat points themselves and the
/// cells on their lines that spoil them.
fn four_three_defence(board: &Board, me: usize, out: &mut Vec<Point>) {
    let them = 1 - me;
    let threats: Vec<Point> = board
        .summary(them)
        .four_threes
        .iter()
        .filter(|&f| board.is_legal(f, them))
        .collect();
    if threats.is_empty() {
        return;
    }
    let f = threats[0];
    let mut candidates = vec![f];
    for &step in &board.dirs() {
        for k in 1..=REACH as isize {
            for q in [f as isize - k * step, f as isize + k * step] {
                if board.cell_checked(q).is_some() && board.is_empty(q as Point) {
                    candidates.push(q as Point);
                }
            }
        }
    }
    for x in candidates {
        if out.contains(&x) || !board.is_legal(x, me) {
            continue;
        }
        if threats
            .iter()
            .all(|&t| spoils_four_three(board, them, t, x))
        {
            out.push(x);
        }
    }
}

/// The legal points where `v` makes a four (a five-point for the next move), appended to
/// `out` without repeats.
pub fn four_moves(board: &Board, v: usize, out: &mut Vec<Point>) {
    for p in board.summary(v).fours.iter() {
        if !out.contains(&p) && board.is_legal(p, v) {
            out.push(p);
        }
    }
}

/// The moves that may stop the opponent's win by fours `line` (found as if it were his move:
/// his fours and the blocks they force, in turn), legal for the side to move, appended to
/// `out` without repeats: the line's points, then our fours. A stone elsewhere leaves every
/// four of the line a four; what these answers miss is a stone elsewhere that would turn one
/// of our blocks into a four of ours, a guess the search may get wrong (no proof is claimed).
pub fn vcf_threat_answers(board: &Board, line: &[Point], out: &mut Vec<Point>) {
    let me = board.turn();
    for &p in line {
        if board.is_empty(p) && board.is_legal(p, me) && !out.contains(&p) {
            out.push(p);
        }
    }
    four_moves(board, me, out);
}

/// Every move that may break the opponent's win by fours `vcf` (found as if it were his
/// move: his fours and the blocks they force, in turn, ending on the five), legal for the
/// side to move, appended to `out` without repeats: [`vcf_threat_answers`] (the line's points
/// and our fours), then the points that, with one of our blocks, could make a four of ours —
/// an empty stretch of five holding the block, that point and at least two more of our
/// stones or blocks, no stone of his. Any other stone leaves each of his fours a four and each of our blocks without a
/// four: he plays the same line and wins (outside renju, where a stone may also change
/// which points are forbidden).
pub fn vcf_breakers(board: &Board, vcf: &[Point], out: &mut Vec<Point>) {
    vcf_threat_answers(board, vcf, out);
    let me = board.turn();
    let blocks = || vcf.iter().skip(1).step_by(2).copied();
    for b in blocks() {
        for dir in board.dirs() {
            for start in -4..=0isize {
                let stretch = (0..5).map(|k| (b as isize + (start + k) * dir) as Point);
                let mut ours = 0;
                let mut open = true;
                for q in stretch.clone().filter(|&q| q != b) {
                    match board.stone(q) {
                        Some(s) if s == me => ours += 1,
                        Some(_) => open = false,
                        None if !board.is_empty(q) => open = false,
                        None if blocks().any(|x| x == q) => ours += 1,
                        None => {}
                    }
                }
                if open && ours >= 2 {
                    for q in stretch.filter(|&q| q != b) {
                        if board.is_empty(q) && board.is_legal(q, me) && !out.contains(&q) {
                            out.push(q);
                        }
                    }
                }
            }
        }
    }
}

/// The moves to search for the side to move, unsorted, and what kind of position it is.
///
/// - A five-point of ours: that move alone.
/// - A four of theirs: the block (when it is legal).
/// - With `tactics`, an open three of theirs: its defence points and our fours; or a point
///   where they make a four and an open three (or two fours): the points that spoil it and
///   our fours.
/// - Else the legal empty points within two of a stone (the centre on an empty board).
pub fn forced_moves(board: &Board, tactics: bool, out: &mut Vec<Point>) -> Situation {
    let me = board.turn();
    let them = 1 - me;
    if let Some(p) = board.summary(me).fives.iter().next() {
        out.push(p);
        return Situation::Win;
    }
    if !board.summary(them).fives.is_empty() {
        let start = out.len();
        for p in board.summary(them).fives.iter() {
            if board.is_legal(p, me) {
                out.push(p);
            }
        }
        if out.len() > start {
            return Situation::Block;
        }
        // Black may not block (renju): lost whatever he plays; the candidates below keep
        // the move legal.
    }
    if tactics && !board.summary(them).four_threes.is_empty() {
        // An open three (its open-four point is a four-three point too) or a four-three of
        // theirs: it wins next move unless we stop it or keep them busy with fours.
        let start = out.len();
        let threats = open_four_points(board, them);
        if threats.is_empty() {
            four_three_defence(board, me, out);
        } else {
            defence_points(board, me, &threats, out);
        }
        if out.len() > start {
            let mut fours = Vec::new();
            four_moves(board, me, &mut fours);
            for p in fours {
                if !out[start..].contains(&p) {
                    out.push(p);
                }
            }
            return Situation::Defend;
        }
    }
    let start = out.len();
    out.extend(
        board
            .candidates()
            .iter()
            .filter(|&p| me == 1 || board.is_legal(p, me)),
    );
    if out.len() == start {
        // An empty board, or every point near the stones forbidden: anything legal, the
        // centre first.
        let half = (board.size() / 2) as u8;
        let centre = board.point(game_core::Cell::new(half, half));
        if board.is_legal(centre, me) {
            out.push(centre);
        } else {
            out.extend(
                board
                    .points()
                    .iter()
                    .copied()
                    .filter(|&p| board.is_legal(p, me)),
            );
        }
    }
    Situation::Free
}

/// The moves to search for the side to move, best-looking first: [`forced_moves`] ranked by
/// [`move_score`], at most `limit` of them when nothing is forcing.
pub fn generate(board: &Board, tactics: bool, limit: usize, out: &mut Vec<Point>) {
    let start = out.len();
    let situation = forced_moves(board, tactics, out);
    let me = board.turn();
    sort_by_score(board, me, &mut out[start..]);
    if situation == Situation::Free {
        out.truncate(start + limit.max(1));
    }
}
