//! The durable store behind one interface: records in, records out ([`records`]), whatever
//! keeps them. Rooms and the HTTP routes speak only to [`Store`]; its backends are SQLite
//! ([`sqlite`], a file in the data directory: the default) and PostgreSQL ([`postgres`], a
//! database that servers on several machines can share). Every write is answered only once it
//! is durable, so a room announces an event only once it is stored.

pub mod copy;
pub mod error;
mod fence;
mod job;
pub mod postgres;
pub mod records;
pub mod sqlite;
mod text;

use std::path::Path;

pub use error::StoreError;
pub use records::{
    name_key, GameLine, HallPuzzleRow, LeaderRow, PlayerPage, PuzzleAttempt, RatingPoint,
    RoomChange, StoredAccount, StoredAction, StoredChat, StoredGlicko, StoredMove, StoredPlayer,
    StoredRating, StoredRematch, StoredReport, StoredRoom, StoredRoomHead, StoredSanction,
    StoredSeat, StoredTournament, Write,
};

use crate::metrics::Metrics;

/// Cheap-clone handle to the store, over its backends.
#[derive(Clone)]
pub enum Store {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PostgresStore),
}

impl Store {
    /// Opens (creating if needed) the SQLite store `kibitz.db` in `dir`.
    pub fn open_sqlite(dir: &Path, metrics: Metrics) -> Result<Store, StoreError> {
        sqlite::SqliteStore::open(dir, metrics).map(Store::Sqlite)
    }

    /// Opens the PostgreSQL store at `url` (`postgres://` or `postgresql://`), creating or
    /// migrating its tables.
    pub async fn open_postgres(url: &str, metrics: Metrics) -> Result<Store, StoreError> {
        postgres::PostgresStore::open(url, metrics)
            .await
            .map(Store::Postgres)
    }

