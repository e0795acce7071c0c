//! Gomoku puzzles: a win by continuous fours (VCF) or by fours and open threes (VCT),
//! freestyle or renju, proven by the threat search. The attacker's moves are his fives and
//! fours, and for a VCT his open threes — the puzzle asks for those. After a four the
//! defender's only replies that do not lose at once are his own five (he wins) and the
//! five-point's block (a block forbidden to black in renju is no block); after an open three,
//! the points that stop every open four it threatens and his own fours: any other stone lets
//! the open four in, the quickest loss there is.

use game_core::{AnyPosition, Cell, Color, GomokuRule};

use super::proof::{NoProof, Prover};
use crate::engine::gomoku::board::{side, Board, Point};
use crate::engine::gomoku::movegen::{defence_points, four_moves, open_four_points};
use crate::engine::gomoku::threat::ThreatSearch;

/// Nodes one threat search may take; a position that needs more is not made a puzzle.
const SEARCH_NODES: u64 = 2_000_000;

/// The threat search with its caches; `vct` when the puzzle is a VCT.
pub struct GomokuProver {
    threats: ThreatSearch,
    vct: bool,
}

impl Default for GomokuProver {
    fn default() -> Self {
        GomokuProver::new()
    }
}

fn board_of(pos: &AnyPosition) -> Result<Board, NoProof> {
    match pos {
        AnyPosition::Gomoku(p) => Ok(Board::from_position(p)),
        _ => Err(NoProof::Unsuited),
    }
}

fn name(board: &Board, p: Point) -> String {
    board.cell(p).to_string()
}

/// Points where `v` would make five (legal for `v`).
fn five_points(board: &Board, v: usize) -> Vec<Point> {
    board
        .summary(v)
        .fives
        .iter()
        .filter(|&p| board.is_legal(p, v))
        .collect()
}

impl GomokuProver {
    /// A prover of VCF puzzles.
    #[must_use]
    pub fn new() -> GomokuProver {
        let mut threats = ThreatSearch::new(18);
        threats.set_budget(SEARCH_NODES, None, None);
        // The classical VCT (fours and open threes): a quiet threat's proof leans on
        // defences this prover does not list.
        threats.set_quiet(false);
        GomokuProver {
            threats,
            vct: false,
        }
    }

    /// Proves VCT puzzles (`true`) or VCF ones.
    pub fn set_threes(&mut self, vct: bool) {
        self.vct = vct;
    }

    /// The plies of the side to move's quickest VCT within `plies`, if he has one.
    pub fn vct_plies(&mut self, pos: &AnyPosition, plies: u32) -> Result<Option<u32>, NoProof> {
        let mut board = board_of(pos)?;
        self.threats.clear();
        let win = self.threats.vct(&mut board, plies);
        if win.is_none() && self.threats.aborted() {
            return Err(NoProof::Unknown);
        }
        Ok(win.map(|w| w.plies))
    }

    /// The plies of the side to move's quickest VCF within `plies`, if he has one.
    pub fn vcf_plies(&mut self, pos: &AnyPosition, plies: u32) -> Result<Option<u32>, NoProof> {
        let mut board = board_of(pos)?;
        self.threats.clear();
        let win = self.threats.vcf(&mut board, plies);
        if win.is_none() && self.threats.aborted() {
            return Err(NoProof::Unknown);
        }
        Ok(win.map(|w| w.plies))
    }

    /// The themes: `vcf` or `vct`, and `renju-foul` when on the main line black cannot block
    /// a five-point because it is forbidden to him.
    #[must_use]
    pub fn themes(start: &AnyPosition, line: &[String], vct: bool) -> Vec<String> {
        let mut themes = vec![if vct { "vct" } else { "vcf" }.to_string()];
        let AnyPosition::Gomoku(g) = start else {
            return themes;
        };
        if g.rule() != GomokuRule::Renju || start.turn() != Color::White {
            return themes;
        }
        let mut pos = start.clone();
        for (i, mv) in line.iter().enumerate() {
            let _ = pos.play_str(mv);
            if i % 2 == 0 && !pos.is_over() {
                let Ok(board) = board_of(&pos) else { break };
                let white = side(Color::White);
                let foul = board
                    .summary(white)
                    .fives
                    .iter()
                    .any(|p| !board.is_legal(p, side(Color::Black)));
                if foul {
                    themes.push("renju-foul".into());
                    break;
                }
            }
        }
        themes
    }
}

impl Prover for GomokuProver {
    fn attacker_moves(&mut self, pos: &AnyPosition) -> Result<Vec<String>, NoProof> {
        let board = board_of(pos)?;
        let a = side(pos.turn());
        let mut moves = five_points(&board, a);
        if self.vct && moves.is_empty() {
            // His four must be blocked: in a VCT the block need not be a threat itself.
            if let Some(block) = five_points(&board, 1 - a).first() {
                if board.is_legal(*block, a) {
                    moves.push(*block);
                }
                return Ok(moves.into_iter().map(|p| name(&board, p)).collect());
            }
        }
        four_moves(&board, a, &mut moves);
        if self.vct {
            for p in board.summary(a).threes.iter() {
                if !moves.contains(&p) && board.is_legal(p, a) {
                    moves.push(p);
                }
            }
        }
        Ok(moves.into_iter().map(|p| name(&board, p)).collect())
    }

    fn defender_moves(&mut self, pos: &AnyPosition) -> Vec<String> {
        let Ok(board) = board_of(pos) else {
            return Vec::new();
        };
        let d = side(pos.turn());
        let own = five_points(&board, d);
        if !own.is_empty() {
            return own.into_iter().map(|p| name(&board, p)).collect();
        }
        let blocks: Vec<Point> = board
            .summary(1 - d)
            .fives
            .iter()
            .filter(|&p| board.is_legal(p, d))
            .collect();
        if !blocks.is_empty() {
            return blocks.into_iter().map(|p| name(&board, p)).collect();
        }
        let threats = open_four_points(&board, 1 - d);
        if self.vct && board.summary(1 - d).fives.is_empty() {
            if threats.is_empty() {
                // No threat: the defender may play anything, and nothing is proven.
                return Vec::new();
            }
            let mut replies = Vec::new();
            defence_points(&board, d, &threats, &mut replies);
            four_moves(&board, d, &mut replies);
            if !replies.is_empty() {
                return replies.into_iter().map(|p| name(&board, p)).collect();
            }
        }
        // No block he may play (renju: it is forbidden to black): whatever he plays loses to
        // the five; the stone kept is the legal point nearest the board's centre.
        let centre = Cell::new(board.size() as u8 / 2, board.size() as u8 / 2);
        let mut legal = pos.legal_moves();
        legal.sort_by_key(|m| {
            m.parse::<Cell>().map_or(u32::MAX, |c| {
                u32::from(c.col.abs_diff(centre.col)) + u32::from(c.row.abs_diff(centre.row))
            })
        });
        legal.truncate(1);
        legal
    }

    fn wins_within(&mut self, pos: &AnyPosition, moves: u32) -> Result<Option<i32>, NoProof> {
        let bound = 2 * moves - 1;
        let plies = if self.vct {
            self.vct_plies(pos, bound)?
        } else {
            self.vcf_plies(pos, bound)?
        };
        // A VCT's count can pass the bound it was searched within (a defence that loses to
        // "any move, then the open four" is counted whole): only a win within it is one.
        Ok(plies.filter(|&p| p <= bound).map(|p| p as i32))
    }
}
