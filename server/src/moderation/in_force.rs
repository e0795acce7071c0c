//! The sanctions in force on this node, by player, and the refusal a sanction gives: what the
//! hub keeps ([`Sanctions`]) and what a refused request carries ([`Sanctioned`]), apart from
//! the actions that change them (`sanctions.rs`), which need the hub.

use std::collections::HashMap;
use std::time::{Duration, UNIX_EPOCH};

use game_core::protocol::ErrorCode;
use parking_lot::RwLock;
use thiserror::Error;

use crate::refusal::Refusal;
use crate::store::StoredSanction;

/// The sanctions in force, by player.
#[derive(Default)]
pub struct Sanctions {
    by_player: RwLock<HashMap<String, Vec<StoredSanction>>>,
}

impl Sanctions {
    /// Replaces what this node knows with `list` (all the sanctions in force).
    pub fn replace(&self, list: Vec<StoredSanction>) {
        let mut by_player: HashMap<String, Vec<StoredSanction>> = HashMap::new();
        for s in list {
            by_player.entry(s.player.clone()).or_default().push(s);
        }
        *self.by_player.write() = by_player;
    }

    /// The first of `kinds` in force on `player` at `now_ms`.
    #[must_use]
    pub fn in_force(&self, player: &str, kinds: &[&str], now_ms: u64) -> Option<StoredSanction> {
        let map = self.by_player.read();
        let list = map.get(player)?;
        kinds.iter().find_map(|kind| {
            list.iter()
                .find(|s| s.kind == *kind && s.until_ms.is_none_or(|t| t > now_ms))
                .cloned()
        })
    }

    /// Every sanction this node knows.
    #[must_use]
    pub fn all(&self) -> Vec<StoredSanction> {
        self.by_player.read().values().flatten().cloned().collect()
    }
}

/// A request a sanction stops; the message says which, why and until when.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", sentence(.0))]
pub struct Sanctioned(pub StoredSanction);

impl Refusal for Sanctioned {
    fn code(&self) -> ErrorCode {
        ErrorCode::Sanctioned
    }
}

/// "you are muted until Mon, 07 Dec 2026 10:00:00 GMT: spam".
fn sentence(s: &StoredSanction) -> String {
    let what = match s.kind.as_str() {
        "mute" => "you are muted",
        "rated_ban" => "you may not play rated games",
        "close" => "this account is closed",
        _ => "you are banned from this hall",
    };
    match s.until_ms {
        Some(t) => format!("{what} until {} ({})", when(t), s.reason),
        None => format!("{what} ({})", s.reason),
    }
}

/// A moment for people: the HTTP date form, in GMT.
#[must_use]
pub fn when(unix_ms: u64) -> String {
    httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_millis(unix_ms))
}
