//! The patterns of the evaluation: groups of squares whose contents (empty, own, opponent's)
//! index a table of learnt weights — the edges with their X-squares, the corner 3x3 and 2x5
//! blocks, the inner lines and the diagonals.
//!
//! Each pattern is written once, in one orientation (its canonical squares). The eight
//! symmetries of the board give its instances: the distinct square sets it covers when the
//! board is turned and mirrored (four edges, eight 2x5 blocks, two long diagonals...). An
//! instance is read by turning the board so that the instance lands on the canonical
//! squares, so one extraction routine per pattern serves all its instances.
//!
//! A pattern may be symmetric in itself (an edge read left to right or right to left is the
//! same edge): its weights must then agree on the two readings, or the evaluation would
//! change under a symmetry of the board. [`Pattern::canonical`] maps each reading to one
//! representative; the weights file stores one weight per representative.
//!
//! Squares are bit `8 * row + col`, a1 = bit 0; an index is `sum(3^k * digit_k)` over the
//! pattern's squares in order, digit 0 for empty, 1 for the side to move, 2 for the other.

/// The eight symmetries of the board, as bitboard transformations: identity, the mirror in
/// the middle row, the mirror in the middle column, both (a half turn), and the same four
/// after a transposition (the mirror in the a1-h8 diagonal).
#[inline]
#[must_use]
pub fn symmetries(x: u64) -> [u64; 8] {
    let mirrored = mirror_columns(x);
    let transposed = transpose(x);
    let transposed_mirrored = mirror_columns(transposed);
    [
        x,
        x.swap_bytes(),
        mirrored,
        mirrored.swap_bytes(),
        transposed,
        transposed.swap_bytes(),
        transposed_mirrored,
        transposed_mirrored.swap_bytes(),
    ]
}

/// Column a swapped with h, b with g, and so on.
#[inline]
fn mirror_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Square (row, col) to (col, row): the mirror in the a1-h8 diagonal.
#[inline]
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// Where symmetry `s` (as in [`symmetries`]) sends a square.
#[must_use]
pub const fn map_square(s: usize, sq: usize) -> usize {
    let (mut row, mut col) = (sq / 8, sq % 8);
    if s >= 4 {
        (row, col) = (col, row);
    }
    if s & 2 != 0 {
        col = 7 - col;
    }
    if s & 1 != 0 {
        row = 7 - row;
    }
    row * 8 + col
}

/// How the canonical squares of a pattern are gathered into a small integer (bit `k` = the
/// pattern's `k`-th square).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gather {
    /// Row 1 and the two X-squares b2, g2.
    Edge2X,
    /// a1 b1 c1 / a2 b2 c2 / a3 b3 c3.
    Corner3x3,
    /// a1..e1 / a2..e2.
    Corner2x5,
    /// A whole row.
    Row(u32),
    /// The diagonal from column `8 - len` on row 1 down to column h.
    Diagonal(u32),
}

/// One pattern: its canonical squares, its instances and its self-symmetries.
#[derive(Debug)]
pub struct Pattern {
    pub name: &'static str,
    /// The canonical squares, digit 0 first.
    pub squares: &'static [u8],
    gather: Gather,
    /// The symmetries that read each distinct instance (the first symmetry found for each
    /// square set).
    pub instances: &'static [usize],
}

const EDGE_2X: [u8; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 9, 14];
const CORNER_3X3: [u8; 9] = [0, 1, 2, 8, 9, 10, 16, 17, 18];
const CORNER_2X5: [u8; 10] = [0, 1, 2, 3, 4, 8, 9, 10, 11, 12];
const ROW_2: [u8; 8] = [8, 9, 10, 11, 12, 13, 14, 15];
const ROW_3: [u8; 8] = [16, 17, 18, 19, 20, 21, 22, 23];
const ROW_4: [u8; 8] = [24, 25, 26, 27, 28, 29, 30, 31];
const DIAG_8: [u8; 8] = [0, 9, 18, 27, 36, 45, 54, 63];
const DIAG_7: [u8; 7] = [1, 10, 19, 28, 37, 46, 55];
const DIAG_6: [u8; 6] = [2, 11, 20, 29, 38, 47];
const DIAG_5: [u8; 5] = [3, 12, 21, 30, 39];
const DIAG_4: [u8; 4] = [4, 13, 22, 31];

/// The symmetries giving distinct instances of a set of squares (computed at compile time).
const fn instances_of<const N: usize>(squares: &[u8; N]) -> ([usize; 8], usize) {
    let mut found = [0usize; 8];
    let mut sets = [0u64; 8];
    let mut count = 0;
    let mut s = 0;
    while s < 8 {
        // The board squares that symmetry `s` brings onto the canonical squares.
        let mut set = 0u64;
        let mut sq = 0;
        while sq < 64 {
            let target = map_square(s, sq);
            let mut k = 0;
            while k < N {
                if squares[k] as usize == target {
                    set |= 1 << sq;
                }
                k += 1;
            }
            sq += 1;
        }
        let mut known = false;
        let mut i = 0;
        while i < count {
            if sets[i] == set {
                known = true;
            }
            i += 1;
        }
        if !known {
            sets[count] = set;
            found[count] = s;
            count += 1;
        }
        s += 1;
    }
    (found, count)
}

