//! The transposition table: a fixed-size array indexed by the low bits of a Zobrist key.
//!
//! Each entry keeps the full key (to reject collisions), the searched depth, the bound type
//! and the best move's code. Win scores are stored relative to the node (distance from the
//! node, not from the root), and converted back on probe, so a win found through different
//! paths keeps the right distance: see [`score_to_tt`] and [`score_from_tt`].

use crate::engine::value::WIN_BOUND;

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    /// The exact value.
    #[default]
    Exact,
    /// A lower bound: the search failed high (value >= beta).
    Lower,
    /// An upper bound: the search failed low (value <= alpha).
    Upper,
}

impl Bound {
    /// What `score` is, for a search of the window `(alpha, beta)`.
    #[must_use]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

/// One slot.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// Code of the best move (`SearchGame::move_code`), `u32::MAX` for none.
    pub best: u32,
}

impl Entry {
    /// The stored score as seen from `ply`, when its bound settles a search of the window
    /// `(alpha, beta)` (the caller checks that the entry is deep enough).
    #[must_use]
    pub fn cutoff(&self, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
        let s = score_from_tt(self.score, ply);
        match self.bound {
            Bound::Exact => Some(s),
            Bound::Lower if s >= beta => Some(s),
            Bound::Upper if s <= alpha => Some(s),
            _ => None,
        }
    }
}

/// A transposition table of `2^bits` entries; always-replace except that a deeper entry of
/// the same position is kept over a shallower one.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of `2^bits` entries (24 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> TranspositionTable {
        let len = 1usize << bits.min(28);
        TranspositionTable {
            entries: vec![Entry::default(); len],
            mask: len - 1,
        }
    }

    /// Empties the table (a fresh search that must be deterministic).
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The entry of `key`, if stored.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && key != 0).then_some(e)
    }

    pub fn store(&mut self, key: u64, entry: Entry) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key && slot.depth > entry.depth && entry.bound != Bound::Exact {
            return;
        }
        *slot = Entry { key, ..entry };
    }
}

/// A score as stored: wins counted from the node instead of from the root.
#[must_use]
pub fn score_to_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
#[must_use]
pub fn score_from_tt(score: i32, ply: u32) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::value::WIN;

    #[test]
    fn stores_probes_and_adjusts_wins() {
        let mut tt = TranspositionTable::new(4);
        assert!(tt.probe(42).is_none());
        tt.store(
            42,
            Entry {
                key: 0,
                score: 7,
                depth: 3,
                bound: Bound::Lower,
                best: 5,
            },
        );
        let e = tt.probe(42).unwrap();
        assert_eq!((e.score, e.depth, e.bound, e.best), (7, 3, Bound::Lower, 5));
        // A colliding key in the same slot is not returned as ours.
        assert!(tt.probe(42 + 16).is_none());
        // Win in 5 from the root seen at ply 2 is win in 3 from the node.
        let at_node = score_to_tt(WIN - 5, 2);
        assert_eq!(at_node, WIN - 3);
        assert_eq!(score_from_tt(at_node, 4), WIN - 7);
        assert_eq!(score_from_tt(score_to_tt(-(WIN - 6), 3), 3), -(WIN - 6));
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
