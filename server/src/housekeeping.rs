//! The server's periodic sweep: players not seen for long (and seated in no unfinished room)
//! are forgotten, from the store and from memory; members parked for finished rooms, the
//! counts of new players, sign-ins and tournaments made that hold nothing back any more, and
//! reviews that waited too long for a worker, are dropped; late puzzle proofs go to another
//! worker and the hall's puzzles other nodes stored are read in. Nothing here grows with time
//! but the set of puzzles, a few a day.

use std::time::Duration;

use tokio::time::{interval_at, Instant, MissedTickBehavior};

use crate::hub::SharedHub;
use crate::store::Write;

/// The sweep runs this often at most, and at least four times per player idle time.
const SWEEP_MAX: Duration = Duration::from_secs(60);
const SWEEP_MIN: Duration = Duration::from_millis(250);

/// Runs the sweep until the server shuts down.
pub async fn run(hub: SharedHub) {
    let every = (hub.config().limits.player_idle / 4).clamp(SWEEP_MIN, SWEEP_MAX);
    let mut tick = interval_at(Instant::now() + every, every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut shutdown = hub.shutdown().clone();
    crate::session::hall_puzzles::refresh(&hub).await;
    loop {
        tokio::select! {
            _ = tick.tick() => sweep(&hub).await,
            _ = shutdown.changed() => break,
        }
    }
}

async fn sweep(hub: &SharedHub) {
    let now = Instant::now();
    hub.parked().expire(now);
    hub.expire_new_player_windows(now);
    hub.signin().expire(&hub.config().limits.signin(), now);
    hub.tournaments()
        .expire_making(crate::tournament::registry::MAKING_RATE, now);
    hub.tournaments().expire_elsewhere(now);
    crate::session::reviews::expire_waiting(hub).await;
    crate::session::hall_puzzles::sweep(hub).await;
    crate::lobby::challenges::sweep(hub);
    forget_unseen_players(hub, now).await;
    hub.metrics().players(hub.players().len());
}

/// Forgets the people not seen for the player idle time. The store checks again, in the same
/// write, that each is still unseen and seated in no unfinished room; memory forgets only
/// those the store no longer has, and only if they have not come back meanwhile.
async fn forget_unseen_players(hub: &SharedHub, now: Instant) {
    let idle = hub.config().limits.player_idle;
    let Some(cutoff) = now.checked_sub(idle) else {
        return;
    };
    let ids = hub.players().unseen_since(cutoff);
    if ids.is_empty() {
        return;
    }
    let now_ms = crate::room::change::Moment::now().unix_ms;
    let seen_before_ms = now_ms.saturating_sub(idle.as_millis() as u64);
    let forget = Write::ForgetPlayers {
        ids: ids.clone(),
        seen_before_ms,
    };
    if let Err(e) = hub.store().write(forget).await {
        tracing::warn!(error = %e, "forgetting unseen players failed; trying again later");
        return;
    }
    let kept = match hub.store().stored_players(ids.clone()).await {
        Ok(kept) => kept,
        Err(e) => {
            tracing::warn!(error = %e, "reading players failed");
            return;
        }
    };
    let mut forgotten = 0usize;
    for id in ids.iter().filter(|id| !kept.contains(id)) {
        hub.players().forget(id, cutoff);
        forgotten += 1;
    }
    if forgotten > 0 {
        tracing::info!(players = forgotten, "forgot players not seen for a while");
    }
}
