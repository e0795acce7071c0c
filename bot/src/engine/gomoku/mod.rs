//! The Gomoku engine (freestyle, standard and renju, boards 5..=26): incremental line
//! patterns, threat-space search (VCF, VCT) and a Gomoku alpha-beta search.
//!
//! A move is chosen in this order: a five; the block of a single four (searched shallowly,
//! it is forced); a VCF, then (strong levels) a VCT, each played at once; if the opponent
//! would have a VCF or VCT were it his move, only the moves after which he has none are
//! searched (checked in the order a shallow search ranks them, so that a counter-attack it
//! likes is among those checked before the time runs out); then the alpha-beta search, whose
//! move generation answers fours, open threes and threats to win by fours by force and whose
//! leaves follow fours; when the chosen move held its check only against the opponent's
//! shorter VCTs, a check against the longest, the next-best move that holds taking its place
//! when it fails; and last a check that the chosen move leaves the opponent no forced win,
//! the next-best move taking its place when it does.
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
//! - [`movegen`]: candidates and forced replies.
//! - [`threat`]: VCF and VCT.
//! - [`search`]: the alpha-beta search.
//! - [`root`]: the threat decisions around it.
//! - [`time`]: the clock of one move.
//! - [`levels`]: what each level may do.
//! - [`opening`]: the decisions of an opening rule, as either player.

pub mod board;
pub mod book;
pub mod eval;
pub mod levels;
pub mod movegen;
pub mod opening;
pub mod pattern;
pub mod points;
pub mod root;
pub mod search;
pub mod threat;
pub mod time;

use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule, Position};

use crate::engine::value::{score_of, WIN_BOUND};
use crate::engine::{Engine, Score, SearchLimits, SearchRequest, SearchResult, StopFlag};
use board::{Board, Point};
use levels::LevelSettings;
use movegen::Situation;
use root::{Budget, Verdict, Verdicts, VCF_PLIES, VCT_PLIES_MAX};
use search::{Iteration, Limits, Searcher};
use threat::{ThreatSearch, ThreatWin};
use time::MoveClock;

