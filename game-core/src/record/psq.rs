//! PSQ (Piskvork) export and import of a [`GameRecord`], Gomoku only (the format is in the
//! parent module's docs): PSQ carries no rule, so the importer is given one.

use std::fmt::Write as _;

use super::{kind_name, quote, GameRecord, RecordError, Replay};
use crate::error::MoveError;
use crate::position::Cell;
use crate::spec::{GameSpec, GomokuRule};

impl GameRecord {
    /// The record as PSQ (Gomoku only).
    pub fn to_psq(&self) -> Result<String, RecordError> {
        let GameSpec::Gomoku { size, .. } = &self.spec else {
            return Err(RecordError::Unsupported {
                format: "PSQ",
                game: kind_name(&self.spec),
            });
        };
        let replay = self.replay()?;
        let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
        for (index, m) in replay.moves.iter().enumerate() {
            let cell: Cell = m.parse().map_err(|e| RecordError::Move {
                index,
                text: quote(m),
                error: MoveError::Parse(e),
            })?;
            let x = u32::from(cell.col) + 1;
            let y = size - u32::from(cell.row);
            let _ = writeln!(out, "{x},{y},0");
        }
        out.push_str("-1\n");
        for name in [&self.black, &self.white] {
            // A name is one line; anything after a line break would read as another field.
            let name = name.as_deref().unwrap_or("?");
            let name = name.lines().next().unwrap_or("?");
            let _ = writeln!(out, "{}", if name.trim().is_empty() { "?" } else { name });
        }
        Ok(out)
    }

    /// Reads a PSQ record. PSQ has no rule, so it is given.
    pub fn from_psq(text: &str, rule: GomokuRule) -> Result<GameRecord, RecordError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let Some((_, header)) = lines.by_ref().find(|(_, l)| !l.is_empty()) else {
            return Err(psq_err(1, "empty record"));
        };
        let size = parse_psq_header(header)?;
        let spec = GameSpec::gomoku(size, rule);
        let mut replay = Replay::new(&spec)?;
        let mut rest = Vec::new();
        for (number, line) in lines.by_ref() {
            if line.is_empty() {
                continue;
            }
            match parse_psq_move(line) {
                Some((x, y)) => {
                    let on_board = |v: i64| (1..=i64::from(size)).contains(&v);
                    if !on_board(x) || !on_board(y) {
                        return Err(psq_err(number, &format!("{x},{y} is off the board")));
                    }
                    let cell = Cell::new((x - 1) as u8, (i64::from(size) - y) as u8);
                    replay.play(&cell.to_string())?;
                }
                None => {
                    rest.push(line);
                    break;
                }
            }
        }
        // After the moves: names, possibly among numeric lines (`-1`, result codes).
        rest.extend(lines.map(|(_, l)| l));
        let mut names = rest
            .into_iter()
            .filter(|l| !l.is_empty() && l.parse::<i64>().is_err())
            .map(|l| (l != "?").then(|| l.to_string()));
        let black = names.next().flatten();
        let white = names.next().flatten();
        replay.finish(&spec, black, white, None)
    }
}

fn psq_err(line: usize, message: &str) -> RecordError {
    RecordError::Psq {
        line,
        message: message.to_string(),
    }
}

/// `Piskvorky 15x15, 11:11, 0` -> 15. Only square boards are Gomoku boards here.
fn parse_psq_header(header: &str) -> Result<u32, RecordError> {
    let bad = || {
        psq_err(
            1,
            &format!("expected 'Piskvorky NxN, ...', got {:?}", quote(header)),
        )
    };
    let rest = header.strip_prefix("Piskvorky").ok_or_else(bad)?;
    let dims = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = dims.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w != h {
        return Err(psq_err(1, &format!("board {w}x{h} is not square")));
    }
    Ok(w)
}

/// `8,8,0` or `8,8` -> (8, 8); `None` for a line that is not a move.
fn parse_psq_move(line: &str) -> Option<(i64, i64)> {
    let mut fields = line.split(',').map(str::trim);
    let x = fields.next()?.parse().ok()?;
    let y = fields.next()?.parse().ok()?;
    match fields.next() {
        None => {}
        Some(t) => {
            t.parse::<i64>().ok()?;
        }
    }
    if fields.next().is_some() {
        return None;
    }
    Some((x, y))
}
