//! The board as a [`SearchGame`] for the shared alpha-beta search: forced-reply move
//! generation, five and four detection in `probe`, and a small VCF at the last plies.

use std::time::Instant;

use super::board::{Board, Point};
use super::threat::ThreatSearch;
use super::{eval, movegen};
use crate::engine::StopFlag;
use crate::search::SearchGame;
use crate::value::WIN;

/// Remaining depth at or below which `probe` looks for a VCF.
const PROBE_VCF_DEPTH: i32 = 1;
/// Nodes a VCF in `probe` may spend; a miss only costs a little accuracy.
const PROBE_VCF_NODES: u64 = 100;
/// Plies a VCF in `probe` may look ahead.
const PROBE_VCF_PLIES: u32 = 19;
/// Moves searched at the first plies below the root, then deeper (the root keeps them all).
const WIDTH_NEAR: usize = 20;
const WIDTH_DEEP: usize = 12;

/// A board being searched, with what the level allows.
pub struct GomokuGame {
    pub board: Board,
    /// Answer open threes by force and see open fours as won.
    pub tactics: bool,
    /// Look for VCFs near the leaves.
    pub probe_vcf: bool,
    root_stones: usize,
    /// The moves to search at the root, when something narrower than the generator's.
    pub root_moves: Option<Vec<Point>>,
    pub threats: ThreatSearch,
    /// When to stop, watched from `probe` (see [`GomokuGame::watch`]).
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
    probes: u32,
    late: bool,
}

impl GomokuGame {
    #[must_use]
    pub fn new(board: Board, tactics: bool, probe_vcf: bool) -> GomokuGame {
        GomokuGame {
            root_stones: board.stones(),
            root_moves: None,
            board,
            tactics,
            probe_vcf,
            threats: ThreatSearch::new(16),
            deadline: None,
            stop: None,
            probes: 0,
            late: false,
        }
    }

    /// Makes `probe` watch a deadline and a stop flag. The shared search reads its clock
    /// once per 1024 counted nodes, and a Gomoku node with its threat checks can be slow; so
    /// `probe` looks every few calls and, once late, counts 1024 more nodes, which brings the
    /// search's own check to the next node.
    pub fn watch(&mut self, deadline: Option<Instant>, stop: StopFlag) {
        self.deadline = deadline;
        self.stop = Some(stop);
        self.late = false;
    }

    fn is_late(&mut self) -> bool {
        if !self.late {
            self.probes = self.probes.wrapping_add(1);
            if self.probes.is_multiple_of(16) {
                self.late = self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.stop.as_ref().is_some_and(StopFlag::is_stopped);
            }
        }
        self.late
    }
}

impl SearchGame for GomokuGame {
    type Move = Point;

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn generate(&self, moves: &mut Vec<Point>) {
        if let Some(root) = self
            .root_moves
            .as_ref()
            .filter(|_| self.board.stones() == self.root_stones)
        {
            moves.extend_from_slice(root);
            return;
        }
        let limit = match self.board.stones() - self.root_stones {
            0 => usize::MAX,
            1 | 2 => WIDTH_NEAR,
            _ => WIDTH_DEEP,
        };
        movegen::generate(&self.board, self.tactics, limit, moves);
    }

    fn play(&mut self, m: Point) {
        self.board.make(m);
    }

    fn undo(&mut self, _m: Point) {
        self.board.unmake();
    }

    fn terminal(&self, ply: u32) -> Option<i32> {
        if self.board.last_made_five() {
            return Some(-WIN + ply as i32);
        }
        (self.board.stones() == self.board.points().len()).then_some(0)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.board)
    }

    fn move_code(&self, m: Point) -> u32 {
        self.board.code(m)
    }

    fn notation(&self, m: Point) -> String {
        self.board.cell(m).to_string()
    }

    /// Proven values that need no search: our five-point (win in 1); two fours of theirs, or
    /// one we may not block (loss in 2); with tactics, our open four when they have no four
    /// (win in 3); and near the leaves a VCF.
    fn probe(
        &mut self,
        depth: i32,
        ply: u32,
        _alpha: i32,
        _beta: i32,
        nodes: &mut u64,
    ) -> Option<i32> {
        if self.is_late() {
            *nodes += 1024;
        }
        let board = &self.board;
        let me = board.turn();
        let them = 1 - me;
        let ply = ply as i32;
        if !board.summary(me).fives.is_empty() {
            return Some(WIN - ply - 1);
        }
        let (first, second) = board.summary(them).fives.first_two();
        if let Some(x) = first {
            if second.is_some() || !board.is_legal(x, me) {
                return Some(-(WIN - ply - 2));
            }
            return None;
        }
        if !self.tactics {
            return None;
        }
        if !board.summary(me).flex4s.is_empty() && !movegen::open_four_points(board, me).is_empty()
        {
            return Some(WIN - ply - 3);
        }
        let has_four = !board.summary(me).fours.is_empty();
        if self.probe_vcf && depth <= PROBE_VCF_DEPTH && has_four {
            self.threats.set_budget(PROBE_VCF_NODES, None, None);
            let win = self.threats.vcf(&mut self.board, PROBE_VCF_PLIES);
            *nodes += self.threats.nodes();
            if let Some(win) = win {
                return Some(WIN - ply - win.plies as i32);
            }
        }
        None
    }
}
