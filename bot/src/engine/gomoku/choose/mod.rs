//! How the Gomoku engine chooses a move, phase by phase (the order the crate's opening comment
//! gives): the book; a five; our VCF, then VCT (through the block of his four, if he has one;
//! longer in a decisive attack or when the move is forced); the block of his four, searched
//! for its score; when the opponent would win were it his move, our VCT again if it was cut
//! short, then the moves that stop his win, checked in the order a shallow search ranks them
//! ([`defences`]);
//! the alpha-beta search over the moves left; the checks of its choice against the
//! opponent's long threat sequences; and, when those ended early, more of the same search.
//! Each phase spends a share of the move's time ([`super::params`]), or a fixed node budget
//! when the move is not timed.

use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::Position;

use super::board::{Board, Point};
use super::book;
use super::levels::LevelSettings;
use super::movegen::{self, Situation};
use super::params::{
    ATTACK_PROBE_SHARE, ATTACK_SCORE, ATTACK_VCT_SHARE, DEEP_CHECK_START, FORCED_MOVE_DEPTH,
    FORCED_MOVE_END, FORCED_MOVE_LEAST, FORCED_VCT_SHARE, OWN_VCF_SHARE, OWN_VCT_SHARE,
    RANKING_DEPTH, RESUME_END, RESUME_LEAST, SEARCH_END, SEARCH_LEAST, VCF_PLIES, VCT_PLIES_MAX,
};
use super::root::{self, Budget, Verdict, Verdicts};
use super::search::{Iteration, Limits};
use super::threat::ThreatWin;
use super::time::{MoveClock, Swings};
use super::{budget, solve, threat_result, GomokuEngine};
use crate::engine::value::{score_of, WIN_BOUND};
use crate::engine::{Score, SearchLimits, SearchRequest, SearchResult, StopFlag};

mod defences;

/// One move being chosen: its clock, its level and what the phases have spent so far.
struct MoveSearch<'a> {
    start: Instant,
    clock: MoveClock,
    /// The move is not timed (Depth and Nodes limits): fixed budgets instead of shares.
    deterministic: bool,
    settings: LevelSettings,
    limits: SearchLimits,
    stop: &'a StopFlag,
    /// What the level sets for every alpha-beta search of the move.
    level_limits: Limits,
    /// Longest VCT looked for.
    vct_plies: u32,
    /// Nodes of the threat searches and the ranking, beside the main search's.
    extra_nodes: u64,
    /// Our VCT was cut short on a timed move at full strength: it may go on (a decisive
    /// attack's, or the counter-win's when he threatens).
    own_vct_cut: bool,
}

impl MoveSearch<'_> {
    /// A phase's budget: `share` of the move from now, or `nodes` when the move is untimed.
    fn budget(&self, share: f64, nodes: u64) -> Budget {
        budget(&self.clock, share, nodes, self.stop)
    }

    /// The budget of a phase before the alpha-beta search — our VCT looked for again, the
    /// checks against his threat — which ends before the search's least share of the move
    /// ([`SEARCH_LEAST`]): after a decisive attack's long VCT, the counter-win's look and the
    /// checks would otherwise take the rest of the move, and its move would be chosen
    /// unsearched.
    fn budget_before_search(&self, share: f64, nodes: u64) -> Budget {
        Budget {
            until: self.deadline_before_search(share),
            ..self.budget(share, nodes)
        }
    }

    /// `share` of the move from now, but no later than the search's least share of the
    /// move before its end ([`MoveSearch::budget_before_search`]); `None` when untimed.
    fn deadline_before_search(&self, share: f64) -> Option<Instant> {
        let until = self.clock.from_now(share)?;
        Some(
            self.clock
                .at(1.0 - SEARCH_LEAST)
                .map_or(until, |last| until.min(last)),
        )
    }
}

/// The moves the root's checks left: those that hold against the opponent's win (or all, when
/// he has none), and those left out unproven while others held.
struct RootMoves {
    /// Our counter-win, found while his threat was being answered: played at once.
    win: Option<ThreatWin>,
    kept: Vec<Point>,
    /// Cut short, or never reached: the search turns to them if it finds that every move
    /// kept loses after all.
    unproven: Vec<Point>,
    verdicts: Verdicts,
}

