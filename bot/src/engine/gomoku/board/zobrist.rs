//! The board's Zobrist keys: a fixed random key per point and colour, and the key of white
//! to move, so that the same position on the same size of board always hashes alike.

/// The key of white to move.
pub(super) const SIDE_KEY: u64 = 0x5A17_C0DE_D15C_0BB1;

/// Per point of a padded board of `len` cells (of a `size`-line board), a key per colour.
pub(super) fn point_keys(len: usize, size: usize) -> Vec<[u64; 2]> {
    let mut seed = 0x6B69_6269_747A_0001 ^ size as u64;
    (0..len)
        .map(|_| [splitmix(&mut seed), splitmix(&mut seed)])
        .collect()
}

/// SplitMix64: a fixed, well-spread sequence for the Zobrist keys.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
