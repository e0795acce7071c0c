//! The hall on one node: the in-process side of the coordination. One node holds every
//! room and directs every tournament, so a lease is always its own (under the fence the
//! store holds: nobody else writes), no other node hears or is heard, and the pairing book
//! lives in this process. The connections and their claims are kept as in a cluster.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Notify, OwnedMutexGuard};

use super::conns::ConnTable;
use super::lease::{Claim, Lease};
use super::ownership::ClaimLocks;
use super::seeks::SeekEntry;

/// The node id of a hall on one node (in the seeks it keeps, and in its logs).
pub const ALONE: &str = "alone";

/// How often the node's sweeps look, with no lease to time them by.
const SWEEP: Duration = Duration::from_secs(10);

/// This node's part of a hall it runs alone.
pub struct Alone {
    pub(super) conns: ConnTable,
    claims: ClaimLocks,
    /// Seekers waiting for quick pairing, oldest first, each under its game-and-clock key.
    seeks: Mutex<Vec<(String, SeekEntry)>>,
    /// Woken when the seeks changed: the lobby counts them again.
    seeks_changed: Notify,
}

impl Alone {
    #[must_use]
    pub(super) fn new() -> Alone {
        Alone {
            conns: ConnTable::default(),
            claims: ClaimLocks::default(),
            seeks: Mutex::new(Vec::new()),
            seeks_changed: Notify::new(),
        }
    }

    /// The period of the sweeps the nodes of a cluster time by their lease.
    pub(super) fn sweep_time() -> Duration {
        SWEEP
    }

    pub(super) async fn claim_lock(&self, room: &str) -> OwnedMutexGuard<()> {
        self.claims.lock(room).await
    }

    pub(super) fn claim_done(&self, room: &str, guard: OwnedMutexGuard<()>) {
        self.claims.done(room, guard);
    }

    /// The room is this node's, under the fence the store holds (`floor`): the store takes
    /// its writes, and it is never lost.
    pub(super) fn claim(floor: u64) -> Claim {
        Claim::Ours(Lease {
            fence: floor,
            lost: Arc::new(tokio::sync::Notify::new()),
        })
    }

    /// Whether connection `conn` is open here (a seeker whose connection closed is passed
    /// over).
    fn open(&self, conn: u64) -> bool {
        self.conns.get(conn).is_some_and(|c| !c.is_closed())
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Vec<(String, SeekEntry)>> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the first live seeker under `spec`, or makes `entry` wait there; a player has
    /// one seek at a time, so `entry`'s player's earlier one goes first.
    pub(super) fn seek(&self, spec: &str, entry: &SeekEntry) -> Option<SeekEntry> {
        let mut book = self.book();
        book.retain(|(_, e)| e.player.id != entry.player.id && self.open(e.conn));
        let taken = match book.iter().position(|(s, _)| s == spec) {
            Some(i) => Some(book.remove(i).1),
            None => {
                book.push((spec.to_string(), entry.clone()));
                None
            }
        };
        drop(book);
        self.seeks_changed.notify_one();
        taken
    }

    /// Puts a seeker taken by [`Alone::seek`] back first in line (its pairing failed),
    /// unless its player seeks again meanwhile.
    pub(super) fn put_back(&self, spec: &str, entry: &SeekEntry) {
        let mut book = self.book();
        if book.iter().any(|(_, e)| e.player.id == entry.player.id) {
            return;
        }
        book.insert(0, (spec.to_string(), entry.clone()));
        drop(book);
        self.seeks_changed.notify_one();
    }

    /// Withdraws the seek of connection `conn`, if it has one.
    pub(super) fn unseek(&self, conn: u64) {
        let mut book = self.book();
        let before = book.len();
        book.retain(|(_, e)| e.conn != conn);
        let changed = book.len() != before;
        drop(book);
        if changed {
            self.seeks_changed.notify_one();
        }
    }

    /// The live seekers per game-and-clock key.
    pub(super) fn seek_counts(&self) -> Vec<(String, u32)> {
        let mut counts: BTreeMap<String, u32> = BTreeMap::new();
        for (spec, e) in self.book().iter() {
            if self.open(e.conn) {
                *counts.entry(spec.clone()).or_default() += 1;
            }
        }
        counts.into_iter().collect()
    }

    pub(super) async fn next_seeks_change(&self) {
        self.seeks_changed.notified().await;
    }
}
