//! Makes the Connect Four opening book (`bot/src/engine/connect4/book.txt`) with the project's own
//! exact solver:
//!
//! ```text
//! cargo run --release -p kibitz-bot --example connect4_book -- [--first N] [--second M] [--out FILE]
//! ```
//! It walks the full-strength bot's strategy tree on the standard 7x6 board for each side: where
//! the bot is to move it solves the position and keeps one column that holds the exact score,
//! where the opponent is it follows every reply. Positions with up to N stones (first player,
//! 8 by default) and M stones (second player, 9) get an entry; past them the bot's root solve
//! takes over. Each entry is appended to FILE as soon as it is solved, and entries already in
//! FILE are read back first, so a stopped run goes on where it was; at the end FILE is
//! rewritten with this tree's entries in key order.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::time::Instant;

use game_core::connect4::ConnectFour;
use kibitz_bot::engine::connect4::bitboard::{Board, Geometry};
use kibitz_bot::engine::connect4::book::{
    canonical_key, format_entry, lookup, parse_book, BookMove, BOOK_COLS, BOOK_ROWS,
};
use kibitz_bot::engine::connect4::solver::Solver;

/// Solver table: about 2^26 entries (a few hundred MB), kept for the whole run.
const TABLE_BITS: u32 = 26;

struct Generator {
    geometry: Geometry<u64>,
    solver: Solver<u64>,
    entries: HashMap<u64, BookMove>,
    /// Keys of the positions this run's tree holds (the file may hold more from earlier runs).
    visited: BTreeSet<u64>,
    out: std::fs::File,
    started: Instant,
    solved: u64,
}

impl Generator {
    /// The book move of `board` (the bot to move), solving it if it is new.
    fn book_move(&mut self, board: &Board<u64>) -> BookMove {
        self.visited.insert(canonical_key(board, &self.geometry).0);
        if let Some(m) = lookup(&self.entries, board, &self.geometry) {
            return m;
        }
        let t = Instant::now();
        let before = self.solver.nodes();
        let score = self
            .solver
            .solve(board)
            .expect("an unbounded solve finishes");
        let column = self
            .solver
            .best_column(board, score)
            .expect("an unbounded search finishes");
        let (key, mirrored) = canonical_key(board, &self.geometry);
        let stored = BookMove {
            column: if mirrored {
                self.geometry.cols - 1 - column
            } else {
                column
            },
            score,
        };
        self.entries.insert(key, stored);
        writeln!(self.out, "{}", format_entry(key, stored)).expect("write the book file");
        self.solved += 1;
        if board.moves <= 4 || self.solved.is_multiple_of(100) {
            eprintln!(
                "{} stones: column {} score {score} in {:.1} s ({} nodes); {} new entries, {:.0} s in all",
                board.moves,
                column + 1,
                t.elapsed().as_secs_f64(),
                self.solver.nodes() - before,
                self.solved,
                self.started.elapsed().as_secs_f64()
            );
        }
        BookMove { column, score }
    }

    /// Walks the strategy tree of the side that moves at `bot_parity` (0: first player).
    fn walk(&mut self, board: Board<u64>, bot_parity: u32, last: u32) {
        let g = &self.geometry;
        if board.moves > last || board.moves >= g.playable || board.last_mover_won(g) {
            return;
        }
        if board.moves % 2 == bot_parity {
            if board.can_win_next(&self.geometry) {
                // The engine takes a win on the board without looking anything up.
                return;
            }
            let m = self.book_move(&board);
            let cell = board
                .landing(&self.geometry, m.column)
                .expect("the solver's column is open");
            let mut child = board;
            child.play(cell);
            self.walk(child, bot_parity, last);
        } else {
            for col in 0..self.geometry.cols {
                let Some(cell) = board.landing(&self.geometry, col) else {
                    continue;
                };
                let mut child = board;
                child.play(cell);
                self.walk(child, bot_parity, last);
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut first, mut second) = (8u32, 9u32);
    let mut out_path = String::from("bot/src/engine/connect4/book.txt");
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value) {
            ("--first", Some(v)) => first = v.parse().expect("--first N"),
            ("--second", Some(v)) => second = v.parse().expect("--second M"),
            ("--out", Some(v)) => out_path = v,
            _ => {
                eprintln!("usage: connect4_book [--first N] [--second M] [--out FILE]");
                std::process::exit(2);
            }
        }
    }
    let start = ConnectFour::new(BOOK_COLS, BOOK_ROWS, &[]).expect("7x6 is a valid board");
    let geometry: Geometry<u64> = Geometry::of(&start);
    let existing = std::fs::read_to_string(&out_path).unwrap_or_default();
    let entries = parse_book(&existing).unwrap_or_else(|e| {
        eprintln!("{out_path}: {e}");
        std::process::exit(1);
    });
    let out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&out_path)
        .unwrap_or_else(|e| {
            eprintln!("{out_path}: {e}");
            std::process::exit(1);
        });
    eprintln!("{} entries read from {out_path}", entries.len());
    let mut generator = Generator {
        solver: Solver::new(geometry.clone(), TABLE_BITS),
        geometry,
        entries,
        visited: BTreeSet::new(),
        out,
        started: Instant::now(),
        solved: 0,
    };
    let empty = Board::of(&start);
    generator.walk(empty, 0, first);
    generator.walk(empty, 1, second);
    // The finished book: this tree's entries only, in key order so that runs compare.
    let mut text = format!(
        "# Connect Four 7x6 opening book, made by `cargo run --release -p kibitz-bot --example \
         connect4_book -- --first {first} --second {second}`.\n\
         # Each line: the position's key (hex; the smaller of its own and its mirror's), a \
         column (1-based, in the key's orientation) that keeps its exact score, the score.\n"
    );
    for key in &generator.visited {
        text += &format_entry(*key, generator.entries[key]);
        text.push('\n');
    }
    std::fs::write(&out_path, text).expect("write the book file");
    eprintln!(
        "done: {} entries ({} new) in {:.0} s",
        generator.visited.len(),
        generator.solved,
        generator.started.elapsed().as_secs_f64()
    );
}
