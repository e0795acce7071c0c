//! Where a room request goes: to the room's task when the room is in memory here; to the
//! node that owns it, over the bus, written as a [`WireCmd`], when another node does (only
//! in a cluster); else the room is claimed (a lease with a fresh fence; alone, always this
//! node's), read back from the store and started here — a takeover, when the game is
//! unfinished, after which the members on other nodes join it again. What else the bus
//! brings, and the node's watches, are in `node_tasks.rs`.

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::time::Instant;

use game_core::protocol::{RoomStatus, ServerMsg, CLIENT_TYPES};
use game_core::Color;

use super::change::Moment;
use super::error::RoomError;
use super::game::RoomGame;
use super::registry::spawn_room;
use crate::accounts::players::PlayerRecord;
use crate::cluster::{BusMsg, Claim, Coordination};
use crate::hub::SharedHub;
use crate::room::handle::{Action, Actor, RoomCmd, RoomHandle};
use crate::room::member::{MemberLink, RemoteMember};
use crate::store::{StoredRematch, Write};

/// Longest room id looked up; room ids are 8 characters.
const MAX_ROOM_ID_BYTES: usize = 64;
/// A request passed on more often than this (owners changing under it) is dropped.
const MAX_HOPS: u8 = 3;
/// A join passed to another node is awaited at least this long (and four lease times).
const JOIN_KEPT_LEAST: std::time::Duration = std::time::Duration::from_secs(60);

/// A member's connection as it travels: its node and id.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireLink {
    node: String,
    conn: u64,
    house: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
struct WireActor {
    link: WireLink,
    player: PlayerRecord,
}

/// A room request as it travels between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
enum WireCmd {
    Join {
        who: WireActor,
        as_player: bool,
    },
    Leave {
        who: WireActor,
    },
    Gone {
        conn: u64,
    },
    Act {
        who: WireActor,
        action: Action,
        reference: String,
    },
    Decline {
        bot: String,
    },
    InviteSeat {
        seat: Color,
        level: u8,
        #[serde(default)]
        prefer: Option<String>,
        requester: Option<(WireLink, String)>,
    },
    Notify {
        msg: Box<ServerMsg>,
    },
    Prune,
    ClockAdvanced {
        ms: u64,
    },
}

fn wire_link(coord: &Coordination, link: &MemberLink) -> WireLink {
    match link {
        MemberLink::Local(conn) => WireLink {
            node: coord.node().to_string(),
            conn: conn.id,
            house: conn.is_house(),
        },
        MemberLink::Remote(r) => WireLink {
            node: r.node.to_string(),
            conn: r.id,
            house: r.house,
        },
    }
}

fn wire_actor(coord: &Coordination, who: &Actor) -> WireActor {
    WireActor {
        link: wire_link(coord, &who.link),
        player: who.player.clone(),
    }
}

