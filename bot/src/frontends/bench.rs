//! `kibitz bench`: a signature of the engines' search, as docs/engines.md fixes it.

use std::io::Write;
use std::time::{Duration, Instant};

use game_core::GameKind;

use crate::engine::registry::{bench_positions, engine_for, parse_position, PositionOptions};
use crate::engine::{Level, SearchLimits, StopFlag};

/// `kibitz bench`: every game's fixed positions at fixed depth with fresh engines, one line
/// each, then `bench: <total nodes> nodes <nps> nps`. The node total is a signature of the
/// search: it changes only when the search or an evaluation changes.
pub fn run(out: &mut impl Write) -> std::io::Result<u64> {
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for kind in [GameKind::Gomoku, GameKind::Othello, GameKind::Connect4] {
        for (i, (text, depth)) in bench_positions(kind).iter().enumerate() {
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
                SearchLimits::Depth(*depth),
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
