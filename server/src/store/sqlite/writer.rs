//! The writer thread: takes every queued write, applies each in its own savepoint and commits
//! them together (group commit), answering each writer only once its write is committed.

use std::path::PathBuf;
use std::time::Instant;

use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::mpsc;

use game_core::protocol::RoomStatus;
use game_core::Color;

use super::{accounts, checkpoint, explorer, moderation, people, puzzles, tournaments};
use crate::metrics::Metrics;
use crate::store::error::StoreError;
use crate::store::fence;
use crate::store::job::{failed_alone, note_failed_alone, Job};
use crate::store::records::{RoomChange, StoredMove, StoredRoom, StoredSeat, Write};
use crate::store::text::{asks_bits, now_ms, status_str};

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

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
        accounts::settle_rated(db, room, result, now_ms() as u64)?;
        explorer::index_game(db, room, Some(result))?;
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
        Write::NewAccount(account) => accounts::insert_account(db, account)?,
        Write::Token { token_hash, player } => {
            accounts::insert_token(db, token_hash, player, now_ms() as u64)?;
        }
        Write::DropToken {
            token_hash,
            replacement,
        } => accounts::drop_token(db, token_hash, replacement)?,
        Write::Tournament(t) => tournaments::upsert(db, t)?,
        Write::TournamentEdit { before, after } => tournaments::edit(db, before, after)?,
        Write::IndexEnded { room } => explorer::index_ended(db, room)?,
        Write::PuzzleAttempt(a) => puzzles::record_attempt(db, a)?,
        Write::Block {
            player,
            blocked,
            at_ms,
        } => moderation::block(db, player, blocked, *at_ms)?,
        Write::Unblock { player, blocked } => moderation::unblock(db, player, blocked)?,
        Write::GrantModerator { player, at_ms } => moderation::grant_moderator(db, player, *at_ms)?,
        Write::Report(r) => moderation::report(db, r)?,
        Write::Moderate(a) => moderation::moderate(db, a)?,
        Write::Follow {
            player,
            followed,
            at_ms,
        } => people::follow(db, player, followed, *at_ms)?,
        Write::Unfollow { player, followed } => people::unfollow(db, player, followed)?,
        Write::HallPuzzle(p) => puzzles::add_hall(db, p, now_ms() as u64)?,
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
pub(super) fn run(
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
