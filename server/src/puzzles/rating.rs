//! Glicko-2 puzzle ratings: an attempt is a game between the player and the puzzle, won by
//! the player when he solves it unaided (a hint, or a wrong move, loses it). Accounts' and
//! puzzles' ratings are stored; a guest's is kept by his page and sent with each result. The
//! formula is the `skillratings` crate's, as for games ([`crate::accounts::ratings`]).

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use game_core::puzzle::Puzzle;

use crate::store::StoredGlicko;

/// Where a player starts.
pub const PLAYER_START: StoredGlicko = StoredGlicko {
    rating: 1500.0,
    rd: 350.0,
    volatility: 0.06,
    plays: 0,
};

/// A puzzle's first deviation: lower than a new player's, since its starting rating already
/// says something (its length).
const PUZZLE_START_RD: f64 = 250.0;

/// A puzzle's rating before anyone tried it: a longer win is harder (1,500 for a win in 2,
/// 150 more a move).
#[must_use]
pub fn puzzle_start(p: &Puzzle) -> StoredGlicko {
    StoredGlicko {
        rating: 1200.0 + 150.0 * f64::from(p.length),
        rd: PUZZLE_START_RD,
        volatility: 0.06,
        plays: 0,
    }
}

fn to_glicko(r: &StoredGlicko) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.rd,
        volatility: r.volatility,
    }
}

fn from_glicko(g: Glicko2Rating, plays: i64) -> StoredGlicko {
    StoredGlicko {
        rating: g.rating,
        rd: g.deviation,
        volatility: g.volatility,
        plays,
    }
}

/// The player's and the puzzle's ratings after an attempt.
#[must_use]
pub fn attempt(
    player: &StoredGlicko,
    puzzle: &StoredGlicko,
    solved: bool,
) -> (StoredGlicko, StoredGlicko) {
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (p, q) = glicko2(
        &to_glicko(player),
        &to_glicko(puzzle),
        &outcome,
        &Glicko2Config::new(),
    );
    (
        from_glicko(p, player.plays + 1),
        from_glicko(q, puzzle.plays + 1),
    )
}

/// A guest's rating as his page sent it, if it is one a Glicko-2 rating can be.
#[must_use]
pub fn plausible(r: &StoredGlicko) -> bool {
    (0.0..=5000.0).contains(&r.rating)
        && (1.0..=500.0).contains(&r.rd)
        && (0.0..=1.0).contains(&r.volatility)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle() {
        let puzzle = StoredGlicko {
            rating: 1650.0,
            rd: 250.0,
            volatility: 0.06,
            plays: 0,
        };
        let (p, q) = attempt(&PLAYER_START, &puzzle, true);
        assert!(p.rating > 1500.0 && q.rating < 1650.0, "{p:?} {q:?}");
        assert_eq!((p.plays, q.plays), (1, 1));
        let (p, q) = attempt(&PLAYER_START, &puzzle, false);
        assert!(p.rating < 1500.0 && q.rating > 1650.0, "{p:?} {q:?}");
        assert!(p.rd < 350.0);
    }

    #[test]
    fn implausible_guest_ratings_are_refused() {
        assert!(plausible(&PLAYER_START));
        let mut r = PLAYER_START;
        r.rd = 0.0;
        assert!(!plausible(&r));
        r = PLAYER_START;
        r.rating = f64::NAN;
        assert!(!plausible(&r));
    }
}
