//! Moderators' actions and the sanctions they leave: a mute (no chat), a ban from rated games,
//! a ban (no connection), a closed account; a warning, a rename and a hidden chat line. An
//! action is stored with its audit-log entry in one write, then every node reloads the
//! sanctions in force (`BusMsg::Moderated`) and carries it out at once on its own connections
//! and rooms: the player is told why and until when, a banned player's connections close, a
//! hidden line leaves its room's pages. The sanctions in force are few (a hall's moderators
//! set them by hand), so each node keeps them all in memory, reloaded on every action.

use game_core::protocol::ServerMsg;

use crate::cluster::BusMsg;
use crate::hub::{Hub, SharedHub};
use crate::room::handle::RoomCmd;
use crate::room::member::MemberLink;
use crate::store::{StoreError, StoredAction, Write};

pub use super::in_force::{when, Sanctioned};

/// The actions a moderator may take.
pub const ACTIONS: [&str; 8] = [
    "warn",
    "mute",
    "rated_ban",
    "ban",
    "close",
    "lift",
    "rename",
    "hide_chat",
];

/// The sanctions an action may leave (and `lift` may end).
pub const KINDS: [&str; 4] = ["mute", "rated_ban", "ban", "close"];

/// The WebSocket close code of a connection a ban or a rename ends (policy violation).
const CLOSE_POLICY: u16 = 1008;

fn now_ms() -> u64 {
    crate::hall_time::unix_ms()
}

/// Whether `player` may say a chat line.
pub fn may_chat(hub: &Hub, player: &str) -> Result<(), Sanctioned> {
    check(hub, player, &["close", "ban", "mute"])
}

/// Whether `player` may play a rated game.
pub fn may_play_rated(hub: &Hub, player: &str) -> Result<(), Sanctioned> {
    check(hub, player, &["close", "ban", "rated_ban"])
}

/// Whether `player` may connect or sign in.
pub fn may_enter(hub: &Hub, player: &str) -> Result<(), Sanctioned> {
    check(hub, player, &["close", "ban"])
}

fn check(hub: &Hub, player: &str, kinds: &[&str]) -> Result<(), Sanctioned> {
    match hub.sanctions().in_force(player, kinds, now_ms()) {
        Some(s) => Err(Sanctioned(s)),
        None => Ok(()),
    }
}

/// Reads the sanctions in force from the store into this node's memory.
pub async fn reload(hub: &Hub) -> Result<(), StoreError> {
    let list = hub.store().sanctions(now_ms()).await?;
    hub.sanctions().replace(list);
    Ok(())
}

/// Stores a moderator's action with its audit-log entry, then carries it out on every node.
pub async fn act(hub: &SharedHub, action: StoredAction) -> Result<(), StoreError> {
    hub.store()
        .write(Write::Moderate(Box::new(action.clone())))
        .await?;
    if hub.coord().is_alone() {
        carry_out(hub, &action).await;
    } else {
        // Every node hears it, this one too.
        hub.coord().send_everyone(&BusMsg::Moderated {
            action: Box::new(action),
        });
    }
    Ok(())
}

/// An action stored (by this node or another): this node's memory, connections and rooms
/// follow it.
pub async fn carry_out(hub: &SharedHub, action: &StoredAction) {
    if let Err(e) = reload(hub).await {
        tracing::warn!(error = %e, "reading the sanctions failed");
    }
    let player = action.player.as_str();
    match action.action.as_str() {
        "hide_chat" => {
            if let Some(room) = hub.room(&action.room) {
                let msg = ServerMsg::ChatHidden {
                    room: action.room.clone(),
                    player: action.player.clone(),
                    text: action.detail.clone(),
                };
                let _ = room.tx.send(RoomCmd::Notify(Box::new(msg))).await;
            }
            return;
        }
        "rename" => {
            hub.accounts().renamed(player, &action.detail);
            hub.players().claimed(player, &action.detail);
        }
        _ => {}
    }
    let told = ServerMsg::Sanction {
        action: action.action.clone(),
        until_ms: action.until_ms,
        reason: action.reason.clone(),
        kind: (action.action == "lift").then(|| action.detail.clone()),
    };
    let closes = matches!(action.action.as_str(), "ban" | "close" | "rename");
    for link in hub.links().of(player) {
        if let MemberLink::Local(conn) = &link {
            conn.send(&told);
            if closes {
                // A renamed player comes back under the new name; a banned one is refused.
                conn.close(CLOSE_POLICY, "a moderator acted on this player")
                    .await;
            }
        }
    }
}