/// Where the alpha-beta search over the moves kept ends, by what the root's checks left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SearchEnd {
    /// One move: its search is for the score alone, by half the move or a tenth from now.
    Forced,
    /// Its choice is checked against the longest VCTs after it.
    DeepCheck,
    /// Every move kept has its verdict: nothing is left to check.
    AllChecked,
    /// The final check of its choice takes the rest.
    Usual,
}

impl SearchEnd {
    fn deadline(self, clock: &MoveClock) -> Option<Instant> {
        match self {
            SearchEnd::Forced => clock
                .at(FORCED_MOVE_END)
                .max(clock.from_now(FORCED_MOVE_LEAST)),
            SearchEnd::DeepCheck => clock.at(DEEP_CHECK_START).max(clock.from_now(SEARCH_LEAST)),
            SearchEnd::AllChecked => clock.end(),
            SearchEnd::Usual => clock.at(SEARCH_END).max(clock.from_now(SEARCH_LEAST)),
        }
    }
}

/// How far a check of the search's choice looks for the opponent's VCTs: as far as the first
/// checks of the move did, or to the longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Against {
    FirstChecks,
    Longest,
}

impl GomokuEngine {
    /// Searches a game-core position; `None` if the game is over.
    pub fn search_gomoku(&mut self, pos: &Gomoku, request: &SearchRequest) -> Option<SearchResult> {
        if pos.outcome().is_some() {
            return None;
        }
        let start = Instant::now();
        let settings = LevelSettings::of(request.level);
        let clock = MoveClock::new(start, request.limits.deadline(start))
            .with_longest(request.limits.longest_deadline(start));
        let deterministic = clock.end().is_none();
        if deterministic {
            self.searcher.clear();
            self.threats.clear();
        }
        // Quiet threats in the VCTs at full strength only: at level 9 they lifted it from 76%
        // to 90.5% against level 8 (docs/benchmarks-log/levels.md, "Levels").
        self.threats.set_quiet(settings.full_strength);
        let mut board = Board::from_position_ordered(pos, settings.full_strength);
        if request.limits == SearchLimits::Solve {
            return Some(solve(&mut board, &request.stop, start));
        }
        let mut ms = MoveSearch {
            start,
            clock,
            deterministic,
            settings,
            limits: request.limits,
            stop: &request.stop,
            level_limits: Limits {
                noise: settings.noise,
                seed: request.seed,
                tactics: settings.tactics,
                probe_vcf: settings.probe_vcf,
                full_strength: settings.full_strength,
                ..Limits::default()
            },
            vct_plies: if deterministic {
                self.fixed.vct_plies
            } else {
                VCT_PLIES_MAX
            },
            extra_nodes: 0,
            own_vct_cut: false,
        };
        if let Some(found) = self.book_move(pos, &ms) {
            return Some(found);
        }
        let me = board.turn();
        let mut moves: Vec<Point> = Vec::new();
        let situation = movegen::forced_moves(&board, settings.tactics, &mut moves);
        movegen::sort_by_score(&board, me, &mut moves);
        let first = *moves.first()?;
        if situation == Situation::Win {
            return Some(threat_result(&board, &[first], 1, 0, start));
        }
        let them_four = situation == Situation::Block;
        // After his four too: the threat searches block it first, and the win through the
        // block is reported as one.
        if let Some(win) = self.own_win(&mut board, &mut ms, &moves) {
            let nodes = ms.extra_nodes;
            return Some(threat_result(&board, &win.line, win.plies, nodes, start));
        }
        let mut root = self.root_moves(&mut board, &mut ms, moves, them_four);
        if let Some(win) = root.win.take() {
            let nodes = ms.extra_nodes;
            return Some(threat_result(&board, &win.line, win.plies, nodes, start));
        }
        let (mut it, deep_check) = self.main_search(&mut board, &mut ms, &mut root);
        self.check_choice(&mut board, &mut ms, &mut root, &mut it, deep_check);
        if deep_check {
            self.search_on(&mut board, &mut ms, &mut root, &mut it);
        }
        Some(result_of(&board, &it, ms.extra_nodes, start))
    }

