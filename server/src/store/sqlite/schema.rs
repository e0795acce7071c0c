//! The SQLite file's tables, how a connection to it is opened, and the migrations that bring
//! a file from an earlier version up to date.

use std::path::Path;

use rusqlite::Connection;

use super::BUSY_TIMEOUT;
use crate::store::error::StoreError;
use crate::store::text::now_ms;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, bot INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rooms (
  id TEXT PRIMARY KEY, game TEXT NOT NULL, clock TEXT, opening TEXT NOT NULL,
  private INTEGER NOT NULL, created_ms INTEGER NOT NULL, creator TEXT,
  status TEXT NOT NULL, result TEXT, seq INTEGER NOT NULL DEFAULT 0,
  next TEXT, rematch_asks INTEGER NOT NULL DEFAULT 0, fence INTEGER NOT NULL DEFAULT 0,
  rated INTEGER NOT NULL DEFAULT 0, unrated TEXT);
CREATE INDEX IF NOT EXISTS rooms_status ON rooms(status);
CREATE TABLE IF NOT EXISTS seats (
  room TEXT NOT NULL, color TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
  bot INTEGER NOT NULL, level INTEGER, PRIMARY KEY (room, color));
CREATE INDEX IF NOT EXISTS seats_player ON seats(player);
CREATE TABLE IF NOT EXISTS moves (
  room TEXT NOT NULL, ply INTEGER NOT NULL, mv TEXT NOT NULL, by TEXT NOT NULL,
  black_ms INTEGER, white_ms INTEGER, at_ms INTEGER NOT NULL, req_id TEXT,
  seq INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, ply));
CREATE TABLE IF NOT EXISTS chat (
  id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, player TEXT NOT NULL,
  name TEXT NOT NULL, text TEXT NOT NULL, seat TEXT, bot INTEGER NOT NULL, at_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chat_room ON chat(room);
CREATE TABLE IF NOT EXISTS reviews (
  room TEXT PRIMARY KEY, review TEXT NOT NULL, made_ms INTEGER NOT NULL);
";

pub(super) fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    // WAL with synchronous=NORMAL: a committed transaction survives a crash of the process
    // (kill -9); only a power cut may lose the last commits.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Every statement the writer runs stays prepared: parsing SQL was a visible part of a
    // move's cost under load.
    conn.set_prepared_statement_cache_capacity(32);
    Ok(conn)
}

/// Whether `table` has `column` (a store written by an older version may not).
fn has_column(conn: &Connection, table: &str, column: &str) -> Result<bool, StoreError> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({table})"))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(1))?;
    for name in names {
        if name? == column {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Brings a store written by an older version up to the schema: the rematch link and asks of
/// a room, when each player was last seen (now, for players stored before it was kept), and
/// each room's fencing token (0, never claimed).
pub(super) fn migrate(conn: &Connection) -> Result<(), StoreError> {
    if !has_column(conn, "rooms", "next")? {
        conn.execute_batch("ALTER TABLE rooms ADD COLUMN next TEXT;")?;
    }
    if !has_column(conn, "rooms", "rematch_asks")? {
        conn.execute_batch(
            "ALTER TABLE rooms ADD COLUMN rematch_asks INTEGER NOT NULL DEFAULT 0;",
        )?;
    }
    if !has_column(conn, "players", "last_seen_ms")? {
        conn.execute_batch(
            "ALTER TABLE players ADD COLUMN last_seen_ms INTEGER NOT NULL DEFAULT 0;",
        )?;
        conn.execute("UPDATE players SET last_seen_ms = ?1", [now_ms()])?;
    }
    if !has_column(conn, "rooms", "fence")? {
        conn.execute_batch("ALTER TABLE rooms ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;")?;
    }
    if !has_column(conn, "rooms", "rated")? {
        conn.execute_batch(
            "ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE rooms ADD COLUMN unrated TEXT;",
        )?;
    }
    Ok(())
}
