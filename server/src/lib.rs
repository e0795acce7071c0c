//! The Kibitz server: the referee every client talks to. It seats players in rooms, enforces
//! the rules through `game-core`, runs the clocks, stores every game, and lets spectators
//! watch live — all over the WebSocket protocol of `docs/protocol.md`.
//!
//! # Layout
//! From the top (what serves a port) down to the leaves (what everything shares); a module
//! imports only modules below it. The types the hub holds for a layer above it live in that
//! layer's folder (`net::connection`, `net::gate`, `net::listener::Sockets`, `room::handle`,
//! `room::member`, `room::parked`, `lobby::feed`, `lobby::seeks`, `tournament::registry`).
//! - [`net`]: the accept loop, open connections per address, a connection's bounded queue,
//!   and the HTTP routes (`net::http`: `/ws`, `/`, `/healthz`, `/metrics`, `/api/...`, the
//!   embedded web client).
//! - [`tournament`]: round-robin and Swiss tournaments: pairings, the document, scoring, the
//!   director that plays each running one through its rounds, and the registry of those
//!   directed here.
//! - [`session`]: one connection: read loop and frame rules, writer task, `hello`, `create`,
//!   dispatch to rooms, the lobby and reviews.
//! - [`room`]: one task per room (`room::actor`) around the rules of play as plain data
//!   (`room::game`), which propose changes that are stored before they are announced; the
//!   registry that spawns and finds them, the handle others hold, and the hand-over between
//!   nodes.
//! - [`lobby`]: the lobby task and its lists, its feed, the quick-pairing book and pairing,
//!   challenges.
//! - [`moderation`]: players' blocks.
//! - [`review`]: engine reviews of finished games: checking workers' answers, marking moves,
//!   the queue of jobs and workers.
//! - [`housekeeping`]: the periodic sweep: unseen players forgotten, parked members and
//!   per-address counts dropped.
//! - [`hub`]: the shared state: store, metrics, live room handles, players, bots, seeks.
//! - [`bots`]: the connected bots, their capacity and invitations.
//! - [`player_links`]: each player's open connections.
//! - [`accounts`]: accounts, the sign-in guard, known players, and ratings with their one
//!   settlement.
//! - [`cluster`]: the hall's coordination, one interface (`Coordination`) for one node alone
//!   (in this process) or a node of a cluster: room leases with fences in Redis, presence,
//!   the bus between nodes, the pairing book, the hall's counts.
//! - [`store`]: the durable store's interface, its records, and its backends: SQLite and
//!   PostgreSQL.
//! - [`refusal`]: how a refused request is answered (`error`).
//! - [`rate_limit`]: the one rate limiter.
//! - [`clock`]: Fischer, per-move and correspondence clocks; [`hall_time`]: the hall's wall
//!   clock, which a test server may move ahead.
//! - [`config`]: settings and every limit.
//! - [`metrics`]: Prometheus metrics.
//! - [`token`]: tokens, their hashes, ids.

// The module docs are a map of the source and name private parts too: `cargo doc
// --document-private-items` renders those links, and the public docs leave them as text.
#![allow(rustdoc::private_intra_doc_links)]

pub mod accounts;
pub mod bots;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod explorer;
pub mod hall_time;
pub mod housekeeping;
pub mod hub;
pub mod lobby;
pub mod metrics;
pub mod moderation;
pub mod net;
pub mod player_links;
pub mod puzzles;
pub mod rate_limit;
pub mod refusal;
pub mod review;
pub mod room;
pub mod session;
pub mod store;
pub mod token;
pub mod tournament;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use config::{Config, Limits};

use accounts::players::PlayerRecord;
use hub::{Hub, SharedHub};
use lobby::feed::{LobbyFeed, LobbyInbox};
use metrics::Metrics;
use room::change::Moment;
use room::game::RoomGame;
use store::Store;

/// How long shutdown waits for connections to send their close frames.
const SESSIONS_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// A server whose store is open and whose unfinished rooms are reloaded, ready to serve.
pub struct Server {
    hub: SharedHub,
    shutdown_tx: watch::Sender<bool>,
    lobby_rx: LobbyInbox,
    /// What arrives from other nodes (nothing, alone).
    bus_rx: cluster::BusInbox,
    /// In a cluster: reviews other nodes ask this node's workers for.
    asked_rx: tokio::sync::mpsc::Receiver<hub::ReviewAsked>,
}