    /// The book's move, as far as the level has it, when the move is timed (a search to a
    /// fixed depth or node count is left to show the search itself). It searched nothing now:
    /// nodes 0, with the depth of the book's own offline search.
    fn book_move(&self, pos: &Gomoku, ms: &MoveSearch) -> Option<SearchResult> {
        if !self.book || ms.deterministic || pos.stones().count() > ms.settings.book_stones {
            return None;
        }
        let m = book::probe(pos)?;
        Some(SearchResult {
            best: m.reply.to_string(),
            score: Score::Heuristic(m.score),
            exact: false,
            depth: m.depth,
            nodes: 0,
            ms: ms.start.elapsed().as_millis() as u64,
            pv: vec![m.reply.to_string()],
        })
    }

    /// Our win by force, played at once: a VCF, then (strong levels) a VCT, which goes on
    /// longer in a decisive attack or when the move is forced.
    fn own_win(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        moves: &[Point],
    ) -> Option<ThreatWin> {
        let own = [
            (ms.settings.root_vcf, false, VCF_PLIES, OWN_VCF_SHARE),
            (ms.settings.root_vct, true, ms.vct_plies, OWN_VCT_SHARE),
        ];
        let mut cut_short = false;
        for (on, vct, plies, share) in own {
            if !on {
                continue;
            }
            let budget = ms.budget(share, self.fixed.own);
            let found = root::find_win(&mut self.threats, board, vct, plies, &budget);
            ms.extra_nodes += found.nodes;
            if found.win.is_some() {
                return found.win;
            }
            // Cut short: stopped inside a search, or before deepening to the longest.
            cut_short = vct && (!found.complete || budget.spent());
        }
        ms.own_vct_cut = cut_short && !ms.deterministic && ms.settings.full_strength;
        if !ms.own_vct_cut {
            return None;
        }
        if moves.len() == 1 {
            // The move is forced (the block of his four, or the one defence left): the search
            // after it is for its score alone, and a proof through it is worth more.
            return self.own_vct_again(board, ms, FORCED_VCT_SHARE);
        }
        if !self.decisive_attack(board, ms, moves) {
            return None;
        }
        self.own_vct_again(board, ms, ATTACK_VCT_SHARE)
    }

    /// Our VCT, going on for `share` more of the move (its failure cache keeps what the
    /// searches before found).
    fn own_vct_again(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        share: f64,
    ) -> Option<ThreatWin> {
        let budget = ms.budget_before_search(share, self.fixed.own);
        let found = root::find_win(&mut self.threats, board, true, ms.vct_plies, &budget);
        ms.extra_nodes += found.nodes;
        found.win
    }

    /// Whether a shallow search scores the position as a decisive attack for the side to
    /// move ([`ATTACK_SCORE`]) over its root `moves`; not when it proves a win itself (the
    /// main search finds it again in its table).
    fn decisive_attack(&mut self, board: &mut Board, ms: &mut MoveSearch, moves: &[Point]) -> bool {
        let probe = Limits {
            max_depth: RANKING_DEPTH.min(ms.limits.max_depth(ms.settings.max_depth)),
            deadline: ms.clock.from_now(ATTACK_PROBE_SHARE),
            ..ms.level_limits.clone()
        };
        let it = self.searcher.search(board, moves, probe, ms.stop, |_| {});
        ms.extra_nodes += it.nodes;
        (ATTACK_SCORE..WIN_BOUND).contains(&it.score)
    }

