//! The bit sets under the Connect Four boards: the [`BitSet`] trait over `u64`, `u128` and
//! [`WideBits`] (156 bits for 12x12), the four line directions and the shift-and test for
//! four in a row, and the [`Layout`] masks that tie a bit set to one board size.

use std::fmt;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A fixed-width set of bits with the operations the Connect Four bitboards need. Implemented
/// for `u64`, `u128` and [`WideBits`]; shifts by the width or more give zero for `WideBits` and
/// are the caller's responsibility for the primitives.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits.
    const BITS: u32;
    /// The set holding only bit `i` (empty if `i` is out of range).
    fn bit(i: u32) -> Self;
    /// Whether bit `i` is set (false if out of range).
    fn has(self, i: u32) -> bool;
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit, `BITS` when empty.
    fn trailing_zeros(self) -> u32;
    /// Addition modulo 2^BITS: with blocked cells counted as occupied, `occupied + bottom`
    /// carries over stones and blocked cells alike and lands on a column's next free cell.
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    /// The low `BITS` bits of a [`WideBits`]: how a board that fits moves to a narrow type.
    fn from_wide(wide: WideBits) -> Self;

    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! impl_bitset_prim {
    ($t:ty) => {
        impl BitSet for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn bit(i: u32) -> Self {
                (1 as $t).checked_shl(i).unwrap_or(0)
            }
            #[inline]
            fn has(self, i: u32) -> bool {
                self.checked_shr(i).unwrap_or(0) & 1 != 0
            }
            #[inline]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline]
            fn from_wide(wide: WideBits) -> Self {
                let [a0, a1, _] = wide.0;
                // Truncation to the low bits is the point.
                (u128::from(a0) | (u128::from(a1) << 64)) as $t
            }
        }
    };
}

impl_bitset_prim!(u64);
impl_bitset_prim!(u128);

/// 192 bits as three little-endian `u64` words (bit 0 is bit 0 of word 0): room for the
/// 12 * 13 bits of the largest board with its sentinel row.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WideBits(pub [u64; 3]);

impl fmt::Debug for WideBits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.0;
        write!(f, "WideBits({c:#018x}_{b:016x}_{a:016x})")
    }
}

impl BitAnd for WideBits {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        WideBits([a[0] & b[0], a[1] & b[1], a[2] & b[2]])
    }
}

impl BitOr for WideBits {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        WideBits([a[0] | b[0], a[1] | b[1], a[2] | b[2]])
    }
}

impl BitXor for WideBits {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        WideBits([a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2]])
    }
}

impl Not for WideBits {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let a = self.0;
        WideBits([!a[0], !a[1], !a[2]])
    }
}

impl BitAndAssign for WideBits {
    #[inline]
    fn bitand_assign(&mut self, o: Self) {
        *self = *self & o;
    }
}

impl BitOrAssign for WideBits {
    #[inline]
    fn bitor_assign(&mut self, o: Self) {
        *self = *self | o;
    }
}

impl BitXorAssign for WideBits {
    #[inline]
    fn bitxor_assign(&mut self, o: Self) {
        *self = *self ^ o;
    }
}

impl Shl<u32> for WideBits {
    type Output = Self;
    #[inline]
    fn shl(self, n: u32) -> Self {
        let [a0, a1, a2] = self.0;
        // Line directions shift by at most 2 * 14 bits: keep that case branch-light.
        if n == 0 {
            self
        } else if n < 64 {
            let m = 64 - n;
            WideBits([a0 << n, (a1 << n) | (a0 >> m), (a2 << n) | (a1 >> m)])
        } else if n < 192 {
            let shifted = WideBits([0, a0, a1]);
            if n < 128 {
                shifted << (n - 64)
            } else {
                WideBits([0, 0, a0]) << (n - 128)
            }
        } else {
            WideBits::ZERO
        }
    }
}

