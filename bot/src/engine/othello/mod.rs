//! The Othello engine: the shared midgame search over a (mover, opponent) bitboard pair with
//! a learnt pattern evaluation ([`eval`]), and an exact endgame solver that takes over near
//! the end — at the root when the whole rest of the game fits in the time, and inside the
//! midgame search (through `SearchGame::probe`) for the nodes with few empties.
//!
//! - [`bitboard`]: fast flips and move generation.
//! - [`board`]: the bitboard position, square masks, its key, the final score.
//! - [`game`]: the position as the shared search's `SearchGame`, with exact solving inside.
//! - [`levels`]: what each level may do.
//! - [`patterns`]: the evaluation's patterns and the board's symmetries.
//! - [`weights`]: the learnt weights and their file.
//! - [`eval`]: the midgame evaluation: learnt pattern weights.
//! - [`heuristic`]: the hand-written evaluation the first self-play games use.
//! - [`midgame`]: a small fixed-depth search over an evaluation.
//! - [`selfplay`]: self-play games labelled for training.
//! - [`training`]: fitting the weights to labelled positions.
//! - [`stability`]: discs that can never flip.
//! - [`solver`]: the exact endgame search.
//! - [`params`]: the tuned parameters of the solver and the exact probes.
//! - [`last_flip`]: the flips of the last move, counted without making it.
//!
//! # Levels
//! Level 10 searches as deep as the time allows and solves the endgame exactly as soon as
//! the time given is likely to be enough. Lower levels cap the depth and the exact endgame
//! and add evaluation noise; level 1 looks one move ahead through heavy noise. From level 3
//! up, a move that ends the game with a win is always taken and a move that lets the
//! opponent end the game with a win is avoided when another move does not (checked before
//! the search).
//!
//! # Determinism
//! With `SearchLimits::Depth` or `SearchLimits::Nodes` both tables are cleared at the start,
//! so the same position, limits, level and seed give the same move, score and node count.

pub mod bitboard;
pub mod board;
pub mod eval;
pub mod game;
pub mod heuristic;
pub mod last_flip;
pub mod levels;
pub mod midgame;
pub mod params;
pub mod patterns;
pub mod selfplay;
pub mod solver;
pub mod stability;
#[cfg(test)]
mod test_support;
pub mod training;
pub mod weights;

use std::time::Instant;

use game_core::othello::{legal_mask, Othello};
use game_core::{AnyPosition, Position};

use crate::engine::search::{SearchBudget, Searcher};
use crate::engine::{Engine, Score, SearchLimits, SearchRequest, SearchResult};
use board::{after_move, final_score, game_over, square_name, PASS};
use game::{search_to_exact, Game};
use levels::{solvable_empties, solvable_empties_in_nodes, LevelSettings};
use params::PROBE_SLACK;
use solver::{Solution, Solver};

/// Table sizes (entries of 24 bytes): 12 MB for the midgame search, 24 MB for the solver,
/// where most of the time of a strong game goes.
const SEARCH_TT_BITS: u32 = 19;
const SOLVER_TT_BITS: u32 = 20;

/// Reads an Othello position in the FFO text format (docs/engines.md): 64 squares a1..h8, a
/// space, the side to move; the rest of the line is ignored.
pub fn parse_position(line: &str) -> Result<AnyPosition, String> {
    Othello::from_text(line)
        .map(AnyPosition::Othello)
        .map_err(|e| e.to_string())
}

/// Positions for `kibitz bench`, with the fixed depth to search each: from random games at
/// 60, 52, 44, 36, 28, 22 and 18 empties; the last is solved exactly (its depth reaches the
/// end).
#[must_use]
pub fn bench_positions() -> Vec<(String, u32)> {
    [
        (
            "---------------------------OX------XO--------------------------- X",
            12,
        ),
        (
            "------------------X---X----XOX----OXX-----XOO-------O----------- X",
            11,
        ),
        (
            "----O-------OO-XOOO-O-X--OXOXXX----XOX------X--------X---------- X",
            10,
        ),
        (
            "------X-X---XX--OXXXXXX--OXXXX---XOOX----XXOOX-----OO------O---- X",
            10,
        ),
        (
            "O--------OXX-----XXXX---XXXXOOO-XXXOXOO-XXOXOXOX-O--XOO----X--O- X",
            10,
        ),
        (
            "----OOOX-----OX-X-XXOXX-XOXOXX-XXOOXXX----XOOXXXXXOOO-X--OOOOO-- X",
            11,
        ),
        (
            "O-XXXXXO-OXXXX-O--XOXXOO-OXOOXXO-XOOOOXOXOO-XXXXO-O-X-XO------X- X",
            18,
        ),
    ]
    .into_iter()
    .map(|(text, depth)| (text.to_string(), depth))
    .collect()
}

/// The Othello engine; keeps its tables between the moves of one game.
pub struct OthelloEngine {
    searcher: Searcher<u8>,
    solver: Option<Solver>,
}

impl Default for OthelloEngine {
    fn default() -> Self {
        OthelloEngine::new()
    }
}

impl OthelloEngine {
    #[must_use]
    pub fn new() -> OthelloEngine {
        OthelloEngine {
            searcher: Searcher::new(SEARCH_TT_BITS),
            solver: Some(Solver::new(SOLVER_TT_BITS)),
        }
    }

    fn take_solver(&mut self) -> Solver {
        self.solver
            .take()
            .unwrap_or_else(|| Solver::new(SOLVER_TT_BITS))
    }