macro_rules! instances {
    ($squares:expr) => {{
        const FOUND: ([usize; 8], usize) = instances_of(&$squares);
        const LIST: &[usize] = FOUND.0.split_at(FOUND.1).0;
        LIST
    }};
}

/// Every pattern of the evaluation, in the order of the weights file.
pub static PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2X",
        squares: &EDGE_2X,
        gather: Gather::Edge2X,
        instances: instances!(EDGE_2X),
    },
    Pattern {
        name: "corner 3x3",
        squares: &CORNER_3X3,
        gather: Gather::Corner3x3,
        instances: instances!(CORNER_3X3),
    },
    Pattern {
        name: "corner 2x5",
        squares: &CORNER_2X5,
        gather: Gather::Corner2x5,
        instances: instances!(CORNER_2X5),
    },
    Pattern {
        name: "line 2",
        squares: &ROW_2,
        gather: Gather::Row(1),
        instances: instances!(ROW_2),
    },
    Pattern {
        name: "line 3",
        squares: &ROW_3,
        gather: Gather::Row(2),
        instances: instances!(ROW_3),
    },
    Pattern {
        name: "line 4",
        squares: &ROW_4,
        gather: Gather::Row(3),
        instances: instances!(ROW_4),
    },
    Pattern {
        name: "diagonal 8",
        squares: &DIAG_8,
        gather: Gather::Diagonal(8),
        instances: instances!(DIAG_8),
    },
    Pattern {
        name: "diagonal 7",
        squares: &DIAG_7,
        gather: Gather::Diagonal(7),
        instances: instances!(DIAG_7),
    },
    Pattern {
        name: "diagonal 6",
        squares: &DIAG_6,
        gather: Gather::Diagonal(6),
        instances: instances!(DIAG_6),
    },
    Pattern {
        name: "diagonal 5",
        squares: &DIAG_5,
        gather: Gather::Diagonal(5),
        instances: instances!(DIAG_5),
    },
    Pattern {
        name: "diagonal 4",
        squares: &DIAG_4,
        gather: Gather::Diagonal(4),
        instances: instances!(DIAG_4),
    },
];

/// Instances of all patterns together (the number of table lookups of one evaluation).
pub const INSTANCES: usize = 46;

/// `DIAGONAL_MASKS[len]`: the diagonal of `len` squares from row 1 down to column h.
static DIAGONAL_MASKS: [u64; 9] = diagonal_masks();

const fn diagonal_masks() -> [u64; 9] {
    let mut masks = [0u64; 9];
    let mut len = 1;
    while len <= 8 {
        let mut row = 0;
        while row < len {
            masks[len] |= 1 << (row * 8 + (8 - len) + row);
            row += 1;
        }
        len += 1;
    }
    masks
}

/// `BINARY_TO_TERNARY[b]`: the base-3 number with the base-2 digits of `b`.
static BINARY_TO_TERNARY: [u32; 1024] = binary_to_ternary();

const fn binary_to_ternary() -> [u32; 1024] {
    let mut table = [0u32; 1024];
    let mut b = 0;
    while b < 1024 {
        let (mut value, mut power, mut bit) = (0, 1, 0);
        while bit < 10 {
            if b & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[b] = value;
        b += 1;
    }
    table
}

impl Pattern {
    /// Number of squares.
    #[must_use]
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Number of indices: 3 to the number of squares.
    #[must_use]
    pub fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }

    /// The canonical squares of `x` as bits, bit `k` for the `k`-th square.
    #[inline(always)]
    fn gather(&self, x: u64) -> usize {
        (match self.gather {
            Gather::Edge2X => (x & 0xff) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200),
            Gather::Corner3x3 => (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1c0),
            Gather::Corner2x5 => (x & 0x1f) | ((x >> 3) & 0x3e0),
            Gather::Row(row) => (x >> (8 * row)) & 0xff,
            Gather::Diagonal(len) => {
                // One square per column: summing the bytes gathers them without carries.
                let mask = DIAGONAL_MASKS[len as usize];
                ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> (56 + 8 - len)
            }
        }) as usize
    }

    /// The index of the canonical squares of a (mover, opponent) pair.
    #[inline(always)]
    #[must_use]
    pub fn index(&self, mover: u64, opponent: u64) -> usize {
        (BINARY_TO_TERNARY[self.gather(mover)] + 2 * BINARY_TO_TERNARY[self.gather(opponent)])
            as usize
    }

    /// The index of the pattern's squares, read square by square (for tests and tools).
    #[must_use]
    pub fn index_slow(&self, squares: &[u8], mover: u64, opponent: u64) -> usize {
        squares.iter().rev().fold(0, |index, &sq| {
            let digit = if mover >> sq & 1 != 0 {
                1
            } else if opponent >> sq & 1 != 0 {
                2
            } else {
                0
            };
            index * 3 + digit
        })
    }

    /// The permutations of the digits under the symmetries that map the pattern's squares
    /// onto themselves (the identity included): `perm[k]` is where digit `k` goes.
    #[must_use]
    pub fn self_symmetries(&self) -> Vec<Vec<usize>> {
        let mut perms = Vec::new();
        for s in 0..8 {
            let mapped: Vec<usize> = self
                .squares
                .iter()
                .filter_map(|&sq| {
                    let target = map_square(s, sq as usize);
                    self.squares.iter().position(|&q| q as usize == target)
                })
                .collect();
            if mapped.len() == self.squares.len() && !perms.contains(&mapped) {
                perms.push(mapped);
            }
        }
        perms
    }

    /// For every index, its representative: the smallest index among its readings under
    /// the pattern's self-symmetries.
    #[must_use]
    pub fn canonical(&self) -> Vec<u32> {
        let perms = self.self_symmetries();
        let n = self.len();
        let mut digits = vec![0usize; n];
        let mut moved = vec![0usize; n];
        (0..self.size())
            .map(|index| {
                let mut rest = index;
                for d in digits.iter_mut() {
                    *d = rest % 3;
                    rest /= 3;
                }
                perms
                    .iter()
                    .map(|perm| {
                        for (k, &to) in perm.iter().enumerate() {
                            moved[to] = digits[k];
                        }
                        moved.iter().rev().fold(0, |acc, &d| acc * 3 + d) as u32
                    })
                    .min()
                    .unwrap_or(index as u32)
            })
            .collect()
    }
}

