//! This node's connections as the hall's coordination sees them ([`ConnTable`], kept the
//! same way alone and in a cluster): who each is, the bots among them (in a cluster announced
//! to every node), the rooms they are in; and in a cluster the analysis workers of each node
//! and the rooms of other nodes this node's lobby lists.

use std::collections::BTreeSet;
use std::sync::Arc;

use dashmap::DashMap;

use game_core::GameKind;

use super::{BusMsg, Cluster};
use crate::accounts::players::PlayerRecord;
use crate::net::connection::Conn;

/// A connection of this node, and who it is once it said `hello`.
pub(super) struct LocalConn {
    pub(super) conn: Conn,
    pub(super) player: Option<PlayerRecord>,
    /// A bot's games and capacity, announced to the other nodes.
    pub(super) bot: Option<(Vec<GameKind>, u32)>,
}

/// This node's connections by id: for frames and requests that name one (from the bus, or
/// a seeker taken from the pairing book), with the player each said it is.
#[derive(Default)]
pub(super) struct ConnTable(DashMap<u64, LocalConn>);

impl ConnTable {
    pub(super) fn opened(&self, conn: &Conn) {
        let local = LocalConn {
            conn: conn.clone(),
            player: None,
            bot: None,
        };
        self.0.insert(conn.id, local);
    }

    pub(super) fn is(&self, id: u64, player: &PlayerRecord) {
        if let Some(mut local) = self.0.get_mut(&id) {
            local.player = Some(player.clone());
        }
    }

    pub(super) fn bot(&self, id: u64, games: &[GameKind], capacity: u32) {
        if let Some(mut local) = self.0.get_mut(&id) {
            local.bot = Some((games.to_vec(), capacity));
        }
    }

    /// Forgets connection `id`: what it was, if it was here.
    pub(super) fn closed(&self, id: u64) -> Option<LocalConn> {
        self.0.remove(&id).map(|(_, local)| local)
    }

    pub(super) fn get(&self, id: u64) -> Option<Conn> {
        self.0.get(&id).map(|c| c.conn.clone())
    }

    /// Every room some connection is a member of, or awaits the answer to a join of.
    pub(super) fn rooms(&self) -> BTreeSet<String> {
        self.0
            .iter()
            .flat_map(|c| {
                let mut rooms = c.conn.room_ids();
                rooms.extend(c.conn.joins_awaited());
                rooms
            })
            .collect()
    }

    /// The connections that count `room` as theirs, or await the answer to a join of it
    /// passed to its node; with their players, and whether each joins for a seat (a member
    /// joins again as it is: a seated one is seated again by its id).
    pub(super) fn joining_again(&self, room: &str) -> Vec<(Conn, PlayerRecord, bool)> {
        self.0
            .iter()
            .filter_map(|c| {
                let as_player = if c.conn.is_in(room) {
                    false
                } else {
                    c.conn.join_awaited(room)?
                };
                Some((c.conn.clone(), c.player.clone()?, as_player))
            })
            .collect()
    }

    /// The bots among the connections: id, player, games and capacity.
    pub(super) fn bots(&self) -> Vec<(u64, PlayerRecord, Vec<GameKind>, u32)> {
        self.0
            .iter()
            .filter_map(|c| {
                let (games, capacity) = c.bot.clone()?;
                Some((c.conn.id, c.player.clone()?, games, capacity))
            })
            .collect()
    }
}

impl Cluster {
    /// This node has `count` analysis workers now: every node hears it.
    pub fn workers_here(&self, count: u32) {
        self.0
            .local_workers
            .store(count, std::sync::atomic::Ordering::Relaxed);
        self.announce_workers();
    }

    /// Tells every node again how many workers this node has (a node has just joined).
    pub fn announce_workers(&self) {
        let count = self
            .0
            .local_workers
            .load(std::sync::atomic::Ordering::Relaxed);
        self.0.bus.send_everyone(&BusMsg::Workers {
            node: self.node().to_string(),
            count,
        });
    }

    /// Word from the bus that `node` has `count` workers.
    pub fn workers_at(&self, node: &str, count: u32) {
        if node != self.node() {
            self.0.workers.insert(Arc::from(node), count);
        }
    }

    /// Another live node with analysis workers (the one with most), for a review asked here
    /// where there is none.
    #[must_use]
    pub fn node_with_workers(&self) -> Option<String> {
        self.0
            .workers
            .iter()
            .filter(|w| *w.value() > 0 && !self.0.bus.is_dead(w.key()))
            .max_by_key(|w| *w.value())
            .map(|w| w.key().to_string())
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
        self.0.conns.opened(conn);
    }

    /// A connection of this node said who it is.
    pub fn conn_is(&self, id: u64, player: &PlayerRecord) {
        self.0.conns.is(id, player);
    }

    /// A bot said `hello` on connection `id` of this node: every node hears of it.
    pub fn bot_here(&self, id: u64, player: &PlayerRecord, games: &[GameKind], capacity: u32) {
        self.0.conns.bot(id, games, capacity);
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
        for (conn, player, games, capacity) in self.0.conns.bots() {
            self.0.bus.send_everyone(&BusMsg::BotHere {
                node: self.node().to_string(),
                conn,
                player,
                games,
                capacity,
            });
        }
    }

    /// A connection of this node closed (a bot's: every node hears of it).
    pub fn conn_closed(&self, id: u64) {
        let Some(local) = self.0.conns.closed(id) else {
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
        self.0.conns.get(id)
    }

    /// Every room some connection of this node is a member of, or awaits the answer to a
    /// join of.
    #[must_use]
    pub fn member_rooms(&self) -> BTreeSet<String> {
        self.0.conns.rooms()
    }

    /// Tells every node that `account` was made.
    pub fn account_made(&self, account: &crate::store::StoredAccount) {
        self.0.bus.send_everyone(&BusMsg::AccountMade {
            player: account.player.clone(),
            name: account.name.clone(),
            bot: account.bot,
        });
    }

    /// Tells every node that a token was signed out.
    pub fn token_dropped(&self, token_hash: &str) {
        self.0.bus.send_everyone(&BusMsg::TokenDropped {
            token_hash: token_hash.to_string(),
        });
    }
}
