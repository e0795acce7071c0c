//! What a node does beside routing requests, alone or in a cluster (alone, nothing arrives,
//! no node is ever gone and no room is unowned, so these tasks find nothing to do): it
//! serves what arrives on its channels of the bus (frames for its connections, requests for its rooms, takeovers, bots,
//! lobby summaries), watches the nodes it sends to (a node gone or restarted: the rooms here
//! drop its connections), puts its connections back in their rooms after an absence, and
//! claims the unfinished rooms no node owns.

use std::collections::HashMap;

use axum::extract::ws::Utf8Bytes;
use rand::seq::SliceRandom;

use game_core::protocol::RoomStatus;

use super::error::RoomError;
use super::relay::{arrived, locate, rejoin, to_room, Place};
use crate::cluster::{Arrival, BusInbox, BusMsg};
use crate::hub::SharedHub;
use crate::room::handle::{RoomCmd, RoomHandle};
use crate::room::member::{MemberLink, RemoteMember};

/// Every third of the lease time, asks which nodes this node sends to are gone or restarted;
/// when one is, every room here drops the members connected to it (a seated player's grace
/// period starts), and its bots are no longer invited. Until shutdown.
pub async fn watch_peers(hub: SharedHub) {
    let coord = hub.coord().clone();
    let mut shutdown = hub.shutdown().clone();
    loop {
        tokio::select! {
            () = tokio::time::sleep(coord.lease_time() / 3) => {}
            _ = shutdown.changed() => return,
        }
        let news = coord.check_peers().await;
        if news.gone.is_empty() && news.renumbered.is_empty() {
            continue;
        }
        // The rooms of the gone leave this node's lobby (a room taken over is listed again by
        // its new owner). This node's members of them join them again, which takes them over
        // here once their leases have expired, rather than at the next sweep for orphans, so
        // that the clocks and the grace periods of the dead node's players run again. A lease
        // taken after the node's last presence renewal outlives its presence by up to a third
        // of a lease time: a room still held then is joined again once that has passed.
        let orphaned: Vec<String> = coord
            .unlist_nodes(&news.gone)
            .into_iter()
            .filter(|room| hub.room(room).is_none())
            .collect();
        for room in &orphaned {
            hub.lobby().gone(room);
            rejoin(&hub, room.to_string());
        }
        if !orphaned.is_empty() {
            let hub = hub.clone();
            tokio::spawn(async move {
                tokio::time::sleep(hub.coord().lease_time() / 3).await;
                for room in orphaned.into_iter().filter(|r| hub.room(r).is_none()) {
                    rejoin(&hub, room);
                }
            });
        }
        prune_rooms(&hub);
    }
}

/// Every room here drops the members whose connections count as closed now (their node is
/// gone, or runs again: a seated player's grace period starts), and the lobby counts again.
fn prune_rooms(hub: &SharedHub) {
    let rooms: Vec<RoomHandle> = hub.live_rooms();
    for room in rooms {
        let _ = room.tx.try_send(RoomCmd::Prune);
    }
    hub.lobby().changed();
}

/// Each time this node finds its presence key missing (Redis lost its data, or this node
/// was away, paused or cut off, past its presence's life), the other nodes may have taken it
/// for gone and dropped its connections from their rooms. Once they have all asked after it
/// again (they ask every third of a lease time; a lease and a half leaves a margin), its
/// connections join their rooms of other nodes again, as when it hears the bus again. Until
/// shutdown.
pub async fn rejoin_after_absence(hub: SharedHub) {
    let coord = hub.coord().clone();
    let mut shutdown = hub.shutdown().clone();
    let settle = coord.lease_time() * 3 / 2;
    loop {
        tokio::select! {
            () = coord.presence_lost() => {}
            _ = shutdown.changed() => return,
        }
        tokio::select! {
            () = tokio::time::sleep(settle) => {}
            _ = shutdown.changed() => return,
        }
        heard_again(&hub);
    }
}

/// Most rooms one round of [`claim_orphans`] takes over.
const ORPHANS_PER_ROUND: usize = 200;
/// Rounds a room that could not be claimed is left alone.
const ORPHAN_RETRY_ROUNDS: u32 = 10;

