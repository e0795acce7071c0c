//! The server's shared state: handles to rooms, known players and their live connections,
//! connected bots, and the quick-pairing book. Maps hold handles and small records only; room
//! state lives in each room's task. No map guard or lock is ever held across an `.await`.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dashmap::DashMap;
use tokio::sync::{mpsc, watch, Notify};

use game_core::protocol::{BotInfo, ClockSpec, SeekInfo};
use game_core::{GameKind, GameSpec};

use crate::config::Config;
use crate::conn::Conn;
use crate::lobby::LobbyEvent;
use crate::metrics::Metrics;
use crate::room::RoomHandle;
use crate::store::Store;

/// A known player (from the store or a `hello`).
#[derive(Clone, Debug)]
pub struct PlayerRecord {
    pub id: String,
    pub name: String,
    pub bot: bool,
}

/// A bot that said `hello` with the bot key during this run of the server.
#[derive(Clone, Debug)]
pub struct BotEntry {
    pub player: String,
    pub name: String,
    pub games: Vec<GameKind>,
    pub capacity: u32,
    /// Rooms it sits in (unfinished) plus invitations it has not answered.
    pub busy: u32,
    /// Its live connections.
    pub conns: Vec<Conn>,
    /// Rooms waiting for its answer to an invitation (told if its last connection closes).
    pub invited: HashSet<String>,
}

/// One player waiting for quick pairing.
#[derive(Clone, Debug)]
pub struct Seeker {
    pub seek: String,
    pub player: PlayerRecord,
    pub conn: Conn,
}

/// Seeks grouped by game and clock. A `std::sync::Mutex` because every operation is short
/// and synchronous, and pairing must take two seekers atomically.
#[derive(Default)]
pub struct SeekBook {
    pub waiting: Vec<(GameSpec, Option<ClockSpec>, Seeker)>,
}

/// Cheap-clone (`Arc`) handle to everything the connections and rooms share.
pub struct Hub {
    pub config: Config,
    pub store: Store,
    pub metrics: Metrics,
    /// Live rooms by id. DashMap: many readers (every message looks its room up), rare writers.
    pub rooms: DashMap<String, RoomHandle>,
    /// Players by id.
    pub players: DashMap<String, PlayerRecord>,
    /// Player ids by token hash.
    pub tokens: DashMap<String, String>,
    /// Bots by player id.
    pub bots: DashMap<String, BotEntry>,
    pub seeks: Mutex<SeekBook>,
    pub lobby: mpsc::UnboundedSender<LobbyEvent>,
    /// Flips to true once when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
    next_conn: AtomicU64,
    /// Sessions still running; shutdown waits for them to send their close frames.
    live_sessions: AtomicUsize,
    sessions_ended: Notify,
}

impl Hub {
    pub fn new(
        config: Config,
        store: Store,
        metrics: Metrics,
        lobby: mpsc::UnboundedSender<LobbyEvent>,
        shutdown: watch::Receiver<bool>,
    ) -> Hub {
        Hub {
            config,
            store,
            metrics,
            rooms: DashMap::new(),
            players: DashMap::new(),
            tokens: DashMap::new(),
            bots: DashMap::new(),
            seeks: Mutex::new(SeekBook::default()),
            lobby,
            shutdown,
            next_conn: AtomicU64::new(1),
            live_sessions: AtomicUsize::new(0),
            sessions_ended: Notify::new(),
        }
    }

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

    /// Tells the lobby that its lists may have changed.
    pub fn lobby_changed(&self) {
        let _ = self.lobby.send(LobbyEvent::Changed);
    }

    /// Picks a connected bot that plays `kind`, has room for one more game and is not in
    /// `tried`, and counts the invitation to `room` against its capacity.
    #[must_use]
    pub fn reserve_bot(
        &self,
        kind: GameKind,
        tried: &[String],
        room: &str,
    ) -> Option<(String, Vec<Conn>)> {
        let mut best: Option<(u32, String)> = None;
        for entry in &self.bots {
            let bot = entry.value();
            let online = bot.conns.iter().any(|c| !c.is_closed());
            if online
                && bot.games.contains(&kind)
                && bot.busy < bot.capacity
                && !tried.contains(&bot.player)
                && best.as_ref().is_none_or(|(busy, _)| bot.busy < *busy)
            {
                best = Some((bot.busy, bot.player.clone()));
            }
        }
        let (_, id) = best?;
        let mut bot = self.bots.get_mut(&id)?;
        bot.busy += 1;
        bot.invited.insert(room.to_string());
        let conns = bot.conns.clone();
        drop(bot);
        self.lobby_changed();
        Some((id, conns))
    }

    /// A bot joined, declined or lost its invitation to `room`.
    pub fn invite_resolved(&self, player: &str, room: &str) {
        if let Some(mut bot) = self.bots.get_mut(player) {
            bot.invited.remove(room);
        }
    }

    /// A bot's game or invitation ended.
    pub fn release_bot(&self, player: &str) {
        if let Some(mut bot) = self.bots.get_mut(player) {
            bot.busy = bot.busy.saturating_sub(1);
        }
        self.lobby_changed();
    }

    /// Counts a game a bot already sits in (rooms reloaded at start).
    pub fn hold_bot(&self, player: &str, name: &str) {
        self.bots
            .entry(player.to_string())
            .or_insert_with(|| BotEntry {
                player: player.to_string(),
                name: name.to_string(),
                games: Vec::new(),
                capacity: 0,
                busy: 0,
                conns: Vec::new(),
                invited: HashSet::new(),
            })
            .busy += 1;
    }

    /// The live connections of a bot.
    #[must_use]
    pub fn bot_conns(&self, player: &str) -> Vec<Conn> {
        self.bots
            .get(player)
            .map(|b| b.conns.iter().filter(|c| !c.is_closed()).cloned().collect())
            .unwrap_or_default()
    }

    /// The lobby's list of connected bots.
    #[must_use]
    pub fn bot_list(&self) -> Vec<BotInfo> {
        let mut list: Vec<BotInfo> = self
            .bots
            .iter()
            .filter(|b| b.conns.iter().any(|c| !c.is_closed()))
            .map(|b| BotInfo {
                name: b.name.clone(),
                games: b.games.clone(),
                levels: (1..=10).collect(),
                busy: b.busy,
                capacity: b.capacity,
            })
            .collect();
        list.sort_by(|a, b| a.name.cmp(&b.name));
        list
    }

    /// The lobby's list of seeks.
    #[must_use]
    pub fn seek_list(&self) -> Vec<SeekInfo> {
        let book = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let mut counts: HashMap<String, SeekInfo> = HashMap::new();
        for (game, clock, _) in &book.waiting {
            let key = serde_json::to_string(&(game, clock)).unwrap_or_default();
            counts
                .entry(key)
                .or_insert_with(|| SeekInfo {
                    game: game.clone(),
                    clock: *clock,
                    waiting: 0,
                })
                .waiting += 1;
        }
        let mut list: Vec<SeekInfo> = counts.into_values().collect();
        list.sort_by_key(|s| serde_json::to_string(&s.game).unwrap_or_default());
        list
    }

    /// Removes every seek of a connection (unseek, or the connection closed).
    pub fn drop_seeks(&self, conn_id: u64) -> bool {
        let mut book = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let before = book.waiting.len();
        book.waiting.retain(|(_, _, s)| s.conn.id != conn_id);
        let changed = book.waiting.len() != before;
        drop(book);
        if changed {
            self.lobby_changed();
        }
        changed
    }
}

/// Shared handle.
pub type SharedHub = Arc<Hub>;
