//! Reads of rows into the store's records: a player, and a room with its seats and moves.

use rusqlite::{Connection, OptionalExtension};

use game_core::Color;

use super::accounts;
use crate::store::error::StoreError;
use crate::store::fence;
use crate::store::records::{StoredMove, StoredPlayer, StoredRoom, StoredRoomHead, StoredSeat};
use crate::store::text::{parse_color, parse_status};

/// A player from a row of `id, name, token_hash, bot`.
pub(super) fn player(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredPlayer> {
    Ok(StoredPlayer {
        id: row.get(0)?,
        name: row.get(1)?,
        token_hash: row.get(2)?,
        bot: row.get(3)?,
    })
}

pub(super) fn read_room(conn: &Connection, id: &str) -> Result<Option<StoredRoom>, StoreError> {
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
        room.rating = accounts::rating_outcome(conn, id)?;
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
