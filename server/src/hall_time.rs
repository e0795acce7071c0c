//! The hall's wall clock: the system's time, plus an offset that only a server started with
//! `--test-clock` lets a test advance (`POST /api/test/clock`), so that a correspondence
//! game's days pass in a test without a real day.

use std::sync::atomic::{AtomicU64, Ordering};

/// How far the hall's clock is ahead of the system's. Process-wide: one server per process.
static AHEAD_MS: AtomicU64 = AtomicU64::new(0);

/// Milliseconds since the Unix epoch by the hall's clock.
#[must_use]
pub fn unix_ms() -> u64 {
    let system = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    system.saturating_add(AHEAD_MS.load(Ordering::Relaxed))
}

/// Moves the hall's clock `ms` ahead; returns how far ahead of the system's it now is.
pub fn advance(ms: u64) -> u64 {
    AHEAD_MS.fetch_add(ms, Ordering::Relaxed).saturating_add(ms)
}
