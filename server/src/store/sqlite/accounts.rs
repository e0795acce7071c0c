//! The SQLite store's accounts, sign-in tokens and ratings: their writes (run by the writer
//! thread, inside its transaction) and their reads (on a read connection). A rated room's
//! ratings are settled in the same transaction as the change that ends it, so a game is never
//! stored over without what it did to the ratings, nor rated twice.

use rusqlite::{params, Connection, OptionalExtension};

use game_core::protocol::{ClockSpec, GameResult, RatingOutcome};
use game_core::{Color, GameSpec};

use crate::accounts::ratings::{self, Rating, SeatRating, Settlement};
use crate::store::error::StoreError;
use crate::store::records::{
    name_key, LeaderRow, PlayerPage, RatingPoint, StoredAccount, StoredRating,
};
use crate::store::text::parse_color;

/// The tables of accounts, extra tokens and ratings (the rooms' `rated` and `unrated` columns
/// are added by the migration).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS accounts (
  player TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
  password_hash TEXT, bot INTEGER NOT NULL, created_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY, player TEXT NOT NULL, made_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
  player TEXT NOT NULL, key TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,
  volatility REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, key));
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(key, rating);
CREATE TABLE IF NOT EXISTS rating_changes (
  room TEXT NOT NULL, color TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
  opponent TEXT NOT NULL, key TEXT NOT NULL, before REAL NOT NULL, after REAL NOT NULL,
  rd REAL NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (room, color));
CREATE INDEX IF NOT EXISTS rating_changes_player ON rating_changes(player, at_ms);
";

/// A new account, checked against the names and the player's own account first (the
/// writer's transaction holds the write lock: nothing comes in between).
pub(super) fn insert_account(db: &Connection, account: &StoredAccount) -> Result<(), StoreError> {
    let key = name_key(&account.name);
    // The player's own account first, as PostgreSQL answers.
    let has: bool = db
        .prepare_cached("SELECT 1 FROM accounts WHERE player = ?1")?
        .exists([&account.player])?;
    if has {
        return Err(StoreError::HasAccount);
    }
    let taken: Option<String> = db
        .prepare_cached("SELECT player FROM accounts WHERE name_key = ?1")?
        .query_row([&key], |r| r.get(0))
        .optional()?;
    if taken.is_some() {
        return Err(StoreError::NameTaken(account.name.clone()));
    }
    db.prepare_cached(
        "INSERT INTO accounts (player, name, name_key, password_hash, bot, created_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        account.player,
        account.name,
        key,
        account.password_hash,
        account.bot,
        account.created_ms as i64
    ])?;
    // The player's name is the account's from now on.
    db.prepare_cached("UPDATE players SET name = ?2 WHERE id = ?1")?
        .execute(params![account.player, account.name])?;
    Ok(())
}

pub(super) fn insert_token(
    db: &Connection,
    token_hash: &str,
    player: &str,
    now_ms: u64,
) -> Result<(), StoreError> {
    db.prepare_cached("INSERT INTO tokens (token_hash, player, made_ms) VALUES (?1, ?2, ?3)")?
        .execute(params![token_hash, player, now_ms as i64])?;
    Ok(())
}

/// Forgets a token; a player's first token (kept in its row) becomes `replacement`, a hash
/// of nothing anyone holds.
pub(super) fn drop_token(
    db: &Connection,
    token_hash: &str,
    replacement: &str,
) -> Result<(), StoreError> {
    db.prepare_cached("DELETE FROM tokens WHERE token_hash = ?1")?
        .execute([token_hash])?;
    db.prepare_cached("UPDATE players SET token_hash = ?2 WHERE token_hash = ?1")?
        .execute(params![token_hash, replacement])?;
    Ok(())
}

fn stored_rating(
    db: &Connection,
    player: &str,
    key: &str,
) -> Result<Option<(Rating, u64)>, StoreError> {
    Ok(db
        .prepare_cached(
            "SELECT rating, rd, volatility, games FROM ratings WHERE player = ?1 AND key = ?2",
        )?
        .query_row([player, key], |r| {
            Ok((
                Rating {
                    rating: r.get(0)?,
                    rd: r.get(1)?,
                    volatility: r.get(2)?,
                },
                r.get::<_, i64>(3)? as u64,
            ))
        })
        .optional()?)
}

