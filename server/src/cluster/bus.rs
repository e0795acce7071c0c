//! The bus between nodes: Redis pub/sub, one channel per node and one for all. What a node
//! sends another — a frame for one of its connections, a request for a room it owns — is
//! queued here and published in order by one task, several to a pipeline; what arrives on
//! this node's channels is handed to the relay above the rooms. Pub/sub delivers at most once:
//! a node that is gone misses what was sent to it, and its clients reconnect.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;

use game_core::GameKind;
use redis::aio::ConnectionManager;
use redis::{PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::accounts::players::PlayerRecord;
use crate::lobby::feed::RoomSummary;
use crate::metrics::Metrics;

/// Messages published but not yet sent to Redis; past this, frames are dropped (and counted)
/// rather than held without bound.
const OUTBOX: usize = 65_536;
/// Most publishes sent in one pipeline.
const PIPELINE: usize = 512;
/// Messages received but not yet handled by the relay.
pub(super) const INBOX: usize = 65_536;

/// An `analyse` passed to another node: the request as its connection sent it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteAsk {
    pub id: String,
    pub game: game_core::GameSpec,
    pub position: Option<String>,
    pub moves: Vec<String>,
    pub rate: Vec<String>,
}

/// The channel every node listens on.
pub const EVERYONE: &str = "kibitz:nodes";

/// The channel of one node.
#[must_use]
pub fn node_channel(node: &str) -> String {
    format!("kibitz:node:{node}")
}

/// One message between nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum BusMsg {
    /// A frame for connection `conn` of the receiving node; from room `room` under `fence`
    /// when a room sent it (the receiving node drops it if the connection has heard the room
    /// under a higher fence: it comes from a copy of the room deposed since).
    Frame {
        conn: u64,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<String>,
        #[serde(default)]
        fence: u64,
    },
    /// Room `room`, under `fence`, counts connection `conn` of the receiving node as a member
    /// now.
    Entered {
        conn: u64,
        room: String,
        #[serde(default)]
        fence: u64,
    },
    /// A room no longer counts connection `conn` as a member.
    Left { conn: u64, room: String },
    /// A request for room `room`, which the receiving node owned when it was sent (`cmd` is
    /// the request as the relay writes it); `hops` counts how often it was passed on.
    Room { room: String, cmd: String, hops: u8 },
    /// (To everyone.) Room `room` was taken over by `node` from the store: members of it on
    /// other nodes join it again there.
    Moved { room: String, node: String },
    /// (To everyone.) A bot is connected to `node` on connection `conn`: rooms of every node
    /// may invite it.
    BotHere {
        node: String,
        conn: u64,
        player: PlayerRecord,
        games: Vec<GameKind>,
        capacity: u32,
    },
    /// (To everyone.) That connection of a bot closed.
    BotGone {
        node: String,
        conn: u64,
        player: String,
    },
    /// (To everyone.) `node` has just joined, or heard the bus again: the others announce
    /// their bots to it. `number` is the node number of this run of it (its incarnation):
    /// connections of an earlier run (their ids drawn under another number) are gone.
    NodeStarted {
        node: String,
        #[serde(default)]
        number: u64,
    },
    /// (To everyone.) How a room of `node` stands, for every node's lobby.
    LobbyRoom {
        node: String,
        summary: Box<RoomSummary>,
    },
    /// (To everyone.) A room of `node` left its memory.
    LobbyGone { node: String, room: String },
    /// (To everyone.) A seek was made, paired or withdrawn: lobbies count them again.
    SeeksChanged,
    /// (To everyone.) `node` has `count` analysis workers connected now.
    Workers { node: String, count: u32 },
    /// A review of `room` asked on `node` by connection `conn` (player `player`, from
    /// `address`), which has no analysis worker: the receiving node, which has, queues it.
    /// `conn` 0 is no connection (a review that waited on `node` until its workers left).
    Review {
        room: String,
        node: String,
        conn: u64,
        player: String,
        address: Option<std::net::IpAddr>,
    },
    /// A live analysis asked on `node` by connection `conn` (player `player`), which has no
    /// analysis worker: the receiving node, which has, runs it, and its lines go to `conn`.
    Analyse {
        node: String,
        conn: u64,
        player: String,
        ask: Box<RemoteAsk>,
    },
    /// Connection `conn` of another node ended its live analysis here (it stopped, asked
    /// another, or left).
    AnalyseStop { conn: u64 },
    /// (To everyone.) A frame for every connection of `player` on the receiving node but
    /// `except` (0: none).
    ToPlayer {
        player: String,
        text: String,
        #[serde(default)]
        except: u64,
    },
    /// (To everyone.) `player`'s blocks changed: a node that keeps them reads them again.
    BlocksChanged { player: String },
    /// (To everyone.) A moderator's action was stored: every node reloads the sanctions and
    /// carries it out on its own connections and rooms.
    Moderated {
        action: Box<crate::store::StoredAction>,
    },
    /// An answer to challenge `challenge` of the receiving node, by `player` on connection
    /// `conn` of `node`.
    ChallengeReply {
        challenge: String,
        accept: bool,
        reason: game_core::protocol::DeclineReason,
        node: String,
        conn: u64,
        player: PlayerRecord,
    },
    /// (To everyone.) A token was signed out: every node forgets it (a node's memory of
    /// tokens would otherwise still let it say hello there).
    TokenDropped { token_hash: String },
    /// (To everyone, from a tournament's director, every second while the game goes on.) A
    /// tournament game is played in `room` between `players` (id and name; the people
    /// among them): each node marks it a tournament game and seats its own connections of
    /// those players that are not in it yet, once each.
    TournamentGame {
        tournament: String,
        room: String,
        players: Vec<(String, String)>,
    },
    /// (To everyone.) An account was made: every node knows its name at once, so that a
    /// guest name that only looks like it is refused on any node.
    AccountMade {
        player: String,
        name: String,
        bot: bool,
    },
}

