//! The leases this node holds: claiming a room, renewing every lease while the store takes
//! writes, giving one back, and whether a room may still answer (see `lease.rs` for the Redis
//! side of each step).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tokio::sync::{watch, Mutex, Notify, OwnedMutexGuard};

use super::lease::{self, Claim, Lease};
use super::{Cluster, ClusterError};

/// What a lease's name starts with when it is a tournament director's rather than a room's
/// (room ids hold no `:`).
const DIRECTOR: &str = "director:";

/// The name of the lease of `tournament`'s director: taken, renewed and lost like a room's,
/// so that one node directs a running tournament and another takes it over when that node
/// dies.
#[must_use]
pub fn director_lease(tournament: &str) -> String {
    format!("{DIRECTOR}{tournament}")
}

/// One claim at a time per room on this node: a second request that would load the room
/// waits for the first, then finds it in memory.
#[derive(Default)]
pub(super) struct ClaimLocks(DashMap<String, Arc<Mutex<()>>>);

impl ClaimLocks {
    /// Holds this node's claims of `room` to one at a time.
    pub(super) async fn lock(&self, room: &str) -> OwnedMutexGuard<()> {
        let lock = self.0.entry(room.to_string()).or_default().clone();
        lock.lock_owned().await
    }

    /// Forgets the claim lock of `room` once nobody waits on it.
    pub(super) fn done(&self, room: &str, guard: OwnedMutexGuard<()>) {
        drop(guard);
        self.0
            .remove_if(room, |_, lock| Arc::strong_count(lock) == 1);
    }
}

/// Whether the lease `name` is a room's (counted in `kibitz_cluster_rooms_owned`).
fn is_room(name: &str) -> bool {
    !name.starts_with(DIRECTOR)
}

impl Cluster {
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
                    && is_room(room)
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
        if is_room(room) {
            self.0.metrics.room_owned(false);
        }
        let cluster = self.clone();
        let room = room.to_string();
        tokio::spawn(async move {
            let node = cluster.node().to_string();
            let _ = cluster
                .call(async |r| lease::release(r, &node, &room, fence).await)
                .await;
        });
    }

    /// Whether this node surely still holds the lease of `room` under `fence`: it was not
    /// found lost, and the leases are fresh (see [`Cluster::leases_fresh`]). A room answers
    /// nothing, reads included, unless it does.
    #[must_use]
    pub fn holds(&self, room: &str, fence: u64) -> bool {
        self.leases_fresh() && self.0.owned.get(room).is_some_and(|l| l.fence == fence)
    }

    /// Whether this node's leases are surely still its own: the last renewal Redis answered
    /// was sent, by this process's monotonic clock, within two thirds of the lease time (the
    /// lease lasts a whole lease time from when Redis took it, which is later).
    #[must_use]
    pub fn leases_fresh(&self) -> bool {
        let renewed = self.0.renewed_ms.load(Ordering::SeqCst);
        let now = self.ms_now();
        let margin = u64::try_from(self.0.lease_time.as_millis() * 2 / 3).unwrap_or(u64::MAX);
        renewed > 0 && now.saturating_sub(renewed) < margin
    }

    pub(super) fn ms_now(&self) -> u64 {
        // At least 1: 0 means "never renewed".
        u64::try_from(self.0.epoch.elapsed().as_millis()).unwrap_or(u64::MAX) + 1
    }

    /// Renews every lease a third of the lease time, until shutdown. A lease found lost wakes
    /// its room, which stops. A round renews nothing unless the store took a write first
    /// (`store`'s barrier, within a third of the lease time): a node cut off from the store
    /// cannot store a move, and so gives its rooms up within one lease time to a node that
    /// can, rather than holding them and refusing every move.
    pub async fn renew_leases(
        self,
        store: crate::store::Store,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let every = self.0.lease_time / 3;
        loop {
            let sent = self.ms_now();
            let barrier = store.write(crate::store::Write::Barrier);
            let writable = matches!(tokio::time::timeout(every, barrier).await, Ok(Ok(())));
            if !writable {
                tracing::warn!("the store takes no write: leases are not renewed");
                // The node lives all the same, and its connections with it: other nodes'
                // rooms keep serving its players.
                if let Err(e) = self.hold_node_number().await {
                    tracing::warn!(error = %e, "renewing this node's presence failed");
                }
                self.drop_taken().await;
                tokio::select! {
                    () = tokio::time::sleep(every.saturating_sub(self.since(sent))) => {}
                    _ = shutdown.changed() => return,
                }
                continue;
            }
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
                () = tokio::time::sleep(every.saturating_sub(self.since(sent))) => {}
                _ = shutdown.changed() => return,
            }
        }
    }

    /// Drops the leases another node holds now, renewing none (this node cannot write to the
    /// store): their rooms stop here at once rather than at their next request. A lease that
    /// merely expired is kept: nobody took it, and a renewal once the store answers sets it
    /// again.
    async fn drop_taken(&self) {
        let rooms: Vec<(String, u64)> = self
            .0
            .owned
            .iter()
            .map(|e| (e.key().clone(), e.value().fence))
            .collect();
        for chunk in rooms.chunks(500) {
            let ids: Vec<String> = chunk.iter().map(|(room, _)| room.clone()).collect();
            let Ok(owners) = self.call(async |r| lease::owners(r, &ids).await).await else {
                return;
            };
            for ((room, fence), owner) in chunk.iter().zip(owners) {
                if owner.is_some_and(|owner| owner != self.node()) {
                    self.lose(room, *fence);
                }
            }
        }
    }

    /// Time since `ms_now` read `then`.
    fn since(&self, then: u64) -> Duration {
        Duration::from_millis(self.ms_now().saturating_sub(then))
    }

    /// Another node owns `room` now: its task is told to stop.
    fn lose(&self, room: &str, fence: u64) {
        if let Some((_, lease)) = self.0.owned.remove_if(room, |_, l| l.fence == fence) {
            tracing::warn!(room, fence, "lease lost");
            lease.lost.notify_one();
            if is_room(room) {
                self.0.metrics.room_owned(false);
            }
        }
    }
}
