//! Game records: the move string, SGF (Gomoku GM[4], Othello GM[2]) and PSQ (Piskvork).
//!
//! A [`GameRecord`] is a game spec, its moves in canonical notation (the opening included) and
//! what is known of the players and the result. Every importer replays the moves through
//! [`AnyPosition`], so a record with an illegal move is rejected, and a game that ended on the
//! board gets its result from the position rather than from the file.
//!
//! # Formats
//!
//! **Move string** ([`GameRecord::move_string`], [`GameRecord::from_move_string`]):
//! - Gomoku: the moves written together, `h8i9j10` (spaces between moves are accepted on
//!   import).
//! - Othello: the squares written together, `f5d6c3`, *without passes*, as in the usual
//!   Othello transcripts: a pass is forced, so the importer inserts one whenever the side to
//!   move has no move. An explicit `pass` is accepted on import too.
//! - Connect Four: one digit a move, `4453`, as in the public test sets; for boards of more than
//!   9 columns the column numbers separated by commas, `10,3,4` (as in docs/engines.md).
//!
//! **SGF** ([`GameRecord::to_sgf`], [`GameRecord::from_sgf`]), FF[4], Gomoku (GM[4], SZ up to 26)
//! and Othello (GM[2], SZ[8]) only:
//! - A point is two letters, column then row, with SGF's row `a` at the *top*. Gomoku rows are
//!   counted from the bottom in our notation, so they are flipped; Othello rows already count
//!   from the top.
//! - An Othello pass is written as an empty move, `B[]`; `B[tt]` is read as a pass too, and a
//!   file that leaves out a forced pass is accepted (the pass is inserted).
//! - `PB`/`PW` are the player names; `RU` is the Gomoku rule (`freestyle`, `standard`, `renju`;
//!   absent or unknown reads as freestyle).
//! - `RE`: `B+` / `W+` for a win on the board (Othello: `B+16`, the disc difference), `B+R`
//!   resignation, `B+T` time, `B+F` forfeit (our `abandoned`), `0` a draw (`Draw` is read too).
//!   On import a game that ended on the board takes its result from the position, and an `RE`
//!   that names a different winner is an error.
//! - Only the main line is read: variations after it are ignored. Setup properties
//!   (`AB`, `AW`, `AE`) are refused.
//!
//! **PSQ** ([`GameRecord::to_psq`], [`GameRecord::from_psq`]), the record of the Piskvork
//! manager used by Gomocup, Gomoku only:
//! ```text
//! Piskvorky 15x15, 11:11, 0
//! 8,8,0
//! 9,7,0
//! -1
//! Alice
//! Bob
//! ```
//! The header gives the board size (the two other fields are manager settings, written as
//! `11:11, 0` and ignored on import). Each move is `x,y,time_ms`, 1-based, `x` the column from
//! the left and `y` the row from the *top* (the manager's screen coordinates); we write time 0.
//! The moves end at the first line that is not a move (`-1` in Gomocup files). We then write the
//! black and white names, one a line (`?` when unknown); on import the first two non-empty lines
//! after the moves that are not plain numbers are the names (Gomocup files put the brains' file
//! names there, before or after `-1`). A move line with a coordinate off the board is an error.
//! PSQ carries no rule, so the importer takes it as a parameter.

use std::fmt::Write as _;

use thiserror::Error;

use crate::error::{MoveError, SpecError};
use crate::opening::OpeningChoice;
use crate::position::{Cell, EndReason};
use crate::protocol::{GameResult, ResultKind};
use crate::spec::{GameKind, GameSpec, GomokuRule};
use crate::{AnyPosition, Color};

/// Why a record cannot be imported or exported.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("bad game: {0}")]
    Spec(#[from] SpecError),
    #[error("move {index} ({text}): {error}")]
    Move {
        index: usize,
        text: String,
        error: MoveError,
    },
    #[error("move {index} is marked {found} but {expected} is to move")]
    WrongColor {
        index: usize,
        found: Color,
        expected: Color,
    },
    #[error("{format} records are not available for {game}")]
    Unsupported {
        format: &'static str,
        game: &'static str,
    },
    #[error("bad move string: {0}")]
    MoveString(String),
    #[error("bad SGF: {0}")]
    Sgf(String),
    #[error("bad PSQ line {line}: {message}")]
    Psq { line: usize, message: String },
    #[error("the recorded result {recorded} does not match the position ({actual})")]
    ResultMismatch { recorded: String, actual: String },
}

