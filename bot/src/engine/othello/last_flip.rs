//! How many discs a move flips when it fills the last empty square — without making it.
//!
//! With one empty square left, every other square is occupied, so along each line through
//! that square the discs that are not the mover's are all the opponent's. The flips along a
//! line then depend only on the mover's discs on it: an 8-bit pattern, looked up in a table
//! per position on the line. The four lines through the square are gathered into 8-bit
//! patterns with multiplications (the usual bitboard "gather" trick). This is the hot spot of
//! an exact endgame search: most of its nodes are last moves.

/// `FLIP_COUNT[x][pattern]`: discs flipped by a mover disc on position `x` of a line where
/// the mover owns the positions set in `pattern` and the opponent every other position.
/// Positions missing from a short diagonal read as the opponent's, so a run reaching them
/// ends on the board edge and flips nothing, as it should.
static FLIP_COUNT: [[u8; 256]; 8] = flip_counts();

const fn flip_counts() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut x = 0;
    while x < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            // Towards position 0.
            let mut k = x as i32 - 1;
            while k >= 0 && pattern & (1 << k) == 0 {
                k -= 1;
            }
            if k >= 0 {
                count += x as i32 - 1 - k;
            }
            // Towards position 7.
            let mut k = x + 1;
            while k < 8 && pattern & (1 << k) == 0 {
                k += 1;
            }
            if k < 8 {
                count += (k - x - 1) as i32;
            }
            table[x][pattern] = count as u8;
            pattern += 1;
        }
        x += 1;
    }
    table
}

/// The a1-h8 and h1-a8 diagonals through each square.
static DIAGONAL_OF: [[u64; 2]; 64] = diagonals_of();

const fn diagonals_of() -> [[u64; 2]; 64] {
    let mut masks = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut other = 0;
        while other < 64 {
            let (r, c, r2, c2) = (sq / 8, sq % 8, other / 8, other % 8);
            if r2 + c == r + c2 {
                masks[sq][0] |= 1 << other;
            }
            if r2 + c2 == r + c {
                masks[sq][1] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    masks
}

const COLUMN_A: u64 = 0x0101_0101_0101_0101;

/// Discs `mover` would flip by playing `square`, given that every square but `square` is
/// occupied (by the mover's discs or the opponent's).
#[inline]
#[must_use]
pub fn last_flip_count(mover: u64, square: usize) -> i32 {
    let row = square / 8;
    let col = square % 8;
    let row_bits = ((mover >> (8 * row)) & 0xff) as usize;
    // Column `col` moved to column a, then its 8 bits gathered into the top byte (row r of
    // the column lands on bit 56 + r).
    let col_bits =
        ((((mover >> col) & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize;
    // Each square of a diagonal sits in a different column: summing the bytes gathers them
    // into one byte without carries, indexed by column.
    let [diagonal, anti] = DIAGONAL_OF[square];
    let diag_bits = ((mover & diagonal).wrapping_mul(COLUMN_A) >> 56) as usize;
    let anti_bits = ((mover & anti).wrapping_mul(COLUMN_A) >> 56) as usize;
    i32::from(FLIP_COUNT[col][row_bits])
        + i32::from(FLIP_COUNT[row][col_bits])
        + i32::from(FLIP_COUNT[col][diag_bits])
        + i32::from(FLIP_COUNT[col][anti_bits])
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::othello::flips;

    #[test]
    fn matches_game_core_on_nearly_full_boards() {
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let square = (seed >> 58) as usize;
            let bit = 1u64 << square;
            let mover = seed.rotate_left(17) & !bit;
            let opponent = !mover & !bit;
            assert_eq!(
                last_flip_count(mover, square),
                flips(mover, opponent, square as u32).count_ones() as i32,
                "square {square} mover {mover:#x}"
            );
        }
    }
}
