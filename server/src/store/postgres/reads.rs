//! Reads from PostgreSQL: a few connections of their own beside the writer's, each used by
//! one read at a time, opened when first needed and again after the server was away. A read
//! of a whole room sees one snapshot: its row, seats and moves as of one moment.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use game_core::protocol::RatingOutcome;
use tokio::sync::{MappedMutexGuard, Mutex, MutexGuard};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, IsolationLevel, Row, Transaction};

use super::connect;
use crate::accounts::ratings;
use crate::store::error::StoreError;
use crate::store::fence;
use crate::store::records::{
    StoredChat, StoredMove, StoredPlayer, StoredRematch, StoredRoom, StoredRoomHead, StoredSeat,
};
use crate::store::text::{asks_from_bits, parse_color, parse_status};

/// Read connections: reads beyond this many at once wait for one.
const READ_CONNECTIONS: usize = 4;

/// Which rooms a read of whole rooms takes.
enum Rooms<'a> {
    One(&'a str),
    Unfinished,
    /// The unfinished rooms in which this player holds a seat.
    UnfinishedOf(&'a str),
}

impl Rooms<'_> {
    /// The condition on `rooms r` (`$1`: the one room's id).
    fn condition(&self) -> &'static str {
        match self {
            Rooms::One(_) => "r.id = $1",
            Rooms::Unfinished => "r.status <> 'over'",
            Rooms::UnfinishedOf(_) => {
                "r.status <> 'over' AND r.id IN (SELECT room FROM seats WHERE player = $1)"
            }
        }
    }
}

/// The read connections.
pub(super) struct Readers {
    config: super::Dial,
    slots: Vec<Mutex<Option<Client>>>,
    next: AtomicUsize,
}

impl Readers {
    pub(super) fn new(config: super::Dial) -> Readers {
        Readers {
            config,
            slots: (0..READ_CONNECTIONS).map(|_| Mutex::new(None)).collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// A free read connection (or the next in turn, once free), connected.
    pub(super) async fn client(&self) -> Result<MappedMutexGuard<'_, Client>, StoreError> {
        let first = self.next.fetch_add(1, Ordering::Relaxed);
        let n = self.slots.len();
        let free = (0..n).find_map(|i| self.slots[(first + i) % n].try_lock().ok());
        let mut slot = match free {
            Some(slot) => slot,
            None => self.slots[first % n].lock().await,
        };
        if slot.as_ref().is_none_or(Client::is_closed) {
            let client = match connect(&self.config).await {
                Ok(client) => client,
                // Once more: a server restarting may refuse a connection a moment earlier.
                Err(_) => connect(&self.config).await?,
            };
            *slot = Some(client);
        }
        MutexGuard::try_map(slot, Option::as_mut).map_err(|_| StoreError::Closed)
    }

    pub(super) async fn load_players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query("SELECT id, name, token_hash, bot FROM players", &[])
            .await?;
        rows.iter().map(player).collect()
    }

