//! Every open connection of each player, so that the server can tell a player something that
//! no room of theirs carries yet — a tournament's director seating them in a new game. A
//! connection is added at its `hello` and removed when it closes; closed links found on the
//! way are dropped too, so that a list never grows past the connections a player has.

use dashmap::DashMap;

use crate::room::member::MemberLink;

/// Links by player id. A DashMap: each operation holds one entry for a few instructions,
/// never across an `.await`.
#[derive(Default)]
pub struct PlayerLinks {
    by_player: DashMap<String, Vec<MemberLink>>,
}

impl PlayerLinks {
    /// A connection said `hello` as `player`.
    pub fn connected(&self, player: &str, link: MemberLink) {
        let mut links = self.by_player.entry(player.to_string()).or_default();
        links.retain(|l| !l.is_closed() && l.id() != link.id());
        links.push(link);
    }

    /// The connection `conn_id` of `player` closed.
    pub fn disconnected(&self, player: &str, conn_id: u64) {
        self.by_player.remove_if_mut(player, |_, links| {
            links.retain(|l| !l.is_closed() && l.id() != conn_id);
            links.is_empty()
        });
    }

    /// The player's open connections.
    #[must_use]
    pub fn of(&self, player: &str) -> Vec<MemberLink> {
        self.by_player
            .get(player)
            .map(|links| links.iter().filter(|l| !l.is_closed()).cloned().collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use tokio::sync::{mpsc, Notify};

    use crate::net::connection::Conn;

    fn link(id: u64) -> (MemberLink, mpsc::Receiver<crate::net::connection::Out>) {
        let (tx, rx) = mpsc::channel(4);
        (
            MemberLink::Local(Conn::new(id, tx, Arc::new(Notify::new()))),
            rx,
        )
    }

    #[test]
    fn a_players_open_connections_are_found_until_they_close() {
        let links = PlayerLinks::default();
        let (a, _a_rx) = link(1);
        let (b, b_rx) = link(2);
        links.connected("p1", a.clone());
        links.connected("p1", b);
        links.connected("p1", a);
        assert_eq!(links.of("p1").len(), 2, "a link added twice counts once");
        drop(b_rx);
        assert_eq!(links.of("p1").len(), 1, "a closed link is not offered");
        links.disconnected("p1", 1);
        assert!(links.of("p1").is_empty());
        assert!(
            links.by_player.is_empty(),
            "a player without links is forgotten"
        );
        assert!(links.of("nobody").is_empty());
    }
}
