//! Talking to an engine of the `kibitz analyze` line protocol (docs/engines.md): one line a
//! position, `@MS` first for the time the move may take, and one JSON object a line back,
//! whose `best` is the move (or whose `error` says why there is none).

use std::time::Instant;

use game_core::AnyPosition;

use super::process::Process;
use super::ExternalError;
use crate::engine::StopFlag;

/// The position as `kibitz analyze` reads it: the Connect Four board text, the Othello FFO
/// text, the Gomoku stones as moves, black first.
fn position_line(position: &AnyPosition) -> String {
    match position {
        AnyPosition::Connect4(c) => c.to_board_text(),
        AnyPosition::Othello(o) => o.to_text(),
        AnyPosition::Gomoku(g) => {
            let (mut black, mut white) = (Vec::new(), Vec::new());
            for (cell, color) in g.stones() {
                if color == game_core::Color::Black {
                    black.push(cell.to_string());
                } else {
                    white.push(cell.to_string());
                }
            }
            let mut moves = Vec::new();
            for i in 0..black.len().max(white.len()) {
                moves.extend(black.get(i).cloned());
                moves.extend(white.get(i).cloned());
            }
            moves.join(" ")
        }
    }
}

/// Asks the engine for its move by `by`.
pub(super) fn best_move(
    process: &mut Process,
    position: &AnyPosition,
    by: Instant,
    stop: &StopFlag,
) -> Result<String, ExternalError> {
    let ms = super::engine_share(by.saturating_duration_since(Instant::now()))
        .as_millis()
        .max(1);
    process.drain();
    process.send(&format!("@{ms} {}", position_line(position)))?;
    let line = process.line_by(by, stop)?;
    let answer: serde_json::Value =
        serde_json::from_str(&line).map_err(|_| ExternalError::Refused(line.clone()))?;
    if let Some(best) = answer["best"].as_str() {
        return Ok(best.to_string());
    }
    Err(ExternalError::Refused(
        answer["error"].as_str().unwrap_or(&line).to_string(),
    ))
}
