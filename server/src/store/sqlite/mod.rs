//! The SQLite backend: one file (WAL) in the data directory, written by one thread that
//! commits queued writes together (group commit) and answers each writer only after its write
//! is committed. Each write runs in its own savepoint, so it is all or nothing while the
//! others of its batch still commit; a failure that ends the whole transaction (a full disk)
//! fails the whole batch, so that no write is answered as failed while it was in fact stored.
//! Reads open their own connection on a blocking thread; WAL lets them run beside the writer.
//! The WAL is kept small by checkpoints on a thread of their own (`checkpoint`), so that the
//! writer does not wait for the disk syncs they make (but for a short pause each time a busy
//! WAL starts over).

mod accounts;
pub mod backup;
mod checkpoint;
mod explorer;
mod moderation;
mod people;
mod puzzles;
mod reads;
mod schema;
mod tournaments;
mod writer;

use reads::{player, read_room};
use schema::{migrate, open_connection, SCHEMA};

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension};
use tokio::sync::mpsc;

use crate::metrics::Metrics;
use crate::store::error::StoreError;
use crate::store::job::{self, Job};
use crate::store::records::{
    LeaderRow, PlayerPage, StoredAccount, StoredChat, StoredPlayer, StoredRematch, StoredRoom,
    StoredTournament, Write,
};
use crate::store::text::{asks_from_bits, parse_color};

/// Writes queued before their senders wait.
const WRITE_QUEUE: usize = 4096;

/// How long a connection waits for a lock another holds.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What SQLite keeps of the WAL file after a checkpoint resets it (`journal_size_limit`).
/// Above the size at which the checkpoints start it over (`checkpoint::Limits`), so that a
/// busy WAL is reused in place rather than cut and grown again on the writer's path.
const WAL_KEEP_BYTES: i64 = 64 * 1024 * 1024;

/// Cheap-clone handle to the writer thread and the file.
#[derive(Clone)]
pub struct SqliteStore {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
}

