//! The PostgreSQL store's moderation by players (see the SQLite backend's `moderation.rs`:
//! the same rows).

use tokio_postgres::Client;

use super::reads::Readers;
use crate::store::error::StoreError;

/// Version 9: players' blocks.
pub(super) const V9: &str = "
CREATE TABLE blocks (
  player TEXT NOT NULL, blocked TEXT NOT NULL, at_ms BIGINT NOT NULL,
  PRIMARY KEY (player, blocked));
";

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
}