/// Node budget of `SearchLimits::Solve`.
const SOLVE_NODES: u64 = 3_000_000;
/// Shares of a timed move for the root's threat phases, each counted from when it starts
/// (a phase that ends early leaves its time to the next): our VCF, our VCT, the opponent's
/// win were it his move, the checks of the moves against it (only when he has one), and the
/// second checks of those that held, against longer VCTs.
const OWN_VCF_SHARE: f64 = 0.03;
const OWN_VCT_SHARE: f64 = 0.12;
const THREAT_SHARE: f64 = 0.10;
const DEFENCE_SHARE: f64 = 0.20;
const RECHECK_SHARE: f64 = 0.20;
/// The longest one move's first check may take, as a share of the move: a check cut short
/// proves nothing, and one that ran on would leave the moves after it unchecked. Every move
/// gets the short slice first, then those it cut short the long one ([`root::Slices`]).
const CHECK_SLICE_SHORT: f64 = 0.02;
const CHECK_SLICE: f64 = 0.05;
/// The longest check that each of the ranking's leaders ([`root::LEADERS_SLICED`]) still cut
/// short gets from the second checks' share when others held: the move the search prefers
/// is often a counter-attack whose check runs past the long slice (after `h8 f8 j10 g7 j8 h6
/// i5 e9 d10`, g9's at 23 plies takes 54 ms alone), and cut short it is left out while
/// others hold. Given at once, in the first pass, a leader's long check starved the moves
/// after it.
const CHECK_SLICE_LEADERS: f64 = 0.08;
/// When this many moves or fewer held the first checks, the search has little to choose
/// and knowing that they hold is worth more: their second checks may take this share.
const FEW_HOLD: usize = 2;
const FEW_HOLD_RECHECK_SHARE: f64 = 0.45;
/// Where the alpha-beta search must end (the rest is the final check's) unless every root
/// move has been checked already.
const SEARCH_END: f64 = 0.92;
/// Where the search ends when every move left held its first check but not all of them were
/// checked against the longest VCTs: the rest of the move goes to that check of the search's
/// choice. A move that held a threat of nine or eleven plies often only delays a win of
/// twenty-odd, which the solver finds in 0.3 s typically (0.01–1.1 s for the 21 such moves
/// of 59 games lost to Rapfi, docs/benchmarks.md).
const DEEP_CHECK_START: f64 = 0.65;
/// Plies beyond the opponent's threat that the first check of a defence looks for a VCT (the
/// second looks as far as [`VCT_PLIES_MAX`]).
const VCT_CHECK_SLACK: u32 = 8;
/// Depth of the search of a forced move (only its score is wanted).
const FORCED_MOVE_DEPTH: u32 = 4;
/// The shallow search that orders the checks of the moves against the opponent's win: its
/// depth and its share of a timed move.
const RANKING_DEPTH: u32 = 8;
const RANKING_SHARE: f64 = 0.03;

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
    /// has it: [`LevelSettings::book_stones`]).
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

    /// Searches a game-core position; `None` if the game is over.
    pub fn search_gomoku(&mut self, pos: &Gomoku, request: &SearchRequest) -> Option<SearchResult> {
        if pos.outcome().is_some() {
            return None;
        }
        let (limits, stop) = (request.limits, &request.stop);
        let start = Instant::now();
        let settings = LevelSettings::of(request.level);
        let clock = MoveClock::new(start, limits.deadline(start));
        let deterministic = clock.end().is_none();
        if deterministic {
            self.searcher.clear();
            self.threats.clear();
        }
        // Quiet threats in the VCTs at full strength only: at level 9 they lifted it from 76%
        // to 90.5% against level 8 (docs/benchmarks.md, "Levels").
        self.threats.set_quiet(settings.full_strength);
        let mut board = Board::from_position(pos);
        if limits == SearchLimits::Solve {
            return Some(solve(&mut board, stop, start));
        }
        // The book, as far as the level has it, when the move is timed; a search to a fixed
        // depth or node count is left to show the search itself.
        if self.book && !deterministic && pos.stones().count() <= settings.book_stones {
            if let Some(m) = book::probe(pos) {
                return Some(SearchResult {
                    best: m.reply.to_string(),
                    score: Score::Heuristic(m.score),
                    exact: false,
                    depth: m.depth,
                    nodes: 0,
                    ms: start.elapsed().as_millis() as u64,
                    pv: vec![m.reply.to_string()],
                });
            }
        }

        let me = board.turn();
        let mut root: Vec<Point> = Vec::new();
        let situation = movegen::forced_moves(&board, settings.tactics, &mut root);
        movegen::sort_by_score(&board, me, &mut root);
        let first = *root.first()?;
        if situation == Situation::Win {
            return Some(threat_result(&board, &[first], 1, 0, start));
        }
        let mut extra_nodes = 0;
        let them_four = situation == Situation::Block;

        // Our win by force, played at once: a VCF, then (strong levels) a VCT.
        let vct_plies = if deterministic {
            self.fixed.vct_plies
        } else {
            VCT_PLIES_MAX
        };
        let own = [
            (
                settings.root_vcf,
                false,
                VCF_PLIES,
                OWN_VCF_SHARE,
                self.fixed.own,
            ),
            (
                settings.root_vct,
                true,
                vct_plies,
                OWN_VCT_SHARE,
                self.fixed.own,
            ),
        ];
        for (on, vct, plies, end, nodes) in own {
            if !on || them_four {
                continue;
            }
            let found = root::find_win(
                &mut self.threats,
                &mut board,
                vct,
                plies,
                &budget(&clock, end, nodes, stop),
            );
            extra_nodes += found.nodes;
            if let Some(win) = found.win {
                return Some(threat_result(
                    &board,
                    &win.line,
                    win.plies,
                    extra_nodes,
                    start,
                ));
            }
        }

        // What the level sets for every alpha-beta search of the move.
        let level_limits = Limits {
            noise: settings.noise,
            seed: request.seed,
            tactics: settings.tactics,
            probe_vcf: settings.probe_vcf,
            full_strength: settings.full_strength,
            ..Limits::default()
        };

        // The opponent's win were it his move: keep to the moves that stop it.
        let mut verdicts = Verdicts::new(if settings.root_vct { vct_plies } else { 0 });
        // The moves the checks left out unproven (cut short, or never reached) while others
        // held: the search turns to them if it finds that every move kept loses after all.
        let mut unproven: Vec<Point> = Vec::new();
        if settings.root_vcf && !them_four && root.len() > 1 {
            let detect = budget(&clock, THREAT_SHARE, self.fixed.defence, stop);
            for vct in [false, true] {
                if vct && !settings.root_vct {
                    break;
                }
                let plies = if vct { vct_plies } else { VCF_PLIES };
                let threat = root::opponent_win(&mut self.threats, &mut board, vct, plies, &detect);
                extra_nodes += threat.nodes;
                let Some(win) = threat.win else { continue };
                if settings.root_vct {
                    // A move that holds mostly leaves no win at all; a longer one than the
                    // threat found is rare, and costly to rule out. After a VCF threat too:
                    // checked to the longest, every check was cut short on a crowded board.
                    verdicts.vct_plies = (win.plies + VCT_CHECK_SLACK).min(vct_plies);
                }
                // The checks go in the order a shallow search ranks the moves, so that a
                // counter-attack it likes (our own threats, his line left alone) is checked.
                let rank_limits = Limits {
                    max_depth: RANKING_DEPTH.min(limits.max_depth(settings.max_depth)),
                    deadline: clock.from_now(RANKING_SHARE),
                    max_nodes: deterministic.then_some(self.fixed.ranking),
                    noise: 0,
                    ..level_limits
                };
                let ranked = self
                    .searcher
                    .search(&mut board, &root, rank_limits, stop, |_| {});
                extra_nodes += ranked.nodes;
                root = ranked.ranking.iter().map(|&(p, _)| p).collect();
                let defence = budget(&clock, DEFENCE_SHARE, self.fixed.defence, stop);
                let ranked_root = root;
                root = root::defences(
                    &mut self.threats,
                    &mut board,
                    &ranked_root,
                    &win,
                    &mut verdicts,
                    &defence,
                    root::Slices {
                        short: clock.span(CHECK_SLICE_SHORT),
                        long: clock.span(CHECK_SLICE),
                        leaders: clock.span(CHECK_SLICE_LEADERS),
                    },
                    |held| {
                        let share = if held <= FEW_HOLD {
                            FEW_HOLD_RECHECK_SHARE
                        } else {
                            RECHECK_SHARE
                        };
                        budget(&clock, share, self.fixed.defence, stop)
                    },
                    &mut extra_nodes,
                );
                unproven = ranked_root
                    .into_iter()
                    .filter(|&m| !root.contains(&m) && verdicts.get(m).is_none())
                    .collect();
                break;
            }
        }

        // A move is forced when it is the only one left and no other is merely unproven: its
        // search is then for the score alone.
        let forced = root.len() == 1 && unproven.is_empty();
        let mut max_depth = limits.max_depth(settings.max_depth);
        if forced {
            max_depth = max_depth.min(FORCED_MOVE_DEPTH);
        }
        // When the checks against his win have a verdict on every move left, the final check
        // has nothing to do: the search may run to the end.
        let all_checked = root.iter().all(|&m| verdicts.get(m).is_some());
        // ... unless some of them were checked only against the shorter VCTs: the choice
        // is then checked against the longest after the search.
        let deep_check = !forced
            && all_checked
            && root.len() > 1
            && root.iter().any(|&m| verdicts.checked_short(m));
        let search_limits = Limits {
            max_depth,
            deadline: if forced {
                clock.at(0.5)
            } else if deep_check {
                clock.at(DEEP_CHECK_START)
            } else if all_checked {
                clock.end()
            } else {
                clock.at(SEARCH_END)
            },
            max_nodes: limits.max_nodes(),
            ..level_limits
        };
        let mut it = self
            .searcher
            .search(&mut board, &root, search_limits.clone(), stop, |_| {});
        // Every move that held the checks loses to the search's deeper look: the moves whose
        // checks were cut short may not, and the best of them is worth the rest of the time
        // (the final check below looks at it like any other choice).
        if it.score <= -WIN_BOUND && !unproven.is_empty() && !clock.past(SEARCH_END) {
            let others = self
                .searcher
                .search(&mut board, &unproven, search_limits, stop, |_| {});
            if others.score > it.score {
                let nodes = it.nodes + others.nodes;
                it = Iteration { nodes, ..others };
            } else {
                it.nodes += others.nodes;
            }
            root.extend(unproven);
        }

        if deep_check && it.score.abs() < WIN_BOUND {
            let check = budget(&clock, 1.0, self.fixed.defence, stop);
            if let Some(better) = self.replacement(
                &mut board,
                &it,
                &mut verdicts,
                Against::Longest,
                &check,
                &mut extra_nodes,
            ) {
                it.best = better;
                it.pv = vec![better];
            }
        }

        // The final check: the chosen move must not hand the opponent a forced win.
        if settings.root_vcf && root.len() > 1 && it.score < WIN_BOUND {
            let check = budget(&clock, 1.0, self.fixed.defence, stop);
            // From now to the end: the search stopped at its own end, short of ours.
            if let Some(better) = self.replacement(
                &mut board,
                &it,
                &mut verdicts,
                Against::FirstChecks,
                &check,
                &mut extra_nodes,
            ) {
                it.best = better;
                it.pv = vec![better];
            }
        }

        let score = score_of(it.score);
        Some(SearchResult {
            best: board.cell(it.best).to_string(),
            score,
            exact: !matches!(score, Score::Heuristic(_)),
            depth: it.depth,
            nodes: it.nodes + extra_nodes,
            ms: start.elapsed().as_millis() as u64,
            pv: it.pv.iter().map(|&p| board.cell(p).to_string()).collect(),
        })
    }

    /// When the search's move loses to a VCF or VCT (`against` says how far the check looks),
    /// the best-ranked move that holds the same check, failing that (the time ran out first)
    /// the best-ranked one not proven to lose; `None` to keep the search's move (it holds,
    /// its check was cut short, or every other move loses too). Against the longest VCTs only
    /// the moves that held the first checks are looked at again.
    fn replacement(
        &mut self,
        board: &mut Board,
        it: &Iteration,
        verdicts: &mut Verdicts,
        against: Against,
        budget: &Budget,
        nodes: &mut u64,
    ) -> Option<Point> {
        let threats = &mut self.threats;
        let mut judge = |verdicts: &mut Verdicts, board: &mut Board, m: Point| match against {
            Against::FirstChecks => verdicts.check(threats, board, m, budget, nodes),
            Against::Longest => verdicts.recheck(threats, board, m, budget, nodes),
        };
        if judge(verdicts, board, it.best) != Verdict::Loses {
            return None;
        }
        let mut unsure = None;
        for &(p, _) in it.ranking.iter().filter(|&&(p, _)| p != it.best) {
            if against == Against::Longest && verdicts.get(p) != Some(Verdict::Holds) {
                continue;
            }
            match judge(verdicts, board, p) {
                Verdict::Holds => return Some(p),
                Verdict::Unknown => {
                    unsure.get_or_insert(p);
                }
                Verdict::Loses => {}
            }
        }
        unsure
    }
}

