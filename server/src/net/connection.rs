//! The sending half of a client connection as the rest of the server sees it: a bounded queue
//! of frames, and a way to drop a client that cannot keep up instead of slowing anyone else.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, Notify};

use game_core::protocol::ServerMsg;

/// A message serialised once; every recipient's queue holds the same bytes (a clone counts a
/// reference, it copies nothing), and the socket writes them as they are.
pub type SharedText = Utf8Bytes;

/// `msg` as JSON, ready to share between recipients.
#[must_use]
pub fn shared_text(msg: &ServerMsg) -> SharedText {
    Utf8Bytes::from(msg.to_json())
}

/// One outgoing frame.
#[derive(Debug)]
pub enum Out {
    /// A JSON text frame, serialised once and shared between recipients.
    Text(SharedText),
    /// The lobby's lists as they are when the writer comes to it (at most one is queued).
    Lobby,
    /// Close the connection with this code and reason.
    Close(u16, Cow<'static, str>),
}

/// Cheap-clone handle to a connection's outgoing queue.
#[derive(Clone, Debug)]
pub struct Conn {
    pub id: u64,
    tx: mpsc::Sender<Out>,
    /// Notified when the queue overflowed: the writer then closes the socket.
    overflow: Arc<Notify>,
    /// Rooms that count this connection as a member. Rooms write it (a connection can be
    /// seated by someone else's request: quick pairing, rematch), the session reads it when
    /// the connection closes so that every such room learns it. Held only for a set update.
    rooms: Arc<Mutex<HashSet<String>>>,
    /// A lobby frame is queued and not yet taken by the writer.
    lobby_queued: Arc<AtomicBool>,
    /// The server's own client (set once, at `hello`, before it can join a room).
    house: Arc<AtomicBool>,
}

impl Conn {
    #[must_use]
    pub fn new(id: u64, tx: mpsc::Sender<Out>, overflow: Arc<Notify>) -> Conn {
        Conn {
            id,
            tx,
            overflow,
            rooms: Arc::default(),
            lobby_queued: Arc::default(),
            house: Arc::default(),
        }
    }

    /// Marks the connection as the server's own client.
    pub fn mark_house(&self) {
        self.house.store(true, Ordering::SeqCst);
    }

    #[must_use]
    pub fn is_house(&self) -> bool {
        self.house.load(Ordering::SeqCst)
    }

    /// The flag the writer clears as it takes the queued lobby frame.
    #[must_use]
    pub fn lobby_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.lobby_queued)
    }

    /// Queues the lobby's lists, unless they are queued already (the writer sends the latest
    /// lists when it comes to them). A full queue marks the client as too slow.
    pub fn send_lobby(&self) {
        if self.lobby_queued.swap(true, Ordering::SeqCst) {
            return;
        }
        match self.tx.try_send(Out::Lobby) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.lobby_queued.store(false, Ordering::SeqCst);
                self.overflow.notify_one();
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    /// A room counts this connection as a member now.
    pub fn entered(&self, room: &str) {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(room.to_string());
    }

    /// A room no longer counts this connection as a member.
    pub fn left(&self, room: &str) {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(room);
    }

    /// The rooms this connection is a member of, emptied (the connection is closing).
    #[must_use]
    pub fn take_rooms(&self) -> Vec<String> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .drain()
            .collect()
    }

    /// The rooms this connection is a member of.
    #[must_use]
    pub fn rooms(&self) -> Vec<String> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    /// Whether a room counts this connection as a member.
    #[must_use]
    pub fn is_in(&self, room: &str) -> bool {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .contains(room)
    }

    /// Queues a frame; a full queue marks the client as too slow (it will be disconnected).
    pub fn send_text(&self, text: SharedText) {
        match self.tx.try_send(Out::Text(text)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => self.overflow.notify_one(),
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    /// Serialises and queues one message.
    pub fn send(&self, msg: &ServerMsg) {
        self.send_text(shared_text(msg));
    }

    /// Queues a close frame behind what is already queued.
    pub async fn close(&self, code: u16, reason: impl Into<Cow<'static, str>>) {
        let _ = self.tx.send(Out::Close(code, reason.into())).await;
    }

    /// True once the connection's writer is gone.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
