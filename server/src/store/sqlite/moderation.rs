//! The SQLite store's moderation: whom each account has blocked, the moderators, and the
//! players' reports.

use rusqlite::{params, Connection};

use crate::store::error::StoreError;
use crate::store::records::StoredReport;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS blocks (
  player TEXT NOT NULL, blocked TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (player, blocked));
CREATE TABLE IF NOT EXISTS moderators (player TEXT PRIMARY KEY, granted_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS reports (
  id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, reporter TEXT NOT NULL, kind TEXT NOT NULL,
  player TEXT NOT NULL, room TEXT NOT NULL, reason TEXT NOT NULL, note TEXT NOT NULL,
  context TEXT NOT NULL, status TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS reports_open ON reports(status, at_ms);
CREATE INDEX IF NOT EXISTS reports_reporter ON reports(reporter, at_ms);
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

pub(super) fn grant_moderator(db: &Connection, player: &str, at_ms: u64) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO moderators (player, granted_ms) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
    )?
    .execute(params![player, at_ms as i64])?;
    Ok(())
}

pub(super) fn is_moderator(db: &Connection, player: &str) -> Result<bool, StoreError> {
    let found = db
        .prepare_cached("SELECT 1 FROM moderators WHERE player = ?1")?
        .exists([player])?;
    Ok(found)
}

pub(super) fn report(db: &Connection, r: &StoredReport) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO reports (id, at_ms, reporter, kind, player, room, reason, note, context,
         status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        r.id,
        r.at_ms as i64,
        r.reporter,
        r.kind,
        r.player,
        r.room,
        r.reason,
        r.note,
        r.context,
        r.status
    ])?;
    Ok(())
}

/// Reports of `status`, newest first, at most `limit`.
pub(super) fn reports(
    db: &Connection,
    status: &str,
    limit: usize,
) -> Result<Vec<StoredReport>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT id, at_ms, reporter, kind, player, room, reason, note, context, status
         FROM reports WHERE status = ?1 ORDER BY at_ms DESC, id LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![status, limit as i64], |r| {
        Ok(StoredReport {
            id: r.get(0)?,
            at_ms: r.get::<_, i64>(1)? as u64,
            reporter: r.get(2)?,
            kind: r.get(3)?,
            player: r.get(4)?,
            room: r.get(5)?,
            reason: r.get(6)?,
            note: r.get(7)?,
            context: r.get(8)?,
            status: r.get(9)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Reports `reporter` made since `since_ms`.
pub(super) fn reports_since(
    db: &Connection,
    reporter: &str,
    since_ms: u64,
) -> Result<u64, StoreError> {
    let n: i64 = db
        .prepare_cached("SELECT count(*) FROM reports WHERE reporter = ?1 AND at_ms >= ?2")?
        .query_row(params![reporter, since_ms as i64], |r| r.get(0))?;
    Ok(n as u64)
}
