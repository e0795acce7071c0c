//! New players (identities without a token) made per client address in a window: the hall's
//! count, not a node's, so that an address cannot make its budget again on every node. On
//! one node the windows live in this process ([`NewPlayers::Local`]); in a cluster in Redis
//! (`cluster::budgets`), where one script counts and answers, so that a burst over several
//! nodes counts whole. Both keep the same rules, held by one contract suite
//! (`server/tests/coordination.rs`).

use std::net::IpAddr;

use dashmap::DashMap;
use tokio::time::{Duration, Instant};

use crate::cluster::Cluster;
use crate::rate_limit::{Rate, RateWindow};

/// Why a new player is not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAdmitted {
    /// The address has made its new players for the window; it closes in this long.
    Spent(Duration),
    /// The counts cannot be reached (Redis): no new player is made meanwhile.
    Unavailable,
}

/// The hall's count of new players per address.
pub enum NewPlayers {
    /// One node: the windows in this process.
    Local(DashMap<IpAddr, RateWindow>),
    /// A cluster: the windows in Redis, shared by every node.
    Shared(Cluster),
}

impl NewPlayers {
    /// The count for a hall on one node, in this process (the coordination picks which:
    /// `Coordination::counts`).
    #[must_use]
    pub fn local() -> NewPlayers {
        NewPlayers::Local(DashMap::new())
    }

    /// Counts a new player made from `address`; refused past `rate` in the address's window
    /// (an attempt past it still counts, so a flood does not earn itself a fresh window).
    pub async fn admit(&self, rate: Rate, address: IpAddr) -> Result<(), NotAdmitted> {
        match self {
            NewPlayers::Local(windows) => {
                let now = Instant::now();
                let mut window = windows.entry(address).or_default();
                if window.admit(rate, now) {
                    Ok(())
                } else {
                    Err(NotAdmitted::Spent(window.closes_in(rate, now)))
                }
            }
            NewPlayers::Shared(cluster) => cluster.admit_new_player(rate, address).await,
        }
    }

    /// Forgets the windows of addresses that made no new player lately, so that memory stays
    /// bounded however many addresses come (Redis expires its own).
    pub fn expire(&self, rate: Rate, now: Instant) {
        if let NewPlayers::Local(windows) = self {
            windows.retain(|_, w| !w.is_idle(rate, now));
        }
    }

    /// Whether nothing is counted here (always, in a cluster).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        match self {
            NewPlayers::Local(windows) => windows.is_empty(),
            NewPlayers::Shared(_) => true,
        }
    }
}
