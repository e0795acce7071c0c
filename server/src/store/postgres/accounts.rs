//! PostgreSQL's accounts, sign-in tokens and ratings: the writes (inside the writer's
//! transaction, as the SQLite backend makes them, row for row) and the reads. A rated room is
//! settled in the transaction that ends it, with both players' account rows locked, so that
//! two nodes ending two games of one player at once rate them one after the other.

use game_core::protocol::{ClockSpec, GameResult};
use game_core::GameSpec;
use tokio_postgres::{Client, Row};

use super::reads::Readers;
use crate::accounts::ratings::{self, Rating, SeatRating, Settlement};
use crate::store::error::StoreError;
use crate::store::records::{
    name_key, LeaderRow, PlayerPage, RatingPoint, StoredAccount, StoredRating,
};
use crate::store::text::now_ms;

/// Version 4 of the schema: accounts, extra tokens, ratings and their changes, and whether a
/// room is rated (and why one was not after all).
pub(super) const V4: &str = "
ALTER TABLE rooms ADD COLUMN rated BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE rooms ADD COLUMN unrated TEXT;
CREATE TABLE accounts (
  player TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT, bot BOOLEAN NOT NULL, created_ms BIGINT NOT NULL);
CREATE TABLE tokens (
  token_hash TEXT PRIMARY KEY, player TEXT NOT NULL, made_ms BIGINT NOT NULL);
CREATE TABLE ratings (
  player TEXT NOT NULL, key TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,
  rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL,
  PRIMARY KEY (player, key));
CREATE INDEX ratings_board ON ratings(key, rating);
CREATE TABLE rating_changes (
  room TEXT NOT NULL, color TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
  opponent TEXT NOT NULL, key TEXT NOT NULL, before DOUBLE PRECISION NOT NULL,
  after DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, at_ms BIGINT NOT NULL,
  PRIMARY KEY (room, color));
CREATE INDEX rating_changes_player ON rating_changes(player, at_ms);
";

pub(super) async fn insert_account(db: &Client, account: &StoredAccount) -> Result<(), StoreError> {
    let key = name_key(&account.name);
    let inserted = db
        .execute(
            "INSERT INTO accounts (player, name, name_key, password_hash, bot, created_ms)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            &[
                &account.player,
                &account.name,
                &key,
                &account.password_hash,
                &account.bot,
                &(account.created_ms as i64),
            ],
        )
        .await?;
    if inserted == 0 {
        let has = db
            .query_opt(
                "SELECT 1 FROM accounts WHERE player = $1",
                &[&account.player],
            )
            .await?;
        return Err(if has.is_some() {
            StoreError::HasAccount
        } else {
            StoreError::NameTaken(account.name.clone())
        });
    }
    db.execute(
        "UPDATE players SET name = $2 WHERE id = $1",
        &[&account.player, &account.name],
    )
    .await?;
    Ok(())
}

pub(super) async fn insert_token(
    db: &Client,
    token_hash: &str,
    player: &str,
) -> Result<(), StoreError> {
    db.execute(
        "INSERT INTO tokens (token_hash, player, made_ms) VALUES ($1, $2, $3)",
        &[&token_hash, &player, &now_ms()],
    )
    .await?;
    Ok(())
}

pub(super) async fn drop_token(
    db: &Client,
    token_hash: &str,
    replacement: &str,
) -> Result<(), StoreError> {
    db.execute("DELETE FROM tokens WHERE token_hash = $1", &[&token_hash])
        .await?;
    db.execute(
        "UPDATE players SET token_hash = $2 WHERE token_hash = $1",
        &[&token_hash, &replacement],
    )
    .await?;
    Ok(())
}

