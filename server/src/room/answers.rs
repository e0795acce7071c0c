//! The answers a room gave to moves sent with a request id, so that a resent move is answered
//! as the first time instead of played again. Bounded per room; the oldest answers go first.

use std::collections::{HashMap, VecDeque};

use game_core::protocol::ServerMsg;

/// Answers by player and request id.
#[derive(Clone, Debug)]
pub struct AnswerCache {
    /// Player id → request id → answer. Nested so that a lookup borrows both ids.
    answers: HashMap<String, HashMap<String, ServerMsg>>,
    /// Oldest first, for eviction.
    order: VecDeque<(String, String)>,
    capacity: usize,
}

impl AnswerCache {
    #[must_use]
    pub fn new(capacity: usize) -> AnswerCache {
        AnswerCache {
            answers: HashMap::new(),
            order: VecDeque::new(),
            capacity,
        }
    }

    /// The answer `player` got for request `id`.
    #[must_use]
    pub fn get(&self, player: &str, id: &str) -> Option<&ServerMsg> {
        self.answers.get(player)?.get(id)
    }

    /// Keeps `answer` for a resend of `id` by `player`, forgetting the oldest past capacity.
    pub fn remember(&mut self, player: &str, id: &str, answer: ServerMsg) {
        let known = self
            .answers
            .entry(player.to_string())
            .or_default()
            .insert(id.to_string(), answer)
            .is_some();
        if !known {
            self.order.push_back((player.to_string(), id.to_string()));
        }
        while self.order.len() > self.capacity {
            if let Some((player, id)) = self.order.pop_front() {
                self.remove(&player, &id);
            }
        }
    }

    /// Frees `id` of `player` (its move was taken back): a new move may use it.
    pub fn forget(&mut self, player: &str, id: &str) {
        if self.remove(player, id) {
            self.order.retain(|(p, i)| !(p == player && i == id));
        }
    }

    fn remove(&mut self, player: &str, id: &str) -> bool {
        let Some(ids) = self.answers.get_mut(player) else {
            return false;
        };
        let removed = ids.remove(id).is_some();
        if ids.is_empty() {
            self.answers.remove(player);
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(n: u64) -> ServerMsg {
        ServerMsg::Seeking {
            seek: n.to_string(),
        }
    }

    #[test]
    fn keeps_answers_per_player_up_to_capacity() {
        let mut cache = AnswerCache::new(2);
        cache.remember("p", "1", answer(1));
        cache.remember("q", "1", answer(2));
        assert_eq!(cache.get("p", "1"), Some(&answer(1)));
        assert_eq!(cache.get("q", "1"), Some(&answer(2)));
        cache.remember("p", "2", answer(3));
        assert_eq!(cache.get("p", "1"), None, "the oldest went first");
        assert_eq!(cache.get("p", "2"), Some(&answer(3)));
        cache.forget("p", "2");
        assert_eq!(cache.get("p", "2"), None);
        cache.remember("p", "3", answer(4));
        assert_eq!(
            cache.get("q", "1"),
            Some(&answer(2)),
            "a forgotten id frees its place"
        );
    }
}
