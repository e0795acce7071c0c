//! What this server holds of tournaments in memory: which ones it directs now (so that one is
//! never directed twice — a `start` and the resume at start-up, say), the lock under which
//! an open tournament's document is read, changed and written back, so that two joins at once
//! do not lose one another, and how many tournaments each player made lately. The documents
//! themselves live in the store.

use std::collections::HashSet;
use std::sync::Mutex;

use dashmap::DashMap;
use tokio::time::Instant;

use crate::rate_limit::{Rate, RateWindow};

/// Tournaments one player may make per hour: plenty for anyone who plays them, and a bound
/// on the store's rows for anyone who does not.
pub const MAKING_RATE: Rate = Rate {
    max: 10,
    per: std::time::Duration::from_secs(3600),
};

/// Running directors and the edit lock.
#[derive(Default)]
pub struct TournamentRegistry {
    directed: Mutex<HashSet<String>>,
    /// Held across a read, a change and a write of one open tournament's document: edits are
    /// rare and short, so one lock for all of them is enough.
    edits: tokio::sync::Mutex<()>,
    /// Tournaments made per player, in the current window of each.
    made: DashMap<String, RateWindow>,
    /// The rooms of tournament games being played here: their players may not abort them
    /// (an abort scores as a loss of the side that never moved, which the side that did
    /// could otherwise call for at will).
    /// Each with the id of its tournament, which its room tells its players.
    game_rooms: DashMap<String, String>,
    /// In a cluster, games of tournaments another node directs: when the director's word of
    /// each was last heard, and the connections here told of it.
    elsewhere: DashMap<String, Elsewhere>,
}

/// A game of a tournament directed on another node, as this node heard of it.
struct Elsewhere {
    heard: Instant,
    told: HashSet<u64>,
}

/// A game of a tournament directed elsewhere whose word has not come for this long is
/// forgotten here (it ended; the director tells every second while it goes on).
pub const ELSEWHERE_FORGOTTEN: std::time::Duration = std::time::Duration::from_secs(30);

impl TournamentRegistry {
    /// Claims the direction of tournament `id`: false when this server directs it already.
    #[must_use]
    pub fn claim(&self, id: &str) -> bool {
        self.directed_set().insert(id.to_string())
    }

    /// The director of `id` ended.
    pub fn released(&self, id: &str) {
        self.directed_set().remove(id);
    }

    /// Whether this server directs `id` now.
    #[must_use]
    pub fn is_directed(&self, id: &str) -> bool {
        self.directed_set().contains(id)
    }

    /// A game of `tournament` is played in `room` (until [`TournamentRegistry::game_over`]).
    pub fn game_room(&self, room: &str, tournament: &str) {
        if !self.game_rooms.contains_key(room) {
            self.game_rooms
                .insert(room.to_string(), tournament.to_string());
        }
    }

    pub fn game_over(&self, room: &str) {
        self.game_rooms.remove(room);
    }

    /// Whether `room` holds a tournament game still being played.
    #[must_use]
    pub fn is_game_room(&self, room: &str) -> bool {
        self.game_rooms.contains_key(room)
    }

    /// The tournament whose game is played in `room`, while it is played.
    #[must_use]
    pub fn tournament_of(&self, room: &str) -> Option<String> {
        self.game_rooms.get(room).map(|t| t.value().clone())
    }

    /// The director of a tournament on another node told of the game in `room`, at `now`: it
    /// is a tournament game here too.
    pub fn heard_elsewhere(&self, room: &str, tournament: &str, now: Instant) {
        self.game_room(room, tournament);
        self.elsewhere
            .entry(room.to_string())
            .or_insert_with(|| Elsewhere {
                heard: now,
                told: HashSet::new(),
            })
            .heard = now;
    }

    /// Whether connection `conn` is yet to be told of the game in `room`, directed elsewhere
    /// (and counts it told).
    pub fn tell_elsewhere(&self, room: &str, conn: u64) -> bool {
        self.elsewhere
            .get_mut(room)
            .is_some_and(|mut game| game.told.insert(conn))
    }

    /// Forgets the games directed elsewhere whose word stopped coming, so that memory stays
    /// bounded.
    pub fn expire_elsewhere(&self, now: Instant) {
        self.elsewhere.retain(|room, game| {
            let kept = now.saturating_duration_since(game.heard) < ELSEWHERE_FORGOTTEN;
            if !kept {
                self.game_rooms.remove(room);
            }
            kept
        });
    }

    /// Waits for the edit lock; edits of open tournaments happen while it is held.
    pub async fn edit(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.edits.lock().await
    }

    /// Counts a tournament `player` makes at `now`; false when they made `rate.max` in its
    /// window already.
    #[must_use]
    pub fn admit_making(&self, player: &str, rate: Rate, now: Instant) -> bool {
        self.made
            .entry(player.to_string())
            .or_default()
            .admit(rate, now)
    }

    /// Forgets the windows of players who made no tournament lately.
    pub fn expire_making(&self, rate: Rate, now: Instant) {
        self.made.retain(|_, w| !w.is_idle(rate, now));
    }

    fn directed_set(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.directed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tournament_is_directed_once_until_released() {
        let registry = TournamentRegistry::default();
        assert!(registry.claim("t1"));
        assert!(!registry.claim("t1"));
        assert!(registry.is_directed("t1"));
        registry.released("t1");
        assert!(!registry.is_directed("t1"));
        assert!(registry.claim("t1"));
    }

    #[test]
    fn a_player_makes_so_many_tournaments_a_window() {
        let registry = TournamentRegistry::default();
        let rate = Rate::new(2, std::time::Duration::from_secs(60));
        let t0 = Instant::now();
        assert!(registry.admit_making("p1", rate, t0));
        assert!(registry.admit_making("p1", rate, t0));
        assert!(!registry.admit_making("p1", rate, t0));
        assert!(
            registry.admit_making("p2", rate, t0),
            "another player's own window"
        );
        let later = t0 + std::time::Duration::from_secs(61);
        registry.expire_making(rate, later);
        assert!(registry.made.is_empty());
        assert!(registry.admit_making("p1", rate, later));
    }
}
