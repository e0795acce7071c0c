//! The WAL's checkpoints, on a thread and a connection of their own, so that moves no longer
//! wait for them but for two short moments (below). A checkpoint copies the WAL into the
//! database file and syncs both to disk; run by the writer (SQLite's auto-checkpoint, every
//! 1,000 pages), those syncs stalled every move queued behind them, which was most of a loaded
//! server's tail latency (docs/benchmarks.md).
//!
//! The writer's connection only counts its commits and wakes this thread each time the WAL has
//! grown by `grown_pages`; the thread then checkpoints passively, beside the writer, never
//! blocking it. A passive checkpoint alone cannot let a busy WAL start over: SQLite reuses the
//! WAL from its start only when a transaction begins with all of it copied, and a busy writer
//! always has a few commits more. So once the WAL holds `restart_pages`, the thread closes a
//! gate the writer passes between its batches and copies those last few commits while the
//! writer waits (a short pause: the long copy was done before), and the writer's next batch
//! starts the WAL over (its first commit then syncs the WAL's new header). When the store has
//! been idle for a moment the WAL is truncated, behind the same gate.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, MutexGuard};
use rusqlite::wal::CheckpointMode;
use rusqlite::Connection;

use super::BUSY_TIMEOUT;
use crate::metrics::Metrics;
use crate::store::error::StoreError;

/// How long the last truncation, when the store closes, waits for readers.
const CLOSING_WAIT: Duration = Duration::from_millis(500);

/// Passive checkpoints run before the gate closes, while each still finds this many new
/// pages or more (the writer keeps adding while one runs).
const TAIL_PAGES: i32 = 64;

/// At most this many passive checkpoints before the gate closes.
const CATCH_UP_TRIES: usize = 4;

/// When checkpoints run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// WAL pages written after which a passive checkpoint runs (SQLite's auto-checkpoint
    /// default).
    pub grown_pages: i32,
    /// WAL pages after which the WAL is made to start over (8,000 pages: about 32 MiB).
    pub restart_pages: i32,
    /// The WAL is truncated once the store has had no commit for this long (to twice as long).
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            grown_pages: 1000,
            restart_pages: 8000,
            idle: Duration::from_secs(1),
        }
    }
}

/// Hooks `writer` (the connection that commits) to a new checkpoint thread on `checkpointer`
/// (a second connection to the same file), and gives the writer the gate it must hold while
/// it commits. The thread ends, truncating the WAL a last time, when the writer's connection
/// is dropped.
pub(super) fn start(
    writer: &mut Connection,
    checkpointer: Connection,
    wal: PathBuf,
    metrics: Metrics,
    limits: Limits,
) -> Result<Gate, StoreError> {
    let (grown, wake) = mpsc::sync_channel::<()>(1);
    let commits = Arc::new(AtomicU64::new(0));
    let counted = commits.clone();
    let hook_metrics = metrics.clone();
    // The WAL's pages at the last wake-up.
    let mut woken_at = 0;
    // The checkpoint thread was found gone (and that was logged).
    let mut thread_gone = false;
    // Replaces SQLite's auto-checkpoint on this connection (both are a WAL hook).
    writer.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages: i32| {
        counted.fetch_add(1, Ordering::Relaxed);
        if pages < woken_at {
            // The WAL was started over.
            woken_at = 0;
            hook_metrics.store_wal_restarted();
        }
        if pages - woken_at >= limits.grown_pages {
            woken_at = pages;
            match grown.try_send(()) {
                // Full: a wake-up is already pending, and one checkpoint serves both.
                Ok(()) | Err(mpsc::TrySendError::Full(())) => {}
                Err(mpsc::TrySendError::Disconnected(())) => {
                    if !thread_gone {
                        thread_gone = true;
                        tracing::error!("the store's checkpoint thread has stopped");
                    }
                }
            }
        }
        Ok(())
    }))?;
    let gate = Gate(Arc::new(Mutex::new(())));
    let thread = Checkpointer {
        conn: checkpointer,
        wal,
        metrics,
        restart_pages: limits.restart_pages,
        idle: limits.idle,
        gate: gate.clone(),
        failing: false,
    };
    std::thread::Builder::new()
        .name("kibitz-checkpoint".to_string())
        .spawn(move || thread.run(wake, commits))
        .map_err(|e| StoreError::Write(format!("the checkpoint thread: {e}")))?;
    Ok(gate)
}

