//! The durable store: one SQLite file (WAL) in the data directory, written by one thread that
//! commits queued writes together (group commit) and answers each writer only after its write
//! is committed — so a room can broadcast a move only once the move is on disk.
//!
//! The store sits behind this narrow interface (writes as values, a loader, a reader) so that
//! another backend can replace it without touching the room logic.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

use game_core::protocol::{ClockSpec, GameResult, RoomStatus};
use game_core::{Color, GameSpec};

/// What can go wrong with the store.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("data directory {0}: {1}")]
    DataDir(PathBuf, String),
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the store has shut down")]
    Closed,
}

/// One durable write.
#[derive(Clone, Debug)]
pub enum Write {
    Player {
        id: String,
        name: String,
        token_hash: String,
        bot: bool,
    },
    Room(Box<StoredRoomHead>),
    Seat {
        room: String,
        color: Color,
        seat: Option<StoredSeat>,
    },
    Move {
        room: String,
        mv: StoredMove,
        seq: u64,
    },
    /// Undo: keep the first `ply` moves.
    Truncate {
        room: String,
        ply: usize,
        seq: u64,
    },
    Chat {
        room: String,
        seq: u64,
        line: StoredChat,
    },
    Status {
        room: String,
        status: RoomStatus,
        result: Option<GameResult>,
        seq: u64,
    },
    /// Writes nothing; answered once everything queued before it is committed.
    Barrier,
}

/// The fixed facts of a room.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredRoomHead {
    pub id: String,
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub opening: Vec<String>,
    pub private: bool,
    pub created_ms: u64,
    pub creator: Option<String>,
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    pub player: String,
    pub name: String,
    pub bot: bool,
    /// The level a bot was invited at.
    pub level: Option<u8>,
}

/// One move with the clocks as they stood right after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    pub ply: usize,
    pub mv: String,
    pub by: Color,
    pub black_ms: Option<u64>,
    pub white_ms: Option<u64>,
    /// Wall-clock time of the move, milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The mover's request id, so a resend after a restart is still answered, not replayed.
    pub req_id: Option<String>,
    /// The room's event number of the `moved` that announced it.
    #[serde(default)]
    pub seq: u64,
}

/// One chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredChat {
    pub player: String,
    pub name: String,
    pub text: String,
    pub seat: Option<Color>,
    pub bot: bool,
    pub at_ms: u64,
}

/// A whole room as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StoredRoom {
    #[serde(flatten)]
    pub head: StoredRoomHead,
    pub status: RoomStatus,
    pub result: Option<GameResult>,
    pub seq: u64,
    pub black: Option<StoredSeat>,
    pub white: Option<StoredSeat>,
    pub moves: Vec<StoredMove>,
}

/// A player as stored.
#[derive(Clone, Debug)]
pub struct StoredPlayer {
    pub id: String,
    pub name: String,
    pub token_hash: String,
    pub bot: bool,
}

struct Job {
    write: Write,
    done: oneshot::Sender<Result<(), String>>,
}

/// Cheap-clone handle to the store's writer thread.
#[derive(Clone)]
pub struct Store {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS players (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, bot INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
  id TEXT PRIMARY KEY, game TEXT NOT NULL, clock TEXT, opening TEXT NOT NULL,
  private INTEGER NOT NULL, created_ms INTEGER NOT NULL, creator TEXT,
  status TEXT NOT NULL, result TEXT, seq INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS rooms_status ON rooms(status);
CREATE TABLE IF NOT EXISTS seats (
  room TEXT NOT NULL, color TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
  bot INTEGER NOT NULL, level INTEGER, PRIMARY KEY (room, color));
CREATE TABLE IF NOT EXISTS moves (
  room TEXT NOT NULL, ply INTEGER NOT NULL, mv TEXT NOT NULL, by TEXT NOT NULL,
  black_ms INTEGER, white_ms INTEGER, at_ms INTEGER NOT NULL, req_id TEXT,
  seq INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, ply));
CREATE TABLE IF NOT EXISTS chat (
  id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, player TEXT NOT NULL,
  name TEXT NOT NULL, text TEXT NOT NULL, seat TEXT, bot INTEGER NOT NULL, at_ms INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS chat_room ON chat(room);
";

fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    // WAL with synchronous=NORMAL: a committed transaction survives a crash of the process
    // (kill -9); only a power cut may lose the last commits.
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "busy_timeout", 5000)?;
    Ok(conn)
}

