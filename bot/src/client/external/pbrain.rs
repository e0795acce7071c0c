//! Talking to a Gomocup brain: `START size` once, then for each move the rule and the time
//! (`INFO`), the whole position (`BOARD … DONE`, the side to move's stones as `1`), and its
//! answer `x,y` (0-based, `y` counting rows from the top). `MESSAGE` and `DEBUG` lines, which
//! brains send as they think, are passed over.

use std::time::{Duration, Instant};

use game_core::{AnyPosition, Cell, Color, GomokuRule, Position};

use super::process::Process;
use super::ExternalError;
use crate::engine::{SearchLimits, StopFlag};

/// Reads lines until one is not a brain's remark; `ERROR …` is a refusal.
fn answer(process: &mut Process, by: Instant, stop: &StopFlag) -> Result<String, ExternalError> {
    loop {
        let line = process.line_by(by, stop)?;
        let word = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        match word.as_str() {
            "" | "MESSAGE" | "DEBUG" | "SUGGEST" => {}
            "ERROR" | "UNKNOWN" => return Err(ExternalError::Refused(line)),
            _ => return Ok(line),
        }
    }
}

/// Starts the brain on the position's board.
pub(super) fn hello(
    process: &mut Process,
    position: &AnyPosition,
    by: Instant,
    stop: &StopFlag,
) -> Result<(), ExternalError> {
    let AnyPosition::Gomoku(g) = position else {
        return Err(ExternalError::Refused(
            "a Gomocup brain plays Gomoku only".into(),
        ));
    };
    process.send(&format!("START {}", g.size()))?;
    let ok = answer(process, by, stop)?;
    if ok.eq_ignore_ascii_case("OK") {
        Ok(())
    } else {
        Err(ExternalError::Refused(ok))
    }
}

/// The protocol's `rule` bits: 1 exactly five, 4 renju.
fn rule_bits(rule: GomokuRule) -> u8 {
    match rule {
        GomokuRule::Freestyle => 0,
        GomokuRule::Standard => 1,
        GomokuRule::Renju => 4,
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis().max(1)
}

/// Asks the brain for its move by `by`.
pub(super) fn best_move(
    process: &mut Process,
    position: &AnyPosition,
    limits: SearchLimits,
    by: Instant,
    stop: &StopFlag,
) -> Result<String, ExternalError> {
    let AnyPosition::Gomoku(g) = position else {
        return Err(ExternalError::Refused(
            "a Gomocup brain plays Gomoku only".into(),
        ));
    };
    let n = u32::from(g.size());
    process.drain();
    // Less than the bot waits: an answer that comes at the end of the turn is not late.
    let turn = ms(super::engine_share(
        by.saturating_duration_since(Instant::now()),
    ));
    process.send(&format!("INFO rule {}", rule_bits(g.rule())))?;
    process.send(&format!("INFO timeout_turn {turn}"))?;
    match limits {
        SearchLimits::Clock { left, .. } => {
            process.send(&format!("INFO timeout_match {}", ms(left)))?;
            process.send(&format!("INFO time_left {}", ms(left)))?;
        }
        _ => process.send("INFO timeout_match 0")?,
    }
    // The stones alternate, black first, as if played in that order; `1` marks the side to
    // move.
    let mover = g.turn();
    let (black, white): (Vec<Cell>, Vec<Cell>) = {
        let mut b = Vec::new();
        let mut w = Vec::new();
        for (cell, color) in g.stones() {
            if color == Color::Black {
                b.push(cell);
            } else {
                w.push(cell);
            }
        }
        (b, w)
    };
    process.send("BOARD")?;
    for i in 0..black.len().max(white.len()) {
        for (stones, color) in [(&black, Color::Black), (&white, Color::White)] {
            if let Some(c) = stones.get(i) {
                let field = if color == mover { 1 } else { 2 };
                let y = n - 1 - u32::from(c.row);
                process.send(&format!("{},{y},{field}", c.col))?;
            }
        }
    }
    process.send("DONE")?;
    let line = answer(process, by, stop)?;
    let mut parts = line.split(',').map(str::trim);
    let parsed = (|| {
        let x: u32 = parts.next()?.parse().ok()?;
        let y: u32 = parts.next()?.parse().ok()?;
        (x < n && y < n).then(|| Cell::new(x as u8, (n - 1 - y) as u8))
    })();
    parsed
        .map(|c| c.to_string())
        .ok_or(ExternalError::Illegal(line))
}
