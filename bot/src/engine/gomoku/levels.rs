//! What each Gomoku level 1..=10 may do (docs/engines.md, "Levels").

use crate::engine::Level;

/// The knobs of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Deepest iteration of the alpha-beta search.
    pub max_depth: u32,
    /// Evaluation noise (centi-stones) at the leaves.
    pub noise: i32,
    /// Forced answers to open threes, open fours seen as won, fives taken and fours blocked
    /// before searching.
    pub tactics: bool,
    /// VCF near the leaves of the search.
    pub probe_vcf: bool,
    /// VCF at the root.
    pub root_vcf: bool,
    /// VCT at the root.
    pub root_vct: bool,
    /// The learned evaluation and move order and the extra reductions of full strength
    /// ([`super::search::Limits::full_strength`]).
    pub full_strength: bool,
    /// The opening book (15x15 freestyle) answers timed moves in positions of at most this
    /// many stones (0: never).
    pub book_stones: usize,
}

impl LevelSettings {
    /// Calibrated by matches (docs/benchmarks.md, "Levels") at 300 ms a move, 100 games a
    /// pair. Level 1 looks one move ahead through noise so heavy that it plays almost at
    /// random (it still makes five and stops a four, as every level does); levels 2 and 3
    /// through less; level 5 answers threes; level 7 finds VCFs at the root, level 8 also
    /// inside the search; level 9 adds the VCT and has no noise; level 10 has no depth cap,
    /// quiet threats in its VCTs, and the learned evaluation and extra reductions of full
    /// strength (with them at levels
    /// 1–9 the steps shrank to 53–69%: the noise was calibrated against the hand-set values,
    /// and the reductions take depth from a depth-held level). The opening book is level 10's
    /// whole and level 9's to black's second move (four stones): level 9 then scores 28% against
    /// level 10 (200 games), where with none of the book it scored 16.5% once the book held
    /// white's second moves, and with all of it 37.5%.
    /// The threat searches decide so much that one ply more is worth little at short times,
    /// which is why level 9 stops at depth 8 (there once it scored 48% against level 10 at
    /// 100 ms; at depth 6 it fell to 11% once level 10's root checked its defences in the
    /// search's order; at depth 7, 16% once level 10's quiescence search had its own table)
    /// and the levels below it step down from there. One more
    /// ply is worth so much at the bottom that a deeper level may carry more noise than the
    /// one below it (levels 4 and 6).
    #[must_use]
    pub fn of(level: Level) -> LevelSettings {
        let l = level.get();
        let (max_depth, noise) = level.pick([
            (1, 3000),
            (1, 600),
            (1, 160),
            (2, 300),
            (2, 80),
            (3, 110),
            (4, 30),
            (6, 5),
            (8, 0),
            (64, 0),
        ]);
        LevelSettings {
            max_depth,
            noise,
            tactics: l >= 5,
            probe_vcf: l >= 8,
            root_vcf: l >= 7,
            root_vct: l >= 9,
            full_strength: l >= 10,
            book_stones: match l {
                10 => usize::MAX,
                9 => 4,
                _ => 0,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each level searches at least as deep as the one below (with no more noise at the same
    /// depth), and keeps every threat search the one below has.
    #[test]
    fn levels_grow_stronger() {
        let all: Vec<LevelSettings> = (1..=10).map(|l| LevelSettings::of(Level::new(l))).collect();
        for pair in all.windows(2) {
            let (lower, higher) = (pair[0], pair[1]);
            assert!(lower.max_depth <= higher.max_depth, "{lower:?} {higher:?}");
            assert!(
                lower.max_depth < higher.max_depth || lower.noise > higher.noise,
                "{lower:?} {higher:?}"
            );
            for (low, high) in [
                (lower.tactics, higher.tactics),
                (lower.probe_vcf, higher.probe_vcf),
                (lower.root_vcf, higher.root_vcf),
                (lower.root_vct, higher.root_vct),
                (lower.full_strength, higher.full_strength),
            ] {
                assert!(!low || high, "{lower:?} {higher:?}");
            }
            assert!(
                lower.book_stones <= higher.book_stones,
                "{lower:?} {higher:?}"
            );
        }
        assert!(!all[3].tactics && all[4].tactics);
        assert_eq!(all[9].noise, 0);
        // Only full strength has the learned evaluation; the levels below keep the one their
        // noise was calibrated against.
        assert!(all[9].full_strength && !all[8].full_strength);
        // The whole book at full strength only; a part of it below, none below level 9.
        assert!(all[9].book_stones >= 5 && all[8].book_stones < all[9].book_stones);
        assert_eq!(all[7].book_stones, 0);
    }
}
