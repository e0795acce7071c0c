//! The server's shared state: the store, the metrics, handles to the live rooms, the players
//! and their connections, the bots, the quick-pairing book, the review queue, the tournaments
//! directed here and the lobby's feed. It holds handles and small records only — room state
//! lives in each room's task — and sits below rooms, sessions, tournaments and the lobby: it
//! imports none of them. No map guard or lock is ever held across an `.await`, but for the
//! tournaments' edit lock, an async one made for it.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use dashmap::mapref::entry::Entry;
use dashmap::DashMap;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use crate::accounts::guard::SignInGuard;
use crate::accounts::new_players::{NewPlayers, NotAdmitted};
use crate::accounts::players::Players;
use crate::accounts::Accounts;
use crate::bots::BotRegistry;
use crate::cluster::Coordination;
use crate::config::Config;
use crate::lobby::feed::LobbyFeed;
use crate::lobby::seeks::SeekBook;
use crate::metrics::Metrics;
use crate::net::gate::ConnectionGate;
use crate::net::listener::Sockets;
use crate::player_links::PlayerLinks;
use crate::review::ReviewQueue;
use crate::room::handle::RoomHandle;
use crate::room::open_rooms::OpenRooms;
use crate::room::parked::ParkedMembers;
use crate::store::Store;
use crate::tournament::registry::TournamentRegistry;

/// A review asked on another node, which has no analysis worker, for this node's workers.
#[derive(Debug)]
pub struct ReviewAsked {
    pub room: String,
    /// The asking connection, on its node.
    pub link: crate::room::member::MemberLink,
    pub player: String,
    pub address: Option<IpAddr>,
}

/// Reviews from other nodes waiting to be queued here; past this, more are dropped (their
/// askers ask again).
pub const REVIEWS_ASKED: usize = 1024;

/// Shared by every connection and room through an `Arc`. Its parts are private: each layer
/// reaches the ones it uses through a method (grouped below by who uses them), and the
/// hub's own bookkeeping — live rooms, sessions, the hall's counts — only through what it
/// does with them.
pub struct Hub {
    config: Config,
    store: Store,
    /// This node's part of the hall's coordination: alone, or of a cluster.
    coord: Coordination,
    metrics: Metrics,
    /// Live rooms by id. DashMap: many readers (every message looks its room up), rare writers:
    /// a room registers once its task starts and leaves as it stops (`register_room`,
    /// `unregister_room`).
    rooms: DashMap<String, RoomHandle>,
    players: Players,
    /// Every open connection of each player (to tell a player of a game made for them).
    links: PlayerLinks,
    /// Accounts by name and player.
    accounts: Accounts,
    /// Sign-in attempts and lock-outs, the hall's (shared by the nodes of a cluster).
    signin: SignInGuard,
    bots: BotRegistry,
    seeks: SeekBook,
    lobby: LobbyFeed,
    /// Open connections per address.
    gate: ConnectionGate,
    /// Every open socket, before and after its handshake.
    sockets: Arc<Sockets>,
    /// Members of finished rooms that left memory, for the room's reload.
    parked: ParkedMembers,
    /// Reviews waiting for an analysis worker, and the workers.
    reviews: ReviewQueue,
    /// The analysis board's live analyses on this node's workers.
    live: crate::review::live::LiveAnalyses,
    /// Every puzzle this node serves: the shipped ones and the hall's.
    puzzles: crate::puzzles::PuzzleLibrary,
    /// The open challenges of this node's players.
    challenges: crate::lobby::open_challenges::Challenges,
    /// The blocks this node knows.
    blocks: crate::moderation::block_lists::Blocks,
    sanctions: crate::moderation::in_force::Sanctions,
    /// Missed wins of reviewed games waiting for a worker's proof, and those under way.
    hall_proofs: crate::puzzles::hall::HallProofs,
    /// Reviews asked on other nodes for this node's workers (served by
    /// `session::reviews::serve_asked`).
    reviews_asked: tokio::sync::mpsc::Sender<ReviewAsked>,
    /// The tournaments this server directs, and the lock of edits of open ones.
    tournaments: TournamentRegistry,
    /// New players made per address, in the current window of each: the hall's count.
    new_players: NewPlayers,
    /// Open rooms per player and per address: the hall's count.
    open_rooms: OpenRooms,
    /// Reviews asked and not done yet, per player and per address: the hall's count.
    review_counts: OpenRooms,
    /// Flips to true once when the server shuts down.
    shutdown: watch::Receiver<bool>,
    next_conn: AtomicU64,
    /// Sessions still running; shutdown waits for them to send their close frames.
    live_sessions: AtomicUsize,
    sessions_ended: Notify,
}

