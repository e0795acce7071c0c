//! Which nodes live, and which run of each: every node holds a number drawn at random
//! (`kibitz:node-number:{n}`, the high bits of its connection ids) and a presence key
//! (`kibitz:alive:{node}`, holding that number), both renewed with its leases. A node whose key
//! expired is gone; one whose key holds another number has restarted. Either way its
//! connections (of the earlier run) count as closed, and the rooms here drop them.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use redis::aio::ConnectionManager;

use super::{Cluster, ClusterError};

/// What [`Cluster::check_peers`] found since it last asked.
#[derive(Debug, Default)]
pub struct PeerNews {
    /// Nodes gone: their presence key expired.
    pub gone: Vec<Arc<str>>,
    /// Nodes running under a new number (restarted, or first heard of): the connections of
    /// any other run of theirs are closed.
    pub renumbered: Vec<Arc<str>>,
}

/// Node numbers are drawn from 1 up to this (connection ids keep 40 bits of their own).
const NODE_NUMBERS: u64 = 1 << 23;

/// The key that holds node number `n` for the node using it.
pub(super) fn node_number_key(n: u64) -> String {
    format!("kibitz:node-number:{n}")
}

/// Draws a node number no live node holds and holds it (renewed with the leases). Drawn at
/// random rather than counted, so that a Redis that lost its data does not hand out a number
/// in use again: the nodes that hold numbers set their keys again at their next renewal.
pub(super) async fn take_node_number(
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
            // Present from now on, under this number: the first renewal then finds the key
            // (a missing one means Redis lost its data, or this node was away), and the
            // others see a restarted node's new number at once.
            let alive_ms = u64::try_from(lease.as_millis()).unwrap_or(u64::MAX);
            let _: () = redis::cmd("SET")
                .arg(alive_key(node))
                .arg(n)
                .arg("PX")
                .arg(alive_ms)
                .query_async(redis)
                .await?;
            return Ok(n);
        }
    }
}

/// The key that says `node` lives (renewed with its leases).
pub(super) fn alive_key(node: &str) -> String {
    format!("kibitz:alive:{node}")
}

impl Cluster {
    /// Sets this node's number key and presence key again with a fresh expiry.
    pub(super) async fn hold_node_number(&self) -> Result<(), ClusterError> {
        let key = node_number_key(self.0.node_no);
        let alive = alive_key(self.node());
        let node = self.node().to_string();
        let ms = u64::try_from(self.0.lease_time.as_millis() * 3).unwrap_or(u64::MAX);
        // Presence lasts a lease time, as a room's lease does: three renewals missed in a row.
        // The others ask after it every third of that, so that a dead node's connections
        // count as closed within a lease time and a third of its death.
        let alive_ms = u64::try_from(self.0.lease_time.as_millis()).unwrap_or(u64::MAX);
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
                    .arg(self.0.node_no)
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
    pub(super) fn presence_was_lost(&self) {
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

    /// Asks Redis which of the nodes this node sends to are still present, and under which
    /// number; the nodes found gone, or running again under another number (restarted),
    /// since the last call: their connections, or those of their earlier run, now count as
    /// closed. None is taken for gone while this node's own presence key is missing or lately
    /// was (see `presence_was_lost`); a restart is news at once.
    pub async fn check_peers(&self) -> PeerNews {
        let own = alive_key(self.node());
        let present = self
            .call(async |r| redis::cmd("EXISTS").arg(&own).query_async::<u8>(r).await)
            .await;
        match present {
            // Redis out of reach says nothing about the peers.
            Err(_) => return PeerNews::default(),
            Ok(0) => self.presence_was_lost(),
            Ok(_) => {}
        }
        let judging = self.ms_now() >= self.0.judge_peers_from_ms.load(Ordering::SeqCst);
        let peers: Vec<Arc<str>> = self
            .0
            .bus
            .peers()
            .into_iter()
            .filter(|p| **p != *self.0.node)
            .collect();
        let mut news = PeerNews::default();
        for peer in peers {
            let key = alive_key(&peer);
            let number = self
                .call(async |r| {
                    redis::cmd("GET")
                        .arg(&key)
                        .query_async::<Option<String>>(r)
                        .await
                })
                .await;
            // Redis out of reach says nothing about the peer.
            let Ok(number) = number else {
                break;
            };
            match number.and_then(|n| n.parse::<u64>().ok()) {
                Some(n) => {
                    self.0.bus.set_dead(&peer, false);
                    if self.0.bus.set_number(&peer, n) {
                        tracing::info!(node = %peer, number = n, "a node runs under a new number");
                        news.renumbered.push(peer);
                    }
                }
                None if judging && self.0.bus.set_dead(&peer, true) => {
                    tracing::warn!(node = %peer, "a node is gone: its connections count as closed");
                    news.gone.push(peer);
                }
                None => {}
            }
        }
        self.0.metrics.nodes_gone(news.gone.len());
        news
    }
}
