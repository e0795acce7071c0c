//! The exact Connect Four solver, after Pascal Pons' design: negamax on copied bitboards,
//! null-window searches that bisect the score range, a compact transposition table of score
//! bounds, moves that create the most winning cells first (centre first on ties), immediate
//! wins seen one move ahead, and only non-losing moves searched.
//!
//! # Scores
//! The convention of the public test sets (docs/engines.md): 0 for a draw; a win whose last stone
//! is played when `n` stones are down scores `(playable + 1 - n) / 2` for the winner, the
//! negative for the loser — a quicker win scores more. `playable` counts the cells that are
//! not blocked.
//!
//! # Search contract
//! `negamax(board, alpha, beta)`, with `alpha < beta` and a side to move that cannot win with
//! its next stone, returns the exact score `v` if `alpha < v < beta`, a value `r` with
//! `v <= r <= alpha` if `v <= alpha`, and `r` with `beta <= r <= v` if `v >= beta`. The
//! table stores the result as an upper bound when it failed low or was exact and as a lower
//! bound when it failed high.

use std::time::Instant;

use super::bitboard::{column_of_cell, Bits, Board, Geometry};
use super::table::{SolverTable, StoredBound};
use crate::engine::StopFlag;

/// When a solve must give up.
#[derive(Clone, Debug, Default)]
pub struct SolveBudget {
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    pub stop: StopFlag,
}

/// Moves of one node with their ordering scores, sorted best first. A fixed array: no
/// allocation in the solver's inner loop.
struct OrderedMoves<B> {
    cells: [(B, u32); 12],
    len: usize,
}

impl<B: Bits> OrderedMoves<B> {
    fn new() -> OrderedMoves<B> {
        OrderedMoves {
            cells: [(B::ZERO, 0); 12],
            len: 0,
        }
    }

    /// Inserts keeping the order; among equal scores the earlier added stays first, so
    /// adding in centre-first order breaks ties towards the centre.
    #[inline]
    fn add(&mut self, cell: B, score: u32) {
        let mut i = self.len;
        while i > 0 && self.cells[i - 1].1 < score {
            self.cells[i] = self.cells[i - 1];
            i -= 1;
        }
        self.cells[i] = (cell, score);
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = B> + '_ {
        self.cells[..self.len].iter().map(|&(cell, _)| cell)
    }
}

/// The exact solver for one board geometry; keeps its table between solves of that board.
pub struct Solver<B> {
    geometry: Geometry<B>,
    state: SolverState,
}

/// What the search changes, apart from the geometry it reads (so both can be borrowed at
/// once without copying the geometry at every node).
struct SolverState {
    table: SolverTable,
    nodes: u64,
    budget: SolveBudget,
    aborted: bool,
}

impl SolverState {
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if !self.aborted && self.nodes & 4095 == 0 {
            let late = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
            let spent = self.budget.max_nodes.is_some_and(|n| self.nodes >= n);
            self.aborted = late || spent || self.budget.stop.is_stopped();
        }
        self.aborted
    }
}

impl<B: Bits> Solver<B> {
    /// A solver for `geometry` with a table of about `2^table_bits` entries (5 bytes each).
    #[must_use]
    pub fn new(geometry: Geometry<B>, table_bits: u32) -> Solver<B> {
        Solver {
            geometry,
            state: SolverState {
                table: SolverTable::new(table_bits),
                nodes: 0,
                budget: SolveBudget::default(),
                aborted: false,
            },
        }
    }

    #[must_use]
    pub fn geometry(&self) -> &Geometry<B> {
        &self.geometry
    }

    /// Switches to another board; the table is emptied if the board changes.
    pub fn set_geometry(&mut self, geometry: &Geometry<B>) {
        if self.geometry != *geometry {
            self.geometry = geometry.clone();
            self.state.table.clear();
        }
    }

    /// Forgets every stored bound (for searches that must repeat node for node).
    pub fn clear(&mut self) {
        self.state.table.clear();
    }

    pub fn set_budget(&mut self, budget: SolveBudget) {
        self.state.budget = budget;
        self.state.aborted = false;
    }

    /// Nodes visited since the solver was made (the caller takes differences).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.state.nodes
    }

    /// The exact score of a position that is not over, or `None` if the budget ran out.
    pub fn solve(&mut self, board: &Board<B>) -> Option<i32> {
        let g = &self.geometry;
        let (playable, n) = (g.playable as i32, board.moves as i32);
        if board.last_mover_won(g) {
            return Some(-(playable + 2 - n) / 2);
        }
        if n >= playable {
            return Some(0);
        }
        if board.can_win_next(g) {
            return Some((playable + 1 - n) / 2);
        }
        let mut min = -(playable - n) / 2;
        let mut max = (playable + 1 - n) / 2;
        while min < max {
            // Bisect, but probe near zero first: most positions are close to a draw and
            // windows near zero are cheaper than the midpoint of a wide range.
            let mut mid = min + (max - min) / 2;
            if mid <= 0 && min / 2 < mid {
                mid = min / 2;
            } else if mid >= 0 && max / 2 > mid {
                mid = max / 2;
            }
            let r = negamax(&self.geometry, &mut self.state, *board, mid, mid + 1);
            if self.state.aborted {
                return None;
            }
            if r <= mid {
                max = r;
            } else {
                min = r;
            }
        }
        Some(min)
    }
}

