//! What can go wrong with the store, whatever its backend.

use std::path::PathBuf;

use thiserror::Error;

/// Why the store could not open, read or write.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("data directory {0}: {1}")]
    DataDir(PathBuf, String),
    /// A backup's file.
    #[error("backup file {0}: {1}")]
    BackupFile(PathBuf, String),
    /// `kibitz store copy` refused or found its copy unlike its source.
    #[error("store copy: {0}")]
    Copy(String),
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("postgres: {}", postgres_message(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// A store URL that names no PostgreSQL database.
    #[error("store URL: {0}")]
    Url(String),
    /// The PostgreSQL server (named without its password) could not be reached.
    #[error("cannot reach PostgreSQL at {0}: {1}")]
    Unreachable(String, String),
    /// A database this build cannot use (written by a newer version).
    #[error("schema: {0}")]
    Schema(String),
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("no stored room {0:?}")]
    NoSuchRoom(String),
    /// A write made under a fencing token other than the room's (a change), or under an
    /// older one (a claim): the room has another owner.
    #[error("room {room:?} is owned under another fencing token (stored {stored}, given {fence})")]
    Fenced {
        room: String,
        stored: u64,
        fence: u64,
    },
    /// A write failed; the backend's own message.
    #[error("write failed: {0}")]
    Write(String),
    #[error("the store has shut down")]
    Closed,
    /// An account under this name (compared case-insensitively) exists.
    #[error("the name {0} is taken")]
    NameTaken(String),
    /// The player already has an account.
    #[error("this player already has an account")]
    HasAccount,
    /// A tournament's edit was made from a document that another edit has changed since.
    #[error("tournament {0} was changed meanwhile")]
    Edited(String),
}

/// The server's own message when it sent one (the driver's display says only "db error"),
/// else the driver's with its cause.
pub(super) fn postgres_message(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return match db.detail() {
            Some(detail) => format!("{}: {} ({detail})", db.severity(), db.message()),
            None => format!("{}: {}", db.severity(), db.message()),
        };
    }
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}
