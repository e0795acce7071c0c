//! The Gomoku engine (freestyle, standard and renju, boards 5..=26): incremental line
//! patterns, threat-space search (VCF, VCT) and the shared alpha-beta search.
//!
//! A move is chosen in this order: a five; the block of a single four (searched shallowly,
//! it is forced); a VCF, then (strong levels) a VCT found with part of the time; else the
//! alpha-beta search, whose move generation answers fours and open threes by force and whose
//! `probe` recognises won and lost positions and runs small VCFs near the leaves.
//!
//! Determinism: Depth, Nodes and Solve limits clear every table first, so the same position,
//! limits, level and seed give the same move and node count. Time limits keep the TT.
//!
//! # Layout
//! - [`pattern`]: line patterns and their table.
//! - [`points`]: what a point is worth to a colour, and the threats it makes.
//! - [`board`]: the padded board with incremental patterns and Zobrist keys.
//! - [`eval`]: the evaluation.
//! - [`movegen`]: candidates and forced replies.
//! - [`threat`]: VCF and VCT.
//! - [`game`]: the board as a `SearchGame`.
//! - [`levels`]: what each level may do.

pub mod board;
pub mod eval;
pub mod game;
pub mod levels;
pub mod movegen;
pub mod pattern;
pub mod points;
pub mod threat;

use std::time::{Duration, Instant};

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule, Position};

use crate::engine::{Engine, Score, SearchLimits, SearchRequest, SearchResult, StopFlag};
use crate::search::{SearchBudget, Searcher};
use crate::value::score_of;
use board::{Board, Point};
use game::GomokuGame;
use levels::LevelSettings;
use threat::{ThreatSearch, ThreatWin};

/// Plies a root VCF and VCT may look ahead.
const ROOT_VCF_PLIES: u32 = 41;
const ROOT_VCT_PLIES: u32 = 13;
/// Node budgets of the root threat searches under Depth/Nodes limits (deterministic), and
/// under `SearchLimits::Solve`.
const ROOT_VCF_NODES: u64 = 20_000;
const ROOT_VCT_NODES: u64 = 20_000;
const SOLVE_NODES: u64 = 3_000_000;
/// Node budget of each opponent VCF check in the root defence (Depth/Nodes limits).
const ROOT_DEFENCE_NODES: u64 = 3_000;

/// The Gomoku engine. A `new()` engine is deterministic under Depth/Nodes/Solve limits.
pub struct GomokuEngine {
    searcher: Searcher<Point>,
}

impl Default for GomokuEngine {
    fn default() -> Self {
        GomokuEngine::new()
    }
}

impl GomokuEngine {
    /// An engine with a 2^20-entry transposition table (24 MB).
    #[must_use]
    pub fn new() -> GomokuEngine {
        GomokuEngine::with_tt_bits(20)
    }

    /// An engine with a `2^bits`-entry transposition table.
    #[must_use]
    pub fn with_tt_bits(bits: u32) -> GomokuEngine {
        GomokuEngine {
            searcher: Searcher::new(bits),
        }
    }

