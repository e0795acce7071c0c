//! `seek`, quick pairing: two players who seek the same game and clock get a new room with
//! both seats taken (colours drawn), which starts at once. The seeks wait in the hall's book
//! (the coordination's); in a cluster the two may be on different nodes, and the node of the
//! second seeker makes the room and seats the first as a member on its own node.

use std::time::Duration;

use game_core::protocol::{ClockSpec, ServerMsg};
use game_core::GameSpec;

use crate::accounts::players::PlayerRecord;
use crate::cluster::SeekEntry;
use crate::hub::SharedHub;
use crate::lobby::seeks::{spec_key, Pairing};
use crate::room::error::RoomError;
use crate::room::handle::{Actor, RoomCmd, RoomHandle};
use crate::room::member::{MemberLink, RemoteMember};
use crate::room::plan::{check_game, RoomPlan};
use crate::room::registry::create_room;
use crate::store::StoredSeat;

/// A player's seat in a room made for it.
pub(crate) fn seat(p: &PlayerRecord) -> Option<StoredSeat> {
    Some(StoredSeat {
        player: p.id.clone(),
        name: p.name.clone(),
        bot: p.bot,
        level: None,
    })
}

/// Pairs `me` with a waiting player, or makes `me` wait (`seeking`).
pub async fn seek(
    hub: &SharedHub,
    me: &Actor,
    game: GameSpec,
    clock: Option<ClockSpec>,
) -> Result<(), RoomError> {
    check_game(&game, clock.as_ref())?;
    let pairing = take_or_wait(hub, &game, clock, me).await?;
    let (opponent, taken) = match pairing {
        Pairing::Waiting(seek) => {
            me.link.send(&ServerMsg::Seeking { seek });
            return Ok(());
        }
        Pairing::With(opponent) => {
            let taken = opponent.entry.clone();
            let actor = Actor {
                link: opponent.link,
                player: opponent.player,
            };
            (actor, taken)
        }
    };
    let seats = if rand::random::<bool>() {
        [seat(&me.player), seat(&opponent.player)]
    } else {
        [seat(&opponent.player), seat(&me.player)]
    };
    let made = match RoomPlan::new(game.clone(), clock, Vec::new(), 0) {
        Ok(plan) => create_room(hub, plan.seated(seats)).await,
        Err(e) => Err(e),
    };
    let handle = match made {
        Ok(handle) => handle,
        Err(e) => {
            // The opponent still waits: its seek goes back where it was.
            hub.coord().put_back(&spec_key(&game, clock), &taken).await;
            return Err(e);
        }
    };
    join_both(&handle, [opponent, me.clone()]).await;
    Ok(())
}

/// Tells both players of their new room and seats them in it.
pub(crate) async fn join_both(handle: &RoomHandle, players: [Actor; 2]) {
    for who in players {
        who.link.send(&ServerMsg::Created {
            room: handle.id.clone(),
        });
        let _ = handle
            .tx
            .send(RoomCmd::Join {
                who,
                as_player: true,
            })
            .await;
    }
}

/// Seeks through the hall's book. A seeker taken from this node whose connection closed
/// meanwhile is passed over (its seek is gone now): the next one is taken.
async fn take_or_wait(
    hub: &SharedHub,
    game: &GameSpec,
    clock: Option<ClockSpec>,
    me: &Actor,
) -> Result<Pairing, RoomError> {
    let coord = hub.coord();
    let spec = spec_key(game, clock);
    let entry = SeekEntry {
        seek: crate::token::random_id(8),
        node: coord.node().to_string(),
        conn: me.link.id(),
        house: me.link.is_house(),
        player: me.player.clone(),
    };
    // Each pass takes one seeker out of Redis, so this ends once the list is empty. Seekers
    // blocked by or blocking `me` are passed over, and go back once `me` is paired or waits.
    let mut passed = Vec::new();
    let pairing = loop {
        let taken = coord.seek(&spec, &entry).await.map_err(|e| {
            tracing::warn!(error = %e, "seeking in the hall's book failed");
            RoomError::Unreachable
        });
        let taken = match taken {
            Ok(taken) => taken,
            Err(e) => {
                put_back(hub, &spec, &passed).await;
                return Err(e);
            }
        };
        let Some(them) = taken else {
            break Pairing::Waiting(entry.seek.clone());
        };
        if crate::moderation::blocks::between(hub, &me.player.id, &them.player.id).await {
            passed.push(them);
            continue;
        }
        let link = if them.node == coord.node() {
            match coord.conn(them.conn).filter(|c| !c.is_closed()) {
                Some(conn) => MemberLink::Local(conn),
                None => continue,
            }
        } else {
            MemberLink::Remote(RemoteMember {
                node: them.node.as_str().into(),
                id: them.conn,
                house: them.house,
                coord: coord.clone(),
                mark: None,
            })
        };
        break Pairing::With(crate::lobby::seeks::Seeker {
            seek: them.seek.clone(),
            player: them.player.clone(),
            link,
            entry: Box::new(them),
        });
    };
    put_back(hub, &spec, &passed).await;
    Ok(pairing)
}

/// Seekers passed over (blocked) go back to the book, in their order.
async fn put_back(hub: &SharedHub, spec: &str, passed: &[SeekEntry]) {
    for them in passed.iter().rev() {
        hub.coord().put_back(spec, them).await;
    }
}

/// Withdraws connection `conn`'s seek (`unseek`, or the connection closed).
pub async fn unseek(hub: &SharedHub, conn: u64) {
    hub.coord().unseek(conn).await;
}

/// Keeps this node's lobby showing the hall's seeks: counted when they changed (at most every
/// 100 ms: changes in a burst are counted once) and every lease time (seeks of nodes that are
/// gone, or whose connections closed, drop out), until shutdown.
pub async fn show_seeks(hub: SharedHub) {
    let coord = hub.coord().clone();
    let mut shutdown = hub.shutdown().clone();
    loop {
        match coord.seek_counts().await {
            Ok(counts) => hub.seeks().show_counts(counts),
            Err(e) => tracing::warn!(error = %e, "counting the hall's seeks failed"),
        }
        tokio::select! {
            () = coord.next_seeks_change() => {}
            () = tokio::time::sleep(coord.lease_time()) => {}
            _ = shutdown.changed() => return,
        }
        // Changes in a burst are counted once.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
