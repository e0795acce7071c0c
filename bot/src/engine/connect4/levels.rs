//! What each Connect Four level 1..=10 may do (docs/engines.md, "Levels").

use crate::engine::search::MAX_PLY;
use crate::engine::Level;

/// The knobs of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// Deepest iteration of the heuristic search.
    pub max_depth: u32,
    /// Evaluation noise (points; a well-placed threat is about 90).
    pub noise: i32,
    /// Search only forced moves when there are some: win now, block, never under a threat.
    /// Off at levels 1–2, which may overlook a threat, as beginners do.
    pub forced_moves: bool,
    /// The exact solver takes over inside the search at nodes with at most this many empty
    /// cells (0: never).
    pub solve_below: u32,
    /// Before searching, try to solve the root exactly if it has at most this many empty
    /// cells (with half the time; the search gets what is left).
    pub root_solve_below: u32,
    /// Play the opening book's exact moves on the standard 7x6 board (full strength only).
    pub book: bool,
}

impl LevelSettings {
    /// Calibrated by matches (docs/benchmarks.md, "Levels", "Connect Four (7x6)"): each level scores
    /// about 75% against the one below at 100 ms a move (200 games a pair). Levels 8 and 9
    /// stay a little short of the solver and the depth above them, or level 10 (exact from
    /// 34 empty cells and the book) would gain too little on level 9. Level 1 sees one move ahead through
    /// heavy noise and misses the opponent's threats; level 2 sees them two moves ahead;
    /// from level 3 forced moves are played at once; from level 7 the exact solver finishes
    /// the game; level 9 still adds a little noise; level 10 searches as deep as the time
    /// allows and plays the opening book. Level 1 carries less noise than level 2: it cannot
    /// see a threat coming, and with more noise it fell too far below level 2 (88%).
    #[must_use]
    pub fn of(level: Level) -> LevelSettings {
        let (max_depth, noise, solve_below, root_solve_below) = level.pick([
            (1, 150, 0, 0),
            (2, 400, 0, 0),
            (3, 200, 0, 0),
            (3, 100, 0, 0),
            (4, 100, 0, 0),
            (6, 100, 0, 0),
            (7, 35, 8, 0),
            (10, 30, 10, 12),
            (12, 25, 10, 16),
            (MAX_PLY as u32 - 2, 0, 16, 34),
        ]);
        LevelSettings {
            max_depth,
            noise,
            forced_moves: level.get() >= 3,
            solve_below,
            root_solve_below,
            book: level.get() == 10,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger() {
        let all: Vec<LevelSettings> = (1..=10).map(|l| LevelSettings::of(Level::new(l))).collect();
        for pair in all.windows(2) {
            assert!(pair[0].max_depth <= pair[1].max_depth);
            // A deeper level may carry more noise (levels 1 and 2).
            assert!(pair[0].max_depth < pair[1].max_depth || pair[0].noise >= pair[1].noise);
            assert!(pair[0].solve_below <= pair[1].solve_below);
        }
        assert!(!all[1].forced_moves && all[2].forced_moves);
    }
}
