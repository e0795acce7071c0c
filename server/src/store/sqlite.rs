//! The SQLite backend: one file (WAL) in the data directory, written by one thread that
//! commits queued writes together (group commit) and answers each writer only after its write
//! is committed. Each write runs in its own savepoint, so it is all or nothing while the
//! others of its batch still commit; a failure that ends the whole transaction (a full disk)
//! fails the whole batch, so that no write is answered as failed while it was in fact stored.
//! Reads open their own connection on a blocking thread; WAL lets them run beside the writer.
//! The WAL is kept small by checkpoints on a thread of their own (`checkpoint`), so that the
//! writer does not wait for the disk syncs they make (but for a short pause each time a busy
//! WAL starts over).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::mpsc;

use game_core::protocol::RoomStatus;
use game_core::Color;

use super::checkpoint;
use super::error::StoreError;
use super::fence;
use super::job::{self, failed_alone, note_failed_alone, Job};
use super::records::{
    LeaderRow, PlayerPage, RoomChange, StoredAccount, StoredChat, StoredMove, StoredPlayer,
    StoredRematch, StoredRoom, StoredRoomHead, StoredSeat, StoredTournament, Write,
};
use super::sqlite_accounts;
use super::sqlite_tournaments;
use super::text::{asks_bits, asks_from_bits, now_ms, parse_color, parse_status, status_str};
use crate::metrics::Metrics;

/// Writes queued before their senders wait.
const WRITE_QUEUE: usize = 4096;

/// How long a connection waits for a lock another holds.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

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

const SCHEMA: &str = "
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

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
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
fn migrate(conn: &Connection) -> Result<(), StoreError> {
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

fn insert_seat(
    db: &Connection,
    room: &str,
    color: Color,
    seat: Option<&StoredSeat>,
) -> Result<(), StoreError> {
    match seat {
        Some(s) => db
            .prepare_cached(
                "INSERT OR REPLACE INTO seats (room, color, player, name, bot, level)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                room,
                color.as_str(),
                s.player,
                s.name,
                s.bot,
                s.level
            ])?,
        None => db
            .prepare_cached("DELETE FROM seats WHERE room = ?1 AND color = ?2")?
            .execute(params![room, color.as_str()])?,
    };
    Ok(())
}

fn insert_move(db: &Connection, room: &str, mv: &StoredMove) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO moves (room, ply, mv, by, black_ms, white_ms, at_ms, req_id, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        room,
        mv.ply as i64,
        mv.mv,
        mv.by.as_str(),
        mv.black_ms.map(|v| v as i64),
        mv.white_ms.map(|v| v as i64),
        mv.at_ms as i64,
        mv.req_id,
        mv.seq as i64
    ])?;
    Ok(())
}

fn insert_room(db: &Connection, room: &StoredRoom) -> Result<(), StoreError> {
    let head = &room.head;
    db.prepare_cached(
        "INSERT INTO rooms (id, game, clock, opening, private, created_ms, creator, status,
                            result, seq, fence, rated)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        head.id,
        serde_json::to_string(&head.game)?,
        head.clock.map(|c| serde_json::to_string(&c)).transpose()?,
        serde_json::to_string(&head.opening)?,
        head.private,
        head.created_ms as i64,
        head.creator,
        status_str(room.status),
        room.result
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?,
        room.seq as i64,
        fence::to_column(room.fence)?,
        head.rated,
    ])?;
    for (color, seat) in [(Color::Black, &room.black), (Color::White, &room.white)] {
        if seat.is_some() {
            insert_seat(db, &head.id, color, seat.as_ref())?;
        }
    }
    for mv in &room.moves {
        insert_move(db, &head.id, mv)?;
    }
    Ok(())
}

/// The fence stored with `room` (`None` for a room not stored). The writer's transaction
/// holds SQLite's write lock from its start, so nothing changes it before the write commits.
fn stored_fence(db: &Connection, room: &str) -> Result<Option<u64>, StoreError> {
    let stored = db
        .prepare_cached("SELECT fence FROM rooms WHERE id = ?1")?
        .query_row([room], |r| r.get::<_, i64>(0))
        .optional()?;
    Ok(stored.map(fence::from_column))
}