/// A finished or unfinished game with its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub spec: GameSpec,
    /// Every move in canonical notation, the opening included; Othello passes are `pass`.
    pub moves: Vec<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: Option<GameResult>,
}

/// Longest piece of input quoted back in an error message.
const QUOTE_CHARS: usize = 24;

fn quote(text: &str) -> String {
    text.chars().take(QUOTE_CHARS).collect()
}

/// The start position and the moves played so far, with the canonical text of each.
struct Replay {
    position: AnyPosition,
    moves: Vec<String>,
}

impl Replay {
    fn new(spec: &GameSpec) -> Result<Replay, RecordError> {
        Ok(Replay {
            position: AnyPosition::new(spec)?,
            moves: Vec::new(),
        })
    }

    fn play(&mut self, text: &str) -> Result<(), RecordError> {
        let canonical = self
            .position
            .play_str(text)
            .map_err(|error| RecordError::Move {
                index: self.moves.len(),
                text: quote(text),
                error,
            })?;
        self.moves.push(canonical);
        Ok(())
    }

    /// Plays the forced Othello pass, if any, so that transcripts may leave passes out.
    fn pass_if_forced(&mut self) -> Result<(), RecordError> {
        if self.position.must_pass() {
            self.play("pass")?;
        }
        Ok(())
    }

    /// Plays `text` for `color`, first inserting a forced pass when `color` is not to move.
    fn play_as(&mut self, color: Color, text: &str) -> Result<(), RecordError> {
        if self.position.turn() != color {
            self.pass_if_forced()?;
        }
        let expected = self.position.turn();
        if expected != color {
            return Err(RecordError::WrongColor {
                index: self.moves.len(),
                found: color,
                expected,
            });
        }
        self.play(text)
    }

    /// The record, with the result taken from the board when the game ended there and from
    /// `recorded` otherwise.
    fn finish(
        self,
        spec: &GameSpec,
        black: Option<String>,
        white: Option<String>,
        recorded: Option<GameResult>,
    ) -> Result<GameRecord, RecordError> {
        let result = match (self.position.outcome(), recorded) {
            (Some(outcome), recorded) => {
                let actual = GameResult::from_outcome(&outcome);
                if let Some(recorded) = recorded {
                    if recorded.result != actual.result {
                        return Err(RecordError::ResultMismatch {
                            recorded: result_label(&recorded),
                            actual: result_label(&actual),
                        });
                    }
                }
                Some(actual)
            }
            (None, Some(recorded)) if is_board_reason(recorded.reason) => {
                return Err(RecordError::ResultMismatch {
                    recorded: result_label(&recorded),
                    actual: "game not over".to_string(),
                });
            }
            (None, recorded) => recorded,
        };
        Ok(GameRecord {
            spec: spec.clone(),
            moves: self.moves,
            black,
            white,
            result,
        })
    }
}

fn is_board_reason(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Five | EndReason::Four | EndReason::Count | EndReason::Full
    )
}

fn result_label(result: &GameResult) -> String {
    let who = match result.result {
        ResultKind::Black => "black wins",
        ResultKind::White => "white wins",
        ResultKind::Draw => "draw",
        ResultKind::Aborted => "no result",
    };
    let reason = serde_json::to_value(result.reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!("{who} ({reason})")
}

fn kind_name(spec: &GameSpec) -> &'static str {
    spec.kind().as_str()
}

