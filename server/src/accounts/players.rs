//! Known players: their public records by id, whose id a token's hash is, and when each was
//! last seen — connected now, or since when not — so that players gone for long can be
//! forgotten. Loaded from the store at start and added to by every `hello`.

use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

/// A known player (from the store or a `hello`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub id: String,
    pub name: String,
    pub bot: bool,
    /// Has an account (a claimed name, or a bot registered by the bot key): may play rated.
    #[serde(default)]
    pub account: bool,
}

/// What the server keeps of one player.
#[derive(Debug)]
struct Known {
    record: PlayerRecord,
    token_hash: String,
    /// Open connections that said `hello` as this player.
    connections: u32,
    /// When the last of them closed (or the server started, or the player arrived).
    last_seen: Instant,
}

/// The players of this server. DashMaps: every `hello` with a token reads them, and only a
/// `hello`, a closed connection and the sweep that forgets players write them.
#[derive(Default)]
pub struct Players {
    by_id: DashMap<String, Known>,
    /// Player ids by token hash.
    by_token: DashMap<String, String>,
    /// Tokens forgotten so far (sign-outs): a `hello` that waited on the store while one
    /// arrived asks the store again before it records its token (see `session::identity`).
    sign_outs: AtomicU64,
}

impl Players {
    /// Records a player and the hash of its token, not connected (loaded at start).
    pub fn insert(&self, record: PlayerRecord, token_hash: String) {
        self.by_token.insert(token_hash.clone(), record.id.clone());
        let connections = self.by_id.get(&record.id).map_or(0, |k| k.connections);
        self.by_id.insert(
            record.id.clone(),
            Known {
                record,
                token_hash,
                connections,
                last_seen: Instant::now(),
            },
        );
    }

    /// A connection said `hello` as this player.
    pub fn connected(&self, record: PlayerRecord, token_hash: String) {
        let id = record.id.clone();
        self.insert(record, token_hash);
        if let Some(mut known) = self.by_id.get_mut(&id) {
            known.connections += 1;
        }
    }

    /// A connection of this player closed.
    pub fn disconnected(&self, id: &str) {
        if let Some(mut known) = self.by_id.get_mut(id) {
            known.connections = known.connections.saturating_sub(1);
            known.last_seen = Instant::now();
        }
    }

    /// The player a token's hash belongs to.
    #[must_use]
    pub fn by_token(&self, token_hash: &str) -> Option<PlayerRecord> {
        let id = self.by_token.get(token_hash)?.clone();
        self.by_id.get(&id).map(|p| p.record.clone())
    }

    /// Forgets one token (a sign-out): a `hello` with it is refused from now on.
    pub fn forget_token(&self, token_hash: &str) {
        self.by_token.remove(token_hash);
        self.sign_outs.fetch_add(1, Ordering::SeqCst);
    }

    /// How many tokens have been forgotten: changes whenever [`Players::forget_token`] runs.
    #[must_use]
    pub fn sign_outs(&self) -> u64 {
        self.sign_outs.load(Ordering::SeqCst)
    }

    /// A player claimed a name: its record from now on.
    pub fn claimed(&self, id: &str, name: &str) {
        if let Some(mut known) = self.by_id.get_mut(id) {
            known.record.name = name.to_string();
            known.record.account = true;
        }
    }

    /// People (not bots) with no connection who were last seen before `cutoff`.
    #[must_use]
    pub fn unseen_since(&self, cutoff: Instant) -> Vec<String> {
        self.by_id
            .iter()
            .filter(|k| {
                k.connections == 0 && !k.record.bot && !k.record.account && k.last_seen < cutoff
            })
            .map(|k| k.key().clone())
            .collect()
    }

    /// Forgets `id` if it is still unseen since `cutoff`; its token is unknown from now on.
    pub fn forget(&self, id: &str, cutoff: Instant) {
        let removed = self
            .by_id
            .remove_if(id, |_, k| k.connections == 0 && k.last_seen < cutoff);
        if let Some((_, known)) = removed {
            self.by_token.remove(&known.token_hash);
        }
    }

    /// Players known.
    #[must_use]
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn player(id: &str, bot: bool) -> PlayerRecord {
        PlayerRecord {
            id: id.into(),
            name: id.into(),
            bot,
            account: false,
        }
    }

    #[test]
    fn only_people_unseen_since_the_cutoff_are_forgotten() {
        let players = Players::default();
        players.insert(player("gone", false), "h1".into());
        players.insert(player("kibot", true), "h2".into());
        players.connected(player("here", false), "h3".into());
        let later = Instant::now() + Duration::from_secs(1);
        assert_eq!(players.unseen_since(later), ["gone"]);
        players.forget("gone", later);
        assert_eq!(players.by_token("h1"), None);
        assert_eq!(players.len(), 2);
        // One who connects again in between is kept.
        players.disconnected("here");
        let cutoff = Instant::now() + Duration::from_secs(1);
        players.connected(player("here", false), "h3".into());
        players.forget("here", cutoff);
        assert!(players.by_token("h3").is_some());
    }
}
