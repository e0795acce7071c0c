//! The one place that knows every game's engine: which engine plays a game, how
//! `kibitz analyze` reads a position of it, and which positions `kibitz bench` searches.

use game_core::{AnyPosition, GameKind, GomokuRule};

use crate::engine::Engine;
use crate::engine::{connect4, gomoku, othello};

/// A fresh engine for a game.
#[must_use]
pub fn engine_for(kind: GameKind) -> Box<dyn Engine> {
    match kind {
        GameKind::Gomoku => Box::new(gomoku::GomokuEngine::new()),
        GameKind::Othello => Box::new(othello::OthelloEngine::new()),
        GameKind::Connect4 => Box::new(connect4::Connect4Engine::new()),
    }
}

/// The board options of `kibitz analyze` (docs/engines.md).
#[derive(Clone, Debug)]
pub struct PositionOptions {
    /// The Gomoku board size.
    pub size: u8,
    pub rule: GomokuRule,
    /// The Connect Four board that move strings are played on.
    pub connect4: connect4::BoardOptions,
}

impl Default for PositionOptions {
    fn default() -> Self {
        PositionOptions {
            size: 15,
            rule: GomokuRule::Freestyle,
            connect4: connect4::BoardOptions::default(),
        }
    }
}

/// Reads one `kibitz analyze` line of a game.
pub fn parse_position(
    kind: GameKind,
    line: &str,
    options: &PositionOptions,
) -> Result<AnyPosition, String> {
    match kind {
        GameKind::Gomoku => gomoku::parse_position(line, options.size, options.rule),
        GameKind::Othello => othello::parse_position(line),
        GameKind::Connect4 => connect4::parse_position(line, &options.connect4),
    }
}

/// Fixed positions of a game (in the `kibitz analyze` format) and the depth `kibitz bench`
/// searches each to.
#[must_use]
pub fn bench_positions(kind: GameKind) -> Vec<(String, u32)> {
    match kind {
        GameKind::Gomoku => gomoku::bench_positions(),
        GameKind::Othello => othello::bench_positions(),
        GameKind::Connect4 => connect4::bench_positions(),
    }
}
