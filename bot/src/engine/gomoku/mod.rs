//! The Gomoku engine (freestyle, standard and renju, boards 5..=26): incremental line
//! patterns, threat-space search (VCF, VCT) and a Gomoku alpha-beta search.
//!
//! A move is chosen in this order: a five; a VCF, then (strong levels) a VCT, each played at
//! once (through the block of his four when he has one; the VCT longer when a shallow search
//! sees a decisive attack); the block of a single four (searched shallowly, it is forced); if
//! the opponent would have a VCF or VCT were it his move, our VCT looks again when it was cut
//! short (a counter-win), and failing that only the moves after which he has none are searched (checked in the order a shallow search ranks them, so that a
//! counter-attack it likes is among those checked before the time runs out); then the
//! alpha-beta search, whose move generation answers fours, open threes and threats to win by
//! fours by force and whose leaves follow fours; when the chosen move held its check only
//! against the opponent's shorter VCTs, a check against the longest, the next-best move that
//! holds taking its place when it fails (when that check ends early, the search goes on over
//! the same moves, and a deeper answer's move is played once it holds the same checks); and
//! last a check that the chosen move leaves the opponent no forced win, the next-best move
//! taking its place when it does.
//!
//! Determinism: Depth, Nodes and Solve limits clear every table first and give the threat
//! searches node budgets instead of time, so the same position, limits, level and seed give
//! the same move and node count. Time limits keep the TT from move to move.
//!
//! # Layout
//! - [`pattern`]: line patterns and their table.
//! - [`points`]: what a point is worth to a colour, and the threats it makes.
//! - [`board`]: the padded board with incremental patterns and Zobrist keys.
//! - [`eval`]: the evaluation.
//! - [`learned`]: the evaluation's learned weights, by point shape, role and rule.
//! - [`movegen`]: candidates and forced replies.
//! - [`threat`]: VCF and VCT.
//! - [`search`]: the alpha-beta search.
//! - [`root`]: the threat decisions around it.
//! - [`time`]: the clock of one move.
//! - [`params`]: the tuned parameters of all of them.
//! - [`levels`]: what each level may do.
//! - [`opening`]: the decisions of an opening rule, as either player.

pub mod board;
pub mod book;
mod choose;
pub mod eval;
pub mod learned;
pub mod levels;
pub mod movegen;
pub mod opening;
pub mod params;
pub mod pattern;
pub mod points;
pub mod root;
pub mod search;
pub mod threat;
pub mod time;

use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule};

use crate::engine::{Engine, Score, SearchRequest, SearchResult, StopFlag};
use board::{Board, Point};
use params::{SOLVE_NODES, VCF_PLIES, VCT_PLIES_MAX};
use root::Budget;
use search::Searcher;
use threat::{ThreatSearch, ThreatWin};
use time::MoveClock;

/// What the root's threat searches may spend when the move is not timed (Depth and Nodes
/// limits), where time cannot bound them and the same search must give the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedThreatBudget {
    /// Nodes of each of our VCF and VCT.
    pub own: u64,
    /// Nodes of each search for the opponent's win (were it his move, or after a root move).
    pub defence: u64,
    /// Longest VCT looked for, in plies.
    pub vct_plies: u32,
    /// Nodes of the shallow search that orders the checks of the moves against his win.
    pub ranking: u64,
}

impl Default for FixedThreatBudget {
    /// Small enough for `kibitz bench` and the tests to stay quick.
    fn default() -> Self {
        FixedThreatBudget {
            own: 20_000,
            defence: 3_000,
            vct_plies: 13,
            ranking: 20_000,
        }
    }
}

/// Transposition table entries of an engine: 2^20, 24 MB, and a quarter of that for the
/// quiescence search's table. (A table of 2^22 entries with buckets of two scored 50.6%
/// against this one at 200 ms, docs/benchmarks.md.)
pub const TT_BITS: u32 = 20;
/// The fewest, however small the memory limit: 2^16 entries, 1.5 MB.
const TT_BITS_LEAST: u32 = 16;
/// Bytes of one transposition table entry.
const TT_ENTRY_BYTES: u64 = 24;

/// The Gomoku engine. A `new()` engine is deterministic under Depth/Nodes/Solve limits.
pub struct GomokuEngine {
    searcher: Searcher,
    threats: ThreatSearch,
    fixed: FixedThreatBudget,
    /// Whether timed moves come from the opening book where it has them (as far as the level
    /// has it: [`levels::LevelSettings::book_stones`]).
    book: bool,
}

impl Default for GomokuEngine {
    fn default() -> Self {
        GomokuEngine::new()
    }
}

