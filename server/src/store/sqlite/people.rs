//! The SQLite store's people: whom each account follows, the games its followed players are
//! playing, the games between two players (head to head), and the games of a player's page,
//! each read as [`GameLine`]s by one query shape.

use rusqlite::{params, Connection, Params};

use crate::store::error::StoreError;
use crate::store::records::GameLine;
use crate::store::text::parse_status;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS follows (
  player TEXT NOT NULL, followed TEXT NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (player, followed));
";

/// The columns of a [`GameLine`], over `rooms r` with its black seat `b` and white seat `w`.
const LINE: &str = "SELECT r.id, r.game, r.status, r.result, r.rated, r.created_ms,
        b.name, w.name, b.player, w.player
     FROM rooms r
       LEFT JOIN seats b ON b.room = r.id AND b.color = 'black'
       LEFT JOIN seats w ON w.room = r.id AND w.color = 'white'";

pub(super) fn follow(
    db: &Connection,
    player: &str,
    followed: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    db.prepare_cached(
        "INSERT INTO follows (player, followed, at_ms) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    )?
    .execute(params![player, followed, at_ms as i64])?;
    Ok(())
}

pub(super) fn unfollow(db: &Connection, player: &str, followed: &str) -> Result<(), StoreError> {
    db.prepare_cached("DELETE FROM follows WHERE player = ?1 AND followed = ?2")?
        .execute(params![player, followed])?;
    Ok(())
}

/// Whom `player` follows, oldest first.
pub(super) fn follows_of(db: &Connection, player: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT followed FROM follows WHERE player = ?1 ORDER BY at_ms, followed",
    )?;
    let rows = stmt.query_map([player], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The public games of `player`, newest first (a player's page).
pub(super) fn games_of(
    db: &Connection,
    player: &str,
    limit: usize,
) -> Result<Vec<GameLine>, StoreError> {
    let sql = format!(
        "{LINE} WHERE r.private = 0 AND r.id IN (SELECT room FROM seats WHERE player = ?1)
         ORDER BY r.created_ms DESC, r.id LIMIT ?2"
    );
    lines(db, &sql, params![player, limit as i64])
}

/// The public games in play of the players `player` follows, newest first.
pub(super) fn followed_games(
    db: &Connection,
    player: &str,
    limit: usize,
) -> Result<Vec<GameLine>, StoreError> {
    let sql = format!(
        "{LINE} WHERE r.status = 'playing' AND r.private = 0 AND r.id IN (
           SELECT s.room FROM seats s JOIN follows f ON f.followed = s.player WHERE f.player = ?1)
         ORDER BY r.created_ms DESC, r.id LIMIT ?2"
    );
    lines(db, &sql, params![player, limit as i64])
}

/// The public games between `a` and `b`, newest first.
pub(super) fn head_to_head(
    db: &Connection,
    a: &str,
    b: &str,
    limit: usize,
) -> Result<Vec<GameLine>, StoreError> {
    let sql = format!(
        "{LINE} WHERE r.private = 0 AND ((b.player = ?1 AND w.player = ?2)
                                      OR (b.player = ?2 AND w.player = ?1))
         ORDER BY r.created_ms DESC, r.id LIMIT ?3"
    );
    lines(db, &sql, params![a, b, limit as i64])
}

fn lines(db: &Connection, sql: &str, params: impl Params) -> Result<Vec<GameLine>, StoreError> {
    let mut stmt = db.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, bool>(4)?,
            r.get::<_, i64>(5)?,
            [
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<String>>(7)?,
                r.get::<_, Option<String>>(8)?,
                r.get::<_, Option<String>>(9)?,
            ],
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (room, game, status, result, rated, created_ms, [black, white, black_id, white_id]) =
            row?;
        out.push(GameLine {
            room,
            game: serde_json::from_str(&game)?,
            black,
            white,
            black_player: black_id,
            white_player: white_id,
            status: parse_status(&status),
            result: result.as_deref().map(serde_json::from_str).transpose()?,
            rated,
            created_ms: created_ms as u64,
        });
    }
    Ok(out)
}