fn negamax<B: Bits>(
    g: &Geometry<B>,
    state: &mut SolverState,
    board: Board<B>,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    debug_assert!(alpha < beta);
    state.nodes += 1;
    if state.out_of_budget() {
        return alpha;
    }
    let (playable, n) = (g.playable as i32, board.moves as i32);
    let next = board.non_losing_moves(g);
    if next.is_zero() {
        // Whatever we play, the opponent wins with the next stone.
        return -(playable - n) / 2;
    }
    if n >= playable - 2 {
        // Our stone cannot win (checked one move earlier) and the opponent's last one cannot
        // either (we did not leave it a winning cell).
        return 0;
    }
    // The opponent cannot win with its next stone, nor we with this one.
    let min = -(playable - 2 - n) / 2;
    if alpha < min {
        alpha = min;
        if alpha >= beta {
            return alpha;
        }
    }
    let max = (playable - 1 - n) / 2;
    if beta > max {
        beta = max;
        if alpha >= beta {
            return beta;
        }
    }
    let key = board.key(g).digest();
    match state.table.get(key) {
        Some(StoredBound::Upper(v)) if v < beta => {
            beta = v;
            if alpha >= beta {
                return beta;
            }
        }
        Some(StoredBound::Lower(v)) if v > alpha => {
            alpha = v;
            if alpha >= beta {
                return alpha;
            }
        }
        _ => {}
    }
    let mut moves = OrderedMoves::new();
    for &col in g.center_columns() {
        let cell = next & g.columns[usize::from(col)];
        if !cell.is_zero() {
            moves.add(cell, board.threats_after(g, cell));
        }
    }
    for cell in moves.iter() {
        let mut child = board;
        child.play(cell);
        let score = -negamax(g, state, child, -beta, -alpha);
        if state.aborted {
            return alpha;
        }
        if score >= beta {
            state.table.put(key, StoredBound::Lower(score));
            return score;
        }
        alpha = alpha.max(score);
    }
    state.table.put(key, StoredBound::Upper(alpha));
    alpha
}

impl<B: Bits> Solver<B> {
    /// A column that achieves `score`, the exact score of `board` (a position not over).
    /// `None` if the budget ran out.
    pub fn best_column(&mut self, board: &Board<B>, score: i32) -> Option<u32> {
        let g = &self.geometry;
        let possible = board.possible(g);
        let wins = board.winning_cells(g) & possible;
        if !wins.is_zero() {
            return Some(column_of_cell(g, B::bit(wins.trailing_zeros())));
        }
        let next = board.non_losing_moves(g);
        if next.is_zero() {
            // Lost anyway: block one threat if there is one, else the most central column.
            let threats = board.opponent_winning_cells(g) & possible;
            let pick = if threats.is_zero() { possible } else { threats };
            let col = g
                .center_columns()
                .iter()
                .map(|&c| u32::from(c))
                .find(|&c| !(pick & g.columns[c as usize]).is_zero());
            return col;
        }
        let mut moves = OrderedMoves::new();
        for &col in g.center_columns() {
            let cell = next & g.columns[usize::from(col)];
            if !cell.is_zero() {
                moves.add(cell, board.threats_after(g, cell));
            }
        }
        let playable = g.playable as i32;
        if moves.len == 1 {
            return Some(column_of_cell(g, moves.cells[0].0));
        }
        let candidates: Vec<B> = moves.iter().collect();
        for cell in candidates {
            let mut child = board.to_owned();
            child.play(cell);
            let g = &self.geometry;
            let col = column_of_cell(g, cell);
            if child.moves >= playable as u32 {
                if score <= 0 {
                    return Some(col);
                }
                continue;
            }
            // The child's value is at most -score exactly when this move keeps `score`.
            let r = negamax(&self.geometry, &mut self.state, child, -score, -score + 1);
            if self.state.aborted {
                return None;
            }
            if r <= -score {
                return Some(col);
            }
        }
        None
    }