impl WireCmd {
    fn from_cmd(coord: &Coordination, cmd: &RoomCmd) -> WireCmd {
        match cmd {
            RoomCmd::Join { who, as_player } => WireCmd::Join {
                who: wire_actor(coord, who),
                as_player: *as_player,
            },
            RoomCmd::Leave { who } => WireCmd::Leave {
                who: wire_actor(coord, who),
            },
            RoomCmd::Gone { conn_id } => WireCmd::Gone { conn: *conn_id },
            RoomCmd::Act {
                who,
                action,
                reference,
                ..
            } => WireCmd::Act {
                who: wire_actor(coord, who),
                action: action.clone(),
                reference: (*reference).to_string(),
            },
            RoomCmd::Decline { bot } => WireCmd::Decline { bot: bot.clone() },
            RoomCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester,
            } => WireCmd::InviteSeat {
                seat: *seat,
                level: *level,
                prefer: prefer.clone(),
                requester: requester
                    .as_ref()
                    .map(|(link, r)| (wire_link(coord, link), (*r).to_string())),
            },
            RoomCmd::Notify(msg) => WireCmd::Notify { msg: msg.clone() },
            RoomCmd::Prune => WireCmd::Prune,
            RoomCmd::ClockAdvanced { ms } => WireCmd::ClockAdvanced { ms: *ms },
        }
    }

    /// The request as this node's room takes it; `None` when it names a connection of this
    /// node that has closed meanwhile.
    fn into_cmd(self, coord: &Coordination) -> Option<RoomCmd> {
        let link = |w: WireLink| -> Option<MemberLink> {
            if w.node == coord.node() {
                return coord.conn(w.conn).map(MemberLink::Local);
            }
            Some(MemberLink::Remote(RemoteMember {
                node: w.node.into(),
                id: w.conn,
                house: w.house,
                coord: coord.clone(),
                mark: None,
            }))
        };
        let actor = |w: WireActor| -> Option<Actor> {
            Some(Actor {
                link: link(w.link)?,
                player: w.player,
            })
        };
        Some(match self {
            WireCmd::Join { who, as_player } => RoomCmd::Join {
                who: actor(who)?,
                as_player,
            },
            WireCmd::Leave { who } => RoomCmd::Leave { who: actor(who)? },
            WireCmd::Gone { conn } => RoomCmd::Gone { conn_id: conn },
            WireCmd::Act {
                who,
                action,
                reference,
            } => RoomCmd::Act {
                who: actor(who)?,
                action,
                reference: static_reference(&reference),
                received: Instant::now(),
            },
            WireCmd::Decline { bot } => RoomCmd::Decline { bot },
            WireCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester,
            } => RoomCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester: match requester {
                    Some((w, r)) => Some((link(w)?, static_reference(&r))),
                    None => None,
                },
            },
            WireCmd::Notify { msg } => RoomCmd::Notify(msg),
            WireCmd::Prune => RoomCmd::Prune,
            WireCmd::ClockAdvanced { ms } => RoomCmd::ClockAdvanced { ms },
        })
    }
}

/// The `t` of a request by name, as the rooms keep it.
fn static_reference(name: &str) -> &'static str {
    CLIENT_TYPES
        .iter()
        .find(|t| **t == name)
        .copied()
        .unwrap_or("request")
}

/// Where a room is.
pub enum Place {
    Here(RoomHandle),
    There(String),
    Nowhere,
}

/// Whether a request may bring a room into memory: a closed connection or a bot's refusal
/// concerns only a room that is running.
fn may_load(cmd: &RoomCmd) -> bool {
    !matches!(
        cmd,
        RoomCmd::Gone { .. } | RoomCmd::Decline { .. } | RoomCmd::Prune
    )
}

/// Sends `cmd` to room `id`, wherever it is: `NoSuchRoom` for a room the store does not
/// know, `NotRead` when the store cannot be read, `Unreachable` when in a cluster its node or
/// Redis cannot be reached.
pub async fn to_room(hub: &SharedHub, id: &str, cmd: RoomCmd) -> Result<(), RoomError> {
    send(hub, id, cmd, 0).await
}

pub(super) async fn send(
    hub: &SharedHub,
    id: &str,
    mut cmd: RoomCmd,
    hops: u8,
) -> Result<(), RoomError> {
    // A finished room may retire between the lookup and the send; the next lookup then
    // reloads it from the store.
    for _ in 0..3 {
        let place = locate(hub, id, may_load(&cmd)).await?;
        match place {
            Place::Here(handle) => match handle.tx.send(cmd).await {
                Ok(()) => return Ok(()),
                Err(mpsc::error::SendError(back)) => cmd = back,
            },
            Place::There(node) => return forward(hub, &node, id, &cmd, hops).await,
            Place::Nowhere if !may_load(&cmd) => return Ok(()),
            Place::Nowhere => break,
        }
    }
    Err(RoomError::NoSuchRoom(id.to_string()))
}

