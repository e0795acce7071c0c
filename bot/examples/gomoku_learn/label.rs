//! Labels positions by another engine's judgement: each position is set up on a Gomocup
//! (pbrain) brain with `BOARD`, and the value its search announces (`Eval <n>` or a mate
//! `+M<n>`/`-M<n>` in a `MESSAGE` line, for the side to move) and the move it answers are
//! written beside the position. The brain's output is data; nothing of its code is used.
//!
//! Out: `<rule> <result> <target> <best> <moves>…`, the target the brain's value as a
//! probability of winning, `sigmoid(value / --scale)` (1 or 0 for a mate).

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use game_core::Cell;

use crate::args::{fail, flag};
use crate::games::{lines_of, read_line, rule_name};

struct Brain {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    fn start(command: &str, rule_bits: u32, ms: u32) -> Brain {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| fail(&format!("{command}: {e}")));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut brain = Brain {
            child,
            input,
            output,
        };
        brain.send("START 15");
        let ok = brain.line();
        if !ok.to_uppercase().starts_with("OK") {
            fail(&format!("START answered {ok:?}"));
        }
        for info in [
            format!("INFO timeout_turn {ms}"),
            "INFO timeout_match 0".to_string(),
            "INFO time_left 2147483647".to_string(),
            "INFO thread_num 1".to_string(),
            format!("INFO rule {rule_bits}"),
        ] {
            brain.send(&info);
        }
        brain
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the brain reads");
        self.input.flush().expect("the brain reads");
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        if self.output.read_line(&mut line).unwrap_or(0) == 0 {
            fail("the brain stopped");
        }
        line.trim().to_string()
    }

    /// The brain's value (as a probability, `scale` its centi-unit per logistic unit) and
    /// move for the side to move after `moves`. A `BOARD` sent right after the brain's last
    /// answer may be lost (Rapfi answers the stones that follow with `ERROR Unknown
    /// command`, as if still ending the search before): the errors are drained up to an
    /// `ABOUT`'s answer and the position is asked again.
    fn judge(&mut self, moves: &[Cell], scale: f64) -> Option<(f64, Cell)> {
        for _ in 0..3 {
            match self.judge_once(moves, scale) {
                Judged::Again => {
                    self.send("ABOUT");
                    while !self.line().contains("name=") {}
                }
                Judged::Answer(answer) => return answer,
            }
        }
        None
    }

    fn judge_once(&mut self, moves: &[Cell], scale: f64) -> Judged {
        let mover = usize::from(!moves.len().is_multiple_of(2));
        self.send("BOARD");
        for (i, c) in moves.iter().enumerate() {
            let own = if i % 2 == mover { 1 } else { 2 };
            self.send(&format!("{},{},{own}", c.col, 14 - c.row));
        }
        self.send("DONE");
        let mut value = None;
        loop {
            let line = self.line();
            // First: an error names the line it refused, commas and all.
            if line.to_uppercase().starts_with("ERROR") {
                return Judged::Again;
            }
            if let Some(v) = line.split("Eval ").nth(1) {
                let word = v.split_whitespace().next().unwrap_or("");
                value = if word.starts_with("+M") {
                    Some(1.0)
                } else if word.starts_with("-M") {
                    Some(0.0)
                } else {
                    word.parse::<f64>()
                        .ok()
                        .map(|e| 1.0 / (1.0 + (-e / scale).exp()))
                };
            } else if let Some((x, y)) = line.split_once(',') {
                let (Ok(x), Ok(y)) = (x.trim().parse::<u8>(), y.trim().parse::<u8>()) else {
                    continue;
                };
                return Judged::Answer(value.map(|v| (v, Cell::new(x, 14 - y))));
            }
        }
    }
}

/// What one asking gives: the answer (no value when the brain announced none), or a lost
/// `BOARD` to ask again.
enum Judged {
    Answer(Option<(f64, Cell)>),
    Again,
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "END");
        let _ = self.child.wait();
    }
}

/// `label <in.txt> <out.txt> --brain <command> [--ms 80] [--scale 200] [--part k/n]`:
/// labels every position (with `--part k/n`, every n-th from the k-th).
pub fn label(args: &[String]) {
    let [input, out, ..] = args else {
        fail("label <in.txt> <out.txt> --brain <command> [--ms 80] [--scale 200] [--part k/n]")
    };
    let brain_command: String = flag(args, "--brain", String::new());
    if brain_command.is_empty() {
        fail("--brain <command> is needed");
    }
    let ms: u32 = flag(args, "--ms", 80);
    let scale: f64 = flag(args, "--scale", 200.0);
    let part: String = flag(args, "--part", "0/1".to_string());
    let (k, n) = part
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
        .filter(|&(k, n)| k < n)
        .unwrap_or_else(|| fail("--part k/n with k < n"));
    let file = std::fs::File::create(out).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let mut out = BufWriter::new(file);
    let mut brains: Vec<(game_core::GomokuRule, Brain)> = Vec::new();
    let start = Instant::now();
    let mut done = 0;
    for text in lines_of(input).skip(k).step_by(n) {
        let line = read_line(text.split_whitespace());
        let brain = match brains.iter().position(|(r, _)| *r == line.rule) {
            Some(i) => &mut brains[i].1,
            None => {
                let bits = match line.rule {
                    game_core::GomokuRule::Freestyle => 0,
                    game_core::GomokuRule::Standard => 1,
                    game_core::GomokuRule::Renju => 4,
                };
                brains.push((line.rule, Brain::start(&brain_command, bits, ms)));
                &mut brains.last_mut().expect("pushed").1
            }
        };
        let Some((target, best)) = brain.judge(&line.moves, scale) else {
            continue;
        };
        writeln!(
            out,
            "{} {} {target:.4} {best} {}",
            rule_name(line.rule),
            line.result,
            line.moves_text()
        )
        .expect("write");
        done += 1;
        if done % 500 == 0 {
            out.flush().expect("write");
            eprintln!("{done} labelled, {:.0} s", start.elapsed().as_secs_f64());
        }
    }
    out.flush().expect("write");
    println!("{done} labelled, {:.0} s", start.elapsed().as_secs_f64());
}
