//! The Othello engine: the shared midgame search over a (mover, opponent) bitboard pair with
//! a hand-weighted evaluation, and an exact endgame solver that takes over near the end —
//! at the root when the whole rest of the game fits in the time, and inside the midgame
//! search (through `SearchGame::probe`) for the nodes with few empties.
//!
//! - [`board`]: the bitboard position, its key, the final score, the `SearchGame` glue.
//! - [`eval`]: the midgame evaluation.
//! - [`stability`]: discs that can never flip.
//! - [`solver`]: the exact endgame search.
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
//! With `Limits::Depth` or `Limits::Nodes` both tables are cleared at the start, so the same
//! position, limits, level and seed give the same move, score and node count.

pub mod board;
pub mod eval;
pub mod last_flip;
pub mod solver;
pub mod stability;
#[cfg(test)]
mod test_support;

use std::time::{Duration, Instant};

use game_core::othello::{legal_mask, Othello};
use game_core::{AnyPosition, Position};

use crate::engine::{self, Engine, Level, Limits, Score, SearchResult, StopFlag};
use crate::search::{SearchBudget, Searcher};
use board::{after_move, final_score, game_over, search_to_exact, square_name, Game, PASS};
use solver::Solver;

/// Table sizes (entries of 24 bytes): 12 MB for the midgame search, 24 MB for the solver,
/// where most of the time of a strong game goes.
const SEARCH_TT_BITS: u32 = 19;
const SOLVER_TT_BITS: u32 = 20;

/// What a level may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LevelPlan {
    max_depth: u32,
    /// Evaluation noise, centi-discs.
    noise: i32,
    /// Solve exactly at the root from this many empties down.
    solve_empties: u32,
    /// Solve exactly inside the midgame search from this many empties down.
    probe_empties: u32,
}

fn plan(level: Level) -> LevelPlan {
    let (max_depth, noise, solve_empties, probe_empties) = match level.get() {
        1 => (1, 600, 0, 0),
        2 => (2, 300, 0, 0),
        3 => (3, 150, 8, 6),
        4 => (4, 100, 10, 8),
        5 => (5, 60, 12, 10),
        6 => (6, 30, 14, 12),
        7 => (8, 15, 16, 13),
        8 => (10, 0, 18, 14),
        9 => (14, 0, 20, 16),
        _ => (64, 0, 24, 18),
    };
    LevelPlan {
        max_depth,
        noise,
        solve_empties,
        probe_empties,
    }
}

/// The most empties the exact solver can be expected to finish in `time` (of which the root
/// solve gets three fifths). Measured on the FFO positions, release build, a loaded 2-core
/// machine: 14-16 empties in 10-50 ms, 20 in about 2 s, 22-23 in 7-11 s.
fn solvable_empties(time: Duration) -> u32 {
    let ms = time.as_millis();
    match ms {
        0..=50 => 12,
        51..=200 => 14,
        201..=700 => 16,
        701..=2_500 => 18,
        2_501..=10_000 => 20,
        _ => 22,
    }
}

/// The most empties the exact solver usually finishes in about `nodes` nodes (about 200
/// thousand at 14 empties, 3-4 times more per extra empty).
fn solvable_empties_in_nodes(nodes: u64) -> u32 {
    match nodes {
        0..=99_999 => 12,
        100_000..=999_999 => 14,
        1_000_000..=9_999_999 => 16,
        10_000_000..=99_999_999 => 18,
        _ => 20,
    }
}

/// Time to think in an untimed game: 0.3 s at level 1 up to 3 s at level 10.
#[must_use]
pub fn think_time(level: Level) -> Duration {
    Duration::from_millis(300 * u64::from(level.get()))
}

/// Reads an Othello position in the FFO text format (ENGINES.md): 64 squares a1..h8, a
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
    fn search(
        &mut self,
        position: &AnyPosition,
        limits: Limits,
        level: Level,
        stop: &StopFlag,
        seed: u64,
    ) -> Option<SearchResult> {
        let AnyPosition::Othello(othello) = position else {
            return None;
        };
        if othello.outcome().is_some() {
            return None;
        }
        let start = Instant::now();
        let deadline = engine::deadline(limits, start);
        let (mover, opponent) = othello.mover_bitboards();
        let empties = 64 - (mover | opponent).count_ones();
        let mut plan = plan(level);
        let deterministic = matches!(limits, Limits::Depth(_) | Limits::Nodes(_));
        let mut solver = self.take_solver();
        if deterministic || limits == Limits::Solve {
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

        if limits == Limits::Solve {
            solver.set_limits(stop, None);
            let solution = solver.solve(mover, opponent);
            let nodes = solver.nodes - nodes_before;
            self.solver = Some(solver);
            let s = solution?;
            return Some(result(
                s.best,
                Score::Exact(s.score),
                true,
                empties,
                nodes,
                &s.pv,
            ));
        }

        if legal_mask(mover, opponent) == 0 {
            self.solver = Some(solver);
            return Some(result(PASS, Score::Heuristic(0), false, 0, 0, &[PASS]));
        }

        if let Some(time) = deadline.map(|d| d.saturating_duration_since(start)) {
            let fits = solvable_empties(time);
            plan.solve_empties = plan.solve_empties.min(fits);
            plan.probe_empties = plan.probe_empties.min(fits.saturating_sub(4));
        }
        match limits {
            Limits::Depth(depth) => {
                // A fixed depth solves what it would nearly reach anyway, as `probe` does.
                let reach = depth.saturating_add(board::PROBE_SLACK as u32);
                plan.solve_empties = plan.solve_empties.min(reach);
            }
            Limits::Nodes(nodes) => {
                // The solver does not count against the node budget: keep it small.
                let fits = solvable_empties_in_nodes(nodes);
                plan.solve_empties = plan.solve_empties.min(fits);
                plan.probe_empties = plan.probe_empties.min(fits.saturating_sub(4));
            }
            _ => {}
        }

        if empties <= plan.solve_empties {
            // Leave part of the time for a fallback midgame search if the estimate was off.
            let solve_deadline = deadline.map(|d| start + (d - start) * 3 / 5);
            solver.set_limits(stop, solve_deadline);
            if let Some(s) = solver.solve(mover, opponent) {
                let nodes = solver.nodes - nodes_before;
                self.solver = Some(solver);
                return Some(result(
                    s.best,
                    Score::Exact(s.score),
                    true,
                    empties,
                    nodes,
                    &s.pv,
                ));
            }
        }

        let mut root_filter = u64::MAX;
        if level.get() >= 3 {
            if let Some((square, _)) = immediate_win(mover, opponent) {
                self.solver = Some(solver);
                return Some(result(square, Score::WinIn(1), true, 1, 0, &[square]));
            }
            root_filter = loss_blocking_filter(mover, opponent);
        }

        solver.set_limits(stop, deadline);
        let mut game = Game::new(mover, opponent, solver);
        game.root_filter = root_filter;
        game.probe_empties = plan.probe_empties;
        let budget = SearchBudget {
            max_depth: match limits {
                Limits::Depth(d) => d.min(plan.max_depth),
                _ => plan.max_depth,
            },
            deadline,
            max_nodes: match limits {
                Limits::Nodes(n) => Some(n),
                _ => None,
            },
            noise: plan.noise,
            seed,
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

#[cfg(test)]
mod tests;
