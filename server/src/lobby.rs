//! The lobby task: keeps a summary of every room, and pushes the lists of open rooms, live
//! games, connected bots and seeks to subscribers — at once on subscribe, then at most every
//! `lobby_interval` while something changes.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use game_core::protocol::{LiveGame, LobbyLists, OpenRoom, RoomStatus, ServerMsg};

use crate::conn::Conn;
use crate::hub::SharedHub;
use crate::lobby_feed::{LobbyEvent, RoomSummary};

fn lists(rooms: &HashMap<String, RoomSummary>, hub: &SharedHub) -> LobbyLists {
    let mut open: Vec<OpenRoom> = Vec::new();
    let mut live: Vec<LiveGame> = Vec::new();
    for r in rooms.values().filter(|r| !r.private) {
        match r.status {
            RoomStatus::Waiting => {
                let free_black = r.seats.black.is_none() && !r.reserved[0];
                let free_white = r.seats.white.is_none() && !r.reserved[1];
                if free_black || free_white {
                    open.push(OpenRoom {
                        room: r.room.clone(),
                        game: r.game.clone(),
                        clock: r.clock,
                        seats: r.seats.clone(),
                        created: r.created,
                    });
                }
            }
            RoomStatus::Playing => live.push(LiveGame {
                room: r.room.clone(),
                game: r.game.clone(),
                seats: r.seats.clone(),
                spectators: r.spectators,
                ply: r.ply,
            }),
            RoomStatus::Over => {}
        }
    }
    open.sort_by(|a, b| b.created.cmp(&a.created).then(a.room.cmp(&b.room)));
    live.sort_by(|a, b| b.spectators.cmp(&a.spectators).then(a.room.cmp(&b.room)));
    LobbyLists {
        open,
        live,
        bots: hub.bots.list(),
        seeks: hub.seeks.list(),
    }
}

/// Runs the lobby until the server shuts down.
pub async fn run(hub: SharedHub, mut events: mpsc::UnboundedReceiver<LobbyEvent>) {
    let mut rooms: HashMap<String, RoomSummary> = HashMap::new();
    let mut subscribers: HashMap<u64, Conn> = HashMap::new();
    let mut due: Option<Instant> = None;
    let mut last_sent = Instant::now();
    let mut shutdown = hub.shutdown.clone();
    loop {
        tokio::select! {
            event = events.recv() => {
                let Some(event) = event else { break };
                let changed = match event {
                    LobbyEvent::Room(summary) => {
                        rooms.insert(summary.room.clone(), *summary);
                        true
                    }
                    LobbyEvent::Gone(id) => rooms.remove(&id).is_some(),
                    LobbyEvent::Subscribe(conn) => {
                        conn.send(&ServerMsg::Lobby(lists(&rooms, &hub)));
                        subscribers.insert(conn.id, conn);
                        false
                    }
                    LobbyEvent::Unsubscribe(id) => {
                        subscribers.remove(&id);
                        false
                    }
                    LobbyEvent::Changed => true,
                };
                if changed && due.is_none() {
                    let earliest = last_sent + hub.config.lobby_interval;
                    due = Some(earliest.max(Instant::now()));
                }
            }
            () = async {
                match due {
                    Some(t) => sleep_until(t).await,
                    None => std::future::pending().await,
                }
            } => {
                due = None;
                last_sent = Instant::now();
                subscribers.retain(|_, c| !c.is_closed());
                if !subscribers.is_empty() {
                    let text: Arc<str> = Arc::from(ServerMsg::Lobby(lists(&rooms, &hub)).to_json());
                    for conn in subscribers.values() {
                        conn.send_text(text.clone());
                    }
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}