/// Raises the fence of `room` to `to`, unless a newer one is stored.
fn claim(db: &Connection, room: &str, to: u64) -> Result<(), StoreError> {
    let stored = stored_fence(db, room)?.ok_or_else(|| StoreError::NoSuchRoom(room.to_string()))?;
    fence::check_claim(room, stored, to)?;
    if stored != to {
        db.prepare_cached("UPDATE rooms SET fence = ?2 WHERE id = ?1")?
            .execute(params![room, fence::to_column(to)?])?;
    }
    Ok(())
}

fn apply_change(db: &Connection, change: &RoomChange) -> Result<(), StoreError> {
    let room = change.room.as_str();
    if change.fence > 0 {
        let stored =
            stored_fence(db, room)?.ok_or_else(|| StoreError::NoSuchRoom(room.to_string()))?;
        fence::check_change(room, stored, change.fence)?;
    }
    // A change that only adds moves, the last carrying the change's event number, leaves the
    // room's row alone: its `seq` is read back as the larger of the row's and the last move's
    // (`read_room`). Under load this halves the pages each commit writes: the rows of the rooms
    // moving together lie scattered over the table, while their moves append side by side.
    let moves_only = change.status.is_none()
        && change.truncate.is_none()
        && change.moves.last().is_some_and(|m| m.seq == change.seq);
    let updated = if moves_only {
        db.prepare_cached("SELECT 1 FROM rooms WHERE id = ?1")?
            .query_row([room], |_| Ok(()))
            .optional()?
            .map_or(0, |()| 1)
    } else {
        match &change.status {
            Some((status, result)) => db
                .prepare_cached(
                    "UPDATE rooms SET status = ?2, result = ?3, seq = ?4 WHERE id = ?1",
                )?
                .execute(params![
                    room,
                    status_str(*status),
                    result.as_ref().map(serde_json::to_string).transpose()?,
                    change.seq as i64
                ])?,
            None => db
                .prepare_cached("UPDATE rooms SET seq = ?2 WHERE id = ?1")?
                .execute(params![room, change.seq as i64])?,
        }
    };
    if updated == 0 {
        return Err(StoreError::NoSuchRoom(room.to_string()));
    }
    if let Some(ply) = change.truncate {
        db.prepare_cached("DELETE FROM moves WHERE room = ?1 AND ply >= ?2")?
            .execute(params![room, ply as i64])?;
    }
    for mv in &change.moves {
        insert_move(db, room, mv)?;
    }
    for (color, seat) in &change.seats {
        insert_seat(db, room, *color, seat.as_ref())?;
    }
    if let Some(next) = &change.rematch_next {
        db.prepare_cached("UPDATE rooms SET next = ?2 WHERE id = ?1")?
            .execute(params![room, next])?;
    }
    if let Some(asked) = change.rematch_asks {
        db.prepare_cached("UPDATE rooms SET rematch_asks = ?2 WHERE id = ?1")?
            .execute(params![room, asks_bits(asked)])?;
    }
    if let Some((RoomStatus::Over, Some(result))) = &change.status {
        sqlite_accounts::settle_rated(db, room, result, now_ms() as u64)?;
    }
    if let Some(line) = &change.chat {
        db.prepare_cached(
            "INSERT INTO chat (room, player, name, text, seat, bot, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            room,
            line.player,
            line.name,
            line.text,
            line.seat.map(Color::as_str),
            line.bot,
            line.at_ms as i64
        ])?;
    }
    Ok(())
}

