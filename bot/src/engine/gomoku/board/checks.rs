//! The board's self-checks: its incremental state against one rebuilt from the stones alone
//! (the tests', and a debugging aid).

use super::{Board, SIDE_KEY};

impl Board {
    /// A copy of this board rebuilt from its stones alone, for checking the incremental
    /// state (tests, debugging).
    #[must_use]
    pub fn recount(&self) -> Board {
        let mut fresh = self.clone();
        fresh.rebuild();
        fresh
    }

    /// Whether the incremental state equals a from-scratch one.
    #[must_use]
    pub fn agrees_with(&self, other: &Board) -> bool {
        let empty_points = self
            .points
            .iter()
            .filter(|&&p| self.is_empty(p))
            .map(|&p| usize::from(p));
        self.summary == other.summary
            && self.candidates == other.candidates
            && self
                .spots
                .iter()
                .zip(&other.spots)
                .all(|(a, b)| (a.cell, a.near) == (b.cell, b.near))
            && empty_points.into_iter().all(|p| {
                self.spots[p] == other.spots[p]
                    && self.worths[p] == other.worths[p]
                    && self.orders[p] == other.orders[p]
            })
    }

    /// The Zobrist key recomputed from the stones.
    #[must_use]
    pub fn fresh_hash(&self) -> u64 {
        let mut h = if self.turn() == 1 { SIDE_KEY } else { 0 };
        for &p in &self.points {
            if let Some(v) = self.stone(p) {
                h ^= self.zobrist[usize::from(p)][v];
            }
        }
        h
    }
}
