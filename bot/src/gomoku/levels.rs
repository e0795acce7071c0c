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
}

impl LevelSettings {
    /// Level 1 looks one move ahead through heavy noise and may ignore an open three; level
    /// 3 answers threes; level 5 finds VCFs; level 8 and up search at full strength.
    #[must_use]
    pub fn of(level: Level) -> LevelSettings {
        let l = level.get();
        let (max_depth, noise) = level.pick([
            (1, 300),
            (2, 160),
            (2, 80),
            (3, 45),
            (4, 25),
            (5, 12),
            (6, 5),
            (8, 0),
            (12, 0),
            (64, 0),
        ]);
        LevelSettings {
            max_depth,
            noise,
            tactics: l >= 3,
            probe_vcf: l >= 6,
            root_vcf: l >= 5,
            root_vct: l >= 8,
        }
    }
}
