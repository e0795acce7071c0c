//! Othello puzzles: endgames of 10 to 16 empty squares in which one move alone wins, proven by
//! the exact solver; the player then keeps the win for the puzzle's length (any move whose
//! exact result is still a win is accepted, the defender answering with his best).

use game_core::AnyPosition;

use super::proof::{NoProof, Prover};
use crate::engine::othello::solver::Solver;
use crate::engine::StopFlag;

/// The solver with its table, kept from position to position.
pub struct OthelloProver {
    solver: Solver,
}

impl Default for OthelloProver {
    fn default() -> Self {
        OthelloProver::new()
    }
}

impl OthelloProver {
    #[must_use]
    pub fn new() -> OthelloProver {
        let mut solver = Solver::new(20);
        solver.set_limits(&StopFlag::new(), None);
        OthelloProver { solver }
    }

    /// The exact final disc difference for the side to move.
    pub fn score(&mut self, pos: &AnyPosition) -> Result<i32, NoProof> {
        let AnyPosition::Othello(p) = pos else {
            return Err(NoProof::Unsuited);
        };
        if let Some(outcome) = pos.outcome() {
            let (black, white) = p.bitboards();
            let diff = black.count_ones() as i32 - white.count_ones() as i32;
            let _ = outcome;
            return Ok(if pos.turn() == game_core::Color::Black {
                diff
            } else {
                -diff
            });
        }
        let (mover, opponent) = p.mover_bitboards();
        self.solver
            .solve(mover, opponent)
            .map(|s| s.score)
            .ok_or(NoProof::Unknown)
    }

    /// The themes: `endgame`, `corner` when the winning move takes a corner, `parity` when it
    /// goes into a quadrant with an odd number of empty squares.
    #[must_use]
    pub fn themes(start: &AnyPosition, first: &str) -> Vec<String> {
        let mut themes = vec!["endgame".to_string()];
        if ["a1", "h1", "a8", "h8"].contains(&first) {
            themes.push("corner".into());
        }
        if let (AnyPosition::Othello(p), Ok(cell)) = (start, first.parse::<game_core::Cell>()) {
            let (black, white) = p.bitboards();
            let empty = !(black | white);
            let quadrant = |col: u8, row: u8| (col / 4, row / 4);
            let q = quadrant(cell.col, cell.row);
            let odd = (0..64u32)
                .filter(|&sq| empty >> sq & 1 == 1)
                .filter(|&sq| quadrant((sq % 8) as u8, (sq / 8) as u8) == q)
                .count()
                % 2
                == 1;
            if odd {
                themes.push("parity".into());
            }
        }
        themes
    }
}

impl Prover for OthelloProver {
    fn attacker_moves(&mut self, pos: &AnyPosition) -> Result<Vec<String>, NoProof> {
        if pos.must_pass() {
            return Err(NoProof::Unsuited);
        }
        Ok(pos.legal_moves())
    }

    fn defender_moves(&mut self, pos: &AnyPosition) -> Vec<String> {
        pos.legal_moves()
    }

    fn wins_within(&mut self, pos: &AnyPosition, _moves: u32) -> Result<Option<i32>, NoProof> {
        let score = self.score(pos)?;
        Ok((score > 0).then_some(-score))
    }

    fn won_after(&mut self, pos: &AnyPosition) -> Result<Option<i32>, NoProof> {
        let score = self.score(pos)?;
        Ok((score < 0).then_some(score))
    }
}
