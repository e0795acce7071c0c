//! What each Othello level 1..=10 may do (docs/engines.md, "Levels"), and how much exact
//! solving a search's time or node budget allows.

use std::time::Duration;

use crate::engine::Level;

/// The knobs of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    pub max_depth: u32,
    /// Evaluation noise, centi-discs.
    pub noise: i32,
    /// Solve exactly at the root from this many empties down.
    pub solve_empties: u32,
    /// Solve exactly inside the midgame search from this many empties down.
    pub probe_empties: u32,
}

impl LevelSettings {
    /// Calibrated by matches (docs/benchmarks.md, "Levels"): each level scores about 75%
    /// against the one below at 300 ms a move, 100 games a pair (levels 1–9 are held by their
    /// depth and play the same at 100 ms; level 10 needs the time: 63% against level 9 at
    /// 100 ms, 75% at 300 ms). Levels 1–3 look one move ahead through noise
    /// of 30, 16 and 8 discs (level 1 is close to random and loses to a beginner who takes
    /// corners); from level 4 the search deepens, the noise shrinks (a deeper level may be
    /// noisier than the shallower one below it: one more ply is worth a lot) and the last
    /// empties are solved exactly; level 9 searches 8 plies; level 10 as deep as the time
    /// allows.
    #[must_use]
    pub fn of(level: Level) -> LevelSettings {
        let (max_depth, noise, solve_empties, probe_empties) = level.pick([
            (1, 3000, 0, 0),
            (1, 1600, 0, 0),
            (1, 800, 0, 0),
            (2, 900, 6, 4),
            (2, 400, 8, 6),
            (3, 600, 10, 8),
            (4, 400, 12, 10),
            (6, 400, 14, 12),
            (8, 0, 16, 13),
            (64, 0, 24, 18),
        ]);
        LevelSettings {
            max_depth,
            noise,
            solve_empties,
            probe_empties,
        }
    }
}

/// The most empties the exact solver can be expected to finish in `time` (of which the root
/// solve gets three fifths). Measured on positions of self-play games and the FFO set,
/// release build, a loaded 2-core machine: 16 empties in about 10 ms, 18 in 50 ms, 20 in
/// 0.3 s, 22 in 1-3 s, 24 in 5-15 s.
#[must_use]
pub fn solvable_empties(time: Duration) -> u32 {
    let ms = time.as_millis();
    match ms {
        0..=30 => 14,
        31..=100 => 16,
        101..=400 => 18,
        401..=1_500 => 20,
        1_501..=8_000 => 22,
        _ => 24,
    }
}

/// The most empties the exact solver usually finishes in about `nodes` nodes (about 200
/// thousand at 14 empties, 3-4 times more per extra empty).
#[must_use]
pub fn solvable_empties_in_nodes(nodes: u64) -> u32 {
    match nodes {
        0..=99_999 => 12,
        100_000..=999_999 => 14,
        1_000_000..=9_999_999 => 16,
        10_000_000..=99_999_999 => 18,
        _ => 20,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each level searches at least as deep and solves at least as many empties as the one
    /// below, and at the same depth adds less noise.
    #[test]
    fn levels_grow_stronger() {
        let all: Vec<LevelSettings> = (1..=10).map(|l| LevelSettings::of(Level::new(l))).collect();
        for pair in all.windows(2) {
            let (lower, higher) = (pair[0], pair[1]);
            assert!(lower.max_depth <= higher.max_depth, "{lower:?} {higher:?}");
            assert!(
                lower.solve_empties <= higher.solve_empties,
                "{lower:?} {higher:?}"
            );
            assert!(
                lower.probe_empties <= higher.probe_empties,
                "{lower:?} {higher:?}"
            );
            if lower.max_depth == higher.max_depth {
                assert!(lower.noise > higher.noise, "{lower:?} {higher:?}");
            }
        }
        assert_eq!(all[9].noise, 0);
    }
}
