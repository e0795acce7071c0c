//! Measures the exact Connect Four solver on one of Pascal Pons' test sets (lines of
//! `<1-based column sequence> <score>`, 7x6), read at run time from the path given:
//!
//! ```text
//! cargo run --release -p kibitz-bot --example connect4_testset -- DATA/Test_L2_R1 [--fresh] [--limit N]
//! ```
//! DATA is a folder of Pascal Pons' public Connect Four test sets (Test_L3_R1 … Test_L1_R3).
//! Prints `correct N/total, mean X µs, mean nodes Y`. The solver's table is kept from one
//! position to the next (as in Pons' benchmark); `--fresh` empties it before each position.
//!
//! With `--play MS [--level L]`, the engine instead picks a move in each position with MS
//! milliseconds at level L (10 by default), and the solver checks whether the move keeps
//! the position's score: `optimal N/total, mean X ms`.

use std::time::{Duration, Instant};

use game_core::connect4::{Column, ConnectFour};
use game_core::{AnyPosition, Position};
use kibitz_bot::engine::connect4::bitboard::{Board, Geometry};
use kibitz_bot::engine::connect4::solver::Solver;
use kibitz_bot::engine::connect4::table::DEFAULT_BITS;
use kibitz_bot::engine::connect4::{parse_position, BoardOptions, Connect4Engine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut fresh = false;
    let mut limit = usize::MAX;
    let mut play_ms = None;
    let mut level = 10;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fresh" => fresh = true,
            "--play" => play_ms = args.next().and_then(|n| n.parse().ok()),
            "--level" => level = args.next().and_then(|n| n.parse().ok()).unwrap_or(level),
            "--limit" => limit = args.next().and_then(|n| n.parse().ok()).unwrap_or(limit),
            _ => path = Some(arg),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: connect4_testset <test file> [--fresh] [--limit N]");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let options = BoardOptions::default();
    if let Some(ms) = play_ms {
        play(&text, &options, limit, ms, level);
        return;
    }
    let start = ConnectFour::new(7, 6, &[]).expect("7x6 is a valid board");
    let mut solver: Solver<u64> = Solver::new(Geometry::of(&start), DEFAULT_BITS);
    let (mut total, mut correct, mut nanos, mut nodes) = (0u64, 0u64, 0u128, 0u64);
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(limit) {
        let expected: Option<i32> = line.split_whitespace().nth(1).and_then(|s| s.parse().ok());
        let position = match parse_position(line, &options) {
            Ok(AnyPosition::Connect4(p)) => p,
            Ok(_) => unreachable!("parse_position makes Connect Four positions"),
            Err(e) => {
                eprintln!("{line}: {e}");
                continue;
            }
        };
        if fresh {
            solver.clear();
        }
        let board: Board<u64> = Board::of(&position);
        let nodes_before = solver.nodes();
        let clock = Instant::now();
        let score = solver.solve(&board);
        nanos += clock.elapsed().as_nanos();
        nodes += solver.nodes() - nodes_before;
        total += 1;
        if score.is_some() && score == expected {
            correct += 1;
        } else {
            eprintln!("{line}: got {score:?}");
        }
    }
    let n = total.max(1);
    println!(
        "correct {correct}/{total}, mean {:.1} µs, mean nodes {:.0}",
        nanos as f64 / n as f64 / 1000.0,
        nodes as f64 / n as f64
    );
}

/// Lets the engine pick a move in each position and checks it with the solver.
fn play(text: &str, options: &BoardOptions, limit: usize, ms: u64, level: u8) {
    let start = ConnectFour::new(7, 6, &[]).expect("7x6 is a valid board");
    let mut solver: Solver<u64> = Solver::new(Geometry::of(&start), DEFAULT_BITS);
    let mut engine = Connect4Engine::new();
    let (mut total, mut optimal, mut millis) = (0u64, 0u64, 0u128);
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(limit)
        .enumerate()
    {
        let Some(expected) = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(AnyPosition::Connect4(position)) = parse_position(line, options) else {
            continue;
        };
        let clock = Instant::now();
        let Some(result) = engine.search(
            &AnyPosition::Connect4(position.clone()),
            SearchLimits::Time(Duration::from_millis(ms)),
            Level::new(level),
            &StopFlag::new(),
            i as u64,
        ) else {
            continue;
        };
        millis += clock.elapsed().as_millis();
        total += 1;
        let Ok(col) = result.best.parse::<Column>() else {
            continue;
        };
        let Ok(next) = position.play(col) else {
            continue;
        };
        let kept = match next.outcome() {
            Some(o) if o.winner.is_some() => true,
            Some(_) => expected == 0,
            None => solver.solve(&Board::of(&next)).map(|s| -s) == Some(expected),
        };
        if kept {
            optimal += 1;
        }
    }
    println!(
        "optimal {optimal}/{total}, mean {:.1} ms",
        millis as f64 / total.max(1) as f64
    );
}