/// Held by the writer while it commits a batch, and by the checkpoint thread while it copies
/// the WAL's last pages so that the WAL can start over, or truncates an idle WAL.
#[derive(Clone)]
pub(super) struct Gate(Arc<Mutex<()>>);

impl Gate {
    pub(super) fn pass(&self) -> MutexGuard<'_, ()> {
        self.0.lock()
    }

    /// Lets the gate go to the checkpoint thread if it waits: the writer, busy, would
    /// otherwise take it again before the thread wakes, batch after batch.
    pub(super) fn leave(passing: MutexGuard<'_, ()>) {
        MutexGuard::unlock_fair(passing);
    }
}

struct Checkpointer {
    conn: Connection,
    wal: PathBuf,
    metrics: Metrics,
    restart_pages: i32,
    idle: Duration,
    gate: Gate,
    /// A failed checkpoint was logged; the next failure is logged only after a success.
    failing: bool,
}

impl Checkpointer {
    fn run(mut self, wake: mpsc::Receiver<()>, commits: Arc<AtomicU64>) {
        // Commits counted when the WAL was last emptied, and when this thread last looked.
        let mut emptied_at = u64::MAX;
        let mut seen = 0;
        loop {
            match wake.recv_timeout(self.idle) {
                Ok(()) => self.copy(),
                Err(RecvTimeoutError::Timeout) => {
                    let now = commits.load(Ordering::Relaxed);
                    if now == seen && now != emptied_at && self.truncate() {
                        emptied_at = now;
                    }
                    seen = now;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        self.checkpoint(CheckpointMode::TRUNCATE, CLOSING_WAIT);
    }

    /// Copies what the WAL holds into the database, beside the writer; once the WAL is long,
    /// copies its last pages with the writer held at the gate, so that it starts over.
    fn copy(&mut self) {
        let mut before = 0;
        for _ in 0..CATCH_UP_TRIES {
            let Some(pages) = self.checkpoint(CheckpointMode::PASSIVE, Duration::ZERO) else {
                return;
            };
            if pages < self.restart_pages {
                return;
            }
            if pages - before < TAIL_PAGES {
                break;
            }
            before = pages;
        }
        let gate = self.gate.clone();
        let _held = gate.pass();
        self.checkpoint(CheckpointMode::PASSIVE, Duration::ZERO);
    }

    /// Empties an idle WAL. A truncation holds SQLite's write lock while it syncs and copies,
    /// so it runs behind the gate: a batch arriving meanwhile waits for it at the gate rather
    /// than meeting the lock inside its transaction. True when the WAL is empty.
    fn truncate(&mut self) -> bool {
        let gate = self.gate.clone();
        let _held = gate.pass();
        self.checkpoint(CheckpointMode::TRUNCATE, Duration::ZERO) == Some(0)
    }

    /// Runs one checkpoint, waiting at most `wait` for the locks it needs; the WAL's pages
    /// when it ran, if it could run.
    fn checkpoint(&mut self, mode: CheckpointMode, wait: Duration) -> Option<i32> {
        let _ = self.conn.busy_timeout(wait);
        let pages = match self.conn.wal_checkpoint_v2(None::<&str>, mode) {
            Ok((log, _copied)) => {
                self.failing = false;
                Some(log)
            }
            // Busy: a reader or the writer was in the way; a later checkpoint tries again.
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => None,
            Err(e) => {
                if !self.failing {
                    self.failing = true;
                    tracing::warn!(error = %e, "store checkpoint failed; trying again later");
                }
                None
            }
        };
        let _ = self.conn.busy_timeout(BUSY_TIMEOUT);
        self.metrics.store_wal_bytes(self.wal_bytes());
        pages
    }

    fn wal_bytes(&self) -> u64 {
        std::fs::metadata(&self.wal).map_or(0, |m| m.len())
    }
}

#[cfg(test)]
mod tests {
    use super::Limits;
    use crate::metrics::Metrics;
    use crate::store::sqlite::SqliteStore;
    use crate::store::{RoomChange, StoredMove, StoredPlayer, StoredRoom, StoredRoomHead, Write};
    use game_core::protocol::RoomStatus;
    use game_core::{Color, GameSpec, GomokuRule};

    fn restarts(metrics: &Metrics) -> u64 {
        let text = metrics.render();
        let line = text
            .lines()
            .find(|l| l.starts_with("kibitz_store_wal_restarts_total "))
            .expect("the restarts counter");
        line.rsplit(' ').next().unwrap().parse().unwrap()
    }

    /// Commits one after another, the next queued as soon as the last is answered: the
    /// checkpoints must make the WAL start over three times within a few hundred commits
    /// (about 220 here, up to about 1,000 with twelve copies of the tests running at once).
    /// Without the gate it starts over only when a passive checkpoint happens to catch up:
    /// 18,000 to 33,000 commits for three restarts, the WAL growing by a page or more with
    /// each. No idle truncation may count as a restart here.
    #[tokio::test]
    async fn a_busy_writer_s_wal_starts_over() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let limits = Limits {
            grown_pages: 50,
            restart_pages: 200,
            idle: std::time::Duration::from_secs(3600),
        };
        let metrics = Metrics::new();
        let store =
            SqliteStore::open_with(dir.path(), metrics.clone(), limits).expect("the store opens");
        let mut written = 0;
        while restarts(&metrics) < 3 {
            assert!(
                written < 6_000,
                "three restarts take over {written} commits"
            );
            let player = StoredPlayer {
                id: format!("p{written}"),
                name: format!("Player {written}"),
                token_hash: format!("hash-{written}"),
                bot: false,
            };
            store.write(Write::Player(player)).await.expect("the write");
            written += 1;
        }
        assert_eq!(store.load_players().await.expect("the read").len(), written);
    }

    /// Moves with short pauses between them, each pause long enough for the checkpoint
    /// thread to find the store idle (here after 2–4 ms) and truncate the WAL: no write may
    /// meet the truncation's lock and fail (a move's transaction reads the room's row before
    /// it writes, and SQLite cannot wait for a lock in the middle of such a transaction).
    #[tokio::test]
    async fn moves_beside_idle_truncations_all_succeed() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let limits = Limits {
            idle: std::time::Duration::from_millis(2),
            ..Limits::default()
        };
        let store =
            SqliteStore::open_with(dir.path(), Metrics::new(), limits).expect("the store opens");
        let room = StoredRoom {
            rating: None,
            head: StoredRoomHead {
                rated: false,
                id: "r1".into(),
                game: GameSpec::gomoku(26, GomokuRule::Freestyle),
                clock: None,
                opening: Vec::new(),
                private: false,
                created_ms: 0,
                creator: None,
            },
            status: RoomStatus::Playing,
            result: None,
            seq: 0,
            black: None,
            white: None,
            moves: Vec::new(),
            fence: 0,
        };
        store
            .write(Write::NewRoom(Box::new(room)))
            .await
            .expect("the room");
        let wal = dir.path().join("kibitz.db-wal");
        let mut truncated = 0;
        for ply in 0..600 {
            let seq = ply as u64 + 1;
            let mut change = RoomChange::new("r1", seq);
            change.moves.push(StoredMove {
                ply,
                mv: format!("m{ply}"),
                by: if ply % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                black_ms: None,
                white_ms: None,
                at_ms: seq,
                req_id: None,
                seq,
            });
            store
                .write(Write::Room(change))
                .await
                .expect("every move is stored");
            tokio::time::sleep(std::time::Duration::from_millis(seq % 7)).await;
            if seq.is_multiple_of(100) {
                // A truncation syncs the disk twice: on a busy machine it may outlast the
                // short pauses, so now and then wait for one to finish.
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
                while std::fs::metadata(&wal).map_or(0, |m| m.len()) > 0
                    && std::time::Instant::now() < deadline
                {
                    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                }
                if std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0 {
                    truncated += 1;
                }
            }
        }
        assert!(truncated > 0, "the WAL was never found truncated");
        let stored = store
            .read_room("r1")
            .await
            .expect("the read")
            .expect("the room");
        assert_eq!(stored.moves.len(), 600);
    }
}
