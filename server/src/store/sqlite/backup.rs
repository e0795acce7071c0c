//! A copy of a hall's SQLite file taken while its server runs: SQLite's online backup, some
//! pages at a time with short pauses between, so that the server's writes go on meanwhile (a
//! page written during the copy is copied again). The copy is a whole `kibitz.db`: put it in
//! a data directory of its own and a server opens it.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};

use crate::store::StoreError;

/// Pages copied per step, and the pause after each: the writer waits at most one step.
const PAGES_PER_STEP: std::ffi::c_int = 256;
const PAUSE: Duration = Duration::from_millis(5);

/// What a backup did.
#[derive(Clone, Debug)]
pub struct Copied {
    /// Pages of the database (of its page size, 4 KiB by default).
    pub pages: u64,
    pub bytes: u64,
    pub took: Duration,
}

/// Copies the store of `data_dir` to the new file `to`, online.
pub fn backup(data_dir: &Path, to: &Path) -> Result<Copied, StoreError> {
    let from = data_dir.join("kibitz.db");
    if !from.is_file() {
        return Err(StoreError::DataDir(
            data_dir.to_path_buf(),
            "has no kibitz.db to copy".to_string(),
        ));
    }
    if to.exists() {
        return Err(StoreError::BackupFile(
            to.to_path_buf(),
            "exists already: a backup goes to a new file".to_string(),
        ));
    }
    let started = Instant::now();
    let source = Connection::open_with_flags(
        &from,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(Duration::from_secs(5))?;
    let mut copy = Connection::open(to)?;
    let pages = {
        let backup = Backup::new(&source, &mut copy)?;
        backup.run_to_completion(PAGES_PER_STEP, PAUSE, None)?;
        u64::try_from(backup.progress().pagecount).unwrap_or(0)
    };
    let bytes = std::fs::metadata(to).map_or(0, |m| m.len());
    Ok(Copied {
        pages,
        bytes,
        took: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::Metrics;
    use crate::store::sqlite::SqliteStore;

    /// A room written through the open store is in the copy, which a store opens as its own.
    #[tokio::test]
    async fn a_running_store_is_copied_whole() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let live = dir.path().join("live");
        let store = SqliteStore::open(&live, Metrics::new()).expect("the store opens");
        let game = serde_json::to_string(&game_core::GameSpec::connect4(7, 6)).unwrap();
        Connection::open(live.join("kibitz.db"))
            .unwrap()
            .execute(
                "INSERT INTO rooms (id, game, opening, private, created_ms, status)
                 VALUES ('r1', ?1, '[]', 0, 0, 'playing')",
                [game],
            )
            .unwrap();
        let copy_dir = dir.path().join("copy");
        std::fs::create_dir(&copy_dir).unwrap();
        let to = copy_dir.join("kibitz.db");
        let copied = backup(&live, &to).expect("the backup runs beside the open store");
        assert!(copied.pages > 0 && copied.bytes > 0, "{copied:?}");
        let again = backup(&live, &to).unwrap_err().to_string();
        assert!(again.contains("exists already"), "{again}");
        drop(store);
        let restored = SqliteStore::open(&copy_dir, Metrics::new()).expect("the copy opens");
        let room = restored.read_room("r1").await.expect("the read works");
        assert_eq!(room.map(|r| r.head.id), Some("r1".to_string()));
        let none = backup(&dir.path().join("nowhere"), &dir.path().join("x.db")).unwrap_err();
        assert!(none.to_string().contains("has no kibitz.db"), "{none}");
    }
}