    /// Writes durably, all of `write` or nothing: returns once it is committed. A write the
    /// store's rules refuse comes back as that refusal ([`StoreError::NoSuchRoom`],
    /// [`StoreError::Fenced`]), having stored nothing.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.write(write).await,
            Store::Postgres(s) => s.write(write).await,
        }
    }

    /// Waits until every write queued so far is committed (for shutdown).
    pub async fn flush(&self) {
        let _ = self.write(Write::Barrier).await;
    }

    /// Every player, for token lookups after a restart.
    pub async fn load_players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load_players().await,
            Store::Postgres(s) => s.load_players().await,
        }
    }

    /// The player whose token hashes to `token_hash`, if one is stored (a token issued by
    /// another server sharing the store).
    pub async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<StoredPlayer>, StoreError> {
        match self {
            Store::Sqlite(s) => s.player_by_token(token_hash).await,
            Store::Postgres(s) => s.player_by_token(token_hash).await,
        }
    }

    /// Every room that is not over, to be reloaded at start.
    pub async fn load_unfinished(&self) -> Result<Vec<StoredRoom>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load_unfinished().await,
            Store::Postgres(s) => s.load_unfinished().await,
        }
    }

    /// The rooms that are not over in which `player` holds a seat.
    pub async fn unfinished_of(&self, player: &str) -> Result<Vec<StoredRoom>, StoreError> {
        match self {
            Store::Sqlite(s) => s.unfinished_of(player).await,
            Store::Postgres(s) => s.unfinished_of(player).await,
        }
    }

    /// The ids of the rooms that are not over (in a cluster, to find those no node owns).
    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.unfinished_ids().await,
            Store::Postgres(s) => s.unfinished_ids().await,
        }
    }

    /// One room with its seats and moves.
    pub async fn read_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        match self {
            Store::Sqlite(s) => s.read_room(id).await,
            Store::Postgres(s) => s.read_room(id).await,
        }
    }

    /// The rematch link and asks of a room (`None` for a room the store does not know).
    pub async fn read_rematch(&self, id: &str) -> Result<Option<StoredRematch>, StoreError> {
        match self {
            Store::Sqlite(s) => s.read_rematch(id).await,
            Store::Postgres(s) => s.read_rematch(id).await,
        }
    }

    /// Which of these players the store still knows.
    pub async fn stored_players(&self, ids: Vec<String>) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.stored_players(ids).await,
            Store::Postgres(s) => s.stored_players(ids).await,
        }
    }

    /// The engine review of a room, if one was made.
    pub async fn read_review(
        &self,
        id: &str,
    ) -> Result<Option<game_core::protocol::Review>, StoreError> {
        match self {
            Store::Sqlite(s) => s.read_review(id).await,
            Store::Postgres(s) => s.read_review(id).await,
        }
    }

    /// The account whose name is `name` (compared case-insensitively).
    pub async fn account_by_name(&self, name: &str) -> Result<Option<StoredAccount>, StoreError> {
        match self {
            Store::Sqlite(s) => s.account_by_name(name).await,
            Store::Postgres(s) => s.account_by_name(name).await,
        }
    }

    /// The account of a player, if it has one.
    pub async fn account_of(&self, player: &str) -> Result<Option<StoredAccount>, StoreError> {
        match self {
            Store::Sqlite(s) => s.account_of(player).await,
            Store::Postgres(s) => s.account_of(player).await,
        }
    }

    /// Every account (their names are kept in memory: a guest may not take one).
    pub async fn load_accounts(&self) -> Result<Vec<StoredAccount>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load_accounts().await,
            Store::Postgres(s) => s.load_accounts().await,
        }
    }

    /// The best `limit` of people (or of bots) under a rating key, established ratings first.
    pub async fn leaderboard(
        &self,
        key: &str,
        bots: bool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.leaderboard(key, bots, limit).await,
            Store::Postgres(s) => s.leaderboard(key, bots, limit).await,
        }
    }

    /// The opening explorer's look-up: the moves played from `position` (a key of
    /// [`crate::explorer::position_key`]) in finished games of `variant` in `buckets`, the
    /// most played first, at most `limit`.
    pub async fn explorer(
        &self,
        variant: &str,
        position: &str,
        buckets: Vec<i64>,
        limit: usize,
    ) -> Result<Vec<crate::explorer::ExplorerMove>, StoreError> {
        match self {
            Store::Sqlite(s) => s.explorer(variant, position, buckets, limit).await,
            Store::Postgres(s) => s.explorer(variant, position, buckets, limit).await,
        }
    }

    /// Up to `limit` finished rooms the explorer's index has not seen (they ended before it
    /// existed): what [`Write::IndexEnded`] takes.
    pub async fn unindexed_ended(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.unindexed_ended(limit).await,
            Store::Postgres(s) => s.unindexed_ended(limit).await,
        }
    }

    /// The stored ratings of the puzzles of `variant` that have been attempted, by id.
    pub async fn puzzle_ratings(
        &self,
        variant: &str,
    ) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
        match self {
            Store::Sqlite(s) => s.puzzle_ratings(variant).await,
            Store::Postgres(s) => s.puzzle_ratings(variant).await,
        }
    }

    /// A player's puzzle ratings, by variant.
    pub async fn puzzle_player(
        &self,
        player: &str,
    ) -> Result<Vec<(String, StoredGlicko)>, StoreError> {
        match self {
            Store::Sqlite(s) => s.puzzle_player(player).await,
            Store::Postgres(s) => s.puzzle_player(player).await,
        }
    }

    /// Whether `player` is a moderator.
    pub async fn is_moderator(&self, player: &str) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.is_moderator(player).await,
            Store::Postgres(s) => s.is_moderator(player).await,
        }
    }

    /// Reports of `status` (`open`), newest first, at most `limit`.
    pub async fn reports(
        &self,
        status: &str,
        limit: usize,
    ) -> Result<Vec<StoredReport>, StoreError> {
        match self {
            Store::Sqlite(s) => s.reports(status, limit).await,
            Store::Postgres(s) => s.reports(status, limit).await,
        }
    }

    /// How many reports `reporter` made since `since_ms`.
    /// The moderators' sanctions in force at `now_ms`.
    pub async fn sanctions(&self, now_ms: u64) -> Result<Vec<StoredSanction>, StoreError> {
        match self {
            Store::Sqlite(s) => s.sanctions(now_ms).await,
            Store::Postgres(s) => s.sanctions(now_ms).await,
        }
    }

    /// The moderators' audit log, newest first.
    pub async fn moderation_log(&self, limit: usize) -> Result<Vec<StoredAction>, StoreError> {
        match self {
            Store::Sqlite(s) => s.moderation_log(limit).await,
            Store::Postgres(s) => s.moderation_log(limit).await,
        }
    }

    /// Whom `player` follows, oldest first.
    pub async fn follows_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.follows_of(player).await,
            Store::Postgres(s) => s.follows_of(player).await,
        }
    }

    /// The public games in play of the players `player` follows, newest first.
    pub async fn followed_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<GameLine>, StoreError> {
        match self {
            Store::Sqlite(s) => s.followed_games(player, limit).await,
            Store::Postgres(s) => s.followed_games(player, limit).await,
        }
    }

    /// The public games between players `a` and `b`, newest first.
    pub async fn head_to_head(
        &self,
        a: &str,
        b: &str,
        limit: usize,
    ) -> Result<Vec<GameLine>, StoreError> {
        match self {
            Store::Sqlite(s) => s.head_to_head(a, b, limit).await,
            Store::Postgres(s) => s.head_to_head(a, b, limit).await,
        }
    }

    /// How many players have reported `player` since `since_ms`.
    pub async fn reporters_of(&self, player: &str, since_ms: u64) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.reporters_of(player, since_ms).await,
            Store::Postgres(s) => s.reporters_of(player, since_ms).await,
        }
    }

    pub async fn reports_since(&self, reporter: &str, since_ms: u64) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.reports_since(reporter, since_ms).await,
            Store::Postgres(s) => s.reports_since(reporter, since_ms).await,
        }
    }

    /// Whom `player` has blocked, oldest first.
    pub async fn blocks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocks_of(player).await,
            Store::Postgres(s) => s.blocks_of(player).await,
        }
    }

    /// The puzzles of the hall's games stored at or after `since_ms`, oldest first.
    pub async fn hall_puzzles_since(
        &self,
        since_ms: u64,
    ) -> Result<Vec<HallPuzzleRow>, StoreError> {
        match self {
            Store::Sqlite(s) => s.hall_puzzles_since(since_ms).await,
            Store::Postgres(s) => s.hall_puzzles_since(since_ms).await,
        }
    }

    /// The puzzles of `variant` a player has attempted.
    pub async fn puzzles_tried(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.puzzles_tried(player, variant).await,
            Store::Postgres(s) => s.puzzles_tried(player, variant).await,
        }
    }

    /// An account's page (`None` for a name no account has), with its newest `games` games.
    pub async fn player_page(
        &self,
        name: &str,
        games: usize,
    ) -> Result<Option<PlayerPage>, StoreError> {
        match self {
            Store::Sqlite(s) => s.player_page(name, games).await,
            Store::Postgres(s) => s.player_page(name, games).await,
        }
    }

    /// The chat of a room, oldest first.
    pub async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        match self {
            Store::Sqlite(s) => s.read_chat(id).await,
            Store::Postgres(s) => s.read_chat(id).await,
        }
    }

    /// One tournament's document.
    pub async fn read_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        match self {
            Store::Sqlite(s) => s.read_tournament(id).await,
            Store::Postgres(s) => s.read_tournament(id).await,
        }
    }

    /// The newest `limit` tournaments, newest first.
    pub async fn list_tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        match self {
            Store::Sqlite(s) => s.list_tournaments(limit).await,
            Store::Postgres(s) => s.list_tournaments(limit).await,
        }
    }

    /// Every tournament whose status is `running` (their directors resume at start).
    pub async fn running_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        match self {
            Store::Sqlite(s) => s.running_tournaments().await,
            Store::Postgres(s) => s.running_tournaments().await,
        }
    }
}