/// Every two lease times, claims the unfinished rooms that no node owns — those of a node
/// that died, whose players did not come back — so that their clocks run out and their
/// abandoned seats are given up as on one node, and their spectators elsewhere see it. Two
/// nodes may look at once: the lease goes to one. The rooms are taken in a random order (so
/// that nodes do not race for the same ones and one failing room does not hold up the
/// rest), a room that could not be claimed is left alone for ten rounds, and a round stops
/// at shutdown or when the store or Redis cannot be reached. Until shutdown.
pub async fn claim_orphans(hub: SharedHub) {
    let coord = hub.coord().clone();
    // A node that started every unfinished room itself keeps each until it is over: none is
    // ever without an owner, and the store need not be asked for them every round.
    if coord.resumes_all_at_start() {
        return;
    }
    let mut shutdown = hub.shutdown().clone();
    let mut failed: HashMap<String, u32> = HashMap::new();
    loop {
        tokio::select! {
            () = tokio::time::sleep(coord.lease_time() * 2) => {}
            _ = shutdown.changed() => return,
        }
        failed.retain(|_, rounds| {
            *rounds -= 1;
            *rounds > 0
        });
        let ids = match hub.store().unfinished_ids().await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "listing unfinished rooms failed");
                continue;
            }
        };
        let elsewhere: Vec<String> = ids
            .into_iter()
            .filter(|id| hub.room(id).is_none() && !failed.contains_key(id))
            .collect();
        let mut orphans = match coord.unowned(elsewhere).await {
            Ok(orphans) => orphans,
            Err(e) => {
                tracing::warn!(error = %e, "looking up room owners failed");
                continue;
            }
        };
        orphans.shuffle(&mut rand::rng());
        for id in orphans.into_iter().take(ORPHANS_PER_ROUND) {
            if *hub.shutdown().borrow() {
                return;
            }
            match claim_orphan(&hub, &id).await {
                Ok(true) => tracing::info!(room = id, "claimed a room no node owned"),
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(room = id, error = %e, "claiming a room no node owned failed");
                    let unreachable = matches!(e, RoomError::Unreachable);
                    failed.insert(id, ORPHAN_RETRY_ROUNDS);
                    if unreachable {
                        break;
                    }
                }
            }
        }
    }
}

/// Claims room `id` if it is still unfinished in the store (one that has just finished is
/// left to retire where it was); true when it runs here now.
async fn claim_orphan(hub: &SharedHub, id: &str) -> Result<bool, RoomError> {
    match hub.store().read_room(id).await {
        Ok(Some(room)) if room.status != RoomStatus::Over => {}
        Ok(_) => return Ok(false),
        Err(e) => {
            tracing::warn!(room = id, error = %e, "reading a room to claim it failed");
            return Err(RoomError::Unreachable);
        }
    }
    Ok(matches!(locate(hub, id, true).await?, Place::Here(_)))
}

