//! The hall's coordination ([`Coordination`]): one interface, two implementations. Alone
//! ([`Alone`]), everything is in this process. In cluster mode several nodes share one
//! PostgreSQL store and one Redis ([`Cluster`]): each room is owned by one node at a time
//! through a lease in Redis ([`lease`]) whose fence the store checks on every write of the
//! room; nodes reach each other's connections and rooms over Redis pub/sub ([`bus`]). This
//! module is the transport: which requests and frames travel, and what a node does with those
//! that arrive, is the relay's (`room::relay`), above the rooms.
//!
//! Beside the leases (`ownership`, rooms' and tournament directors') and the bus: each node's
//! presence and incarnation (`presence`), its connections as the others see them (`conns`),
//! the seeks of quick pairing ([`seeks`]), and the hall's counts, each the Redis side of an
//! interface that also runs in one process: the sign-in guard (`signin`), new players per
//! address (`budgets`), and open rooms and reviews asked per player and per address
//! (`open_rooms`, each count a [`tally::Tally`]).

mod alone;
mod budgets;
pub mod bus;
mod conns;
mod coordination;
pub mod lease;
mod open_rooms;
mod ownership;
mod presence;
pub mod seeks;
mod signin;
pub mod tally;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, RedisResult};
use tokio::sync::{mpsc, Notify};
use tokio::time::Instant;

pub use alone::{Alone, ALONE};
pub use bus::{Arrival, Bus, BusInbox, BusMsg};
pub use coordination::{Coordination, HallCounts};
pub use lease::{Claim, Lease};
pub use open_rooms::{reviews as review_tally, OPEN_ROOMS};
pub use ownership::director_lease;
pub use presence::PeerNews;
pub use seeks::SeekEntry;
pub use tally::Tally;

use crate::metrics::Metrics;

/// Longest node id: it names Redis channels and lease values.
const MAX_NODE_ID: usize = 64;

/// What cluster mode needs: where Redis is, the name of this node, how long a lease lasts.
#[derive(Clone, Debug)]
pub struct ClusterSettings {
    /// `redis://`, or `rediss://` for TLS (the server's certificate checked against the
    /// system's CAs, or `redis_ca`'s).
    pub redis_url: String,
    /// A CA file (PEM) that the Redis server's certificate must chain to.
    pub redis_ca: Option<std::path::PathBuf>,
    pub node_id: String,
    /// A node that stops renewing loses its rooms after this long; another node then takes
    /// them over at their next request.
    pub lease: Duration,
}

/// Why cluster mode could not start or a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("node id {0:?}: 1 to {MAX_NODE_ID} letters, digits, '-' or '_'")]
    NodeId(String),
    #[error("Redis URL: {0}")]
    Url(String),
    #[error("cannot reach Redis: {0}")]
    Unreachable(String),
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
    #[error("Redis did not answer in time")]
    Timeout,
}

/// Cheap-clone handle to this node's part of the cluster.
#[derive(Clone)]
pub struct Cluster(Arc<Inner>);

struct Inner {
    node: Arc<str>,
    /// A number this node holds in Redis while it lives: connection ids are unique in the
    /// cluster.
    node_no: u64,
    redis: ConnectionManager,
    /// Kept for its subscriptions (dropping it would end them).
    _subscriber: ConnectionManager,
    lease_time: Duration,
    bus: Bus,
    /// Rooms this node owns, with their leases.
    owned: DashMap<String, Lease>,
    claims: ownership::ClaimLocks,
    /// When the last renewal round that Redis answered was sent, in ms since `epoch`.
    renewed_ms: AtomicU64,
    /// Before this (ms since `epoch`) no other node is taken for gone: this node found its
    /// own presence key missing, so Redis lost its data (or this node was away), and the
    /// others may not have set theirs again yet.
    judge_peers_from_ms: AtomicU64,
    /// Woken when this node's presence key was found missing (see `presence_was_lost`).
    presence_lost: Notify,
    epoch: Instant,
    /// Rooms of other nodes in this node's lobby, with their node.
    listed: DashMap<String, Arc<str>>,
    /// This node's connections by id, for frames that arrive over the bus, with the player
    /// each said it is.
    conns: conns::ConnTable,
    /// The seek each connection of this node left waiting in Redis (game-and-clock key,
    /// entry, player), to withdraw when it closes. One that was paired meanwhile is stale:
    /// withdrawing it finds nothing.
    seeking: DashMap<u64, (String, String, String)>,
    /// Analysis workers connected to this node, and to each other node as they said.
    local_workers: std::sync::atomic::AtomicU32,
    workers: DashMap<Arc<str>, u32>,
    /// Woken when some node's seeks changed: the lobby counts them again.
    seeks_changed: Notify,
    metrics: Metrics,
}

/// The Redis client: over TLS with the CA file `ca` when one is named (the URL must then be
/// `rediss://`), else as the URL says.
fn redis_client(
    info: redis::ConnectionInfo,
    ca: Option<&std::path::Path>,
) -> Result<redis::Client, ClusterError> {
    let url_error = |e: redis::RedisError| ClusterError::Url(e.to_string());
    let Some(ca) = ca else {
        return redis::Client::open(info).map_err(url_error);
    };
    if !matches!(info.addr(), redis::ConnectionAddr::TcpTls { .. }) {
        return Err(ClusterError::Url(
            "a Redis CA file is for TLS: the URL must be rediss://".to_string(),
        ));
    }
    let pem = std::fs::read(ca)
        .map_err(|e| ClusterError::Url(format!("Redis CA file {}: {e}", ca.display())))?;
    let certificates = redis::TlsCertificates {
        client_tls: None,
        root_cert: Some(pem),
    };
    redis::Client::build_with_tls(info, certificates).map_err(url_error)
}

