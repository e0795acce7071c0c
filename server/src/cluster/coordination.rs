//! The hall's coordination, one interface with two implementations: [`Alone`], in this
//! process, for a hall on one node (the embedded default), and [`Cluster`], over Redis with
//! PostgreSQL as the source of truth, for many. Rooms, sessions, pairing, the lobby, reviews,
//! accounts and tournaments speak to this type only, and take one path whichever is behind
//! it: on one node a room is claimed like any other (and is never lost), a request is never
//! for another node, and nothing arrives from one.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use game_core::GameKind;
use tokio::sync::{watch, OwnedMutexGuard};

use super::alone::{Alone, ALONE};
use super::{
    review_tally, BusInbox, BusMsg, Claim, Cluster, ClusterError, ClusterSettings, PeerNews,
    SeekEntry, OPEN_ROOMS,
};
use crate::accounts::guard::SignInGuard;
use crate::accounts::new_players::NewPlayers;
use crate::accounts::players::PlayerRecord;
use crate::metrics::Metrics;
use crate::net::connection::Conn;
use crate::room::open_rooms::OpenRooms;

/// The counts of the hall, which a player or an address spread over several nodes has once.
pub struct HallCounts {
    /// Sign-in attempts per address, and failures and lock-outs per name.
    pub signin: SignInGuard,
    /// New players made per address in a window.
    pub new_players: NewPlayers,
    /// Open rooms per player and per address.
    pub open_rooms: OpenRooms,
    /// Reviews asked and not yet done, per player and per address (a unit `review:{room}`).
    pub reviews: OpenRooms,
}

/// Cheap-clone handle to this node's part of the hall's coordination.
#[derive(Clone)]
pub enum Coordination {
    /// One node: everything in this process.
    Alone(Arc<Alone>),
    /// A node of a cluster.
    Shared(Cluster),
}

impl std::fmt::Debug for Coordination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Coordination({})", self.node())
    }
}

impl Coordination {
    /// The coordination of a hall on one node (`None`) or the cluster's, joined; with what
    /// arrives from the other nodes (nothing, alone).
    pub async fn open(
        settings: Option<&ClusterSettings>,
        metrics: Metrics,
    ) -> Result<(Coordination, BusInbox), ClusterError> {
        match settings {
            Some(settings) => {
                let (cluster, inbox) = Cluster::open(settings, metrics).await?;
                Ok((Coordination::Shared(cluster), inbox))
            }
            None => Ok((Coordination::alone(), BusInbox::silent())),
        }
    }

    /// The coordination of a hall on one node.
    #[must_use]
    pub fn alone() -> Coordination {
        Coordination::Alone(Arc::new(Alone::new()))
    }

    /// Whether this node starts the hall's unfinished rooms and running tournaments itself
    /// when it starts: alone it holds them all; the nodes of a cluster claim them as requests
    /// and sweeps reach them.
    #[must_use]
    pub fn resumes_all_at_start(&self) -> bool {
        matches!(self, Coordination::Alone(_))
    }

    /// Whether other nodes make accounts this node may not have heard of yet (a name or
    /// player unknown here is looked up in the store).
    #[must_use]
    pub fn accounts_made_elsewhere(&self) -> bool {
        matches!(self, Coordination::Shared(_))
    }

    /// Whether other nodes' lobbies list this node's rooms (a room then shares its summary
    /// on the bus; alone it keeps no copy of what it would share).
    #[must_use]
    pub fn shares_lobby(&self) -> bool {
        matches!(self, Coordination::Shared(_))
    }

    /// The hall's counts, each kept where this coordination keeps them (in this process
    /// alone, in Redis in a cluster); a review counts at most `review_life`.
    #[must_use]
    pub fn counts(&self, review_life: Duration) -> HallCounts {
        match self {
            Coordination::Alone(_) => HallCounts {
                signin: SignInGuard::local(),
                new_players: NewPlayers::local(),
                open_rooms: OpenRooms::local(),
                reviews: OpenRooms::local(),
            },
            Coordination::Shared(c) => HallCounts {
                signin: SignInGuard::Shared(c.clone()),
                new_players: NewPlayers::Shared(c.clone()),
                open_rooms: OpenRooms::Shared(c.clone(), OPEN_ROOMS),
                reviews: OpenRooms::Shared(c.clone(), review_tally(review_life)),
            },
        }
    }