/// Serves what arrives on this node's channels until the cluster is gone.
pub async fn serve_bus(hub: SharedHub, mut inbox: BusInbox) {
    let coord = hub.coord().clone();
    while let Some(arrival) = inbox.next().await {
        let msg = match arrival {
            Arrival::Msg(msg) => msg,
            Arrival::Resubscribed => {
                heard_again(&hub);
                continue;
            }
        };
        match msg {
            BusMsg::Frame {
                conn,
                text,
                room,
                fence,
            } => {
                let Some(conn) = coord.conn(conn) else {
                    continue;
                };
                let text = Utf8Bytes::from(text);
                let Some(room) = room else {
                    conn.send_text(text);
                    continue;
                };
                if !conn.send_room_text(&room, fence, text) {
                    tracing::info!(room, fence, "a frame from a deposed copy of a room dropped");
                    hub.metrics().stale_frame_dropped();
                }
            }
            BusMsg::Entered { conn, room, fence } => match coord.conn(conn) {
                Some(conn) => conn.entered(&room, fence),
                None => {
                    // Closed before the room's word arrived: the room must not keep it.
                    let hub = hub.clone();
                    tokio::spawn(async move {
                        let _ = to_room(&hub, &room, RoomCmd::Gone { conn_id: conn }).await;
                    });
                }
            },
            BusMsg::Left { conn, room } => {
                if let Some(conn) = coord.conn(conn) {
                    conn.left(&room);
                }
            }
            BusMsg::Room { room, cmd, hops } => arrived(&hub, room, &cmd, hops),
            BusMsg::Moved { room, node } => {
                if node != coord.node() {
                    rejoin(&hub, room);
                }
            }
            BusMsg::BotHere {
                node,
                conn,
                player,
                games,
                capacity,
            } => {
                if node != coord.node() {
                    let link = MemberLink::Remote(RemoteMember {
                        node: node.into(),
                        id: conn,
                        house: false,
                        coord: coord.clone(),
                        mark: None,
                    });
                    hub.bots().connected(&player, games, capacity, link);
                }
            }
            BusMsg::BotGone { node, conn, player } => {
                if node != coord.node() {
                    bot_gone(&hub, &player, conn);
                }
            }
            BusMsg::NodeStarted { node, number } => {
                if node != coord.node() {
                    coord.announce_here();
                    // Its workers (of an earlier run) are gone until it says otherwise.
                    coord.workers_at(&node, 0);
                    // A new run of a node: the connections of its earlier run are gone, at
                    // once (its presence key, renewed by the new run, would not say so).
                    if coord.set_number(&node, number) {
                        tracing::info!(node, number, "a node started again");
                        prune_rooms(&hub);
                    }
                }
            }
            BusMsg::LobbyRoom { node, summary } => {
                if node != coord.node() && hub.room(&summary.room).is_none() {
                    coord.listed_elsewhere(&summary.room, &node);
                    hub.lobby().room(*summary);
                }
            }
            BusMsg::SeeksChanged => coord.seeks_changed(),
            BusMsg::Workers { node, count } => {
                coord.workers_at(&node, count);
                if count > 0 {
                    crate::session::reviews::hand_over_waiting(&hub).await;
                }
            }
            BusMsg::Review {
                room,
                node,
                conn,
                player,
                address,
            } => {
                let asked = crate::hub::ReviewAsked {
                    room,
                    link: MemberLink::Remote(RemoteMember {
                        node: node.into(),
                        id: conn,
                        house: false,
                        coord: coord.clone(),
                        mark: None,
                    }),
                    player,
                    address,
                };
                if !hub.review_asked(asked) {
                    tracing::warn!("too many reviews from other nodes waiting; one dropped");
                }
            }
            BusMsg::Analyse {
                node,
                conn,
                player,
                ask,
            } => {
                let link = MemberLink::Remote(RemoteMember {
                    node: node.into(),
                    id: conn,
                    house: false,
                    coord: coord.clone(),
                    mark: None,
                });
                crate::session::live::asked_from(&hub, &link, &player, &ask);
            }
            BusMsg::AnalyseStop { conn } => crate::session::live::stop_here(&hub, conn),
            BusMsg::BlocksChanged { player } => {
                crate::moderation::blocks::changed_elsewhere(&hub, &player).await;
            }
            BusMsg::Moderated { action } => {
                crate::moderation::sanctions::carry_out(&hub, &action).await;
            }
            BusMsg::ToPlayer {
                player,
                text,
                except,
            } => crate::lobby::challenges::deliver_here(&hub, &player, &text, except),
            BusMsg::ChallengeReply {
                challenge,
                accept,
                reason,
                node,
                conn,
                player,
            } => {
                let by = crate::room::handle::Actor {
                    link: MemberLink::Remote(RemoteMember {
                        node: node.into(),
                        id: conn,
                        house: false,
                        coord: coord.clone(),
                        mark: None,
                    }),
                    player,
                };
                crate::lobby::challenges::answer(&hub, by, &challenge, accept, reason).await;
            }
            BusMsg::TokenDropped { token_hash } => hub.players().forget_token(&token_hash),
            BusMsg::TournamentGame {
                tournament,
                room,
                players,
            } => crate::tournament::elsewhere::heard(&hub, &tournament, &room, &players).await,
            BusMsg::AccountMade { player, name, bot } => {
                hub.accounts().insert(&crate::store::StoredAccount {
                    player: player.clone(),
                    name: name.clone(),
                    password_hash: None,
                    bot,
                    created_ms: 0,
                });
                hub.players().claimed(&player, &name);
            }
            BusMsg::LobbyGone { node, room } => {
                // A room running here now (taken over) stays listed.
                if node != coord.node() && coord.unlisted(&room, &node) && hub.room(&room).is_none()
                {
                    hub.lobby().gone(&room);
                }
            }
        }
    }
}

/// This node hears the bus again after Redis was out of reach (what was published to it
/// meanwhile is lost), or is back after the others may have taken it for gone: its
/// connections in rooms of other nodes join them again (wherever they are now) and hear
/// their state afresh, and the other nodes announce their bots again.
fn heard_again(hub: &SharedHub) {
    let remote: Vec<String> = hub
        .coord()
        .member_rooms()
        .into_iter()
        .filter(|room| hub.room(room).is_none())
        .collect();
    tracing::info!(rooms = remote.len(), "joining rooms of other nodes again");
    for room in remote {
        rejoin(hub, room);
    }
    hub.coord().send_everyone(&hub.coord().started_msg());
}

/// A bot's connection on another node closed: the rooms here that wait for its answer ask
/// the next bot.
fn bot_gone(hub: &SharedHub, player: &str, conn: u64) {
    let rooms = hub.bots().disconnected(player, conn);
    if rooms.is_empty() {
        return;
    }
    let hub = hub.clone();
    let player = player.to_string();
    tokio::spawn(async move {
        for room in rooms {
            let decline = RoomCmd::Decline {
                bot: player.clone(),
            };
            let _ = to_room(&hub, &room, decline).await;
        }
    });
}