impl Shr<u32> for WideBits {
    type Output = Self;
    #[inline]
    fn shr(self, n: u32) -> Self {
        let [a0, a1, a2] = self.0;
        if n == 0 {
            self
        } else if n < 64 {
            let m = 64 - n;
            WideBits([(a0 >> n) | (a1 << m), (a1 >> n) | (a2 << m), a2 >> n])
        } else if n < 192 {
            if n < 128 {
                WideBits([a1, a2, 0]) >> (n - 64)
            } else {
                WideBits([a2, 0, 0]) >> (n - 128)
            }
        } else {
            WideBits::ZERO
        }
    }
}

impl BitSet for WideBits {
    const ZERO: Self = WideBits([0; 3]);
    const BITS: u32 = 192;
    #[inline]
    fn bit(i: u32) -> Self {
        let mut w = [0; 3];
        if let Some(word) = w.get_mut((i / 64) as usize) {
            *word = 1 << (i % 64);
        }
        WideBits(w)
    }
    #[inline]
    fn has(self, i: u32) -> bool {
        self.0
            .get((i / 64) as usize)
            .is_some_and(|w| (w >> (i % 64)) & 1 != 0)
    }
    #[inline]
    fn count_ones(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn trailing_zeros(self) -> u32 {
        let [a0, a1, a2] = self.0;
        if a0 != 0 {
            a0.trailing_zeros()
        } else if a1 != 0 {
            64 + a1.trailing_zeros()
        } else {
            128 + a2.trailing_zeros()
        }
    }
    #[inline]
    fn wrapping_add(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        let (r0, c0) = a[0].overflowing_add(b[0]);
        let (r1, c1) = a[1].overflowing_add(b[1]);
        let (r1, c1b) = r1.overflowing_add(u64::from(c0));
        let r2 = a[2].wrapping_add(b[2]).wrapping_add(u64::from(c1 | c1b));
        WideBits([r0, r1, r2])
    }
    #[inline]
    fn wrapping_sub(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        let (r0, c0) = a[0].overflowing_sub(b[0]);
        let (r1, c1) = a[1].overflowing_sub(b[1]);
        let (r1, c1b) = r1.overflowing_sub(u64::from(c0));
        let r2 = a[2].wrapping_sub(b[2]).wrapping_sub(u64::from(c1 | c1b));
        WideBits([r0, r1, r2])
    }
    #[inline]
    fn from_wide(wide: WideBits) -> Self {
        wide
    }
}

/// Bit shifts of the four line directions for a column stride (`rows + 1`): vertical,
/// horizontal, up-right diagonal, down-right diagonal.
#[inline]
#[must_use]
pub fn directions(stride: u32) -> [u32; 4] {
    [1, stride, stride + 1, stride - 1]
}

/// The lowest cells of every run of four or more along shift `d` (a bit for each start of
/// four consecutive set bits).
#[inline]
#[must_use]
pub fn fours_along<B: BitSet>(stones: B, d: u32) -> B {
    let pairs = stones & (stones >> d);
    pairs & (pairs >> (2 * d))
}

/// Whether `stones` (one player's, laid out with `stride = rows + 1`) hold four in a row.
#[inline]
#[must_use]
pub fn has_four<B: BitSet>(stones: B, stride: u32) -> bool {
    directions(stride)
        .iter()
        .any(|&d| !fours_along(stones, d).is_zero())
}

/// The masks that tie a bitboard type to one board size, for code that runs on bits alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout<B> {
    /// Bits per column: the rows and the sentinel.
    pub stride: u32,
    /// The bottom cell of every column.
    pub bottom: B,
    /// Every cell of the board, no sentinels.
    pub board: B,
}

impl<B: BitSet> Layout<B> {
    /// The cell each open column's next stone would take, given `occupied` = both players'
    /// stones and the blocked cells. Adding the bottom row carries over stones and blocked
    /// cells alike; a full column carries into its sentinel, which `board` drops.
    #[inline]
    #[must_use]
    pub fn free_cells(&self, occupied: B) -> B {
        occupied.wrapping_add(self.bottom) & !occupied & self.board
    }
}
