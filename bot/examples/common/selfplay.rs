//! What the Gomoku trainers' self-play shares: the engine that plays it (full strength at a
//! fixed depth, its threat searches held to small node budgets so that a game takes a
//! second), each move (that search's, or now and then a random candidate, so that the
//! positions after a bad move are met too), and which positions the evaluation is asked of.

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, Color, Position};
use kibitz_bot::engine::gomoku::board::Board;
use kibitz_bot::engine::gomoku::{FixedThreatBudget, GomokuEngine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};
use rand::rngs::StdRng;
use rand::Rng;

/// The self-play engine.
pub fn engine() -> GomokuEngine {
    GomokuEngine::new().with_fixed_threat_budget(FixedThreatBudget {
        own: 3_000,
        defence: 1_000,
        vct_plies: 9,
        ..FixedThreatBudget::default()
    })
}

/// The next move of `pos` (whose board is `board`): with probability `mistakes` a random
/// candidate (never a point forbidden to renju black), else `engine`'s search to `depth`.
pub fn next_move(
    engine: &mut GomokuEngine,
    pos: &Gomoku,
    board: &Board,
    rng: &mut StdRng,
    depth: u32,
    mistakes: f64,
) -> Cell {
    if rng.random_bool(mistakes) {
        let cands: Vec<Cell> = board
            .candidates()
            .iter()
            .map(|p| board.cell(p))
            .filter(|&c| pos.forbidden_kind(c).is_none() || pos.turn() == Color::White)
            .collect();
        return cands[rng.random_range(0..cands.len())];
    }
    let any = AnyPosition::Gomoku(pos.clone());
    engine
        .search(
            &any,
            SearchLimits::Depth(depth),
            Level::MAX,
            &StopFlag::new(),
            rng.random(),
        )
        .expect("a move in an unfinished game")
        .best
        .parse()
        .expect("a cell")
}

/// Whether the evaluation is asked of this position as it stands: no five-point for either
/// side, no four-three point of the opponent's.
pub fn quiet(board: &Board) -> bool {
    let me = board.turn();
    let them = 1 - me;
    board.summary(me).fives.is_empty()
        && board.summary(them).fives.is_empty()
        && board.summary(them).four_threes.is_empty()
}