/// The transposition table's size (as bits of its entry count) within `max_memory` bytes:
/// half of them at most (the quiescence table's quarter of it on top: five eighths in all),
/// never more than [`TT_BITS`] nor fewer than 2^16 entries.
fn tt_bits_within(max_memory: Option<u64>) -> u32 {
    match max_memory {
        None => TT_BITS,
        Some(bytes) => {
            let entries = (bytes / 2 / TT_ENTRY_BYTES).max(1);
            (63 - entries.leading_zeros()).clamp(TT_BITS_LEAST, TT_BITS)
        }
    }
}

/// One root phase's budget: `nodes` when the move is untimed, else `share` of it from now.
fn budget(clock: &MoveClock, share: f64, nodes: u64, stop: &StopFlag) -> Budget {
    match clock.from_now(share) {
        Some(until) => Budget {
            nodes: u64::MAX,
            until: Some(until),
            stop: stop.clone(),
        },
        None => Budget {
            nodes,
            until: None,
            stop: stop.clone(),
        },
    }
}

impl GomokuEngine {
    /// An engine with a 2^20-entry transposition table (24 MB).
    #[must_use]
    pub fn new() -> GomokuEngine {
        GomokuEngine::with_tt_bits(TT_BITS)
    }

    /// An engine within `max_memory` bytes (none: no limit): the transposition table takes
    /// at most half of it, and [`TT_BITS`] entries at most.
    #[must_use]
    pub fn within_memory(max_memory: Option<u64>) -> GomokuEngine {
        GomokuEngine::with_tt_bits(tt_bits_within(max_memory))
    }

    /// An engine with a `2^bits`-entry transposition table.
    #[must_use]
    pub fn with_tt_bits(bits: u32) -> GomokuEngine {
        GomokuEngine {
            searcher: Searcher::new(bits),
            threats: ThreatSearch::new(18),
            fixed: FixedThreatBudget::default(),
            book: true,
        }
    }

    /// The same engine with other threat budgets for moves that are not timed.
    #[must_use]
    pub fn with_fixed_threat_budget(mut self, fixed: FixedThreatBudget) -> GomokuEngine {
        self.fixed = fixed;
        self
    }

    /// The same engine without the opening book: it searches every position (the book's
    /// generator, and whoever wants to see what the search makes of an opening).
    #[must_use]
    pub fn without_book(mut self) -> GomokuEngine {
        self.book = false;
        self
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

    fn decide_opening(
        &mut self,
        opening: &game_core::opening::Opening,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        opening::decide(self, opening, request)
    }
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

/// `SearchLimits::Solve`: VCF, then VCT. Without a proven win the best-ranked move is
/// returned with `exact: false`.
fn solve(board: &mut Board, stop: &StopFlag, start: Instant) -> SearchResult {
    let mut nodes = 0;
    let mut found: Option<ThreatWin> = None;
    let mut threats = ThreatSearch::new(20);
    let budget = Budget {
        nodes: SOLVE_NODES,
        until: None,
        stop: stop.clone(),
    };
    for (vct, plies) in [(false, VCF_PLIES), (true, VCT_PLIES_MAX)] {
        let result = root::find_win(&mut threats, board, vct, plies, &budget);
        nodes += result.nodes;
        found = result.win;
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
        score: Score::Heuristic(eval::evaluate(board, false)),
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

/// Fixed positions (15x15 freestyle, `kibitz analyze` format) and depths for `kibitz bench`:
/// depth 12, what a timed middle-game move reaches in about a second.
#[must_use]
pub fn bench_positions() -> Vec<(String, u32)> {
    [
        "h8",
        "h8 i9 h10 j8 g9",
        "h8 i7 i8 j8 g7 g8 h9 h7",
        "h8 h9 i8 g8 j7 k6 i9 i10",
        "h8 i9 g10 j8 g8 g9 j10 h7 f9 e10 i7",
        "h8 h7 g7 i9 g9 g8 i7 f10 j6 k5 e9 f8",
    ]
    .into_iter()
    .map(|moves| (moves.to_string(), 12))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_takes_half_the_memory_limit_within_its_bounds() {
        assert_eq!(tt_bits_within(None), TT_BITS);
        // Gomocup's limit in freestyle, 350 MB, leaves the table as it is.
        assert_eq!(tt_bits_within(Some(350_000_000)), TT_BITS);
        // 40 MiB: 20 MiB for the table, 2^19 entries of 24 bytes (12 MiB) fit, 2^20 do not.
        assert_eq!(tt_bits_within(Some(40 << 20)), 19);
        assert_eq!(tt_bits_within(Some(1)), TT_BITS_LEAST);
        assert_eq!(tt_bits_within(Some(u64::MAX)), TT_BITS);
    }
}