fn color_str(c: Color) -> &'static str {
    c.as_str()
}

fn parse_color(s: &str) -> Color {
    if s == "white" {
        Color::White
    } else {
        Color::Black
    }
}

fn status_str(s: RoomStatus) -> &'static str {
    match s {
        RoomStatus::Waiting => "waiting",
        RoomStatus::Playing => "playing",
        RoomStatus::Over => "over",
    }
}

fn parse_status(s: &str) -> RoomStatus {
    match s {
        "playing" => RoomStatus::Playing,
        "over" => RoomStatus::Over,
        _ => RoomStatus::Waiting,
    }
}

fn apply(tx: &rusqlite::Transaction<'_>, write: &Write) -> Result<(), StoreError> {
    match write {
        Write::Player {
            id,
            name,
            token_hash,
            bot,
        } => {
            tx.execute(
                "INSERT INTO players (id, name, token_hash, bot) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name",
                params![id, name, token_hash, bot],
            )?;
        }
        Write::Room(head) => {
            tx.execute(
                "INSERT INTO rooms (id, game, clock, opening, private, created_ms, creator, status)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'waiting')",
                params![
                    head.id,
                    serde_json::to_string(&head.game)?,
                    head.clock.map(|c| serde_json::to_string(&c)).transpose()?,
                    serde_json::to_string(&head.opening)?,
                    head.private,
                    head.created_ms as i64,
                    head.creator,
                ],
            )?;
        }
        Write::Seat { room, color, seat } => match seat {
            Some(s) => {
                tx.execute(
                    "INSERT OR REPLACE INTO seats (room, color, player, name, bot, level)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![room, color_str(*color), s.player, s.name, s.bot, s.level],
                )?;
            }
            None => {
                tx.execute(
                    "DELETE FROM seats WHERE room = ?1 AND color = ?2",
                    params![room, color_str(*color)],
                )?;
            }
        },
        Write::Move { room, mv, seq } => {
            tx.execute(
                "INSERT INTO moves (room, ply, mv, by, black_ms, white_ms, at_ms, req_id, seq)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    room,
                    mv.ply as i64,
                    mv.mv,
                    color_str(mv.by),
                    mv.black_ms.map(|v| v as i64),
                    mv.white_ms.map(|v| v as i64),
                    mv.at_ms as i64,
                    mv.req_id,
                    mv.seq as i64
                ],
            )?;
            tx.execute(
                "UPDATE rooms SET seq = ?2 WHERE id = ?1",
                params![room, *seq as i64],
            )?;
        }
        Write::Truncate { room, ply, seq } => {
            tx.execute(
                "DELETE FROM moves WHERE room = ?1 AND ply >= ?2",
                params![room, *ply as i64],
            )?;
            tx.execute(
                "UPDATE rooms SET seq = ?2 WHERE id = ?1",
                params![room, *seq as i64],
            )?;
        }
        Write::Chat { room, seq, line } => {
            tx.execute(
                "INSERT INTO chat (room, player, name, text, seat, bot, at_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    room,
                    line.player,
                    line.name,
                    line.text,
                    line.seat.map(color_str),
                    line.bot,
                    line.at_ms as i64
                ],
            )?;
            tx.execute(
                "UPDATE rooms SET seq = ?2 WHERE id = ?1",
                params![room, *seq as i64],
            )?;
        }
        Write::Status {
            room,
            status,
            result,
            seq,
        } => {
            tx.execute(
                "UPDATE rooms SET status = ?2, result = ?3, seq = ?4 WHERE id = ?1",
                params![
                    room,
                    status_str(*status),
                    result.as_ref().map(serde_json::to_string).transpose()?,
                    *seq as i64
                ],
            )?;
        }
        Write::Barrier => {}
    }
    Ok(())
}