/// One publish waiting for the pipeline.
struct Outgoing {
    channel: String,
    payload: String,
    /// A frame for a client, and when it was queued: one that waited too long is dropped
    /// (see [`Bus::start`]).
    frame_queued: Option<Instant>,
    /// Told how many nodes Redis handed it to, `None` if Redis did not take it (for
    /// requests, which are refused if nobody got them).
    done: Option<oneshot::Sender<Option<i64>>>,
}

/// What this node knows of a node it sends to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Peer {
    /// Its presence key in Redis expired: its connections count as closed.
    dead: bool,
    /// The node number of its current run, 0 while unknown: connections whose ids were drawn
    /// under another number belong to an earlier run of it, and count as closed.
    number: u64,
}

/// Connection ids of a node start at its node number shifted by this.
pub const CONN_ID_BITS: u32 = 40;

/// Cheap-clone handle to the publishing task.
#[derive(Clone)]
pub struct Bus {
    tx: mpsc::Sender<Outgoing>,
    metrics: Metrics,
    /// The nodes this node has sent to. As many entries as nodes.
    peers: Arc<DashMap<Arc<str>, Peer>>,
}

impl fmt::Debug for Bus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bus")
    }
}

impl Bus {
    /// Starts the publishing task on `redis`. A frame still unpublished `stale_after` after
    /// it was queued (this node was paused, or Redis slow) is dropped: its room may have
    /// moved meanwhile, and the client may already hold later frames from the new owner. The
    /// gap it leaves is mended as any other, by joining again.
    pub(super) fn start(redis: ConnectionManager, metrics: Metrics, stale_after: Duration) -> Bus {
        let (tx, rx) = mpsc::channel(OUTBOX);
        tokio::spawn(publish(redis, rx, metrics.clone(), stale_after));
        Bus {
            tx,
            metrics,
            peers: Arc::default(),
        }
    }

    /// Whether `node` is known to be gone.
    #[must_use]
    pub fn is_dead(&self, node: &str) -> bool {
        self.peers.get(node).is_some_and(|p| p.dead)
    }

