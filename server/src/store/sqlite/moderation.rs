//! The SQLite store's moderation: whom each account has blocked, the moderators, the
//! players' reports, and the moderators' actions (the sanctions in force, the hidden chat
//! lines, the audit log).

use rusqlite::{params, Connection};

use crate::store::error::StoreError;
use crate::store::records::{StoredAction, StoredReport, StoredSanction};

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
CREATE INDEX IF NOT EXISTS reports_player ON reports(player, at_ms);
CREATE TABLE IF NOT EXISTS sanctions (
  player TEXT NOT NULL, kind TEXT NOT NULL, until_ms INTEGER, reason TEXT NOT NULL,
  moderator TEXT NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (player, kind));
CREATE TABLE IF NOT EXISTS moderation_log (
  id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL, moderator TEXT NOT NULL, action TEXT NOT NULL,
  player TEXT NOT NULL, room TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL,
  until_ms INTEGER, report TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS moderation_log_at ON moderation_log(at_ms);
CREATE TABLE IF NOT EXISTS hidden_chat (
  room TEXT NOT NULL, player TEXT NOT NULL, text TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (room, player, text));
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
         FROM reports WHERE status = ?1 ORDER BY at_ms DESC, id DESC LIMIT ?2",
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

/// Distinct players who reported `player` since `since_ms`.
pub(super) fn reporters_of(
    db: &Connection,
    player: &str,
    since_ms: u64,
) -> Result<u64, StoreError> {
    let n: i64 = db
        .prepare_cached(
            "SELECT count(DISTINCT reporter) FROM reports WHERE player = ?1 AND at_ms >= ?2",
        )?
        .query_row(params![player, since_ms as i64], |r| r.get(0))?;
    Ok(n as u64)
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

/// Carries out a moderator's action and writes it to the audit log (one transaction: the
/// writer's).
pub(super) fn moderate(db: &Connection, a: &StoredAction) -> Result<(), StoreError> {
    match a.action.as_str() {
        "mute" | "rated_ban" | "ban" | "close" => {
            db.prepare_cached(
                "INSERT INTO sanctions (player, kind, until_ms, reason, moderator, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (player, kind) DO UPDATE SET until_ms = excluded.until_ms,
                   reason = excluded.reason, moderator = excluded.moderator,
                   at_ms = excluded.at_ms",
            )?
            .execute(params![
                a.player,
                a.action,
                a.until_ms.map(|t| t as i64),
                a.reason,
                a.moderator,
                a.at_ms as i64
            ])?;
        }
        "lift" => {
            db.prepare_cached("DELETE FROM sanctions WHERE player = ?1 AND kind = ?2")?
                .execute(params![a.player, a.detail])?;
        }
        "rename" => {
            let key = crate::store::name_key(&a.detail);
            db.prepare_cached("UPDATE accounts SET name = ?2, name_key = ?3 WHERE player = ?1")?
                .execute(params![a.player, a.detail, key])?;
            db.prepare_cached("UPDATE players SET name = ?2 WHERE id = ?1")?
                .execute(params![a.player, a.detail])?;
        }
        "hide_chat" => {
            db.prepare_cached(
                "INSERT INTO hidden_chat (room, player, text, at_ms) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![a.room, a.player, a.detail, a.at_ms as i64])?;
        }
        _ => {}
    }
    if !a.report.is_empty() {
        db.prepare_cached("UPDATE reports SET status = 'closed' WHERE id = ?1")?
            .execute([&a.report])?;
    }
    db.prepare_cached(
        "INSERT INTO moderation_log (id, at_ms, moderator, action, player, room, reason, detail,
         until_ms, report) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        a.id,
        a.at_ms as i64,
        a.moderator,
        a.action,
        a.player,
        a.room,
        a.reason,
        a.detail,
        a.until_ms.map(|t| t as i64),
        a.report
    ])?;
    Ok(())
}

/// The sanctions in force at `now_ms`.
pub(super) fn sanctions(db: &Connection, now_ms: u64) -> Result<Vec<StoredSanction>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT player, kind, until_ms, reason, moderator, at_ms FROM sanctions
         WHERE until_ms IS NULL OR until_ms > ?1 ORDER BY at_ms, player, kind",
    )?;
    let rows = stmt.query_map([now_ms as i64], |r| {
        Ok(StoredSanction {
            player: r.get(0)?,
            kind: r.get(1)?,
            until_ms: r.get::<_, Option<i64>>(2)?.map(|t| t as u64),
            reason: r.get(3)?,
            moderator: r.get(4)?,
            at_ms: r.get::<_, i64>(5)? as u64,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The audit log, newest first, at most `limit` entries.
pub(super) fn moderation_log(
    db: &Connection,
    limit: usize,
) -> Result<Vec<StoredAction>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT id, at_ms, moderator, action, player, room, reason, detail, until_ms, report
         FROM moderation_log ORDER BY at_ms DESC, id DESC LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        Ok(StoredAction {
            id: r.get(0)?,
            at_ms: r.get::<_, i64>(1)? as u64,
            moderator: r.get(2)?,
            action: r.get(3)?,
            player: r.get(4)?,
            room: r.get(5)?,
            reason: r.get(6)?,
            detail: r.get(7)?,
            until_ms: r.get::<_, Option<i64>>(8)?.map(|t| t as u64),
            report: r.get(9)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}
