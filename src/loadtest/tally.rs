//! What every client of a run adds up: moves, games, connections, latencies and failures.
//! Shared by all the run's tasks; each lock is held for one update, never across an await.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use super::failure::Failure;
use super::latency::LatencyHistogram;

/// The counters of a run.
#[derive(Default)]
pub struct Tally {
    /// Moves whose `moved` reached the opponent within the run.
    moves: AtomicU64,
    /// Games that ended on the board (a five or a full board), not by resignation.
    games_finished: AtomicU64,
    opened: AtomicU64,
    failed: AtomicU64,
    /// Mover's send to the opponent's receipt of `moved`.
    to_opponent: Mutex<LatencyHistogram>,
    /// Mover's send to the receipt of `moved` by the last of the room's spectators.
    to_last_spectator: Mutex<LatencyHistogram>,
    failures: Mutex<Failures>,
}

/// Failures by kind, and the hints they brought.
#[derive(Default, Clone)]
pub struct Failures {
    pub by_kind: BTreeMap<String, u64>,
    pub hints: BTreeSet<&'static str>,
}

impl Tally {
    pub fn move_seen_by_opponent(&self, latency: Duration) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        lock(&self.to_opponent).record(latency);
    }

    pub fn move_seen_by_every_spectator(&self, latency: Duration) {
        lock(&self.to_last_spectator).record(latency);
    }

    pub fn game_finished(&self) {
        self.games_finished.fetch_add(1, Ordering::Relaxed);
    }

    pub fn connection_opened(&self) {
        self.opened.fetch_add(1, Ordering::Relaxed);
    }

    /// A connection that could not be opened, with why.
    pub fn connection_failed(&self, failure: Failure) {
        self.failed.fetch_add(1, Ordering::Relaxed);
        self.failure(failure);
    }

    pub fn failure(&self, failure: Failure) {
        let mut failures = lock(&self.failures);
        *failures.by_kind.entry(failure.kind).or_default() += 1;
        if let Some(hint) = failure.hint {
            failures.hints.insert(hint);
        }
    }

    #[must_use]
    pub fn moves(&self) -> u64 {
        self.moves.load(Ordering::Relaxed)
    }

    #[must_use]
    pub fn games_finished(&self) -> u64 {
        self.games_finished.load(Ordering::Relaxed)
    }

    #[must_use]
    pub fn opened(&self) -> u64 {
        self.opened.load(Ordering::Relaxed)
    }

    #[must_use]
    pub fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    #[must_use]
    pub fn to_opponent(&self) -> super::latency::LatencySummary {
        lock(&self.to_opponent).summary()
    }

    #[must_use]
    pub fn to_last_spectator(&self) -> super::latency::LatencySummary {
        lock(&self.to_last_spectator).summary()
    }

    #[must_use]
    pub fn failures(&self) -> Failures {
        lock(&self.failures).clone()
    }
}

/// A poisoned lock only means another task panicked while counting; the counts stay usable.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