fn apply(db: &Connection, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Player(p) => {
            db.prepare_cached(
                "INSERT INTO players (id, name, token_hash, bot, last_seen_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name,
                                               last_seen_ms = excluded.last_seen_ms",
            )?
            .execute(params![p.id, p.name, p.token_hash, p.bot, now_ms()])?;
        }
        Write::NewRoom(room) => insert_room(db, room)?,
        Write::Room(change) => apply_change(db, change)?,
        Write::Rematch { next, change } => {
            // The old room's change first: one fenced off stores nothing of the rematch.
            apply_change(db, change)?;
            insert_room(db, next)?;
        }
        Write::Claim { room, fence } => claim(db, room, *fence)?,
        Write::ForgetPlayers {
            ids,
            seen_before_ms,
        } => {
            let mut forget = db.prepare_cached(
                "DELETE FROM players WHERE id = ?1 AND bot = 0 AND last_seen_ms < ?2
                 AND NOT EXISTS (SELECT 1 FROM seats JOIN rooms ON rooms.id = seats.room
                                 WHERE seats.player = players.id AND rooms.status != 'over')
                 AND NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.player = players.id)",
            )?;
            for id in ids {
                forget.execute(params![id, *seen_before_ms as i64])?;
            }
        }
        Write::Review { room, review } => {
            let text = serde_json::to_string(review)?;
            db.prepare_cached(
                "INSERT INTO reviews (room, review, made_ms) VALUES (?1, ?2, ?3)
                 ON CONFLICT(room) DO UPDATE SET review = excluded.review,
                                                 made_ms = excluded.made_ms",
            )?
            .execute(params![room, text, review.made_ms as i64])?;
        }
        Write::NewAccount(account) => sqlite_accounts::insert_account(db, account)?,
        Write::Token { token_hash, player } => {
            sqlite_accounts::insert_token(db, token_hash, player, now_ms() as u64)?;
        }
        Write::DropToken {
            token_hash,
            replacement,
        } => sqlite_accounts::drop_token(db, token_hash, replacement)?,
        Write::Tournament(t) => sqlite_tournaments::upsert(db, t)?,
        Write::TournamentEdit { before, after } => sqlite_tournaments::edit(db, before, after)?,
        Write::Barrier => {}
    }
    Ok(())
}

/// Runs one job in its own savepoint: all of its write or none of it.
fn apply_atomically(tx: &mut rusqlite::Transaction<'_>, write: &Write) -> Result<(), StoreError> {
    let savepoint = tx.savepoint()?;
    // Dropped without a commit on error: the savepoint rolls back alone.
    apply(&savepoint, write)?;
    Ok(savepoint.commit()?)
}

/// Runs one batch in one transaction; the answer of each job, or the error that failed them
/// all. A job whose failure ended the transaction (SQLite rolls back on a full disk or an I/O
/// error) fails the whole batch: the jobs after it would otherwise run outside the
/// transaction and be stored while answered as failed.
fn commit_batch(
    conn: &mut Connection,
    batch: &[Job],
) -> Result<Vec<Result<(), StoreError>>, String> {
    // Jobs almost never fail: first the whole batch without a savepoint each (two statements
    // less per job); only if one fails is the batch rolled back and run job by job.
    if commit_all(conn, batch).is_ok() {
        return Ok(batch.iter().map(|_| Ok(())).collect());
    }
    let mut tx = begin(conn).map_err(|e| e.to_string())?;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let result = apply_atomically(&mut tx, &job.write);
        if let Err(e) = &result {
            if tx.is_autocommit() {
                return Err(format!("the transaction was rolled back: {e}"));
            }
        }
        results.push(result.map_err(failed_alone));
    }
    tx.commit().map_err(|e| e.to_string())?;
    Ok(results)
}

/// Begins the writer's transaction holding the write lock from the start, so that a lock held
/// elsewhere (the checkpoint thread's truncation) is waited for by the busy timeout, never met
/// halfway through a transaction that has begun to read.
fn begin(conn: &mut Connection) -> rusqlite::Result<rusqlite::Transaction<'_>> {
    conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
}

