//! The PostgreSQL store's moderation (see the SQLite backend's `moderation.rs`: the same
//! rows): blocks, moderators, reports.

use tokio_postgres::Client;

use super::reads::Readers;
use crate::store::error::StoreError;
use crate::store::records::StoredReport;

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
                 FROM reports WHERE status = $1 ORDER BY at_ms DESC, id LIMIT $2",
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
}
