//! The PostgreSQL store's moderation (see the SQLite backend's `moderation.rs`: the same
//! rows): blocks, moderators, reports, and the moderators' actions (sanctions, hidden chat
//! lines, the audit log).

use tokio_postgres::Client;

use super::reads::Readers;
use crate::store::error::StoreError;
use crate::store::records::{StoredAction, StoredReport, StoredSanction};

/// Version 9: players' blocks.
pub(super) const V9: &str = "
CREATE TABLE blocks (
  player TEXT NOT NULL, blocked TEXT NOT NULL, at_ms BIGINT NOT NULL,
  PRIMARY KEY (player, blocked));
";

/// Version 10: moderators and players' reports.
pub(super) const V10: &str = "
CREATE TABLE moderators (player TEXT PRIMARY KEY, granted_ms BIGINT NOT NULL);
CREATE TABLE reports (
  id TEXT PRIMARY KEY, at_ms BIGINT NOT NULL, reporter TEXT NOT NULL, kind TEXT NOT NULL,
  player TEXT NOT NULL, room TEXT NOT NULL, reason TEXT NOT NULL, note TEXT NOT NULL,
  context TEXT NOT NULL, status TEXT NOT NULL);
CREATE INDEX reports_open ON reports(status, at_ms);
CREATE INDEX reports_reporter ON reports(reporter, at_ms);
";

/// Version 11: the moderators' actions (the sanctions in force, the hidden chat lines, the
/// audit log), and whom each account follows (`people.rs`).
pub(super) const V11: &str = "
CREATE TABLE follows (
  player TEXT NOT NULL, followed TEXT NOT NULL, at_ms BIGINT NOT NULL,
  PRIMARY KEY (player, followed));
CREATE TABLE sanctions (
  player TEXT NOT NULL, kind TEXT NOT NULL, until_ms BIGINT, reason TEXT NOT NULL,
  moderator TEXT NOT NULL, at_ms BIGINT NOT NULL, PRIMARY KEY (player, kind));
CREATE TABLE moderation_log (
  id TEXT PRIMARY KEY, at_ms BIGINT NOT NULL, moderator TEXT NOT NULL, action TEXT NOT NULL,
  player TEXT NOT NULL, room TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL,
  until_ms BIGINT, report TEXT NOT NULL);
CREATE INDEX moderation_log_at ON moderation_log(at_ms);
CREATE INDEX reports_player ON reports(player, at_ms);
CREATE TABLE hidden_chat (
  room TEXT NOT NULL, player TEXT NOT NULL, text TEXT NOT NULL, at_ms BIGINT NOT NULL,
  PRIMARY KEY (room, player, text));
";

/// Carries out a moderator's action and writes it to the audit log (in the writer's batch
/// transaction).
pub(super) async fn moderate(db: &Client, a: &StoredAction) -> Result<(), StoreError> {
    let until = a.until_ms.map(|t| t as i64);
    let at = a.at_ms as i64;
    match a.action.as_str() {
        "mute" | "rated_ban" | "ban" | "close" => {
            db.execute(
                "INSERT INTO sanctions (player, kind, until_ms, reason, moderator, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (player, kind) DO UPDATE SET until_ms = excluded.until_ms,
                   reason = excluded.reason, moderator = excluded.moderator,
                   at_ms = excluded.at_ms",
                &[&a.player, &a.action, &until, &a.reason, &a.moderator, &at],
            )
            .await?;
        }
        "lift" => {
            db.execute(
                "DELETE FROM sanctions WHERE player = $1 AND kind = $2",
                &[&a.player, &a.detail],
            )
            .await?;
        }
        "rename" => {
            let key = crate::store::name_key(&a.detail);
            db.execute(
                "UPDATE accounts SET name = $2, name_key = $3 WHERE player = $1",
                &[&a.player, &a.detail, &key],
            )
            .await?;
            db.execute(
                "UPDATE players SET name = $2 WHERE id = $1",
                &[&a.player, &a.detail],
            )
            .await?;
        }
        "hide_chat" => {
            db.execute(
                "INSERT INTO hidden_chat (room, player, text, at_ms) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
                &[&a.room, &a.player, &a.detail, &at],
            )
            .await?;
        }
        _ => {}
    }
    if !a.report.is_empty() {
        db.execute(
            "UPDATE reports SET status = 'closed' WHERE id = $1",
            &[&a.report],
        )
        .await?;
    }
    db.execute(
        "INSERT INTO moderation_log (id, at_ms, moderator, action, player, room, reason, detail,
         until_ms, report) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            &a.id,
            &at,
            &a.moderator,
            &a.action,
            &a.player,
            &a.room,
            &a.reason,
            &a.detail,
            &until,
            &a.report,
        ],
    )
    .await?;
    Ok(())
}

