//! The quick-pairing book: players waiting for an opponent with the same game and clock. In
//! a cluster the book is in Redis (`cluster::seeks`) and this one keeps only what the lobby
//! shows of it.

use std::collections::HashMap;
use std::sync::Mutex;

use game_core::protocol::{ClockSpec, SeekInfo};
use game_core::GameSpec;

use crate::accounts::players::PlayerRecord;
use crate::lobby::feed::LobbyFeed;
use crate::room::member::MemberLink;

/// One player waiting for quick pairing.
#[derive(Clone, Debug)]
pub struct Seeker {
    pub seek: String,
    pub player: PlayerRecord,
    pub link: MemberLink,
    /// In a cluster: the seeker as Redis held it, to put back if the pairing fails.
    pub entry: Option<Box<crate::cluster::SeekEntry>>,
}

/// What a `seek` came to.
#[derive(Debug)]
pub enum Pairing {
    /// Paired with this waiting player, whose seek is gone from the book.
    With(Seeker),
    /// Waiting under this seek id.
    Waiting(String),
}

/// Seeks grouped by game and clock. A `std::sync::Mutex` because every operation is short
/// and synchronous, and pairing must take two seekers atomically.
pub struct SeekBook {
    waiting: Mutex<Vec<(GameSpec, Option<ClockSpec>, Seeker)>>,
    /// In a cluster: every node's seeks, as last counted in Redis.
    cluster: Mutex<Option<Vec<SeekInfo>>>,
    lobby: LobbyFeed,
}

/// The key under which seeks of `game` and `clock` wait in a cluster: the two as JSON, which
/// serde writes the same way for equal specs.
#[must_use]
pub fn spec_key(game: &GameSpec, clock: Option<ClockSpec>) -> String {
    serde_json::to_string(&(game, clock)).unwrap_or_default()
}

impl SeekBook {
    #[must_use]
    pub fn new(lobby: LobbyFeed) -> SeekBook {
        SeekBook {
            waiting: Mutex::new(Vec::new()),
            cluster: Mutex::new(None),
            lobby,
        }
    }

    /// Pairs `me` with a player waiting for the same game and clock, or makes `me` wait under
    /// a new seek id. A player has at most one seek: a new one replaces the old.
    pub fn seek(
        &self,
        game: &GameSpec,
        clock: Option<ClockSpec>,
        me: &PlayerRecord,
        link: &MemberLink,
    ) -> Pairing {
        let mut book = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        book.retain(|(_, _, s)| s.player.id != me.id && !s.link.is_closed());
        let found = book.iter().position(|(g, c, _)| g == game && *c == clock);
        let pairing = match found {
            Some(i) => Pairing::With(book.remove(i).2),
            None => {
                let seek = crate::token::random_id(8);
                let seeker = Seeker {
                    seek: seek.clone(),
                    player: me.clone(),
                    link: link.clone(),
                    entry: None,
                };
                book.push((game.clone(), clock, seeker));
                Pairing::Waiting(seek)
            }
        };
        drop(book);
        self.lobby.changed();
        pairing
    }

    /// Removes every seek of a connection (unseek, or the connection closed).
    pub fn drop_conn(&self, conn_id: u64) {
        let mut book = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let before = book.len();
        book.retain(|(_, _, s)| s.link.id() != conn_id);
        let changed = book.len() != before;
        drop(book);
        if changed {
            self.lobby.changed();
        }
    }

    /// Every node's seeks, as counted in Redis (`spec_key`, waiting): the lobby shows these
    /// from now on. Keys that do not read back are left out.
    pub fn show_cluster_counts(&self, counts: Vec<(String, u32)>) {
        let mut list: Vec<SeekInfo> = counts
            .into_iter()
            .filter_map(|(key, waiting)| {
                let (game, clock) = serde_json::from_str(&key).ok()?;
                Some(SeekInfo {
                    game,
                    clock,
                    waiting,
                })
            })
            .collect();
        // By game and clock: the same counts always come in the same order.
        list.sort_by_key(|s| spec_key(&s.game, s.clock));
        let mut shown = self.cluster.lock().unwrap_or_else(|e| e.into_inner());
        if shown.as_ref() != Some(&list) {
            *shown = Some(list);
            drop(shown);
            self.lobby.changed();
        }
    }

    /// The lobby's list of seeks: waiting players per game and clock.
    #[must_use]
    pub fn list(&self) -> Vec<SeekInfo> {
        if let Some(list) = &*self.cluster.lock().unwrap_or_else(|e| e.into_inner()) {
            return list.clone();
        }
        let book = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let mut counts: HashMap<String, SeekInfo> = HashMap::new();
        for (game, clock, _) in book.iter() {
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
        drop(book);
        let mut list: Vec<SeekInfo> = counts.into_values().collect();
        list.sort_by_key(|s| spec_key(&s.game, s.clock));
        list
    }
}
