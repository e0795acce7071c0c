//! Makes the Gomoku opening book (`bot/src/engine/gomoku/book.txt`) with the project's own engine:
//!
//! ```text
//! cargo run --release -p kibitz-bot --example gomoku_book -- \
//!     [--ms 8000] [--later-ms 4000] [--five-ms MS] [--five-apart] [--stones 5] [--jobs 1] \
//!     [--resume [--redo STONES] [--again MOVES]...] [--out FILE]
//! ```
//! Three kinds of position, each listed once up to the board's symmetries:
//! - three stones, white to move: black's first stone in the centre, the next two in the 5x5
//!   square around it (75 shapes), searched for `--ms` milliseconds;
//! - four stones, black to move: each of those with a white reply in the 5x5 square or next to
//!   a stone (black's second move), searched for `--later-ms`;
//! - five stones, white to move: each shape with the book's own reply to it and a black stone
//!   in the 5x5 square next to a stone (white's second move), searched for `--five-ms`
//!   (`--later-ms` when not given); with `--five-apart`, a black stone anywhere in the square
//!   (next to no stone too).
//!
//! `--stones` is the most stones a listed position has (3, 4 or 5). Level 10 searches each
//! position without the book, `--jobs` positions at a time, each with a fresh engine (so that a
//! position's answer does not hang on what was searched before it). The replies are
//! written in the book's canonical orientation, with the score and depth the search reached,
//! to FILE (the book's path by default). With `--resume`, positions already in FILE keep their
//! lines and only the others are searched, so a long run can be stopped and taken up again
//! (kept lines of positions this run does not list are dropped). `--redo STONES` searches the
//! positions of that many stones again: their lines are taken out of FILE before the run
//! starts, so that a stopped redo is taken up again by `--resume` alone. `--again MOVES` (any
//! number of times) does the same for the one position the moves reach, written as a game's
//! moves from black's first (`h8 g8 f8 g9 g7`): the way to look again at a book move that lost
//! a game.

