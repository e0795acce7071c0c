//! SGF export and import of a [`GameRecord`] (Gomoku `GM[4]`, Othello `GM[2]`; the format is in
//! the parent module's docs): the main line only, setup properties refused.

use std::fmt::Write as _;

use super::{kind_name, quote, GameRecord, RecordError, Replay};
use crate::error::MoveError;
use crate::position::{Cell, EndReason};
use crate::protocol::{GameResult, ResultKind};
use crate::spec::{GameKind, GameSpec, GomokuRule};
use crate::Color;

impl GameRecord {
    /// The record as SGF (Gomoku and Othello).
    pub fn to_sgf(&self) -> Result<String, RecordError> {
        let (gm, size) = match &self.spec {
            GameSpec::Gomoku { size, .. } => (4, *size),
            GameSpec::Othello => (2, 8),
            GameSpec::Connect4 { .. } => {
                return Err(RecordError::Unsupported {
                    format: "SGF",
                    game: kind_name(&self.spec),
                })
            }
        };
        let replay = self.replay()?;
        let mut out = format!("(;FF[4]GM[{gm}]SZ[{size}]");
        if let GameSpec::Gomoku { rule, .. } = &self.spec {
            let _ = write!(out, "RU[{}]", rule.as_str());
        }
        for (tag, name) in [("PB", &self.black), ("PW", &self.white)] {
            if let Some(name) = name {
                let _ = write!(out, "{tag}[{}]", sgf_escape(name));
            }
        }
        if let Some(result) = &self.result {
            let _ = write!(out, "RE[{}]", sgf_result(result));
        }
        let flip = matches!(self.spec, GameSpec::Gomoku { .. });
        for (index, m) in replay.moves.iter().enumerate() {
            // Color::from_ply holds because passes are explicit moves in `moves`.
            let tag = match Color::from_ply(index) {
                Color::Black => 'B',
                Color::White => 'W',
            };
            let point = if m == "pass" {
                String::new()
            } else {
                let cell: Cell = m.parse().map_err(|e| RecordError::Move {
                    index,
                    text: quote(m),
                    error: MoveError::Parse(e),
                })?;
                let row = if flip {
                    (size as u8).saturating_sub(1).saturating_sub(cell.row)
                } else {
                    cell.row
                };
                let mut point = String::with_capacity(2);
                point.push((b'a' + cell.col) as char);
                point.push((b'a' + row) as char);
                point
            };
            let _ = write!(out, ";{tag}[{point}]");
        }
        out.push_str(")\n");
        Ok(out)
    }

    /// Reads the main line of an SGF game (Gomoku or Othello) and replays it.
    pub fn from_sgf(text: &str) -> Result<GameRecord, RecordError> {
        let nodes = sgf_main_line(text)?;
        let Some(root) = nodes.first() else {
            return Err(RecordError::Sgf("no game".to_string()));
        };
        let gm = root.get("GM").ok_or_else(|| sgf_err("no GM (game type)"))?;
        let size = match root.get("SZ") {
            None => None,
            Some(sz) => Some(parse_sgf_size(sz)?),
        };
        let spec = match gm.trim() {
            "4" => {
                let rule = match root.get("RU").map(|r| r.trim().to_ascii_lowercase()) {
                    Some(r) if r == "renju" => GomokuRule::Renju,
                    Some(r) if r == "standard" => GomokuRule::Standard,
                    _ => GomokuRule::Freestyle,
                };
                GameSpec::gomoku(size.unwrap_or(15), rule)
            }
            "2" => {
                if size.is_some_and(|s| s != 8) {
                    return Err(sgf_err("Othello must be SZ[8]"));
                }
                GameSpec::Othello
            }
            other => {
                return Err(sgf_err(&format!(
                    "GM[{}] is neither Gomoku (4) nor Othello (2)",
                    quote(other)
                )))
            }
        };
        let board = match &spec {
            GameSpec::Gomoku { size, .. } => *size as u8,
            _ => 8,
        };
        let flip = spec.kind() == GameKind::Gomoku;
        let mut replay = Replay::new(&spec)?;
        for node in &nodes {
            if ["AB", "AW", "AE"].iter().any(|p| node.get(p).is_some()) {
                return Err(sgf_err("setup properties (AB, AW, AE) are not supported"));
            }
            let black = node.get("B");
            let white = node.get("W");
            let (color, point) = match (black, white) {
                (Some(_), Some(_)) => return Err(sgf_err("a node with both B and W")),
                (Some(p), None) => (Color::Black, p),
                (None, Some(p)) => (Color::White, p),
                (None, None) => continue,
            };
            let point = point.trim();
            let is_pass = point.is_empty() || (point == "tt" && board <= 19);
            let text = if is_pass {
                if spec.kind() != GameKind::Othello {
                    return Err(sgf_err("a pass in a Gomoku game"));
                }
                "pass".to_string()
            } else {
                sgf_point_to_move(point, board, flip)?
            };
            replay.play_as(color, &text)?;
        }
        let recorded = match root.get("RE") {
            Some(re) => parse_sgf_result(re)?,
            None => None,
        };
        let black = root.get("PB").map(str::to_string).filter(|s| !s.is_empty());
        let white = root.get("PW").map(str::to_string).filter(|s| !s.is_empty());
        replay.finish(&spec, black, white, recorded)
    }
}