impl Hub {
    pub fn new(
        config: Config,
        store: Store,
        coord: Coordination,
        metrics: Metrics,
        lobby: LobbyFeed,
        reviews_asked: tokio::sync::mpsc::Sender<ReviewAsked>,
        shutdown: watch::Receiver<bool>,
    ) -> Hub {
        let gate = ConnectionGate::new(config.limits.connections_per_address);
        let sockets = Arc::new(Sockets::new(&config.limits, metrics.clone()));
        let reviews = ReviewQueue::new(crate::review::QueueLimits {
            max_waiting: config.limits.review_queue,
            wait: config.limits.review_wait,
            ply_time: config.limits.review_ply_time,
        });
        let first_conn = coord.first_conn_id();
        let counts = coord.counts(crate::review::longest_life(&reviews.limits()));
        Hub {
            config,
            store,
            coord,
            metrics,
            rooms: DashMap::new(),
            players: Players::default(),
            links: PlayerLinks::default(),
            accounts: Accounts::default(),
            signin: counts.signin,
            bots: BotRegistry::new(lobby.clone()),
            seeks: SeekBook::new(lobby.clone()),
            lobby,
            gate,
            sockets,
            parked: ParkedMembers::default(),
            reviews,
            live: crate::review::live::LiveAnalyses::default(),
            puzzles: crate::puzzles::PuzzleLibrary::new(),
            challenges: crate::lobby::open_challenges::Challenges::default(),
            blocks: crate::moderation::block_lists::Blocks::default(),
            sanctions: crate::moderation::in_force::Sanctions::default(),
            hall_proofs: crate::puzzles::hall::HallProofs::default(),
            reviews_asked,
            tournaments: TournamentRegistry::default(),
            new_players: counts.new_players,
            open_rooms: counts.open_rooms,
            review_counts: counts.reviews,
            shutdown,
            next_conn: AtomicU64::new(first_conn),
            live_sessions: AtomicUsize::new(0),
            sessions_ended: Notify::new(),
        }
    }

    // ---- what every layer reaches ------------------------------------------------------------

    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// This node's part of the hall's coordination: alone, or of a cluster.
    #[must_use]
    pub fn coord(&self) -> &Coordination {
        &self.coord
    }

    #[must_use]
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Flips to true once when the server shuts down (clone it to wait on it).
    #[must_use]
    pub fn shutdown(&self) -> &watch::Receiver<bool> {
        &self.shutdown
    }

    // ---- who is here: sessions, the HTTP routes, housekeeping -------------------------------

    /// Players known in memory.
    #[must_use]
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// Every open connection of each player.
    #[must_use]
    pub fn links(&self) -> &PlayerLinks {
        &self.links
    }

    /// Accounts by name and player.
    #[must_use]
    pub fn accounts(&self) -> &Accounts {
        &self.accounts
    }

    /// Sign-in attempts and lock-outs, the hall's.
    #[must_use]
    pub fn signin(&self) -> &SignInGuard {
        &self.signin
    }

    /// Open connections per address.
    #[must_use]
    pub fn gate(&self) -> &ConnectionGate {
        &self.gate
    }

    /// Every open socket, before and after its handshake.
    #[must_use]
    pub fn sockets(&self) -> &Arc<Sockets> {
        &self.sockets
    }

    // ---- what is played: rooms, the lobby, reviews, tournaments -----------------------------

    /// Bots connected to the hall, and their games.
    #[must_use]
    pub fn bots(&self) -> &BotRegistry {
        &self.bots
    }

    /// The counts of quick-pairing seeks the lobby shows.
    #[must_use]
    pub fn seeks(&self) -> &SeekBook {
        &self.seeks
    }

    /// The lobby's feed.
    #[must_use]
    pub fn lobby(&self) -> &LobbyFeed {
        &self.lobby
    }

    /// Members of finished rooms that left memory, for the room's reload.
    #[must_use]
    pub fn parked(&self) -> &ParkedMembers {
        &self.parked
    }

    /// The live analyses of the analysis board running on this node's workers.
    #[must_use]
    pub fn live(&self) -> &crate::review::live::LiveAnalyses {
        &self.live
    }

    /// The open challenges of this node's players.
    #[must_use]
    pub fn challenges(&self) -> &crate::lobby::open_challenges::Challenges {
        &self.challenges
    }

