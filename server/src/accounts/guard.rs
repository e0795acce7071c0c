//! The sign-in guard: attempts per address, and a lock-out per name after repeated failures
//! that grows with each, the same for names that exist and names that do not, so that neither
//! the answers nor the lock-outs tell which names are accounts. The counts are the hall's,
//! not a node's: on one node they live in this process ([`LocalGuard`]); in a cluster in
//! Redis, each attempt one script (`cluster::signin`), so that attempts spread over the nodes
//! count once. Both keep the same rules, held by one contract suite
//! (`server/tests/coordination.rs`).

use std::net::IpAddr;

use dashmap::DashMap;
use tokio::time::{Duration, Instant};

use crate::cluster::Cluster;
use crate::rate_limit::{Rate, RateWindow};
use crate::store::name_key;

/// Limits of the sign-in guard.
#[derive(Clone, Copy, Debug)]
pub struct SignInLimits {
    /// Sign-in attempts one address may make per window.
    pub per_address: Rate,
    /// Failures in a row under one name before it is locked.
    pub failures_before_lock: u32,
    /// The first lock-out; each failure after it doubles the next, up to `lock_max`.
    pub lock_first: Duration,
    pub lock_max: Duration,
}

/// Why a sign-in is not even tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throttled {
    /// The address made too many attempts; try again after this long (what is left of its
    /// window).
    Address(Duration),
    /// The name is locked after repeated failures, for this long more.
    Name(Duration),
    /// The guard's counts cannot be reached (Redis): nothing is tried.
    Unavailable,
}

/// The block an address's attempts are counted under: an IPv6 address is one of a /64, which
/// one subscriber usually holds whole.
#[must_use]
pub fn address_block(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            IpAddr::from(octets)
        }
    }
}

/// The sign-in guard of the hall.
pub enum SignInGuard {
    /// One node: the counts in this process.
    Local(LocalGuard),
    /// A cluster: the counts in Redis, shared by every node.
    Shared(Cluster),
}

impl SignInGuard {
    /// The guard for a hall on one node, in this process (the coordination picks which:
    /// `Coordination::counts`).
    #[must_use]
    pub fn local() -> SignInGuard {
        SignInGuard::Local(LocalGuard::default())
    }

    /// Counts a request from `address` that costs a password hash (a claim of a name);
    /// refused past the address's attempts in the window.
    pub async fn admit_address(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
    ) -> Result<(), Throttled> {
        match self {
            SignInGuard::Local(guard) => guard.admit_address(limits, address, Instant::now()),
            SignInGuard::Shared(cluster) => cluster.signin_attempt(limits, address, None).await,
        }
    }

    /// Counts a sign-in attempt from `address` under `name`; refused (and not counted against
    /// the name) when the name is locked or the address throttled. The attempt counts as a
    /// failure of the name until [`SignInGuard::succeeded`] says otherwise: attempts sent all
    /// at once are counted before any of them is answered, so a burst cannot slip past the
    /// lock-out. Past the allowed failures in a row the name is locked, twice as long at each
    /// further one.
    pub async fn attempt(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        name: &str,
    ) -> Result<(), Throttled> {
        match self {
            SignInGuard::Local(guard) => guard.attempt(limits, address, name, Instant::now()),
            SignInGuard::Shared(cluster) => {
                cluster
                    .signin_attempt(limits, address, Some(&name_key(name)))
                    .await
            }
        }
    }

    /// A sign-in under `name` succeeded: its failures are forgotten.
    pub async fn succeeded(&self, name: &str) {
        match self {
            SignInGuard::Local(guard) => guard.succeeded(name),
            SignInGuard::Shared(cluster) => cluster.signin_succeeded(&name_key(name)).await,
        }
    }

    /// Forgets counters that no longer hold anything back (Redis expires its own).
    pub fn expire(&self, limits: &SignInLimits, now: Instant) {
        if let SignInGuard::Local(guard) = self {
            guard.expire(limits, now);
        }
    }
}

