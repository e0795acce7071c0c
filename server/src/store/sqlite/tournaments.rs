//! The SQLite store's tournaments: one row per tournament holding its whole JSON document, with
//! its status and creation time beside it so that the running ones and the newest can be found
//! without reading every document. The write (run by the writer thread, inside its
//! transaction) replaces the document whole; the reads run on a read connection.

use rusqlite::{params, Connection, OptionalExtension};

use crate::store::error::StoreError;
use crate::store::records::StoredTournament;

/// The table, and the indexes of its two listings (newest first; the running ones).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tournaments (
  id TEXT PRIMARY KEY, status TEXT NOT NULL, created_ms INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tournaments_created ON tournaments(created_ms);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments(status);
";

/// Stores a tournament's document, new or replacing the stored one; the creation time of a
/// stored tournament never changes.
pub(super) fn upsert(db: &Connection, t: &StoredTournament) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO tournaments (id, status, created_ms, doc) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status, doc = excluded.doc",
    )?
    .execute(params![t.id, t.status, t.created_ms as i64, t.doc])?;
    Ok(())
}

/// Stores an edit of a tournament if its stored document is still `before` (see
/// `Write::TournamentEdit`).
pub(super) fn edit(db: &Connection, before: &str, t: &StoredTournament) -> Result<(), StoreError> {
    let written = db
        .prepare_cached("UPDATE tournaments SET status = ?1, doc = ?2 WHERE id = ?3 AND doc = ?4")?
        .execute(params![t.status, t.doc, t.id, before])?;
    if written == 0 {
        return Err(StoreError::Edited(t.id.clone()));
    }
    Ok(())
}

const COLUMNS: &str = "id, status, created_ms, doc";

fn tournament(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredTournament> {
    Ok(StoredTournament {
        id: row.get(0)?,
        status: row.get(1)?,
        created_ms: row.get::<_, i64>(2)? as u64,
        doc: row.get(3)?,
    })
}

pub(super) fn read(db: &Connection, id: &str) -> Result<Option<StoredTournament>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1");
    Ok(db.query_row(&sql, [id], tournament).optional()?)
}

pub(super) fn newest(db: &Connection, limit: usize) -> Result<Vec<StoredTournament>, StoreError> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments ORDER BY created_ms DESC, id LIMIT ?1");
    let mut stmt = db.prepare(&sql)?;
    let rows = stmt.query_map([limit as i64], tournament)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn running(db: &Connection) -> Result<Vec<StoredTournament>, StoreError> {
    let sql = format!(
        "SELECT {COLUMNS} FROM tournaments WHERE status = 'running' ORDER BY created_ms, id"
    );
    let mut stmt = db.prepare(&sql)?;
    let rows = stmt.query_map([], tournament)?;
    Ok(rows.collect::<Result<_, _>>()?)
}