    pub(super) async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<StoredPlayer>, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_opt(
                "SELECT id, name, token_hash, bot FROM players WHERE token_hash = $1
                 UNION ALL
                 SELECT p.id, p.name, t.token_hash, p.bot FROM tokens t
                   JOIN players p ON p.id = t.player WHERE t.token_hash = $1
                 LIMIT 1",
                &[&token_hash],
            )
            .await?;
        row.as_ref().map(player).transpose()
    }

    pub(super) async fn load_unfinished(&self) -> Result<Vec<StoredRoom>, StoreError> {
        let mut db = self.client().await?;
        let tx = snapshot(&mut db).await?;
        let rooms = read_rooms(&tx, Rooms::Unfinished).await?;
        tx.commit().await?;
        Ok(rooms)
    }

    pub(super) async fn unfinished_of(&self, player: &str) -> Result<Vec<StoredRoom>, StoreError> {
        let mut db = self.client().await?;
        let tx = snapshot(&mut db).await?;
        let rooms = read_rooms(&tx, Rooms::UnfinishedOf(player)).await?;
        tx.commit().await?;
        Ok(rooms)
    }

    pub(super) async fn read_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        let mut db = self.client().await?;
        let tx = snapshot(&mut db).await?;
        let mut rooms = read_rooms(&tx, Rooms::One(id)).await?;
        if let Some(room) = rooms.first_mut().filter(|r| r.head.rated) {
            room.rating = rating_outcome(&tx, id).await?;
        }
        tx.commit().await?;
        Ok(rooms.into_iter().next())
    }

    pub(super) async fn read_rematch(&self, id: &str) -> Result<Option<StoredRematch>, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_opt("SELECT next, rematch_asks FROM rooms WHERE id = $1", &[&id])
            .await?;
        row.map(|r| {
            Ok(StoredRematch {
                next: r.try_get(0)?,
                asked: asks_from_bits(r.try_get(1)?),
            })
        })
        .transpose()
    }

    pub(super) async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query("SELECT id FROM rooms WHERE status <> 'over'", &[])
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get::<_, String>(0))
            .collect::<Result<Vec<_>, _>>()?)
    }

    pub(super) async fn stored_players(&self, ids: Vec<String>) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query("SELECT id FROM players WHERE id = ANY($1)", &[&ids])
            .await?;
        let known = rows
            .iter()
            .map(|r| r.try_get::<_, String>(0))
            .collect::<Result<std::collections::HashSet<_>, _>>()?;
        Ok(ids.into_iter().filter(|id| known.contains(id)).collect())
    }

    pub(super) async fn read_review(
        &self,
        id: &str,
    ) -> Result<Option<game_core::protocol::Review>, StoreError> {
        let db = self.client().await?;
        let row = db
            .query_opt("SELECT review FROM reviews WHERE room = $1", &[&id])
            .await?;
        let text: Option<String> = row.map(|r| r.try_get(0)).transpose()?;
        Ok(text.map(|t| serde_json::from_str(&t)).transpose()?)
    }

    pub(super) async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT c.player, c.name, c.text, c.seat, c.bot, c.at_ms FROM chat c
                 WHERE c.room = $1 AND NOT EXISTS (SELECT 1 FROM hidden_chat h
                   WHERE h.room = c.room AND h.player = c.player AND h.text = c.text)
                 ORDER BY c.id",
                &[&id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let seat: Option<String> = r.try_get(3)?;
                Ok(StoredChat {
                    player: r.try_get(0)?,
                    name: r.try_get(1)?,
                    text: r.try_get(2)?,
                    seat: seat.as_deref().map(parse_color),
                    bot: r.try_get(4)?,
                    at_ms: r.try_get::<_, i64>(5)? as u64,
                })
            })
            .collect()
    }
}

/// A player from a row of `id, name, token_hash, bot`.
fn player(row: &Row) -> Result<StoredPlayer, StoreError> {
    Ok(StoredPlayer {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        token_hash: row.try_get(2)?,
        bot: row.try_get(3)?,
    })
}

/// A read-only transaction that sees one snapshot throughout.
async fn snapshot(db: &mut Client) -> Result<Transaction<'_>, StoreError> {
    Ok(db
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?)
}

