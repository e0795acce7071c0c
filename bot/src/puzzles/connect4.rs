//! Connect Four puzzles: "win in N", proven by the exact solver. Every column is tried on both
//! sides; a win's length comes from the solver's score (a quicker win scores more).

use game_core::{AnyPosition, Color};

use super::proof::{NoProof, Prover};
use crate::engine::connect4::bitboard::{Board, Geometry};
use crate::engine::connect4::solver::{SolveBudget, Solver};

/// Nodes one solve may take; a position that needs more is not made a puzzle.
const SOLVE_NODES: u64 = 20_000_000;

/// The solver for standard-size boards (the puzzles' 7x6 fits 64 bits).
pub struct Connect4Prover {
    solver: Option<Solver<u64>>,
}

impl Default for Connect4Prover {
    fn default() -> Self {
        Connect4Prover::new()
    }
}

impl Connect4Prover {
    #[must_use]
    pub fn new() -> Connect4Prover {
        Connect4Prover { solver: None }
    }

    /// The exact score for the side to move and the stones down and playable cells.
    fn solve(&mut self, pos: &AnyPosition) -> Result<(i32, u32, u32), NoProof> {
        let AnyPosition::Connect4(p) = pos else {
            return Err(NoProof::Unsuited);
        };
        let geometry = Geometry::<u64>::of(p);
        let solver = self
            .solver
            .get_or_insert_with(|| Solver::new(geometry.clone(), 22));
        solver.set_geometry(&geometry);
        solver.set_budget(SolveBudget {
            max_nodes: Some(solver.nodes() + SOLVE_NODES),
            ..SolveBudget::default()
        });
        let board = Board::<u64>::of(p);
        let score = solver.solve(&board).ok_or(NoProof::Unknown)?;
        Ok((score, board.moves, geometry.playable))
    }

    /// The attacker's moves to his quickest win, if the side to move wins.
    pub fn win_length(&mut self, pos: &AnyPosition) -> Result<Option<u32>, NoProof> {
        let (score, stones, playable) = self.solve(pos)?;
        if score <= 0 {
            return Ok(None);
        }
        // A side that wins with its next stone, `n` stones down, scores (playable + 1 - n) / 2;
        // the attacker's j-th stone from here comes with `stones + 2(j - 1)` down.
        Ok(Some(((playable + 3 - stones) / 2) as i32 - score).map(|j| j as u32))
    }

    /// Whether `side` could drop a winning stone now (were it his move).
    fn threatens_now(pos: &AnyPosition, side: Color) -> bool {
        let AnyPosition::Connect4(p) = pos else {
            return false;
        };
        let g = Geometry::<u64>::of(p);
        let b = Board::<u64>::of(p);
        if pos.turn() == side {
            b.can_win_next(&g)
        } else {
            b.opponent_winning_cells(&g) & b.possible(&g) != 0
        }
    }

    /// The themes of a proven puzzle: `win`, and `zugzwang` when the defender's last reply of
    /// the main line was made under no threat to block, yet let the winning stone in.
    #[must_use]
    pub fn themes(start: &AnyPosition, line: &[String]) -> Vec<String> {
        let attacker = start.turn();
        let mut themes = vec!["win".to_string()];
        let mut pos = start.clone();
        let mut zugzwang = false;
        for (i, mv) in line.iter().enumerate() {
            if i % 2 == 1 && i + 1 == line.len() - 1 {
                zugzwang = !Self::threatens_now(&pos, attacker);
            }
            let _ = pos.play_str(mv);
        }
        if zugzwang {
            themes.push("zugzwang".into());
        }
        themes
    }
}

impl Prover for Connect4Prover {
    fn attacker_moves(&mut self, pos: &AnyPosition) -> Result<Vec<String>, NoProof> {
        Ok(pos.legal_moves())
    }

    fn defender_moves(&mut self, pos: &AnyPosition) -> Vec<String> {
        pos.legal_moves()
    }

    fn wins_within(&mut self, pos: &AnyPosition, moves: u32) -> Result<Option<i32>, NoProof> {
        Ok(self
            .win_length(pos)?
            .filter(|&j| j <= moves)
            .map(|j| j as i32))
    }
}
