//! The PostgreSQL backend, for a store shared beyond one machine: the same records and the same
//! promises as SQLite. One writer task owns one connection and commits queued writes together,
//! answering each only once committed (`writer`); reads go through a few connections of their
//! own (`reads`); the schema is created and migrated at open (`schema`). TLS as the URL's
//! `sslmode` and `sslrootcert` say (`tls`).

mod accounts;
mod explorer;
mod moderation;
mod people;
mod puzzles;
mod reads;
mod schema;
mod statements;
mod tls;
mod tournaments;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio_postgres::config::Host;
use tokio_postgres::{Client, Config, NoTls};

use tls::Tls;

use super::error::{postgres_message, StoreError};
use super::job::{self, Job};
use super::records::{
    LeaderRow, PlayerPage, StoredAccount, StoredChat, StoredPlayer, StoredRematch, StoredRoom,
    StoredTournament, Write,
};
use crate::metrics::Metrics;

/// Writes queued before their senders wait.
const WRITE_QUEUE: usize = 4096;

/// How long connecting may take when the URL does not say (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How soon an idle connection is probed, how often, and how many probes may go unanswered:
/// a server gone without a word (a network cut) is noticed in about 25 s, not the system's
/// default two hours.
const KEEPALIVE_IDLE: Duration = Duration::from_secs(10);
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(5);
const KEEPALIVE_RETRIES: u32 = 3;

/// The connections' `application_name` when the URL names none (the writer's is
/// [`writer::WRITER_APPLICATION_NAME`], so that an operator can tell it in
/// `pg_stat_activity`).
const APPLICATION_NAME: &str = "kibitz";

/// How long sent data may stay unacknowledged before the connection is given up (a query
/// sent into a network cut), rather than the system's retransmissions for a quarter hour.
const TCP_USER_TIMEOUT: Duration = Duration::from_secs(30);

/// Cheap-clone handle to the writer task and the read connections.
#[derive(Clone)]
pub struct PostgresStore {
    jobs: mpsc::Sender<Job>,
    reads: Arc<reads::Readers>,
}

/// Where and how to connect: the driver's settings and the TLS to use.
#[derive(Clone)]
pub(super) struct Dial {
    pub config: Config,
    tls: Tls,
}

/// Reads a store URL: `postgres://` or `postgresql://` only, with the defaults above where it
/// does not set its own.
fn parse_url(url: &str) -> Result<Dial, StoreError> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err(StoreError::Url(
            "expected a postgres:// or postgresql:// URL".to_string(),
        ));
    }
    let (url, tls) = tls::from_url(url)?;
    let url = url.as_str();
    // The driver's message alone: the URL may hold a password.
    let mut config: Config = url
        .parse()
        .map_err(|e| StoreError::Url(postgres_message(&e)))?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    if config.get_application_name().is_none() {
        config.application_name(APPLICATION_NAME);
    }
    // The driver cannot tell a default from a URL's own value here: read the URL's options.
    if !url_sets(url, "keepalives_idle") {
        config.keepalives_idle(KEEPALIVE_IDLE);
    }
    if config.get_keepalives_interval().is_none() {
        config.keepalives_interval(KEEPALIVE_INTERVAL);
    }
    if config.get_keepalives_retries().is_none() {
        config.keepalives_retries(KEEPALIVE_RETRIES);
    }
    if config.get_tcp_user_timeout().is_none() {
        config.tcp_user_timeout(TCP_USER_TIMEOUT);
    }
    if let Tls::On(mode, _) = &tls {
        config.ssl_mode(*mode);
    }
    Ok(Dial { config, tls })
}

/// Whether the URL's options (after `?`) set `option`.
fn url_sets(url: &str, option: &str) -> bool {
    url.split_once('?').is_some_and(|(_, options)| {
        options
            .split('&')
            .any(|pair| pair.split('=').next() == Some(option))
    })
}

/// Where `config` points, without user or password (for messages and logs).
pub(super) fn describe_target(config: &Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        Some(Host::Unix(dir)) => dir.display().to_string(),
        None => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let db = config.get_dbname().or(config.get_user()).unwrap_or("");
    format!("{host}:{port}/{db}")
}

