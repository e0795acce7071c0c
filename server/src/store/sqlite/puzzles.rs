//! The SQLite store's puzzle ratings: each puzzle's and each account's (per variant), and the
//! attempts that moved them — one an account and puzzle, the first (a second is not rated) —
//! and the puzzles made from the hall's own games.

use rusqlite::{params, Connection};

use crate::store::error::StoreError;
use game_core::puzzle::Puzzle;

use crate::store::records::{HallPuzzleRow, PuzzleAttempt, StoredGlicko};

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS puzzle_ratings (
  puzzle TEXT PRIMARY KEY, variant TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,
  volatility REAL NOT NULL, plays INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS puzzle_ratings_variant ON puzzle_ratings(variant);
CREATE TABLE IF NOT EXISTS puzzle_players (
  player TEXT NOT NULL, variant TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,
  volatility REAL NOT NULL, plays INTEGER NOT NULL, PRIMARY KEY (player, variant));
CREATE TABLE IF NOT EXISTS puzzle_attempts (
  player TEXT NOT NULL, puzzle TEXT NOT NULL, variant TEXT NOT NULL, solved INTEGER NOT NULL,
  at_ms INTEGER NOT NULL, PRIMARY KEY (player, puzzle));
CREATE TABLE IF NOT EXISTS hall_puzzles (
  id TEXT PRIMARY KEY, variant TEXT NOT NULL, made_ms INTEGER NOT NULL, puzzle TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS hall_puzzles_made ON hall_puzzles(made_ms);
";

/// Stores an attempt and both new ratings, if it is the player's first at the puzzle.
pub(super) fn record_attempt(db: &Connection, a: &PuzzleAttempt) -> Result<(), StoreError> {
    let first = db
        .prepare_cached(
            "INSERT INTO puzzle_attempts (player, puzzle, variant, solved, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            a.player,
            a.puzzle,
            a.variant,
            a.solved,
            a.at_ms as i64
        ])?;
    if first == 0 {
        return Ok(());
    }
    let (p, q) = (&a.player_after, &a.puzzle_after);
    db.prepare_cached(
        "INSERT INTO puzzle_players (player, variant, rating, rd, volatility, plays)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (player, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
           volatility = excluded.volatility, plays = excluded.plays",
    )?
    .execute(params![
        a.player,
        a.variant,
        p.rating,
        p.rd,
        p.volatility,
        p.plays
    ])?;
    db.prepare_cached(
        "INSERT INTO puzzle_ratings (puzzle, variant, rating, rd, volatility, plays)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (puzzle) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
           volatility = excluded.volatility, plays = excluded.plays",
    )?
    .execute(params![
        a.puzzle,
        a.variant,
        q.rating,
        q.rd,
        q.volatility,
        q.plays
    ])?;
    Ok(())
}

fn glicko(r: &rusqlite::Row<'_>, from: usize) -> rusqlite::Result<StoredGlicko> {
    Ok(StoredGlicko {
        rating: r.get(from)?,
        rd: r.get(from + 1)?,
        volatility: r.get(from + 2)?,
        plays: r.get(from + 3)?,
    })
}

pub(super) fn ratings(
    db: &Connection,
    variant: &str,
) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT puzzle, rating, rd, volatility, plays FROM puzzle_ratings WHERE variant = ?1",
    )?;
    let rows = stmt.query_map([variant], |r| Ok((r.get(0)?, glicko(r, 1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn player(
    db: &Connection,
    player: &str,
) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT variant, rating, rd, volatility, plays FROM puzzle_players WHERE player = ?1
         ORDER BY variant",
    )?;
    let rows = stmt.query_map([player], |r| Ok((r.get(0)?, glicko(r, 1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn tried(
    db: &Connection,
    player: &str,
    variant: &str,
) -> Result<Vec<String>, StoreError> {
    let mut stmt =
        db.prepare_cached("SELECT puzzle FROM puzzle_attempts WHERE player = ?1 AND variant = ?2")?;
    let rows = stmt.query_map([player, variant], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores a puzzle of the hall's games, unless one of its id is stored already.
pub(super) fn add_hall(db: &Connection, p: &Puzzle, made_ms: u64) -> Result<(), StoreError> {
    let text = serde_json::to_string(p)?;
    db.prepare_cached(
        "INSERT INTO hall_puzzles (id, variant, made_ms, puzzle) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT DO NOTHING",
    )?
    .execute(params![p.id, p.variant, made_ms as i64, text])?;
    Ok(())
}

/// The hall's puzzles stored at or after `since_ms`, oldest first.
pub(super) fn hall_since(db: &Connection, since_ms: u64) -> Result<Vec<HallPuzzleRow>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT made_ms, puzzle FROM hall_puzzles WHERE made_ms >= ?1 ORDER BY made_ms, id",
    )?;
    let rows = stmt.query_map([since_ms as i64], |r| {
        Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (made_ms, text) = row?;
        out.push((made_ms, serde_json::from_str(&text)?));
    }
    Ok(out)
}
