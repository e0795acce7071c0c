//! The members of finished rooms that left memory while they were still connected: a room
//! that is reloaded from the store (a later `join`, `rematch` or chat line) takes them back,
//! so that a player who stayed on the page hears the rematch offer. Only links are kept, never
//! a room; an entry ends when its connections close, is taken back, or grows old.

use std::time::Duration;

use dashmap::DashMap;
use tokio::time::Instant;

use crate::room::member::MemberLink;

/// How long the members of a retired room are kept for its reload.
pub const PARKED_KEEP: Duration = Duration::from_secs(3600);

/// One member of a retired room: its connection and the player behind it.
#[derive(Clone, Debug)]
pub struct ParkedMember {
    pub link: MemberLink,
    pub player: String,
}

struct Entry {
    members: Vec<ParkedMember>,
    since: Instant,
}

/// Parked members by room. A DashMap: rooms park and take back, sessions drop their own
/// connection when it closes; each holds one entry for a few instructions.
#[derive(Default)]
pub struct ParkedMembers {
    rooms: DashMap<String, Entry>,
}

impl ParkedMembers {
    /// A finished room leaves memory with these members still connected.
    pub fn park(&self, room: &str, members: Vec<ParkedMember>) {
        let members: Vec<ParkedMember> = members
            .into_iter()
            .filter(|m| !m.link.is_closed())
            .collect();
        if members.is_empty() {
            return;
        }
        let mut entry = self.rooms.entry(room.to_string()).or_insert_with(|| Entry {
            members: Vec::new(),
            since: Instant::now(),
        });
        entry.since = Instant::now();
        for m in members {
            if !entry.members.iter().any(|p| p.link.id() == m.link.id()) {
                entry.members.push(m);
            }
        }
    }

    /// The room is in memory again: its parked members, still connected.
    #[must_use]
    pub fn take(&self, room: &str) -> Vec<ParkedMember> {
        self.rooms.remove(room).map_or_else(Vec::new, |(_, e)| {
            e.members
                .into_iter()
                .filter(|m| !m.link.is_closed())
                .collect()
        })
    }

    /// A connection closed: it is no longer parked in `room`.
    pub fn drop_conn(&self, room: &str, conn_id: u64) {
        self.rooms.remove_if_mut(room, |_, e| {
            e.members.retain(|m| m.link.id() != conn_id);
            e.members.is_empty()
        });
    }

    /// Forgets entries parked before `now - PARKED_KEEP`; their members no longer count the
    /// room as theirs.
    pub fn expire(&self, now: Instant) {
        self.rooms.retain(|room, e| {
            let keep = now.saturating_duration_since(e.since) < PARKED_KEEP;
            if !keep {
                for m in &e.members {
                    m.link.left(room);
                }
            }
            keep
        });
    }

    /// Rooms with parked members.
    #[must_use]
    pub fn len(&self) -> usize {
        self.rooms.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rooms.is_empty()
    }
}
