//! The PostgreSQL store's opening-explorer index (see [`crate::explorer`] and the SQLite
//! backend's `explorer.rs`: the same rows, the same rules).

use game_core::protocol::GameResult;
use game_core::GameSpec;
use tokio_postgres::Client;

use super::reads::Readers;
use crate::explorer::{self, ExplorerMove, Outcome};
use crate::store::error::StoreError;

/// Version 6: the index and the games in it.
pub(super) const V6: &str = "
CREATE TABLE explorer (
  variant TEXT NOT NULL, position TEXT NOT NULL, mv TEXT NOT NULL, bucket BIGINT NOT NULL,
  games BIGINT NOT NULL, black_wins BIGINT NOT NULL, draws BIGINT NOT NULL,
  white_wins BIGINT NOT NULL, rated_players BIGINT NOT NULL,
  rating_sum DOUBLE PRECISION NOT NULL, PRIMARY KEY (variant, position, mv, bucket));
CREATE TABLE explorer_games (room TEXT PRIMARY KEY);
";

/// Indexes `room`, which has just ended with `result`, once (see the SQLite backend's
/// `index_game`: every ended room marked, the kept games' moves indexed).
pub(super) async fn index_game(
    db: &Client,
    room: &str,
    result: Option<&GameResult>,
) -> Result<(), StoreError> {
    let first = db
        .execute(
            "INSERT INTO explorer_games (room) VALUES ($1) ON CONFLICT DO NOTHING",
            &[&room],
        )
        .await?;
    let Some(outcome) = result.and_then(|r| Outcome::of(r.result)) else {
        return Ok(());
    };
    if first == 0 {
        return Ok(());
    }
    let Some(head) = db
        .query_opt("SELECT game, opening FROM rooms WHERE id = $1", &[&room])
        .await?
    else {
        return Ok(());
    };
    let spec: GameSpec = serde_json::from_str(head.try_get(0)?)?;
    let opening: Vec<String> = serde_json::from_str(head.try_get(1)?)?;
    let facts = db
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM seats WHERE room = $1 AND bot),
                    (SELECT count(*) FROM rating_changes WHERE room = $1),
                    (SELECT coalesce(sum(before), 0) FROM rating_changes WHERE room = $1),
                    ARRAY(SELECT mv FROM moves WHERE room = $1 ORDER BY ply LIMIT $2)",
            &[&room, &(explorer::STEPS_READ as i64)],
        )
        .await?;
    let (bot_seated, rated_players, rating_sum, moves): (bool, i64, f64, Vec<String>) = (
        facts.try_get(0)?,
        facts.try_get(1)?,
        facts.try_get(2)?,
        facts.try_get(3)?,
    );
    let bucket = explorer::bucket(rated_players > 0, bot_seated);
    let Some(game) = explorer::indexed_game(&spec, &opening, &moves) else {
        return Ok(());
    };
    let played = explorer::played_from(&game.plain, &game.line);
    let (positions, mvs): (Vec<String>, Vec<String>) =
        played.into_iter().map(|p| (p.position, p.mv)).unzip();
    // One statement for the game's moves: unnest pairs each position with its move.
    db.execute(
        "INSERT INTO explorer (variant, position, mv, bucket, games, black_wins, draws,
                               white_wins, rated_players, rating_sum)
         SELECT $1, p, m, $4, 1, $5, $6, $7, $8, $9 FROM unnest($2::text[], $3::text[]) AS u(p, m)
         ON CONFLICT (variant, position, mv, bucket) DO UPDATE SET
           games = explorer.games + 1,
           black_wins = explorer.black_wins + excluded.black_wins,
           draws = explorer.draws + excluded.draws,
           white_wins = explorer.white_wins + excluded.white_wins,
           rated_players = explorer.rated_players + excluded.rated_players,
           rating_sum = explorer.rating_sum + excluded.rating_sum",
        &[
            &game.variant,
            &positions,
            &mvs,
            &bucket,
            &outcome.black_wins,
            &outcome.draws,
            &outcome.white_wins,
            &rated_players,
            &rating_sum,
        ],
    )
    .await?;
    Ok(())
}

/// Indexes a room that ended before the index existed, with its stored result.
pub(super) async fn index_ended(db: &Client, room: &str) -> Result<(), StoreError> {
    let Some(row) = db
        .query_opt(
            "SELECT result FROM rooms WHERE id = $1 AND status = 'over'",
            &[&room],
        )
        .await?
    else {
        return Ok(());
    };
    let result: Option<GameResult> = row
        .try_get::<_, Option<&str>>(0)?
        .map(serde_json::from_str)
        .transpose()?;
    index_game(db, room, result.as_ref()).await
}

impl Readers {
    /// Up to `limit` finished rooms not yet marked in the index.
    pub(super) async fn unindexed_ended(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT id FROM rooms WHERE status = 'over'
                   AND NOT EXISTS (SELECT 1 FROM explorer_games WHERE room = rooms.id) LIMIT $1",
                &[&(limit as i64)],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }

    /// The moves played from `position` in games of `variant` in `buckets`, the most played
    /// first.
    pub(super) async fn explorer(
        &self,
        variant: &str,
        position: &str,
        buckets: &[i64],
        limit: usize,
    ) -> Result<Vec<ExplorerMove>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT mv, sum(games)::bigint, sum(black_wins)::bigint, sum(draws)::bigint,
                        sum(white_wins)::bigint, sum(rated_players)::bigint, sum(rating_sum)
                 FROM explorer WHERE variant = $1 AND position = $2 AND bucket = ANY($3)
                 GROUP BY mv ORDER BY 2 DESC, mv LIMIT $4",
                &[&variant, &position, &buckets, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(ExplorerMove {
                    mv: r.try_get(0)?,
                    games: r.try_get(1)?,
                    outcome: Outcome {
                        black_wins: r.try_get(2)?,
                        draws: r.try_get(3)?,
                        white_wins: r.try_get(4)?,
                    },
                    rated_players: r.try_get(5)?,
                    rating_sum: r.try_get(6)?,
                })
            })
            .collect()
    }
}
