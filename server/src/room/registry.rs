//! Where rooms come from: made from a checked plan (stored first, then started) under a
//! fresh lease, and started under exactly one task per room. A room that left memory is
//! claimed and reloaded by the relay (`relay::locate`).

use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use game_core::protocol::RoomStatus;
use game_core::Color;
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::actor::{RoomActor, Task};
use super::change::Moment;
use super::error::RoomError;
use super::game::RoomGame;
use super::members::Members;
use super::plan::RoomPlan;
use crate::cluster::{Claim, Lease};
use crate::hub::SharedHub;
use crate::room::handle::RoomHandle;
use crate::room::open_rooms::Makers;
use crate::store::Write;

/// A room made from a checked plan, not stored yet: its id drawn, its game set up, and the
/// address it was asked for from.
#[must_use]
pub fn plan_room(hub: &SharedHub, plan: RoomPlan) -> (RoomGame, Option<IpAddr>) {
    let origin = plan.origin;
    let id = plan
        .id
        .clone()
        .unwrap_or_else(|| crate::token::random_id(8));
    let game = RoomGame::new(id, plan, hub.config().limits.answers_kept, Moment::now());
    (game, origin)
}

/// Creates a room from a checked plan: stores it, then starts its task.
pub async fn create_room(hub: &SharedHub, plan: RoomPlan) -> Result<RoomHandle, RoomError> {
    let (game, origin) = plan_room(hub, plan);
    let lease = new_room_lease(hub, game.id()).await?;
    let mut stored = game.stored();
    stored.fence = lease.fence;
    if let Err(e) = hub.store().write(Write::NewRoom(Box::new(stored))).await {
        tracing::error!(error = %e, "storing a new room failed");
        hub.coord().release(game.id(), lease.fence);
        return Err(RoomError::NotStored("the room"));
    }
    Ok(spawn_room(hub, game, false, origin, Some(lease)))
}

/// The lease of a room about to be made here.
pub(super) async fn new_room_lease(hub: &SharedHub, id: &str) -> Result<Lease, RoomError> {
    match hub.coord().claim(id, 0).await {
        Ok(Claim::Ours(lease)) => Ok(lease),
        // A fresh id held elsewhere: drawn twice, which 8 random characters make unlikely.
        Ok(Claim::Elsewhere(_)) => Err(RoomError::NotStored("the room")),
        Err(e) => {
            tracing::warn!(error = %e, "claiming a new room failed");
            Err(RoomError::Unreachable)
        }
    }
}

/// Starts the task of a room (new, or reloaded at start when `reloaded`), made from `origin`;
/// in a cluster, under `lease`. If a task for that room is already registered, returns its
/// handle and starts nothing: a room has exactly one writer.
pub fn spawn_room(
    hub: &SharedHub,
    mut game: RoomGame,
    reloaded: bool,
    origin: Option<IpAddr>,
    lease: Option<Lease>,
) -> RoomHandle {
    game.set_first_move_limit(hub.config().limits.first_move);
    let unfinished = game.status() != RoomStatus::Over;
    let (tx, rx) = mpsc::channel(hub.config().limits.room_queue);
    let handle = RoomHandle {
        id: game.id().to_string(),
        tx,
        unfinished: Arc::new(AtomicBool::new(unfinished)),
    };
    if let Some(running) = hub.register_room(&handle) {
        return running;
    }
    if unfinished {
        // Counted already when made by `create`; a rematch, or a room reloaded or taken over,
        // counts from now on (whatever the limits: it exists).
        let makers = Makers {
            player: game.head().creator.clone(),
            address: origin,
        };
        hub.open_rooms().opened_soon(&handle.id, makers);
    }
    let now = Instant::now();
    let mut members = Members::under(
        lease.as_ref().map_or(0, |l| l.fence),
        hub.config().limits.grace,
    )
    .patient(game.is_correspondence());
    // Nobody is in the room yet: a reloaded game, or one that starts at once (quick pairing,
    // rematch), waits for its players from now, a grace period each.
    if unfinished && (reloaded || game.status() == RoomStatus::Playing) {
        for seat in [Color::Black, Color::White] {
            if let Some(s) = game.seat(seat) {
                members.away(seat, now);
                if reloaded && s.bot {
                    hub.bots().hold(&s.player, &s.name);
                }
            }
        }
    }
    // Members of a finished room who were still connected when it left memory are back.
    for parked in hub.parked().take(&handle.id) {
        members.add(&handle.id, parked.link, &parked.player);
    }
    let waiting_until = (game.status() == RoomStatus::Waiting).then(|| {
        let age_ms = Moment::now().unix_ms.saturating_sub(game.head().created_ms);
        now + waiting_limit(hub, &game).saturating_sub(Duration::from_millis(age_ms))
    });
    let quiet_since = (game.status() == RoomStatus::Over).then_some(now);
    hub.metrics().room_status(None, Some(game.status()));
    let task = Task {
        handle: handle.clone(),
        game,
        members,
        waiting_until,
        quiet_since,
        lease,
    };
    RoomActor::start(hub, task, rx);
    handle
}

/// How long a room waits for its players: the hall's limit, or a correspondence game's days
/// per move when longer (its players come by when they can).
fn waiting_limit(hub: &SharedHub, game: &RoomGame) -> Duration {
    let hall = hub.config().limits.waiting_room;
    match game.head().clock {
        Some(game_core::protocol::ClockSpec::Days { days, .. }) => {
            hall.max(Duration::from_millis(days * game_core::protocol::DAY_MS))
        }
        _ => hall,
    }
}
