//! The static evaluation of the heuristic search: winning cells ("threats": an empty cell
//! that completes four) weighed by the zugzwang parity that decides most Connect Four
//! endings, plus control of the cells that lie on the most lines (the centre).
//!
//! # Parity
//! When the board fills up, each column is filled in turn and the player who moved first
//! tends to get the odd cells of a column (counting playable cells from the bottom) and the
//! second player the even ones. A threat on a cell of one's own parity is therefore worth
//! much more than another: the opponent is eventually forced to play under it. Two threats
//! of one player on consecutive cells of a column win outright once the lower one is
//! reachable. Blocked cells are left out of the count, which generalises the rule of the
//! classic 7x6 board (odd rows for the first player) to any board.

use super::bitboard::{winning_cells, Bits, Board, Geometry};
use super::params::{GOOD_THREAT, LINE_WEIGHT, OTHER_THREAT, STACKED_THREATS, TEMPO};

/// Masks precomputed for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalTables<B> {
    /// `(lines, cells)`: the cells that lie on that many possible fours.
    layers: Vec<(i32, B)>,
    /// Playable cells of odd rank in their column (1st, 3rd, … from the bottom).
    odd_cells: B,
}

impl<B: Bits> EvalTables<B> {
    #[must_use]
    pub fn of(g: &Geometry<B>) -> EvalTables<B> {
        let (cols, rows) = (g.cols as i32, g.rows as i32);
        let stride = g.stride();
        let bit = |c: i32, r: i32| (c as u32) * stride + r as u32;
        let open = |c: i32, r: i32| {
            (0..cols).contains(&c) && (0..rows).contains(&r) && !g.blocked.has(bit(c, r))
        };
        let mut lines = vec![0; (cols * rows) as usize];
        for c in 0..cols {
            for r in 0..rows {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> = (0..4).map(|k| (c + dc * k, r + dr * k)).collect();
                    if cells.iter().all(|&(c, r)| open(c, r)) {
                        for (c, r) in cells {
                            lines[(c * rows + r) as usize] += 1;
                        }
                    }
                }
            }
        }
        let mut layers: Vec<(i32, B)> = Vec::new();
        let mut odd_cells = B::ZERO;
        for c in 0..cols {
            let mut rank = 0;
            for r in 0..rows {
                if !open(c, r) {
                    continue;
                }
                rank += 1;
                let cell = B::bit(bit(c, r));
                if rank % 2 == 1 {
                    odd_cells |= cell;
                }
                let n = lines[(c * rows + r) as usize];
                if n == 0 {
                    continue;
                }
                match layers.iter_mut().find(|(k, _)| *k == n) {
                    Some((_, mask)) => *mask |= cell,
                    None => layers.push((n, cell)),
                }
            }
        }
        layers.sort_by_key(|&(n, _)| n);
        EvalTables { layers, odd_cells }
    }
}

/// The value of `board` for the side to move, in points (a threat of the right parity is
/// about 90). The side to move cannot have won already; immediate wins are the search's.
#[must_use]
pub fn evaluate<B: Bits>(g: &Geometry<B>, t: &EvalTables<B>, board: &Board<B>) -> i32 {
    let current = board.current;
    let opponent = board.opponent();
    let mut score = TEMPO;
    for &(lines, cells) in &t.layers {
        let diff = (current & cells).count_ones() as i32 - (opponent & cells).count_ones() as i32;
        score += LINE_WEIGHT * lines * diff;
    }
    let empty = board.empty(g);
    let stride = g.stride();
    let mine = winning_cells(current, stride, empty);
    let theirs = winning_cells(opponent, stride, empty);
    // The player who moved first made the stones with an even count before them.
    let first_to_move = board.moves.is_multiple_of(2);
    let (my_parity, their_parity) = if first_to_move {
        (t.odd_cells, g.layout.board & !t.odd_cells)
    } else {
        (g.layout.board & !t.odd_cells, t.odd_cells)
    };
    score += threat_value(g, mine, theirs, my_parity);
    score -= threat_value(g, theirs, mine, their_parity);
    score
}

/// What `threats` are worth to their owner; a threat above one of the opponent's in the
/// same column is mostly dead (the opponent's comes first), so it counts as "other".
fn threat_value<B: Bits>(g: &Geometry<B>, threats: B, against: B, parity: B) -> i32 {
    if threats.is_zero() {
        return 0;
    }
    // Cells strictly above some opponent threat in their column.
    let mut shadowed = B::ZERO;
    let mut above = against << 1;
    for _ in 1..g.rows {
        shadowed |= above;
        above = above << 1;
    }
    shadowed &= g.layout.board;
    let live = threats & !shadowed;
    let good = (live & parity).count_ones() as i32;
    let other = threats.count_ones() as i32 - good;
    let stacked = (threats & g.cells_under(threats)).count_ones() as i32;
    GOOD_THREAT * good + OTHER_THREAT * other + STACKED_THREATS * stacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::connect4::{parse_move_string, ConnectFour};
    use game_core::Position;

    fn eval_of(moves: &str) -> i32 {
        let mut p = ConnectFour::new(7, 6, &[]).unwrap();
        for m in parse_move_string(moves, 7).unwrap() {
            p = p.play(m).unwrap();
        }
        let g: Geometry<u64> = Geometry::of(&p);
        evaluate(&g, &EvalTables::of(&g), &Board::of(&p))
    }

    #[test]
    fn centre_lines_and_threats_count() {
        let g: Geometry<u64> = Geometry::of(&ConnectFour::new(7, 6, &[]).unwrap());
        let t = EvalTables::of(&g);
        // The classic table: 3 lines in a corner, 13 on the centre cells of rows 3 and 4.
        assert_eq!(t.layers.first().map(|l| l.0), Some(3));
        assert_eq!(t.layers.last().map(|l| l.0), Some(13));
        // White to move after a centre stone is worse off than after an edge stone.
        assert!(eval_of("4") < eval_of("1"));
        // Black's open three on the bottom row (two winning cells) is lost for white.
        assert!(eval_of("31415") < -150, "{}", eval_of("31415"));
    }
}