    /// The alpha-beta search over the moves kept, and over the unproven ones when every kept
    /// move loses; with whether its choice is to be checked against the longest VCTs. Under
    /// a clock, a search unsure of its move at its end ([`Swings`]) is given the move's longest
    /// time and goes on (its table keeps what it found, so the shallow iterations are quick).
    fn main_search(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        root: &mut RootMoves,
    ) -> (Iteration, bool) {
        // A move is forced when it is the only one left and no other is merely unproven: its
        // search is then for the score alone.
        let forced = root.kept.len() == 1 && root.unproven.is_empty();
        let mut max_depth = ms.limits.max_depth(ms.settings.max_depth);
        if forced {
            max_depth = max_depth.min(FORCED_MOVE_DEPTH);
        }
        // When the checks against his win have a verdict on every move left, the final check
        // has nothing to do: the search may run to the end ...
        let all_checked = root.kept.iter().all(|&m| root.verdicts.get(m).is_some());
        // ... unless some of them were checked only against the shorter VCTs: the choice
        // is then checked against the longest after the search.
        let deep_check = !forced
            && all_checked
            && root.kept.len() > 1
            && root.kept.iter().any(|&m| root.verdicts.checked_short(m));
        let end = if forced {
            SearchEnd::Forced
        } else if deep_check {
            SearchEnd::DeepCheck
        } else if all_checked {
            SearchEnd::AllChecked
        } else {
            SearchEnd::Usual
        };
        let mut search_limits = Limits {
            max_depth,
            deadline: end.deadline(&ms.clock),
            max_nodes: ms.limits.max_nodes(),
            ..ms.level_limits.clone()
        };
        let mut swings = Swings::default();
        let mut it = self
            .searcher
            .search(board, &root.kept, search_limits.clone(), ms.stop, |i| {
                swings.see(i.best, i.score);
            });
        // Only a search the clock cut short: one that reached its depth has its answer.
        let cut_short = it.depth < max_depth && !ms.stop.is_stopped();
        if !forced && cut_short && ms.clock.can_extend() && swings.unsure(it.best) {
            ms.clock.extend();
            search_limits.deadline = end.deadline(&ms.clock);
            let before = it.nodes;
            it = self
                .searcher
                .search(board, &root.kept, search_limits.clone(), ms.stop, |_| {});
            it.nodes += before;
        }
        // Every move that held the checks loses to the search's deeper look: the moves whose
        // checks were cut short may not, and the best of them is worth the rest of the time
        // (the final check looks at it like any other choice).
        if it.score <= -WIN_BOUND && !root.unproven.is_empty() && !ms.clock.past(SEARCH_END) {
            let others =
                self.searcher
                    .search(board, &root.unproven, search_limits, ms.stop, |_| {});
            if others.score > it.score {
                let nodes = it.nodes + others.nodes;
                it = Iteration { nodes, ..others };
            } else {
                it.nodes += others.nodes;
            }
            root.kept.append(&mut root.unproven);
        }
        (it, deep_check)
    }

    /// The checks of the search's choice: against the longest VCTs when its first check was
    /// shorter, then that it hands the opponent no forced win.
    fn check_choice(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        root: &mut RootMoves,
        it: &mut Iteration,
        deep_check: bool,
    ) {
        if deep_check && it.score.abs() < WIN_BOUND {
            self.check_against(board, ms, &mut root.verdicts, it, Against::Longest);
        }
        if ms.settings.root_vcf && root.kept.len() > 1 && it.score < WIN_BOUND {
            self.check_against(board, ms, &mut root.verdicts, it, Against::FirstChecks);
        }
    }

    /// The time a quick deep check left: the search stopped at [`DEEP_CHECK_START`] to leave
    /// the rest of the move to the check of its choice against the longest VCTs, but that
    /// verdict is often known already (the move was checked that far among the leaders) or
    /// proven in a few milliseconds, and the move then ended a third early. With at least
    /// [`RESUME_LEAST`] of the move left the search goes on over the same moves (its table
    /// keeps what it found) to [`RESUME_END`]; a deeper iteration's move is taken when it is
    /// the move already checked, or when its own checks prove that it holds in the time left.
    /// Otherwise the checked move stays.
    fn search_on(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        root: &mut RootMoves,
        it: &mut Iteration,
    ) {
        if ms.deterministic
            || root.kept.len() < 2
            || it.score.abs() >= WIN_BOUND
            || ms.clock.past(1.0 - RESUME_LEAST)
        {
            return;
        }
        let limits = Limits {
            max_depth: ms.limits.max_depth(ms.settings.max_depth),
            deadline: ms.clock.at(RESUME_END),
            max_nodes: ms.limits.max_nodes(),
            ..ms.level_limits.clone()
        };
        let deeper = self
            .searcher
            .search(board, &root.kept, limits, ms.stop, |_| {});
        let threats = &mut self.threats;
        let verdicts = &mut root.verdicts;
        let mut extra = ms.extra_nodes;
        let check = ms.budget(1.0, self.fixed.defence);
        take_deeper(it, deeper, |m| {
            verdicts.recheck(threats, board, m, &check, &mut extra) == Verdict::Holds
                && verdicts.check(threats, board, m, &check, &mut extra) == Verdict::Holds
        });
        ms.extra_nodes = extra;
    }