/// Runs every job of the batch in one transaction; on the first error nothing is stored.
fn commit_all(conn: &mut Connection, batch: &[Job]) -> Result<(), StoreError> {
    let tx = begin(conn)?;
    for job in batch {
        // Dropped without a commit on error: the whole transaction rolls back.
        apply(&tx, &job.write)?;
    }
    tx.commit()?;
    Ok(())
}

/// The writer's connection.
struct Writer {
    conn: Connection,
    metrics: Metrics,
    /// Held while a batch commits.
    gate: checkpoint::Gate,
    /// The WAL file, whose size the writer reports after each batch.
    wal: PathBuf,
}

impl Writer {
    /// Takes the batch, commits it and answers each job.
    fn run_batch(&mut self, batch: &mut Vec<Job>) {
        let started = Instant::now();
        let passing = self.gate.pass();
        let outcome = commit_batch(&mut self.conn, batch);
        // Behind the gate, so that it never lands after an idle truncation's zero.
        self.metrics
            .store_wal_bytes(std::fs::metadata(&self.wal).map_or(0, |m| m.len()));
        checkpoint::Gate::leave(passing);
        self.metrics.store_write(started.elapsed(), batch.len());
        match outcome {
            Ok(results) => {
                for (job, r) in batch.drain(..).zip(results) {
                    if let Err(e) = &r {
                        note_failed_alone(&self.metrics, e);
                    }
                    let _ = job.done.send(r);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "store commit failed");
                for job in batch.drain(..) {
                    self.metrics.store_failed();
                    let _ = job.done.send(Err(StoreError::Write(e.clone())));
                }
            }
        }
    }
}

/// The writer thread: takes every queued job, runs them in one transaction, then answers.
/// Its checkpoints run on a thread of their own (`checkpoint`).
fn writer(
    conn: Connection,
    gate: checkpoint::Gate,
    wal: PathBuf,
    mut jobs: mpsc::Receiver<Job>,
    metrics: Metrics,
) {
    let mut writer = Writer {
        conn,
        metrics,
        gate,
        wal,
    };
    let mut batch: Vec<Job> = Vec::new();
    while let Some(job) = jobs.blocking_recv() {
        batch.push(job);
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        writer.run_batch(&mut batch);
    }
}