pub(super) async fn grant_moderator(
    db: &Client,
    player: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO moderators (player, granted_ms) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        &[&player, &(at_ms as i64)],
    )
    .await?;
    Ok(())
}

pub(super) async fn report(db: &Client, r: &StoredReport) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO reports (id, at_ms, reporter, kind, player, room, reason, note, context,
         status) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            &r.id,
            &(r.at_ms as i64),
            &r.reporter,
            &r.kind,
            &r.player,
            &r.room,
            &r.reason,
            &r.note,
            &r.context,
            &r.status,
        ],
    )
    .await?;
    Ok(())
}

pub(super) async fn block(
    db: &Client,
    player: &str,
    blocked: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO blocks (player, blocked, at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        &[&player, &blocked, &(at_ms as i64)],
    )
    .await?;
    Ok(())
}

pub(super) async fn unblock(db: &Client, player: &str, blocked: &str) -> Result<(), StoreError> {
    db.execute(
        "DELETE FROM blocks WHERE player = $1 AND blocked = $2",
        &[&player, &blocked],
    )
    .await?;
    Ok(())
}

impl Readers {
    pub(super) async fn blocks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT blocked FROM blocks WHERE player = $1 ORDER BY at_ms, blocked",
                &[&player],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn is_moderator(&self, player: &str) -> Result<bool, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_opt("SELECT 1 FROM moderators WHERE player = $1", &[&player])
            .await?;
        Ok(row.is_some())
    }

    pub(super) async fn reports(
        &self,
        status: &str,
        limit: usize,
    ) -> Result<Vec<StoredReport>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT id, at_ms, reporter, kind, player, room, reason, note, context, status
                 FROM reports WHERE status = $1 ORDER BY at_ms DESC, id DESC LIMIT $2",
                &[&status, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredReport {
                    id: r.try_get(0)?,
                    at_ms: r.try_get::<_, i64>(1)? as u64,
                    reporter: r.try_get(2)?,
                    kind: r.try_get(3)?,
                    player: r.try_get(4)?,
                    room: r.try_get(5)?,
                    reason: r.try_get(6)?,
                    note: r.try_get(7)?,
                    context: r.try_get(8)?,
                    status: r.try_get(9)?,
                })
            })
            .collect()
    }

    pub(super) async fn reports_since(
        &self,
        reporter: &str,
        since_ms: u64,
    ) -> Result<u64, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_one(
                "SELECT count(*) FROM reports WHERE reporter = $1 AND at_ms >= $2",
                &[&reporter, &(since_ms as i64)],
            )
            .await?;
        Ok(row.try_get::<_, i64>(0)? as u64)
    }

    pub(super) async fn reporters_of(
        &self,
        player: &str,
        since_ms: u64,
    ) -> Result<u64, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_one(
                "SELECT count(DISTINCT reporter) FROM reports WHERE player = $1 AND at_ms >= $2",
                &[&player, &(since_ms as i64)],
            )
            .await?;
        Ok(row.try_get::<_, i64>(0)? as u64)
    }

    pub(super) async fn sanctions(&self, now_ms: u64) -> Result<Vec<StoredSanction>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT player, kind, until_ms, reason, moderator, at_ms FROM sanctions
                 WHERE until_ms IS NULL OR until_ms > $1 ORDER BY at_ms, player, kind",
                &[&(now_ms as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredSanction {
                    player: r.try_get(0)?,
                    kind: r.try_get(1)?,
                    until_ms: r.try_get::<_, Option<i64>>(2)?.map(|t| t as u64),
                    reason: r.try_get(3)?,
                    moderator: r.try_get(4)?,
                    at_ms: r.try_get::<_, i64>(5)? as u64,
                })
            })
            .collect()
    }

    pub(super) async fn moderation_log(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredAction>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT id, at_ms, moderator, action, player, room, reason, detail, until_ms,
                        report
                 FROM moderation_log ORDER BY at_ms DESC, id DESC LIMIT $1",
                &[&(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(StoredAction {
                    id: r.try_get(0)?,
                    at_ms: r.try_get::<_, i64>(1)? as u64,
                    moderator: r.try_get(2)?,
                    action: r.try_get(3)?,
                    player: r.try_get(4)?,
                    room: r.try_get(5)?,
                    reason: r.try_get(6)?,
                    detail: r.try_get(7)?,
                    until_ms: r.try_get::<_, Option<i64>>(8)?.map(|t| t as u64),
                    report: r.try_get(9)?,
                })
            })
            .collect()
    }
}
