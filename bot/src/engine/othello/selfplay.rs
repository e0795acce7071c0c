//! Self-play games that make the evaluation's training data: positions labelled with the
//! final disc difference of the game they come from, played perfectly from
//! [`SelfPlay::solve_empties`] empties on (so every label from there on is exact).
//!
//! A game opens with a few random moves (every game differs), then each side picks its move
//! by a shallow search ([`super::midgame::rank_moves`]) with the evaluation under training,
//! now and then a random one instead (the data must show mistakes and their price), until
//! the exact solver takes over and both sides play perfectly to the end.

use std::io::{Read, Write};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::bitboard::{flips, legal_moves};
use super::board::{after_move, final_score, game_over, PASS};
use super::eval::Evaluate;
use super::midgame::rank_moves;
use super::solver::Solver;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Random moves at the start: at least `random_plies.0`, at most `random_plies.1`.
    pub random_plies: (u32, u32),
    /// Depth of the move choice's search.
    pub depth: u32,
    /// Chance of a random move instead of the searched one, before the exact part.
    pub mistake_rate: f64,
    /// From this many empties on, both sides play perfectly.
    pub solve_empties: u32,
}

/// A training position: the side to move's discs and the opponent's, and the final disc
/// difference for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub mover: u64,
    pub opponent: u64,
    pub score: i8,
    /// The score is the position's exact value (perfect play from here on).
    pub exact: bool,
}

impl Sample {
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.mover | self.opponent).count_ones()
    }
}

/// Bytes per sample in a data file: both bitboards, the score, the exact flag.
pub const SAMPLE_BYTES: usize = 18;

/// Appends samples to a data file.
pub fn write_samples(out: &mut impl Write, samples: &[Sample]) -> std::io::Result<()> {
    for s in samples {
        let mut bytes = [0u8; SAMPLE_BYTES];
        bytes[..8].copy_from_slice(&s.mover.to_le_bytes());
        bytes[8..16].copy_from_slice(&s.opponent.to_le_bytes());
        bytes[16] = s.score as u8;
        bytes[17] = u8::from(s.exact);
        out.write_all(&bytes)?;
    }
    Ok(())
}

/// Reads a whole data file; a trailing partial record is an error.
pub fn read_samples(input: &mut impl Read) -> std::io::Result<Vec<Sample>> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    if bytes.len() % SAMPLE_BYTES != 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the data ends inside a record",
        ));
    }
    Ok(bytes
        .chunks_exact(SAMPLE_BYTES)
        .map(|b| {
            let word = |at: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&b[at..at + 8]);
                u64::from_le_bytes(w)
            };
            Sample {
                mover: word(0),
                opponent: word(8),
                score: b[16] as i8,
                exact: b[17] != 0,
            }
        })
        .collect())
}

/// A random legal move of `mover` (there must be one).
fn random_move(rng: &mut StdRng, legal: u64) -> u8 {
    let mut m = legal;
    for _ in 0..rng.random_range(0..legal.count_ones()) {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

impl SelfPlay {
    /// Plays one game from the start position and returns its positions, labelled. The
    /// solver's table is reused from game to game (it only ever holds exact facts).
    pub fn play<E: Evaluate + ?Sized>(
        &self,
        eval: &E,
        solver: &mut Solver,
        rng: &mut StdRng,
    ) -> Vec<Sample> {
        // (mover, opponent, mover is black, exact from here)
        let mut line: Vec<(u64, u64, bool, bool)> = Vec::with_capacity(64);
        let (mut mover, mut opponent) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut black = true;
        let random_plies = rng.random_range(self.random_plies.0..=self.random_plies.1);
        let mut ply = 0;
        let mut nodes = 0;
        while !game_over(mover, opponent) {
            let legal = legal_moves(mover, opponent);
            if legal == 0 {
                (mover, opponent, black) = (opponent, mover, !black);
                continue;
            }
            let empties = 64 - (mover | opponent).count_ones();
            if empties <= self.solve_empties {
                if let Some(solution) = solver.solve(mover, opponent) {
                    // Perfect play to the end, along the solver's line.
                    for &m in &solution.pv {
                        if m != PASS {
                            line.push((mover, opponent, black, true));
                        }
                        (mover, opponent) = after_move(mover, opponent, m);
                        black = !black;
                    }
                    break;
                }
            }
            line.push((mover, opponent, black, false));
            let square = if ply < random_plies || rng.random_bool(self.mistake_rate) {
                random_move(rng, legal)
            } else {
                rank_moves(eval, mover, opponent, self.depth, &mut nodes)
                    .first()
                    .map_or_else(|| random_move(rng, legal), |&(sq, _)| sq)
            };
            let f = flips(mover, opponent, usize::from(square));
            (mover, opponent) = (opponent & !f, mover | f | (1u64 << square));
            black = !black;
            ply += 1;
        }
        // The final result for black, empties to the winner.
        let black_result = if black {
            final_score(mover, opponent)
        } else {
            -final_score(mover, opponent)
        };
        line.into_iter()
            .map(|(m, o, is_black, exact)| Sample {
                mover: m,
                opponent: o,
                score: if is_black {
                    black_result
                } else {
                    -black_result
                } as i8,
                exact,
            })
            .collect()
    }
}

/// A generator seeded for a reproducible run.
#[must_use]
pub fn seeded(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::test_support::brute_force;

    struct Mobility;

    impl Evaluate for Mobility {
        fn evaluate(&self, mover: u64, opponent: u64) -> i32 {
            legal_moves(mover, opponent).count_ones() as i32
                - legal_moves(opponent, mover).count_ones() as i32
        }
    }

    #[test]
    fn games_are_labelled_with_their_exact_end() {
        let config = SelfPlay {
            random_plies: (2, 6),
            depth: 2,
            mistake_rate: 0.1,
            solve_empties: 9,
        };
        let mut solver = Solver::new(12);
        let mut rng = seeded(5);
        for _ in 0..4 {
            let samples = config.play(&Mobility, &mut solver, &mut rng);
            assert!(samples.len() >= 40, "{} positions", samples.len());
            for s in &samples {
                assert_eq!(s.mover & s.opponent, 0);
                assert!(
                    legal_moves(s.mover, s.opponent) != 0,
                    "only positions with a move"
                );
                if s.exact {
                    assert!(s.empties() <= 9);
                    assert_eq!(i32::from(s.score), brute_force(s.mover, s.opponent));
                }
            }
            assert!(samples.iter().filter(|s| s.exact).count() >= 5);
            let mut file = Vec::new();
            write_samples(&mut file, &samples).expect("in memory");
            assert_eq!(
                read_samples(&mut file.as_slice()).expect("reads back"),
                samples
            );
        }
    }
}
