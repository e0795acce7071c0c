//! Checks that the full-strength bot plays the standard 7x6 board perfectly: as first player
//! it must win every game, and as second player it must never let a won or drawn position go.
//!
//! ```text
//! cargo run --release -p kibitz-bot --example connect4_perfect -- [--ms 200] [--replies 2]
//! ```
//! The opponent's first `--replies` moves run through every column (7^N lines for each side),
//! after which it plays as the bot does (level 10, the same time). Before every bot move the
//! exact score is known (the opening book, else the exact solver); the bot's move must keep
//! its sign (a win stays a win, a draw at least a draw), and the example counts the moves that
//! keep the exact score too. Prints one line per side and exits non-zero on any lost value.

use std::time::{Duration, Instant};

use game_core::connect4::{Column, ConnectFour};
use game_core::{AnyPosition, Position};
use kibitz_bot::engine::connect4::bitboard::{Board, Geometry};
use kibitz_bot::engine::connect4::solver::Solver;
use kibitz_bot::engine::connect4::{book, Connect4Engine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

/// What one side's games came to.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    bot_moves: u32,
    /// Bot moves after which the position's value changed sign for the worse.
    values_lost: u32,
    /// Bot moves that kept the exact score.
    exact: u32,
    slowest: Duration,
}

struct Checker {
    solver: Solver<u64>,
}

impl Checker {
    /// The exact score of `p` (not over) for its side to move.
    fn score(&mut self, p: &ConnectFour) -> i32 {
        if let Some(m) = book::probe(p) {
            return m.score;
        }
        self.solver
            .solve(&Board::of(p))
            .expect("an unbounded solve finishes")
    }
}

/// The column `engine` plays in `p` at full strength.
fn level_ten_move(
    engine: &mut Connect4Engine,
    p: &ConnectFour,
    limits: SearchLimits,
    seed: u64,
) -> Column {
    let r = engine
        .search(
            &AnyPosition::Connect4(p.clone()),
            limits,
            Level::new(10),
            &StopFlag::new(),
            seed,
        )
        .expect("a move");
    r.best.parse().expect("a column")
}

fn play_line(
    replies: &[u8],
    bot_first: bool,
    ms: u64,
    checker: &mut Checker,
    tally: &mut Tally,
    seed: u64,
) {
    let mut p = ConnectFour::new(7, 6, &[]).expect("7x6 is a valid board");
    let (mut bot, mut opponent) = (Connect4Engine::new(), Connect4Engine::new());
    let mut forced = replies.iter();
    let limits = SearchLimits::Time(Duration::from_millis(ms));
    while !p.is_over() {
        let bot_to_move = p.ply().is_multiple_of(2) == bot_first;
        let col = if bot_to_move {
            let before = checker.score(&p);
            let clock = Instant::now();
            let col = level_ten_move(&mut bot, &p, limits, seed);
            tally.slowest = tally.slowest.max(clock.elapsed());
            let next = p.clone().play(col).expect("a legal move");
            let after = match next.outcome() {
                Some(o) if o.winner.is_some() => before,
                Some(_) => 0,
                None => -checker.score(&next),
            };
            tally.bot_moves += 1;
            if after.signum() < before.signum() {
                tally.values_lost += 1;
                eprintln!("value lost: {p:?} played {col} ({before} -> {after})");
            }
            if after == before {
                tally.exact += 1;
            }
            col
        } else if let Some(&c) = forced.next() {
            Column(c)
        } else {
            level_ten_move(&mut opponent, &p, limits, seed)
        };
        match p.clone().play(col) {
            Ok(next) => p = next,
            // A forced reply into a full column: the line does not exist.
            Err(_) => return,
        }
    }
    tally.games += 1;
    let bot_colour = if bot_first {
        game_core::Color::Black
    } else {
        game_core::Color::White
    };
    match p.outcome().and_then(|o| o.winner) {
        Some(w) if w == bot_colour => tally.wins += 1,
        Some(_) => tally.losses += 1,
        None => tally.draws += 1,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut ms, mut replies) = (200u64, 2u32);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse().ok());
        match (arg.as_str(), value) {
            ("--ms", Some(v)) => ms = v,
            ("--replies", Some(v)) if v <= 4 => replies = v as u32,
            _ => {
                eprintln!("usage: connect4_perfect [--ms 200] [--replies 0..=4]");
                std::process::exit(2);
            }
        }
    }
    let start = ConnectFour::new(7, 6, &[]).expect("7x6 is a valid board");
    let geometry: Geometry<u64> = Geometry::of(&start);
    let mut checker = Checker {
        solver: Solver::new(geometry, 24),
    };
    let lines: Vec<Vec<u8>> = (0..7u32.pow(replies))
        .map(|mut n| {
            (0..replies)
                .map(|_| {
                    let c = (n % 7) as u8;
                    n /= 7;
                    c
                })
                .collect()
        })
        .collect();
    let mut lost = 0;
    for bot_first in [true, false] {
        let mut tally = Tally::default();
        let clock = Instant::now();
        for (i, line) in lines.iter().enumerate() {
            let clock = Instant::now();
            play_line(line, bot_first, ms, &mut checker, &mut tally, i as u64);
            eprintln!(
                "line {i} ({line:?}): {} won, {} drawn, {} lost so far; {:.1} s",
                tally.wins,
                tally.draws,
                tally.losses,
                clock.elapsed().as_secs_f64()
            );
        }
        lost += tally.values_lost;
        println!(
            "bot {}: {} games, {} won, {} drawn, {} lost; {} moves, {} kept the exact score, {} lost a value; slowest move {} ms; {:.0} s",
            if bot_first { "first" } else { "second" },
            tally.games,
            tally.wins,
            tally.draws,
            tally.losses,
            tally.bot_moves,
            tally.exact,
            tally.values_lost,
            tally.slowest.as_millis(),
            clock.elapsed().as_secs_f64()
        );
    }
    if lost > 0 {
        std::process::exit(1);
    }
}
