//! Stable discs: discs that can never be flipped again, whatever is played. Used by the
//! evaluation (stability is worth keeping) and by the exact solver (the opponent's stable
//! discs bound the best result from above, which can cut a node without searching it).
//!
//! A disc is stable when, along each of the four axes, the line through it is full, or the
//! disc touches the edge of the board on that axis, or its neighbour on that axis is a stable
//! disc of the same colour (a run of discs containing a disc that never flips can never be
//! flanked). Iterating that from nothing finds the corners, then the edge discs anchored on
//! them, then what leans on those — a lower bound on the true set, cheap enough for a leaf.

use super::board::{CORNERS, EDGES, NOT_A, NOT_H, WALL_COLS, WALL_ROWS};

/// One mask per diagonal (a1-h8 direction), and per anti-diagonal (h1-a8 direction).
static DIAGONALS: [u64; 15] = diagonals(9);
static ANTI_DIAGONALS: [u64; 15] = diagonals(7);

const fn diagonals(step: u32) -> [u64; 15] {
    let mut masks = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let row = sq / 8;
        let col = sq % 8;
        // Squares on one a1-h8 diagonal share row - col; on one anti-diagonal, row + col.
        let index = if step == 9 { row + 7 - col } else { row + col };
        masks[index] |= 1 << sq;
        sq += 1;
    }
    masks
}

/// Squares whose line along each axis is full: (horizontal, vertical, diagonal,
/// anti-diagonal).
fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    let mut horizontal = 0;
    for row in 0..8 {
        let line = 0xffu64 << (8 * row);
        if occupied & line == line {
            horizontal |= line;
        }
    }
    let mut columns = occupied;
    columns &= columns >> 32;
    columns &= columns >> 16;
    columns &= columns >> 8;
    let vertical = (columns & 0xff).wrapping_mul(0x0101_0101_0101_0101);
    let full = |masks: &[u64; 15]| {
        masks
            .iter()
            .filter(|&&m| occupied & m == m)
            .fold(0, |acc, m| acc | m)
    };
    (
        horizontal,
        vertical,
        full(&DIAGONALS),
        full(&ANTI_DIAGONALS),
    )
}

/// The stable discs of `own` (a subset; see the module comment) with `other` the opposing
/// discs.
#[must_use]
pub fn stable_discs(own: u64, other: u64) -> u64 {
    if own & CORNERS == 0 && (own | other) != u64::MAX {
        // Without a corner, stability needs full lines through a disc in all four axes,
        // which only happens on a nearly full board: not worth the work.
        return 0;
    }
    let (horizontal, vertical, diagonal, anti) = full_lines(own | other);
    let horizontal = horizontal | WALL_COLS;
    let vertical = vertical | WALL_ROWS;
    let diagonal = diagonal | EDGES;
    let anti = anti | EDGES;
    let mut stable = 0;
    loop {
        let next = own
            & (horizontal | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H))
            & (vertical | (stable << 8) | (stable >> 8))
            & (diagonal | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H))
            & (anti | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A));
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::othello::{flips, legal_mask};

    #[test]
    fn corner_anchored_edges_are_stable() {
        // Black a1, b1, c1 and a2; white d1.
        let own = 0b111 | (1 << 8);
        let other = 1 << 3;
        assert_eq!(stable_discs(own, other), own);
        // Without the corner nothing is stable.
        assert_eq!(stable_discs(own & !1, other | 1), 0);
        assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
        assert_eq!(DIAGONALS.iter().fold(0, |a, m| a | m), u64::MAX);
        assert_eq!(
            ANTI_DIAGONALS.iter().map(|m| m.count_ones()).sum::<u32>(),
            64
        );
    }

    /// Stable discs stay put whatever is played: follow random games and check that no
    /// disc found stable ever changes colour.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut seed = 0x5eed_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..40 {
            let (mut black, mut white) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut black_to_move = true;
            let (mut stable_black, mut stable_white) = (0u64, 0u64);
            loop {
                let (mover, opponent) = if black_to_move {
                    (black, white)
                } else {
                    (white, black)
                };
                let moves = legal_mask(mover, opponent);
                if moves == 0 {
                    if legal_mask(opponent, mover) == 0 {
                        break;
                    }
                    black_to_move = !black_to_move;
                    continue;
                }
                let pick = (next() % u64::from(moves.count_ones())) as u32;
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros();
                let f = flips(mover, opponent, sq);
                let (mover, opponent) = (mover | f | (1 << sq), opponent & !f);
                (black, white) = if black_to_move {
                    (mover, opponent)
                } else {
                    (opponent, mover)
                };
                black_to_move = !black_to_move;
                assert_eq!(stable_black & !black, 0, "a stable black disc flipped");
                assert_eq!(stable_white & !white, 0, "a stable white disc flipped");
                stable_black |= stable_discs(black, white);
                stable_white |= stable_discs(white, black);
            }
        }
    }
}
