//! Positions for the tests: random games from the start, cut at a given number of empties,
//! and a brute-force minimax to check the solver against.

use game_core::othello::{flips, legal_mask};

use super::board::final_score;

/// A small deterministic generator (xorshift64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The start position as (black, white): black moves first.
pub const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

/// A random square of `mask` (not empty).
pub fn random_square(rng: &mut Rng, mask: u64) -> u32 {
    let mut m = mask;
    for _ in 0..rng.below(u64::from(mask.count_ones())) {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// A position (mover, opponent) of a random game at `empties` empty squares or, if the game
/// ends before, its last position (possibly over: a wipe-out or a blocked board).
pub fn random_position(rng: &mut Rng, empties: u32) -> (u64, u64) {
    let (mut mover, mut opponent) = START;
    while 64 - (mover | opponent).count_ones() > empties {
        let moves = legal_mask(mover, opponent);
        if moves == 0 {
            if legal_mask(opponent, mover) == 0 {
                break;
            }
            (mover, opponent) = (opponent, mover);
            continue;
        }
        let sq = random_square(rng, moves);
        let f = flips(mover, opponent, sq);
        (mover, opponent) = (opponent & !f, mover | f | (1 << sq));
    }
    (mover, opponent)
}

/// The exact value by full minimax, no pruning: the reference.
pub fn brute_force(mover: u64, opponent: u64) -> i32 {
    let moves = legal_mask(mover, opponent);
    if moves == 0 {
        if legal_mask(opponent, mover) == 0 {
            return final_score(mover, opponent);
        }
        return -brute_force(opponent, mover);
    }
    let mut best = i32::MIN;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips(mover, opponent, sq);
        best = best.max(-brute_force(opponent & !f, mover | f | (1 << sq)));
    }
    best
}