    /// Whether connection `conn` of `node` is known to be closed: its node is gone, or runs
    /// again under another number (restarted: every connection of the earlier run closed).
    #[must_use]
    pub fn is_closed(&self, node: &str, conn: u64) -> bool {
        self.peers
            .get(node)
            .is_some_and(|p| p.dead || (p.number != 0 && conn >> CONN_ID_BITS != p.number))
    }

    /// The nodes sent to so far.
    pub(super) fn peers(&self) -> Vec<Arc<str>> {
        self.peers.iter().map(|p| p.key().clone()).collect()
    }

    /// Records whether `node` is gone; true when that is news.
    pub(super) fn set_dead(&self, node: &Arc<str>, dead: bool) -> bool {
        let mut peer = self.peers.entry(node.clone()).or_default();
        let news = peer.dead != dead;
        peer.dead = dead;
        news
    }

    /// Records the node number of `node`'s current run; true when it changed (a restart,
    /// or the first word of it: the connections of any other run count as closed now).
    pub fn set_number(&self, node: &str, number: u64) -> bool {
        if number == 0 {
            return false;
        }
        let mut peer = self.peers.entry(Arc::from(node)).or_default();
        let news = peer.number != number;
        peer.number = number;
        news
    }

    fn queue(
        &self,
        channel: String,
        msg: &BusMsg,
        done: Option<oneshot::Sender<Option<i64>>>,
    ) -> bool {
        let Ok(payload) = serde_json::to_string(msg) else {
            return false;
        };
        let frame_queued = matches!(msg, BusMsg::Frame { .. }).then(Instant::now);
        let queued = self
            .tx
            .try_send(Outgoing {
                channel,
                payload,
                frame_queued,
                done,
            })
            .is_ok();
        if !queued {
            self.metrics.bus_dropped();
        }
        queued
    }

    /// Queues `msg` for `node`; false when the queue is full (the message is dropped).
    pub fn send(&self, node: &str, msg: &BusMsg) -> bool {
        self.know(node);
        self.queue(node_channel(node), msg, None)
    }

    /// Counts `node` among the nodes this node asks after: it sends there (frames, or
    /// requests for rooms its connections are in).
    fn know(&self, node: &str) {
        if !self.peers.contains_key(node) {
            self.peers.entry(Arc::from(node)).or_default();
        }
    }

    /// Sends `msg` to `node` behind everything queued before it; true once Redis handed it
    /// to that node (false: Redis out of reach, or the node is not listening).
    pub async fn send_confirmed(&self, node: &str, msg: &BusMsg) -> bool {
        self.know(node);
        let (done, taken) = oneshot::channel();
        if !self.queue(node_channel(node), msg, Some(done)) {
            return false;
        }
        taken
            .await
            .ok()
            .flatten()
            .is_some_and(|receivers| receivers > 0)
    }

    /// Queues `msg` for every node (this one too).
    pub fn send_everyone(&self, msg: &BusMsg) -> bool {
        self.queue(EVERYONE.to_string(), msg, None)
    }
}

/// Publishes what is queued, in order, a pipeline at a time.
async fn publish(
    mut redis: ConnectionManager,
    mut rx: mpsc::Receiver<Outgoing>,
    metrics: Metrics,
    stale_after: Duration,
) {
    let mut batch = Vec::with_capacity(PIPELINE);
    while rx.recv_many(&mut batch, PIPELINE).await > 0 {
        let before = batch.len();
        batch.retain(|out| out.frame_queued.is_none_or(|t| t.elapsed() < stale_after));
        if batch.len() < before {
            tracing::warn!(
                dropped = before - batch.len(),
                "frames queued too long dropped"
            );
            metrics.bus_dropped_many(before - batch.len());
        }
        if batch.is_empty() {
            continue;
        }
        let mut pipe = redis::pipe();
        for out in &batch {
            pipe.cmd("PUBLISH").arg(&out.channel).arg(&out.payload);
        }
        let started = Instant::now();
        let sent: redis::RedisResult<Vec<i64>> = pipe.query_async(&mut redis).await;
        metrics.redis_call(started.elapsed());
        let receivers = match sent {
            Ok(receivers) => receivers,
            Err(e) => {
                tracing::warn!(error = %e, lost = batch.len(), "publishing to Redis failed");
                metrics.bus_dropped_many(batch.len());
                Vec::new()
            }
        };
        for (i, out) in batch.drain(..).enumerate() {
            if let Some(done) = out.done {
                let _ = done.send(receivers.get(i).copied());
            }
        }
    }
}