/// Settles a rated room that has just ended with `result` (see the SQLite backend's
/// `settle_rated`: the same rules, the same rows).
pub(super) async fn settle_rated(
    db: &Client,
    room: &str,
    result: &GameResult,
) -> Result<(), StoreError> {
    let Some(head) = db
        .query_opt(
            "SELECT rated, game, opening,
                    unrated IS NOT NULL OR EXISTS (SELECT 1 FROM rating_changes WHERE room = $1),
                    clock
             FROM rooms WHERE id = $1",
            &[&room],
        )
        .await?
    else {
        return Ok(());
    };
    // A room already settled (an end stored twice) is not rated again.
    if !head.try_get::<_, bool>(0)? || head.try_get::<_, bool>(3)? {
        return Ok(());
    }
    let spec: GameSpec = serde_json::from_str(head.try_get(1)?)?;
    let opening: Vec<String> = serde_json::from_str(head.try_get(2)?)?;
    let clock: Option<&str> = head.try_get(4)?;
    let clock: Option<ClockSpec> = clock.map(serde_json::from_str).transpose()?;
    let correspondence = clock.is_some_and(|c| c.is_correspondence());
    let Some((key, black_score)) =
        ratings::settlement_key(&spec, !opening.is_empty(), correspondence, result)
    else {
        return Ok(());
    };
    let rows = db
        .query(
            "SELECT s.color, s.player, s.name, a.bot FROM seats s
               JOIN accounts a ON a.player = s.player
             WHERE s.room = $1 ORDER BY a.player FOR UPDATE OF a",
            &[&room],
        )
        .await?;
    let mut seats: [Option<SeatRating>; 2] = [None, None];
    for row in &rows {
        let color: String = row.try_get(0)?;
        let player: String = row.try_get(1)?;
        let bot: bool = row.try_get(3)?;
        let stored = db
            .query_opt(
                "SELECT rating, rd, volatility, games FROM ratings WHERE player = $1 AND key = $2",
                &[&player, &key],
            )
            .await?;
        let (rating, games) = match stored {
            Some(r) => (
                Rating {
                    rating: r.try_get(0)?,
                    rd: r.try_get(1)?,
                    volatility: r.try_get(2)?,
                },
                r.try_get::<_, i64>(3)? as u64,
            ),
            None => (Rating::start(bot), 0),
        };
        let i = usize::from(color == "white");
        seats[i] = Some(SeatRating {
            player,
            name: row.try_get(2)?,
            bot,
            rating,
            games,
        });
    }
    let [Some(black), Some(white)] = seats else {
        return Ok(());
    };
    let now = now_ms();
    let repeats = match ratings::farming_pair(&black, &white) {
        Some((person, bot)) => {
            let since = now - ratings::REPEAT_WINDOW_MS as i64;
            db.query_one(
                "SELECT count(*) FROM rating_changes
                 WHERE player = $1 AND opponent = $2 AND at_ms > $3",
                &[&person, &bot, &since],
            )
            .await?
            .try_get::<_, i64>(0)? as u32
        }
        None => 0,
    };
    let settlement = ratings::settlement(&black, &white, key, black_score, repeats);
    write_settlement(db, room, &settlement, now).await
}

