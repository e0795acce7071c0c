//! The Connect Four engine for boards of 4..=12 columns and rows with blocked cells: exact
//! solving when few cells remain, threat-aware heuristic search otherwise.
//!
//! # Files
//! - [`bitboard`]: the engine's board on game-core's bit layout, on `u64` when it fits.
//! - [`solver`] and [`table`]: the exact solver (Pons' design) and its compact table.
//! - [`book`]: the 7x6 opening book the solver made, so early moves are exact at once.
//! - [`eval`]: threats weighed by zugzwang parity, centre control.
//! - [`game`]: the [`SearchGame`](crate::engine::search::SearchGame) for the shared search, with the
//!   solver as its probe.
//! - [`levels`]: what each level may do.
//! - [`notation`]: the `kibitz analyze` input formats.
//! - [`params`]: the evaluation's tuned weights.
//!
//! # Determinism
//! Depth- and node-limited searches empty both tables first, so they repeat node for node.
//! Other searches keep what earlier searches of the same board learnt.

pub mod bitboard;
pub mod book;
pub mod eval;
pub mod game;
pub mod levels;
pub mod notation;
pub mod params;
pub mod solver;
pub mod table;

use std::time::Instant;

use game_core::connect4::{ConnectFour, WideBits};
use game_core::{AnyPosition, Position};

use crate::engine::search::{SearchBudget, Searcher};
use crate::engine::value::{score_of, WIN_BOUND};
use crate::engine::{Engine, Score, SearchLimits, SearchRequest, SearchResult};
use bitboard::{bits_needed, column_of_cell, Bits, Board, Geometry};
use eval::EvalTables;
use game::{search_to_exact, SearchedGame};
use levels::LevelSettings;
use solver::{SolveBudget, Solver};

pub use notation::{parse_position, BoardOptions};

/// Longest principal variation a solve reports (each move costs a few null-window searches).
const SOLVED_PV_LEN: usize = 12;

/// One solver per bitboard width, made on first use (each holds a large table).
#[derive(Default)]
struct Solvers {
    narrow: Option<Solver<u64>>,
    middle: Option<Solver<u128>>,
    wide: Option<Solver<WideBits>>,
}

/// A bitboard width with its solver slot.
trait EngineBits: Bits {
    fn slot(solvers: &mut Solvers) -> &mut Option<Solver<Self>>;
}

impl EngineBits for u64 {
    fn slot(solvers: &mut Solvers) -> &mut Option<Solver<u64>> {
        &mut solvers.narrow
    }
}

impl EngineBits for u128 {
    fn slot(solvers: &mut Solvers) -> &mut Option<Solver<u128>> {
        &mut solvers.middle
    }
}

impl EngineBits for WideBits {
    fn slot(solvers: &mut Solvers) -> &mut Option<Solver<WideBits>> {
        &mut solvers.wide
    }
}

/// The Connect Four engine. A new engine is deterministic for a given seed.
pub struct Connect4Engine {
    searcher: Searcher<u8>,
    solvers: Solvers,
    solver_bits: u32,
    /// The board (columns, rows, blocked cells) the search table has entries of: keys of
    /// different boards are not comparable.
    board_of_searcher: Option<(u8, u8, WideBits)>,
}

impl Default for Connect4Engine {
    fn default() -> Connect4Engine {
        Connect4Engine::new()
    }
}

impl Connect4Engine {
    /// An engine with a 24 MB search table and a 40 MB solver table (made on first use).
    #[must_use]
    pub fn new() -> Connect4Engine {
        Connect4Engine::with_table_bits(20, table::DEFAULT_BITS)
    }

    /// An engine with `2^search_bits` search entries (24 bytes) and about `2^solver_bits`
    /// solver entries (5 bytes): small tables for tests and weak levels.
    #[must_use]
    pub fn with_table_bits(search_bits: u32, solver_bits: u32) -> Connect4Engine {
        Connect4Engine {
            searcher: Searcher::new(search_bits),
            solvers: Solvers::default(),
            solver_bits,
            board_of_searcher: None,
        }
    }

    /// Searches a game-core position; `None` if the game is over.
    pub fn search_connect4(
        &mut self,
        position: &ConnectFour,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        if position.is_over() {
            return None;
        }
        let searching = !matches!(
            request.limits,
            SearchLimits::Depth(_) | SearchLimits::Nodes(_)
        );
        let full_strength = LevelSettings::of(request.level).book;
        if searching && (full_strength || request.limits == SearchLimits::Solve) {
            if let Some(m) = book::probe(position) {
                // Book positions are on the 7x6 board, which fits in `u64`.
                let cells = u32::from(book::BOOK_COLS) * u32::from(book::BOOK_ROWS);
                let empties = cells - Board::<u64>::of(position).moves;
                return Some(SearchResult {
                    best: (m.column + 1).to_string(),
                    score: Score::Exact(m.score),
                    exact: true,
                    depth: empties,
                    nodes: 0,
                    ms: 0,
                    pv: vec![(m.column + 1).to_string()],
                });
            }
        }
        let bits = bits_needed(position.cols(), position.rows());
        if bits <= u64::BITS {
            self.search_in::<u64>(position, request)
        } else if bits <= u128::BITS {
            self.search_in::<u128>(position, request)
        } else {
            self.search_in::<WideBits>(position, request)
        }
    }

