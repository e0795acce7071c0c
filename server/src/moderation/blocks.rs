//! Blocks: an account blocks a player, and from then on that player's chat does not reach it,
//! its challenges are not delivered (it is not told), and quick pairing never pairs the two.
//! The store holds the lists; each node keeps those it needs (its connected accounts', the
//! seated and watching players of its rooms) in memory, loaded on first need and reloaded when
//! any node changes one (`BusMsg::BlocksChanged`). Memory stays bounded: past
//! [`MAX_CACHED`](super::block_lists::MAX_CACHED) lists the cache starts over.

use crate::cluster::BusMsg;
use crate::hub::Hub;
use crate::store::{StoreError, Write};

/// Players an account may block at most.
pub const MAX_BLOCKS: usize = 500;

/// Reads `player`'s list from the store into this node's memory.
pub async fn load(hub: &Hub, player: &str) -> Result<(), StoreError> {
    let list = hub.store().blocks_of(player).await?;
    hub.blocks().set(player, list);
    Ok(())
}

/// Loads `player`'s list unless this node has it; a failed read is logged and blocks nobody.
pub async fn ensure(hub: &Hub, player: &str) {
    if hub.blocks().loaded(player) {
        return;
    }
    if let Err(e) = load(hub, player).await {
        tracing::warn!(player, error = %e, "reading a player's blocks failed");
    }
}

/// Whether either of `a` and `b` has blocked the other.
pub async fn between(hub: &Hub, a: &str, b: &str) -> bool {
    ensure(hub, a).await;
    ensure(hub, b).await;
    hub.blocks().has_blocked(a, b) || hub.blocks().has_blocked(b, a)
}

/// Stores `player`'s block (or unblock, with `on` false) of `other`, then updates this node's
/// list and tells the others.
pub async fn change(hub: &Hub, player: &str, other: &str, on: bool) -> Result<(), StoreError> {
    let write = if on {
        Write::Block {
            player: player.to_string(),
            blocked: other.to_string(),
            at_ms: crate::room::change::Moment::now().unix_ms,
        }
    } else {
        Write::Unblock {
            player: player.to_string(),
            blocked: other.to_string(),
        }
    };
    hub.store().write(write).await?;
    load(hub, player).await?;
    hub.coord().send_everyone(&BusMsg::BlocksChanged {
        player: player.to_string(),
    });
    Ok(())
}

/// Another node changed `player`'s list: reloaded here if this node keeps it.
pub async fn changed_elsewhere(hub: &Hub, player: &str) {
    if hub.blocks().loaded(player) {
        if let Err(e) = load(hub, player).await {
            tracing::warn!(player, error = %e, "reading a player's blocks failed");
        }
    }
}
