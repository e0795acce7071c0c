//! The engine's own move generation and flips on (mover, opponent) bitboards: the same rules
//! as `game_core::othello` (which stays the referee), written for speed, because the exact
//! solver spends most of its time here.
//!
//! - [`flips`] finds the flipped discs of a move without a loop or a data-dependent branch:
//!   along each of the eight rays from the square, the first square that is not the
//!   opponent's is isolated with bit arithmetic (the lowest set bit for rays towards higher
//!   squares, the highest for the others); if it is the mover's, the squares before it flip.
//! - [`legal_moves`] is game-core's parallel-prefix fill, four axes at once.
//!
//! Squares are game-core's: bit `8 * row + col`, a1 = bit 0, h8 = bit 63.

/// The empty squares where `mover` may play: game-core's fill is already branch-free and
/// inlined across the crates, so the engine shares it.
pub use game_core::othello::legal_mask as legal_moves;

/// Every square but column a (a shift towards h that lands here did not wrap).
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
/// Every square but column h.
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The rays leaving each square, without the square: the four towards higher squares
/// (h, down, down-right, down-left) first, then the four towards lower squares.
static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    // (row step, column step): the first four move to higher bit indices.
    const DIRECTIONS: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                table[sq][d] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Flips along a ray towards higher squares: the first square of `ray` that is not the
/// opponent's is the lowest set bit of `!opponent & ray`.
#[inline(always)]
fn flips_up(mover: u64, opponent: u64, ray: u64) -> u64 {
    let blockers = !opponent & ray;
    let outflank = blockers & blockers.wrapping_neg() & mover;
    // The ray's squares below the outflanking disc; none when there is no such disc.
    outflank.wrapping_sub(1) & ray & 0u64.wrapping_sub(u64::from(outflank != 0))
}

/// Flips along a ray towards lower squares: the first square that is not the opponent's is
/// the highest set bit of `!opponent & ray`. Bit 0 is a guard that keeps the scan defined:
/// when it is not on the ray it is masked away, and when it is, it is a real square.
#[inline(always)]
fn flips_down(mover: u64, opponent: u64, ray: u64) -> u64 {
    let blockers = (!opponent & ray) | 1;
    let outflank = (1u64 << (63 - blockers.leading_zeros())) & mover & ray;
    // The ray's squares above the outflanking disc; none when there is no such disc.
    (outflank.wrapping_neg() << 1) & ray
}

/// The opponent discs that a disc of `mover` on `square` (0..64) flips; 0 if none. Whether
/// the square is empty is the caller's business.
#[inline]
#[must_use]
pub fn flips(mover: u64, opponent: u64, square: usize) -> u64 {
    let rays = &RAYS[square & 63];
    flips_up(mover, opponent, rays[0])
        | flips_up(mover, opponent, rays[1])
        | flips_up(mover, opponent, rays[2])
        | flips_up(mover, opponent, rays[3])
        | flips_down(mover, opponent, rays[4])
        | flips_down(mover, opponent, rays[5])
        | flips_down(mover, opponent, rays[6])
        | flips_down(mover, opponent, rays[7])
}

/// True if `mover` has a move.
#[inline]
#[must_use]
pub fn can_move(mover: u64, opponent: u64) -> bool {
    legal_moves(mover, opponent) != 0
}

/// The empty squares next to an opponent disc: where the mover's moves may come from later
/// (potential mobility).
#[inline]
#[must_use]
pub fn potential_moves(mover: u64, opponent: u64) -> u64 {
    let o = opponent;
    let around = ((o << 1) & NOT_A)
        | ((o >> 1) & NOT_H)
        | (o << 8)
        | (o >> 8)
        | ((o << 9) & NOT_A)
        | ((o >> 9) & NOT_H)
        | ((o << 7) & NOT_H)
        | ((o >> 7) & NOT_A);
    around & !(mover | opponent)
}

/// Bits set, with the corners counted twice: a move or a potential move on a corner is
/// worth more than one elsewhere.
#[inline]
#[must_use]
pub fn corner_weighted_count(bits: u64) -> i32 {
    (bits.count_ones() + (bits & 0x8100_0000_0000_0081).count_ones()) as i32
}

/// The mover's discs that are stable for sure because they sit in a corner or next to an
/// own corner disc along an edge: a quick lower bound for ordering moves.
#[inline]
#[must_use]
pub fn corner_stability(mover: u64) -> i32 {
    let stable = (((0x0100_0000_0000_0001 & mover) << 1)
        | ((0x8000_0000_0000_0080 & mover) >> 1)
        | ((0x0000_0000_0000_0081 & mover) << 8)
        | ((0x8100_0000_0000_0000 & mover) >> 8)
        | 0x8100_0000_0000_0081)
        & mover;
    stable.count_ones() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::test_support::{random_square, Rng, START};
    use game_core::othello as referee;

    /// Along seeded random games, at every position and for every empty square, the fast
    /// flips equal game-core's, for both sides.
    #[test]
    fn flips_match_game_core_along_random_games() {
        let mut rng = Rng(0x0f11_95ee);
        let mut positions = 0;
        for _ in 0..300 {
            let (mut mover, mut opponent) = START;
            loop {
                for (p, o) in [(mover, opponent), (opponent, mover)] {
                    let mut empty = !(p | o);
                    while empty != 0 {
                        let sq = empty.trailing_zeros();
                        empty &= empty - 1;
                        assert_eq!(
                            flips(p, o, sq as usize),
                            referee::flips(p, o, sq),
                            "square {sq} in {p:#x} {o:#x}"
                        );
                    }
                }
                positions += 1;
                let moves = legal_moves(mover, opponent);
                if moves == 0 {
                    if !can_move(opponent, mover) {
                        break;
                    }
                    (mover, opponent) = (opponent, mover);
                    continue;
                }
                let sq = random_square(&mut rng, moves);
                let f = flips(mover, opponent, sq as usize);
                (mover, opponent) = (opponent & !f, mover | f | (1 << sq));
            }
        }
        assert!(positions > 15_000, "{positions} positions");
    }

    /// Random dense boards (not reachable in play, every pattern of runs) give the same
    /// flips as game-core.
    #[test]
    fn flips_match_game_core_on_random_boards() {
        let mut rng = Rng(77);
        for _ in 0..50_000 {
            let occupied = rng.next() | rng.next();
            let mover = occupied & rng.next();
            let opponent = occupied & !mover;
            let sq = rng.below(64) as u32;
            let (m, o) = (mover & !(1 << sq), opponent & !(1 << sq));
            assert_eq!(flips(m, o, sq as usize), referee::flips(m, o, sq));
        }
    }

    #[test]
    fn potential_moves_and_corner_counts() {
        let (black, white) = START;
        // Around the two white discs d4 and e5: ten empty squares.
        assert_eq!(potential_moves(black, white).count_ones(), 10);
        assert_eq!(corner_weighted_count(0x81), 4);
        assert_eq!(corner_stability(0b11 | (1 << 8)), 3);
        assert_eq!(corner_stability(0b10), 0);
    }
}
