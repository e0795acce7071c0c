//! Talking to an Othello engine of the NBoard protocol (as Edax speaks it): `nboard 1` once,
//! then for each move a search depth, the position as a GGF game record (`set game`) and
//! `go`; the engine answers `=== MOVE` (then, depending on the engine, its score and time,
//! after spaces or slashes). Other lines (`status`, `nodestats`, `set myname`) are passed
//! over. The protocol carries a depth and no time, so the bot paces the depth: one less
//! after an answer that came too late (the engine keeps running, and its late answer is read
//! and dropped before the next position), one more after one that came in a quarter of the
//! time, never above the level's.

use std::time::{Duration, Instant};

use game_core::AnyPosition;

use super::process::Process;
use super::ExternalError;
use crate::engine::{Level, StopFlag};

/// The deepest search asked of the engine at `level`: 5 at level 1 up to 14 at level 10.
fn most_depth(level: Level) -> u8 {
    level.get() + 4
}

/// How deep the engine is asked to search, as its answers keep time.
#[derive(Debug, Default)]
pub(super) struct Pace {
    depth: u8,
    /// The depth the engine was last told.
    told: Option<u8>,
    /// A `go` whose answer came too late and is still to be read.
    pub(super) owed: bool,
}

impl Pace {
    /// The engine was started again: it knows nothing and owes nothing.
    pub(super) fn restarted(&mut self) {
        self.told = None;
        self.owed = false;
    }
}

/// Opens the conversation. An engine may drop what arrives while it loads (Edax does), so
/// the bot pings until the engine answers, and only then says what it wants.
pub(super) fn hello(
    process: &mut Process,
    ready_by: Instant,
    stop: &StopFlag,
) -> Result<(), ExternalError> {
    for n in 1.. {
        process.send(&format!("ping {n}"))?;
        let wait = (Instant::now() + Duration::from_millis(250)).min(ready_by);
        let pong = format!("pong {n}");
        let answered = loop {
            match process.line_by(wait, stop) {
                Ok(line) if line == pong => break true,
                Ok(_) => {}
                Err(ExternalError::Late) => break false,
                Err(e) => return Err(e),
            }
        };
        if answered {
            break;
        }
        if Instant::now() >= ready_by {
            return Err(ExternalError::Late);
        }
    }
    process.send("nboard 1")
}

/// The position as a one-node GGF record: the board row by row from a1 (`*` black, `O`
/// white, `-` empty) and the side to move.
fn ggf(position: &game_core::othello::Othello) -> String {
    let text = position.to_text();
    let (squares, side) = text.split_at(64);
    let rows: Vec<String> = squares
        .as_bytes()
        .chunks(8)
        .map(|row| {
            row.iter()
                .map(|&c| match c {
                    b'X' => '*',
                    b'O' => 'O',
                    _ => '-',
                })
                .collect()
        })
        .collect();
    let side = if side.trim() == "X" { '*' } else { 'O' };
    format!(
        "(;GM[Othello]PC[Kibitz]PB[black]PW[white]RE[?]TI[0]TY[8]BO[8 {} {side}];)",
        rows.join(" ")
    )
}

/// Reads lines until the engine's move, by `by`; what follows `===`.
fn answer(process: &mut Process, by: Instant, stop: &StopFlag) -> Result<String, ExternalError> {
    loop {
        let line = process.line_by(by, stop)?;
        if let Some(rest) = line.strip_prefix("===") {
            return Ok(rest.to_string());
        }
    }
}

/// Asks the engine for its move by `by`, at a depth paced by `pace`, at most `level`'s.
pub(super) fn best_move(
    process: &mut Process,
    position: &AnyPosition,
    pace: &mut Pace,
    level: Level,
    by: Instant,
    stop: &StopFlag,
) -> Result<String, ExternalError> {
    let AnyPosition::Othello(o) = position else {
        return Err(ExternalError::Refused(
            "an NBoard engine plays Othello only".into(),
        ));
    };
    if pace.owed {
        answer(process, by, stop)?;
        pace.owed = false;
    }
    process.drain();
    let most = most_depth(level);
    if pace.depth == 0 || pace.depth > most {
        pace.depth = most;
    }
    if pace.told != Some(pace.depth) {
        process.send(&format!("set depth {}", pace.depth))?;
        pace.told = Some(pace.depth);
    }
    let asked = Instant::now();
    process.send(&format!("set game {}", ggf(o)))?;
    process.send("go")?;
    let rest = match answer(process, by, stop) {
        Ok(rest) => rest,
        Err(e @ (ExternalError::Late | ExternalError::Stopped)) => {
            // The engine goes on with this position; its answer is read before the next.
            pace.owed = true;
            if matches!(e, ExternalError::Late) {
                pace.depth = pace.depth.saturating_sub(1).max(1);
            }
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    if asked.elapsed() < by.saturating_duration_since(asked) / 4 {
        pace.depth = (pace.depth + 1).min(most);
    }
    let word = rest
        .split(|c: char| c.is_whitespace() || c == '/')
        .find(|w| !w.is_empty())
        .unwrap_or("");
    if word.eq_ignore_ascii_case("PA") {
        return Ok("pass".into());
    }
    Ok(word.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_as_a_game_record() {
        let start = game_core::othello::Othello::new();
        assert_eq!(
            ggf(&start),
            "(;GM[Othello]PC[Kibitz]PB[black]PW[white]RE[?]TI[0]TY[8]BO[8 -------- -------- \
             -------- ---O*--- ---*O--- -------- -------- -------- *];)"
        );
    }
}
