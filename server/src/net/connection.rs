//! The sending half of a client connection as the rest of the server sees it: a bounded queue
//! of frames, and a way to drop a client that cannot keep up instead of slowing anyone else.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    /// the connection closes so that every such room learns it. Each with the highest fence
    /// of the room heard: a frame of the room under a lower one comes from a copy of it that
    /// another node has taken over since, and is dropped. Held only for a map update.
    rooms: Arc<Mutex<HashMap<String, u64>>>,
    /// Rooms whose node this connection's join was passed to, not yet answered, each with
    /// whether it asked for a seat and when it stops being kept: an owner that dies as the
    /// join reaches it never answers, and the room's next owner takes the join up then.
    /// Settled by a frame of the room (its `state`, or a refusal), by the client's `leave`,
    /// or by a refusal before the join left this node; emptied of the expired at each new one.
    joins_passed: Arc<Mutex<HashMap<String, (bool, Instant)>>>,
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
            joins_passed: Arc::default(),
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

    /// A room, under `fence`, counts this connection as a member now (which answers a join
    /// passed on to it).
    pub fn entered(&self, room: &str, fence: u64) {
        {
            let mut rooms = self.rooms();
            let heard = rooms.entry(room.to_string()).or_default();
            *heard = (*heard).max(fence);
        }
        self.join_settled(room);
    }

    /// This connection's join of `room` (for a seat or not) was passed to the room's node;
    /// kept until `kept_until` unless settled first.
    pub fn join_passed(&self, room: &str, as_player: bool, kept_until: Instant) {
        let now = Instant::now();
        let mut joins = self.joins_passed();
        joins.retain(|_, (_, until)| *until > now);
        joins.insert(room.to_string(), (as_player, kept_until));
    }

    /// The join of `room` passed on needs no answer from the room's next owner: the room
    /// answered it, the client left the room, or the join was refused here.
    pub fn join_settled(&self, room: &str) {
        self.joins_passed().remove(room);
    }

    /// The rooms whose node this connection's join was passed to, still unanswered.
    #[must_use]
    pub fn joins_awaited(&self) -> Vec<String> {
        let now = Instant::now();
        self.joins_passed()
            .iter()
            .filter(|(_, (_, until))| *until > now)
            .map(|(room, _)| room.clone())
            .collect()
    }

    /// This connection's join of `room` passed to the room's node, if still unanswered:
    /// whether it asked for a seat.
    #[must_use]
    pub fn join_awaited(&self, room: &str) -> Option<bool> {
        self.joins_passed()
            .get(room)
            .filter(|(_, until)| *until > Instant::now())
            .map(|(as_player, _)| *as_player)
    }

    fn joins_passed(&self) -> std::sync::MutexGuard<'_, HashMap<String, (bool, Instant)>> {
        self.joins_passed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues a frame that room `room`, under `fence`, sent from another node — unless a copy
    /// of the room under a higher fence has counted this connection as a member since: then
    /// the frame comes from an owner deposed since (sent as its pause ended, it may arrive
    /// after the next owner's) and is dropped. False if dropped.
    pub fn send_room_text(&self, room: &str, fence: u64, text: SharedText) -> bool {
        let heard = self.rooms().get(room).copied();
        let current = heard.is_none_or(|heard| fence >= heard);
        if current {
            if heard.is_none() {
                // To a connection not yet a member, the room sends only answers to its own
                // requests: its join has reached a live owner, which answers it. (A member's
                // join is settled by the room's word that it counts it, `entered`.)
                self.join_settled(room);
            }
            self.send_text(text);
        }
        current
    }

    /// A room no longer counts this connection as a member.
    pub fn left(&self, room: &str) {
        self.rooms().remove(room);
    }

    /// The rooms this connection is a member of, emptied (the connection is closing).
    #[must_use]
    pub fn take_rooms(&self) -> Vec<String> {
        self.rooms().drain().map(|(room, _)| room).collect()
    }

    /// The rooms this connection is a member of.
    #[must_use]
    pub fn room_ids(&self) -> Vec<String> {
        self.rooms().keys().cloned().collect()
    }

    /// Whether a room counts this connection as a member.
    #[must_use]
    pub fn is_in(&self, room: &str) -> bool {
        self.rooms().contains_key(room)
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.rooms
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn conn() -> (Conn, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(8);
        (Conn::new(1, tx, Arc::default()), rx)
    }

    fn queued(rx: &mut mpsc::Receiver<Out>) -> Vec<String> {
        std::iter::from_fn(|| match rx.try_recv() {
            Ok(Out::Text(text)) => Some(text.to_string()),
            _ => None,
        })
        .collect()
    }

    #[test]
    fn a_frame_from_a_copy_of_a_room_deposed_since_is_dropped() {
        let (conn, mut rx) = conn();
        // Not a member yet: nothing to compare with, the frame goes out.
        assert!(conn.send_room_text("r", 3, "joined".into()));
        conn.entered("r", 3);
        assert!(conn.send_room_text("r", 3, "old owner".into()));
        // Another node takes the room over under fence 4 and counts the connection.
        conn.entered("r", 4);
        assert!(!conn.send_room_text("r", 3, "old owner, late".into()));
        assert!(conn.send_room_text("r", 4, "new owner".into()));
        // The old owner's word that it counts the connection, arriving late, lowers nothing.
        conn.entered("r", 3);
        assert!(!conn.send_room_text("r", 3, "old owner, later".into()));
        // Other rooms are not affected.
        assert!(conn.send_room_text("q", 1, "another room".into()));
        assert_eq!(
            queued(&mut rx),
            ["joined", "old owner", "new owner", "another room"]
        );
        assert_eq!(conn.room_ids(), ["r"]);
        conn.left("r");
        assert!(!conn.is_in("r"));
    }

    #[test]
    fn a_join_passed_on_is_awaited_until_settled_or_expired() {
        let (conn, mut rx) = conn();
        let later = Instant::now() + std::time::Duration::from_secs(60);
        conn.join_passed("r", true, later);
        conn.join_passed("q", false, later);
        conn.join_passed("p", true, later);
        conn.join_passed("o", false, later);
        assert_eq!(conn.join_awaited("r"), Some(true));
        assert_eq!(conn.join_awaited("q"), Some(false));
        assert_eq!(conn.join_awaited("n"), None);
        // The room's word that it counts the connection answers the join, and only that one.
        conn.entered("r", 2);
        assert_eq!(conn.join_awaited("r"), None);
        assert!(!conn.is_in("q"));
        // So does any frame of the room (a refusal, say), and the client's leave.
        assert!(conn.send_room_text("q", 1, "refused".into()));
        assert_eq!(conn.join_awaited("q"), None);
        conn.join_settled("p");
        assert_eq!(conn.join_awaited("p"), None);
        // A join kept no longer is not awaited, and the next one drops it.
        conn.join_passed("n", true, Instant::now());
        assert_eq!(conn.join_awaited("n"), None);
        conn.join_passed("m", false, later);
        let mut awaited = conn.joins_awaited();
        awaited.sort();
        assert_eq!(awaited, ["m", "o"]);
        assert_eq!(conn.joins_passed().len(), 2);
        assert_eq!(queued(&mut rx), ["refused"]);
    }
}
