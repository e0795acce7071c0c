//! What the lobby shows of quick pairing: the hall's seekers counted per game and clock. The
//! book itself is the coordination's (`cluster::Coordination::seek`: in this process alone,
//! in Redis in a cluster); `pairing::show_seeks` counts it again whenever it changes.

use std::sync::Mutex;

use game_core::protocol::{ClockSpec, SeekInfo};
use game_core::GameSpec;

use crate::accounts::players::PlayerRecord;
use crate::cluster::SeekEntry;
use crate::lobby::feed::LobbyFeed;
use crate::room::member::MemberLink;

/// A waiting player taken from the book for a pairing.
#[derive(Clone, Debug)]
pub struct Seeker {
    pub seek: String,
    pub player: PlayerRecord,
    pub link: MemberLink,
    /// The seeker as the book held it, to put back if the pairing fails.
    pub entry: Box<SeekEntry>,
}

/// What a `seek` came to.
#[derive(Debug)]
pub enum Pairing {
    /// Paired with this waiting player, whose seek is gone from the book.
    With(Seeker),
    /// Waiting under this seek id.
    Waiting(String),
}

/// The seeks the lobby shows: waiting players per game and clock, as last counted.
pub struct SeekBook {
    shown: Mutex<Vec<SeekInfo>>,
    lobby: LobbyFeed,
}

/// The key under which seeks of `game` and `clock` wait: the two as JSON, which serde writes
/// the same way for equal specs.
#[must_use]
pub fn spec_key(game: &GameSpec, clock: Option<ClockSpec>) -> String {
    serde_json::to_string(&(game, clock)).unwrap_or_default()
}

impl SeekBook {
    #[must_use]
    pub fn new(lobby: LobbyFeed) -> SeekBook {
        SeekBook {
            shown: Mutex::new(Vec::new()),
            lobby,
        }
    }

    /// The hall's seeks as counted (`spec_key`, waiting): the lobby shows these from now on.
    /// Keys that do not read back are left out.
    pub fn show_counts(&self, counts: Vec<(String, u32)>) {
        let mut list: Vec<SeekInfo> = counts
            .into_iter()
            .filter_map(|(key, waiting)| {
                let (game, clock) = serde_json::from_str(&key).ok()?;
                Some(SeekInfo {
                    game,
                    clock,
                    waiting,
                })
            })
            .collect();
        // By game and clock: the same counts always come in the same order.
        list.sort_by_key(|s| spec_key(&s.game, s.clock));
        let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
        if *shown != list {
            *shown = list;
            drop(shown);
            self.lobby.changed();
        }
    }

    /// The lobby's list of seeks: waiting players per game and clock.
    #[must_use]
    pub fn list(&self) -> Vec<SeekInfo> {
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
