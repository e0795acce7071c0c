//! Known players: their public records by id, and whose id a token's hash is. Loaded from the
//! store at start and added to by every `hello`.

use dashmap::DashMap;

/// A known player (from the store or a `hello`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    pub id: String,
    pub name: String,
    pub bot: bool,
}

/// The players of this server. DashMaps: every `hello` with a token reads them, and only a
/// `hello` writes them.
#[derive(Default)]
pub struct Players {
    by_id: DashMap<String, PlayerRecord>,
    /// Player ids by token hash.
    by_token: DashMap<String, String>,
}

impl Players {
    /// Records a player and the hash of its token.
    pub fn insert(&self, record: PlayerRecord, token_hash: String) {
        self.by_token.insert(token_hash, record.id.clone());
        self.by_id.insert(record.id.clone(), record);
    }

    /// The player a token's hash belongs to.
    #[must_use]
    pub fn by_token(&self, token_hash: &str) -> Option<PlayerRecord> {
        let id = self.by_token.get(token_hash)?.clone();
        self.by_id.get(&id).map(|p| p.clone())
    }
}
