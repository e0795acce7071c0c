//! How a room reaches one of its members. Rooms hold links, never sockets: a member connected
//! to this node is `Local`; one connected to another node of a cluster is `Remote`, whose
//! frames go over the bus to that node, which queues them on its own connection. Rooms treat
//! both alike.

use std::sync::Arc;

use game_core::protocol::ServerMsg;

use crate::cluster::{BusMsg, Coordination};
use crate::net::connection::{Conn, SharedText};

/// Cheap-clone link to a member's connection.
#[derive(Clone, Debug)]
pub enum MemberLink {
    /// A connection of this server.
    Local(Conn),
    /// A connection of another node.
    Remote(RemoteMember),
}

/// A connection of another node, as this node's rooms reach it.
#[derive(Clone, Debug)]
pub struct RemoteMember {
    pub node: Arc<str>,
    /// Its id, unique in the cluster.
    pub id: u64,
    /// The server's own client (its node checked the key).
    pub house: bool,
    /// The hall's coordination, whose bus reaches that node.
    pub coord: Coordination,
    /// Set once a room holds the link: the room and its fence, which every frame carries so
    /// that the receiving node can drop a frame from a copy of the room deposed since.
    pub mark: Option<RoomMark>,
}

/// Which room, under which fence, a frame comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomMark {
    pub room: Arc<str>,
    pub fence: u64,
}

impl RemoteMember {
    fn send(&self, msg: &BusMsg) {
        self.coord.send(&self.node, msg);
    }

    fn frame(&self, text: String) -> BusMsg {
        BusMsg::Frame {
            conn: self.id,
            text,
            room: self.mark.as_ref().map(|m| m.room.to_string()),
            fence: self.mark.as_ref().map_or(0, |m| m.fence),
        }
    }
}

impl MemberLink {
    /// This link as room `room`, under `fence`, holds it: its frames say so.
    #[must_use]
    pub fn of_room(self, room: &str, fence: u64) -> MemberLink {
        match self {
            MemberLink::Local(_) => self,
            MemberLink::Remote(r) => MemberLink::Remote(RemoteMember {
                mark: Some(RoomMark {
                    room: Arc::from(room),
                    fence,
                }),
                ..r
            }),
        }
    }

    /// The connection's id, unique on this server.
    #[must_use]
    pub fn id(&self) -> u64 {
        match self {
            MemberLink::Local(conn) => conn.id,
            MemberLink::Remote(r) => r.id,
        }
    }

    /// Queues a frame serialised once for every recipient.
    pub fn send_text(&self, text: &SharedText) {
        match self {
            MemberLink::Local(conn) => conn.send_text(text.clone()),
            MemberLink::Remote(r) => r.send(&r.frame(text.to_string())),
        }
    }

    /// Serialises and queues one message for this member alone.
    pub fn send(&self, msg: &ServerMsg) {
        match self {
            MemberLink::Local(conn) => conn.send(msg),
            MemberLink::Remote(r) => r.send(&r.frame(msg.to_json())),
        }
    }

    /// True once the connection is gone. A remote connection's node says so with a `gone`;
    /// one whose node is gone, or runs again after a restart, is gone too.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        match self {
            MemberLink::Local(conn) => conn.is_closed(),
            MemberLink::Remote(r) => r.coord.is_closed(&r.node, r.id),
        }
    }

    /// The connection is the server's own (a house client, proved by the bot key): rooms do
    /// not count it among their spectators.
    pub fn mark_house(&self) {
        match self {
            MemberLink::Local(conn) => conn.mark_house(),
            MemberLink::Remote(_) => {}
        }
    }

    #[must_use]
    pub fn is_house(&self) -> bool {
        match self {
            MemberLink::Local(conn) => conn.is_house(),
            MemberLink::Remote(r) => r.house,
        }
    }

    /// The room, under `fence`, counts this connection as a member now (told again when it
    /// closes).
    pub fn entered(&self, room: &str, fence: u64) {
        match self {
            MemberLink::Local(conn) => conn.entered(room, fence),
            MemberLink::Remote(r) => r.send(&BusMsg::Entered {
                conn: r.id,
                room: room.to_string(),
                fence,
            }),
        }
    }

    /// The room no longer counts this connection as a member. A node taken for gone is not
    /// told: should it be back, its connection still counts the room as its own and joins it
    /// again (`node_tasks::rejoin_after_absence`).
    pub fn left(&self, room: &str) {
        match self {
            MemberLink::Local(conn) => conn.left(room),
            MemberLink::Remote(r) if r.coord.is_closed(&r.node, r.id) => {}
            MemberLink::Remote(r) => r.send(&BusMsg::Left {
                conn: r.id,
                room: room.to_string(),
            }),
        }
    }
}