/// Opens one connection, its I/O driven by a task of its own until it closes.
pub(super) async fn connect(dial: &Dial) -> Result<Client, tokio_postgres::Error> {
    let target = describe_target(&dial.config);
    let ended = move |e: tokio_postgres::Error| {
        tracing::warn!(store = %target, error = %postgres_message(&e),
                       "PostgreSQL connection ended");
    };
    let client = match &dial.tls {
        Tls::Off => {
            let (client, connection) = dial.config.connect(NoTls).await?;
            tokio::spawn(async move { connection.await.unwrap_or_else(ended) });
            client
        }
        Tls::On(_, tls) => {
            let (client, connection) = dial.config.connect(tls.clone()).await?;
            tokio::spawn(async move { connection.await.unwrap_or_else(ended) });
            client
        }
    };
    Ok(client)
}

/// One connection to the database at `url`, its schema made or migrated, and where it points
/// (without user or password): `kibitz store copy`'s end of a PostgreSQL store.
pub(in crate::store) async fn open_migrated(url: &str) -> Result<(Client, String), StoreError> {
    let dial = parse_url(url)?;
    let target = describe_target(&dial.config);
    let mut client = connect(&dial)
        .await
        .map_err(|e| StoreError::Unreachable(target.clone(), postgres_message(&e)))?;
    schema::migrate(&mut client).await?;
    Ok((client, target))
}

impl PostgresStore {
    /// Connects to the database at `url`, creates or migrates its schema and starts the
    /// writer. A bad URL, an unreachable server or a database of a newer schema is a clear
    /// error.
    pub async fn open(url: &str, metrics: Metrics) -> Result<PostgresStore, StoreError> {
        let dial = parse_url(url)?;
        let unreachable = |e: tokio_postgres::Error| {
            StoreError::Unreachable(describe_target(&dial.config), postgres_message(&e))
        };
        let mut client = connect(&dial).await.map_err(unreachable)?;
        schema::migrate(&mut client).await?;
        drop(client);
        let link = writer::Link::open(&dial).await.map_err(unreachable)?;
        let (jobs, queued) = mpsc::channel(WRITE_QUEUE);
        tokio::spawn(writer::run(dial.clone(), link, queued, metrics));
        Ok(PostgresStore {
            jobs,
            reads: Arc::new(reads::Readers::new(dial)),
        })
    }

