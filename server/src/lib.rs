//! The Kibitz server: the referee every client talks to. It seats players in rooms, enforces
//! the rules through `game-core`, runs the clocks, stores every game in SQLite, and lets
//! spectators watch live — all over the WebSocket protocol of `docs/protocol.md`.
//!
//! # Layout
//! - [`config`]: settings and limits.
//! - [`http`]: the axum router: `/ws`, `/`, `/healthz`, `/metrics`, `/api/games/...`.
//! - [`session`]: one connection: frame rules, rate limits, parsing, routing.
//! - [`conn`]: a connection's bounded outgoing queue as others see it.
//! - [`hub`]: shared handles: rooms, players, tokens, bots, seeks.
//! - [`room`]: one task per room, the room's only writer.
//! - [`clock`]: Fischer and per-move clocks.
//! - [`lobby`]: the lobby task and its lists.
//! - [`store`]: the SQLite store with its single writer thread.
//! - [`metrics`]: Prometheus metrics.
//! - [`token`]: tokens, their hashes, ids.
//! - [`web`]: the embedded web client.

pub mod clock;
pub mod config;
pub mod conn;
pub mod http;
pub mod hub;
pub mod lobby;
pub mod metrics;
pub mod room;
pub mod session;
pub mod store;
pub mod token;
pub mod web;

use std::future::Future;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

pub use config::{Config, Limits};

use hub::{Hub, PlayerRecord};
use metrics::Metrics;
use store::{Store, StoreError};

/// How long shutdown waits for connections to send their close frames.
const SESSIONS_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// A server whose store is open and whose unfinished rooms are reloaded, ready to serve.
pub struct Server {
    hub: Arc<Hub>,
    shutdown_tx: watch::Sender<bool>,
    lobby_rx: mpsc::UnboundedReceiver<lobby::LobbyEvent>,
}

impl Server {
    /// Opens the store in `config.data_dir` (a clear error if it cannot be used), loads the
    /// players and reloads every unfinished room.
    pub async fn open(config: Config) -> Result<Server, StoreError> {
        let metrics = Metrics::new();
        let store = Store::open(&config.data_dir, metrics.clone())?;
        let (shutdown_tx, shutdown_rx) = watch::channel(false);
        let (lobby_tx, lobby_rx) = mpsc::unbounded_channel();
        let hub = Arc::new(Hub::new(
            config,
            store.clone(),
            metrics,
            lobby_tx,
            shutdown_rx,
        ));
        for p in store.load_players()? {
            hub.tokens.insert(p.token_hash.clone(), p.id.clone());
            hub.players.insert(
                p.id.clone(),
                PlayerRecord {
                    id: p.id,
                    name: p.name,
                    bot: p.bot,
                },
            );
        }
        let rooms = store.load_unfinished()?;
        let reloaded = rooms.len();
        for room in rooms {
            let id = room.head.id.clone();
            if let Err(e) = room::spawn_room(&hub, room, true) {
                tracing::error!(room = %id, error = %e, "could not reload room");
            }
        }
        tracing::info!(rooms = reloaded, "store opened");
        Ok(Server {
            hub,
            shutdown_tx,
            lobby_rx,
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
        } = self;
        let lobby = tokio::spawn(lobby::run(hub.clone(), lobby_rx));
        let app = http::router(hub.clone());
        let mut stopped = hub.shutdown.clone();
        // Moves are small frames that must go out at once: no Nagle delay.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
            shutdown.await;
            let _ = shutdown_tx.send(true);
        });
        let result = serve.await;
        let _ = stopped.changed().await;
        // Connections end on the shutdown signal; wait (bounded) until each has sent its
        // close 1001, so that the process does not exit under them.
        let _ = tokio::time::timeout(SESSIONS_GRACE, hub.sessions_done()).await;
        let _ = lobby.await;
        hub.store.flush().await;
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
) -> anyhow_free::Result<()> {
    let server = Server::open(config)
        .await
        .map_err(anyhow_free::Error::Store)?;
    server
        .run(listener, shutdown)
        .await
        .map_err(anyhow_free::Error::Io)
}

/// The error type of [`run`].
pub mod anyhow_free {
    /// Why the server could not run.
    #[derive(Debug, thiserror::Error)]
    pub enum Error {
        #[error(transparent)]
        Store(crate::store::StoreError),
        #[error("serving: {0}")]
        Io(std::io::Error),
    }
    pub type Result<T> = std::result::Result<T, Error>;
}
