//! The block lists this node knows, by blocker: what the hub keeps, apart from the reading and
//! changing of them (`blocks.rs`), which need the hub. Memory stays bounded: past
//! [`MAX_CACHED`] lists the cache starts over.

use std::collections::HashSet;
use std::sync::Arc;

use dashmap::DashMap;

/// Lists kept in memory at most.
pub const MAX_CACHED: usize = 100_000;

/// The lists this node knows, by blocker.
#[derive(Default)]
pub struct Blocks {
    by_player: DashMap<String, Arc<HashSet<String>>>,
}

impl Blocks {
    /// Keeps `player`'s list.
    pub fn set(&self, player: &str, list: Vec<String>) {
        if self.by_player.len() >= MAX_CACHED {
            self.by_player.clear();
        }
        self.by_player
            .insert(player.to_string(), Arc::new(list.into_iter().collect()));
    }

    /// Whether this node knows `player`'s list.
    #[must_use]
    pub fn loaded(&self, player: &str) -> bool {
        self.by_player.contains_key(player)
    }

    /// Whether `player` has blocked `other`, as far as this node knows (a list it has not
    /// loaded blocks nobody).
    #[must_use]
    pub fn has_blocked(&self, player: &str, other: &str) -> bool {
        self.by_player
            .get(player)
            .is_some_and(|set| set.contains(other))
    }

    /// `player`'s list, if known.
    #[must_use]
    pub fn list(&self, player: &str) -> Option<Arc<HashSet<String>>> {
        self.by_player.get(player).map(|s| s.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_blocks_only_whom_it_names_and_an_unknown_one_nobody() {
        let blocks = Blocks::default();
        blocks.set("ann", vec!["bob".into()]);
        assert!(blocks.has_blocked("ann", "bob"));
        assert!(!blocks.has_blocked("bob", "ann"));
        assert!(!blocks.has_blocked("ann", "cid"));
        assert!(!blocks.loaded("bob"));
        assert!(!blocks.has_blocked("zed", "ann"));
    }
}
