//! Cluster mode: several nodes on one PostgreSQL store and one Redis. Each room is owned by
//! one node at a time through a lease in Redis ([`lease`]) whose fence the store checks on
//! every write of the room; nodes reach each other's connections and rooms over Redis pub/sub
//! ([`bus`]). This module is the transport: which requests and frames travel, and what a node
//! does with those that arrive, is the relay's (`room::relay`), above the rooms.

pub mod bus;
pub mod lease;
pub mod seeks;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, RedisResult};
use tokio::sync::{mpsc, watch, Notify, OwnedMutexGuard};
use tokio::time::Instant;

pub use bus::{Arrival, Bus, BusInbox, BusMsg};
pub use lease::{Claim, Lease};
pub use seeks::SeekEntry;

use game_core::GameKind;

use crate::conn::Conn;
use crate::metrics::Metrics;
use crate::players::PlayerRecord;

/// Longest node id: it names Redis channels and lease values.
const MAX_NODE_ID: usize = 64;

/// What cluster mode needs: where Redis is, the name of this node, how long a lease lasts.
#[derive(Clone, Debug)]
pub struct ClusterSettings {
    pub redis_url: String,
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

/// A connection of this node, and who it is once it said `hello`.
struct LocalConn {
    conn: Conn,
    player: Option<PlayerRecord>,
    /// A bot's games and capacity, announced to the other nodes.
    bot: Option<(Vec<GameKind>, u32)>,
}

/// Node numbers are drawn from 1 up to this (connection ids keep 40 bits of their own).
const NODE_NUMBERS: u64 = 1 << 23;

/// The key that holds node number `n` for the node using it.
fn node_number_key(n: u64) -> String {
    format!("kibitz:node-number:{n}")
}

/// Draws a node number no live node holds and holds it (renewed with the leases). Drawn at
/// random rather than counted, so that a Redis that lost its data does not hand out a number
/// in use again: the nodes that hold numbers set their keys again at their next renewal.
async fn take_node_number(
    redis: &mut ConnectionManager,
    node: &str,
    lease: Duration,
) -> Result<u64, ClusterError> {
    let ms = u64::try_from(lease.as_millis() * 3).unwrap_or(u64::MAX);
    loop {
        let n = rand::random_range(1..NODE_NUMBERS);
        let taken: Option<String> = redis::cmd("SET")
            .arg(node_number_key(n))
            .arg(node)
            .arg("NX")
            .arg("PX")
            .arg(ms)
            .query_async(redis)
            .await?;
        if taken.is_some() {
            return Ok(n);
        }
    }
}

/// The key that says `node` lives (renewed with its leases).
fn alive_key(node: &str) -> String {
    format!("kibitz:alive:{node}")
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
    /// One claim at a time per room on this node.
    claims: DashMap<String, Arc<tokio::sync::Mutex<()>>>,
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
    conns: DashMap<u64, LocalConn>,
    /// The seek each connection of this node left waiting in Redis (game-and-clock key,
    /// entry, player), to withdraw when it closes. One that was paired meanwhile is stale:
    /// withdrawing it finds nothing.
    seeking: DashMap<u64, (String, String, String)>,
    /// Woken when some node's seeks changed: the lobby counts them again.
    seeks_changed: Notify,
    metrics: Metrics,
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
        let client = redis::Client::open(info.set_redis_settings(resp3))
            .map_err(|e| ClusterError::Url(e.to_string()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(bus::REDIS_TIMEOUT))
            .set_response_timeout(Some(bus::REDIS_TIMEOUT))
            .set_max_delay(Duration::from_secs(1));
        let unreachable = |e: redis::RedisError| ClusterError::Unreachable(e.to_string());
        let mut redis = ConnectionManager::new_with_config(client.clone(), config.clone())
            .await
            .map_err(unreachable)?;
        let node_no = take_node_number(&mut redis, node, settings.lease).await?;
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
        let bus = Bus::start(redis.clone(), metrics.clone());
        let epoch = Instant::now();
        let cluster = Cluster(Arc::new(Inner {
            node: Arc::from(node),
            node_no,
            redis,
            _subscriber: subscriber,
            lease_time: settings.lease,
            bus,
            owned: DashMap::new(),
            claims: DashMap::new(),
            renewed_ms: AtomicU64::new(0),
            judge_peers_from_ms: AtomicU64::new(0),
            presence_lost: Notify::new(),
            epoch,
            conns: DashMap::new(),
            listed: DashMap::new(),
            seeking: DashMap::new(),
            seeks_changed: Notify::new(),
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
        cluster.bus().send_everyone(&BusMsg::NodeStarted {
            node: node.to_string(),
        });
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

    /// The first connection id of this node: ids never meet another node's.
    #[must_use]
    pub fn first_conn_id(&self) -> u64 {
        (self.0.node_no << 40) + 1
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

    /// The node that owns `room` now, if any.
    pub async fn owner(&self, room: &str) -> Result<Option<String>, ClusterError> {
        self.call(async |r| lease::owner(r, room).await).await
    }

    /// Which of `rooms` no node holds a lease of (asked 500 at a time).
    pub async fn unowned(&self, rooms: Vec<String>) -> Result<Vec<String>, ClusterError> {
        let mut free = Vec::new();
        for chunk in rooms.chunks(500) {
            let owners = self.call(async |r| lease::owners(r, chunk).await).await?;
            free.extend(
                chunk
                    .iter()
                    .zip(owners)
                    .filter(|(_, owner)| owner.is_none())
                    .map(|(room, _)| room.clone()),
            );
        }
        Ok(free)
    }

    /// Holds this node's claims of `room` to one at a time.
    pub async fn claim_lock(&self, room: &str) -> OwnedMutexGuard<()> {
        let lock = self.0.claims.entry(room.to_string()).or_default().clone();
        lock.lock_owned().await
    }

    /// Forgets the claim lock of `room` once nobody waits on it.
    pub fn claim_done(&self, room: &str, guard: OwnedMutexGuard<()>) {
        drop(guard);
        self.0
            .claims
            .remove_if(room, |_, lock| Arc::strong_count(lock) == 1);
    }

    /// Claims the lease of `room` with a fence above `floor` (the store's). A lease taken is
    /// renewed from now on until the room gives it back or it is lost.
    pub async fn claim(&self, room: &str, floor: u64) -> Result<Claim, ClusterError> {
        let node = self.node().to_string();
        let ms = u64::try_from(self.0.lease_time.as_millis()).unwrap_or(u64::MAX);
        let answer = self
            .call(async |r| lease::claim(r, &node, room, ms, floor).await)
            .await?;
        match answer {
            Ok(fence) => {
                let lease = Lease {
                    fence,
                    lost: Arc::new(Notify::new()),
                };
                if self
                    .0
                    .owned
                    .insert(room.to_string(), lease.clone())
                    .is_none()
                {
                    self.0.metrics.room_owned(true);
                }
                Ok(Claim::Ours(lease))
            }
            Err(owner) => Ok(Claim::Elsewhere(owner)),
        }
    }

    /// Gives the lease of `room` back (the room left memory).
    pub fn release(&self, room: &str, fence: u64) {
        let removed = self
            .0
            .owned
            .remove_if(room, |_, lease| lease.fence == fence)
            .is_some();
        if !removed {
            return;
        }
        self.0.metrics.room_owned(false);
        let cluster = self.clone();
        let room = room.to_string();
        tokio::spawn(async move {
            let node = cluster.node().to_string();
            let _ = cluster
                .call(async |r| lease::release(r, &node, &room, fence).await)
                .await;
        });
    }

    /// Whether this node's leases are surely still its own: the last renewal Redis answered
    /// was sent within two thirds of the lease time. Past that a room refuses moves.
    #[must_use]
    pub fn leases_fresh(&self) -> bool {
        let renewed = self.0.renewed_ms.load(Ordering::SeqCst);
        let now = self.ms_now();
        let margin = u64::try_from(self.0.lease_time.as_millis() * 2 / 3).unwrap_or(u64::MAX);
        renewed > 0 && now.saturating_sub(renewed) < margin
    }

    fn ms_now(&self) -> u64 {
        // At least 1: 0 means "never renewed".
        u64::try_from(self.0.epoch.elapsed().as_millis()).unwrap_or(u64::MAX) + 1
    }

    /// Renews every lease a third of the lease time, until shutdown. A lease found lost wakes
    /// its room, which stops.
    pub async fn renew_leases(self, mut shutdown: watch::Receiver<bool>) {
        let every = self.0.lease_time / 3;
        loop {
            let sent = self.ms_now();
            let rooms: Vec<(String, u64)> = self
                .0
                .owned
                .iter()
                .map(|e| (e.key().clone(), e.value().fence))
                .collect();
            let node = self.node().to_string();
            let ms = u64::try_from(self.0.lease_time.as_millis()).unwrap_or(u64::MAX);
            let mut all_ok = true;
            for chunk in rooms.chunks(256) {
                match self
                    .call(async |r| lease::renew(r, &node, ms, chunk).await)
                    .await
                {
                    Ok(kept) => {
                        for ((room, fence), kept) in chunk.iter().zip(kept) {
                            if !kept {
                                self.lose(room, *fence);
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "renewing leases failed");
                        all_ok = false;
                        break;
                    }
                }
            }
            // Holding the node number also proves that Redis answers when there are no rooms.
            let answered = self.hold_node_number().await.is_ok() && all_ok;
            if answered {
                self.0.renewed_ms.store(sent, Ordering::SeqCst);
            }
            tokio::select! {
                () = tokio::time::sleep(every) => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    /// Sets this node's number key and presence key again with a fresh expiry.
    async fn hold_node_number(&self) -> Result<(), ClusterError> {
        let key = node_number_key(self.0.node_no);
        let alive = alive_key(self.node());
        let node = self.node().to_string();
        let ms = u64::try_from(self.0.lease_time.as_millis() * 3).unwrap_or(u64::MAX);
        // Presence lasts two lease times: six renewals missed in a row.
        let alive_ms = u64::try_from(self.0.lease_time.as_millis() * 2).unwrap_or(u64::MAX);
        let (_, before) = self
            .call(async |r| {
                redis::pipe()
                    .cmd("SET")
                    .arg(&key)
                    .arg(&node)
                    .arg("PX")
                    .arg(ms)
                    .cmd("SET")
                    .arg(&alive)
                    .arg(1)
                    .arg("PX")
                    .arg(alive_ms)
                    .arg("GET")
                    .query_async::<(String, Option<String>)>(r)
                    .await
            })
            .await?;
        if before.is_none() {
            self.presence_was_lost();
        }
        Ok(())
    }

    /// This node's presence key was missing: Redis lost its data, or this node could not
    /// renew it for two lease times. Every other node's key may be missing too until its
    /// next renewal, so for two lease times none is taken for gone (a live node taken for
    /// gone has its connections dropped from this node's rooms).
    fn presence_was_lost(&self) {
        let wait = u64::try_from(self.0.lease_time.as_millis() * 2).unwrap_or(u64::MAX);
        let until = self.ms_now().saturating_add(wait);
        self.0
            .judge_peers_from_ms
            .fetch_max(until, Ordering::SeqCst);
        self.0.presence_lost.notify_one();
    }

    /// Waits until this node's presence key is next found missing: the other nodes may have
    /// taken it for gone meanwhile, and dropped its connections from their rooms.
    pub async fn presence_lost(&self) {
        self.0.presence_lost.notified().await;
    }

    /// Asks Redis which of the nodes this node sends to are still present; the nodes found
    /// gone since the last call (their connections now count as closed). None is taken for
    /// gone while this node's own presence key is missing or lately was (see
    /// `presence_was_lost`).
    pub async fn check_peers(&self) -> Vec<Arc<str>> {
        let own = alive_key(self.node());
        let present = self
            .call(async |r| redis::cmd("EXISTS").arg(&own).query_async::<u8>(r).await)
            .await;
        match present {
            // Redis out of reach says nothing about the peers.
            Err(_) => return Vec::new(),
            Ok(0) => self.presence_was_lost(),
            Ok(_) => {}
        }
        if self.ms_now() < self.0.judge_peers_from_ms.load(Ordering::SeqCst) {
            return Vec::new();
        }
        let peers: Vec<Arc<str>> = self
            .0
            .bus
            .peers()
            .into_iter()
            .filter(|p| **p != *self.0.node)
            .collect();
        let mut gone = Vec::new();
        for peer in peers {
            let key = alive_key(&peer);
            let present = self
                .call(async |r| redis::cmd("EXISTS").arg(&key).query_async::<u8>(r).await)
                .await;
            // Redis out of reach says nothing about the peer.
            let Ok(present) = present else {
                return gone;
            };
            if self.0.bus.set_dead(&peer, present == 0) && present == 0 {
                tracing::warn!(node = %peer, "a node is gone: its connections count as closed");
                gone.push(peer);
            }
        }
        self.0.metrics.nodes_gone(gone.len());
        gone
    }

    /// Another node owns `room` now: its task is told to stop.
    fn lose(&self, room: &str, fence: u64) {
        if let Some((_, lease)) = self.0.owned.remove_if(room, |_, l| l.fence == fence) {
            tracing::warn!(room, fence, "lease lost");
            lease.lost.notify_one();
            self.0.metrics.room_owned(false);
        }
    }

    /// This node's lobby lists `room` of `node`.
    pub fn listed_elsewhere(&self, room: &str, node: &str) {
        if self.0.listed.get(room).is_none_or(|n| **n != *node) {
            self.0.listed.insert(room.to_string(), Arc::from(node));
        }
    }

    /// `room` of `node` left its memory; true if this node's lobby listed it as that node's.
    pub fn unlisted(&self, room: &str, node: &str) -> bool {
        self.0.listed.remove_if(room, |_, n| **n == *node).is_some()
    }

    /// The rooms of these (gone) nodes, no longer listed.
    pub fn unlist_nodes(&self, nodes: &[Arc<str>]) -> Vec<String> {
        let mut rooms = Vec::new();
        self.0.listed.retain(|room, node| {
            let gone = nodes.contains(node);
            if gone {
                rooms.push(room.clone());
            }
            !gone
        });
        rooms
    }

    /// A connection of this node opened.
    pub fn conn_opened(&self, conn: &Conn) {
        let local = LocalConn {
            conn: conn.clone(),
            player: None,
            bot: None,
        };
        self.0.conns.insert(conn.id, local);
    }

    /// A connection of this node said who it is.
    pub fn conn_is(&self, id: u64, player: &PlayerRecord) {
        if let Some(mut local) = self.0.conns.get_mut(&id) {
            local.player = Some(player.clone());
        }
    }

    /// A bot said `hello` on connection `id` of this node: every node hears of it.
    pub fn bot_here(&self, id: u64, player: &PlayerRecord, games: &[GameKind], capacity: u32) {
        if let Some(mut local) = self.0.conns.get_mut(&id) {
            local.bot = Some((games.to_vec(), capacity));
        }
        self.0.bus.send_everyone(&BusMsg::BotHere {
            node: self.node().to_string(),
            conn: id,
            player: player.clone(),
            games: games.to_vec(),
            capacity,
        });
    }

    /// Tells every node again of this node's bots (a node has just joined).
    pub fn announce_bots(&self) {
        let bots: Vec<BusMsg> = self
            .0
            .conns
            .iter()
            .filter_map(|c| {
                let (games, capacity) = c.bot.clone()?;
                Some(BusMsg::BotHere {
                    node: self.node().to_string(),
                    conn: c.conn.id,
                    player: c.player.clone()?,
                    games,
                    capacity,
                })
            })
            .collect();
        for bot in &bots {
            self.0.bus.send_everyone(bot);
        }
    }

    /// A connection of this node closed (a bot's: every node hears of it).
    pub fn conn_closed(&self, id: u64) {
        let Some((_, local)) = self.0.conns.remove(&id) else {
            return;
        };
        if let (Some(player), Some(_)) = (local.player, local.bot) {
            self.0.bus.send_everyone(&BusMsg::BotGone {
                node: self.node().to_string(),
                conn: id,
                player: player.id,
            });
        }
    }

    /// A connection of this node, by id.
    #[must_use]
    pub fn conn(&self, id: u64) -> Option<Conn> {
        self.0.conns.get(&id).map(|c| c.conn.clone())
    }

    /// Every room some connection of this node is a member of.
    #[must_use]
    pub fn member_rooms(&self) -> BTreeSet<String> {
        self.0.conns.iter().flat_map(|c| c.conn.rooms()).collect()
    }

    /// This node's connections that count `room` as theirs, with their players.
    #[must_use]
    pub fn conns_in(&self, room: &str) -> Vec<(Conn, PlayerRecord)> {
        self.0
            .conns
            .iter()
            .filter(|c| c.conn.is_in(room))
            .filter_map(|c| Some((c.conn.clone(), c.player.clone()?)))
            .collect()
    }

    /// Quick pairing across nodes: takes the first live seeker waiting under `spec` (see
    /// `seeks::spec_key`) on any node, or leaves `entry` waiting there. Every node hears that
    /// the seeks changed.
    pub async fn seek(
        &self,
        spec: &str,
        entry: &SeekEntry,
    ) -> Result<Option<SeekEntry>, ClusterError> {
        let text = serde_json::to_string(entry)
            .map_err(|e| ClusterError::Unreachable(format!("writing a seek: {e}")))?;
        let player = entry.player.id.as_str();
        // Recorded before Redis is asked: a call that fails after the entry was stored
        // still leaves something to withdraw.
        let waiting = (spec.to_string(), text.clone(), player.to_string());
        self.0.seeking.insert(entry.conn, waiting);
        let taken = self
            .call(async |r| seeks::seek(r, spec, &text, player).await)
            .await;
        let taken = match taken {
            Ok(taken) => taken,
            Err(e) => {
                self.withdraw_later(entry.conn);
                return Err(e);
            }
        };
        let opponent = match taken {
            None => None,
            Some(taken) => {
                // Paired: this connection's entry was never stored.
                self.0.seeking.remove(&entry.conn);
                let opponent: SeekEntry = serde_json::from_str(&taken)
                    .map_err(|e| ClusterError::Unreachable(format!("reading a seek: {e}")))?;
                if opponent.node == self.node() {
                    self.0
                        .seeking
                        .remove_if(&opponent.conn, |_, (_, e, _)| *e == taken);
                }
                Some(opponent)
            }
        };
        self.0.bus.send_everyone(&BusMsg::SeeksChanged);
        Ok(opponent)
    }

    /// Tells every node that a token was signed out.
    pub fn token_dropped(&self, token_hash: &str) {
        self.0.bus.send_everyone(&BusMsg::TokenDropped {
            token_hash: token_hash.to_string(),
        });
    }

    /// Puts a seeker taken by [`Cluster::seek`] back at the head of its list: the room for
    /// the pair could not be made.
    pub async fn put_back(&self, spec: &str, entry: &SeekEntry) {
        let Ok(text) = serde_json::to_string(entry) else {
            return;
        };
        let player = entry.player.id.as_str();
        let back = self
            .call(async |r| seeks::put_back(r, spec, &text, player).await)
            .await;
        match back {
            Ok(()) => {
                if entry.node == self.node() {
                    let waiting = (spec.to_string(), text, player.to_string());
                    self.0.seeking.insert(entry.conn, waiting);
                }
                self.0.bus.send_everyone(&BusMsg::SeeksChanged);
            }
            Err(e) => tracing::warn!(error = %e, "putting a seeker back failed"),
        }
    }

    /// Withdraws the seek connection `conn` of this node left waiting, if any; if Redis does
    /// not take the withdrawal now, it is tried again in the background.
    pub async fn unseek(&self, conn: u64) {
        let Some((_, waiting)) = self.0.seeking.remove(&conn) else {
            return;
        };
        if let Err(e) = self.withdraw(&waiting).await {
            tracing::warn!(error = %e, "withdrawing a seek failed; trying again");
            self.retry_withdraw(waiting);
        }
    }

    /// [`Cluster::unseek`] off the caller's task.
    fn withdraw_later(&self, conn: u64) {
        let cluster = self.clone();
        tokio::spawn(async move { cluster.unseek(conn).await });
    }

    async fn withdraw(
        &self,
        (spec, entry, player): &(String, String, String),
    ) -> Result<(), ClusterError> {
        self.call(async |r| seeks::unseek(r, spec, entry, player).await)
            .await?;
        self.0.bus.send_everyone(&BusMsg::SeeksChanged);
        Ok(())
    }

    /// Tries a withdrawal again every second for a minute (Redis out of reach); past that
    /// the seek stays until a seeker pairs with it, who then wins when the absent player's
    /// grace period ends.
    fn retry_withdraw(&self, waiting: (String, String, String)) {
        let cluster = self.clone();
        tokio::spawn(async move {
            for _ in 0..60 {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if cluster.withdraw(&waiting).await.is_ok() {
                    return;
                }
            }
            tracing::warn!("a seek could not be withdrawn from Redis");
        });
    }

    /// The live seekers of every node per game-and-clock key.
    pub async fn seek_counts(&self) -> Result<Vec<(String, u32)>, ClusterError> {
        self.call(async |r| seeks::count(r, None).await).await
    }

    /// Some node's seeks changed (word from the bus).
    pub fn seeks_changed(&self) {
        self.0.seeks_changed.notify_one();
    }

    /// Resolves at the next change of the seeks (at once if one came since the last call).
    pub async fn next_seeks_change(&self) {
        self.0.seeks_changed.notified().await;
    }
}