    /// Searches a game-core position; `None` if the game is over.
    pub fn search_gomoku(&mut self, pos: &Gomoku, request: &SearchRequest) -> Option<SearchResult> {
        if pos.outcome().is_some() {
            return None;
        }
        let (limits, stop) = (request.limits, &request.stop);
        let start = Instant::now();
        let settings = LevelSettings::of(request.level);
        // Aim a little short of the caller's limit: the clock is only read every few nodes.
        let deadline = limits.deadline(start).map(|d| {
            let span = d.saturating_duration_since(start);
            d - (span / 20).min(Duration::from_millis(30))
        });
        let deterministic = matches!(
            limits,
            SearchLimits::Depth(_) | SearchLimits::Nodes(_) | SearchLimits::Solve
        );
        if deterministic {
            self.searcher.clear();
        }
        let mut game = GomokuGame::new(
            Board::from_position(pos),
            settings.tactics,
            settings.probe_vcf,
        );
        game.watch(deadline, stop.clone());
        let me = game.board.turn();
        if limits == SearchLimits::Solve {
            return Some(solve(&mut game, stop, start));
        }

        let mut root: Vec<Point> = Vec::new();
        movegen::generate(&game.board, settings.tactics, usize::MAX, &mut root);
        let first = *root.first()?;
        if game.board.summary(me).fives.contains(first) {
            return Some(threat_result(&game.board, &[first], 1, 0, start));
        }

        // Root threat searches, on a share of the time or a fixed node budget.
        let mut extra_nodes = 0;
        let threat_budget = |share: u32, nodes: u64| -> (u64, Option<Instant>) {
            match deadline {
                Some(d) => (
                    u64::MAX,
                    Some(start + d.saturating_duration_since(start) / share),
                ),
                None => (nodes, None),
            }
        };
        let them_four = !game.board.summary(1 - me).fives.is_empty();
        // A VCF, then (strong levels) a VCT: (on, VCT rather than VCF, time share, nodes).
        let root_threats = [
            (settings.root_vcf, false, 8, ROOT_VCF_NODES),
            (settings.root_vct && root.len() > 1, true, 5, ROOT_VCT_NODES),
        ];
        for (on, vct, share, nodes) in root_threats {
            if !on || them_four {
                continue;
            }
            let (nodes, until) = threat_budget(share, nodes);
            game.threats.set_budget(nodes, until, Some(stop.clone()));
            let win = threat_win(&mut game.threats, &mut game.board, vct, 1);
            extra_nodes += game.threats.nodes();
            if let Some(win) = win {
                return Some(threat_result(
                    &game.board,
                    &win.line,
                    win.plies,
                    extra_nodes,
                    start,
                ));
            }
        }
        if settings.root_vcf && !them_four && root.len() > 1 {
            let (nodes, until) = threat_budget(4, ROOT_DEFENCE_NODES);
            game.threats.set_budget(nodes, until, Some(stop.clone()));
            let (defences, spent) = defend_against_vcf(&mut game, &root);
            extra_nodes += spent;
            if let Some(defences) = defences {
                root = defences;
                game.root_moves = Some(root.clone());
            }
        }
        game.threats.clear();

        let mut max_depth = limits.max_depth(settings.max_depth);
        if root.len() == 1 {
            // A forced move: search it only deep enough for a score.
            max_depth = max_depth.min(4);
        }
        let budget = SearchBudget {
            max_depth,
            deadline,
            max_nodes: limits.max_nodes(),
            noise: settings.noise,
            seed: request.seed,
        };
        let it = self.searcher.search(&mut game, budget, stop, |_| {})?;
        let score = score_of(it.score);
        Some(SearchResult {
            best: game.board.cell(it.best).to_string(),
            score,
            exact: !matches!(score, Score::Heuristic(_)),
            depth: it.depth,
            nodes: it.nodes + extra_nodes,
            ms: start.elapsed().as_millis() as u64,
            pv: it
                .pv
                .iter()
                .map(|&p| game.board.cell(p).to_string())
                .collect(),
        })
    }
}

impl Engine for GomokuEngine {
    fn search_with(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        match position {
            AnyPosition::Gomoku(pos) => self.search_gomoku(pos, request),
            _ => None,
        }
    }
}

/// A VCF, or with `vct` a VCT, looking `reach` times the usual number of plies ahead.
fn threat_win(
    threats: &mut ThreatSearch,
    board: &mut Board,
    vct: bool,
    reach: u32,
) -> Option<ThreatWin> {
    if vct {
        threats.vct(board, reach * ROOT_VCT_PLIES)
    } else {
        threats.vcf(board, reach * ROOT_VCF_PLIES)
    }
}