fn sgf_err(message: &str) -> RecordError {
    RecordError::Sgf(message.to_string())
}

/// One SGF node: its properties in file order (only the first value of each is kept; moves and
/// the root properties we read have one).
#[derive(Default)]
struct SgfNode {
    props: Vec<(String, String)>,
}

impl SgfNode {
    fn get(&self, name: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// More distinct properties than any real node has; bounds the duplicate check on hostile input.
const MAX_NODE_PROPS: usize = 64;

/// The nodes of the main line of the first game tree. Reading the text in order and stopping
/// at the first `)` gives exactly the main line, since the first variation comes first; no
/// recursion, so deep nesting cannot overflow the stack.
fn sgf_main_line(text: &str) -> Result<Vec<SgfNode>, RecordError> {
    let mut chars = text.char_indices().peekable();
    // Skip anything before the game tree.
    loop {
        match chars.next() {
            Some((_, '(')) => break,
            Some(_) => {}
            None => return Err(sgf_err("no game tree '('")),
        }
    }
    let mut nodes: Vec<SgfNode> = Vec::new();
    let mut ident = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            ';' => {
                ident.clear();
                nodes.push(SgfNode::default());
            }
            '(' => ident.clear(),
            ')' => return Ok(nodes),
            '[' => {
                let mut value = String::new();
                let mut closed = false;
                while let Some((_, v)) = chars.next() {
                    match v {
                        '\\' => {
                            // A soft line break (backslash-newline) disappears; any other
                            // escaped character stands for itself.
                            if let Some((_, e)) = chars.next() {
                                if e != '\n' && e != '\r' {
                                    value.push(e);
                                }
                            }
                        }
                        ']' => {
                            closed = true;
                            break;
                        }
                        other => value.push(other),
                    }
                }
                if !closed {
                    return Err(sgf_err("unterminated property value"));
                }
                let Some(node) = nodes.last_mut() else {
                    return Err(sgf_err("a property before the first node"));
                };
                if ident.is_empty() {
                    // A further value of a list property (e.g. AB[aa][bb]): set the last one.
                    if node.props.is_empty() {
                        return Err(sgf_err("a value without a property name"));
                    }
                } else if node.props.len() >= MAX_NODE_PROPS {
                    return Err(sgf_err("too many properties in a node"));
                } else if node.get(&ident).is_some() {
                    return Err(sgf_err(&format!(
                        "property {} twice in a node",
                        quote(&ident)
                    )));
                } else {
                    node.props.push((std::mem::take(&mut ident), value));
                }
            }
            c if c.is_ascii_uppercase() => {
                if ident.len() >= 8 {
                    return Err(sgf_err("property name too long"));
                }
                ident.push(c);
            }
            // FF[3] allowed lowercase letters inside names (`PlayerBlack`): they are ignored.
            c if c.is_ascii_lowercase() || c.is_whitespace() => {}
            other => {
                return Err(sgf_err(&format!("unexpected character {other:?}")));
            }
        }
    }
    Err(sgf_err("unterminated game tree (missing ')')"))
}

