//! Prometheus metrics (`GET /metrics`): connections (open and refused), rooms by status,
//! moves, messages in and out, errors by code, move latency (frame received → broadcast),
//! store write latency and failed store writes, hall puzzle candidates; in cluster mode rooms owned, requests
//! forwarded, takeovers, dropped bus messages and Redis latency.

use std::sync::Arc;
use std::time::Duration;

use game_core::protocol::RoomStatus;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

type Labels = Vec<(&'static str, String)>;

struct Inner {
    registry: Registry,
    connections: Gauge,
    connections_refused: Counter,
    sockets: Gauge,
    sockets_shed: Family<Labels, Counter>,
    players: Gauge,
    rooms: Family<Labels, Gauge>,
    moves: Counter,
    messages_in: Counter,
    messages_out: Counter,
    errors: Family<Labels, Counter>,
    move_latency: Histogram,
    store_write: Histogram,
    store_batch: Histogram,
    store_failures: Counter,
    store_wal_bytes: Gauge,
    store_wal_restarts: Counter,
    cluster_rooms_owned: Gauge,
    cluster_forwarded: Counter,
    cluster_takeovers: Counter,
    cluster_nodes_gone: Counter,
    cluster_bus_dropped: Counter,
    cluster_stale_frames: Counter,
    redis_call: Histogram,
    puzzle_candidates: Family<Labels, Counter>,
}

/// Cheap-clone handle to the server's metrics. The metric types are atomics, so updates need
/// no lock; the registry is only read when `/metrics` is scraped.
#[derive(Clone)]
pub struct Metrics(Arc<Inner>);

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    #[must_use]
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("kibitz");
        let connections = Gauge::default();
        registry.register(
            "connections",
            "Open WebSocket connections",
            connections.clone(),
        );
        let connections_refused = Counter::default();
        registry.register(
            "connections_refused",
            "WebSocket upgrades refused: too many connections from one address",
            connections_refused.clone(),
        );
        let sockets = Gauge::default();
        registry.register(
            "sockets",
            "Open sockets: WebSockets, HTTP and handshakes",
            sockets.clone(),
        );
        let sockets_shed = Family::<Labels, Counter>::default();
        registry.register(
            "sockets_shed",
            "Sockets closed before a request: timeout, evicted, address, full",
            sockets_shed.clone(),
        );
        let players = Gauge::default();
        registry.register(
            "players",
            "Players known in memory (counted at each sweep)",
            players.clone(),
        );
        let rooms = Family::<Labels, Gauge>::default();
        registry.register("rooms", "Rooms in memory by status", rooms.clone());
        let moves = Counter::default();
        registry.register("moves", "Moves played (passes included)", moves.clone());
        let messages_in = Counter::default();
        registry.register(
            "messages_in",
            "Client messages received",
            messages_in.clone(),
        );
        let messages_out = Counter::default();
        registry.register("messages_out", "Server messages sent", messages_out.clone());
        let errors = Family::<Labels, Counter>::default();
        registry.register("errors", "Error replies by code", errors.clone());
        // 50 µs .. ~1.6 s
        let move_latency = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        registry.register(
            "move_latency_seconds",
            "From a move frame received to its broadcast",
            move_latency.clone(),
        );
        let store_write = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        registry.register(
            "store_write_seconds",
            "Duration of one store commit",
            store_write.clone(),
        );
        let store_batch = Histogram::new(exponential_buckets(1.0, 2.0, 9));
        registry.register(
            "store_batch_writes",
            "Writes committed together in one transaction",
            store_batch.clone(),
        );
        let store_failures = Counter::default();
        registry.register(
            "store_failures",
            "Store writes that failed (none of what they carried was stored)",
            store_failures.clone(),
        );
        let store_wal_bytes = Gauge::default();
        registry.register(
            "store_wal_bytes",
            "Size of the store's write-ahead log",
            store_wal_bytes.clone(),
        );
        let store_wal_restarts = Counter::default();
        registry.register(
            "store_wal_restarts",
            "Times the store's write-ahead log was started over while in use",
            store_wal_restarts.clone(),
        );
        let cluster_rooms_owned = Gauge::default();
        registry.register(
            "cluster_rooms_owned",
            "Rooms whose lease this node holds (cluster mode)",
            cluster_rooms_owned.clone(),
        );
        let cluster_forwarded = Counter::default();
        registry.register(
            "cluster_forwarded",
            "Requests passed to the node that owns their room",
            cluster_forwarded.clone(),
        );
        let cluster_takeovers = Counter::default();
        registry.register(
            "cluster_takeovers",
            "Unfinished rooms this node took over from the store",
            cluster_takeovers.clone(),
        );
        let cluster_nodes_gone = Counter::default();
        registry.register(
            "cluster_nodes_gone",
            "Other nodes this node took for gone (their presence key expired)",
            cluster_nodes_gone.clone(),
        );
        let cluster_bus_dropped = Counter::default();
        registry.register(
            "cluster_bus_dropped",
            "Messages between nodes dropped: a full queue, or Redis out of reach",
            cluster_bus_dropped.clone(),
        );
        let cluster_stale_frames = Counter::default();
        registry.register(
            "cluster_stale_frames",
            "Frames from another node's copy of a room that was taken over since, dropped",
            cluster_stale_frames.clone(),
        );
        let redis_call = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
        registry.register(
            "redis_call_seconds",
            "Duration of one Redis request or pipeline",
            redis_call.clone(),
        );
        let puzzle_candidates = Family::<Labels, Counter>::default();
        registry.register(
            "puzzle_candidates",
            "Missed wins of reviewed games, by outcome: made (a puzzle), none (no puzzle), \
             refused (a wrong proof), dropped (the queue was full)",
            puzzle_candidates.clone(),
        );
        Metrics(Arc::new(Inner {
            registry,
            connections,
            connections_refused,
            sockets,
            sockets_shed,
            players,
            rooms,
            moves,
            messages_in,
            messages_out,
            errors,
            move_latency,
            store_write,
            store_batch,
            store_failures,
            store_wal_bytes,
            store_wal_restarts,
            cluster_rooms_owned,
            cluster_forwarded,
            cluster_takeovers,
            cluster_nodes_gone,
            cluster_bus_dropped,
            cluster_stale_frames,
            redis_call,
            puzzle_candidates,
        }))
    }

    /// A candidate for a hall puzzle came to `outcome` (`made`, `none`, `refused`, `dropped`).
    pub fn puzzle_candidate(&self, outcome: &'static str) {
        self.0
            .puzzle_candidates
            .get_or_create(&vec![("outcome", outcome.to_string())])
            .inc();
    }

    pub fn connection_opened(&self) {
        self.0.connections.inc();
    }
    pub fn connection_closed(&self) {
        self.0.connections.dec();
    }
    pub fn connection_refused(&self) {
        self.0.connections_refused.inc();
    }
    pub fn players(&self, known: usize) {
        self.0.players.set(i64::try_from(known).unwrap_or(i64::MAX));
    }
    pub fn sockets(&self, open: usize) {
        self.0.sockets.set(i64::try_from(open).unwrap_or(i64::MAX));
    }
    /// A socket closed before it made a request, and why.
    pub fn socket_shed(&self, reason: &'static str) {
        self.0
            .sockets_shed
            .get_or_create(&vec![("reason", reason.to_string())])
            .inc();
    }
    /// A room moved from one status to another (`None` for created or dropped).
    pub fn room_status(&self, from: Option<RoomStatus>, to: Option<RoomStatus>) {
        let gauge = |status: RoomStatus| {
            let name = match status {
                RoomStatus::Waiting => "waiting",
                RoomStatus::Playing => "playing",
                RoomStatus::Over => "over",
            };
            self.0
                .rooms
                .get_or_create(&vec![("status", name.to_string())])
        };
        if let Some(from) = from {
            gauge(from).dec();
        }
        if let Some(to) = to {
            gauge(to).inc();
        }
    }
    pub fn move_played(&self, latency: Option<Duration>) {
        self.0.moves.inc();
        if let Some(latency) = latency {
            self.0.move_latency.observe(latency.as_secs_f64());
        }
    }
    pub fn message_in(&self) {
        self.0.messages_in.inc();
    }
    pub fn message_out(&self) {
        self.0.messages_out.inc();
    }
    pub fn error(&self, code: &str) {
        self.0
            .errors
            .get_or_create(&vec![("code", code.to_string())])
            .inc();
    }
    pub fn store_write(&self, took: Duration, writes: usize) {
        self.0.store_write.observe(took.as_secs_f64());
        self.0.store_batch.observe(writes as f64);
    }
    pub fn store_failed(&self) {
        self.0.store_failures.inc();
    }
    pub fn store_wal_restarted(&self) {
        self.0.store_wal_restarts.inc();
    }
    pub fn store_wal_bytes(&self, bytes: u64) {
        self.0
            .store_wal_bytes
            .set(i64::try_from(bytes).unwrap_or(i64::MAX));
    }
    /// A lease was taken (`true`) or given up or lost.
    pub fn room_owned(&self, taken: bool) {
        if taken {
            self.0.cluster_rooms_owned.inc();
        } else {
            self.0.cluster_rooms_owned.dec();
        }
    }
    pub fn forwarded(&self) {
        self.0.cluster_forwarded.inc();
    }
    pub fn takeover(&self) {
        self.0.cluster_takeovers.inc();
    }
    pub fn nodes_gone(&self, n: usize) {
        self.0.cluster_nodes_gone.inc_by(n as u64);
    }
    pub fn bus_dropped(&self) {
        self.0.cluster_bus_dropped.inc();
    }
    pub fn bus_dropped_many(&self, n: usize) {
        self.0.cluster_bus_dropped.inc_by(n as u64);
    }
    pub fn stale_frame_dropped(&self) {
        self.0.cluster_stale_frames.inc();
    }
    pub fn redis_call(&self, took: Duration) {
        self.0.redis_call.observe(took.as_secs_f64());
    }

    /// The Prometheus text exposition.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        if encode(&mut out, &self.0.registry).is_err() {
            out.clear();
        }
        out
    }
}