impl GameRecord {
    /// The record as stones on the board: for a game played from an opening rule, the
    /// choices that place no stone (`swap`, `declare 3`, the offered 5th moves...) are left
    /// out, `choose c` becomes the stone `c`, and the rule is dropped, so the formats (which
    /// know nothing of opening rules) describe the game as it was played on the board.
    #[must_use]
    pub fn on_board(self) -> GameRecord {
        let GameSpec::Gomoku {
            size,
            rule,
            opening_rule: Some(_),
        } = self.spec
        else {
            return self;
        };
        let moves = self
            .moves
            .iter()
            .filter_map(|m| match m.parse::<OpeningChoice>() {
                Ok(OpeningChoice::Place(cell) | OpeningChoice::Choose(cell)) => {
                    Some(cell.to_string())
                }
                Ok(_) => None,
                Err(_) => Some(m.clone()),
            })
            .collect();
        GameRecord {
            spec: GameSpec::gomoku(size, rule),
            moves,
            ..self
        }
    }

    /// Replays `moves` from the start of `spec` and records the result if the game ended on
    /// the board. Moves are stored in canonical notation.
    pub fn from_moves<S: AsRef<str>>(
        spec: &GameSpec,
        moves: &[S],
    ) -> Result<GameRecord, RecordError> {
        let mut replay = Replay::new(spec)?;
        for m in moves {
            replay.play(m.as_ref())?;
        }
        replay.finish(spec, None, None, None)
    }

    /// Replays the record's own moves: the position at the end, and the canonical moves.
    fn replay(&self) -> Result<Replay, RecordError> {
        let mut replay = Replay::new(&self.spec)?;
        for m in &self.moves {
            replay.play(m)?;
        }
        Ok(replay)
    }

    /// The compact move string of the module docs. The record's moves are not checked here;
    /// use an importer or [`GameRecord::from_moves`] to check a record.
    #[must_use]
    pub fn move_string(&self) -> String {
        match &self.spec {
            GameSpec::Gomoku { .. } => self.moves.concat(),
            GameSpec::Othello => self
                .moves
                .iter()
                .filter(|m| !m.eq_ignore_ascii_case("pass"))
                .map(String::as_str)
                .collect(),
            GameSpec::Connect4 { cols, .. } => {
                if *cols > 9 {
                    self.moves.join(",")
                } else {
                    self.moves.concat()
                }
            }
        }
    }

    /// Reads a move string (see the module docs) and replays it.
    pub fn from_move_string(spec: &GameSpec, text: &str) -> Result<GameRecord, RecordError> {
        let mut replay = Replay::new(spec)?;
        match spec {
            GameSpec::Gomoku { .. } | GameSpec::Othello => {
                for token in cell_tokens(text)? {
                    if spec.kind() == GameKind::Othello {
                        if token.eq_ignore_ascii_case("pass") {
                            replay.play("pass")?;
                            continue;
                        }
                        replay.pass_if_forced()?;
                    }
                    replay.play(token)?;
                }
            }
            GameSpec::Connect4 { cols, .. } => {
                if *cols > 9 {
                    let text = text.trim();
                    if !text.is_empty() {
                        for token in text.split(',') {
                            replay.play(token.trim())?;
                        }
                    }
                } else {
                    for c in text.chars().filter(|c| !c.is_whitespace()) {
                        let mut buf = [0u8; 4];
                        replay.play(c.encode_utf8(&mut buf))?;
                    }
                }
            }
        }
        replay.finish(spec, None, None, None)
    }

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

// ---------------------------------------------------------------------------------------------
// Move strings
// ---------------------------------------------------------------------------------------------

/// Splits `h8i9j10` (or `h8 i9 j10`, or Othello's `pass`) into move texts.
fn cell_tokens(text: &str) -> Result<Vec<&str>, RecordError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if bytes.len() - i >= 4 && bytes[i..i + 4].eq_ignore_ascii_case(b"pass") {
            tokens.push(&text[i..i + 4]);
            i += 4;
            continue;
        }
        if !bytes[i].is_ascii_alphabetic() {
            return Err(RecordError::MoveString(format!(
                "expected a column letter at {:?}",
                quote(&text[i..])
            )));
        }
        let start = i;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == start + 1 {
            return Err(RecordError::MoveString(format!(
                "expected a row number at {:?}",
                quote(&text[start..])
            )));
        }
        tokens.push(&text[start..i]);
    }
    Ok(tokens)
}

// ---------------------------------------------------------------------------------------------
// SGF
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// PSQ
// ---------------------------------------------------------------------------------------------

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