/// Settles the ratings of `room`, which has just ended with `result`, if it is rated and both
/// seats are accounts: the new ratings, the changes with the game, or why it was not rated.
pub(super) fn settle_rated(
    db: &Connection,
    room: &str,
    result: &GameResult,
    now_ms: u64,
) -> Result<(), StoreError> {
    // A room already settled (an end stored twice) is not rated again.
    type Head = (bool, String, String, bool, Option<String>);
    let head: Option<Head> = db
        .prepare_cached(
            "SELECT rated, game, opening,
                    unrated IS NOT NULL OR EXISTS (SELECT 1 FROM rating_changes WHERE room = ?1),
                    clock
             FROM rooms WHERE id = ?1",
        )?
        .query_row([room], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .optional()?;
    let Some((true, game, opening, false, clock)) = head else {
        return Ok(());
    };
    let spec: GameSpec = serde_json::from_str(&game)?;
    let opening: Vec<String> = serde_json::from_str(&opening)?;
    let clock: Option<ClockSpec> = clock.as_deref().map(serde_json::from_str).transpose()?;
    let correspondence = clock.is_some_and(|c| c.is_correspondence());
    let Some((key, black_score)) =
        ratings::settlement_key(&spec, !opening.is_empty(), correspondence, result)
    else {
        return Ok(());
    };
    let mut seats = Vec::with_capacity(2);
    for color in [Color::Black, Color::White] {
        let seat: Option<(String, String, bool)> = db
            .prepare_cached(
                "SELECT s.player, s.name, a.bot FROM seats s JOIN accounts a ON a.player = s.player
                 WHERE s.room = ?1 AND s.color = ?2",
            )?
            .query_row([room, color.as_str()], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        let Some((player, name, bot)) = seat else {
            return Ok(());
        };
        let stored = stored_rating(db, &player, key)?;
        seats.push(SeatRating {
            player,
            name,
            bot,
            rating: stored.map_or(Rating::start(bot), |s| s.0),
            games: stored.map_or(0, |s| s.1),
        });
    }
    let [black, white]: [SeatRating; 2] = seats.try_into().expect("two seats");
    let repeats = match ratings::farming_pair(&black, &white) {
        Some((person, bot)) => db
            .prepare_cached(
                "SELECT count(*) FROM rating_changes
                 WHERE player = ?1 AND opponent = ?2 AND at_ms > ?3",
            )?
            .query_row(
                params![
                    person,
                    bot,
                    now_ms.saturating_sub(ratings::REPEAT_WINDOW_MS) as i64
                ],
                |r| r.get::<_, i64>(0),
            )? as u32,
        None => 0,
    };
    write_settlement(
        db,
        room,
        &ratings::settlement(&black, &white, key, black_score, repeats),
        now_ms,
    )
}

/// Writes what settling `room` decided (see `ratings::settlement`).
fn write_settlement(
    db: &Connection,
    room: &str,
    settlement: &Settlement,
    now_ms: u64,
) -> Result<(), StoreError> {
    let (rows, changes) = match settlement {
        Settlement::Unrated(reason) => {
            db.prepare_cached("UPDATE rooms SET unrated = ?2 WHERE id = ?1")?
                .execute(params![room, reason])?;
            return Ok(());
        }
        Settlement::Rated { ratings, changes } => (ratings, changes),
    };
    for row in rows.iter() {
        db.prepare_cached(
            "INSERT INTO ratings (player, key, rating, rd, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(player, key) DO UPDATE SET rating = excluded.rating, rd = excluded.rd,
               volatility = excluded.volatility, games = excluded.games",
        )?
        .execute(params![
            row.player,
            row.key,
            row.rating.rating,
            row.rating.rd,
            row.rating.volatility,
            row.games as i64
        ])?;
    }
    for c in changes.iter() {
        // A room is settled once (checked above): a change already there stays.
        db.prepare_cached(
            "INSERT INTO rating_changes
               (room, color, player, name, opponent, key, before, after, rd, at_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(room, color) DO NOTHING",
        )?
        .execute(params![
            room,
            c.color.as_str(),
            c.player,
            c.name,
            c.opponent,
            c.key,
            c.before,
            c.after,
            c.rd,
            now_ms as i64
        ])?;
    }
    Ok(())
}

/// What a finished rated room did to the ratings (`None` while it is not rated or not over).
pub(super) fn rating_outcome(
    db: &Connection,
    room: &str,
) -> Result<Option<RatingOutcome>, StoreError> {
    let unrated: Option<String> = db
        .prepare_cached("SELECT unrated FROM rooms WHERE id = ?1")?
        .query_row([room], |r| r.get(0))
        .optional()?
        .flatten();
    let mut stmt = db.prepare_cached(
        "SELECT color, player, name, before, after, rd FROM rating_changes WHERE room = ?1",
    )?;
    let rows = stmt.query_map([room], |r| {
        let color: String = r.get(0)?;
        Ok(ratings::change(
            parse_color(&color),
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        ))
    })?;
    Ok(ratings::outcome(unrated, rows.collect::<Result<_, _>>()?))
}

fn account(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredAccount> {
    Ok(StoredAccount {
        player: row.get(0)?,
        name: row.get(1)?,
        password_hash: row.get(2)?,
        bot: row.get(3)?,
        created_ms: row.get::<_, i64>(4)? as u64,
    })
}

const ACCOUNT_COLUMNS: &str = "player, name, password_hash, bot, created_ms";

pub(super) fn account_by_name(
    db: &Connection,
    name: &str,
) -> Result<Option<StoredAccount>, StoreError> {
    Ok(db
        .prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?1"
        ))?
        .query_row([name_key(name)], account)
        .optional()?)
}

pub(super) fn account_of(
    db: &Connection,
    player: &str,
) -> Result<Option<StoredAccount>, StoreError> {
    Ok(db
        .prepare_cached(&format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE player = ?1"
        ))?
        .query_row([player], account)
        .optional()?)
}

pub(super) fn load_accounts(db: &Connection) -> Result<Vec<StoredAccount>, StoreError> {
    let mut stmt = db.prepare(&format!("SELECT {ACCOUNT_COLUMNS} FROM accounts"))?;
    let rows = stmt.query_map([], account)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The best `limit` ratings under `key` of people or of bots: established ratings first.
pub(super) fn leaderboard(
    db: &Connection,
    key: &str,
    bots: bool,
    limit: usize,
) -> Result<Vec<LeaderRow>, StoreError> {
    let mut stmt = db.prepare_cached(
        "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN accounts a ON a.player = r.player
         WHERE r.key = ?1 AND a.bot = ?2
         ORDER BY (r.rd > ?3), r.rating DESC, a.name_key LIMIT ?4",
    )?;
    let rows = stmt.query_map(
        params![key, bots, ratings::PROVISIONAL_RD, limit as i64],
        |r| {
            Ok(LeaderRow {
                name: r.get(0)?,
                rating: r.get(1)?,
                rd: r.get(2)?,
                games: r.get::<_, i64>(3)? as u64,
            })
        },
    )?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// An account's page: its ratings, its rating after each rated game (oldest first), and its
/// newest `games` games.
pub(super) fn player_page(
    db: &Connection,
    name: &str,
    games: usize,
) -> Result<Option<PlayerPage>, StoreError> {
    let Some(account) = account_by_name(db, name)? else {
        return Ok(None);
    };
    let mut stmt = db.prepare_cached(
        "SELECT key, rating, rd, volatility, games FROM ratings WHERE player = ?1 ORDER BY key",
    )?;
    let ratings = stmt
        .query_map([&account.player], |r| {
            Ok(StoredRating {
                key: r.get(0)?,
                rating: r.get(1)?,
                rd: r.get(2)?,
                volatility: r.get(3)?,
                games: r.get::<_, i64>(4)? as u64,
            })
        })?
        .collect::<Result<_, _>>()?;
    let mut stmt = db.prepare_cached(
        "SELECT key, at_ms, after, room FROM rating_changes WHERE player = ?1 ORDER BY at_ms, room",
    )?;
    let history = stmt
        .query_map([&account.player], |r| {
            Ok(RatingPoint {
                key: r.get(0)?,
                at_ms: r.get::<_, i64>(1)? as u64,
                rating: r.get(2)?,
                room: r.get(3)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let lines = super::people::games_of(db, &account.player, games)?;
    Ok(Some(PlayerPage {
        player: account.player,
        name: account.name,
        bot: account.bot,
        ratings,
        history,
        games: lines,
    }))
}
