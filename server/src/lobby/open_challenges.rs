//! This node's open challenges ([`Challenges`], what the hub keeps), their terms and the
//! refusals of a challenge, apart from the challenge's course (`challenges.rs`), which
//! needs the hub.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use game_core::protocol::{ChallengeColor, ClockSpec, ErrorCode};
use game_core::GameSpec;
use thiserror::Error;
use tokio::time::Instant;

use crate::refusal::Refusal;
use crate::room::handle::Actor;

/// Open challenges of one challenger at most.
pub const MAX_OPEN: usize = 3;

/// How long a challenge stays open unanswered.
pub const LIFETIME: Duration = Duration::from_secs(5 * 60);

/// Why a challenge, a reply or a withdrawal is refused.
#[derive(Debug, Error)]
pub enum ChallengeRefusal {
    #[error("{0}")]
    Game(#[from] crate::room::error::RoomError),
    #[error("you cannot challenge yourself")]
    Yourself,
    #[error("{0} is a bot: invite it with invite_bot")]
    Bot(String),
    #[error("{0} is not online")]
    NotOnline(String),
    #[error("a rated game needs both players to have accounts")]
    RatedNeedsAccounts,
    #[error("at most {MAX_OPEN} of your challenges may be open at once")]
    TooMany,
    #[error("that challenge is no longer open")]
    Gone,
    #[error("you have blocked {0}")]
    YouBlocked(String),
    #[error("the challenger's server cannot be reached; try again")]
    Unreachable,
}

impl Refusal for ChallengeRefusal {
    fn code(&self) -> ErrorCode {
        match self {
            ChallengeRefusal::Game(e) => e.code(),
            _ => ErrorCode::BadRequest,
        }
    }
}

/// What was asked.
#[derive(Clone, Debug)]
pub struct Terms {
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub color: ChallengeColor,
    pub rated: bool,
}

/// An open challenge: who asked whom, on what terms, until when.
pub(super) struct Open {
    pub(super) from: Actor,
    pub(super) to_player: String,
    pub(super) terms: Terms,
    pub(super) expires: Instant,
}

/// This node's open challenges.
#[derive(Default)]
pub struct Challenges {
    open: Mutex<HashMap<String, Open>>,
}

impl Challenges {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(super) fn add(&self, id: String, open: Open) -> Result<(), ChallengeRefusal> {
        let mut map = self.lock();
        let mine = map
            .values()
            .filter(|o| o.from.player.id == open.from.player.id)
            .count();
        if mine >= MAX_OPEN {
            return Err(ChallengeRefusal::TooMany);
        }
        map.insert(id, open);
        Ok(())
    }

    /// Takes challenge `id` if `keep` says it is the one meant.
    pub(super) fn take_if(&self, id: &str, keep: impl Fn(&Open) -> bool) -> Option<Open> {
        let mut map = self.lock();
        if !map.get(id).is_some_and(keep) {
            return None;
        }
        map.remove(id)
    }

    pub(super) fn take_where(&self, pick: impl Fn(&Open) -> bool) -> Vec<(String, Open)> {
        let mut map = self.lock();
        let ids: Vec<String> = map
            .iter()
            .filter(|(_, o)| pick(o))
            .map(|(id, _)| id.clone())
            .collect();
        ids.into_iter()
            .filter_map(|id| map.remove(&id).map(|o| (id, o)))
            .collect()
    }

    /// Open challenges (for tests and metrics).
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
