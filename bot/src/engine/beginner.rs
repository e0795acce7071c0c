//! A beginner for each game: simple rules and a little chance, no search. It is the yardstick
//! below level 1 (docs/engines.md, "Levels": level 1 loses to a beginner's simple play), not a
//! level of the engines. Given a seed it always plays the same way.
//!
//! - Gomoku: make five if it can, else stop the opponent's five, else the cell that best
//!   lengthens its own lines and cuts the opponent's, with a little noise.
//! - Othello: a corner if it can, never a square next to an empty corner unless it must, and
//!   otherwise the move that flips the most discs, chance among ties. (Flipping the most
//!   discs alone plays about as well as chance.)
//! - Connect Four: win now if it can, else block the opponent's four, else a random column
//!   weighted towards the centre.

use game_core::connect4::{has_four, BitSet, Bitboard, Column, ConnectFour};
use game_core::gomoku::Gomoku;
use game_core::othello::{Othello, OthelloMove};
use game_core::{AnyPosition, Cell, Color, GomokuRule, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Gomoku candidates lie at most this far from a stone.
const GOMOKU_REACH: i32 = 2;
/// Noise added to each Gomoku candidate's value: enough to vary equal-looking cells, too
/// little to overturn a three or a four.
const GOMOKU_JITTER: i32 = 8;
/// The line directions as (column, row) steps.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The beginner, with its own random numbers.
#[derive(Debug)]
pub struct Beginner {
    rng: StdRng,
}

impl Beginner {
    #[must_use]
    pub fn new(seed: u64) -> Beginner {
        Beginner {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The move in protocol notation; `None` once the game is over.
    pub fn choose(&mut self, position: &AnyPosition) -> Option<String> {
        match position {
            AnyPosition::Gomoku(p) => self.gomoku(p).map(|c| c.to_string()),
            AnyPosition::Othello(p) => self.othello(p).map(|m| m.to_string()),
            AnyPosition::Connect4(p) => self.connect4(p).map(|c| c.to_string()),
        }
    }

    /// A Gomoku move: five, else block five, else the best-looking cell near the stones.
    pub fn gomoku(&mut self, pos: &Gomoku) -> Option<Cell> {
        if pos.outcome().is_some() {
            return None;
        }
        let me = pos.turn();
        let candidates = gomoku_candidates(pos);
        if let Some(&five) = candidates.iter().find(|&&c| {
            pos.clone()
                .play(c)
                .is_ok_and(|after| after.outcome().and_then(|o| o.winner) == Some(me))
        }) {
            return Some(five);
        }
        if let Some(&block) = candidates.iter().find(|&&c| makes_five(pos, c, me.other())) {
            return Some(block);
        }
        let mut best: Option<(i32, Cell)> = None;
        for &cell in &candidates {
            // Its own lines count fully, cutting the opponent's a little less: a beginner
            // attacks first but does stop an open three.
            let value = line_value(pos, cell, me)
                + line_value(pos, cell, me.other()) * 9 / 10
                + self.rng.random_range(0..=GOMOKU_JITTER);
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, cell));
            }
        }
        best.map(|(_, cell)| cell)
    }

    /// An Othello move: a corner, else not next to an empty corner, and among those the most
    /// discs flipped, chance among ties; a pass when nothing else.
    pub fn othello(&mut self, pos: &Othello) -> Option<OthelloMove> {
        let moves = pos.legal_moves();
        let flipped = |m: &OthelloMove| match m {
            OthelloMove::Place(c) => pos
                .flips(u32::from(c.row) * 8 + u32::from(c.col))
                .count_ones(),
            OthelloMove::Pass => 0,
        };
        let corners: Vec<OthelloMove> = moves.iter().copied().filter(is_corner).collect();
        // The one thing every beginner soon learns: a corner is never lost again.
        let moves = if corners.is_empty() { moves } else { corners };
        // And the second: do not play next to an empty corner, unless there is nothing else.
        let safe: Vec<OthelloMove> = moves
            .iter()
            .copied()
            .filter(|m| !gives_corner(pos, m))
            .collect();
        let moves = if safe.is_empty() { moves } else { safe };
        let most = moves.iter().map(flipped).max()?;
        let greediest: Vec<OthelloMove> =
            moves.into_iter().filter(|m| flipped(m) == most).collect();
        Some(greediest[self.rng.random_range(0..greediest.len())])
    }

    /// A Connect Four move: win now, else block the opponent's four, else a random column,
    /// the centre ones more likely.
    pub fn connect4(&mut self, pos: &ConnectFour) -> Option<Column> {
        let columns = pos.legal_moves();
        let me = pos.turn();
        for color in [me, me.other()] {
            if let Some(&col) = columns.iter().find(|&&c| completes_four(pos, c, color)) {
                return Some(col);
            }
        }
        let cols = i32::from(pos.cols());
        let weight = |c: &Column| {
            let c = i32::from(c.0);
            c.min(cols - 1 - c) + 1
        };
        let total: i32 = columns.iter().map(weight).sum();
        if total == 0 {
            return None;
        }
        let mut pick = self.rng.random_range(0..total);
        for col in &columns {
            pick -= weight(col);
            if pick < 0 {
                return Some(*col);
            }
        }
        None
    }
}

