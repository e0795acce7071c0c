//! The board's self-checks: its incremental state against one rebuilt from the stones alone
//! (the tests', and a debugging aid).

use super::{Board, PointSet, Summary, EMPTY, SIDE_KEY};

impl Board {
    /// A copy of this board rebuilt from its stones alone (the counts of stones near each
    /// point too), for checking the incremental state (tests, debugging).
    #[must_use]
    pub fn recount(&self) -> Board {
        let mut fresh = self.clone();
        fresh.count_near();
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

    /// Whether what a threat search reads ([`Board::threats_only`]) equals a from-scratch
    /// board's: the stones, keys, patterns, threat flags and sets, candidates (its
    /// [`Board::threat_candidates`]) and move order (not the values and worths, nor the
    /// counts of stones near, which that mode leaves behind).
    #[must_use]
    pub fn threats_agree_with(&self, other: &Board) -> bool {
        fn sets(s: &Summary) -> [&PointSet; 5] {
            [&s.fives, &s.fours, &s.flex4s, &s.threes, &s.four_threes]
        }
        let mut candidates = Vec::new();
        self.threat_candidates(&mut candidates);
        (0..2).all(|v| sets(&self.summary[v]) == sets(&other.summary[v]))
            && candidates.iter().copied().eq(other.candidates.iter())
            && self.points.iter().all(|&p| {
                let (a, b, p) = (
                    &self.spots[usize::from(p)],
                    &other.spots[usize::from(p)],
                    usize::from(p),
                );
                a.cell == b.cell
                    && (a.cell != EMPTY
                        || (a.keys, a.patterns, a.flags, self.orders[p])
                            == (b.keys, b.patterns, b.flags, other.orders[p]))
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