fn check_writable(dir: &Path) -> Result<(), StoreError> {
    let probe = dir.join(".kibitz-write-check");
    std::fs::write(&probe, b"ok")
        .map_err(|e| StoreError::DataDir(dir.to_path_buf(), format!("not writable: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

impl SqliteStore {
    /// Opens (creating if needed) `kibitz.db` in `dir` and starts the writer thread. The
    /// directory is created if its parent exists; a missing parent or an unwritable directory
    /// is a clear error.
    pub fn open(dir: &Path, metrics: Metrics) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(dir, metrics, checkpoint::Limits::default())
    }

    /// `open`, with checkpoints at other limits than the defaults.
    pub(super) fn open_with(
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
        let conn = open_connection(&path)?;
        conn.execute_batch(SCHEMA)?;
        migrate(&conn)?;
        conn.execute_batch(sqlite_accounts::SCHEMA)?;
        conn.execute_batch(sqlite_tournaments::SCHEMA)?;
        let mut conn = conn;
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
            .spawn(move || writer(conn, gate, wal, rx, metrics))
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
        self.read(move |conn| sqlite_accounts::account_by_name(conn, &name))
            .await
    }

    pub async fn account_of(&self, player: &str) -> Result<Option<StoredAccount>, StoreError> {
        let player = player.to_string();
        self.read(move |conn| sqlite_accounts::account_of(conn, &player))
            .await
    }

    pub async fn load_accounts(&self) -> Result<Vec<StoredAccount>, StoreError> {
        self.read(sqlite_accounts::load_accounts).await
    }

    pub async fn leaderboard(
        &self,
        key: &str,
        bots: bool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        let key = key.to_string();
        self.read(move |conn| sqlite_accounts::leaderboard(conn, &key, bots, limit))
            .await
    }

    pub async fn player_page(
        &self,
        name: &str,
        games: usize,
    ) -> Result<Option<PlayerPage>, StoreError> {
        let name = name.to_string();
        self.read(move |conn| sqlite_accounts::player_page(conn, &name, games))
            .await
    }

    pub async fn read_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| sqlite_tournaments::read(conn, &id))
            .await
    }

    pub async fn list_tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        self.read(move |conn| sqlite_tournaments::newest(conn, limit))
            .await
    }

    pub async fn running_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        self.read(sqlite_tournaments::running).await
    }

    pub async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        let id = id.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare(
                "SELECT player, name, text, seat, bot, at_ms FROM chat WHERE room = ?1 ORDER BY id",
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

/// A player from a row of `id, name, token_hash, bot`.
fn player(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPlayer> {
    Ok(StoredPlayer {
        id: row.get(0)?,
        name: row.get(1)?,
        token_hash: row.get(2)?,
        bot: row.get(3)?,
    })
}

fn read_room(conn: &Connection, id: &str) -> Result<Option<StoredRoom>, StoreError> {
    type Head = (
        String,
        Option<String>,
        String,
        bool,
        i64,
        Option<String>,
        String,
        Option<String>,
        i64,
        i64,
        bool,
    );
    let head: Option<Head> = conn
        .query_row(
            "SELECT game, clock, opening, private, created_ms, creator, status, result, seq,
                    fence, rated
             FROM rooms WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                ))
            },
        )
        .optional()?;
    let Some((
        game,
        clock,
        opening,
        private,
        created_ms,
        creator,
        status,
        result,
        seq,
        fenced,
        rated,
    )) = head
    else {
        return Ok(None);
    };
    let mut room = StoredRoom {
        head: StoredRoomHead {
            id: id.to_string(),
            game: serde_json::from_str(&game)?,
            clock: clock.as_deref().map(serde_json::from_str).transpose()?,
            opening: serde_json::from_str(&opening)?,
            private,
            created_ms: created_ms as u64,
            creator,
            rated,
        },
        status: parse_status(&status),
        result: result.as_deref().map(serde_json::from_str).transpose()?,
        seq: seq as u64,
        black: None,
        white: None,
        moves: Vec::new(),
        fence: fence::from_column(fenced),
        rating: None,
    };
    if rated {
        room.rating = sqlite_accounts::rating_outcome(conn, id)?;
    }
    let mut stmt =
        conn.prepare("SELECT color, player, name, bot, level FROM seats WHERE room = ?1")?;
    let seats = stmt.query_map([id], |r| {
        let color: String = r.get(0)?;
        Ok((
            parse_color(&color),
            StoredSeat {
                player: r.get(1)?,
                name: r.get(2)?,
                bot: r.get(3)?,
                level: r.get(4)?,
            },
        ))
    })?;
    for seat in seats {
        let (color, seat) = seat?;
        match color {
            Color::Black => room.black = Some(seat),
            Color::White => room.white = Some(seat),
        }
    }
    let mut stmt = conn.prepare(
        "SELECT ply, mv, by, black_ms, white_ms, at_ms, req_id, seq FROM moves WHERE room = ?1
         ORDER BY ply",
    )?;
    let moves = stmt.query_map([id], |r| {
        let by: String = r.get(2)?;
        Ok(StoredMove {
            ply: r.get::<_, i64>(0)? as usize,
            mv: r.get(1)?,
            by: parse_color(&by),
            black_ms: r.get::<_, Option<i64>>(3)?.map(|v| v as u64),
            white_ms: r.get::<_, Option<i64>>(4)?.map(|v| v as u64),
            at_ms: r.get::<_, i64>(5)? as u64,
            req_id: r.get(6)?,
            seq: r.get::<_, i64>(7)? as u64,
        })
    })?;
    room.moves = moves.collect::<Result<_, _>>()?;
    // Moves stored without touching the room's row carry the room's latest event number.
    if let Some(last) = room.moves.last() {
        room.seq = room.seq.max(last.seq);
    }
    Ok(Some(room))
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