/// Writes what settling `room` decided (see `ratings::settlement`).
async fn write_settlement(
    db: &Client,
    room: &str,
    settlement: &Settlement,
    now: i64,
) -> Result<(), StoreError> {
    let (rows, changes) = match settlement {
        Settlement::Unrated(reason) => {
            db.execute(
                "UPDATE rooms SET unrated = $2 WHERE id = $1",
                &[&room, reason],
            )
            .await?;
            return Ok(());
        }
        Settlement::Rated { ratings, changes } => (ratings, changes),
    };
    for row in rows.iter() {
        db.execute(
            "INSERT INTO ratings (player, key, rating, rd, volatility, games)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (player, key) DO UPDATE SET rating = EXCLUDED.rating, rd = EXCLUDED.rd,
               volatility = EXCLUDED.volatility, games = EXCLUDED.games",
            &[
                &row.player,
                &row.key,
                &row.rating.rating,
                &row.rating.rd,
                &row.rating.volatility,
                &(row.games as i64),
            ],
        )
        .await?;
    }
    for c in changes.iter() {
        // A room is settled once (checked above): a change already there stays.
        db.execute(
            "INSERT INTO rating_changes
               (room, color, player, name, opponent, key, before, after, rd, at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (room, color) DO NOTHING",
            &[
                &room,
                &c.color.as_str(),
                &c.player,
                &c.name,
                &c.opponent,
                &c.key,
                &c.before,
                &c.after,
                &c.rd,
                &now,
            ],
        )
        .await?;
    }
    Ok(())
}

const ACCOUNT_COLUMNS: &str = "player, name, password_hash, bot, created_ms";

fn account(row: &Row) -> Result<StoredAccount, StoreError> {
    Ok(StoredAccount {
        player: row.try_get(0)?,
        name: row.try_get(1)?,
        password_hash: row.try_get(2)?,
        bot: row.try_get(3)?,
        created_ms: row.try_get::<_, i64>(4)? as u64,
    })
}

impl Readers {
    pub(super) async fn account_by_name(
        &self,
        name: &str,
    ) -> Result<Option<StoredAccount>, StoreError> {
        let db = self.client().await?;
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = $1");
        let row = db.query_opt(sql.as_str(), &[&name_key(name)]).await?;
        row.as_ref().map(account).transpose()
    }

    pub(super) async fn account_of(
        &self,
        player: &str,
    ) -> Result<Option<StoredAccount>, StoreError> {
        let db = self.client().await?;
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE player = $1");
        let row = db.query_opt(sql.as_str(), &[&player]).await?;
        row.as_ref().map(account).transpose()
    }

    pub(super) async fn load_accounts(&self) -> Result<Vec<StoredAccount>, StoreError> {
        let db = self.client().await?;
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts");
        let rows = db.query(sql.as_str(), &[]).await?;
        rows.iter().map(account).collect()
    }

    pub(super) async fn leaderboard(
        &self,
        key: &str,
        bots: bool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        let db = self.client().await?;
        let rows = db
            .query(
                "SELECT a.name, r.rating, r.rd, r.games FROM ratings r
                   JOIN accounts a ON a.player = r.player
                 WHERE r.key = $1 AND a.bot = $2
                 ORDER BY (r.rd > $3), r.rating DESC, a.name_key LIMIT $4",
                &[&key, &bots, &ratings::PROVISIONAL_RD, &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(LeaderRow {
                    name: r.try_get(0)?,
                    rating: r.try_get(1)?,
                    rd: r.try_get(2)?,
                    games: r.try_get::<_, i64>(3)? as u64,
                })
            })
            .collect()
    }

    pub(super) async fn player_page(
        &self,
        name: &str,
        games: usize,
    ) -> Result<Option<PlayerPage>, StoreError> {
        let Some(account) = self.account_by_name(name).await? else {
            return Ok(None);
        };
        let db = self.client().await?;
        let player: &(dyn tokio_postgres::types::ToSql + Sync) = &account.player;
        let limit = games as i64;
        let by_player = [player];
        let page_of = [player, &limit];
        let (ratings_rows, history_rows, game_rows) = tokio::try_join!(
            db.query(
                "SELECT key, rating, rd, volatility, games FROM ratings WHERE player = $1
                 ORDER BY key",
                &by_player,
            ),
            db.query(
                "SELECT key, at_ms, after, room FROM rating_changes WHERE player = $1
                 ORDER BY at_ms, room",
                &by_player,
            ),
            db.query(
                "SELECT r.id, r.game, r.status, r.result, r.rated, r.created_ms,
                        b.name, w.name, b.player, w.player
                 FROM seats s JOIN rooms r ON r.id = s.room
                   LEFT JOIN seats b ON b.room = r.id AND b.color = 'black'
                   LEFT JOIN seats w ON w.room = r.id AND w.color = 'white'
                 WHERE s.player = $1 AND NOT r.private
                 ORDER BY r.created_ms DESC, r.id LIMIT $2",
                &page_of,
            ),
        )?;
        let mut ratings = Vec::new();
        for r in &ratings_rows {
            ratings.push(StoredRating {
                key: r.try_get(0)?,
                rating: r.try_get(1)?,
                rd: r.try_get(2)?,
                volatility: r.try_get(3)?,
                games: r.try_get::<_, i64>(4)? as u64,
            });
        }
        let mut history = Vec::new();
        for r in &history_rows {
            history.push(RatingPoint {
                key: r.try_get(0)?,
                at_ms: r.try_get::<_, i64>(1)? as u64,
                rating: r.try_get(2)?,
                room: r.try_get(3)?,
            });
        }
        let lines = game_rows
            .iter()
            .map(super::people::game_line)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(PlayerPage {
            player: account.player,
            name: account.name,
            bot: account.bot,
            ratings,
            history,
            games: lines,
        }))
    }
}