/// How far a check of the search's choice looks for the opponent's VCTs: as far as the first
/// checks of the move did, or to the longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Against {
    FirstChecks,
    Longest,
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

    /// From a game lost to Rapfi (2026-12-02): after `h8 g9 f6 g7 g8 f8 e7 g5 e9` black
    /// threatens a VCT of 11 plies; h6 and e8 both hold against every VCT of 19, but black
    /// wins after h6 in 27 (level 10 played it at 1 s and lost). Checked against the longest
    /// VCTs after the search, the search's h6 gives way to e8, and e8 chosen stays.
    #[test]
    fn a_choice_that_held_the_first_check_gives_way_when_the_longest_refutes_it() {
        let Ok(AnyPosition::Gomoku(pos)) =
            parse_position("h8 g9 f6 g7 g8 f8 e7 g5 e9", 15, GomokuRule::Freestyle)
        else {
            panic!("a Gomoku position");
        };
        let mut board = Board::from_position(&pos);
        let mut engine = GomokuEngine::with_tt_bits(16);
        let point = |board: &Board, text: &str| board.point(text.parse().expect("a cell"));
        let (h6, e8) = (point(&board, "h6"), point(&board, "e8"));
        let budget = Budget {
            nodes: 2_000_000,
            until: None,
            stop: StopFlag::new(),
        };
        let mut nodes = 0;
        let mut verdicts = Verdicts::new(VCT_PLIES_MAX);
        verdicts.vct_plies = 19;
        for m in [h6, e8] {
            let v = verdicts.check(&mut engine.threats, &mut board, m, &budget, &mut nodes);
            assert_eq!(v, Verdict::Holds);
            assert!(verdicts.checked_short(m));
        }
        let chose = |best: Point, other: Point| Iteration {
            depth: 6,
            seldepth: 6,
            score: -200,
            best,
            pv: vec![best],
            nodes: 0,
            ranking: vec![(best, -200), (other, -250)],
        };
        let better = engine.replacement(
            &mut board,
            &chose(h6, e8),
            &mut verdicts,
            Against::Longest,
            &budget,
            &mut nodes,
        );
        assert_eq!(better, Some(e8));
        assert_eq!(verdicts.get(h6), Some(Verdict::Loses));
        assert_eq!(verdicts.get(e8), Some(Verdict::Holds));
        assert!(!verdicts.checked_short(e8), "e8 was checked to the longest");
        let kept = engine.replacement(
            &mut board,
            &chose(e8, h6),
            &mut verdicts,
            Against::Longest,
            &budget,
            &mut nodes,
        );
        assert_eq!(kept, None);
        assert_eq!(
            board.hash(),
            Board::from_position(&pos).hash(),
            "the board is restored"
        );
    }

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