    /// This node's id.
    #[must_use]
    pub fn node(&self) -> &str {
        match self {
            Coordination::Alone(_) => ALONE,
            Coordination::Shared(c) => c.node(),
        }
    }

    /// The first connection id of this node.
    #[must_use]
    pub fn first_conn_id(&self) -> u64 {
        match self {
            Coordination::Alone(_) => 1,
            Coordination::Shared(c) => c.first_conn_id(),
        }
    }

    /// Word that this run of this node is here.
    #[must_use]
    pub fn started_msg(&self) -> BusMsg {
        match self {
            Coordination::Alone(_) => BusMsg::NodeStarted {
                node: ALONE.to_string(),
                number: 0,
            },
            Coordination::Shared(c) => c.started_msg(),
        }
    }

    /// How long a lease lasts: the period the node's sweeps are timed by.
    #[must_use]
    pub fn lease_time(&self) -> Duration {
        match self {
            Coordination::Alone(_) => Alone::sweep_time(),
            Coordination::Shared(c) => c.lease_time(),
        }
    }

    // ---- the bus

    /// Queues `msg` for `node`; false when it is not taken (alone: there is no other node).
    pub fn send(&self, node: &str, msg: &BusMsg) -> bool {
        match self {
            Coordination::Alone(_) => false,
            Coordination::Shared(c) => c.bus().send(node, msg),
        }
    }

    /// Sends `msg` to `node`; true once that node surely heard it.
    pub async fn send_confirmed(&self, node: &str, msg: &BusMsg) -> bool {
        match self {
            Coordination::Alone(_) => false,
            Coordination::Shared(c) => c.bus().send_confirmed(node, msg).await,
        }
    }

    /// Whether this node is the whole hall (no cluster).
    #[must_use]
    pub fn is_alone(&self) -> bool {
        matches!(self, Coordination::Alone(_))
    }

    /// Queues `msg` for every node (this one too, in a cluster).
    pub fn send_everyone(&self, msg: &BusMsg) {
        if let Coordination::Shared(c) = self {
            c.bus().send_everyone(msg);
        }
    }

    /// Whether connection `conn` of `node` is known to be closed (its node gone or
    /// restarted).
    #[must_use]
    pub fn is_closed(&self, node: &str, conn: u64) -> bool {
        match self {
            Coordination::Alone(_) => false,
            Coordination::Shared(c) => c.bus().is_closed(node, conn),
        }
    }

    /// Records the number of `node`'s current run; true when that is news (a restart).
    pub fn set_number(&self, node: &str, number: u64) -> bool {
        match self {
            Coordination::Alone(_) => false,
            Coordination::Shared(c) => c.bus().set_number(node, number),
        }
    }
}

/// Ownership: rooms' and tournament directors' leases.
impl Coordination {
    /// The node that owns `room` now, if another does.
    pub async fn owner(&self, room: &str) -> Result<Option<String>, ClusterError> {
        match self {
            Coordination::Alone(_) => Ok(None),
            Coordination::Shared(c) => c.owner(room).await,
        }
    }

    /// Which of `rooms` no node holds (alone: none, this node holds them all).
    pub async fn unowned(&self, rooms: Vec<String>) -> Result<Vec<String>, ClusterError> {
        match self {
            Coordination::Alone(_) => Ok(Vec::new()),
            Coordination::Shared(c) => c.unowned(rooms).await,
        }
    }

    /// Holds this node's claims of `room` to one at a time.
    pub async fn claim_lock(&self, room: &str) -> OwnedMutexGuard<()> {
        match self {
            Coordination::Alone(a) => a.claim_lock(room).await,
            Coordination::Shared(c) => c.0.claims.lock(room).await,
        }
    }