    /// Searches a game-core position; `None` if the game is over.
    pub fn search_othello(
        &mut self,
        othello: &Othello,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        if othello.outcome().is_some() {
            return None;
        }
        let (limits, stop) = (request.limits, &request.stop);
        let start = Instant::now();
        let deadline = limits.deadline(start);
        let (mover, opponent) = othello.mover_bitboards();
        let empties = 64 - (mover | opponent).count_ones();
        let mut settings = LevelSettings::of(request.level);
        let deterministic = matches!(limits, SearchLimits::Depth(_) | SearchLimits::Nodes(_));
        let mut solver = self.take_solver();
        if deterministic || limits == SearchLimits::Solve {
            self.searcher.clear();
            solver.clear();
        }
        let nodes_before = solver.nodes;
        let result =
            |best: u8, score: Score, exact: bool, depth: u32, nodes: u64, pv: &[u8]| SearchResult {
                best: square_name(best),
                score,
                exact,
                depth,
                nodes,
                ms: elapsed_ms(start),
                pv: pv.iter().map(|&m| square_name(m)).collect(),
            };
        let solved = |s: Solution, nodes: u64| {
            result(s.best, Score::Exact(s.score), true, empties, nodes, &s.pv)
        };

        if limits == SearchLimits::Solve {
            solver.set_limits(stop, None);
            let solution = solver.solve(mover, opponent);
            let nodes = solver.nodes - nodes_before;
            self.solver = Some(solver);
            return solution.map(|s| solved(s, nodes));
        }

        if legal_mask(mover, opponent) == 0 {
            self.solver = Some(solver);
            return Some(result(PASS, Score::Heuristic(0), false, 0, 0, &[PASS]));
        }

        if let Some(time) = deadline.map(|d| d.saturating_duration_since(start)) {
            let fits = solvable_empties(time);
            settings.solve_empties = settings.solve_empties.min(fits);
            settings.probe_empties = settings.probe_empties.min(fits.saturating_sub(4));
        }
        match limits {
            SearchLimits::Depth(depth) => {
                // A fixed depth solves what it would nearly reach anyway, as `probe` does.
                let reach = depth.saturating_add(PROBE_SLACK as u32);
                settings.solve_empties = settings.solve_empties.min(reach);
            }
            SearchLimits::Nodes(nodes) => {
                // The solver does not count against the node budget: keep it small.
                let fits = solvable_empties_in_nodes(nodes);
                settings.solve_empties = settings.solve_empties.min(fits);
                settings.probe_empties = settings.probe_empties.min(fits.saturating_sub(4));
            }
            _ => {}
        }

        if empties <= settings.solve_empties {
            // Leave part of the time for a fallback midgame search if the estimate was off.
            let solve_deadline = deadline.map(|d| start + (d - start) * 3 / 5);
            solver.set_limits(stop, solve_deadline);
            if let Some(s) = solver.solve(mover, opponent) {
                let nodes = solver.nodes - nodes_before;
                self.solver = Some(solver);
                return Some(solved(s, nodes));
            }
        }

        let mut root_filter = u64::MAX;
        if request.level.get() >= 3 {
            if let Some((square, _)) = immediate_win(mover, opponent) {
                self.solver = Some(solver);
                return Some(result(square, Score::WinIn(1), true, 1, 0, &[square]));
            }
            root_filter = loss_blocking_filter(mover, opponent);
        }

        solver.set_limits(stop, deadline);
        let mut game = Game::new(mover, opponent, solver);
        game.root_filter = root_filter;
        game.probe_empties = settings.probe_empties;
        let budget = SearchBudget {
            max_depth: limits.max_depth(settings.max_depth),
            deadline,
            max_nodes: limits.max_nodes(),
            noise: settings.noise,
            seed: request.seed,
        };
        let iteration = self.searcher.search(&mut game, budget, stop, |_| {});
        let nodes = self.searcher.nodes();
        self.solver = Some(game.solver);
        let it = iteration?;
        let score = match search_to_exact(it.score) {
            // Proven by the search: at least this result (a win found by the search is
            // not necessarily the biggest one).
            Some(diff) => Score::Heuristic(diff * 100),
            None => Score::Heuristic(it.score),
        };
        Some(result(it.best, score, false, it.depth, nodes, &it.pv))
    }
}

/// A move that ends the game with a win for `mover`, the biggest such win.
fn immediate_win(mover: u64, opponent: u64) -> Option<(u8, i32)> {
    let mut best: Option<(u8, i32)> = None;
    let mut legal = legal_mask(mover, opponent);
    while legal != 0 {
        let square = legal.trailing_zeros() as u8;
        legal &= legal - 1;
        let (next_mover, next_opponent) = after_move(mover, opponent, square);
        if game_over(next_mover, next_opponent) {
            let margin = -final_score(next_mover, next_opponent);
            if margin > 0 && best.is_none_or(|(_, m)| margin > m) {
                best = Some((square, margin));
            }
        }
    }
    best
}

/// The moves of `mover` after which the opponent cannot end the game with a win at once,
/// if some but not all moves are like that; `u64::MAX` (no restriction) otherwise.
fn loss_blocking_filter(mover: u64, opponent: u64) -> u64 {
    let legal = legal_mask(mover, opponent);
    let mut safe = 0;
    let mut rest = legal;
    while rest != 0 {
        let square = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let (next_mover, next_opponent) = after_move(mover, opponent, square);
        if immediate_win(next_mover, next_opponent).is_none() {
            safe |= 1u64 << square;
        }
    }
    if safe == 0 || safe == legal {
        u64::MAX
    } else {
        safe
    }
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

impl Engine for OthelloEngine {
    fn search_with(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        let AnyPosition::Othello(othello) = position else {
            return None;
        };
        self.search_othello(othello, request)
    }
}

#[cfg(test)]
mod tests;
