//! Solves FFO endgame positions exactly and compares with the scores in the file.
//!
//! `cargo run --release -p kibitz-bot --example othello_ffo -- <file.obf> [count]`
//! Each line: 64 squares, the side to move, then `;` and the best moves with their exact
//! scores (`A2:+38;`). Positions are numbered from the first number in the file name
//! (`fforum-40-59.obf` starts at #40).

use std::time::Instant;

use kibitz_bot::engine::othello::{parse_position, OthelloEngine};
use kibitz_bot::engine::{Engine, Level, Score, SearchLimits, StopFlag};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: othello_ffo <file.obf> [count]");
        std::process::exit(2);
    };
    let count: usize = args
        .get(2)
        .and_then(|c| c.parse().ok())
        .unwrap_or(usize::MAX);
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let first_number: usize = path
        .rsplit('/')
        .next()
        .and_then(|name| {
            let digits: String = name
                .chars()
                .skip_while(|c| !c.is_ascii_digit())
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .unwrap_or(1);

    let mut engine = OthelloEngine::new();
    let (mut total_ms, mut total_nodes, mut wrong) = (0u64, 0u64, 0);
    let lines = text.lines().filter(|l| !l.trim().is_empty()).take(count);
    for (i, line) in lines.enumerate() {
        let number = first_number + i;
        let position = match parse_position(line) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("#{number}: {e}");
                continue;
            }
        };
        // The file's answer: "A2:+38" after the first ';'.
        let expected = line.split(';').nth(1).and_then(|first| {
            let (mv, score) = first.trim().split_once(':')?;
            Some((mv.to_ascii_lowercase(), score.trim().parse::<i32>().ok()?))
        });
        let empties = line
            .chars()
            .take(64)
            .filter(|&c| c == '-' || c == '.')
            .count();
        let started = Instant::now();
        let result = engine.search(
            &position,
            SearchLimits::Solve,
            Level::MAX,
            &StopFlag::new(),
            0,
        );
        let wall = started.elapsed();
        let Some(r) = result else {
            eprintln!("#{number}: no result");
            continue;
        };
        let Score::Exact(score) = r.score else {
            eprintln!("#{number}: not an exact score: {:?}", r.score);
            continue;
        };
        let (ok, expected_text) = match &expected {
            Some((mv, s)) => {
                // Several moves may share the best score; the score is what must match.
                let best_ok = *s == score;
                (best_ok, format!("{mv} {s:+}"))
            }
            None => (true, "?".to_string()),
        };
        if !ok {
            wrong += 1;
        }
        let ms = wall.as_millis() as u64;
        total_ms += ms;
        total_nodes += r.nodes;
        println!(
            "#{number} {empties} empties: {} {score:+} (file: {expected_text}) {} {:.2} s {} nodes {:.1} Mn/s",
            r.best,
            if ok { "ok" } else { "WRONG" },
            wall.as_secs_f64(),
            r.nodes,
            r.nodes as f64 / wall.as_secs_f64().max(1e-9) / 1e6,
        );
    }
    println!(
        "total: {:.2} s, {total_nodes} nodes, {:.1} Mn/s, {wrong} wrong",
        total_ms as f64 / 1000.0,
        total_nodes as f64 / (total_ms as f64 / 1000.0).max(1e-9) / 1e6
    );
}
