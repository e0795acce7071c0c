//! The exact solver's transposition table: for each stored position a lower and an upper
//! bound on its exact value, and the best move found.
//!
//! The endgame search asks mostly null-window questions ("is the value above `alpha`?") and
//! asks them again about the same position with other `alpha`s; keeping both bounds lets
//! one entry answer questions on either side. Entries hold the whole position, so a hit is
//! never a different position. Buckets of two: a new position replaces the entry with
//! fewer empties (cheaper to search again).

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lower: i8,
    /// The value is at most this.
    pub upper: i8,
    /// The best move found (a square), or [`NO_MOVE`].
    pub best: u8,
}

/// `best` when no move is known.
pub const NO_MOVE: u8 = 255;

#[derive(Clone, Copy, Debug)]
struct Slot {
    mover: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// Empty squares of the position; 0 marks a free slot (a full board is never stored).
    empties: u8,
}

const FREE: Slot = Slot {
    mover: 0,
    opponent: 0,
    lower: -64,
    upper: 64,
    best: NO_MOVE,
    empties: 0,
};

/// A table of `2^bits` entries (24 bytes each).
pub struct EndgameTable {
    slots: Vec<Slot>,
    /// Selects a bucket: an even index.
    mask: usize,
}

/// Spreads the position over the table: a multiply-xorshift mix of both bitboards.
#[inline]
fn hash(mover: u64, opponent: u64) -> u64 {
    let h = mover.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ opponent.rotate_left(31).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^ (h >> 29)
}

impl EndgameTable {
    #[must_use]
    pub fn new(bits: u32) -> EndgameTable {
        let len = 1usize << bits.clamp(1, 28);
        EndgameTable {
            slots: vec![FREE; len],
            mask: (len - 1) & !1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(FREE);
    }

    #[inline]
    fn bucket(&self, mover: u64, opponent: u64) -> usize {
        hash(mover, opponent) as usize & self.mask
    }

    /// The bounds stored for the position, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, mover: u64, opponent: u64) -> Option<Bounds> {
        let i = self.bucket(mover, opponent);
        self.slots[i..i + 2]
            .iter()
            .find(|s| s.mover == mover && s.opponent == opponent && s.empties != 0)
            .map(|s| Bounds {
                lower: s.lower,
                upper: s.upper,
                best: s.best,
            })
    }

    /// Records what a search with the window `(alpha, beta)` found: `score` is an upper
    /// bound if it is `<= alpha`, a lower bound if `>= beta`, exact otherwise. The bounds
    /// already known for the position are kept where they are tighter.
    pub fn store(
        &mut self,
        mover: u64,
        opponent: u64,
        empties: u32,
        window: (i32, i32),
        score: i32,
        best: u8,
    ) {
        let (alpha, beta) = window;
        let score = score.clamp(-64, 64) as i8;
        let (lower, upper) = if i32::from(score) <= alpha {
            (-64, score)
        } else if i32::from(score) >= beta {
            (score, 64)
        } else {
            (score, score)
        };
        let i = self.bucket(mover, opponent);
        let pair = &mut self.slots[i..i + 2];
        if let Some(slot) = pair
            .iter_mut()
            .find(|s| s.mover == mover && s.opponent == opponent && s.empties != 0)
        {
            slot.lower = slot.lower.max(lower);
            slot.upper = slot.upper.min(upper);
            if slot.lower > slot.upper {
                // Only a bug could make the bounds cross; the new result wins then.
                (slot.lower, slot.upper) = (lower, upper);
            }
            if best != NO_MOVE {
                slot.best = best;
            }
            return;
        }
        let victim = if pair[0].empties <= pair[1].empties {
            0
        } else {
            1
        };
        pair[victim] = Slot {
            mover,
            opponent,
            lower,
            upper,
            best,
            empties: empties.clamp(1, 60) as u8,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_accumulate_and_buckets_replace_the_cheaper_entry() {
        let mut table = EndgameTable::new(4);
        assert_eq!(table.probe(1, 2), None);
        table.store(1, 2, 20, (3, 4), 2, 10);
        assert_eq!(
            table.probe(1, 2),
            Some(Bounds {
                lower: -64,
                upper: 2,
                best: 10
            })
        );
        table.store(1, 2, 20, (-7, -6), -4, NO_MOVE);
        assert_eq!(
            table.probe(1, 2),
            Some(Bounds {
                lower: -4,
                upper: 2,
                best: 10
            })
        );
        table.store(1, 2, 20, (-10, 10), 0, 11);
        assert_eq!(
            table.probe(1, 2),
            Some(Bounds {
                lower: 0,
                upper: 0,
                best: 11
            })
        );
        // Positions that share a bucket: the one with fewer empties goes first.
        let bucket = table.bucket(1, 2);
        let mut others = (3u64..).filter(|&m| table.bucket(m, 2) == bucket);
        let (a, b) = (others.next().unwrap(), others.next().unwrap());
        table.store(a, 2, 10, (0, 1), 5, 1);
        assert!(table.probe(1, 2).is_some() && table.probe(a, 2).is_some());
        table.store(b, 2, 12, (0, 1), 5, 1);
        assert_eq!(table.probe(a, 2), None);
        assert!(table.probe(1, 2).is_some() && table.probe(b, 2).is_some());
        table.clear();
        assert_eq!(table.probe(1, 2), None);
    }
}