impl Server {
    /// Opens the store — PostgreSQL at `config.store_url`, else SQLite in `config.data_dir` —
    /// (a clear error if it cannot be used), loads the players, reloads every unfinished
    /// room and resumes the directors of the running tournaments. In cluster mode it joins
    /// the cluster instead of reloading rooms: each room is claimed by whichever node its
    /// next request reaches.
    pub async fn open(config: Config) -> run_error::Result<Server> {
        use run_error::Error;
        let metrics = Metrics::new();
        if config.cluster.is_some() && config.store_url.is_none() {
            return Err(Error::ClusterNeedsPostgres);
        }
        let store = match &config.store_url {
            Some(url) => Store::open_postgres(url, metrics.clone()).await,
            None => Store::open_sqlite(&config.data_dir, metrics.clone()),
        }
        .map_err(Error::Store)?;
        let (coord, bus_rx) = cluster::Coordination::open(config.cluster.as_ref(), metrics.clone())
            .await
            .map_err(Error::Cluster)?;
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let (lobby, lobby_rx) = LobbyFeed::new();
        let (reviews_asked, asked_rx) = tokio::sync::mpsc::channel(hub::REVIEWS_ASKED);
        let hub = Arc::new(Hub::new(
            config,
            store,
            coord,
            metrics,
            lobby,
            reviews_asked,
            shutdown_rx,
        ));
        for account in hub.store().load_accounts().await.map_err(Error::Store)? {
            hub.accounts().insert(&account);
        }
        crate::moderation::sanctions::reload(&hub)
            .await
            .map_err(Error::Store)?;
        let players = hub.store().load_players().await.map_err(Error::Store)?;
        for p in players {
            let record = PlayerRecord {
                account: hub.accounts().of_player(&p.id).is_some(),
                id: p.id,
                name: p.name,
                bot: p.bot,
            };
            hub.players().insert(record, p.token_hash);
        }
        if !hub.coord().resumes_all_at_start() {
            tracing::info!("store opened; rooms are claimed as requests reach them");
            return Ok(Server {
                hub,
                shutdown_tx,
                lobby_rx,
                bus_rx,
                asked_rx,
            });
        }
        let rooms = hub.store().load_unfinished().await.map_err(Error::Store)?;
        let reloaded = rooms.len();
        let now = Moment::now();
        for stored in rooms {
            let id = stored.head.id.clone();
            match RoomGame::restore(stored, hub.config().limits.answers_kept, now) {
                Ok(game) => {
                    room::registry::spawn_room(&hub, game, true, None, None);
                }
                Err(e) => tracing::error!(room = %id, error = %e, "could not reload room"),
            }
        }
        // After the rooms, so that each director finds its games' rooms running. In a
        // cluster the nodes' sweep takes them over (`director::direct_undirected`).
        let tournaments = tournament::director::resume_all(&hub)
            .await
            .map_err(Error::Store)?;
        tracing::info!(rooms = reloaded, tournaments, "store opened");
        Ok(Server {
            hub,
            shutdown_tx,
            lobby_rx,
            bus_rx,
            asked_rx,
        })
    }

    /// Serves on `listener` until `shutdown` completes; then tells every client (close 1001),
    /// stops the rooms and flushes the store.
    pub async fn run(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Server {
            hub,
            shutdown_tx,
            lobby_rx,
            bus_rx,
            asked_rx,
        } = self;
        let lobby = tokio::spawn(lobby::run(hub.clone(), lobby_rx));
        // The same tasks alone and in a cluster: alone, nothing arrives from another node,
        // none is ever gone, no room is unowned and no lease needs renewing.
        tokio::spawn(room::node_tasks::serve_bus(hub.clone(), bus_rx));
        tokio::spawn(room::node_tasks::watch_peers(hub.clone()));
        tokio::spawn(room::node_tasks::rejoin_after_absence(hub.clone()));
        tokio::spawn(lobby::pairing::show_seeks(hub.clone()));
        tokio::spawn(room::node_tasks::claim_orphans(hub.clone()));
        tokio::spawn(tournament::director::direct_undirected(hub.clone()));
        tokio::spawn(session::reviews::serve_asked(hub.clone(), asked_rx));
        let coord = hub.coord().clone();
        tokio::spawn(coord.renew_leases(hub.store().clone(), hub.shutdown().clone()));
        let sweep = tokio::spawn(housekeeping::run(hub.clone()));
        tokio::spawn(explorer::backfill::run(
            hub.store().clone(),
            hub.shutdown().clone(),
        ));
        let app = net::http::router(hub.clone());
        let mut stopped = hub.shutdown().clone();
        // The accept loop's rules; moves are small frames that must go out at once, so it
        // also turns the Nagle delay off.
        let listener = crate::net::listener::GuardedListener::new(listener, hub.sockets().clone());
        let serve = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<crate::net::listener::Peer>(),
        )
        .with_graceful_shutdown(async move {
            shutdown.await;
            let _ = shutdown_tx.send(true);
        });
        let result = serve.await;
        let _ = stopped.changed().await;
        // Connections end on the shutdown signal; wait (bounded) until each has sent its
        // close 1001, so that the process does not exit under them.
        let _ = tokio::time::timeout(SESSIONS_GRACE, hub.sessions_done()).await;
        let _ = lobby.await;
        let _ = sweep.await;
        hub.store().flush().await;
        tracing::info!("server stopped");
        result
    }
}

/// Opens the store and serves on an already-bound listener until `shutdown` completes.
/// Tests bind port 0 and call this in-process.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> run_error::Result<()> {
    let server = Server::open(config).await?;
    server
        .run(listener, shutdown)
        .await
        .map_err(run_error::Error::Io)
}

/// The error type of [`run`].
pub mod run_error {
    /// Why the server could not run.
    #[derive(Debug, thiserror::Error)]
    pub enum Error {
        #[error(transparent)]
        Store(crate::store::StoreError),
        #[error(transparent)]
        Cluster(crate::cluster::ClusterError),
        #[error("cluster mode needs a PostgreSQL store (--store postgres://...)")]
        ClusterNeedsPostgres,
        #[error("serving: {0}")]
        Io(std::io::Error),
    }
    pub type Result<T> = std::result::Result<T, Error>;
}