/// The channels this node subscribes to: its own and everyone's.
pub(super) const CHANNELS: i64 = 2;

/// What the inbox hands the relay.
#[derive(Debug)]
pub enum Arrival {
    /// A message from another node (or this one, on the channel for everyone).
    Msg(BusMsg),
    /// The subscriptions are back after the connection to Redis was lost: whatever was
    /// published to this node meanwhile is gone, frames for its connections and word of
    /// rooms that moved among them.
    Resubscribed,
}

/// What arrives on this node's channels, for the relay.
pub struct BusInbox {
    pub(super) rx: mpsc::Receiver<PushInfo>,
    /// The connection was lost and not all channels are subscribed again yet.
    pub(super) deaf: bool,
}

impl BusInbox {
    /// The inbox of a node alone: nothing ever arrives.
    #[must_use]
    pub fn silent() -> BusInbox {
        let (_, rx) = mpsc::channel(1);
        BusInbox { rx, deaf: false }
    }

    /// The next arrival; `None` once the cluster is gone. Pushes that are neither a message
    /// nor the last subscription restored after a reconnection, and unreadable payloads, are
    /// skipped.
    pub async fn next(&mut self) -> Option<Arrival> {
        loop {
            let push = self.rx.recv().await?;
            match push.kind {
                PushKind::Message => {}
                PushKind::Disconnection => {
                    tracing::warn!("the bus lost Redis; it subscribes again on reconnect");
                    self.deaf = true;
                    continue;
                }
                // A confirmation carries how many channels the connection now listens to.
                PushKind::Subscribe => {
                    let all = matches!(push.data.get(1), Some(Value::Int(n)) if *n >= CHANNELS);
                    if self.deaf && all {
                        self.deaf = false;
                        tracing::info!("the bus hears Redis again");
                        return Some(Arrival::Resubscribed);
                    }
                    continue;
                }
                _ => continue,
            }
            let Some(Value::BulkString(payload)) = push.data.get(1) else {
                continue;
            };
            match serde_json::from_slice(payload) {
                Ok(msg) => return Some(Arrival::Msg(msg)),
                Err(e) => tracing::warn!(error = %e, "unreadable bus message"),
            }
        }
    }
}

/// How long a Redis request may take before it counts as failed.
pub(super) const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_says_which_room_sent_it_and_a_frame_without_it_still_reads() {
        let from_room = BusMsg::Frame {
            conn: 7,
            text: "{}".into(),
            room: Some("r".into()),
            fence: 4,
        };
        let wire = serde_json::to_string(&from_room).unwrap();
        assert_eq!(
            wire,
            r#"{"k":"frame","conn":7,"text":"{}","room":"r","fence":4}"#
        );
        assert_eq!(serde_json::from_str::<BusMsg>(&wire).unwrap(), from_room);
        // As a node sends a frame no room sent, and as nodes of earlier releases send any.
        let plain: BusMsg = serde_json::from_str(r#"{"k":"frame","conn":7,"text":"{}"}"#).unwrap();
        assert_eq!(
            plain,
            BusMsg::Frame {
                conn: 7,
                text: "{}".into(),
                room: None,
                fence: 0
            }
        );
        let entered: BusMsg =
            serde_json::from_str(r#"{"k":"entered","conn":7,"room":"r"}"#).unwrap();
        assert_eq!(
            entered,
            BusMsg::Entered {
                conn: 7,
                room: "r".into(),
                fence: 0
            }
        );
    }
}