    /// Forgets the claim lock of `room` once nobody waits on it.
    pub fn claim_done(&self, room: &str, guard: OwnedMutexGuard<()>) {
        match self {
            Coordination::Alone(a) => a.claim_done(room, guard),
            Coordination::Shared(c) => c.0.claims.done(room, guard),
        }
    }

    /// Claims the lease `name` with a fence above `floor` (the store's; alone, that fence
    /// itself).
    pub async fn claim(&self, name: &str, floor: u64) -> Result<Claim, ClusterError> {
        match self {
            Coordination::Alone(_) => Ok(Alone::claim(floor)),
            Coordination::Shared(c) => c.claim(name, floor).await,
        }
    }

    /// Gives the lease `name` back.
    pub fn release(&self, name: &str, fence: u64) {
        if let Coordination::Shared(c) = self {
            c.release(name, fence);
        }
    }

    /// Whether this node surely still holds the lease `name` under `fence`.
    #[must_use]
    pub fn holds(&self, name: &str, fence: u64) -> bool {
        match self {
            Coordination::Alone(_) => true,
            Coordination::Shared(c) => c.holds(name, fence),
        }
    }

    /// Whether this node's leases are surely still its own (it may write).
    #[must_use]
    pub fn leases_fresh(&self) -> bool {
        match self {
            Coordination::Alone(_) => true,
            Coordination::Shared(c) => c.leases_fresh(),
        }
    }

    /// Renews this node's leases while the store takes writes, until shutdown (alone there
    /// is nothing to renew).
    pub async fn renew_leases(self, store: crate::store::Store, shutdown: watch::Receiver<bool>) {
        if let Coordination::Shared(c) = self {
            c.renew_leases(store, shutdown).await;
        }
    }
}

/// Presence: which nodes live, and this node's own.
impl Coordination {
    /// Resolves when this node's presence was found lost (never, alone).
    pub async fn presence_lost(&self) {
        match self {
            Coordination::Alone(_) => std::future::pending().await,
            Coordination::Shared(c) => c.presence_lost().await,
        }
    }

    /// The nodes found gone or restarted since the last call.
    pub async fn check_peers(&self) -> PeerNews {
        match self {
            Coordination::Alone(_) => PeerNews::default(),
            Coordination::Shared(c) => c.check_peers().await,
        }
    }

    /// The rooms of these (gone) nodes this node's lobby listed, no longer listed.
    pub fn unlist_nodes(&self, nodes: &[Arc<str>]) -> Vec<String> {
        match self {
            Coordination::Alone(_) => Vec::new(),
            Coordination::Shared(c) => c.unlist_nodes(nodes),
        }
    }

    /// This node's lobby lists `room` of `node`.
    pub fn listed_elsewhere(&self, room: &str, node: &str) {
        if let Coordination::Shared(c) = self {
            c.listed_elsewhere(room, node);
        }
    }

    /// `room` of `node` left its memory; true if this node's lobby listed it.
    pub fn unlisted(&self, room: &str, node: &str) -> bool {
        match self {
            Coordination::Alone(_) => false,
            Coordination::Shared(c) => c.unlisted(room, node),
        }
    }
}

/// This node's connections, its bots and analysis workers, as the hall sees them.
impl Coordination {
    fn conns(&self) -> &super::conns::ConnTable {
        match self {
            Coordination::Alone(a) => &a.conns,
            Coordination::Shared(c) => &c.0.conns,
        }
    }

    /// A connection of this node opened.
    pub fn conn_opened(&self, conn: &Conn) {
        self.conns().opened(conn);
    }

    /// A connection of this node said who it is.
    pub fn conn_is(&self, id: u64, player: &PlayerRecord) {
        self.conns().is(id, player);
    }

    /// A bot said `hello` on connection `id` of this node (every node hears of it).
    pub fn bot_here(&self, id: u64, player: &PlayerRecord, games: &[GameKind], capacity: u32) {
        match self {
            Coordination::Alone(a) => a.conns.bot(id, games, capacity),
            Coordination::Shared(c) => c.bot_here(id, player, games, capacity),
        }
    }

