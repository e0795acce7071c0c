//! A generated hall for measuring `kibitz store copy`: a SQLite store with as many accounts
//! and finished games as asked, in the shapes the server writes (a game's room, its two seats,
//! 20 to 60 moves, a chat line in one game of four, ratings and their changes for rated games,
//! a review in one of twenty), plus twice as many guests as accounts and a tournament per
//! thousand games.
//!
//! `cargo run --release -p kibitz-server --example generated_hall -- <dir> <games> <accounts>`

use std::path::PathBuf;

use game_core::{GameSpec, GomokuRule};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::Store;
use rand::{Rng, SeedableRng};
use rusqlite::{params, Connection};

/// A real argon2id hash's shape and length (the copy moves bytes; it never checks them).
const HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$3b9K1y0rS1qTq5m8Wc2m7q3aY0b9vX2s1dF4gH6jK8";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: generated_hall <dir> <games> <accounts>";
    let dir = PathBuf::from(args.next().ok_or(usage)?);
    let games: usize = args.next().ok_or(usage)?.parse()?;
    let accounts: usize = args.next().ok_or(usage)?.parse()?;
    if dir.join("kibitz.db").exists() {
        return Err(format!("{} holds a hall already", dir.display()).into());
    }
    // The store's own open makes the file and its tables.
    drop(Store::open_sqlite(&dir, Metrics::new())?);
    let mut db = Connection::open(dir.join("kibitz.db"))?;
    db.pragma_update(None, "synchronous", "OFF")?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(57);
    let tx = db.transaction()?;
    people(&tx, accounts)?;
    let game = serde_json::to_string(&GameSpec::gomoku(15, GomokuRule::Freestyle))?;
    for g in 0..games {
        one_game(&tx, &mut rng, &game, g, accounts)?;
    }
    for t in 0..games / 1000 {
        tx.execute(
            "INSERT INTO tournaments (id, status, created_ms, doc) VALUES (?1, 'over', ?2, ?3)",
            params![
                format!("t{t}"),
                1_700_000_000_000i64 + t as i64,
                format!(r#"{{"name":"Cup {t}","players":[]}}"#)
            ],
        )?;
    }
    tx.commit()?;
    println!("{}: {games} games, {accounts} accounts", dir.display());
    Ok(())
}

/// The accounts (each a player with a token and a rating) and twice as many guests.
fn people(tx: &rusqlite::Transaction<'_>, accounts: usize) -> rusqlite::Result<()> {
    for p in 0..accounts * 3 {
        let (id, name) = (format!("player-{p:06}"), format!("Player{p}"));
        tx.execute(
            "INSERT INTO players (id, name, token_hash, bot, last_seen_ms) VALUES (?1, ?2, ?3, 0, ?4)",
            params![id, name, format!("{:064x}", p), 1_700_000_000_000i64],
        )?;
        if p < accounts {
            tx.execute(
                "INSERT INTO accounts (player, name, name_key, password_hash, bot, created_ms)
                 VALUES (?1, ?2, ?3, ?4, 0, ?5)",
                params![id, name, name.to_lowercase(), HASH, 1_700_000_000_000i64],
            )?;
            tx.execute(
                "INSERT INTO tokens (token_hash, player, made_ms) VALUES (?1, ?2, ?3)",
                params![format!("{:064x}", p + 1_000_000), id, 1_700_000_000_000i64],
            )?;
            tx.execute(
                "INSERT INTO ratings (player, key, rating, rd, volatility, games)
                 VALUES (?1, 'gomoku-freestyle', ?2, 80.5, 0.06, 12)",
                params![id, 1500.0 + (p % 700) as f64 * 0.731],
            )?;
        }
    }
    Ok(())
}

fn one_game(
    tx: &rusqlite::Transaction<'_>,
    rng: &mut impl Rng,
    game: &str,
    g: usize,
    accounts: usize,
) -> rusqlite::Result<()> {
    let room = format!("room-{g:07}");
    let at = 1_700_000_000_000i64 + g as i64 * 60_000;
    let black = rng.random_range(0..accounts * 3);
    let white = (black + 1 + rng.random_range(0..accounts * 3 - 1)) % (accounts * 3);
    let rated = black < accounts && white < accounts && rng.random_bool(0.6);
    tx.execute(
        "INSERT INTO rooms (id, game, clock, opening, private, created_ms, creator, status, result,
                            seq, rated) VALUES (?1, ?2, ?3, '[]', 0, ?4, ?5, 'over', ?6, ?7, ?8)",
        params![
            room,
            game,
            r#"{"initial_ms":300000,"increment_ms":2000}"#,
            at,
            format!("player-{black:06}"),
            r#"{"result":"black","reason":"five","line":["h8","h9","h10","h11","h12"]}"#,
            70,
            rated
        ],
    )?;
    for (color, p) in [("black", black), ("white", white)] {
        tx.execute(
            "INSERT INTO seats (room, color, player, name, bot, level) VALUES (?1, ?2, ?3, ?4, 0, NULL)",
            params![room, color, format!("player-{p:06}"), format!("Player{p}")],
        )?;
    }
    let plies = rng.random_range(20..=60);
    for ply in 0..plies {
        let by = if ply % 2 == 0 { "black" } else { "white" };
        let mv = format!("{}{}", (b'a' + (ply % 15) as u8) as char, 1 + ply / 15);
        tx.execute(
            "INSERT INTO moves (room, ply, mv, by, black_ms, white_ms, at_ms, req_id, seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                room,
                ply,
                mv,
                by,
                300_000 - ply * 3000,
                300_000 - ply * 2900,
                at + ply as i64 * 4000,
                format!("r{ply}"),
                ply + 2
            ],
        )?;
    }
    if g.is_multiple_of(4) {
        tx.execute(
            "INSERT INTO chat (room, player, name, text, seat, bot, at_ms) VALUES (?1, ?2, ?3, ?4, 'black', 0, ?5)",
            params![room, format!("player-{black:06}"), format!("Player{black}"), "good game, thanks!", at],
        )?;
    }
    if rated {
        for (color, me, other, delta) in [
            ("black", black, white, 9.25),
            ("white", white, black, -9.25),
        ] {
            tx.execute(
                "INSERT INTO rating_changes (room, color, player, name, opponent, key, before, after, rd, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, 'gomoku-freestyle', 1500.0, ?6, 80.5, ?7)",
                params![room, color, format!("player-{me:06}"), format!("Player{me}"),
                        format!("Player{other}"), 1500.0 + delta, at],
            )?;
        }
    }
    if g.is_multiple_of(20) {
        let plies: Vec<String> = (0..plies)
            .map(|p| {
                format!(
                    r#"{{"eval":{},"best":"h8","pv":["h8","h9"],"move":"a{}"}}"#,
                    p * 3 - 40,
                    1 + p % 15
                )
            })
            .collect();
        tx.execute(
            "INSERT INTO reviews (room, review, made_ms) VALUES (?1, ?2, ?3)",
            params![
                room,
                format!(
                    r#"{{"from":0,"plies":[{}],"by":"Kibot","made_ms":{at}}}"#,
                    plies.join(",")
                ),
                at
            ],
        )?;
    }
    Ok(())
}
