//! A room as the rest of the server sees it: the handle to its task's queue and the commands
//! that queue carries. It sits below the hub, the sessions and the rooms, so that each of them
//! speaks of rooms without importing the others.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::time::Instant;

use game_core::Color;

use crate::accounts::players::PlayerRecord;
use crate::room::member::MemberLink;

/// Cheap-clone handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub id: String,
    pub tx: mpsc::Sender<RoomCmd>,
    /// True until the game is over (or the room cancelled).
    pub unfinished: Arc<AtomicBool>,
}

impl RoomHandle {
    /// Whether the game is not over yet.
    #[must_use]
    pub fn is_unfinished(&self) -> bool {
        self.unfinished.load(Ordering::Relaxed)
    }
}

/// Who sent a command: the connection to answer and the player behind it.
#[derive(Clone, Debug)]
pub struct Actor {
    pub link: MemberLink,
    pub player: PlayerRecord,
}

/// A player's request in a room (as it also travels between nodes).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Move {
        mv: String,
        id: Option<String>,
    },
    Resign,
    Abort,
    /// The win (or a draw) over an opponent away for half the grace period or more.
    Claim(game_core::protocol::Claim),
    Undo,
    UndoReply(bool),
    Draw,
    DrawReply(bool),
    Rematch,
    Chat(String),
    InviteBot(u8),
}

/// What a room task is asked to do.
#[derive(Debug)]
pub enum RoomCmd {
    Join {
        who: Actor,
        as_player: bool,
    },
    Leave {
        who: Actor,
    },
    /// The connection closed.
    Gone {
        conn_id: u64,
    },
    Act {
        who: Actor,
        action: Action,
        /// The `t` of the request, for the `ref` of a refusal.
        reference: &'static str,
        /// When the frame arrived, for the move latency metric.
        received: Instant,
    },
    /// A bot declined its invitation, or its last connection closed.
    Decline {
        bot: String,
    },
    /// Find a bot for a seat promised to one in `create`; `requester` hears (with the `ref`
    /// of its request) if none is free.
    InviteSeat {
        seat: Color,
        level: u8,
        /// The bot asked first (a player challenged it by name).
        prefer: Option<String>,
        requester: Option<(MemberLink, &'static str)>,
    },
    /// A message for every member (how the room's review stands).
    Notify(Box<game_core::protocol::ServerMsg>),
    /// A node of the cluster is gone: members connected to it leave, as if each had closed.
    Prune,
    /// The hall's clock moved `ms` ahead (`--test-clock`): the running side is charged them.
    ClockAdvanced {
        ms: u64,
    },
}

impl RoomCmd {
    /// The command, its links marked as those of room `room` under `fence`.
    #[must_use]
    pub fn of_room(self, room: &str, fence: u64) -> RoomCmd {
        let mark = |who: Actor| Actor {
            link: who.link.of_room(room, fence),
            ..who
        };
        match self {
            RoomCmd::Join { who, as_player } => RoomCmd::Join {
                who: mark(who),
                as_player,
            },
            RoomCmd::Leave { who } => RoomCmd::Leave { who: mark(who) },
            RoomCmd::Act {
                who,
                action,
                reference,
                received,
            } => RoomCmd::Act {
                who: mark(who),
                action,
                reference,
                received,
            },
            RoomCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester,
            } => RoomCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester: requester.map(|(link, r)| (link.of_room(room, fence), r)),
            },
            other => other,
        }
    }
}
