//! The shared search's value scale: evaluations stay near zero, proven results sit at the far
//! ends — a win at `WIN - plies` counted from the root (a quicker win scores higher), a loss
//! the negative. The search, its transposition table and every game's `SearchGame` speak it;
//! [`score_of`] turns a value into the [`Score`] an engine reports.

use crate::engine::Score;

/// A win at the root, minus the plies it takes.
pub const WIN: i32 = 1_000_000;
/// Values at or beyond this (in absolute value) are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 10_000;

/// A search value as an engine reports it: a proven win or loss in plies (positive when the
/// side to move wins), anything else as a heuristic score.
#[must_use]
pub fn score_of(value: i32) -> Score {
    if value >= WIN_BOUND {
        Score::WinIn(WIN - value)
    } else if value <= -WIN_BOUND {
        Score::WinIn(-(WIN + value))
    } else {
        Score::Heuristic(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_count_plies_from_the_root() {
        assert_eq!(score_of(WIN - 5), Score::WinIn(5));
        assert_eq!(score_of(-(WIN - 4)), Score::WinIn(-4));
        assert_eq!(score_of(WIN_BOUND - 1), Score::Heuristic(WIN_BOUND - 1));
        assert_eq!(score_of(-120), Score::Heuristic(-120));
    }
}
