//! The PostgreSQL store's people (see the SQLite backend's `people.rs`: the same rows): whom
//! each account follows, the games its followed players are playing, and head to head.

use tokio_postgres::types::ToSql;
use tokio_postgres::Client;

use super::reads::Readers;
use crate::store::error::StoreError;
use crate::store::records::GameLine;
use crate::store::text::parse_status;

/// The columns of a [`GameLine`], over `rooms r` with its black seat `b` and white seat `w`.
const LINE: &str = "SELECT r.id, r.game, r.status, r.result, r.rated, r.created_ms,
        b.name, w.name, b.player, w.player
     FROM rooms r
       LEFT JOIN seats b ON b.room = r.id AND b.color = 'black'
       LEFT JOIN seats w ON w.room = r.id AND w.color = 'white'";

pub(super) async fn follow(
    db: &Client,
    player: &str,
    followed: &str,
    at_ms: u64,
) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO follows (player, followed, at_ms) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        &[&player, &followed, &(at_ms as i64)],
    )
    .await?;
    Ok(())
}

pub(super) async fn unfollow(db: &Client, player: &str, followed: &str) -> Result<(), StoreError> {
    db.execute(
        "DELETE FROM follows WHERE player = $1 AND followed = $2",
        &[&player, &followed],
    )
    .await?;
    Ok(())
}

impl Readers {
    pub(super) async fn follows_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT followed FROM follows WHERE player = $1 ORDER BY at_ms, followed",
                &[&player],
            )
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(super) async fn followed_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameLine>, StoreError> {
        let sql = format!(
            "{LINE} WHERE r.status = 'playing' AND NOT r.private AND r.id IN (
               SELECT s.room FROM seats s JOIN follows f ON f.followed = s.player
               WHERE f.player = $1)
             ORDER BY r.created_ms DESC, r.id LIMIT $2"
        );
        self.lines(&sql, &[&player, &(limit as i64)]).await
    }

    pub(super) async fn head_to_head(
        &self,
        a: &str,
        b: &str,
        limit: usize,
    ) -> Result<Vec<GameLine>, StoreError> {
        let sql = format!(
            "{LINE} WHERE NOT r.private AND ((b.player = $1 AND w.player = $2)
                                          OR (b.player = $2 AND w.player = $1))
             ORDER BY r.created_ms DESC, r.id LIMIT $3"
        );
        self.lines(&sql, &[&a, &b, &(limit as i64)]).await
    }

    async fn lines(
        &self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<GameLine>, StoreError> {
        let db = self.client().await?;
        let rows = db.query(sql, params).await?;
        rows.iter().map(game_line).collect()
    }
}

/// One [`GameLine`] from a row of the columns a player's page and the lists above select.
pub(super) fn game_line(r: &tokio_postgres::Row) -> Result<GameLine, StoreError> {
    let status: String = r.try_get(2)?;
    let result: Option<String> = r.try_get(3)?;
    Ok(GameLine {
        room: r.try_get(0)?,
        game: serde_json::from_str(r.try_get(1)?)?,
        status: parse_status(&status),
        result: result.as_deref().map(serde_json::from_str).transpose()?,
        rated: r.try_get(4)?,
        created_ms: r.try_get::<_, i64>(5)? as u64,
        black: r.try_get(6)?,
        white: r.try_get(7)?,
        black_player: r.try_get(8)?,
        white_player: r.try_get(9)?,
    })
}
