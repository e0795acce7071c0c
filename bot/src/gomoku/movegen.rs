//! Move generation: the empty points near stones ranked by what they make for both colours,
//! and the forced replies — a five when there is one, the block of the opponent's four, and
//! against an open three only its defence points or a four of our own.
//!
//! Black's forbidden points (renju) are never generated.

use super::board::{Board, Point};
use super::pattern::{slot, Pattern, BLOCKED_DIGIT, POW3, REACH};

/// How a point ranks for the side `me` to move: attack first, then defence.
#[must_use]
pub fn move_score(board: &Board, p: Point, me: usize) -> i32 {
    board.value(p, me) * 5 / 4 + board.value(p, 1 - me)
}

/// The points sorted by [`move_score`], best first; ties keep the given order.
pub fn sort_by_score(board: &Board, me: usize, points: &mut [Point]) {
    points.sort_by_cached_key(|&p| std::cmp::Reverse(move_score(board, p, me)));
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

/// The legal points where `v` makes a four (a five-point for the next move), appended to
/// `out` without repeats.
pub fn four_moves(board: &Board, v: usize, out: &mut Vec<Point>) {
    for p in board.summary(v).fours.iter() {
        if !out.contains(&p) && board.is_legal(p, v) {
            out.push(p);
        }
    }
}

/// The moves to search for the side to move, best-looking first.
///
/// - A five-point of ours: that move alone.
/// - A four of theirs: the block (if black cannot block in renju, the game is lost anyway
///   and any move does).
/// - With `tactics`, an open three of theirs: its defence points and our fours.
/// - Else the empty points within two of a stone, ranked, at most `limit` of them.
pub fn generate(board: &Board, tactics: bool, limit: usize, out: &mut Vec<Point>) {
    let me = board.turn();
    let them = 1 - me;
    if let Some(p) = board.summary(me).fives.iter().next() {
        out.push(p);
        return;
    }
    let start = out.len();
    for p in board.summary(them).fives.iter() {
        if board.is_legal(p, me) {
            out.push(p);
        }
    }
    if out.len() > start {
        return;
    }
    if tactics {
        let threats = open_four_points(board, them);
        if !threats.is_empty() {
            let mut replies = Vec::new();
            defence_points(board, me, &threats, &mut replies);
            four_moves(board, me, &mut replies);
            if !replies.is_empty() {
                sort_by_score(board, me, &mut replies);
                out.extend(replies);
                return;
            }
        }
    }
    let mut candidates: Vec<Point> = board
        .points()
        .iter()
        .copied()
        .filter(|&p| board.is_empty(p) && board.near(p) > 0 && board.is_legal(p, me))
        .collect();
    if candidates.is_empty() {
        // An empty board, or every point near the stones forbidden: anything legal, the
        // centre first.
        let half = (board.size() / 2) as u8;
        let centre = board.point(game_core::Cell::new(half, half));
        if board.is_legal(centre, me) {
            candidates.push(centre);
        } else {
            candidates.extend(
                board
                    .points()
                    .iter()
                    .copied()
                    .filter(|&p| board.is_legal(p, me)),
            );
        }
    }
    sort_by_score(board, me, &mut candidates);
    candidates.truncate(limit.max(1));
    out.extend(candidates);
}