/// If the opponent has a VCF (were we to pass), the root moves after which he has none — or
/// `None` when he has none to begin with, or every move leaves him one (then the search may
/// as well see them all). A check cut short by the budget keeps its move. Also returns the
/// nodes spent.
fn defend_against_vcf(game: &mut GomokuGame, root: &[Point]) -> (Option<Vec<Point>>, u64) {
    let board = &mut game.board;
    board.pass();
    let threat = game.threats.vcf(board, ROOT_VCF_PLIES);
    board.unpass();
    let mut nodes = game.threats.nodes();
    if threat.is_none() {
        return (None, nodes);
    }
    let mut defences = Vec::new();
    for &m in root {
        board.make(m);
        let still = game.threats.vcf(board, ROOT_VCF_PLIES);
        let unsure = game.threats.aborted();
        board.unmake();
        nodes += game.threats.nodes();
        if still.is_none() || unsure {
            defences.push(m);
        }
    }
    ((!defences.is_empty()).then_some(defences), nodes)
}

fn threat_result(
    board: &Board,
    line: &[Point],
    plies: u32,
    nodes: u64,
    start: Instant,
) -> SearchResult {
    let pv: Vec<String> = line.iter().map(|&p| board.cell(p).to_string()).collect();
    SearchResult {
        best: pv[0].clone(),
        score: Score::WinIn(plies as i32),
        exact: true,
        depth: plies,
        nodes,
        ms: start.elapsed().as_millis() as u64,
        pv,
    }
}

/// `SearchLimits::Solve`: VCF, then VCT. Without a proven win the best-ranked move is returned with
/// `exact: false`.
fn solve(game: &mut GomokuGame, stop: &StopFlag, start: Instant) -> SearchResult {
    let board = &mut game.board;
    let mut nodes = 0;
    let mut found: Option<ThreatWin> = None;
    let mut threats = ThreatSearch::new(20);
    threats.set_budget(SOLVE_NODES, None, Some(stop.clone()));
    for vct in [false, true] {
        found = threat_win(&mut threats, board, vct, 2);
        nodes += threats.nodes();
        if found.is_some() {
            break;
        }
    }
    if let Some(win) = found {
        return threat_result(board, &win.line, win.plies, nodes, start);
    }
    let mut moves = Vec::new();
    movegen::generate(board, true, usize::MAX, &mut moves);
    let best = moves
        .first()
        .map(|&p| board.cell(p).to_string())
        .unwrap_or_default();
    SearchResult {
        best: best.clone(),
        score: Score::Heuristic(eval::evaluate(board)),
        exact: false,
        depth: 0,
        nodes,
        ms: start.elapsed().as_millis() as u64,
        pv: vec![best],
    }
}

/// Reads the `kibitz analyze` Gomoku format: moves separated by spaces or written together
/// (`h8 i9 j10`, `h8i9j10`), black first, on a `size` board under `rule`.
pub fn parse_position(line: &str, size: u8, rule: GomokuRule) -> Result<AnyPosition, String> {
    let mut cells = Vec::new();
    let mut chars = line.trim().char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c.is_whitespace() || c == ',' {
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(format!("unexpected {c:?} at {at}: moves look like h8"));
        }
        let mut text = String::from(c);
        while let Some(&(_, d)) = chars.peek() {
            if !d.is_ascii_digit() {
                break;
            }
            text.push(d);
            chars.next();
        }
        let cell: Cell = text
            .parse()
            .map_err(|e| format!("move {}: {e}", cells.len() + 1))?;
        cells.push(cell);
    }
    Gomoku::from_moves(size, rule, &cells)
        .map(AnyPosition::Gomoku)
        .map_err(|e| e.to_string())
}

/// Fixed positions (15x15 freestyle, `kibitz analyze` format) and depths for `kibitz bench`.
#[must_use]
pub fn bench_positions() -> Vec<(String, u32)> {
    [
        ("h8", 6),
        ("h8 i9 h10 j8 g9", 6),
        ("h8 i7 i8 j8 g7 g8 h9 h7", 6),
        ("h8 h9 i8 g8 j7 k6 i9 i10", 6),
        ("h8 i9 g10 j8 g8 g9 j10 h7 f9 e10 i7", 6),
        ("h8 h7 g7 i9 g9 g8 i7 f10 j6 k5 e9 f8", 6),
    ]
    .into_iter()
    .map(|(moves, depth)| (moves.to_string(), depth))
    .collect()
}