/// Passes `cmd` to the node that owns room `id`.
async fn forward(
    hub: &SharedHub,
    node: &str,
    id: &str,
    cmd: &RoomCmd,
    hops: u8,
) -> Result<(), RoomError> {
    if hops >= MAX_HOPS {
        return Err(RoomError::Unreachable);
    }
    let coord = hub.coord();
    let wire = WireCmd::from_cmd(coord, cmd);
    let Ok(text) = serde_json::to_string(&wire) else {
        return Err(RoomError::Unreachable);
    };
    hub.metrics().forwarded();
    tracing::debug!(room = id, node, "request passed to the room's owner");
    if let RoomCmd::Join {
        who: Actor {
            link: MemberLink::Local(conn),
            ..
        },
        as_player,
    } = cmd
    {
        // Kept before it goes (the answer may come first) until the room counts the
        // connection: Redis may count a node that has just died as listening, and then
        // nobody answers but the room's next owner, which takes the room over within a few
        // lease times.
        let kept = JOIN_KEPT_LEAST.max(coord.lease_time() * 4);
        conn.join_passed(id, *as_player, std::time::Instant::now() + kept);
    }
    let msg = BusMsg::Room {
        room: id.to_string(),
        cmd: text,
        hops: hops + 1,
    };
    if coord.send_confirmed(node, &msg).await {
        Ok(())
    } else {
        // Redis is out of reach, or the owner is gone and its lease has not expired yet.
        Err(RoomError::Unreachable)
    }
}

/// Finds room `id` in the hall: in memory here, owned by another node, or — when `load` and
/// nobody owns it — claimed and reloaded here. `NotRead` when the store cannot be read,
/// `Unreachable` when the coordination cannot be asked.
pub async fn locate(hub: &SharedHub, id: &str, load: bool) -> Result<Place, RoomError> {
    let coord = hub.coord();
    if let Some(handle) = hub.room(id) {
        return Ok(Place::Here(handle));
    }
    // Room ids hold no `:`; the leases of other things (a tournament's director) do.
    if id.is_empty() || id.len() > MAX_ROOM_ID_BYTES || id.contains(':') {
        return Ok(Place::Nowhere);
    }
    match coord.owner(id).await {
        Err(e) => {
            tracing::warn!(room = id, error = %e, "looking up a room's owner failed");
            return Err(RoomError::Unreachable);
        }
        Ok(Some(node)) if node != coord.node() => return Ok(Place::There(node)),
        Ok(_) => {}
    }
    if !load {
        return Ok(Place::Nowhere);
    }
    let guard = coord.claim_lock(id).await;
    let place = claim(hub, id).await;
    coord.claim_done(id, guard);
    place
}

/// Claims room `id` and starts it here from the store.
async fn claim(hub: &SharedHub, id: &str) -> Result<Place, RoomError> {
    let coord = hub.coord();
    if let Some(handle) = hub.room(id) {
        return Ok(Place::Here(handle));
    }
    let unavailable = |e: crate::store::StoreError| {
        tracing::warn!(room = id, error = %e, "reading a room to claim it failed");
        RoomError::NotRead
    };
    let Some(before) = hub.store().read_room(id).await.map_err(unavailable)? else {
        return Ok(Place::Nowhere);
    };
    let lease = match coord.claim(id, before.fence).await {
        Ok(Claim::Ours(lease)) => lease,
        Ok(Claim::Elsewhere(node)) => return Ok(Place::There(node)),
        Err(e) => {
            tracing::warn!(room = id, error = %e, "claiming a room failed");
            return Err(RoomError::Unreachable);
        }
    };
    let fence = lease.fence;
    let claimed = Write::Claim {
        room: id.to_string(),
        fence,
    };
    if let Err(e) = hub.store().write(claimed).await {
        tracing::warn!(room = id, error = %e, "storing a claim failed");
        coord.release(id, fence);
        return Err(RoomError::Unreachable);
    }
    // Read again after the claim: whatever the last owner stored is in it, and nothing it
    // tries to store from now on will be.
    let stored = match hub.store().read_room(id).await {
        Ok(Some(stored)) => stored,
        Ok(None) => {
            coord.release(id, fence);
            return Ok(Place::Nowhere);
        }
        Err(e) => {
            coord.release(id, fence);
            return Err(unavailable(e));
        }
    };
    let unfinished = stored.status != RoomStatus::Over;
    let rematch = if unfinished {
        StoredRematch::default()
    } else {
        match hub.store().read_rematch(id).await {
            Ok(rematch) => rematch.unwrap_or_default(),
            Err(e) => {
                coord.release(id, fence);
                return Err(unavailable(e));
            }
        }
    };
    let game = match RoomGame::restore(stored, hub.config().limits.answers_kept, Moment::now()) {
        Ok(game) => game.with_rematch(rematch),
        // The room exists, but cannot be played: not "no such room".
        Err(e) => {
            tracing::error!(room = %id, error = %e, "could not reload room");
            coord.release(id, fence);
            return Err(e);
        }
    };
    let handle = spawn_room(hub, game, unfinished, None, Some(lease));
    if unfinished {
        hub.metrics().takeover();
        tracing::info!(room = id, fence, "took the room over from the store");
        coord.send_everyone(&BusMsg::Moved {
            room: id.to_string(),
            node: coord.node().to_string(),
        });
        // This node's own connections in the room (members of it on the old owner) join
        // it again here too.
        rejoin(hub, id.to_string());
    }
    Ok(Place::Here(handle))
}

