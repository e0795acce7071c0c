//! How a room reaches one of its members. Rooms hold links, never sockets: today every member
//! is connected to this server (`Local`); a member connected to another node would get a
//! variant that forwards the same frames over the bus between nodes, and no room would change.

use game_core::protocol::ServerMsg;

use crate::conn::{Conn, SharedText};

/// Cheap-clone link to a member's connection.
#[derive(Clone, Debug)]
pub enum MemberLink {
    /// A connection of this server.
    Local(Conn),
}

impl MemberLink {
    /// The connection's id, unique on this server.
    #[must_use]
    pub fn id(&self) -> u64 {
        match self {
            MemberLink::Local(conn) => conn.id,
        }
    }

    /// Queues a frame serialised once for every recipient.
    pub fn send_text(&self, text: &SharedText) {
        match self {
            MemberLink::Local(conn) => conn.send_text(text.clone()),
        }
    }

    /// Serialises and queues one message for this member alone.
    pub fn send(&self, msg: &ServerMsg) {
        match self {
            MemberLink::Local(conn) => conn.send(msg),
        }
    }

    /// True once the connection is gone.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        match self {
            MemberLink::Local(conn) => conn.is_closed(),
        }
    }

    /// The connection is the server's own (a house client, proved by the bot key): rooms do
    /// not count it among their spectators.
    pub fn mark_house(&self) {
        match self {
            MemberLink::Local(conn) => conn.mark_house(),
        }
    }

    #[must_use]
    pub fn is_house(&self) -> bool {
        match self {
            MemberLink::Local(conn) => conn.is_house(),
        }
    }

    /// The room counts this connection as a member now (told again when it closes).
    pub fn entered(&self, room: &str) {
        match self {
            MemberLink::Local(conn) => conn.entered(room),
        }
    }

    /// The room no longer counts this connection as a member.
    pub fn left(&self, room: &str) {
        match self {
            MemberLink::Local(conn) => conn.left(room),
        }
    }
}