    /// Tells every other node again of this node's bots and workers (one has just joined).
    pub fn announce_here(&self) {
        if let Coordination::Shared(c) = self {
            c.announce_bots();
            c.announce_workers();
        }
    }

    /// A connection of this node closed.
    pub fn conn_closed(&self, id: u64) {
        match self {
            Coordination::Alone(a) => {
                a.conns.closed(id);
            }
            Coordination::Shared(c) => c.conn_closed(id),
        }
    }

    /// A connection of this node, by id.
    #[must_use]
    pub fn conn(&self, id: u64) -> Option<Conn> {
        self.conns().get(id)
    }

    /// Every room some connection of this node is a member of, or awaits the answer to a
    /// join of (passed to the room's node).
    #[must_use]
    pub fn member_rooms(&self) -> BTreeSet<String> {
        self.conns().rooms()
    }

    /// This node's connections to join `room` again where it is now: its members, and those
    /// whose join of it went to its node unanswered; with their players, and whether each
    /// joins for a seat.
    #[must_use]
    pub fn joining_again(&self, room: &str) -> Vec<(Conn, PlayerRecord, bool)> {
        self.conns().joining_again(room)
    }

    /// An account was made here: every other node hears of it.
    pub fn account_made(&self, account: &crate::store::StoredAccount) {
        if let Coordination::Shared(c) = self {
            c.account_made(account);
        }
    }

    /// A token was signed out here: every other node hears of it.
    pub fn token_dropped(&self, token_hash: &str) {
        if let Coordination::Shared(c) = self {
            c.token_dropped(token_hash);
        }
    }

    /// This node has `count` analysis workers now (every other node hears it).
    pub fn workers_here(&self, count: u32) {
        if let Coordination::Shared(c) = self {
            c.workers_here(count);
        }
    }

    /// Word that `node` has `count` workers.
    pub fn workers_at(&self, node: &str, count: u32) {
        if let Coordination::Shared(c) = self {
            c.workers_at(node, count);
        }
    }

    /// Another live node with analysis workers, for a review asked where there is none.
    #[must_use]
    pub fn node_with_workers(&self) -> Option<String> {
        match self {
            Coordination::Alone(_) => None,
            Coordination::Shared(c) => c.node_with_workers(),
        }
    }
}

/// Quick pairing's book: the hall's seekers.
impl Coordination {
    /// Takes the first live seeker waiting under `spec` (see `seeks::spec_key`), or leaves
    /// `entry` waiting.
    pub async fn seek(
        &self,
        spec: &str,
        entry: &SeekEntry,
    ) -> Result<Option<SeekEntry>, ClusterError> {
        match self {
            Coordination::Alone(a) => Ok(a.seek(spec, entry)),
            Coordination::Shared(c) => c.seek(spec, entry).await,
        }
    }

    /// Puts a seeker taken by [`Coordination::seek`] back first in line.
    pub async fn put_back(&self, spec: &str, entry: &SeekEntry) {
        match self {
            Coordination::Alone(a) => a.put_back(spec, entry),
            Coordination::Shared(c) => c.put_back(spec, entry).await,
        }
    }

    /// Withdraws the seek connection `conn` of this node left waiting, if any.
    pub async fn unseek(&self, conn: u64) {
        match self {
            Coordination::Alone(a) => a.unseek(conn),
            Coordination::Shared(c) => c.unseek(conn).await,
        }
    }

    /// The live seekers of the hall per game-and-clock key.
    pub async fn seek_counts(&self) -> Result<Vec<(String, u32)>, ClusterError> {
        match self {
            Coordination::Alone(a) => Ok(a.seek_counts()),
            Coordination::Shared(c) => c.seek_counts().await,
        }
    }

    /// Word that some node's seeks changed.
    pub fn seeks_changed(&self) {
        if let Coordination::Shared(c) = self {
            c.seeks_changed();
        }
    }

    /// Resolves at the next change of the seeks.
    pub async fn next_seeks_change(&self) {
        match self {
            Coordination::Alone(a) => a.next_seeks_change().await,
            Coordination::Shared(c) => c.next_seeks_change().await,
        }
    }
}
