//! The Othello engine as an engine of the NBoard protocol on standard input and output, so it
//! plays in the NBoard program and wherever NBoard engines are used (the bot's `--protocol
//! nboard` among them).
//!
//! Commands: `nboard N`, `set depth N` (the search depth, 1–60), `set game GGF` (the position:
//! the GGF record's `BO[…]` board and its `B[…]`/`W[…]` moves), `move M` (one more move),
//! `go` (answered `=== MOVE/EVAL/TIME`: the move as `F5` or `PA`, the evaluation in discs for
//! the side to move, the time in seconds, between `status` lines), `hint N` (answered with
//! one `search MOVE EVAL 0 DEPTH` line, the best move), `learn` (answered `learned`; nothing
//! is learnt), `ping N` (answered `pong N`), `set contempt` (accepted), `quit`. A command it
//! cannot follow is answered on standard error and changes nothing.

use std::io::{BufRead, Write};
use std::time::Instant;

use game_core::othello::Othello;
use game_core::{AnyPosition, Color};

use crate::engine::{Engine, Level, Score, SearchLimits, StopFlag};

/// Depth searched until `set depth` says otherwise.
const DEFAULT_DEPTH: u32 = 12;

/// Reads a GGF game record: its board (`BO[8 <64 squares> <side>]`, `*` black, `O` white,
/// `-` empty, spaces between rows allowed) and the moves after it (`B[F5]`, `W[PA]`, a move
/// possibly followed by `/eval/time`).
pub fn parse_ggf(record: &str) -> Result<AnyPosition, String> {
    let mut position: Option<AnyPosition> = None;
    let mut rest = record;
    while let Some(open) = rest.find('[') {
        // The tag: the ASCII capitals right before '[' (one byte each).
        let tag_len = rest[..open]
            .chars()
            .rev()
            .take_while(char::is_ascii_uppercase)
            .count();
        let tag = &rest[open - tag_len..open];
        let Some(close) = rest[open..].find(']') else {
            return Err("a GGF value without its ']'".into());
        };
        let value = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        match tag {
            "BO" => position = Some(board(value)?),
            "B" | "W" => {
                let Some(pos) = position.as_mut() else {
                    return Err("a move before the board (BO)".into());
                };
                let side = if tag == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                // A record may leave out a forced pass.
                if pos.turn() != side && pos.must_pass() {
                    play(pos, "PA")?;
                }
                if pos.turn() != side {
                    return Err(format!("{tag}[{value}]: it is not that side's move"));
                }
                play(pos, value)?;
            }
            _ => {}
        }
    }
    position.ok_or_else(|| "no board (BO[...]) in the game".into())
}

/// The `BO` value: size, squares, side to move.
fn board(value: &str) -> Result<AnyPosition, String> {
    let mut chars = value.trim().splitn(2, char::is_whitespace);
    if chars.next() != Some("8") {
        return Err("only 8x8 boards are played".into());
    }
    let cells: Vec<char> = chars
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if cells.len() != 65 {
        return Err(format!(
            "the board has {} squares and sides, not 65",
            cells.len()
        ));
    }
    let mut text = String::with_capacity(66);
    for &c in &cells[..64] {
        text.push(match c {
            '*' => 'X',
            'O' => 'O',
            '-' | '.' => '-',
            other => return Err(format!("square {other:?}: '*', 'O' or '-' expected")),
        });
    }
    text.push_str(match cells[64] {
        '*' => " X",
        'O' => " O",
        other => return Err(format!("side to move {other:?}: '*' or 'O' expected")),
    });
    Othello::from_text(&text)
        .map(AnyPosition::Othello)
        .map_err(|e| e.to_string())
}

/// Plays one NBoard move (`F5`, `f5`, `PA`, maybe with `/eval/time`).
fn play(position: &mut AnyPosition, text: &str) -> Result<(), String> {
    let mv = text.split('/').next().unwrap_or("").trim();
    let mv = if mv.eq_ignore_ascii_case("PA") {
        "pass".to_string()
    } else {
        mv.to_ascii_lowercase()
    };
    position
        .play_str(&mv)
        .map(|_| ())
        .map_err(|e| format!("move {mv}: {e}"))
}

/// The engine's state between commands.
struct NboardEngine<E> {
    make_engine: E,
    engine: Option<Box<dyn Engine>>,
    position: AnyPosition,
    depth: u32,
    seed: u64,
}