/// Whole rooms: their rows, seats and moves, in three queries sent together.
async fn read_rooms(tx: &Transaction<'_>, which: Rooms<'_>) -> Result<Vec<StoredRoom>, StoreError> {
    let cond = which.condition();
    let heads = format!(
        "SELECT r.id, r.game, r.clock, r.opening, r.private, r.created_ms, r.creator, r.status,
                r.result, r.seq, r.fence, r.rated
         FROM rooms r WHERE {cond} ORDER BY r.id"
    );
    let seats = format!(
        "SELECT s.room, s.color, s.player, s.name, s.bot, s.level
         FROM seats s JOIN rooms r ON r.id = s.room WHERE {cond}"
    );
    let moves = format!(
        "SELECT m.room, m.ply, m.mv, m.by, m.black_ms, m.white_ms, m.at_ms, m.req_id, m.seq
         FROM moves m JOIN rooms r ON r.id = m.room WHERE {cond} ORDER BY m.room, m.ply"
    );
    let params: Vec<&(dyn ToSql + Sync)> = match &which {
        Rooms::One(id) | Rooms::UnfinishedOf(id) => vec![id],
        Rooms::Unfinished => Vec::new(),
    };
    let (heads, seats, moves) = tokio::try_join!(
        tx.query(heads.as_str(), &params),
        tx.query(seats.as_str(), &params),
        tx.query(moves.as_str(), &params),
    )?;
    let mut rooms = heads.iter().map(room_head).collect::<Result<Vec<_>, _>>()?;
    let at: HashMap<String, usize> = rooms
        .iter()
        .enumerate()
        .map(|(i, r)| (r.head.id.clone(), i))
        .collect();
    for row in &seats {
        let room: String = row.try_get(0)?;
        let color: String = row.try_get(1)?;
        let seat = StoredSeat {
            player: row.try_get(2)?,
            name: row.try_get(3)?,
            bot: row.try_get(4)?,
            level: row
                .try_get::<_, Option<i16>>(5)?
                .and_then(|l| u8::try_from(l).ok()),
        };
        if let Some(room) = at.get(&room).and_then(|&i| rooms.get_mut(i)) {
            match parse_color(&color) {
                game_core::Color::Black => room.black = Some(seat),
                game_core::Color::White => room.white = Some(seat),
            }
        }
    }
    for row in &moves {
        let room: String = row.try_get(0)?;
        let by: String = row.try_get(3)?;
        let mv = StoredMove {
            ply: row.try_get::<_, i64>(1)? as usize,
            mv: row.try_get(2)?,
            by: parse_color(&by),
            black_ms: row.try_get::<_, Option<i64>>(4)?.map(|v| v as u64),
            white_ms: row.try_get::<_, Option<i64>>(5)?.map(|v| v as u64),
            at_ms: row.try_get::<_, i64>(6)? as u64,
            req_id: row.try_get(7)?,
            seq: row.try_get::<_, i64>(8)? as u64,
        };
        if let Some(room) = at.get(&room).and_then(|&i| rooms.get_mut(i)) {
            room.moves.push(mv);
        }
    }
    for room in &mut rooms {
        // Moves stored without touching the room's row carry the room's latest event number.
        if let Some(last) = room.moves.last() {
            room.seq = room.seq.max(last.seq);
        }
    }
    Ok(rooms)
}

/// A room's row, without its seats and moves yet.
fn room_head(row: &Row) -> Result<StoredRoom, StoreError> {
    let clock: Option<String> = row.try_get(2)?;
    let result: Option<String> = row.try_get(8)?;
    let status: String = row.try_get(7)?;
    Ok(StoredRoom {
        head: StoredRoomHead {
            id: row.try_get(0)?,
            game: serde_json::from_str(row.try_get(1)?)?,
            clock: clock.as_deref().map(serde_json::from_str).transpose()?,
            opening: serde_json::from_str(row.try_get(3)?)?,
            private: row.try_get(4)?,
            created_ms: row.try_get::<_, i64>(5)? as u64,
            creator: row.try_get(6)?,
            rated: row.try_get(11)?,
        },
        status: parse_status(&status),
        result: result.as_deref().map(serde_json::from_str).transpose()?,
        seq: row.try_get::<_, i64>(9)? as u64,
        black: None,
        white: None,
        moves: Vec::new(),
        fence: fence::from_column(row.try_get(10)?),
        rating: None,
    })
}

/// What a finished rated room did to the ratings.
async fn rating_outcome(
    db: &impl tokio_postgres::GenericClient,
    room: &str,
) -> Result<Option<RatingOutcome>, StoreError> {
    let unrated: Option<String> = match db
        .query_opt("SELECT unrated FROM rooms WHERE id = $1", &[&room])
        .await?
    {
        Some(row) => row.try_get(0)?,
        None => None,
    };
    let rows = db
        .query(
            "SELECT color, player, name, before, after, rd FROM rating_changes WHERE room = $1",
            &[&room],
        )
        .await?;
    let mut changes = Vec::with_capacity(rows.len());
    for r in &rows {
        let color: String = r.try_get(0)?;
        changes.push(ratings::change(
            parse_color(&color),
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
        ));
    }
    Ok(ratings::outcome(unrated, changes))
}