fn check_writable(dir: &Path) -> Result<(), StoreError> {
    let probe = dir.join(".kibitz-write-check");
    std::fs::write(&probe, b"ok")
        .map_err(|e| StoreError::DataDir(dir.to_path_buf(), format!("not writable: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// Opens the file at `path` with every table of this build made or migrated (the store's own
/// open, and `kibitz store copy`'s).
pub(in crate::store) fn open_with_schema(path: &Path) -> Result<Connection, StoreError> {
    let conn = open_connection(path)?;
    conn.execute_batch(SCHEMA)?;
    migrate(&conn)?;
    conn.execute_batch(accounts::SCHEMA)?;
    conn.execute_batch(tournaments::SCHEMA)?;
    conn.execute_batch(explorer::SCHEMA)?;
    conn.execute_batch(puzzles::SCHEMA)?;
    conn.execute_batch(moderation::SCHEMA)?;
    conn.execute_batch(people::SCHEMA)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (creating if needed) `kibitz.db` in `dir` and starts the writer thread. The
    /// directory is created if its parent exists; a missing parent or an unwritable directory
    /// is a clear error.
    pub fn open(dir: &Path, metrics: Metrics) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(dir, metrics, checkpoint::Limits::default())
    }

    /// `open`, with checkpoints at other limits than the defaults.
    fn open_with(
        dir: &Path,
        metrics: Metrics,
        checkpoints: checkpoint::Limits,
    ) -> Result<SqliteStore, StoreError> {
        if !dir.exists() {
            std::fs::create_dir(dir).map_err(|e| {
                StoreError::DataDir(dir.to_path_buf(), format!("cannot create: {e}"))
            })?;
        }
        if !dir.is_dir() {
            return Err(StoreError::DataDir(
                dir.to_path_buf(),
                "not a directory".to_string(),
            ));
        }
        check_writable(dir)?;
        let path = dir.join("kibitz.db");
        let mut conn = open_with_schema(&path)?;
        conn.pragma_update(None, "journal_size_limit", WAL_KEEP_BYTES)?;
        let checkpointer = open_connection(&path)?;
        checkpointer.pragma_update(None, "journal_size_limit", WAL_KEEP_BYTES)?;
        let wal = dir.join("kibitz.db-wal");
        let gate = checkpoint::start(
            &mut conn,
            checkpointer,
            wal.clone(),
            metrics.clone(),
            checkpoints,
        )?;
        let (tx, rx) = mpsc::channel(WRITE_QUEUE);
        std::thread::Builder::new()
            .name("kibitz-store".to_string())
            .spawn(move || writer::run(conn, gate, wal, rx, metrics))
            .map_err(|e| StoreError::DataDir(dir.to_path_buf(), e.to_string()))?;
        Ok(SqliteStore { path, jobs: tx })
    }

    /// Writes durably: returns once the write is committed.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        job::submit(&self.jobs, write).await
    }

    /// Runs `read` on a fresh read connection on a blocking thread.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || read(&open_connection(&path)?))
            .await
            .map_err(|_| StoreError::Closed)?
    }

    pub async fn load_players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare("SELECT id, name, token_hash, bot FROM players")?;
            let rows = stmt.query_map([], player)?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    pub async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<StoredPlayer>, StoreError> {
        let token_hash = token_hash.to_string();
        self.read(move |conn| {
            Ok(conn
                .query_row(
                    "SELECT id, name, token_hash, bot FROM players WHERE token_hash = ?1
                     UNION ALL
                     SELECT p.id, p.name, t.token_hash, p.bot FROM tokens t
                       JOIN players p ON p.id = t.player WHERE t.token_hash = ?1
                     LIMIT 1",
                    [&token_hash],
                    player,
                )
                .optional()?)
        })
        .await
    }

    pub async fn load_unfinished(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.read(|conn| {
            let ids: Vec<String> = {
                let mut stmt = conn.prepare("SELECT id FROM rooms WHERE status != 'over'")?;
                let rows = stmt.query_map([], |r| r.get(0))?;
                rows.collect::<Result<_, _>>()?
            };
            let mut rooms = Vec::new();
            for id in ids {
                if let Some(room) = read_room(conn, &id)? {
                    rooms.push(room);
                }
            }
            Ok(rooms)
        })
        .await
    }

    pub async fn unfinished_of(&self, player: &str) -> Result<Vec<StoredRoom>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| {
            let ids: Vec<String> = {
                let mut stmt = conn.prepare(
                    "SELECT r.id FROM rooms r JOIN seats s ON s.room = r.id
                     WHERE s.player = ?1 AND r.status != 'over' ORDER BY r.id",
                )?;
                let rows = stmt.query_map([&player], |r| r.get(0))?;
                rows.collect::<Result<_, _>>()?
            };
            let mut rooms = Vec::new();
            for id in ids {
                if let Some(room) = read_room(conn, &id)? {
                    rooms.push(room);
                }
            }
            Ok(rooms)
        })
        .await
    }

    pub async fn read_rematch(&self, id: &str) -> Result<Option<StoredRematch>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            let row: Option<(Option<String>, i64)> = conn
                .query_row(
                    "SELECT next, rematch_asks FROM rooms WHERE id = ?1",
                    [&id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            Ok(row.map(|(next, asks)| StoredRematch {
                next,
                asked: asks_from_bits(asks),
            }))
        })
        .await
    }

    pub async fn stored_players(&self, ids: Vec<String>) -> Result<Vec<String>, StoreError> {
        self.read(move |conn| {
            let mut stmt = conn.prepare("SELECT id FROM players WHERE id = ?1")?;
            let mut kept = Vec::new();
            for id in ids {
                if stmt.exists([&id])? {
                    kept.push(id);
                }
            }
            Ok(kept)
        })
        .await
    }

    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare("SELECT id FROM rooms WHERE status <> 'over'")?;
            let ids = stmt.query_map([], |row| row.get(0))?;
            Ok(ids.collect::<Result<Vec<String>, _>>()?)
        })
        .await
    }

    pub async fn read_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| read_room(conn, &id)).await
    }

    pub async fn read_review(
        &self,
        id: &str,
    ) -> Result<Option<game_core::protocol::Review>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            let text: Option<String> = conn
                .query_row("SELECT review FROM reviews WHERE room = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?;
            Ok(text.map(|t| serde_json::from_str(&t)).transpose()?)
        })
        .await
    }

    pub async fn account_by_name(&self, name: &str) -> Result<Option<StoredAccount>, StoreError> {
        let name = name.to_string();
        self.read(move |conn| accounts::account_by_name(conn, &name))
            .await
    }

    pub async fn account_of(&self, player: &str) -> Result<Option<StoredAccount>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| accounts::account_of(conn, &player))
            .await
    }

    pub async fn load_accounts(&self) -> Result<Vec<StoredAccount>, StoreError> {
        self.read(accounts::load_accounts).await
    }

    pub async fn leaderboard(
        &self,
        key: &str,
        bots: bool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        let key = key.to_string();
        self.read(move |conn| accounts::leaderboard(conn, &key, bots, limit))
            .await
    }

    /// The moves played from `position` in the explorer's index (see [`crate::explorer`]).
    pub async fn explorer(
        &self,
        variant: &str,
        position: &str,
        buckets: Vec<i64>,
        limit: usize,
    ) -> Result<Vec<crate::explorer::ExplorerMove>, StoreError> {
        let (variant, position) = (variant.to_string(), position.to_string());
        self.read(move |conn| explorer::lookup(conn, &variant, &position, &buckets, limit))
            .await
    }

    /// Up to `limit` finished rooms the explorer's index has not seen yet.
    pub async fn unindexed_ended(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(move |conn| explorer::unindexed(conn, limit))
            .await
    }

    pub async fn puzzle_ratings(
        &self,
        variant: &str,
    ) -> Result<Vec<(String, crate::store::StoredGlicko)>, StoreError> {
        let variant = variant.to_string();
        self.read(move |conn| puzzles::ratings(conn, &variant))
            .await
    }

    pub async fn puzzle_player(
        &self,
        player: &str,
    ) -> Result<Vec<(String, crate::store::StoredGlicko)>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| puzzles::player(conn, &player)).await
    }

    pub async fn is_moderator(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.read(move |conn| moderation::is_moderator(conn, &player))
            .await
    }

    pub async fn reports(
        &self,
        status: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::StoredReport>, StoreError> {
        let status = status.to_string();
        self.read(move |conn| moderation::reports(conn, &status, limit))
            .await
    }

    pub async fn sanctions(
        &self,
        now_ms: u64,
    ) -> Result<Vec<crate::store::StoredSanction>, StoreError> {
        self.read(move |conn| moderation::sanctions(conn, now_ms))
            .await
    }

    pub async fn moderation_log(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::StoredAction>, StoreError> {
        self.read(move |conn| moderation::moderation_log(conn, limit))
            .await
    }

    pub async fn follows_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| people::follows_of(conn, &player))
            .await
    }

    pub async fn followed_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::GameLine>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| people::followed_games(conn, &player, limit))
            .await
    }

    pub async fn head_to_head(
        &self,
        a: &str,
        b: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::GameLine>, StoreError> {
        let (a, b) = (a.to_string(), b.to_string());
        self.read(move |conn| people::head_to_head(conn, &a, &b, limit))
            .await
    }

    pub async fn reporters_of(&self, player: &str, since_ms: u64) -> Result<u64, StoreError> {
        let player = player.to_string();
        self.read(move |conn| moderation::reporters_of(conn, &player, since_ms))
            .await
    }

    pub async fn reports_since(&self, reporter: &str, since_ms: u64) -> Result<u64, StoreError> {
        let reporter = reporter.to_string();
        self.read(move |conn| moderation::reports_since(conn, &reporter, since_ms))
            .await
    }

    pub async fn blocks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| moderation::blocks_of(conn, &player))
            .await
    }

    pub async fn hall_puzzles_since(
        &self,
        since_ms: u64,
    ) -> Result<Vec<crate::store::HallPuzzleRow>, StoreError> {
        self.read(move |conn| puzzles::hall_since(conn, since_ms))
            .await
    }

    pub async fn puzzles_tried(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let (player, variant) = (player.to_string(), variant.to_string());
        self.read(move |conn| puzzles::tried(conn, &player, &variant))
            .await
    }

    pub async fn player_page(
        &self,
        name: &str,
        games: usize,
    ) -> Result<Option<PlayerPage>, StoreError> {
        let name = name.to_string();
        self.read(move |conn| accounts::player_page(conn, &name, games))
            .await
    }

    pub async fn read_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| tournaments::read(conn, &id)).await
    }

    pub async fn list_tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        self.read(move |conn| tournaments::newest(conn, limit))
            .await
    }

    pub async fn running_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        self.read(tournaments::running).await
    }

    pub async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT c.player, c.name, c.text, c.seat, c.bot, c.at_ms FROM chat c
                 WHERE c.room = ?1 AND NOT EXISTS (SELECT 1 FROM hidden_chat h
                   WHERE h.room = c.room AND h.player = c.player AND h.text = c.text)
                 ORDER BY c.id",
            )?;
            let rows = stmt.query_map([&id], |r| {
                let seat: Option<String> = r.get(3)?;
                Ok(StoredChat {
                    player: r.get(0)?,
                    name: r.get(1)?,
                    text: r.get(2)?,
                    seat: seat.as_deref().map(parse_color),
                    bot: r.get(4)?,
                    at_ms: r.get::<_, i64>(5)? as u64,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file written before reviews existed has no `reviews` table: opening it adds one.
    #[tokio::test]
    async fn a_file_from_before_reviews_gains_their_table() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        {
            let old = Connection::open(dir.path().join("kibitz.db")).expect("an old file");
            old.execute_batch(&SCHEMA.replace("reviews", "old_reviews_absent"))
                .expect("the old schema");
            old.execute_batch("DROP TABLE old_reviews_absent;")
                .expect("no reviews table");
        }
        let store = SqliteStore::open(dir.path(), Metrics::new()).expect("the old file opens");
        assert_eq!(store.read_review("r1").await.expect("the read works"), None);
    }

    /// A file written before fences existed keeps its rooms, each unclaimed (fence 0), and
    /// they can be claimed once it is open.
    #[tokio::test]
    async fn a_file_from_before_fences_gains_them_unclaimed() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        {
            let old = Connection::open(dir.path().join("kibitz.db")).expect("an old file");
            let unfenced = SCHEMA.replace(", fence INTEGER NOT NULL DEFAULT 0", "");
            assert_ne!(unfenced, SCHEMA, "the old schema has no fence");
            old.execute_batch(&unfenced).expect("the old schema");
            let game = serde_json::to_string(&game_core::GameSpec::connect4(7, 6))
                .expect("a game as JSON");
            old.execute(
                "INSERT INTO rooms (id, game, opening, private, created_ms, status)
                 VALUES ('r1', ?1, '[]', 0, 0, 'playing')",
                [game],
            )
            .expect("an old room");
        }
        let store = SqliteStore::open(dir.path(), Metrics::new()).expect("the old file opens");
        let room = store.read_room("r1").await.expect("the read works");
        assert_eq!(room.map(|r| r.fence), Some(0));
        store
            .write(Write::Claim {
                room: "r1".to_string(),
                fence: 7,
            })
            .await
            .expect("the old room is claimed");
        let room = store.read_room("r1").await.expect("the read works");
        assert_eq!(room.map(|r| r.fence), Some(7));
    }
}
