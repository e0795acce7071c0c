//! The PostgreSQL schema and its migrations: `schema_version` holds the version a database
//! is at, and opening the store brings it up to this build's, one migration at a time, under
//! a lock so that servers opening one database together migrate it once.

use tokio_postgres::Client;

use crate::store::error::StoreError;

/// Version 1: the tables of the SQLite store, column for column, in PostgreSQL's types, with
/// the same primary and unique keys (moves keyed by room and ply).
const V1: &str = "
CREATE TABLE players (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, bot BOOLEAN NOT NULL,
  last_seen_ms BIGINT NOT NULL DEFAULT 0);
CREATE TABLE rooms (
  id TEXT PRIMARY KEY, game TEXT NOT NULL, clock TEXT, opening TEXT NOT NULL,
  private BOOLEAN NOT NULL, created_ms BIGINT NOT NULL, creator TEXT,
  status TEXT NOT NULL, result TEXT, seq BIGINT NOT NULL DEFAULT 0,
  next TEXT, rematch_asks BIGINT NOT NULL DEFAULT 0);
CREATE INDEX rooms_unfinished ON rooms(id) WHERE status <> 'over';
CREATE TABLE seats (
  room TEXT NOT NULL, color TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
  bot BOOLEAN NOT NULL, level SMALLINT, PRIMARY KEY (room, color));
CREATE INDEX seats_player ON seats(player);
CREATE TABLE moves (
  room TEXT NOT NULL, ply BIGINT NOT NULL, mv TEXT NOT NULL, by TEXT NOT NULL,
  black_ms BIGINT, white_ms BIGINT, at_ms BIGINT NOT NULL, req_id TEXT,
  seq BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (room, ply));
CREATE TABLE chat (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, room TEXT NOT NULL, player TEXT NOT NULL,
  name TEXT NOT NULL, text TEXT NOT NULL, seat TEXT, bot BOOLEAN NOT NULL,
  at_ms BIGINT NOT NULL);
CREATE INDEX chat_room ON chat(room, id);
CREATE TABLE reviews (
  room TEXT PRIMARY KEY, review TEXT NOT NULL, made_ms BIGINT NOT NULL);
";

/// Version 2: a marker per batch the writer commits (a random id, written in the batch's
/// transaction), by which it learns whether a commit whose answer was lost was made; markers
/// older than an hour are removed.
const V2: &str = "
CREATE TABLE commits (id TEXT PRIMARY KEY, made TIMESTAMPTZ NOT NULL DEFAULT now());
CREATE INDEX commits_made ON commits(made);
";

/// Version 3: each room's fencing token (0, never claimed: what every room of a single
/// server keeps). Players are found by their token's hash through its unique key's index.
const V3: &str = "
ALTER TABLE rooms ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
";

/// Every migration in order: the one at index `i` brings a database from version `i` to
/// `i + 1`.
const MIGRATIONS: [&str; 11] = [
    V1,
    V2,
    V3,
    super::accounts::V4,
    super::tournaments::V5,
    super::explorer::V6,
    super::puzzles::V7,
    super::puzzles::V8,
    super::moderation::V9,
    super::moderation::V10,
    super::moderation::V11,
];

/// The advisory lock the migration holds (any number, the same in every build).
const MIGRATION_LOCK: i64 = 0x6b69_6269_747a;

/// Brings the database up to this build's schema; refuses one written by a newer build.
pub(super) async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        .await?;
    let found: i32 = tx
        .query_one("SELECT max(version) FROM schema_version", &[])
        .await?
        .try_get::<_, Option<i32>>(0)?
        .unwrap_or(0);
    let known = MIGRATIONS.len() as i32;
    if found > known {
        return Err(StoreError::Schema(format!(
            "the database is at schema version {found}, this build knows up to {known}: \
             it was written by a newer Kibitz"
        )));
    }
    let from = usize::try_from(found).unwrap_or(0);
    for migration in &MIGRATIONS[from..] {
        tx.batch_execute(migration).await?;
    }
    if found < known {
        tx.execute("DELETE FROM schema_version", &[]).await?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[&known],
        )
        .await?;
        tracing::info!(from = found, to = known, "PostgreSQL schema migrated");
    }
    tx.commit().await?;
    Ok(())
}
