//! The root's answer to the opponent's threat: his win were it his move (VCF, then VCT); when
//! he has one and our own VCT was cut short, our counter-win looked for again; else the moves
//! that stop his win, checked in the order a shallow search ranks them.

use super::super::board::{Board, Point};
use super::super::params::{
    CHECK_SLICE, CHECK_SLICE_LEADERS, CHECK_SLICE_SHORT, COUNTER_VCT_SHARE, DEFENCE_SHARE,
    FEW_HOLD, FEW_HOLD_RECHECK_SHARE, RANKING_DEPTH, RANKING_SHARE, RECHECK_SHARE, THREAT_SHARE,
    VCF_PLIES, VCT_CHECK_SLACK,
};
use super::super::root::{self, Verdicts};
use super::super::search::Limits;
use super::super::threat::ThreatWin;
use super::super::GomokuEngine;
use super::{MoveSearch, RootMoves};

impl GomokuEngine {
    /// The opponent's win were it his move, VCF first, then (strong levels) VCT: when he
    /// has one, the moves are kept to those that stop it.
    pub(super) fn root_moves(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        moves: Vec<Point>,
        them_four: bool,
    ) -> RootMoves {
        let mut root = RootMoves {
            win: None,
            kept: moves,
            unproven: Vec::new(),
            verdicts: Verdicts::new(if ms.settings.root_vct {
                ms.vct_plies
            } else {
                0
            }),
        };
        if !ms.settings.root_vcf || them_four || root.kept.len() <= 1 {
            return root;
        }
        let detect = ms.budget_before_search(THREAT_SHARE, self.fixed.defence);
        for vct in [false, true] {
            if vct && !ms.settings.root_vct {
                break;
            }
            let plies = if vct { ms.vct_plies } else { VCF_PLIES };
            let threat = root::opponent_win(&mut self.threats, board, vct, plies, &detect);
            ms.extra_nodes += threat.nodes;
            let Some(win) = threat.win else { continue };
            if let Some(win) = self.counter_win(board, ms) {
                root.win = Some(win);
                return root;
            }
            if ms.settings.root_vct {
                // A move that holds mostly leaves no win at all; a longer one than the
                // threat found is rare, and costly to rule out. After a VCF threat too:
                // checked to the longest, every check was cut short on a crowded board.
                root.verdicts.vct_plies = (win.plies + VCT_CHECK_SLACK).min(ms.vct_plies);
            }
            self.keep_defences(board, ms, &mut root, &win);
            break;
        }
        root
    }

    /// Keeps the moves that stop `win`, checked in the order a shallow search ranks them, so
    /// that a counter-attack it likes (our own threats, his line left alone) is checked.
    fn keep_defences(
        &mut self,
        board: &mut Board,
        ms: &mut MoveSearch,
        root: &mut RootMoves,
        win: &ThreatWin,
    ) {
        let rank_limits = Limits {
            max_depth: RANKING_DEPTH.min(ms.limits.max_depth(ms.settings.max_depth)),
            deadline: ms.deadline_before_search(RANKING_SHARE),
            max_nodes: ms.deterministic.then_some(self.fixed.ranking),
            noise: 0,
            ..ms.level_limits.clone()
        };
        let ranked = self
            .searcher
            .search(board, &root.kept, rank_limits, ms.stop, |_| {});
        ms.extra_nodes += ranked.nodes;
        let ranked_root: Vec<Point> = ranked.ranking.iter().map(|&(p, _)| p).collect();
        let defence = ms.budget_before_search(DEFENCE_SHARE, self.fixed.defence);
        let slices = root::Slices {
            short: ms.clock.span(CHECK_SLICE_SHORT),
            long: ms.clock.span(CHECK_SLICE),
            leaders: ms.clock.span(CHECK_SLICE_LEADERS),
        };
        let recheck = |held| {
            let share = if held <= FEW_HOLD {
                FEW_HOLD_RECHECK_SHARE
            } else {
                RECHECK_SHARE
            };
            ms.budget_before_search(share, self.fixed.defence)
        };
        let mut nodes = ms.extra_nodes;
        root.kept = root::defences(
            &mut self.threats,
            board,
            &ranked_root,
            win,
            &mut root.verdicts,
            &defence,
            slices,
            recheck,
            &mut nodes,
        );
        ms.extra_nodes = nodes;
        root.unproven = ranked_root
            .into_iter()
            .filter(|&m| !root.kept.contains(&m) && root.verdicts.get(m).is_none())
            .collect();
    }

    /// Our own win, looked for again when he has one were it his move and our VCT was cut
    /// short ([`COUNTER_VCT_SHARE`]): the moves that stop his win are then few, and a
    /// counter-attack that wins first is the better answer. Timed moves at full strength only.
    fn counter_win(&mut self, board: &mut Board, ms: &mut MoveSearch) -> Option<ThreatWin> {
        if !ms.own_vct_cut {
            return None;
        }
        self.own_vct_again(board, ms, COUNTER_VCT_SHARE)
    }
}