fn parse_sgf_size(value: &str) -> Result<u32, RecordError> {
    let (a, b) = value.split_once(':').unwrap_or((value, value));
    let parse = |s: &str| s.trim().parse::<u32>().ok();
    match (parse(a), parse(b)) {
        (Some(a), Some(b)) if a == b => Ok(a),
        _ => Err(sgf_err(&format!(
            "SZ[{}] is not a square board size",
            quote(value)
        ))),
    }
}

fn sgf_point_to_move(point: &str, size: u8, flip: bool) -> Result<String, RecordError> {
    let bytes = point.as_bytes();
    let bad = || sgf_err(&format!("bad point [{}]", quote(point)));
    if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_lowercase) {
        return Err(bad());
    }
    let col = bytes[0] - b'a';
    let top_row = bytes[1] - b'a';
    if col >= size || top_row >= size {
        return Err(bad());
    }
    let row = if flip { size - 1 - top_row } else { top_row };
    Ok(Cell::new(col, row).to_string())
}

fn sgf_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn sgf_result(result: &GameResult) -> String {
    let side = match result.result {
        ResultKind::Black => "B",
        ResultKind::White => "W",
        ResultKind::Draw => return "0".to_string(),
        // SGF's word for a game that counts for nothing.
        ResultKind::Aborted => return "Void".to_string(),
    };
    let how = match result.reason {
        EndReason::Resign => "R".to_string(),
        EndReason::Timeout => "T".to_string(),
        EndReason::Abandoned => "F".to_string(),
        EndReason::Count => match result.score {
            Some(s) => (i32::from(s.black) - i32::from(s.white)).abs().to_string(),
            None => String::new(),
        },
        EndReason::Five
        | EndReason::Four
        | EndReason::Full
        | EndReason::Agreement
        | EndReason::Aborted => String::new(),
    };
    format!("{side}+{how}")
}

/// `RE` as a result; `None` for an unknown or void result (`?`, `Void`, empty).
fn parse_sgf_result(value: &str) -> Result<Option<GameResult>, RecordError> {
    let value = value.trim();
    let result = |result, reason| {
        Some(GameResult {
            result,
            reason,
            line: None,
            score: None,
        })
    };
    if value == "0" || value.eq_ignore_ascii_case("draw") || value.eq_ignore_ascii_case("jigo") {
        return Ok(result(ResultKind::Draw, EndReason::Agreement));
    }
    if value.is_empty() || value == "?" || value.eq_ignore_ascii_case("void") {
        return Ok(None);
    }
    let (side, how) = value
        .split_once('+')
        .ok_or_else(|| sgf_err(&format!("RE[{}] is not a result", quote(value))))?;
    let kind = match side.trim() {
        "B" | "b" => ResultKind::Black,
        "W" | "w" => ResultKind::White,
        _ => return Err(sgf_err(&format!("RE[{}] names no side", quote(value)))),
    };
    let how = how.trim();
    let reason = match how.chars().next().map(|c| c.to_ascii_uppercase()) {
        Some('R') => EndReason::Resign,
        Some('T') => EndReason::Timeout,
        Some('F') => EndReason::Abandoned,
        // A win on the board: which kind the replayed position says.
        None => EndReason::Five,
        Some(c) if c.is_ascii_digit() || c == '.' => EndReason::Count,
        Some(_) => return Err(sgf_err(&format!("RE[{}]: unknown reason", quote(value)))),
    };
    Ok(result(kind, reason))
}