/// The index of every instance of every pattern in a position, pattern by pattern in the
/// order of [`PATTERNS`] and instance by instance.
#[inline]
#[must_use]
pub fn instance_indices(mover: u64, opponent: u64) -> [u32; INSTANCES] {
    let movers = symmetries(mover);
    let opponents = symmetries(opponent);
    let mut out = [0u32; INSTANCES];
    let mut n = 0;
    for pattern in &PATTERNS {
        for &s in pattern.instances {
            out[n] = pattern.index(movers[s], opponents[s]) as u32;
            n += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_symmetry(s: usize, x: u64) -> u64 {
        (0..64)
            .filter(|&sq| x >> sq & 1 != 0)
            .fold(0, |acc, sq| acc | 1 << map_square(s, sq))
    }

    #[test]
    fn symmetries_move_squares_as_map_square_says() {
        let mut x = 0x1234_5678_9abc_def1u64;
        for _ in 0..100 {
            x = x.rotate_left(13).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x55;
            let fast = symmetries(x);
            for (s, &y) in fast.iter().enumerate() {
                assert_eq!(y, naive_symmetry(s, x), "symmetry {s}");
            }
        }
    }

    #[test]
    fn instances_cover_the_board_as_expected() {
        let counts: Vec<usize> = PATTERNS.iter().map(|p| p.instances.len()).collect();
        assert_eq!(counts, [4, 4, 8, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(counts.iter().sum::<usize>(), INSTANCES);
        let self_symmetric: Vec<usize> =
            PATTERNS.iter().map(|p| p.self_symmetries().len()).collect();
        assert_eq!(self_symmetric, [2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2]);
    }

    /// The fast index of each instance equals the square-by-square reading of the squares
    /// that the instance's symmetry brings onto the canonical ones.
    #[test]
    fn fast_indices_match_square_by_square_reading() {
        let mut x = 7u64;
        for _ in 0..200 {
            x = x.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x1234;
            let occupied = x | x.rotate_left(17);
            let mover = occupied & x.rotate_left(40);
            let opponent = occupied & !mover;
            let fast = instance_indices(mover, opponent);
            let mut n = 0;
            for pattern in &PATTERNS {
                for &s in pattern.instances {
                    // The board square that lands on each canonical square.
                    let squares: Vec<u8> = pattern
                        .squares
                        .iter()
                        .map(|&c| {
                            (0..64)
                                .find(|&sq| map_square(s, sq) == c as usize)
                                .expect("a bijection") as u8
                        })
                        .collect();
                    let slow = pattern.index_slow(&squares, mover, opponent);
                    assert_eq!(fast[n] as usize, slow, "{} symmetry {s}", pattern.name);
                    n += 1;
                }
            }
        }
    }

    #[test]
    fn canonical_indices_are_shared_by_mirrored_readings() {
        let edge = &PATTERNS[0];
        let canonical = edge.canonical();
        // a1 own (digit 0 = 1) and its mirror h1 own (digit 7 = 1).
        assert_eq!(canonical[1], canonical[3usize.pow(7)]);
        // b2 and g2 are digits 8 and 9.
        assert_eq!(canonical[3usize.pow(8)], canonical[3usize.pow(9)]);
        assert_ne!(canonical[1], canonical[3]);
        let corner = &PATTERNS[2];
        let canonical = corner.canonical();
        assert!(canonical.iter().enumerate().all(|(i, &c)| c as usize == i));
    }
}
