//! Connect Four as a [`SearchGame`] for the shared heuristic search: move generation with
//! forced moves (win now, else block, else never play under an opponent's winning cell),
//! ordering by the threats a move makes, and the exact solver as the `probe` once few cells
//! are left.

use super::bitboard::{mix64, Bits, Board, Geometry};
use super::eval::{evaluate, EvalTables};
use super::solver::Solver;
use crate::engine::search::SearchGame;
use crate::engine::value::WIN;

/// A game being searched.
pub struct SearchedGame<'a, B> {
    pub geometry: &'a Geometry<B>,
    pub tables: &'a EvalTables<B>,
    pub board: Board<B>,
    history: Vec<Board<B>>,
    solver: &'a mut Solver<B>,
    /// The solver answers at nodes with at most this many empty cells (0: never).
    solve_below: u32,
    /// Generate only forced moves when there are some (win, block, not under a threat).
    forced_moves: bool,
}

impl<'a, B: Bits> SearchedGame<'a, B> {
    #[must_use]
    pub fn new(
        geometry: &'a Geometry<B>,
        tables: &'a EvalTables<B>,
        board: Board<B>,
        solver: &'a mut Solver<B>,
        solve_below: u32,
        forced_moves: bool,
    ) -> SearchedGame<'a, B> {
        SearchedGame {
            geometry,
            tables,
            board,
            history: Vec::new(),
            solver,
            solve_below,
            forced_moves,
        }
    }

    /// The cells to search from here, before ordering.
    fn candidates(&self) -> B {
        let g = self.geometry;
        let possible = self.board.possible(g);
        if !self.forced_moves || possible.is_zero() {
            return possible;
        }
        let wins = self.board.winning_cells(g) & possible;
        if !wins.is_zero() {
            return B::bit(wins.trailing_zeros());
        }
        let safe = self.board.non_losing_moves(g);
        if safe.is_zero() {
            // Lost in one whatever we do: still pick among all moves (a block first).
            possible
        } else {
            safe
        }
    }
}

/// An exact test-set score of a node (`moves` stones down) as a search score at `ply`:
/// the win's distance in plies comes back from the score, whose winning stone has the
/// parity of its player.
#[must_use]
pub fn exact_to_search(score: i32, moves: u32, playable: u32, ply: u32) -> i32 {
    if score == 0 {
        return 0;
    }
    let (moves, playable) = (moves as i32, playable as i32);
    // Stones down before the winning stone: the winner's own turn, so the parity of
    // `moves` for a win of the side to move, the other for a loss.
    let winner_parity = if score > 0 { moves } else { moves + 1 };
    let s = score.abs();
    let n = if (playable + 1 - 2 * s - winner_parity) % 2 == 0 {
        playable + 1 - 2 * s
    } else {
        playable - 2 * s
    };
    let plies = ply as i32 + n - moves + 1;
    if score > 0 {
        WIN - plies
    } else {
        -(WIN - plies)
    }
}

/// The test-set score of a proven search score at the root (`moves` stones down).
#[must_use]
pub fn search_to_exact(score: i32, moves: u32, playable: u32) -> i32 {
    let plies = WIN - score.abs();
    let n = moves as i32 + plies - 1;
    let s = (playable as i32 + 1 - n) / 2;
    if score > 0 {
        s
    } else {
        -s
    }
}

impl<B: Bits> SearchGame for SearchedGame<'_, B> {
    type Move = u8;

    fn hash(&self) -> u64 {
        // Offset so that no position's hash is 0 (the shared table's empty key).
        mix64(self.board.key(self.geometry).digest()).max(1)
    }

    fn generate(&self, moves: &mut Vec<u8>) {
        let g = self.geometry;
        let cells = self.candidates();
        let start = moves.len();
        let mut scored: Vec<(u8, u32)> = Vec::with_capacity(g.cols as usize);
        for &col in g.center_columns() {
            let cell = cells & g.columns[usize::from(col)];
            if !cell.is_zero() {
                scored.push((col, self.board.threats_after(g, cell)));
            }
        }
        // Stable: the centre stays first among moves that make as many threats.
        scored.sort_by_key(|&(_, threats)| std::cmp::Reverse(threats));
        moves.extend(scored.iter().map(|&(col, _)| col));
        debug_assert!(moves.len() > start || self.board.possible(g).is_zero());
    }

    fn play(&mut self, col: u8) {
        self.history.push(self.board);
        if let Some(cell) = self.board.landing(self.geometry, u32::from(col)) {
            self.board.play(cell);
        }
    }

    fn undo(&mut self, _col: u8) {
        if let Some(board) = self.history.pop() {
            self.board = board;
        }
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        if self.board.last_mover_won(self.geometry) {
            Some(-WIN + ply as i32)
        } else if self.board.moves >= self.geometry.playable {
            Some(0)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        evaluate(self.geometry, self.tables, &self.board)
    }

    fn move_code(&self, col: u8) -> u32 {
        u32::from(col)
    }

    fn notation(&self, col: u8) -> String {
        (u32::from(col) + 1).to_string()
    }

    fn probe(
        &mut self,
        _depth: i32,
        ply: u32,
        _alpha: i32,
        _beta: i32,
        nodes: &mut u64,
    ) -> Option<i32> {
        if self.board.empties(self.geometry) > self.solve_below {
            return None;
        }
        let before = self.solver.nodes();
        let score = self.solver.solve(&self.board);
        *nodes += self.solver.nodes() - before;
        // An exact value holds for any window.
        Some(exact_to_search(
            score?,
            self.board.moves,
            self.geometry.playable,
            ply,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_scores_convert_to_distances_and_back() {
        // 7x6, 20 stones down, side to move wins with its next stone: n = 20.
        assert_eq!(exact_to_search(11, 20, 42, 0), WIN - 1);
        assert_eq!(search_to_exact(WIN - 1, 20, 42), 11);
        // Wins with its second stone from now (n = 22): score 10, three plies.
        assert_eq!(exact_to_search(10, 20, 42, 2), WIN - 5);
        assert_eq!(search_to_exact(WIN - 3, 20, 42), 10);
        // Loses to the opponent's next stone (n = 21): score -(43 - 21) / 2 = -11.
        assert_eq!(exact_to_search(-11, 20, 42, 0), -(WIN - 2));
        assert_eq!(search_to_exact(-(WIN - 2), 20, 42), -11);
        // Odd number of playable cells (a blocked cell): 41, 21 stones down.
        // A win takes an odd number of plies, a loss an even one.
        for k in 0..10 {
            let win = WIN - (2 * k + 1);
            let exact = search_to_exact(win, 21, 41);
            assert_eq!(exact_to_search(exact, 21, 41, 0), win, "{k}");
            let loss = -(WIN - (2 * k + 2));
            let exact = search_to_exact(loss, 21, 41);
            assert_eq!(exact_to_search(exact, 21, 41, 0), loss, "{k}");
        }
        assert_eq!(exact_to_search(0, 10, 42, 3), 0);
    }
}
