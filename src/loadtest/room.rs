//! One room of the load as its clients share it: the game now played (published by the
//! player who creates each game), who has joined it, when each of its moves was sent — so
//! that the receivers can time them — and the end that stops every client of the room.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use tokio::sync::watch;

use super::tally::Tally;

/// A game of the room: its number in the room, the server's room id, and its moves.
#[derive(Debug)]
pub struct Game {
    pub number: u64,
    pub room: String,
    pub moves: Vec<String>,
}

/// Where the room is.
#[derive(Clone, Debug)]
enum Phase {
    /// No game yet.
    Starting,
    Playing(Arc<Game>),
    /// No more games: the run is over, or a client failed.
    Ended,
}

/// When a move was sent and who has received it so far.
struct Pending {
    sent: Instant,
    opponent: bool,
    spectators: usize,
    last_spectator: Instant,
}

/// The pending moves of the current game, by ply.
#[derive(Default)]
struct SentMoves {
    game: u64,
    by_ply: HashMap<u32, Pending>,
}

/// What the clients of one room share.
pub struct LoadRoom {
    pub index: usize,
    /// Spectators of each game.
    pub spectators: usize,
    /// Moves received after this are not counted: the run's measured window has closed.
    pub until: Instant,
    tally: Arc<Tally>,
    phase: watch::Sender<Phase>,
    /// The game number and how many of its joiners (the second player and the spectators)
    /// have joined it.
    joined: watch::Sender<(u64, usize)>,
    sent: Mutex<SentMoves>,
}

impl LoadRoom {
    #[must_use]
    pub fn new(index: usize, spectators: usize, until: Instant, tally: Arc<Tally>) -> LoadRoom {
        LoadRoom {
            index,
            spectators,
            until,
            tally,
            phase: watch::Sender::new(Phase::Starting),
            joined: watch::Sender::new((0, 0)),
            sent: Mutex::new(SentMoves::default()),
        }
    }

    /// Starts a game: the other clients join it.
    pub fn publish(&self, game: Game) -> Arc<Game> {
        let game = Arc::new(game);
        self.joined.send_replace((game.number, 0));
        *self.sent.lock().unwrap_or_else(PoisonError::into_inner) = SentMoves {
            game: game.number,
            by_ply: HashMap::new(),
        };
        self.phase.send_replace(Phase::Playing(game.clone()));
        game
    }

    /// The first game after game `after` (any game with `None`); `None` once the room ended.
    pub async fn next_game(&self, after: Option<u64>) -> Option<Arc<Game>> {
        let mut phase = self.phase.subscribe();
        let seen = phase
            .wait_for(|p| match p {
                Phase::Starting => false,
                Phase::Playing(game) => after.is_none_or(|n| game.number > n),
                Phase::Ended => true,
            })
            .await
            .ok()?;
        match &*seen {
            Phase::Playing(game) => Some(game.clone()),
            Phase::Starting | Phase::Ended => None,
        }
    }

    /// A joiner has joined game `number`.
    pub fn joined(&self, number: u64) {
        self.joined.send_modify(|(game, count)| {
            if *game == number {
                *count += 1;
            }
        });
    }

    /// Waits until the second player and every spectator have joined game `number`; false
    /// if the room ended first.
    pub async fn everyone_joined(&self, number: u64) -> bool {
        let mut joined = self.joined.subscribe();
        let joiners = self.spectators + 1;
        tokio::select! {
            all = joined.wait_for(|&(game, count)| game == number && count >= joiners) => all.is_ok(),
            () = self.ended() => false,
        }
    }

    /// Ends the room: its clients stop.
    pub fn end(&self) {
        self.phase.send_replace(Phase::Ended);
    }

    /// Resolves once the room has ended.
    pub async fn ended(&self) {
        let mut phase = self.phase.subscribe();
        let _ = phase.wait_for(|p| matches!(p, Phase::Ended)).await;
    }

    /// The mover is about to send the move that makes game `number` `ply` moves long.
    pub fn sending(&self, number: u64, ply: u32, at: Instant) {
        let mut sent = self.sent.lock().unwrap_or_else(PoisonError::into_inner);
        if sent.game == number {
            sent.by_ply.insert(
                ply,
                Pending {
                    sent: at,
                    opponent: false,
                    spectators: 0,
                    last_spectator: at,
                },
            );
        }
    }

    /// The opponent received the `moved` of `ply` at `at`.
    pub fn opponent_received(&self, number: u64, ply: u32, at: Instant) {
        let latency = self.receipt(number, ply, |pending| {
            pending.opponent = true;
            pending.sent
        });
        if let Some(sent) = latency.filter(|_| at <= self.until) {
            self.tally
                .move_seen_by_opponent(at.saturating_duration_since(sent));
        }
    }

    /// A spectator received the `moved` of `ply` at `at`; the last of them times the move.
    pub fn spectator_received(&self, number: u64, ply: u32, at: Instant) {
        let spectators = self.spectators;
        let all_seen = self.receipt(number, ply, |pending| {
            pending.spectators += 1;
            pending.last_spectator = pending.last_spectator.max(at);
            (pending.spectators == spectators).then_some((pending.sent, pending.last_spectator))
        });
        if let Some((sent, last)) = all_seen.flatten().filter(|_| at <= self.until) {
            self.tally
                .move_seen_by_every_spectator(last.saturating_duration_since(sent));
        }
    }

    /// Updates the pending move of `ply`, and forgets it once every receiver has seen it.
    fn receipt<T>(
        &self,
        number: u64,
        ply: u32,
        update: impl FnOnce(&mut Pending) -> T,
    ) -> Option<T> {
        let mut sent = self.sent.lock().unwrap_or_else(PoisonError::into_inner);
        if sent.game != number {
            return None;
        }
        let pending = sent.by_ply.get_mut(&ply)?;
        let value = update(pending);
        if pending.opponent && pending.spectators >= self.spectators {
            sent.by_ply.remove(&ply);
        }
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn times_a_move_to_the_opponent_and_to_the_last_spectator() {
        let tally = Arc::new(Tally::default());
        let now = Instant::now();
        let room = LoadRoom::new(0, 2, now + Duration::from_secs(60), tally.clone());
        let game = room.publish(Game {
            number: 1,
            room: "r".into(),
            moves: vec!["h8".into()],
        });
        assert_eq!(room.next_game(None).await.unwrap().number, game.number);
        room.sending(1, 1, now);
        room.spectator_received(1, 1, now + Duration::from_millis(3));
        room.opponent_received(1, 1, now + Duration::from_millis(2));
        room.spectator_received(1, 1, now + Duration::from_millis(5));
        let to_opponent = tally.to_opponent();
        let to_spectators = tally.to_last_spectator();
        assert_eq!(to_opponent.count, 1);
        assert!((to_opponent.max_ms - 2.0).abs() < 0.01, "{to_opponent:?}");
        assert_eq!(to_spectators.count, 1);
        assert!(
            (to_spectators.max_ms - 5.0).abs() < 0.01,
            "{to_spectators:?}"
        );
        // A receipt of another game, or of a move never sent, counts nothing.
        room.opponent_received(2, 1, now);
        room.opponent_received(1, 9, now);
        assert_eq!(tally.moves(), 1);
        room.end();
        assert!(room.next_game(Some(1)).await.is_none());
        assert!(!room.everyone_joined(1).await);
    }
}
