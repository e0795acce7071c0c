//! Game records: the move string, SGF (Gomoku `GM[4]`, Othello `GM[2]`) and PSQ (Piskvork).
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
//! **SGF** ([`GameRecord::to_sgf`], [`GameRecord::from_sgf`]), `FF[4]`, Gomoku (`GM[4]`, `SZ`
//! up to 26) and Othello (`GM[2]`, `SZ[8]`) only:
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

use thiserror::Error;

use crate::error::{MoveError, SpecError};
use crate::opening::OpeningChoice;
use crate::position::EndReason;
use crate::protocol::{GameResult, ResultKind};
use crate::spec::{GameKind, GameSpec};
use crate::{AnyPosition, Color};

mod psq;
mod sgf;

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
