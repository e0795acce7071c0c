//! What a request does to a room, in two steps. The rules (`RoomGame`, in game.rs) check the
//! request against the state and propose a [`Change`]: the record to store, the state after
//! it, and the events to announce. The room's task stores the record and only then commits the
//! change: nothing is announced that is not stored, and a failed write leaves the state as it
//! was.

use game_core::game::Game;
use game_core::protocol::ServerMsg;
use game_core::Color;
use tokio::time::{Duration, Instant};

use crate::clock::GameClock;
use crate::store::RoomChange;

/// A moment as the rules see it: the instant that runs the clocks, and the wall-clock time
/// that is stored with moves and chat. Passed in, so tests run on a frozen clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub at: Instant,
    /// Milliseconds since the Unix epoch.
    pub unix_ms: u64,
}

impl Moment {
    /// Now, by both clocks.
    #[must_use]
    pub fn now() -> Moment {
        Moment {
            at: Instant::now(),
            unix_ms: crate::hall_time::unix_ms(),
        }
    }

    /// `d` later.
    #[must_use]
    pub fn later(self, d: Duration) -> Moment {
        Moment {
            at: self.at + d,
            unix_ms: self.unix_ms + d.as_millis() as u64,
        }
    }
}

/// Requests waiting for the other player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// Who asked to take back, and how many moves the game would keep.
    pub undo: Option<(Color, usize)>,
    pub draw: Option<Color>,
    /// Who asked for a rematch, black and white.
    pub rematch: [bool; 2],
}

/// Something to tell the room once a change is stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// To everyone in the room.
    All(ServerMsg),
    /// A player's move: to everyone, and `mine` (with the request id) instead to the mover.
    Moved {
        plain: ServerMsg,
        mine: Option<ServerMsg>,
    },
    /// A spectator's chat line: to the spectators only.
    Spectators(ServerMsg),
    /// A fresh `state` for everyone, each from its own seat (seats or status changed).
    States,
    /// The seated players exchanged seats (an opening rule's swap): what the room keeps per
    /// seat about its player goes with them.
    SeatsSwapped,
}

/// A proposed change of a room: nothing until stored and committed.
#[derive(Debug)]
#[must_use = "a change does nothing until it is stored and committed"]
pub struct Change {
    /// What to store, in one write.
    pub(super) record: RoomChange,
    /// The game after the change, when it moved.
    pub(super) position: Option<Game>,
    /// The clocks after the change, when they changed.
    pub(super) clock: Option<GameClock>,
    pub(super) offers: Offers,
    /// The room a rematch was made in.
    pub(super) rematch_next: Option<String>,
    /// An answer to keep for a resent request id: player, id, answer.
    pub(super) answer: Option<(String, String, ServerMsg)>,
    pub(super) events: Vec<Event>,
}

impl Change {
    /// A change of `room` that keeps everything as it is, event number `seq` included.
    pub(super) fn new(room: &str, seq: u64, offers: Offers) -> Change {
        Change {
            record: RoomChange::new(room, seq),
            position: None,
            clock: None,
            offers,
            rematch_next: None,
            answer: None,
            events: Vec::new(),
        }
    }

    /// Takes the room's next event number.
    pub(super) fn next_seq(&mut self) -> u64 {
        self.record.seq += 1;
        self.record.seq
    }

    /// The write to store before the change is committed.
    #[must_use]
    pub fn record(&self) -> &RoomChange {
        &self.record
    }

    /// Whether the lobby's summary of the room changes with it (moves, seats or status).
    #[must_use]
    pub fn moves_the_lobby(&self) -> bool {
        let r = &self.record;
        !r.moves.is_empty() || r.truncate.is_some() || !r.seats.is_empty() || r.status.is_some()
    }
}
