//! The open rooms (unfinished games) each player and each client address has made, counted
//! for the hall: a player or an address over several nodes has its limit once, not once a
//! node. A room counts from its creation until its game is over (or the waiting room closes),
//! whichever node runs it then. On one node the counts live in this process
//! ([`OpenRooms::Local`]); in a cluster in Redis (`cluster::open_rooms`), where one script
//! checks both limits and counts the room, so that a burst over several nodes counts whole.
//! Both keep the same rules, held by one contract suite (`server/tests/coordination.rs`).
//! The reviews each player and address has asked are counted the same way, each review a unit
//! (`review:{room}`) from its request until it is done, given up or expired.

use std::collections::HashMap;
use std::net::IpAddr;

use parking_lot::Mutex;

use crate::cluster::tally::Tally;
use crate::cluster::Cluster;

/// The open rooms one player, and one address, may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenLimits {
    pub per_player: usize,
    pub per_address: usize,
}

/// Why a room is not opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotOpened {
    /// The player has this many open rooms already.
    Player(usize),
    /// The address has this many open rooms already.
    Address(usize),
    /// The counts cannot be reached (Redis).
    Unavailable,
}

/// Who made a room: the player, and the address they asked from (none for a room reloaded or
/// taken over, whose address is not kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Makers {
    pub player: Option<String>,
    pub address: Option<IpAddr>,
}

/// The hall's count of open rooms.
pub enum OpenRooms {
    /// One node: the counts in this process.
    Local(Mutex<LocalOpenRooms>),
    /// A cluster: the counts in Redis under this tally, shared by every node.
    Shared(Cluster, Tally),
}

impl OpenRooms {
    /// The count for a hall on one node, in this process (the coordination picks which:
    /// `Coordination::counts`).
    #[must_use]
    pub fn local() -> OpenRooms {
        OpenRooms::Local(Mutex::default())
    }

    /// Counts `room`, about to be made by `makers`, unless the player or the address has its
    /// limit of open rooms already.
    pub async fn open(
        &self,
        room: &str,
        makers: &Makers,
        limits: OpenLimits,
    ) -> Result<(), NotOpened> {
        match self {
            OpenRooms::Local(local) => local.lock().open(room, makers, Some(limits)),
            OpenRooms::Shared(cluster, tally) => {
                cluster.open_room(*tally, room, makers, Some(limits)).await
            }
        }
    }

    /// Counts `room`, running here now, if it is not counted yet (a rematch, a room reloaded
    /// or taken over), whatever the limits: it exists already.
    pub async fn opened(&self, room: &str, makers: &Makers) {
        let counted = match self {
            OpenRooms::Local(local) => local.lock().open(room, makers, None),
            OpenRooms::Shared(cluster, tally) => {
                cluster.open_room(*tally, room, makers, None).await
            }
        };
        if let Err(e) = counted {
            tracing::warn!(room, error = ?e, "counting an open room failed");
        }
    }

    /// `room` is over, or was never made: it no longer counts.
    pub async fn closed(&self, room: &str) {
        match self {
            OpenRooms::Local(local) => local.lock().close(room),
            OpenRooms::Shared(cluster, tally) => cluster.close_room(*tally, room).await,
        }
    }
}

impl OpenRooms {
    /// [`OpenRooms::opened`] from where nothing may wait (a room being started): at once on
    /// one node, from a task of its own in a cluster.
    pub fn opened_soon(&self, room: &str, makers: Makers) {
        if makers.player.is_none() && makers.address.is_none() {
            // Made by nobody the limits count (quick pairing, a tournament): nothing to count.
            return;
        }
        match self {
            OpenRooms::Local(local) => {
                let _ = local.lock().open(room, &makers, None);
            }
            OpenRooms::Shared(cluster, tally) => {
                let (cluster, room, tally) = (cluster.clone(), room.to_string(), *tally);
                tokio::spawn(async move {
                    if let Err(e) = cluster.open_room(tally, &room, &makers, None).await {
                        tracing::warn!(room, error = ?e, "counting an open room failed");
                    }
                });
            }
        }
    }

    /// [`OpenRooms::closed`] from where nothing may wait (a room committing its end): at once
    /// on one node, from a task of its own in a cluster.
    pub fn closed_soon(&self, room: &str) {
        match self {
            OpenRooms::Local(local) => local.lock().close(room),
            OpenRooms::Shared(cluster, tally) => {
                let (cluster, room, tally) = (cluster.clone(), room.to_string(), *tally);
                tokio::spawn(async move { cluster.close_room(tally, &room).await });
            }
        }
    }
}

/// The counts in this process.
#[derive(Default)]
pub struct LocalOpenRooms {
    rooms: HashMap<String, Makers>,
    by_player: HashMap<String, usize>,
    by_address: HashMap<IpAddr, usize>,
}

impl LocalOpenRooms {
    /// Counts `room` unless it is counted already or, with `limits`, one of its makers is at
    /// the limit.
    fn open(
        &mut self,
        room: &str,
        makers: &Makers,
        limits: Option<OpenLimits>,
    ) -> Result<(), NotOpened> {
        if self.rooms.contains_key(room) {
            return Ok(());
        }
        if let Some(limits) = limits {
            let of_player = makers.player.as_ref().and_then(|p| self.by_player.get(p));
            if of_player.is_some_and(|n| *n >= limits.per_player) {
                return Err(NotOpened::Player(limits.per_player));
            }
            let of_address = makers.address.and_then(|a| self.by_address.get(&a));
            if of_address.is_some_and(|n| *n >= limits.per_address) {
                return Err(NotOpened::Address(limits.per_address));
            }
        }
        if let Some(player) = &makers.player {
            *self.by_player.entry(player.clone()).or_default() += 1;
        }
        if let Some(address) = makers.address {
            *self.by_address.entry(address).or_default() += 1;
        }
        self.rooms.insert(room.to_string(), makers.clone());
        Ok(())
    }

    fn close(&mut self, room: &str) {
        let Some(makers) = self.rooms.remove(room) else {
            return;
        };
        if let Some(player) = makers.player {
            if let Some(n) = self.by_player.get_mut(&player) {
                *n -= 1;
                if *n == 0 {
                    self.by_player.remove(&player);
                }
            }
        }
        if let Some(address) = makers.address {
            if let Some(n) = self.by_address.get_mut(&address) {
                *n -= 1;
                if *n == 0 {
                    self.by_address.remove(&address);
                }
            }
        }
    }
}
