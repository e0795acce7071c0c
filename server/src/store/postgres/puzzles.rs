//! The PostgreSQL store's puzzle ratings (see the SQLite backend's `puzzles.rs`: the same
//! rows, the same rule — only an account's first attempt at a puzzle is stored and rated) and
//! the puzzles made from the hall's own games.

use tokio_postgres::{Client, Row};

use super::reads::Readers;
use crate::store::error::StoreError;
use game_core::puzzle::Puzzle;

use crate::store::records::{HallPuzzleRow, PuzzleAttempt, StoredGlicko};

/// Version 7: puzzle ratings, players' puzzle ratings and their attempts.
pub(super) const V7: &str = "
CREATE TABLE puzzle_ratings (
  puzzle TEXT PRIMARY KEY, variant TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
  rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, plays BIGINT NOT NULL);
CREATE INDEX puzzle_ratings_variant ON puzzle_ratings(variant);
CREATE TABLE puzzle_players (
  player TEXT NOT NULL, variant TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
  rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, plays BIGINT NOT NULL,
  PRIMARY KEY (player, variant));
CREATE TABLE puzzle_attempts (
  player TEXT NOT NULL, puzzle TEXT NOT NULL, variant TEXT NOT NULL, solved BOOLEAN NOT NULL,
  at_ms BIGINT NOT NULL, PRIMARY KEY (player, puzzle));
";

/// Version 8: the puzzles made from the hall's own games.
pub(super) const V8: &str = "
CREATE TABLE hall_puzzles (
  id TEXT PRIMARY KEY, variant TEXT NOT NULL, made_ms BIGINT NOT NULL, puzzle TEXT NOT NULL);
CREATE INDEX hall_puzzles_made ON hall_puzzles(made_ms);
";

/// Stores a puzzle of the hall's games, unless one of its id is stored already.
pub(super) async fn add_hall(db: &Client, p: &Puzzle, made_ms: u64) -> Result<(), StoreError> {
    let text = serde_json::to_string(p)?;
    db.execute(
        "INSERT INTO hall_puzzles (id, variant, made_ms, puzzle) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
        &[&p.id, &p.variant, &(made_ms as i64), &text],
    )
    .await?;
    Ok(())
}

/// Stores an attempt and both new ratings, if it is the player's first at the puzzle.
pub(super) async fn record_attempt(db: &Client, a: &PuzzleAttempt) -> Result<(), StoreError> {
    let first = db
        .execute(
            "INSERT INTO puzzle_attempts (player, puzzle, variant, solved, at_ms)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            &[
                &a.player,
                &a.puzzle,
                &a.variant,
                &a.solved,
                &(a.at_ms as i64),
            ],
        )
        .await?;
    if first == 0 {
        return Ok(());
    }
    let (p, q) = (&a.player_after, &a.puzzle_after);
    db.execute(
        "INSERT INTO puzzle_players (player, variant, rating, rd, volatility, plays)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (player, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
           volatility = excluded.volatility, plays = excluded.plays",
        &[
            &a.player,
            &a.variant,
            &p.rating,
            &p.rd,
            &p.volatility,
            &p.plays,
        ],
    )
    .await?;
    db.execute(
        "INSERT INTO puzzle_ratings (puzzle, variant, rating, rd, volatility, plays)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (puzzle) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
           volatility = excluded.volatility, plays = excluded.plays",
        &[
            &a.puzzle,
            &a.variant,
            &q.rating,
            &q.rd,
            &q.volatility,
            &q.plays,
        ],
    )
    .await?;
    Ok(())
}

fn keyed(r: &Row) -> Result<(String, StoredGlicko), StoreError> {
    Ok((
        r.try_get(0)?,
        StoredGlicko {
            rating: r.try_get(1)?,
            rd: r.try_get(2)?,
            volatility: r.try_get(3)?,
            plays: r.try_get(4)?,
        },
    ))
}

impl Readers {
    pub(super) async fn hall_puzzles_since(
        &self,
        since_ms: u64,
    ) -> Result<Vec<HallPuzzleRow>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT made_ms, puzzle FROM hall_puzzles WHERE made_ms >= $1 ORDER BY made_ms, id",
                &[&(since_ms as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let made: i64 = r.try_get(0)?;
                let text: String = r.try_get(1)?;
                Ok((made as u64, serde_json::from_str(&text)?))
            })
            .collect()
    }

    pub(super) async fn puzzle_ratings(
        &self,
        variant: &str,
    ) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT puzzle, rating, rd, volatility, plays FROM puzzle_ratings
                 WHERE variant = $1",
                &[&variant],
            )
            .await?;
        rows.iter().map(keyed).collect()
    }

    pub(super) async fn puzzle_player(
        &self,
        player: &str,
    ) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT variant, rating, rd, volatility, plays FROM puzzle_players
                 WHERE player = $1 ORDER BY variant",
                &[&player],
            )
            .await?;
        rows.iter().map(keyed).collect()
    }

    pub(super) async fn puzzles_tried(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT puzzle FROM puzzle_attempts WHERE player = $1 AND variant = $2",
                &[&player, &variant],
            )
            .await?;
        rows.iter().map(|r| Ok(r.try_get(0)?)).collect()
    }
}