/// A request from another node for a room this node owned when it was sent.
pub(super) fn arrived(hub: &SharedHub, room: String, cmd: &str, hops: u8) {
    let wire: WireCmd = match serde_json::from_str(cmd) {
        Ok(wire) => wire,
        Err(e) => {
            tracing::warn!(error = %e, "unreadable request from another node");
            return;
        }
    };
    tracing::debug!(room, ?wire, "request from another node");
    let Some(cmd) = wire.into_cmd(hub.coord()) else {
        return;
    };
    // In memory: queued at once, in the order the bus brought it.
    let (cmd, left) = match hub.room(&room) {
        Some(handle) => match handle.tx.try_send(cmd) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(cmd)) => (cmd, false),
            Err(mpsc::error::TrySendError::Closed(cmd)) => (cmd, true),
        },
        None => (cmd, true),
    };
    // The room left this node since the sender found it here — perhaps long ago, if this
    // node was paused meanwhile. A player's request passed on now could be played turns later
    // than it was made for (a move for a position long gone): its sender hears "try again"
    // and decides afresh. Only a full queue of a room still here keeps it.
    if let (
        true,
        RoomCmd::Act {
            who,
            action,
            reference,
            ..
        },
    ) = (left, &cmd)
    {
        try_again(hub, &room, who, action, reference);
        return;
    }
    // A full queue, or the room left this node: find it again, off the bus's task.
    let hub = hub.clone();
    tokio::spawn(async move {
        let reply_to = match &cmd {
            RoomCmd::Act { who, reference, .. } => Some((who.link.clone(), *reference)),
            RoomCmd::Join { who, .. } => Some((who.link.clone(), "join")),
            _ => None,
        };
        if let Err(e) = send(&hub, &room, cmd, hops).await {
            if let Some((link, reference)) = reply_to {
                let about = crate::refusal::About::room(reference, &room);
                link.send(&crate::refusal::error_reply(hub.metrics(), &e, about));
            }
        }
    });
}

/// Answers a player's request for `room` "try again" (with a move's id), deciding nothing:
/// no copy of the room here can vouch that it is the room's present state.
pub(super) fn try_again(
    hub: &SharedHub,
    room: &str,
    who: &Actor,
    action: &Action,
    reference: &str,
) {
    let id = match action {
        Action::Move { id, .. } => id.as_deref(),
        _ => None,
    };
    let about = crate::refusal::About::room(reference, room).with_id(id);
    who.link.send(&crate::refusal::error_reply(
        hub.metrics(),
        &RoomError::Unreachable,
        about,
    ));
}

/// Room `room` moved to another node: this node's connections in it join it again there,
/// and hear its state afresh; so do those whose join went to the room's last node and was
/// never answered (that node died as it came).
pub(super) fn rejoin(hub: &SharedHub, room: String) {
    let members = hub.coord().joining_again(&room);
    if members.is_empty() {
        return;
    }
    let hub = hub.clone();
    tokio::spawn(async move {
        for (conn, player, as_player) in members {
            let who = Actor {
                link: MemberLink::Local(conn),
                player,
            };
            // A lost join is made as it was asked (for a seat or not): a refusal or a leave
            // since would have settled it.
            let cmd = RoomCmd::Join { who, as_player };
            if let Err(e) = to_room(&hub, &room, cmd).await {
                tracing::warn!(room, error = %e, "joining a moved room again failed");
            }
        }
    });
}
