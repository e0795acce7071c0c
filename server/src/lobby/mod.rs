//! The lobby task: keeps a summary of every room, and pushes the lists of open rooms, live
//! games, connected bots and seeks to subscribers — at once on subscribe, then at most every
//! `lobby_interval` while something changes. Each list is bounded (the newest open rooms, the
//! most watched games, the largest seeks) and sent with its totals, so the frame stays small
//! however many rooms there are; a subscriber has at most one lobby frame queued. Live games
//! carry their position; a change that is only moves waits for `lobby_board_interval`.
//!
//! - [`feed`]: what rooms, bots and seeks tell the lobby, and the handle to it.
//! - [`seeks`]: the quick-pairing book.
//! - [`challenges`]: a player challenging a person to a game, on any node;
//!   [`open_challenges`]: those open on this node.
//! - [`pairing`]: `seek` and `unseek`: pairing two seekers into a room, on one node or
//!   through the hall's seeks in Redis.

pub mod challenges;
pub mod feed;
pub mod open_challenges;
pub mod pairing;
pub mod seeks;

use std::collections::HashMap;
use std::sync::Arc;

use tokio::time::{sleep_until, Instant};

use game_core::protocol::{LiveGame, LobbyLists, OpenRoom, RoomStatus, ServerMsg};

use crate::hub::SharedHub;
use crate::lobby::feed::{LobbyEvent, LobbyInbox, RoomSummary};
use crate::net::connection::Conn;

/// The boards of the listed live games take at most this much of a lobby frame, given in list
/// order (the most watched first) to each board that still fits: 15x15 Gomoku boards for a
/// whole list of 50, fewer of the large ones. Every subscriber gets every push, so the frame
/// must stay small however large the boards are.
pub const LIVE_BOARDS_BYTES: usize = 12 * 1024;

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
                board: None,
                last: r.last.clone(),
            }),
            RoomStatus::Over => {}
        }
    }
    let max = hub.config().limits.lobby_list_max;
    let open_total = open.len() as u32;
    let live_total = live.len() as u32;
    open.sort_by(|a, b| b.created.cmp(&a.created).then(a.room.cmp(&b.room)));
    open.truncate(max);
    live.sort_by(|a, b| b.spectators.cmp(&a.spectators).then(a.room.cmp(&b.room)));
    live.truncate(max);
    let mut budget = LIVE_BOARDS_BYTES;
    for game in &mut live {
        let Some(board) = rooms.get(&game.room).map(|r| &r.board) else {
            continue;
        };
        if board.len() <= budget {
            budget -= board.len();
            game.board = Some(board.clone());
        }
    }
    let mut seeks = hub.seeks().list();
    if seeks.len() > max {
        seeks.sort_by_key(|s| std::cmp::Reverse(s.waiting));
        seeks.truncate(max);
    }
    LobbyLists {
        open,
        live,
        bots: hub.bots().list(),
        seeks,
        open_total: Some(open_total),
        live_total: Some(live_total),
    }
}

/// Serialises the lists once and makes them the latest.
fn publish(inbox: &LobbyInbox, rooms: &HashMap<String, RoomSummary>, hub: &SharedHub) {
    let text: Arc<str> = Arc::from(ServerMsg::Lobby(lists(rooms, hub)).to_json());
    inbox.latest.send_replace(text);
}

/// Runs the lobby until the server shuts down.
pub async fn run(hub: SharedHub, mut inbox: LobbyInbox) {
    let mut rooms: HashMap<String, RoomSummary> = HashMap::new();
    let mut subscribers: HashMap<u64, Conn> = HashMap::new();
    let mut due: Option<Instant> = None;
    let mut last_sent = Instant::now();
    let mut shutdown = hub.shutdown().clone();
    // One timer, moved when the due time changes, rather than a new one for every event: moves
    // arrive here by the thousand a second under load.
    let timer = sleep_until(Instant::now());
    tokio::pin!(timer);
    loop {
        tokio::select! {
            event = inbox.events.recv() => {
                let Some(event) = event else { break };
                // Moves come far more often than anything else, and each push carries every
                // listed game's board (a few hundred bytes each, up to `lobby_list_max` of
                // them) to every subscriber: a change that is only moves waits for the slower
                // board interval, which keeps a lobby of many busy games to about one frame a
                // second per subscriber while small boards still visibly move.
                let mut only_moves = false;
                let changed = match event {
                    LobbyEvent::Room(summary) => {
                        only_moves = rooms
                            .get(&summary.room)
                            .is_some_and(|old| old.only_moved(&summary));
                        rooms.insert(summary.room.clone(), *summary);
                        true
                    }
                    LobbyEvent::Gone(id) => rooms.remove(&id).is_some(),
                    LobbyEvent::Subscribe(conn) => {
                        publish(&inbox, &rooms, &hub);
                        conn.send_lobby();
                        subscribers.insert(conn.id, conn);
                        false
                    }
                    LobbyEvent::Unsubscribe(id) => {
                        subscribers.remove(&id);
                        false
                    }
                    LobbyEvent::Changed => true,
                };
                if changed {
                    let wait = if only_moves {
                        hub.config().lobby_board_interval
                    } else {
                        hub.config().lobby_interval
                    };
                    let at = (last_sent + wait).max(Instant::now());
                    let sooner = due.map_or(at, |d| d.min(at));
                    if due != Some(sooner) {
                        due = Some(sooner);
                        timer.as_mut().reset(sooner);
                    }
                }
            }
            () = &mut timer, if due.is_some() => {
                due = None;
                last_sent = Instant::now();
                subscribers.retain(|_, c| !c.is_closed());
                if !subscribers.is_empty() {
                    publish(&inbox, &rooms, &hub);
                    for conn in subscribers.values() {
                        conn.send_lobby();
                    }
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}
