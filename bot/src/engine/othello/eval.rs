//! The midgame evaluation: learnt pattern weights ([`super::patterns`], [`super::weights`])
//! summed over the 46 pattern instances of the position, plus a few whole-board terms
//! (mobility, potential mobility, the side to move), with one set of weights per game phase.
//! The weights were trained by the project from its own self-play games
//! ([`super::training`]); the file is part of the source (`weights.bin`).
//!
//! The value is for the side to move, in 1/[`UNIT`] discs ([`Evaluator::evaluate`]) —
//! an estimate of the final disc difference — or in centi-discs ([`evaluate`]). Every
//! symmetry of the board gives the same value: the patterns cover the board symmetrically
//! and symmetric readings of a pattern share their weight.

use std::sync::OnceLock;

use super::bitboard::{corner_weighted_count, legal_moves, potential_moves};
use super::patterns::{instance_indices, INSTANCES, PATTERNS};
use super::weights::{class_of_index, CanonicalWeights, EMPTIES, SCALARS, UNIT};

/// The weights the engine plays with.
static EMBEDDED: &[u8] = include_bytes!("weights.bin");

/// An evaluation ready to use: every pattern table expanded to all its indices.
pub struct Evaluator {
    phase_of: [u8; EMPTIES],
    /// Per phase, the tables of all patterns one after the other.
    tables: Vec<Vec<i16>>,
    scalars: Vec<[i16; SCALARS]>,
    /// Where the table of each instance's pattern starts.
    offsets: [u32; INSTANCES],
}

/// Anything that values a position for the side to move, in 1/[`UNIT`] discs.
pub trait Evaluate {
    fn evaluate(&self, mover: u64, opponent: u64) -> i32;
}

/// The whole-board terms of a position, in the order of [`super::weights::SCALAR_NAMES`].
#[inline]
#[must_use]
pub fn scalar_features(mover: u64, opponent: u64) -> [i32; SCALARS] {
    [
        1,
        corner_weighted_count(legal_moves(mover, opponent)),
        corner_weighted_count(legal_moves(opponent, mover)),
        potential_moves(mover, opponent).count_ones() as i32,
        potential_moves(opponent, mover).count_ones() as i32,
    ]
}

impl Evaluator {
    /// Expands canonical weights.
    #[must_use]
    pub fn new(weights: &CanonicalWeights) -> Evaluator {
        let classes = class_of_index();
        let tables = weights
            .patterns
            .iter()
            .map(|phase| {
                phase
                    .iter()
                    .zip(&classes)
                    .flat_map(|(table, class)| class.iter().map(|&c| table[c as usize]))
                    .collect()
            })
            .collect();
        let mut offsets = [0u32; INSTANCES];
        let mut start = 0;
        let mut n = 0;
        for pattern in &PATTERNS {
            for _ in pattern.instances {
                offsets[n] = start as u32;
                n += 1;
            }
            start += pattern.size();
        }
        Evaluator {
            phase_of: weights.phase_of,
            tables,
            scalars: weights.scalars.clone(),
            offsets,
        }
    }

    /// The evaluation of the weights file built into the program. A damaged file (which
    /// the tests rule out) would leave an evaluation that counts mobility only.
    pub fn embedded() -> &'static Evaluator {
        static EVALUATOR: OnceLock<Evaluator> = OnceLock::new();
        EVALUATOR.get_or_init(|| match CanonicalWeights::from_bytes(EMBEDDED) {
            Ok(weights) => Evaluator::new(&weights),
            Err(e) => {
                tracing::error!("{e}");
                let mut weights = CanonicalWeights::zero([0; EMPTIES]);
                weights.scalars[0] = [0, 64, -64, 0, 0];
                Evaluator::new(&weights)
            }
        })
    }
}

impl Evaluate for Evaluator {
    /// The value for `mover`, in 1/[`UNIT`] discs.
    #[inline]
    fn evaluate(&self, mover: u64, opponent: u64) -> i32 {
        let empties = (64 - (mover | opponent).count_ones()).min(60) as usize;
        let phase = usize::from(self.phase_of[empties]);
        let table = &self.tables[phase];
        let indices = instance_indices(mover, opponent);
        let mut sum = 0i32;
        for (offset, index) in self.offsets.iter().zip(indices) {
            sum += i32::from(table[(offset + index) as usize]);
        }
        let features = scalar_features(mover, opponent);
        for (w, f) in self.scalars[phase].iter().zip(features) {
            sum += i32::from(*w) * f;
        }
        sum
    }
}

/// The engine's evaluation of a position for `mover`, in centi-discs.
#[inline]
#[must_use]
pub fn evaluate(mover: u64, opponent: u64) -> i32 {
    Evaluator::embedded().evaluate(mover, opponent) * 100 / UNIT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::patterns::symmetries;
    use crate::engine::othello::test_support::{random_position, Rng};

    /// The eight symmetries of a position get the same value, at every stage of the game.
    #[test]
    fn the_eight_symmetries_evaluate_alike() {
        let evaluator = Evaluator::embedded();
        let mut rng = Rng(0x5e_u64);
        for n in 0..400 {
            let (mover, opponent) = random_position(&mut rng, 60 - n % 58);
            let value = evaluator.evaluate(mover, opponent);
            let movers = symmetries(mover);
            let opponents = symmetries(opponent);
            for s in 1..8 {
                assert_eq!(
                    evaluator.evaluate(movers[s], opponents[s]),
                    value,
                    "symmetry {s} of {mover:#x} {opponent:#x}"
                );
            }
        }
    }

    /// The built-in file reads, has the shape of this build, and says something: the start
    /// position is about even and a corner is worth having.
    #[test]
    fn the_built_in_weights_load_and_make_sense() {
        let weights = CanonicalWeights::from_bytes(EMBEDDED).expect("the built-in weights");
        assert!(weights.phases() >= 4);
        let again = CanonicalWeights::from_bytes(&weights.to_bytes()).expect("written back");
        assert_eq!(again, weights);
        let (black, white) = crate::engine::othello::test_support::START;
        assert!(
            evaluate(black, white).abs() < 300,
            "{}",
            evaluate(black, white)
        );
        // Black to move with the a1 corner against the same without it.
        let with_corner = evaluate(black | 1 | 2, white | 4);
        let without = evaluate(black | 4 | 2, white | 1);
        assert!(with_corner > without + 200, "{with_corner} {without}");
    }
}
