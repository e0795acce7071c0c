//! The exact solver's own transposition table: five bytes an entry instead of the shared
//! [`crate::engine::tt`]'s 24, because the solver stores nothing but a bound on the score and wants
//! millions of entries that stay in cache as much as possible (Pons' layout).
//!
//! # Encoding
//! The table has a prime number `p` of slots. A position's 64-bit key `k` goes to slot
//! `k mod p`, which keeps the low 32 bits of `k`. Two keys in the same slot with the same
//! low 32 bits differ by a multiple of both `p` and 2^32, hence of `p * 2^32` (> 2^54 for the
//! default size): on boards whose key has at most 54 bits (7x6 needs 49) a hit is never a
//! collision. Larger boards hash their key to 64 bits first; a false hit then needs a 32-bit
//! coincidence, rare enough for the few nodes such boards get solved with.
//!
//! A value byte holds one bound: 0 is an empty slot, `1..=127` an upper bound `v` stored as
//! `v + 64`, `128..=255` a lower bound stored as `v + 192`. Bounds outside what fits are not
//! stored (only scores of very early wins on the largest boards).

/// `log2` of the default size, and the default number of slots (the next prime).
pub const DEFAULT_BITS: u32 = 23;
const DEFAULT_SLOTS: u64 = next_prime(1 << DEFAULT_BITS);

/// A bound on a position's exact score, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoredBound {
    /// The score is at most this.
    Upper(i32),
    /// The score is at least this.
    Lower(i32),
}

impl StoredBound {
    fn encode(self) -> Option<u8> {
        match self {
            StoredBound::Upper(v) if (-63..=63).contains(&v) => Some((v + 64) as u8),
            StoredBound::Lower(v) if (-64..=63).contains(&v) => Some((v + 192) as u8),
            _ => None,
        }
    }

    fn decode(byte: u8) -> Option<StoredBound> {
        match byte {
            0 => None,
            1..=127 => Some(StoredBound::Upper(i32::from(byte) - 64)),
            _ => Some(StoredBound::Lower(i32::from(byte) - 192)),
        }
    }
}

/// One slot: the key's low 32 bits and the value byte, packed in 5 bytes so that a probe
/// touches one cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, packed)]
struct Slot {
    key: u32,
    value: u8,
}

pub struct SolverTable {
    slots: Vec<Slot>,
    /// Written to since the last clear: clearing an untouched table is free.
    dirty: bool,
}

impl SolverTable {
    /// A table with the smallest prime number of slots at or above `2^bits`.
    #[must_use]
    pub fn new(bits: u32) -> SolverTable {
        let len = next_prime(1u64 << bits.clamp(4, 30)) as usize;
        // Written once here so the pages are mapped before the first search: otherwise the
        // first touch of each page, a page fault, costs more than the nodes that touch it.
        // `black_box` keeps the allocator from turning the zero fill into a lazy calloc.
        let mut slots = std::hint::black_box(vec![Slot::default(); len]);
        slots.fill(Slot::default());
        SolverTable {
            slots,
            dirty: false,
        }
    }

    pub fn clear(&mut self) {
        if self.dirty {
            self.slots.fill(Slot::default());
            self.dirty = false;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        let len = self.slots.len() as u64;
        // A division by a constant compiles to a multiplication: the default size gets it.
        if len == DEFAULT_SLOTS {
            (key % DEFAULT_SLOTS) as usize
        } else {
            (key % len) as usize
        }
    }

    #[inline]
    #[must_use]
    pub fn get(&self, key: u64) -> Option<StoredBound> {
        let slot = self.slots[self.slot(key)];
        if { slot.key } == key as u32 {
            StoredBound::decode(slot.value)
        } else {
            None
        }
    }

    #[inline]
    pub fn put(&mut self, key: u64, bound: StoredBound) {
        if let Some(byte) = bound.encode() {
            let slot = self.slot(key);
            // Truncation to the low 32 bits is the encoding (see the module comment).
            self.slots[slot] = Slot {
                key: key as u32,
                value: byte,
            };
            self.dirty = true;
        }
    }
}

const fn next_prime(mut n: u64) -> u64 {
    loop {
        let mut d = 2;
        while d * d <= n && !n.is_multiple_of(d) {
            d += 1;
        }
        if n >= 2 && d * d > n {
            return n;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_bounds_and_rejects_other_keys() {
        let mut t = SolverTable::new(10);
        assert_eq!(t.slots.len(), 1031);
        assert_eq!(t.get(5), None);
        t.put(5, StoredBound::Upper(-3));
        assert_eq!(t.get(5), Some(StoredBound::Upper(-3)));
        t.put(5, StoredBound::Lower(63));
        assert_eq!(t.get(5), Some(StoredBound::Lower(63)));
        t.put(7, StoredBound::Upper(-63));
        assert_eq!(t.get(7), Some(StoredBound::Upper(-63)));
        // Same slot, other key.
        assert_eq!(t.get(5 + 1031), None);
        // Out of range: not stored.
        t.put(9, StoredBound::Upper(70));
        assert_eq!(t.get(9), None);
        t.clear();
        assert_eq!(t.get(5), None);
    }
}