    fn search_in<B: EngineBits>(
        &mut self,
        position: &ConnectFour,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        let (limits, stop) = (request.limits, &request.stop);
        let start = Instant::now();
        let g: Geometry<B> = Geometry::of(position);
        let board: Board<B> = Board::of(position);
        let settings = LevelSettings::of(request.level);
        let deadline = limits.deadline(start);
        let deterministic = matches!(limits, SearchLimits::Depth(_) | SearchLimits::Nodes(_));
        let solver_bits = self.solver_bits;
        let solver =
            B::slot(&mut self.solvers).get_or_insert_with(|| Solver::new(g.clone(), solver_bits));
        solver.set_geometry(&g);
        let board_id = (position.cols(), position.rows(), position.blocked_bits());
        if self.board_of_searcher != Some(board_id) {
            self.searcher.clear();
            self.board_of_searcher = Some(board_id);
        }
        if deterministic {
            solver.clear();
            self.searcher.clear();
        }
        let result = |best: u32, score: Score, depth: u32, nodes: u64, pv: &[u32]| SearchResult {
            best: (best + 1).to_string(),
            score,
            exact: !matches!(score, Score::Heuristic(_)),
            depth,
            nodes,
            ms: start.elapsed().as_millis() as u64,
            pv: pv.iter().map(|c| (c + 1).to_string()).collect(),
        };
        let (playable, moves) = (g.playable, board.moves);
        let empties = playable - moves;

        // A win on the board is taken without a search from level 3 up (and when solving).
        let wins = board.winning_cells(&g) & board.possible(&g);
        if !wins.is_zero() && (request.level.get() >= 3 || limits == SearchLimits::Solve) {
            let col = column_of_cell(&g, B::bit(wins.trailing_zeros()));
            let score = Score::Exact((playable as i32 + 1 - moves as i32) / 2);
            return Some(result(col, score, 1, 1, &[col]));
        }

        let solve_first = match limits {
            SearchLimits::Solve => true,
            SearchLimits::Depth(_) | SearchLimits::Nodes(_) => false,
            _ => empties <= settings.root_solve_below,
        };
        if solve_first {
            // Unless asked to solve, keep half the time for the search if this fails.
            let solve_deadline = deadline.map(|d| start + d.saturating_duration_since(start) / 2);
            solver.set_budget(SolveBudget {
                deadline: solve_deadline,
                max_nodes: None,
                stop: stop.clone(),
            });
            let before = solver.nodes();
            if let Some(score) = solver.solve(&board) {
                let pv = solver.principal_variation(&board, score, SOLVED_PV_LEN);
                if let Some(&best) = pv.first() {
                    let nodes = solver.nodes() - before;
                    return Some(result(best, Score::Exact(score), empties, nodes, &pv));
                }
            }
            if limits == SearchLimits::Solve {
                // Stopped before the proof: a sensible move, no claim.
                let col = sensible_column(&board, &g)?;
                return Some(result(
                    col,
                    Score::Heuristic(0),
                    0,
                    solver.nodes() - before,
                    &[col],
                ));
            }
        }

        let max_nodes = limits.max_nodes();
        solver.set_budget(SolveBudget {
            deadline,
            max_nodes: max_nodes.map(|n| solver.nodes() + n),
            stop: stop.clone(),
        });
        let depth_cap = limits.max_depth(settings.max_depth);
        let tables = EvalTables::of(&g);
        let mut game = SearchedGame::new(
            &g,
            &tables,
            board,
            solver,
            settings.solve_below,
            settings.forced_moves,
        );
        let budget = SearchBudget {
            max_depth: depth_cap.min(empties).max(1),
            deadline,
            max_nodes,
            noise: settings.noise,
            seed: request.seed,
        };
        let it = self.searcher.search(&mut game, budget, stop, |_| {})?;
        debug_assert!(
            it.score.abs() < WIN_BOUND
                || search_to_exact(it.score, moves, playable).signum() == it.score.signum()
        );
        let score = score_of(it.score);
        let pv: Vec<u32> = it.pv.iter().map(|&c| u32::from(c)).collect();
        Some(result(u32::from(it.best), score, it.depth, it.nodes, &pv))
    }
}

/// The most central column that does not lose at once (any playable one when all do).
fn sensible_column<B: EngineBits>(board: &Board<B>, g: &Geometry<B>) -> Option<u32> {
    let safe = board.non_losing_moves(g);
    let pick = if safe.is_zero() {
        board.possible(g)
    } else {
        safe
    };
    g.center_columns()
        .iter()
        .map(|&c| u32::from(c))
        .find(|&c| !(pick & g.columns[c as usize]).is_zero())
}

impl Engine for Connect4Engine {
    fn search_with(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        let AnyPosition::Connect4(p) = position else {
            return None;
        };
        self.search_connect4(p, request)
    }
}

/// Positions for `kibitz bench` in the `kibitz analyze` formats, with a search depth each.
#[must_use]
pub fn bench_positions() -> Vec<(String, u32)> {
    [
        ("", 14),
        ("4453", 14),
        ("43443233", 14),
        ("......./......./...#.../......./...X.../..OXO..", 12),
        ("........./........./........./........./....O..../....X..../...XO....", 11),
        (
            "............/............/............/............/............/............/............/............/............/.....##...../.....XO...../....OX#.....",
            10,
        ),
    ]
    .into_iter()
    .map(|(p, d)| (p.to_string(), d))
    .collect()
}