/// Whether an Othello move takes a corner.
fn is_corner(m: &OthelloMove) -> bool {
    matches!(m, OthelloMove::Place(c) if (c.col == 0 || c.col == 7) && (c.row == 0 || c.row == 7))
}

/// Whether an Othello move lands next to (also diagonally) a corner that is still empty.
fn gives_corner(pos: &Othello, m: &OthelloMove) -> bool {
    let OthelloMove::Place(c) = m else {
        return false;
    };
    [(0u8, 0u8), (0, 7), (7, 0), (7, 7)]
        .iter()
        .any(|&(col, row)| {
            let corner = Cell::new(col, row);
            c.col.abs_diff(col) <= 1
                && c.row.abs_diff(row) <= 1
                && *c != corner
                && pos.get(corner).is_none()
        })
}

/// Empty legal cells within [`GOMOKU_REACH`] of a stone (the centre on an empty board).
fn gomoku_candidates(pos: &Gomoku) -> Vec<Cell> {
    let n = i32::from(pos.size());
    let stones: Vec<Cell> = pos.stones().map(|(c, _)| c).collect();
    if stones.is_empty() {
        let mid = pos.size() / 2;
        return vec![Cell::new(mid, mid)];
    }
    let mut near = vec![false; (n * n) as usize];
    for s in &stones {
        let (sc, sr) = (i32::from(s.col), i32::from(s.row));
        for r in (sr - GOMOKU_REACH).max(0)..=(sr + GOMOKU_REACH).min(n - 1) {
            for c in (sc - GOMOKU_REACH).max(0)..=(sc + GOMOKU_REACH).min(n - 1) {
                near[(r * n + c) as usize] = true;
            }
        }
    }
    let mut cells: Vec<Cell> = (0..n * n)
        .filter(|&i| near[i as usize])
        // Inside the board, so both fit in a u8.
        .map(|i| Cell::new((i % n) as u8, (i / n) as u8))
        .filter(|&c| pos.is_legal(c).is_ok())
        .collect();
    if cells.is_empty() {
        cells = pos.legal_moves();
    }
    cells
}

/// The unbroken run of `color` through `cell` along `(dc, dr)` if `color` stood on `cell`,
/// and how many of its two ends are open (empty and on the board).
fn run_through(pos: &Gomoku, cell: Cell, color: Color, (dc, dr): (i32, i32)) -> (i32, i32) {
    let n = i32::from(pos.size());
    let at = |c: i32, r: i32| -> Option<Option<Color>> {
        // On the board, so both fit in a u8.
        (c >= 0 && r >= 0 && c < n && r < n).then(|| pos.stone(Cell::new(c as u8, r as u8)))
    };
    let (c0, r0) = (i32::from(cell.col), i32::from(cell.row));
    let mut length = 1;
    let mut open = 0;
    for sign in [1, -1] {
        let (mut c, mut r) = (c0 + sign * dc, r0 + sign * dr);
        while at(c, r) == Some(Some(color)) {
            length += 1;
            c += sign * dc;
            r += sign * dr;
        }
        if at(c, r) == Some(None) {
            open += 1;
        }
    }
    (length, open)
}