impl Cluster {
    /// Connects to Redis, takes a node number and subscribes to this node's channels. The
    /// returned inbox is what arrives on them.
    pub async fn open(
        settings: &ClusterSettings,
        metrics: Metrics,
    ) -> Result<(Cluster, BusInbox), ClusterError> {
        let node = settings.node_id.as_str();
        let node_ok = !node.is_empty()
            && node.len() <= MAX_NODE_ID
            && node
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !node_ok {
            return Err(ClusterError::NodeId(node.to_string()));
        }
        let info = settings
            .redis_url
            .as_str()
            .into_connection_info()
            .map_err(|e| ClusterError::Url(e.to_string()))?;
        // RESP3: pushed messages share the connection, and the manager subscribes again by
        // itself after a reconnect.
        let resp3 = info
            .redis_settings()
            .clone()
            .set_protocol(ProtocolVersion::RESP3);
        let client = redis_client(info.set_redis_settings(resp3), settings.redis_ca.as_deref())?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(bus::REDIS_TIMEOUT))
            .set_response_timeout(Some(bus::REDIS_TIMEOUT))
            .set_max_delay(Duration::from_secs(1));
        let unreachable = |e: redis::RedisError| ClusterError::Unreachable(e.to_string());
        let mut redis = ConnectionManager::new_with_config(client.clone(), config.clone())
            .await
            .map_err(unreachable)?;
        let node_no = presence::take_node_number(&mut redis, node, settings.lease).await?;
        let (push_tx, push_rx) = mpsc::channel::<PushInfo>(bus::INBOX);
        let dropped = metrics.clone();
        let push = move |info: PushInfo| {
            if push_tx.try_send(info).is_err() {
                dropped.bus_dropped();
            }
            Ok::<(), ()>(())
        };
        // This connection sends nothing once subscribed, so only the manager's reconnection,
        // started when it sees the connection drop, ever brings it back. By default that gives
        // up after six tries (3.5 to 7 s), and nothing would start another: a Redis away for
        // longer left the node deaf to the bus for good, every request passed to it and every
        // frame for its connections lost. It tries without end here, a second or two apart.
        let subscriber_config = config
            .set_push_sender(push)
            .set_automatic_resubscription()
            .set_number_of_retries(usize::MAX);
        // Bounded at start all the same: a node that cannot subscribe says so.
        let subscribed = tokio::time::timeout(bus::REDIS_TIMEOUT * 2, async {
            let mut subscriber = ConnectionManager::new_with_config(client, subscriber_config)
                .await
                .map_err(unreachable)?;
            // `bus::CHANNELS` counts these: the inbox knows them all restored by it.
            subscriber.subscribe(bus::node_channel(node)).await?;
            subscriber.subscribe(bus::EVERYONE).await?;
            Ok::<_, ClusterError>(subscriber)
        });
        let subscriber = subscribed.await.map_err(|_| ClusterError::Timeout)??;
        // A frame older than the margin within which this node is sure of its leases may be
        // older than what the room's next owner has sent since.
        let bus = Bus::start(redis.clone(), metrics.clone(), settings.lease * 2 / 3);
        let epoch = Instant::now();
        let cluster = Cluster(Arc::new(Inner {
            node: Arc::from(node),
            node_no,
            redis,
            _subscriber: subscriber,
            lease_time: settings.lease,
            bus,
            owned: DashMap::new(),
            claims: ownership::ClaimLocks::default(),
            renewed_ms: AtomicU64::new(0),
            judge_peers_from_ms: AtomicU64::new(0),
            presence_lost: Notify::new(),
            epoch,
            conns: conns::ConnTable::default(),
            listed: DashMap::new(),
            seeking: DashMap::new(),
            seeks_changed: Notify::new(),
            local_workers: std::sync::atomic::AtomicU32::new(0),
            workers: DashMap::new(),
            metrics,
        }));
        // Seeks an earlier run of this node left in Redis wait for connections that are
        // gone.
        if let Err(e) = cluster
            .call(async |r| seeks::count(r, Some(node)).await)
            .await
        {
            tracing::warn!(error = %e, "dropping this node's old seeks failed");
        }
        cluster.bus().send_everyone(&cluster.started_msg());
        tracing::info!(node, number = node_no, "joined the cluster");
        Ok((
            cluster,
            BusInbox {
                rx: push_rx,
                deaf: false,
            },
        ))
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        &self.0.node
    }

    /// The first connection id of this node: ids never meet another node's, nor an
    /// earlier run's of this node.
    #[must_use]
    pub fn first_conn_id(&self) -> u64 {
        (self.0.node_no << bus::CONN_ID_BITS) + 1
    }

    /// Word that this run of this node is here (it has just started, or hears the bus again).
    #[must_use]
    pub fn started_msg(&self) -> BusMsg {
        BusMsg::NodeStarted {
            node: self.node().to_string(),
            number: self.0.node_no,
        }
    }

    #[must_use]
    pub fn bus(&self) -> &Bus {
        &self.0.bus
    }

    #[must_use]
    pub fn lease_time(&self) -> Duration {
        self.0.lease_time
    }

    /// A Redis call, bounded and timed.
    async fn call<T>(
        &self,
        f: impl AsyncFnOnce(&mut ConnectionManager) -> RedisResult<T>,
    ) -> Result<T, ClusterError> {
        let mut redis = self.0.redis.clone();
        let started = Instant::now();
        let answer = tokio::time::timeout(bus::REDIS_TIMEOUT, f(&mut redis)).await;
        self.0.metrics.redis_call(started.elapsed());
        match answer {
            Ok(result) => Ok(result?),
            Err(_) => Err(ClusterError::Timeout),
        }
    }
}
