//! Makes the Gomoku opening book (`bot/src/gomoku/book.txt`) with the project's own engine:
//!
//! ```text
//! cargo run --release -p kibitz-bot --example gomoku_book -- [--ms 8000] [--out FILE]
//! ```
//! Every three-stone opening of 15x15 freestyle with black's first stone in the centre and the
//! next two in the 5x5 square around it is listed once up to the board's symmetries (75
//! shapes), and level 10 searches each, white to move, for `--ms` milliseconds (8,000 by
//! default) without the book. The replies are written in the book's canonical orientation,
//! with the score and depth the search reached, to FILE (the book's path by default).

use std::collections::BTreeSet;
use std::io::Write;
use std::time::{Duration, Instant};

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule};
use kibitz_bot::engine::{Engine, Level, Score, SearchLimits, StopFlag};
use kibitz_bot::gomoku::book::{self, BookMove, Stones, BOOK_SIZE};
use kibitz_bot::gomoku::GomokuEngine;

/// Half the side of the square around the centre that the second and third stones lie in.
const REACH: i8 = 2;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut ms = 8_000u64;
    let mut out = String::from("bot/src/gomoku/book.txt");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--ms" => ms = value()?.parse()?,
            "--out" => out = value()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }

    let centre = Cell::new(BOOK_SIZE / 2, BOOK_SIZE / 2);
    let square: Vec<Cell> = (-REACH..=REACH)
        .flat_map(|dx| (-REACH..=REACH).map(move |dy| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| {
            Cell::new(
                centre.col.saturating_add_signed(dx),
                centre.row.saturating_add_signed(dy),
            )
        })
        .collect();
    let mut shapes: BTreeSet<Stones> = BTreeSet::new();
    for &white in &square {
        for &black in square.iter().filter(|&&b| b != white) {
            let mut blacks = vec![centre, black];
            blacks.sort_unstable();
            shapes.insert(book::canonical(&(blacks, vec![white]), BOOK_SIZE).0);
        }
    }

    let mut file = std::io::BufWriter::new(std::fs::File::create(&out)?);
    writeln!(
        file,
        "# Gomoku 15x15 freestyle opening book, made by `cargo run --release -p kibitz-bot \
         --example gomoku_book -- --ms {ms}`."
    )?;
    writeln!(
        file,
        "# Each line: black's stones / white's stones (canonical orientation) -> white's reply, \
         the score for white (centi-stones) and the depth of a {ms} ms search at level 10."
    )?;
    let started = Instant::now();
    let mut engine = GomokuEngine::new().without_book();
    for (i, key) in shapes.iter().enumerate() {
        // Black's centre stone, white's, black's other: a legal order of play.
        let other = *key.0.iter().find(|&&c| c != centre).unwrap_or(&key.0[0]);
        let moves = [centre, key.1[0], other];
        let position = Gomoku::from_moves(BOOK_SIZE, GomokuRule::Freestyle, &moves)?;
        let result = engine
            .search(
                &AnyPosition::Gomoku(position),
                SearchLimits::Time(Duration::from_millis(ms)),
                Level::MAX,
                &StopFlag::new(),
                i as u64,
            )
            .ok_or("no move in an opening")?;
        let score = match result.score {
            Score::Heuristic(s) | Score::Exact(s) => s,
            Score::WinIn(n) if n > 0 => 100_000 - n,
            Score::WinIn(n) => -100_000 - n,
        };
        let m = BookMove {
            reply: result.best.parse()?,
            score,
            depth: result.depth,
        };
        writeln!(file, "{}", book::book_line(key, &m))?;
        file.flush()?;
        eprintln!(
            "{}/{} {} ({:.0} s)",
            i + 1,
            shapes.len(),
            book::book_line(key, &m),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