impl<E: FnMut() -> Box<dyn Engine>> NboardEngine<E> {
    /// Handles one line; returns the lines to print (standard output) and whether to stop.
    fn line(&mut self, line: &str) -> Result<(Vec<String>, bool), String> {
        let line = line.trim();
        let (cmd, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let arg = arg.trim();
        Ok(match cmd {
            "" | "nboard" => (Vec::new(), false),
            "learn" => (vec!["learned".to_string()], false),
            "hint" => (self.hint()?, false),
            "quit" => (Vec::new(), true),
            "ping" => (vec![format!("pong {arg}")], false),
            "move" => {
                play(&mut self.position, arg)?;
                (Vec::new(), false)
            }
            "set" => {
                let (what, value) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
                match what {
                    "depth" => {
                        self.depth = value
                            .trim()
                            .parse::<u32>()
                            .ok()
                            .filter(|d| (1..=60).contains(d))
                            .ok_or_else(|| format!("depth {value:?}: 1 to 60 expected"))?;
                    }
                    "game" => self.position = parse_ggf(value)?,
                    _ => {}
                }
                (Vec::new(), false)
            }
            "go" => (self.go()?, false),
            _ => return Err(format!("unknown command {cmd:?}")),
        })
    }

    /// Searches the position to the depth set: the move, its evaluation in discs.
    fn search(&mut self) -> Result<(String, f64, u32), String> {
        if self.position.is_over() {
            return Err("the game is over".into());
        }
        let engine = self.engine.get_or_insert_with(&mut self.make_engine);
        self.seed = self.seed.wrapping_add(1);
        let result = engine
            .search(
                &self.position,
                SearchLimits::Depth(self.depth),
                Level::MAX,
                &StopFlag::new(),
                self.seed,
            )
            .ok_or("no move found")?;
        let mv = if result.best == "pass" {
            "PA".to_string()
        } else {
            result.best.to_ascii_uppercase()
        };
        // Centi-discs or an exact disc difference, as discs.
        let eval = match result.score {
            Score::Heuristic(s) => f64::from(s) / 100.0,
            Score::Exact(s) => f64::from(s),
            Score::WinIn(n) => f64::from(64 * n.signum()),
        };
        Ok((mv, eval, result.depth))
    }

    /// `go`: the move line, then the waiting status (the thinking one goes out before).
    fn go(&mut self) -> Result<Vec<String>, String> {
        let started = Instant::now();
        let (mv, eval, _) = self.search()?;
        Ok(vec![
            format!("=== {mv}/{eval:.2}/{:.1}", started.elapsed().as_secs_f64()),
            "status Kibitz is waiting".to_string(),
        ])
    }

    /// `hint`: the best move as one search line.
    fn hint(&mut self) -> Result<Vec<String>, String> {
        let (mv, eval, depth) = self.search()?;
        Ok(vec![format!("search {mv} {eval:.2} 0 {depth}")])
    }
}

/// Runs the engine on `input`/`output` until `quit` or end of input; what it cannot follow
/// goes to `errors`. `make_engine` builds the Othello engine.
pub fn run<R: BufRead, W: Write, X: Write>(
    input: R,
    mut output: W,
    mut errors: X,
    make_engine: impl FnMut() -> Box<dyn Engine>,
) -> std::io::Result<()> {
    let mut nboard = NboardEngine {
        make_engine,
        engine: None,
        position: AnyPosition::Othello(Othello::new()),
        depth: DEFAULT_DEPTH,
        seed: 0,
    };
    for line in input.split(b'\n') {
        // A line that is not UTF-8 is read as far as it goes (and then refused).
        let line = String::from_utf8_lossy(&line?).into_owned();
        if line.split_whitespace().next() == Some("go") {
            writeln!(output, "status Kibitz is thinking")?;
            output.flush()?;
        }
        match nboard.line(&line) {
            Ok((replies, stop)) => {
                for r in replies {
                    writeln!(output, "{r}")?;
                }
                output.flush()?;
                if stop {
                    break;
                }
            }
            Err(e) => writeln!(errors, "error: {e}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(input: &str) -> (String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        run(input.as_bytes(), &mut out, &mut err, || {
            crate::engine::registry::engine_for(game_core::GameKind::Othello)
        })
        .unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn a_game_record_with_moves_is_read() {
        let record = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]\
                      BO[8 ---------------------------O*------*O--------------------------- *]\
                      B[F5//1.2]W[d6];)";
        let read = parse_ggf(record).unwrap();
        let mut expected = AnyPosition::Othello(Othello::new());
        expected.play_str("f5").unwrap();
        expected.play_str("d6").unwrap();
        assert_eq!(read.board_text(), expected.board_text());
        assert_eq!(read.turn(), expected.turn());
    }

    #[test]
    fn go_answers_a_legal_move_and_ping_a_pong() {
        let (out, err) = talk(
            "nboard 2\nset depth 4\nset game (;GM[Othello]BO[8 -------- -------- -------- \
             ---O*--- ---*O--- -------- -------- -------- *];)\nping 7\ngo\n",
        );
        assert_eq!(err, "");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "pong 7");
        let answer = lines
            .iter()
            .find_map(|l| l.strip_prefix("=== "))
            .expect("a move");
        let mv = answer.split('/').next().unwrap().to_ascii_lowercase();
        assert!(["d3", "c4", "f5", "e6"].contains(&mv.as_str()), "{answer}");
    }

    #[test]
    fn what_it_cannot_follow_is_an_error_and_changes_nothing() {
        // After F5 each bad command leaves the game as it was: the hint is one of white's
        // three replies to F5.
        let bad_square = "---------------------------O*------*O-------------------------é- *";
        let (out, err) = talk(&format!(
            "set depth 3\nmove F5\nset depth 0\nmove Z9\nmove D3\nset game (;BO[8 -- *];)\n\
             set game (;BO[8 {bad_square}];)\nfrobnicate\nping 1\nhint 1\n"
        ));
        assert_eq!(err.lines().count(), 6, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "pong 1");
        let hint = lines[1].strip_prefix("search ").expect("a search line");
        let mv = hint.split(' ').next().unwrap().to_ascii_lowercase();
        assert!(["d6", "f4", "f6"].contains(&mv.as_str()), "{hint}");
    }

    #[test]
    fn a_record_may_leave_out_a_forced_pass_but_not_play_out_of_turn() {
        // Black to move has only a pass (a1 white, b1 black): W[C1] is white's move after it,
        // and then black has no disc left.
        let mut board = vec!['-'; 64];
        board[0] = 'O';
        board[1] = '*';
        let board: String = board.into_iter().collect();
        let read = parse_ggf(&format!("(;BO[8 {board} *]W[C1];)")).unwrap();
        assert!(read.is_over());
        let start = "---------------------------O*------*O---------------------------";
        assert!(parse_ggf(&format!("(;BO[8 {start} *]W[F5];)")).is_err());
    }
}
