//! The one place that knows every game's engine: which engine plays a game, how long it
//! thinks in an untimed game, how `kibitz analyze` reads a position of it, and what
//! `kibitz bench` searches.

use std::io::Write;
use std::time::{Duration, Instant};

use game_core::{Cell, GameKind, GomokuRule};

use crate::engine::{Engine, Level, Limits, StopFlag};
use crate::{connect4, gomoku, othello};

/// A fresh engine for a game.
#[must_use]
pub fn engine_for(kind: GameKind) -> Box<dyn Engine> {
    match kind {
        GameKind::Gomoku => Box::new(gomoku::GomokuEngine::new()),
        GameKind::Othello => Box::new(othello::OthelloEngine::new()),
        GameKind::Connect4 => Box::new(connect4::Connect4Engine::new()),
    }
}

/// How long a level thinks about a move of an untimed game.
#[must_use]
pub fn think_time(kind: GameKind, level: Level) -> Duration {
    match kind {
        GameKind::Gomoku => gomoku::think_time(level),
        GameKind::Othello => othello::think_time(level),
        GameKind::Connect4 => connect4::think_time(level),
    }
}

/// The board options of `kibitz analyze` (ENGINES.md).
#[derive(Clone, Debug)]
pub struct PositionOptions {
    pub size: u8,
    pub rule: GomokuRule,
    pub cols: u8,
    pub rows: u8,
    /// 0-based (column, row from the bottom).
    pub blocked: Vec<Cell>,
}

impl Default for PositionOptions {
    fn default() -> Self {
        PositionOptions {
            size: 15,
            rule: GomokuRule::Freestyle,
            cols: 7,
            rows: 6,
            blocked: Vec::new(),
        }
    }
}

/// Reads one `kibitz analyze` line of a game.
pub fn parse_position(
    kind: GameKind,
    line: &str,
    options: &PositionOptions,
) -> Result<game_core::AnyPosition, String> {
    match kind {
        GameKind::Gomoku => gomoku::parse_position(line, options.size, options.rule),
        GameKind::Othello => othello::parse_position(line),
        GameKind::Connect4 => connect4::parse_position(
            line,
            &connect4::BoardOptions {
                cols: options.cols,
                rows: options.rows,
                blocked: options.blocked.clone(),
            },
        ),
    }
}

/// `kibitz bench`: every game's fixed positions at fixed depth with fresh engines, one line
/// each, then `bench: <total nodes> nodes <nps> nps`. The node total is a signature of the
/// search: it changes only when the search or an evaluation changes.
pub fn bench(out: &mut impl Write) -> std::io::Result<u64> {
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let games = [
        (GameKind::Gomoku, gomoku::bench_positions()),
        (GameKind::Othello, othello::bench_positions()),
        (GameKind::Connect4, connect4::bench_positions()),
    ];
    for (kind, positions) in games {
        for (i, (text, depth)) in positions.iter().enumerate() {
            let position = match parse_position(kind, text, &PositionOptions::default()) {
                Ok(p) => p,
                Err(e) => {
                    writeln!(out, "{} {}: bad bench position: {e}", kind.as_str(), i + 1)?;
                    continue;
                }
            };
            let mut engine = engine_for(kind);
            let started = Instant::now();
            let result = engine.search(
                &position,
                Limits::Depth(*depth),
                Level::MAX,
                &StopFlag::new(),
                0,
            );
            let took = started.elapsed();
            total_time += took;
            match result {
                Some(r) => {
                    total_nodes += r.nodes;
                    writeln!(
                        out,
                        "{} {}: depth {depth} best {} score {:?} nodes {} ms {}",
                        kind.as_str(),
                        i + 1,
                        r.best,
                        r.score,
                        r.nodes,
                        took.as_millis()
                    )?;
                }
                None => writeln!(out, "{} {}: no move", kind.as_str(), i + 1)?,
            }
        }
    }
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "bench: {total_nodes} nodes {nps} nps")?;
    Ok(total_nodes)
}
