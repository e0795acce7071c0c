//! The SQLite store's moderation by players: whom each account has blocked.

use rusqlite::{params, Connection};

use crate::store::error::StoreError;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS blocks (
  player TEXT NOT NULL, blocked TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (player, blocked));
";

pub(super) fn block(
    db: &Connection,
    player: &str,
    blocked: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO blocks (player, blocked, at_ms) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    )?
    .execute(params![player, blocked, at_ms as i64])?;
    Ok(())
}

pub(super) fn unblock(db: &Connection, player: &str, blocked: &str) -> Result<(), StoreError> {
    db.prepare_cached("DELETE FROM blocks WHERE player = ?1 AND blocked = ?2")?
        .execute(params![player, blocked])?;
    Ok(())
}

/// Whom `player` has blocked, oldest first.
pub(super) fn blocks_of(db: &Connection, player: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt =
        db.prepare_cached("SELECT blocked FROM blocks WHERE player = ?1 ORDER BY at_ms, blocked")?;
    let rows = stmt.query_map([player], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
