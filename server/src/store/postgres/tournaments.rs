//! PostgreSQL's tournaments: one row per tournament holding its whole JSON document, as the
//! SQLite backend keeps them, row for row. The write runs inside the writer's transaction;
//! the reads use the read connections.

use tokio_postgres::{Client, Row};

use super::reads::Readers;
use crate::store::error::StoreError;
use crate::store::records::StoredTournament;

/// Version 5 of the schema: tournaments, with the indexes of their two listings (newest
/// first; the running ones, which the server's directors resume at start).
pub(super) const V5: &str = "
CREATE TABLE tournaments (
  id TEXT PRIMARY KEY, status TEXT NOT NULL, created_ms BIGINT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX tournaments_created ON tournaments(created_ms);
CREATE INDEX tournaments_running ON tournaments(id) WHERE status = 'running';
";

/// Stores a tournament's document, new or replacing the stored one; the creation time of a
/// stored tournament never changes.
pub(super) async fn upsert(db: &Client, t: &StoredTournament) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO tournaments (id, status, created_ms, doc) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, doc = EXCLUDED.doc",
        &[&t.id, &t.status, &(t.created_ms as i64), &t.doc],
    )
    .await?;
    Ok(())
}

/// Stores an edit of a tournament if its stored document is still `before` (see
/// `Write::TournamentEdit`). The row's lock, taken by the update, orders two edits at once:
/// the second finds the document changed.
pub(super) async fn edit(
    db: &Client,
    before: &str,
    t: &StoredTournament,
) -> Result<(), StoreError> {
    let written = db
        .execute(
            "UPDATE tournaments SET status = $1, doc = $2 WHERE id = $3 AND doc = $4",
            &[&t.status, &t.doc, &t.id, &before],
        )
        .await?;
    if written == 0 {
        return Err(StoreError::Edited(t.id.clone()));
    }
    Ok(())
}

const COLUMNS: &str = "id, status, created_ms, doc";

fn tournament(row: &Row) -> Result<StoredTournament, StoreError> {
    Ok(StoredTournament {
        id: row.try_get(0)?,
        status: row.try_get(1)?,
        created_ms: row.try_get::<_, i64>(2)? as u64,
        doc: row.try_get(3)?,
    })
}

impl Readers {
    pub(super) async fn read_tournament(
        &self,
        id: &str,
    ) -> Result<Option<StoredTournament>, StoreError> {
        let db = self.client().await?;
        let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
        let row = db.query_opt(sql.as_str(), &[&id]).await?;
        row.as_ref().map(tournament).transpose()
    }

    pub(super) async fn list_tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        let db = self.client().await?;
        let sql =
            format!("SELECT {COLUMNS} FROM tournaments ORDER BY created_ms DESC, id LIMIT $1");
        let rows = db.query(sql.as_str(), &[&(limit as i64)]).await?;
        rows.iter().map(tournament).collect()
    }

    pub(super) async fn running_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        let db = self.client().await?;
        let sql = format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status = 'running' ORDER BY created_ms, id"
        );
        let rows = db.query(sql.as_str(), &[]).await?;
        rows.iter().map(tournament).collect()
    }
}