    /// One check of the search's choice, from now to the end of the move (the search stopped
    /// at its own end, short of ours): a failed check puts the best-ranked move that holds in
    /// its place ([`GomokuEngine::replacement`]).
    fn check_against(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        verdicts: &mut Verdicts,
        it: &mut Iteration,
        against: Against,
    ) {
        let check = ms.budget(1.0, self.fixed.defence);
        let mut nodes = ms.extra_nodes;
        let better = self.replacement(board, it, verdicts, against, &check, &mut nodes);
        ms.extra_nodes = nodes;
        if let Some(better) = better {
            it.best = better;
            it.pv = vec![better];
        }
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

/// Takes the `deeper` search's answer in place of `it` (whose move passed its checks) when it
/// completed a deeper iteration and its move is the same, or `holds` proves its move; the
/// nodes of both count either way.
fn take_deeper(it: &mut Iteration, deeper: Iteration, holds: impl FnOnce(Point) -> bool) {
    let nodes = it.nodes + deeper.nodes;
    if deeper.depth > it.depth && (deeper.best == it.best || holds(deeper.best)) {
        *it = deeper;
    }
    it.nodes = nodes;
}

/// The engine's answer from the search's iteration and the nodes spent beside it.
fn result_of(board: &Board, it: &Iteration, extra_nodes: u64, start: Instant) -> SearchResult {
    let score = score_of(it.score);
    SearchResult {
        best: board.cell(it.best).to_string(),
        score,
        exact: !matches!(score, Score::Heuristic(_)),
        depth: it.depth,
        nodes: it.nodes + extra_nodes,
        ms: start.elapsed().as_millis() as u64,
        pv: it.pv.iter().map(|&p| board.cell(p).to_string()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gomoku::parse_position;
    use game_core::{AnyPosition, GomokuRule};

    fn iteration(depth: u32, best: Point, nodes: u64) -> Iteration {
        Iteration {
            depth,
            seldepth: depth,
            score: 0,
            best,
            pv: vec![best],
            nodes,
            ranking: vec![(best, 0)],
        }
    }

    #[test]
    fn a_deeper_search_s_move_replaces_the_checked_one_only_when_it_is_proven_to_hold() {
        let board = Board::new(15, GomokuRule::Freestyle);
        let (a, b) = (
            board.point("h8".parse().unwrap()),
            board.point("g9".parse().unwrap()),
        );
        let taken = |first: Iteration, deeper: Iteration, holds: bool| {
            let mut it = first;
            let mut asked = None;
            take_deeper(&mut it, deeper, |m| {
                asked = Some(m);
                holds
            });
            (it, asked)
        };
        // The same move, deeper: taken without a check.
        let (it, asked) = taken(iteration(12, a, 5), iteration(13, a, 7), false);
        assert_eq!((it.depth, it.best, it.nodes, asked), (13, a, 12, None));
        // Another move, deeper: taken only when its check holds.
        let (it, asked) = taken(iteration(12, a, 5), iteration(13, b, 7), false);
        assert_eq!((it.depth, it.best, it.nodes, asked), (12, a, 12, Some(b)));
        let (it, _) = taken(iteration(12, a, 5), iteration(13, b, 7), true);
        assert_eq!((it.depth, it.best, it.nodes), (13, b, 12));
        // No deeper iteration: the first answer stays, unchecked.
        let (it, asked) = taken(iteration(12, a, 5), iteration(12, b, 7), true);
        assert_eq!((it.depth, it.best, it.nodes, asked), (12, a, 12, None));
    }

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
}