/// Whether `color` playing `cell` would make a winning line under the position's rule.
fn makes_five(pos: &Gomoku, cell: Cell, color: Color) -> bool {
    let exact = match pos.rule() {
        GomokuRule::Freestyle => false,
        GomokuRule::Standard => true,
        GomokuRule::Renju => color == Color::Black,
    };
    DIRECTIONS.iter().any(|&d| {
        let (length, _) = run_through(pos, cell, color, d);
        if exact {
            length == 5
        } else {
            length >= 5
        }
    })
}

/// How good `cell` is for `color`'s lines: the runs it would make in each direction, the
/// longer and the more open, the better.
fn line_value(pos: &Gomoku, cell: Cell, color: Color) -> i32 {
    DIRECTIONS
        .iter()
        .map(|&d| match run_through(pos, cell, color, d) {
            (5.., _) => 10_000,
            (4, 2) => 1_000,
            (4, 1) => 200,
            (3, 2) => 150,
            (3, 1) => 30,
            (2, 2) => 20,
            (2, 1) => 6,
            (1, 2) => 2,
            (1, 1) => 1,
            _ => 0,
        })
        .sum()
}

/// Whether `color` dropping a stone in `col` would make four in a row.
fn completes_four(pos: &ConnectFour, col: Column, color: Color) -> bool {
    pos.landing_row(col).is_some_and(|row| {
        let bit = Bitboard::bit(pos.bit_index(Cell::new(col.0, row)));
        has_four(pos.stones(color) | bit, pos.stride())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &[&str]) -> Vec<Cell> {
        text.iter().map(|t| t.parse().expect("a cell")).collect()
    }

    fn gomoku(black: &[&str], white: &[&str]) -> Gomoku {
        Gomoku::from_stones(15, GomokuRule::Freestyle, &cells(black), &cells(white))
            .expect("a position")
    }

    #[test]
    fn gomoku_makes_five_rather_than_blocking() {
        // Black to move with four in a row open at h12; white has four too.
        let pos = gomoku(
            &["h8", "h9", "h10", "h11", "a1"],
            &["b2", "c2", "d2", "e2", "o15"],
        );
        assert_eq!(pos.turn(), Color::Black);
        for seed in 0..10 {
            let cell = Beginner::new(seed).gomoku(&pos).expect("a move");
            let after = pos.clone().play(cell).expect("a legal move");
            assert_eq!(after.outcome().and_then(|o| o.winner), Some(Color::Black));
        }
    }

    #[test]
    fn gomoku_blocks_a_four() {
        // White has four on row 2 closed at a2 by black: only f2 stops it.
        let pos = gomoku(&["h8", "a2", "j10", "n14"], &["b2", "c2", "d2", "e2"]);
        assert_eq!(pos.turn(), Color::Black);
        for seed in 0..10 {
            assert_eq!(Beginner::new(seed).gomoku(&pos), Some(cells(&["f2"])[0]));
        }
    }

    #[test]
    fn gomoku_blocks_an_open_three() {
        let pos = gomoku(&["a1", "o15", "a15"], &["g8", "h8", "i8"]);
        assert_eq!(pos.turn(), Color::Black);
        for seed in 0..10 {
            let cell = Beginner::new(seed).gomoku(&pos).expect("a move");
            assert!(cells(&["f8", "j8"]).contains(&cell), "{cell}");
        }
    }

    #[test]
    fn gomoku_opens_in_the_centre_and_stays_near_the_stones() {
        let empty = Gomoku::new(15, GomokuRule::Freestyle).expect("a board");
        assert_eq!(Beginner::new(1).gomoku(&empty), Some(cells(&["h8"])[0]));
        let pos = empty.play(cells(&["h8"])[0]).expect("a legal move");
        for seed in 0..10 {
            let cell = Beginner::new(seed).gomoku(&pos).expect("a move");
            assert!(
                cell.col.abs_diff(7) <= 2 && cell.row.abs_diff(7) <= 2,
                "{cell}"
            );
        }
    }

    #[test]
    fn othello_flips_the_most_discs() {
        // A few plies in, where the moves flip different numbers of discs.
        let mut pos = Othello::new();
        for m in ["f5", "d6", "c3", "d3"] {
            pos = pos.play(m.parse().expect("a move")).expect("a legal move");
        }
        let most = pos
            .legal_moves()
            .iter()
            .filter_map(|m| match m {
                OthelloMove::Place(c) => Some(pos.flips(u32::from(c.row) * 8 + u32::from(c.col))),
                OthelloMove::Pass => None,
            })
            .map(u64::count_ones)
            .max()
            .expect("moves");
        for seed in 0..10 {
            let Some(OthelloMove::Place(c)) = Beginner::new(seed).othello(&pos) else {
                panic!("no placement");
            };
            let flipped = pos
                .flips(u32::from(c.row) * 8 + u32::from(c.col))
                .count_ones();
            assert_eq!(flipped, most, "{c}");
        }
    }

    /// A board from eight rows, a1..h1 first; black to move.
    fn othello_rows(rows: [&str; 8]) -> Othello {
        Othello::from_text(&format!("{} X", rows.concat())).expect("a position")
    }

    #[test]
    fn othello_takes_a_corner_over_more_discs() {
        // a1 flips one disc, a4 flips five.
        let pos = othello_rows([
            "-OX-----", "--------", "--------", "-OOOOOX-", "--------", "--------", "--------",
            "--------",
        ]);
        for seed in 0..10 {
            let m = Beginner::new(seed).othello(&pos).expect("a move");
            assert_eq!(m.to_string(), "a1");
        }
    }

    #[test]
    fn othello_keeps_off_the_squares_next_to_an_empty_corner() {
        // b2 flips two discs but opens a1; a5 flips one.
        let pos = othello_rows([
            "--------", "--OOX---", "--------", "--------", "-OX-----", "--------", "--------",
            "--------",
        ]);
        for seed in 0..10 {
            let m = Beginner::new(seed).othello(&pos).expect("a move");
            assert_eq!(m.to_string(), "a5");
        }
    }

    #[test]
    fn othello_varies_among_equal_moves_and_stops_when_over() {
        let start = Othello::new();
        let firsts: std::collections::HashSet<String> = (0..20)
            .filter_map(|seed| Beginner::new(seed).othello(&start))
            .map(|m| m.to_string())
            .collect();
        assert!(firsts.len() > 1, "{firsts:?}");
        let full = format!("{} O", "X".repeat(64));
        let over = Othello::from_text(&full).expect("a position");
        assert_eq!(Beginner::new(0).othello(&over), None);
    }

    fn connect4(moves: &str) -> ConnectFour {
        let mut pos = ConnectFour::new(7, 6, &[]).expect("a board");
        for c in moves.chars() {
            pos = pos
                .play(c.to_string().parse().expect("a column"))
                .expect("a legal move");
        }
        pos
    }

    #[test]
    fn connect4_wins_now() {
        // Black has three in column 1 and white three in column 2: black takes the win.
        let pos = connect4("121212");
        for seed in 0..10 {
            assert_eq!(Beginner::new(seed).connect4(&pos), Some(Column(0)));
        }
    }

    #[test]
    fn connect4_blocks_an_immediate_loss() {
        // Black has 2-3-4 on the bottom row, open at both ends: white blocks one of them.
        let pos = connect4("27374");
        assert_eq!(pos.turn(), Color::White);
        for seed in 0..10 {
            let col = Beginner::new(seed).connect4(&pos).expect("a move");
            assert!(col == Column(0) || col == Column(4), "{col}");
        }
    }

    #[test]
    fn connect4_prefers_the_centre() {
        let empty = connect4("");
        let mut counts = [0; 7];
        let mut beginner = Beginner::new(3);
        for _ in 0..700 {
            let col = beginner.connect4(&empty).expect("a move");
            counts[usize::from(col.0)] += 1;
        }
        assert!(counts[3] > counts[0] * 2, "{counts:?}");
        assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
    }

    #[test]
    fn choose_answers_in_notation() {
        let mut beginner = Beginner::new(5);
        let pos = AnyPosition::Connect4(connect4("121212"));
        assert_eq!(beginner.choose(&pos).as_deref(), Some("1"));
    }
}