    /// The moderators' sanctions in force, as this node knows them.
    #[must_use]
    pub fn sanctions(&self) -> &crate::moderation::in_force::Sanctions {
        &self.sanctions
    }

    /// The blocks this node knows.
    #[must_use]
    pub fn blocks(&self) -> &crate::moderation::block_lists::Blocks {
        &self.blocks
    }

    /// Every puzzle this node serves.
    #[must_use]
    pub fn puzzles(&self) -> &crate::puzzles::PuzzleLibrary {
        &self.puzzles
    }

    /// The hall's puzzle candidates waiting for a worker's proof.
    #[must_use]
    pub fn hall_proofs(&self) -> &crate::puzzles::hall::HallProofs {
        &self.hall_proofs
    }

    /// Reviews waiting for an analysis worker, and the workers.
    #[must_use]
    pub fn reviews(&self) -> &ReviewQueue {
        &self.reviews
    }

    /// The tournaments this server directs, and the lock of edits of open ones.
    #[must_use]
    pub fn tournaments(&self) -> &TournamentRegistry {
        &self.tournaments
    }

    // ---- sessions -----------------------------------------------------------------------------

    /// A session started.
    pub fn session_started(&self) {
        self.live_sessions.fetch_add(1, Ordering::SeqCst);
    }

    /// A session ended (its close frame, if any, is sent).
    pub fn session_ended(&self) {
        self.live_sessions.fetch_sub(1, Ordering::SeqCst);
        self.sessions_ended.notify_waiters();
    }

    /// Resolves once every session has ended.
    pub async fn sessions_done(&self) {
        loop {
            let ended = self.sessions_ended.notified();
            if self.live_sessions.load(Ordering::SeqCst) == 0 {
                return;
            }
            ended.await;
        }
    }

    #[must_use]
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The live room of that id, if it is in memory.
    #[must_use]
    pub fn room(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.get(id).map(|h| h.clone())
    }

    /// Every live room.
    #[must_use]
    pub fn live_rooms(&self) -> Vec<RoomHandle> {
        self.rooms.iter().map(|r| r.clone()).collect()
    }

    /// Registers the task of a room unless one of that id runs already: then that one's
    /// handle, and nothing is registered (a room has exactly one writer).
    pub fn register_room(&self, handle: &RoomHandle) -> Option<RoomHandle> {
        match self.rooms.entry(handle.id.clone()) {
            Entry::Occupied(running) => Some(running.get().clone()),
            Entry::Vacant(slot) => {
                slot.insert(handle.clone());
                None
            }
        }
    }

    /// A room's task leaves: its registration goes, unless another task of that id has taken
    /// its place meanwhile (whose queue is not `tx`).
    pub fn unregister_room(
        &self,
        id: &str,
        tx: &tokio::sync::mpsc::Sender<crate::room::handle::RoomCmd>,
    ) {
        self.rooms.remove_if(id, |_, h| h.tx.same_channel(tx));
    }

    /// A review another node asks this node's workers for; false (dropped: its asker asks
    /// again) when too many wait already.
    pub fn review_asked(&self, asked: ReviewAsked) -> bool {
        self.reviews_asked.try_send(asked).is_ok()
    }

    /// An account was made here: known at once on this node and, through the bus, on every
    /// other (a node that misses the word still finds the account by its exact name in the
    /// store, and knows it after its next start).
    pub fn account_made(&self, account: &crate::store::StoredAccount) {
        self.accounts.insert(account);
        self.coord.account_made(account);
    }

    /// The hall's count of open rooms per player and per address.
    #[must_use]
    pub fn open_rooms(&self) -> &OpenRooms {
        &self.open_rooms
    }

    /// The hall's count of reviews asked per player and per address.
    #[must_use]
    pub fn review_counts(&self) -> &OpenRooms {
        &self.review_counts
    }

    /// Counts a new player made from `address`, for the hall; refused when the address has
    /// made too many in its window, or when the count cannot be reached.
    pub async fn admit_new_player(&self, address: IpAddr) -> Result<(), NotAdmitted> {
        let rate = self.config.limits.new_player_rate();
        self.new_players.admit(rate, address).await
    }

    /// Forgets the windows of addresses that made no new player lately, so the map does not
    /// grow with every address ever seen.
    pub fn expire_new_player_windows(&self, now: Instant) {
        let rate = self.config.limits.new_player_rate();
        self.new_players.expire(rate, now);
    }
}

/// Shared handle.
pub type SharedHub = Arc<Hub>;