/// Counters kept before the expired ones are swept at once rather than at the next sweep.
const COUNTERS_MAX: usize = 100_000;

/// Failures in a row under one name, and until when it is locked.
#[derive(Clone, Copy, Debug, Default)]
struct Failures {
    count: u32,
    locked_until: Option<Instant>,
    last: Option<Instant>,
}

/// The guard's counts in this process.
#[derive(Default)]
pub struct LocalGuard {
    attempts: DashMap<IpAddr, RateWindow>,
    failures: DashMap<String, Failures>,
}

impl LocalGuard {
    /// See [`SignInGuard::admit_address`].
    pub fn admit_address(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        now: Instant,
    ) -> Result<(), Throttled> {
        let mut window = self.attempts.entry(address_block(address)).or_default();
        if window.admit(limits.per_address, now) {
            Ok(())
        } else {
            // The time left in the window: a retry before it would be refused again.
            Err(Throttled::Address(
                window.closes_in(limits.per_address, now),
            ))
        }
    }

    /// See [`SignInGuard::attempt`].
    pub fn attempt(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        name: &str,
        now: Instant,
    ) -> Result<(), Throttled> {
        let key = name_key(name);
        if let Some(f) = self.failures.get(&key) {
            if let Some(until) = f.locked_until.filter(|u| *u > now) {
                return Err(Throttled::Name(until - now));
            }
        }
        self.admit_address(limits, address, now)?;
        if self.failures.len() >= COUNTERS_MAX {
            self.expire(limits, now);
        }
        let mut f = self.failures.entry(key).or_default();
        f.count = f.count.saturating_add(1);
        f.last = Some(now);
        if f.count >= limits.failures_before_lock {
            f.locked_until = Some(now + lock_after(limits, f.count));
        }
        Ok(())
    }

    /// See [`SignInGuard::succeeded`].
    pub fn succeeded(&self, name: &str) {
        self.failures.remove(&name_key(name));
    }

    /// Forgets counters that no longer hold anything back, so that memory stays bounded
    /// however many addresses and names have tried.
    pub fn expire(&self, limits: &SignInLimits, now: Instant) {
        self.attempts
            .retain(|_, w| !w.is_idle(limits.per_address, now));
        // A name's failures are kept for the longest lock-out past its last failure, or past
        // the end of its lock: the next failure after a lock doubles it.
        let kept = |t: Option<Instant>| {
            t.is_some_and(|t| now.saturating_duration_since(t) < limits.lock_max)
        };
        self.failures.retain(|_, f| {
            f.locked_until.is_some_and(|u| u > now) || kept(f.locked_until) || kept(f.last)
        });
    }

    /// Whether nothing is counted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.attempts.is_empty() && self.failures.is_empty()
    }
}

/// The lock-out after `failures` failures in a row: the first at the limit, doubled at each
/// further one (16 times at most), never past the longest.
#[must_use]
pub fn lock_after(limits: &SignInLimits, failures: u32) -> Duration {
    let doublings = failures.saturating_sub(limits.failures_before_lock).min(16);
    limits
        .lock_first
        .saturating_mul(1 << doublings)
        .min(limits.lock_max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_counters_are_forgotten_and_locks_double_up_to_the_longest() {
        let limits = SignInLimits {
            per_address: Rate::new(10, Duration::from_secs(60)),
            failures_before_lock: 3,
            lock_first: Duration::from_secs(30),
            lock_max: Duration::from_secs(600),
        };
        let guard = LocalGuard::default();
        let (ip, t0) = (IpAddr::from([10, 0, 0, 2]), Instant::now());
        for i in 0..3 {
            assert!(guard.attempt(&limits, ip, &format!("name{i}"), t0).is_ok());
        }
        guard.expire(&limits, t0 + Duration::from_secs(3600));
        assert!(guard.is_empty());
        let locks: Vec<u64> = (3..9).map(|f| lock_after(&limits, f).as_secs()).collect();
        assert_eq!(locks, [30, 60, 120, 240, 480, 600]);
    }
}
