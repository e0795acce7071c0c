//! A match between this build's Othello engine (in process) and another `kibitz` executable
//! driven through `kibitz analyze --game othello` lines — an earlier build, to measure a
//! change. Openings are random 8-ply starts that this build's evaluation finds close to
//! even (a few discs at most); each is played twice, colours swapped. Both sides get the
//! same time a move, at level 10; the referee is game-core.
//!
//! `cargo run --release -p kibitz-bot --example othello_match -- <kibitz> [openings 20]
//! [ms 500] [seed 1]`

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use game_core::othello::{Othello, OthelloMove};
use game_core::{AnyPosition, Color, Position};
use kibitz_bot::engine::othello::eval::Evaluator;
use kibitz_bot::engine::othello::midgame::{search, INFINITE};
use kibitz_bot::engine::othello::selfplay::seeded;
use kibitz_bot::engine::othello::weights::UNIT;
use kibitz_bot::engine::othello::OthelloEngine;
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};
use rand::Rng;

/// The other engine, as a child process answering analyze lines.
struct Analyzer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Analyzer {
    fn start(program: &str, ms: u64) -> Analyzer {
        let mut child = Command::new(program)
            .args(["analyze", "--game", "othello", "--time-ms", &ms.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Analyzer {
            child,
            input,
            output,
        }
    }

    fn best_move(&mut self, position: &Othello) -> String {
        writeln!(self.input, "{}", position.to_text()).expect("the analyzer reads");
        self.input.flush().expect("the analyzer reads");
        let mut line = String::new();
        self.output
            .read_line(&mut line)
            .expect("the analyzer answers");
        let value: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        value["best"]
            .as_str()
            .unwrap_or_else(|| panic!("no move in {line}"))
            .to_string()
    }
}

impl Drop for Analyzer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Random 8-ply openings whose depth-4 value is within 3 discs of even, distinct.
fn openings(count: usize, seed: u64) -> Vec<Othello> {
    let mut rng = seeded(seed);
    let eval = Evaluator::embedded();
    let mut found: Vec<Othello> = Vec::new();
    while found.len() < count {
        let mut position = Othello::new();
        for _ in 0..8 {
            let moves = position.legal_moves();
            let m = moves[rng.random_range(0..moves.len())];
            position.play_unchecked(m);
        }
        let (mover, opponent) = position.mover_bitboards();
        let mut nodes = 0;
        let value = search(eval, mover, opponent, 4, -INFINITE, INFINITE, &mut nodes);
        if value.abs() <= 3 * UNIT && position.outcome().is_none() && !found.contains(&position) {
            found.push(position);
        }
    }
    found
}

/// Plays one game; returns the final disc difference for the new engine (empties to the
/// winner).
fn play(opening: &Othello, new_is_black: bool, other: &str, ms: u64) -> i32 {
    let mut position = opening.clone();
    let mut ours = OthelloEngine::new();
    let mut theirs = Analyzer::start(other, ms);
    let stop = StopFlag::new();
    while position.outcome().is_none() {
        let moves = position.legal_moves();
        let m = if moves == [OthelloMove::Pass] {
            OthelloMove::Pass
        } else if (position.turn() == Color::Black) == new_is_black {
            let r = ours
                .search(
                    &AnyPosition::Othello(position.clone()),
                    SearchLimits::Time(Duration::from_millis(ms)),
                    Level::MAX,
                    &stop,
                    0,
                )
                .expect("a move");
            r.best.parse().expect("a move in notation")
        } else {
            let best = theirs.best_move(&position);
            best.parse()
                .unwrap_or_else(|_| panic!("unreadable move {best:?}"))
        };
        assert!(
            position.is_legal(m).is_ok(),
            "illegal move {m} in {}",
            position.to_text()
        );
        position.play_unchecked(m);
    }
    let score = position
        .outcome()
        .and_then(|o| o.score)
        .expect("a finished game has a score");
    let black = i32::from(score.black) - i32::from(score.white);
    if new_is_black {
        black
    } else {
        -black
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(other) = args.first() else {
        eprintln!("usage: othello_match <kibitz> [openings] [ms] [seed]");
        std::process::exit(2);
    };
    let count: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(500);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let (mut wins, mut losses, mut draws, mut discs) = (0, 0, 0, 0);
    for (i, opening) in openings(count, seed).iter().enumerate() {
        for new_is_black in [true, false] {
            let diff = play(opening, new_is_black, other, ms);
            match diff.signum() {
                1 => wins += 1,
                -1 => losses += 1,
                _ => draws += 1,
            }
            discs += diff;
            println!(
                "opening {} ({}) new as {}: {diff:+}",
                i + 1,
                opening.to_text(),
                if new_is_black { "black" } else { "white" }
            );
        }
    }
    let games = wins + losses + draws;
    println!(
        "new {wins} wins, {losses} losses, {draws} draws in {games} games; disc difference {discs:+} ({:+.1} a game); {ms} ms a move",
        f64::from(discs) / f64::from(games.max(1))
    );
}