    /// The best line from `board` (exact score `score`), up to `max_len` moves.
    pub fn principal_variation(
        &mut self,
        board: &Board<B>,
        mut score: i32,
        max_len: usize,
    ) -> Vec<u32> {
        let mut line = Vec::new();
        let mut board = *board;
        while line.len() < max_len && board.moves < self.geometry.playable {
            let Some(col) = self.best_column(&board, score) else {
                break;
            };
            let Some(cell) = board.landing(&self.geometry, col) else {
                break;
            };
            line.push(col);
            let won = !(board.winning_cells(&self.geometry) & cell).is_zero();
            board.play(cell);
            if won {
                break;
            }
            score = -score;
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use game_core::connect4::{parse_move_string, ConnectFour, WideBits};
    use game_core::{Cell, Position};
    use proptest::prelude::*;

    use super::*;

    /// The exact score by plain memoised minimax over game-core's positions: slow, simple,
    /// and independent of the bitboard code.
    fn brute_force(p: &ConnectFour, memo: &mut HashMap<ConnectFour, i32>) -> i32 {
        if let Some(&v) = memo.get(p) {
            return v;
        }
        let playable = i32::from(p.cols()) * i32::from(p.rows()) - p.blocked().len() as i32;
        let n = p.ply() as i32;
        let mut best = i32::MIN;
        for m in p.legal_moves() {
            let q = p.clone().play(m).unwrap();
            let v = match q.outcome() {
                Some(o) if o.winner.is_some() => (playable + 1 - n) / 2,
                Some(_) => 0,
                None => -brute_force(&q, memo),
            };
            best = best.max(v);
        }
        memo.insert(p.clone(), best);
        best
    }

    fn solve_with<B: Bits>(p: &ConnectFour) -> i32 {
        let g: Geometry<B> = Geometry::of(p);
        let board: Board<B> = Board::of(p);
        let mut solver = Solver::new(g, 12);
        let score = solver.solve(&board).unwrap();
        // The best move keeps the score.
        let col = solver.best_column(&board, score).unwrap();
        let next = p
            .clone()
            .play(game_core::connect4::Column(col as u8))
            .unwrap();
        let after = match next.outcome() {
            Some(o) if o.winner.is_some() => score,
            Some(_) => 0,
            None => -solver.solve(&Board::of(&next)).unwrap(),
        };
        assert_eq!(after, score, "best column {col} of {}", p.to_board_text());
        score
    }

    fn position(cols: u8, rows: u8, blocked: &[Cell], moves: &str) -> ConnectFour {
        let mut p = ConnectFour::new(cols, rows, blocked).unwrap();
        for m in parse_move_string(moves, cols).unwrap() {
            p = p.play(m).unwrap();
        }
        p
    }

    #[test]
    fn solves_whole_small_boards_like_brute_force() {
        for blocked in [
            vec![],
            vec![Cell::new(1, 0)],
            vec![Cell::new(2, 2), Cell::new(0, 3)],
        ] {
            let p = position(4, 4, &blocked, "");
            let expected = brute_force(&p, &mut HashMap::new());
            assert_eq!(solve_with::<u64>(&p), expected, "4x4 {blocked:?}");
            assert_eq!(solve_with::<WideBits>(&p), expected, "4x4 {blocked:?}");
        }
    }

    #[test]
    fn solves_written_seven_by_six_endgames() {
        // Endings written for this test (random play that never leaves a win in one), 13
        // cells left; the scores come from the brute force, which checks them again here.
        for (moves, score) in [
            ("25777131474464721445661723361", -6),
            ("25523541517434274676456724677", 1),
            ("47577445522754752143225176666", -5),
            ("34434244477327213332756575525", 0),
            ("21643224644434333713722251667", -2),
        ] {
            let p = position(7, 6, &[], moves);
            assert_eq!(solve_with::<u64>(&p), score, "{moves}");
            assert_eq!(brute_force(&p, &mut HashMap::new()), score, "{moves}");
        }
    }

    /// A random position with at most `empties` empty cells that is not over (or with
    /// more, if every continuation ends the game).
    fn random_position(
        cols: u8,
        rows: u8,
        blocked: &[Cell],
        picks: &[u8],
        empties: usize,
    ) -> ConnectFour {
        let mut p = ConnectFour::new(cols, rows, blocked).unwrap();
        let playable = usize::from(cols) * usize::from(rows) - p.blocked().len();
        for &pick in picks.iter().cycle() {
            if playable - p.ply() <= empties {
                break;
            }
            let moves = p.legal_moves();
            let start = usize::from(pick) % moves.len();
            let next = (0..moves.len())
                .map(|i| p.clone().play(moves[(start + i) % moves.len()]).unwrap())
                .find(|q| !q.is_over());
            match next {
                Some(q) => p = q,
                None => break,
            }
        }
        p
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn agrees_with_brute_force_on_random_small_positions(
            cols in 4u8..=6, rows in 4u8..=5,
            blocked in proptest::collection::vec((0u8..6, 0u8..5), 0..3),
            picks in proptest::collection::vec(0u8..12, 1..30),
        ) {
            let mut cells: Vec<Cell> =
                blocked.iter().map(|&(c, r)| Cell::new(c % cols, r % rows)).collect();
            cells.sort();
            cells.dedup();
            let p = random_position(cols, rows, &cells, &picks, 14);
            let expected = brute_force(&p, &mut HashMap::new());
            prop_assert_eq!(solve_with::<u64>(&p), expected);
            prop_assert_eq!(solve_with::<u128>(&p), expected);
        }
    }
}