/// The writer thread: takes every queued job, runs them in one transaction, then answers.
fn writer(mut conn: Connection, mut jobs: mpsc::Receiver<Job>, metrics: crate::metrics::Metrics) {
    let mut batch: Vec<Job> = Vec::new();
    while let Some(job) = jobs.blocking_recv() {
        batch.push(job);
        while batch.len() < 256 {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let started = Instant::now();
        let outcome = (|| -> Result<Vec<Result<(), String>>, StoreError> {
            let tx = conn.transaction()?;
            let mut results = Vec::with_capacity(batch.len());
            // A failed statement is rolled back alone by SQLite; the others still commit.
            for job in &batch {
                results.push(apply(&tx, &job.write).map_err(|e| e.to_string()));
            }
            tx.commit()?;
            Ok(results)
        })();
        metrics.store_write(started.elapsed(), batch.len());
        match outcome {
            Ok(results) => {
                for (job, r) in batch.drain(..).zip(results) {
                    if let Err(e) = &r {
                        tracing::error!(error = %e, "store write failed");
                    }
                    let _ = job.done.send(r);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "store commit failed");
                for job in batch.drain(..) {
                    let _ = job.done.send(Err(e.to_string()));
                }
            }
        }
    }
}

fn now_check_writable(dir: &Path) -> Result<(), StoreError> {
    let probe = dir.join(".kibitz-write-check");
    std::fs::write(&probe, b"ok")
        .map_err(|e| StoreError::DataDir(dir.to_path_buf(), format!("not writable: {e}")))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

impl Store {
    /// Opens (creating if needed) `kibitz.db` in `dir` and starts the writer thread. The
    /// directory is created if its parent exists; a missing parent or an unwritable directory
    /// is a clear error.
    pub fn open(dir: &Path, metrics: crate::metrics::Metrics) -> Result<Store, StoreError> {
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
        now_check_writable(dir)?;
        let path = dir.join("kibitz.db");
        let conn = open_connection(&path)?;
        conn.execute_batch(SCHEMA)?;
        let (tx, rx) = mpsc::channel(4096);
        std::thread::Builder::new()
            .name("kibitz-store".to_string())
            .spawn(move || writer(conn, rx, metrics))
            .map_err(|e| StoreError::DataDir(dir.to_path_buf(), e.to_string()))?;
        Ok(Store { path, jobs: tx })
    }

    /// Writes durably: returns once the write is committed.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.jobs
            .send(Job { write, done })
            .await
            .map_err(|_| StoreError::Closed)?;
        match wait.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(StoreError::DataDir(self.path.clone(), e)),
            Err(_) => Err(StoreError::Closed),
        }
    }

    /// Every player, for token lookups after a restart.
    pub fn load_players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        let conn = open_connection(&self.path)?;
        let mut stmt = conn.prepare("SELECT id, name, token_hash, bot FROM players")?;
        let rows = stmt.query_map([], |r| {
            Ok(StoredPlayer {
                id: r.get(0)?,
                name: r.get(1)?,
                token_hash: r.get(2)?,
                bot: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every room that is not over, to be reloaded at start.
    pub fn load_unfinished(&self) -> Result<Vec<StoredRoom>, StoreError> {
        let conn = open_connection(&self.path)?;
        let ids: Vec<String> = {
            let mut stmt = conn.prepare("SELECT id FROM rooms WHERE status != 'over'")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        let mut rooms = Vec::new();
        for id in ids {
            if let Some(room) = read_room(&conn, &id)? {
                rooms.push(room);
            }
        }
        Ok(rooms)
    }

    /// One room with its moves, from a fresh read connection (WAL lets it run beside the
    /// writer). Runs on a blocking thread.
    pub async fn read_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let path = self.path.clone();
        let id = id.to_string();
        tokio::task::spawn_blocking(move || {
            let conn = open_connection(&path)?;
            read_room(&conn, &id)
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }

    /// The chat of a room, oldest first.
    pub async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        let path = self.path.clone();
        let id = id.to_string();
        tokio::task::spawn_blocking(move || {
            let conn = open_connection(&path)?;
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
        .map_err(|_| StoreError::Closed)?
    }

    /// Waits until every write queued so far is committed (for shutdown).
    pub async fn flush(&self) {
        let _ = self.write(Write::Barrier).await;
    }
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
    );
    let head: Option<Head> = conn
        .query_row(
            "SELECT game, clock, opening, private, created_ms, creator, status, result, seq
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
                ))
            },
        )
        .optional()?;
    let Some((game, clock, opening, private, created_ms, creator, status, result, seq)) = head
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
        },
        status: parse_status(&status),
        result: result.as_deref().map(serde_json::from_str).transpose()?,
        seq: seq as u64,
        black: None,
        white: None,
        moves: Vec::new(),
    };
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
    Ok(Some(room))
}