use std::collections::BTreeSet;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule};
use kibitz_bot::engine::gomoku::book::{
    self, centre, next_to, square, BookEntries, BookMove, Stones, BOOK_SIZE,
};
use kibitz_bot::engine::gomoku::{parse_position, GomokuEngine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

struct Options {
    ms: u64,
    later_ms: u64,
    five_ms: Option<u64>,
    five_apart: bool,
    stones: usize,
    jobs: usize,
    resume: bool,
    redo: Option<usize>,
    again: Vec<String>,
    out: String,
}

fn options() -> Result<Options, Box<dyn std::error::Error>> {
    let mut o = Options {
        ms: 8_000,
        later_ms: 4_000,
        five_ms: None,
        five_apart: false,
        stones: 5,
        jobs: 1,
        resume: false,
        redo: None,
        again: Vec::new(),
        out: String::from("bot/src/engine/gomoku/book.txt"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--ms" => o.ms = value()?.parse()?,
            "--later-ms" => o.later_ms = value()?.parse()?,
            "--five-ms" => o.five_ms = Some(value()?.parse()?),
            "--five-apart" => o.five_apart = true,
            "--stones" => o.stones = value()?.parse()?,
            "--jobs" => o.jobs = value()?.parse()?,
            "--resume" => o.resume = true,
            "--redo" => o.redo = Some(value()?.parse()?),
            "--again" => o.again.push(value()?),
            "--out" => o.out = value()?,
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    if !(3..=5).contains(&o.stones) {
        return Err("--stones is 3, 4 or 5".into());
    }
    match o.redo {
        Some(_) if !o.resume => return Err("--redo goes with --resume".into()),
        Some(n) if !(3..=o.stones).contains(&n) => {
            return Err(format!("--redo is 3 to --stones ({})", o.stones).into())
        }
        _ => {}
    }
    if !o.again.is_empty() && !o.resume {
        return Err("--again goes with --resume".into());
    }
    o.jobs = o.jobs.max(1);
    Ok(o)
}

/// The book position that `moves` (a game's moves from black's first) reach.
fn position_of(moves: &str) -> Result<Stones, String> {
    let AnyPosition::Gomoku(position) = parse_position(moves, BOOK_SIZE, GomokuRule::Freestyle)
        .map_err(|e| format!("--again {moves}: {e}"))?
    else {
        return Err(format!("--again {moves}: not a Gomoku position"));
    };
    Ok(book::canonical(&book::stones_of(&position), BOOK_SIZE).0)
}

/// How many stones a book position has, black's and white's.
fn stone_count(key: &Stones) -> usize {
    key.0.len() + key.1.len()
}

fn with_stone(stones: &Stones, cell: Cell, black: bool) -> Stones {
    let mut s = stones.clone();
    let side = if black { &mut s.0 } else { &mut s.1 };
    side.push(cell);
    side.sort_unstable();
    book::canonical(&s, BOOK_SIZE).0
}

/// The three-stone shapes.
fn openings() -> BTreeSet<Stones> {
    let square: Vec<Cell> = square().into_iter().filter(|&c| c != centre()).collect();
    let mut shapes = BTreeSet::new();
    for &white in &square {
        for &black in square.iter().filter(|&&b| b != white) {
            let mut blacks = vec![centre(), black];
            blacks.sort_unstable();
            shapes.insert(book::canonical(&(blacks, vec![white]), BOOK_SIZE).0);
        }
    }
    shapes
}

/// Black's second move: every opening with a white reply in the square or next to a stone.
fn black_seconds(shapes: &BTreeSet<Stones>) -> BTreeSet<Stones> {
    let square = square();
    let mut out = BTreeSet::new();
    for shape in shapes {
        let taken = |c: &Cell| shape.0.contains(c) || shape.1.contains(c);
        let mut replies = next_to(shape);
        replies.extend(square.iter().filter(|c| !taken(c)));
        for reply in replies {
            out.insert(with_stone(shape, reply, false));
        }
    }
    out
}

/// White's second move: every opening with the book's reply and a black stone in the square
/// next to a stone; with `apart`, anywhere in the square.
fn white_seconds(shapes: &BTreeSet<Stones>, book: &BookEntries, apart: bool) -> BTreeSet<Stones> {
    let square = square();
    let mut out = BTreeSet::new();
    for shape in shapes {
        let Some(m) = book.get(shape) else { continue };
        let mut after = shape.clone();
        after.1.push(m.reply);
        after.1.sort_unstable();
        let taken = |c: &Cell| after.0.contains(c) || after.1.contains(c);
        let near = next_to(&after);
        for &reply in square
            .iter()
            .filter(|c| !taken(c) && (apart || near.contains(c)))
        {
            out.insert(with_stone(&after, reply, true));
        }
    }
    out
}

/// Black's and white's stones played alternately from black: a legal order of play for the
/// book's positions (no side has five, black has as many stones as white or one more).
fn moves_of(key: &Stones) -> Vec<Cell> {
    let mut moves = Vec::with_capacity(key.0.len() + key.1.len());
    for i in 0..key.0.len() {
        moves.push(key.0[i]);
        if let Some(&w) = key.1.get(i) {
            moves.push(w);
        }
    }
    moves
}

/// The book's answer to `key`: a `ms` search at level 10 with `engine`, seeded with `seed`.
fn search_one(
    engine: &mut GomokuEngine,
    key: &Stones,
    ms: u64,
    seed: u64,
) -> Result<BookMove, String> {
    let moves = moves_of(key);
    let position = Gomoku::from_moves(BOOK_SIZE, GomokuRule::Freestyle, &moves)
        .map_err(|e| format!("{moves:?}: {e}"))?;
    let result = engine
        .search(
            &AnyPosition::Gomoku(position),
            SearchLimits::Time(Duration::from_millis(ms)),
            Level::MAX,
            &StopFlag::new(),
            seed,
        )
        .ok_or("no move in a book position")?;
    Ok(BookMove {
        reply: result.best.parse().map_err(|e| format!("{e}"))?,
        score: result.score.as_number(),
        depth: result.depth,
    })
}

/// Searches `positions` with `jobs` engines for `ms` each, adding every answer to `book` and
/// to the file as it comes. A worker's failure stops the others at their next position.
fn search_all(
    positions: &[Stones],
    ms: u64,
    jobs: usize,
    book: &Mutex<(BookEntries, std::io::BufWriter<std::fs::File>)>,
    started: Instant,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || -> Result<(), String> {
        while !failed.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(key) = positions.get(i) else {
                break;
            };
            let mut engine = GomokuEngine::new().without_book();
            let m = search_one(&mut engine, key, ms, i as u64)?;
            let line = book::book_line(key, &m);
            let mut guard = book.lock().map_err(|_| "a worker failed")?;
            let (entries, file) = &mut *guard;
            entries.insert(key.clone(), m);
            writeln!(file, "{line}")
                .and_then(|()| file.flush())
                .map_err(|e| e.to_string())?;
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            eprintln!(
                "{n}/{} {line} ({:.0} s)",
                positions.len(),
                started.elapsed().as_secs_f64()
            );
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let result = work();
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "a worker panicked".to_string())?)
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let o = options()?;
    let five_ms = o.five_ms.unwrap_or(o.later_ms);
    let mut kept: BookEntries = if o.resume {
        match std::fs::read_to_string(&o.out) {
            Ok(text) => book::parse_book(&text)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BookEntries::new(),
            Err(e) => return Err(e.into()),
        }
    } else {
        BookEntries::new()
    };
    if let Some(stones) = o.redo {
        let before = kept.len();
        kept.retain(|key, _| stone_count(key) != stones);
        eprintln!(
            "{} positions of {stones} stones to search again",
            before - kept.len()
        );
    }
    for moves in &o.again {
        if kept.remove(&position_of(moves)?).is_none() {
            return Err(format!("--again {moves}: not a position of {}", o.out).into());
        }
        eprintln!("{moves}: to search again");
    }
    if o.redo.is_some() || !o.again.is_empty() {
        // Written now without them, so that a stopped run keeps its new lines only.
        write_book(&o.out, &kept, &[])?;
    }
    // Answers are appended as they come, so that a stopped run loses at most the positions
    // being searched; the file is written again in order at the end.
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(o.resume)
        .truncate(!o.resume)
        .open(&o.out)?;
    let book = Mutex::new((kept, std::io::BufWriter::new(file)));
    let started = Instant::now();
    let missing = |all: &BTreeSet<Stones>, book: &Mutex<(BookEntries, _)>| -> Vec<Stones> {
        let guard = book.lock().expect("no worker holds it now");
        all.iter()
            .filter(|k| !guard.0.contains_key(*k))
            .cloned()
            .collect()
    };

    let shapes = openings();
    search_all(&missing(&shapes, &book), o.ms, o.jobs, &book, started)?;
    let fours = if o.stones >= 4 {
        black_seconds(&shapes)
    } else {
        BTreeSet::new()
    };
    search_all(&missing(&fours, &book), o.later_ms, o.jobs, &book, started)?;
    let fives = if o.stones >= 5 {
        white_seconds(
            &shapes,
            &book.lock().map_err(|_| "a worker failed")?.0,
            o.five_apart,
        )
    } else {
        BTreeSet::new()
    };
    search_all(&missing(&fives, &book), five_ms, o.jobs, &book, started)?;

    let (mut entries, _) = book.into_inner().map_err(|_| "a worker failed")?;
    // Only the positions listed now: a kept line of an earlier run's wider list, or one after
    // a first reply the book no longer plays, is dropped.
    entries.retain(|key, _| shapes.contains(key) || fours.contains(key) || fives.contains(key));
    let header = [
        format!(
            "# Gomoku 15x15 freestyle opening book, made by `cargo run --release -p kibitz-bot \
             --example gomoku_book -- --ms {} --later-ms {} --five-ms {five_ms}{} --stones {}`.",
            o.ms,
            o.later_ms,
            if o.five_apart { " --five-apart" } else { "" },
            o.stones
        ),
        format!(
            "# Each line: black's stones / white's stones (canonical orientation) -> the reply \
             of the side to move, its score (centi-stones) and the depth of a level 10 search: \
             {} ms with three stones, {} ms with four, {five_ms} ms with five.",
            o.ms, o.later_ms
        ),
    ];
    write_book(&o.out, &entries, &header)?;
    eprintln!(
        "{} positions in {} ({:.0} s)",
        entries.len(),
        o.out,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes `entries` to `path` in order, fewer stones first, then by stones, under `header`.
fn write_book(path: &str, entries: &BookEntries, header: &[String]) -> std::io::Result<()> {
    let ordered: BTreeSet<(usize, &Stones)> =
        entries.keys().map(|key| (stone_count(key), key)).collect();
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    for line in header {
        writeln!(file, "{line}")?;
    }
    for (_, key) in ordered {
        writeln!(file, "{}", book::book_line(key, &entries[key]))?;
    }
    file.flush()
}
