//! What rooms, bots and seeks tell the lobby, and the handle they tell it through. It sits
//! below the lobby task and the hub, so that rooms and sessions reach the lobby without either
//! importing the other.

use game_core::protocol::{ClockSpec, RoomStatus, Seats};
use game_core::GameSpec;
use tokio::sync::mpsc;

use crate::conn::Conn;

/// What a room tells the lobby about itself.
#[derive(Clone, Debug)]
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

/// Cheap-clone handle to the lobby task's queue. Unbounded: every event is small, the lobby
/// folds them into one push per interval, and a room must never wait on the lobby.
#[derive(Clone, Debug)]
pub struct LobbyFeed(mpsc::UnboundedSender<LobbyEvent>);

impl LobbyFeed {
    /// A feed and the queue the lobby task reads.
    #[must_use]
    pub fn new() -> (LobbyFeed, mpsc::UnboundedReceiver<LobbyEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (LobbyFeed(tx), rx)
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
        let _ = self.0.send(event);
    }
}
