//! The SQLite store's opening-explorer index (see [`crate::explorer`]): a game indexed as it
//! ends, in the writer's transaction, once (`explorer_games` remembers it); and the look-up.

use rusqlite::{params, Connection, OptionalExtension};

use game_core::protocol::GameResult;
use game_core::GameSpec;

use crate::explorer::{self, ExplorerMove, Outcome};
use crate::store::error::StoreError;

/// The index and the games in it. No rowid: the key is the row.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS explorer (
  variant TEXT NOT NULL, position TEXT NOT NULL, mv TEXT NOT NULL, bucket INTEGER NOT NULL,
  games INTEGER NOT NULL, black_wins INTEGER NOT NULL, draws INTEGER NOT NULL,
  white_wins INTEGER NOT NULL, rated_players INTEGER NOT NULL, rating_sum REAL NOT NULL,
  PRIMARY KEY (variant, position, mv, bucket)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS explorer_games (room TEXT PRIMARY KEY);
";

/// Indexes `room`, which has just ended with `result` (after its ratings were settled), once:
/// every ended room is marked in `explorer_games` (so that the backfill passes it by), and its
/// moves are indexed if it has a result and its game is one the explorer keeps.
pub(super) fn index_game(
    db: &Connection,
    room: &str,
    result: Option<&GameResult>,
) -> Result<(), StoreError> {
    let first = db
        .prepare_cached("INSERT INTO explorer_games (room) VALUES (?1) ON CONFLICT DO NOTHING")?
        .execute([room])?;
    let Some(outcome) = result.and_then(|r| Outcome::of(r.result)) else {
        return Ok(());
    };
    if first == 0 {
        return Ok(());
    }
    let head: Option<(String, String)> = db
        .prepare_cached("SELECT game, opening FROM rooms WHERE id = ?1")?
        .query_row([room], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((game, opening)) = head else {
        return Ok(());
    };
    let spec: GameSpec = serde_json::from_str(&game)?;
    let opening: Vec<String> = serde_json::from_str(&opening)?;
    let bot_seated: bool = db
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM seats WHERE room = ?1 AND bot <> 0)")?
        .query_row([room], |r| r.get(0))?;
    let (rated_players, rating_sum): (i64, f64) = db
        .prepare_cached(
            "SELECT count(*), coalesce(sum(before), 0) FROM rating_changes WHERE room = ?1",
        )?
        .query_row([room], |r| Ok((r.get(0)?, r.get(1)?)))?;
    let moves: Vec<String> = db
        .prepare_cached("SELECT mv FROM moves WHERE room = ?1 ORDER BY ply LIMIT ?2")?
        .query_map(params![room, explorer::STEPS_READ as i64], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let Some(game) = explorer::indexed_game(&spec, &opening, &moves) else {
        return Ok(());
    };
    let bucket = explorer::bucket(rated_players > 0, bot_seated);
    let mut add = db.prepare_cached(
        "INSERT INTO explorer (variant, position, mv, bucket, games, black_wins, draws,
                               white_wins, rated_players, rating_sum)
         VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (variant, position, mv, bucket) DO UPDATE SET
           games = games + 1, black_wins = black_wins + excluded.black_wins,
           draws = draws + excluded.draws, white_wins = white_wins + excluded.white_wins,
           rated_players = rated_players + excluded.rated_players,
           rating_sum = rating_sum + excluded.rating_sum",
    )?;
    for played in explorer::played_from(&game.plain, &game.line) {
        add.execute(params![
            game.variant,
            played.position,
            played.mv,
            bucket,
            outcome.black_wins,
            outcome.draws,
            outcome.white_wins,
            rated_players,
            rating_sum
        ])?;
    }
    Ok(())
}

/// Indexes a room that ended before the index existed (`Write::IndexEnded`), with the
/// result it was stored with.
pub(super) fn index_ended(db: &Connection, room: &str) -> Result<(), StoreError> {
    let result: Option<Option<String>> = db
        .prepare_cached("SELECT result FROM rooms WHERE id = ?1 AND status = 'over'")?
        .query_row([room], |r| r.get(0))
        .optional()?;
    let Some(result) = result else {
        return Ok(());
    };
    let result: Option<GameResult> = result.map(|r| serde_json::from_str(&r)).transpose()?;
    index_game(db, room, result.as_ref())
}

/// Up to `limit` finished rooms not yet marked in the index.
pub(super) fn unindexed(db: &Connection, limit: usize) -> Result<Vec<String>, StoreError> {
    let ids = db
        .prepare_cached(
            "SELECT id FROM rooms WHERE status = 'over'
               AND NOT EXISTS (SELECT 1 FROM explorer_games WHERE room = rooms.id) LIMIT ?1",
        )?
        .query_map([limit as i64], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    Ok(ids)
}

/// The moves played from `position` in games of `variant` in `buckets`, the most played first.
pub(super) fn lookup(
    db: &Connection,
    variant: &str,
    position: &str,
    buckets: &[i64],
    limit: usize,
) -> Result<Vec<ExplorerMove>, StoreError> {
    let buckets: Vec<String> = buckets.iter().map(i64::to_string).collect();
    let sql = format!(
        "SELECT mv, sum(games), sum(black_wins), sum(draws), sum(white_wins),
                sum(rated_players), sum(rating_sum)
         FROM explorer WHERE variant = ?1 AND position = ?2 AND bucket IN ({})
         GROUP BY mv ORDER BY 2 DESC, mv LIMIT ?3",
        buckets.join(", ")
    );
    let rows = db
        .prepare_cached(&sql)?
        .query_map(params![variant, position, limit as i64], |r| {
            Ok(ExplorerMove {
                mv: r.get(0)?,
                games: r.get(1)?,
                outcome: Outcome {
                    black_wins: r.get(2)?,
                    draws: r.get(3)?,
                    white_wins: r.get(4)?,
                },
                rated_players: r.get(5)?,
                rating_sum: r.get(6)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    Ok(rows)
}
