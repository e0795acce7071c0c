//! A small match between two levels of the Gomoku engine: N games alternating colours, a
//! fixed time per move, openings taken in turn from a short list so games differ.
//!
//! `cargo run --release -p kibitz-bot --example gomoku_match -- 10 5 4 200 [15] [freestyle]`
//! (level A, level B, games, ms per move, board size, rule).

use std::time::{Duration, Instant};

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, Color, GomokuRule, Position};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};
use kibitz_bot::gomoku::GomokuEngine;

/// Short openings (offsets from the centre), each played once with each colour.
const OPENINGS: [&[(i8, i8)]; 6] = [
    &[(0, 0), (1, 1)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 1), (2, 0)],
    &[(0, 0), (0, 1), (2, 1)],
    &[(0, 0), (2, 2), (1, -1)],
    &[(0, 0), (1, 2)],
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let level_a: u8 = arg(0, "10").parse().expect("level A");
    let level_b: u8 = arg(1, "5").parse().expect("level B");
    let games: usize = arg(2, "4").parse().expect("games");
    let ms: u64 = arg(3, "200").parse().expect("ms per move");
    let size: u8 = arg(4, "15").parse().expect("size");
    let rule = match arg(5, "freestyle").as_str() {
        "standard" => GomokuRule::Standard,
        "renju" => GomokuRule::Renju,
        _ => GomokuRule::Freestyle,
    };
    let (mut wins_a, mut wins_b, mut draws) = (0, 0, 0);
    let mut slowest = Duration::ZERO;
    let verbose = std::env::var_os("GOMOKU_MATCH_VERBOSE").is_some();
    for game in 0..games {
        let a_is_black = game % 2 == 0;
        let opening = OPENINGS[(game / 2) % OPENINGS.len()];
        let mut pos = Gomoku::new(size, rule).expect("a size");
        let centre = (size / 2) as i8;
        for &(dc, dr) in opening {
            let cell = Cell::new((centre + dc) as u8, (centre + dr) as u8);
            pos = pos.play(cell).expect("a legal opening");
        }
        let mut engines = [GomokuEngine::new(), GomokuEngine::new()];
        let mut moves = Vec::new();
        while pos.outcome().is_none() {
            let a_to_move = (pos.turn() == Color::Black) == a_is_black;
            let (engine, level) = if a_to_move {
                (&mut engines[0], level_a)
            } else {
                (&mut engines[1], level_b)
            };
            let start = Instant::now();
            let result = engine
                .search(
                    &AnyPosition::Gomoku(pos.clone()),
                    SearchLimits::Time(Duration::from_millis(ms)),
                    Level::new(level),
                    &StopFlag::new(),
                    game as u64 * 1000 + pos.ply() as u64,
                )
                .expect("a move");
            slowest = slowest.max(start.elapsed());
            if verbose {
                eprintln!(
                    "{} {:>3} {:<4} {:?} depth {} nodes {} {} ms (wall {} ms) pv {}",
                    if a_to_move { "A" } else { "B" },
                    pos.ply() + 1,
                    result.best,
                    result.score,
                    result.depth,
                    result.nodes,
                    result.ms,
                    start.elapsed().as_millis(),
                    result.pv.join(" ")
                );
            }
            let cell: Cell = result.best.parse().expect("a cell");
            pos = pos.play(cell).expect("a legal engine move");
            moves.push(result.best);
        }
        let winner = pos.outcome().and_then(|o| o.winner);
        let a_color = if a_is_black {
            Color::Black
        } else {
            Color::White
        };
        let verdict = match winner {
            Some(c) if c == a_color => {
                wins_a += 1;
                "A wins"
            }
            Some(_) => {
                wins_b += 1;
                "B wins"
            }
            None => {
                draws += 1;
                "draw"
            }
        };
        println!(
            "game {}: A (level {level_a}) {}, {verdict} in {} moves: {}",
            game + 1,
            if a_is_black { "black" } else { "white" },
            pos.ply(),
            moves.join(" ")
        );
    }
    println!(
        "score: level {level_a} {wins_a} - {wins_b} level {level_b}, {draws} draws ({games} games, {ms} ms/move, {size}x{size} {rule:?}); slowest move {} ms",
        slowest.as_millis()
    );
}