    /// Writes durably: returns once the write is committed.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        job::submit(&self.jobs, write).await
    }

    pub async fn load_players(&self) -> Result<Vec<StoredPlayer>, StoreError> {
        self.reads.load_players().await
    }

    pub async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<StoredPlayer>, StoreError> {
        self.reads.player_by_token(token_hash).await
    }

    pub async fn load_unfinished(&self) -> Result<Vec<StoredRoom>, StoreError> {
        self.reads.load_unfinished().await
    }

    pub async fn read_room(&self, id: &str) -> Result<Option<StoredRoom>, StoreError> {
        self.reads.read_room(id).await
    }

    pub async fn follows_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        self.reads.follows_of(player).await
    }

    pub async fn followed_games(
        &self,
        player: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::GameLine>, StoreError> {
        self.reads.followed_games(player, limit).await
    }

    pub async fn head_to_head(
        &self,
        a: &str,
        b: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::GameLine>, StoreError> {
        self.reads.head_to_head(a, b, limit).await
    }

    pub async fn reporters_of(&self, player: &str, since_ms: u64) -> Result<u64, StoreError> {
        self.reads.reporters_of(player, since_ms).await
    }

    pub async fn sanctions(
        &self,
        now_ms: u64,
    ) -> Result<Vec<crate::store::StoredSanction>, StoreError> {
        self.reads.sanctions(now_ms).await
    }

    pub async fn moderation_log(
        &self,
        limit: usize,
    ) -> Result<Vec<crate::store::StoredAction>, StoreError> {
        self.reads.moderation_log(limit).await
    }

    pub async fn unfinished_of(&self, player: &str) -> Result<Vec<StoredRoom>, StoreError> {
        self.reads.unfinished_of(player).await
    }

    pub async fn unfinished_ids(&self) -> Result<Vec<String>, StoreError> {
        self.reads.unfinished_ids().await
    }

    pub async fn read_rematch(&self, id: &str) -> Result<Option<StoredRematch>, StoreError> {
        self.reads.read_rematch(id).await
    }

    pub async fn stored_players(&self, ids: Vec<String>) -> Result<Vec<String>, StoreError> {
        self.reads.stored_players(ids).await
    }

    pub async fn read_review(
        &self,
        id: &str,
    ) -> Result<Option<game_core::protocol::Review>, StoreError> {
        self.reads.read_review(id).await
    }

    pub async fn account_by_name(&self, name: &str) -> Result<Option<StoredAccount>, StoreError> {
        self.reads.account_by_name(name).await
    }

    pub async fn account_of(&self, player: &str) -> Result<Option<StoredAccount>, StoreError> {
        self.reads.account_of(player).await
    }

    pub async fn load_accounts(&self) -> Result<Vec<StoredAccount>, StoreError> {
        self.reads.load_accounts().await
    }

    pub async fn leaderboard(
        &self,
        key: &str,
        bots: bool,
        limit: usize,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        self.reads.leaderboard(key, bots, limit).await
    }

    pub async fn explorer(
        &self,
        variant: &str,
        position: &str,
        buckets: Vec<i64>,
        limit: usize,
    ) -> Result<Vec<crate::explorer::ExplorerMove>, StoreError> {
        self.reads
            .explorer(variant, position, &buckets, limit)
            .await
    }

    pub async fn unindexed_ended(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        self.reads.unindexed_ended(limit).await
    }

    pub async fn puzzle_ratings(
        &self,
        variant: &str,
    ) -> Result<Vec<(String, crate::store::StoredGlicko)>, StoreError> {
        self.reads.puzzle_ratings(variant).await
    }

    pub async fn puzzle_player(
        &self,
        player: &str,
    ) -> Result<Vec<(String, crate::store::StoredGlicko)>, StoreError> {
        self.reads.puzzle_player(player).await
    }

    pub async fn is_moderator(&self, player: &str) -> Result<bool, StoreError> {
        self.reads.is_moderator(player).await
    }

    pub async fn reports(
        &self,
        status: &str,
        limit: usize,
    ) -> Result<Vec<crate::store::StoredReport>, StoreError> {
        self.reads.reports(status, limit).await
    }

    pub async fn reports_since(&self, reporter: &str, since_ms: u64) -> Result<u64, StoreError> {
        self.reads.reports_since(reporter, since_ms).await
    }

    pub async fn blocks_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        self.reads.blocks_of(player).await
    }

    pub async fn hall_puzzles_since(
        &self,
        since_ms: u64,
    ) -> Result<Vec<crate::store::HallPuzzleRow>, StoreError> {
        self.reads.hall_puzzles_since(since_ms).await
    }

    pub async fn puzzles_tried(
        &self,
        player: &str,
        variant: &str,
    ) -> Result<Vec<String>, StoreError> {
        self.reads.puzzles_tried(player, variant).await
    }

    pub async fn player_page(
        &self,
        name: &str,
        games: usize,
    ) -> Result<Option<PlayerPage>, StoreError> {
        self.reads.player_page(name, games).await
    }

    pub async fn read_chat(&self, id: &str) -> Result<Vec<StoredChat>, StoreError> {
        self.reads.read_chat(id).await
    }

    pub async fn read_tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        self.reads.read_tournament(id).await
    }

    pub async fn list_tournaments(
        &self,
        limit: usize,
    ) -> Result<Vec<StoredTournament>, StoreError> {
        self.reads.list_tournaments(limit).await
    }

    pub async fn running_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        self.reads.running_tournaments().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_urls_own_keepalive_idle_is_kept_and_otherwise_defaulted() {
        let config = parse_url("postgres://db.example/kibitz?keepalives_idle=3600")
            .unwrap()
            .config;
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(3600));
        let config = parse_url("postgres://db.example/kibitz?keepalives_idle=5")
            .unwrap()
            .config;
        assert_eq!(config.get_keepalives_idle(), Duration::from_secs(5));
        let config = parse_url("postgres://db.example/kibitz").unwrap().config;
        assert_eq!(config.get_keepalives_idle(), KEEPALIVE_IDLE);
        assert_eq!(config.get_application_name(), Some(APPLICATION_NAME));
    }
}
