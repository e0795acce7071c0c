//! What can go wrong with the store, whatever its backend.

use std::path::PathBuf;

use thiserror::Error;

/// Why the store could not open, read or write.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("data directory {0}: {1}")]
    DataDir(PathBuf, String),
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("no stored room {0:?}")]
    NoSuchRoom(String),
    /// A write failed; the backend's own message.
    #[error("write failed: {0}")]
    Write(String),
    #[error("the store has shut down")]
    Closed,
}
