//! Measures the opening explorer at scale: plays GAMES generated Gomoku games (freestyle,
//! 15x15) into a fresh store — SQLite in a directory, or a PostgreSQL database named by its
//! URL (`scripts/explorer_bench_pg.sh` starts one) — through the store's own writes — each game a new room with
//! its moves, then its end, which indexes it as the server would — and then times look-ups of
//! positions those games went through: the rate of indexed ends, the index's rows and size on
//! disk, and the look-ups' p50, p95 and p99.
//!
//! Openings are drawn so that lines recur as they do among players: from each position, the
//! same few "book" moves (chosen by the position's own hash) are played most of the time, and
//! another move near the stones otherwise.
//!
//! `cargo run --release -p kibitz-server --example explorer_bench -- <dir|postgres://…> <games> [look-ups]`

use std::path::PathBuf;
use std::time::{Duration, Instant};

use futures::stream::{self, StreamExt};
use game_core::protocol::{GameResult, ResultKind, RoomStatus};
use game_core::{AnyPosition, Color, EndReason, GameSpec, GomokuRule};
use kibitz_server::explorer::{self, buckets};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{
    RoomChange, Store, StoredMove, StoredRoom, StoredRoomHead, StoredSeat, Write,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Moves played per game (the index keeps the first 30).
const PLIES: usize = 30;

/// Games written at once: the writer commits what is queued together.
const IN_FLIGHT: usize = 512;

fn spec() -> GameSpec {
    GameSpec::gomoku(15, GomokuRule::Freestyle)
}

/// The empty points within two of the last two stones (the centre on an empty board).
fn candidates(taken: &[bool; 225], last: &[(i32, i32)]) -> Vec<String> {
    let mut out = Vec::new();
    for &(col, row) in last.iter().rev().take(2) {
        for dc in -2..=2 {
            for dr in -2..=2 {
                let (c, r) = (col + dc, row + dr);
                let cell = format!("{}{}", (b'a' + c as u8) as char, r + 1);
                if (0..15).contains(&c)
                    && (0..15).contains(&r)
                    && !taken[(r * 15 + c) as usize]
                    && !out.contains(&cell)
                {
                    out.push(cell);
                }
            }
        }
    }
    if out.is_empty() {
        out.push("h8".to_string());
    }
    out
}

/// Game `g`'s moves: book moves most of the time, others near the last stones otherwise.
fn one_game(g: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(g);
    let mut pos = AnyPosition::new(&spec()).expect("the board");
    let mut taken = [false; 225];
    let mut last = Vec::new();
    let mut moves = Vec::new();
    while moves.len() < PLIES && !pos.is_over() {
        let candidates = candidates(&taken, &last);
        let key = explorer::position_key(&pos);
        let mut book = StdRng::seed_from_u64(u64::from_str_radix(&key[..16], 16).unwrap_or(0));
        let roll: f64 = rng.random();
        let pick = if roll < 0.85 {
            // Three book moves, the first the most played.
            let nth = if roll < 0.55 {
                0
            } else if roll < 0.75 {
                1
            } else {
                2
            };
            (0..=nth)
                .map(|_| book.random_range(0..candidates.len()))
                .last()
                .unwrap_or(0)
        } else {
            rng.random_range(0..candidates.len())
        };
        let mv = candidates[pick].clone();
        if pos.play_str(&mv).is_err() {
            break;
        }
        let col = i32::from(mv.as_bytes()[0] - b'a');
        let row: i32 = mv[1..].parse::<i32>().expect("a row") - 1;
        taken[(row * 15 + col) as usize] = true;
        last.push((col, row));
        moves.push(mv);
    }
    moves
}

fn room(id: String, moves: &[String]) -> StoredRoom {
    let seat = |who: &str| StoredSeat {
        player: format!("{who}-{id}"),
        name: who.to_string(),
        bot: false,
        level: None,
    };
    StoredRoom {
        head: StoredRoomHead {
            id: id.clone(),
            game: spec(),
            clock: None,
            opening: Vec::new(),
            private: false,
            created_ms: 1_700_000_000_000,
            creator: None,
            rated: false,
        },
        status: RoomStatus::Playing,
        result: None,
        seq: moves.len() as u64,
        black: Some(seat("b")),
        white: Some(seat("w")),
        moves: moves
            .iter()
            .enumerate()
            .map(|(ply, mv)| StoredMove {
                ply,
                mv: mv.clone(),
                by: if ply % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                black_ms: None,
                white_ms: None,
                at_ms: 1_700_000_000_000,
                req_id: None,
                seq: ply as u64 + 1,
            })
            .collect(),
        fence: 0,
        rating: None,
    }
}

async fn play_games(store: &Store, games: u64) {
    stream::iter(0..games)
        .for_each_concurrent(IN_FLIGHT, |g| async move {
            let moves = one_game(g);
            let result = [ResultKind::Black, ResultKind::White, ResultKind::Draw][(g % 3) as usize];
            let id = format!("g{g:07}");
            store
                .write(Write::NewRoom(Box::new(room(id.clone(), &moves))))
                .await
                .expect("a room");
            let mut over = RoomChange::new(&id, moves.len() as u64 + 1);
            over.status = Some((
                RoomStatus::Over,
                Some(GameResult {
                    result,
                    reason: EndReason::Resign,
                    line: None,
                    score: None,
                }),
            ));
            store.write(Write::Room(over)).await.expect("its end");
        })
        .await;
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: explorer_bench <dir|postgres://…> <games> [look-ups]";
    let target = args.next().ok_or(usage)?;
    let games: u64 = args.next().ok_or(usage)?.parse()?;
    let lookups: usize = args.next().map_or(Ok(10_000), |n| n.parse())?;
    let postgres = target.starts_with("postgres");
    let store = if postgres {
        Store::open_postgres(&target, Metrics::new()).await?
    } else {
        Store::open_sqlite(&PathBuf::from(&target), Metrics::new())?
    };
    let started = Instant::now();
    play_games(&store, games).await;
    let took = started.elapsed();
    println!(
        "{games} games stored and indexed in {:.1} s ({:.0} games/s)",
        took.as_secs_f64(),
        games as f64 / took.as_secs_f64()
    );
    // Positions to look up: prefixes of stored games (those players reach), at any depth.
    let mut rng = StdRng::seed_from_u64(7);
    let mut times = Vec::with_capacity(lookups);
    let mut found = 0usize;
    for _ in 0..lookups {
        let line = one_game(rng.random_range(0..games));
        let depth = rng.random_range(0..line.len().min(explorer::MAX_PLIES));
        let pos = AnyPosition::with_moves(&spec(), &line[..depth])?;
        let key = explorer::position_key(&pos);
        let at = Instant::now();
        let next = store
            .explorer("gomoku-freestyle", &key, buckets(None, None), 40)
            .await?;
        times.push(at.elapsed());
        found += usize::from(!next.is_empty());
    }
    times.sort();
    println!(
        "{lookups} look-ups ({found} found games): p50 {:?}, p95 {:?}, p99 {:?}, max {:?}",
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        percentile(&times, 0.99),
        times[times.len() - 1]
    );
    drop(store);
    if postgres {
        let (db, connection) = tokio_postgres::connect(&target, tokio_postgres::NoTls).await?;
        tokio::spawn(connection);
        let row = db
            .query_one(
                "SELECT (SELECT count(*) FROM explorer), pg_total_relation_size('explorer'),
                        pg_database_size(current_database())",
                &[],
            )
            .await?;
        let (rows, bytes, whole): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        println!("explorer: {rows} rows, {bytes} bytes with its index; database {whole} bytes");
        return Ok(());
    }
    let dir = PathBuf::from(&target);
    let db = rusqlite::Connection::open(dir.join("kibitz.db"))?;
    let rows: i64 = db.query_row("SELECT count(*) FROM explorer", [], |r| r.get(0))?;
    let bytes: i64 = db
        .query_row(
            "SELECT sum(pgsize) FROM dbstat WHERE name = 'explorer'",
            [],
            |r| r.get(0),
        )
        .unwrap_or(-1);
    let file = std::fs::metadata(dir.join("kibitz.db"))?.len();
    println!("explorer: {rows} rows, {bytes} bytes; kibitz.db {file} bytes");
    Ok(())
}
