//! What rooms, bots and seeks tell the lobby, and the handle they tell it through. It sits
//! below the lobby task and the hub, so that rooms and sessions reach the lobby without either
//! importing the other.

use std::sync::Arc;

use game_core::protocol::{ClockSpec, LobbyLists, RoomStatus, Seats, ServerMsg};
use game_core::GameSpec;
use tokio::sync::{mpsc, watch};

use crate::net::connection::Conn;

/// What a room tells the lobby about itself (in a cluster, every node's lobby).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoomSummary {
    pub room: String,
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub seats: Seats,
    pub status: RoomStatus,
    pub private: bool,
    pub spectators: u32,
    pub ply: u32,
    pub created: u64,
    /// Seats promised to an invited bot.
    pub reserved: [bool; 2],
    /// The position (`AnyPosition::board_text`), drawn small in the lobby.
    pub board: String,
    /// The last stone placed (an opening's choices that place none skipped), in canonical
    /// notation.
    pub last: Option<String>,
}

impl RoomSummary {
    /// Whether `next` differs from this summary only by the moves played (the position, the
    /// ply, the last move): such a change only redraws a small board in the lobby.
    #[must_use]
    pub fn only_moved(&self, next: &RoomSummary) -> bool {
        // Every field named, so that a new one must be placed on one side or the other; and
        // no copy of the summary, as this runs for every move of every room.
        let RoomSummary {
            room,
            game,
            clock,
            seats,
            status,
            private,
            spectators,
            ply: _,
            created,
            reserved,
            board: _,
            last: _,
        } = self;
        *room == next.room
            && *game == next.game
            && *clock == next.clock
            && *seats == next.seats
            && *status == next.status
            && *private == next.private
            && *spectators == next.spectators
            && *created == next.created
            && *reserved == next.reserved
    }
}

/// Messages to the lobby task.
#[derive(Debug)]
pub enum LobbyEvent {
    Room(Box<RoomSummary>),
    Gone(String),
    Subscribe(Conn),
    Unsubscribe(u64),
    /// Bots or seeks changed.
    Changed,
}

/// Cheap-clone handle to the lobby task's queue, and to its latest lists. Unbounded: every
/// event is small, the lobby folds them into one push per interval, and a room must never wait
/// on the lobby.
#[derive(Clone, Debug)]
pub struct LobbyFeed {
    events: mpsc::UnboundedSender<LobbyEvent>,
    latest: watch::Receiver<Arc<str>>,
}

/// The lobby task's side: the events it reads, and where it publishes its lists.
pub struct LobbyInbox {
    pub events: mpsc::UnboundedReceiver<LobbyEvent>,
    /// The latest `lobby` message, serialised once; connections send it when their turn
    /// comes, so a slow subscriber holds one copy, not one per push.
    pub latest: watch::Sender<Arc<str>>,
}

impl LobbyFeed {
    /// A feed and the lobby task's side of it.
    #[must_use]
    pub fn new() -> (LobbyFeed, LobbyInbox) {
        let (tx, rx) = mpsc::unbounded_channel();
        let empty = ServerMsg::Lobby(LobbyLists::default()).to_json();
        let (latest_tx, latest) = watch::channel(Arc::from(empty));
        (
            LobbyFeed { events: tx, latest },
            LobbyInbox {
                events: rx,
                latest: latest_tx,
            },
        )
    }

    /// The latest lists, for a connection's writer.
    #[must_use]
    pub fn latest(&self) -> watch::Receiver<Arc<str>> {
        self.latest.clone()
    }

    /// A room's summary changed.
    pub fn room(&self, summary: RoomSummary) {
        self.send(LobbyEvent::Room(Box::new(summary)));
    }

    /// A room left memory.
    pub fn gone(&self, room: &str) {
        self.send(LobbyEvent::Gone(room.to_string()));
    }

    pub fn subscribe(&self, conn: Conn) {
        self.send(LobbyEvent::Subscribe(conn));
    }

    pub fn unsubscribe(&self, conn_id: u64) {
        self.send(LobbyEvent::Unsubscribe(conn_id));
    }

    /// The bots or seeks changed.
    pub fn changed(&self) {
        self.send(LobbyEvent::Changed);
    }

    fn send(&self, event: LobbyEvent) {
        // The lobby ends only at shutdown; nothing is left to tell then.
        let _ = self.events.send(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GomokuRule;

    fn summary() -> RoomSummary {
        RoomSummary {
            room: "r1".into(),
            game: GameSpec::gomoku(15, GomokuRule::Freestyle),
            clock: None,
            seats: Seats::default(),
            status: RoomStatus::Playing,
            private: false,
            spectators: 0,
            ply: 3,
            created: 1,
            reserved: [false; 2],
            board: "x..".into(),
            last: Some("h8".into()),
        }
    }

    #[test]
    fn a_summary_that_differs_by_its_moves_only_moved() {
        let before = summary();
        let mut moved = summary();
        moved.ply = 4;
        moved.board = "xo.".into();
        moved.last = Some("h9".into());
        assert!(before.only_moved(&moved));
        let mut watched = moved.clone();
        watched.spectators = 1;
        assert!(!before.only_moved(&watched));
        let mut over = moved;
        over.status = RoomStatus::Over;
        assert!(!before.only_moved(&over));
    }
}
