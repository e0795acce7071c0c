//! Swap2, the opening rule of the Gomocup's freestyle and renju tournaments, as the brain
//! plays it (`SWAP2BOARD`). The first player lays three stones (black, white, black); the
//! second takes black (`SWAP`), plays white's fourth stone, or lays two more and lets the
//! first choose; with five stones the first player takes black (`SWAP`) or plays white's
//! sixth. The brain lays an opening its own search judges even, and chooses the colour its
//! search prefers: white when white's move scores at least even, black otherwise. It never
//! lays the two extra stones (a legal choice; playing white's fourth is the other).

use game_core::gomoku::Gomoku;
use game_core::{Cell, GomokuRule, Position};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::timed_search;
use crate::engine::{Engine, SearchResult};
use std::time::Duration;

/// How many openings the brain weighs before laying one: each gets an equal share of the
/// turn, enough for a few plies each at a second a move.
const OPENINGS_WEIGHED: u32 = 8;

/// What the brain answers to `SWAP2BOARD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Answer {
    /// Three stones: black, white, black.
    Open([Cell; 3]),
    /// The brain takes black, the colour that has just moved.
    Swap,
    /// The brain stays white and plays this stone (with the search that chose it).
    Move(Cell, Box<SearchResult>),
}

/// The answer to a swap2 board of three or five stones (white to move): white and its
/// move when the search scores white's move even or better, otherwise black (`SWAP`).
pub(super) fn choose(
    engine: &mut dyn Engine,
    pos: &Gomoku,
    budget: Duration,
    seed: u64,
) -> Result<Answer, String> {
    let result = timed_search(engine, pos, budget, seed).ok_or("the game is over")?;
    if result.score.as_number() < 0 {
        return Ok(Answer::Swap);
    }
    let best = result
        .best
        .parse::<Cell>()
        .ok()
        .filter(|c| pos.is_legal(*c).is_ok())
        .ok_or_else(|| format!("the search gave no legal move ({})", result.best))?;
    Ok(Answer::Move(best, Box::new(result)))
}

/// A candidate opening: black's first stone in the centre, or, every other candidate, near
/// an edge (one to three points from it), where black has fewer lines to build on; white's
/// stone and black's second within two points of the first.
fn candidate(size: u8, near_edge: bool, rng: &mut StdRng) -> [Cell; 3] {
    let n = i32::from(size);
    let centre = n / 2;
    let (col, row) = if near_edge && n >= 9 {
        let along = rng.random_range(2..n - 2);
        let from_edge = rng.random_range(1..=3);
        match rng.random_range(0..4) {
            0 => (along, from_edge),
            1 => (along, n - 1 - from_edge),
            2 => (from_edge, along),
            _ => (n - 1 - from_edge, along),
        }
    } else {
        (centre, centre)
    };
    let first = Cell::new(col as u8, row as u8);
    let reach = (n / 2).min(2);
    let near = |rng: &mut StdRng| {
        let c = (col + rng.random_range(-reach..=reach)).clamp(0, n - 1);
        let r = (row + rng.random_range(-reach..=reach)).clamp(0, n - 1);
        Cell::new(c as u8, r as u8)
    };
    loop {
        let white = near(rng);
        let black = near(rng);
        if white != first && black != first && black != white {
            return [first, white, black];
        }
    }
}

/// Three stones to open with: of a handful of candidates, the one whose position the search
/// scores nearest even for white to move, so that either colour is a fair choice for the
/// opponent.
pub(super) fn open(
    engine: &mut dyn Engine,
    size: u8,
    rule: GomokuRule,
    budget: Duration,
    seed: u64,
) -> Result<Answer, String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let share = budget / OPENINGS_WEIGHED;
    let mut best: Option<([Cell; 3], i32)> = None;
    for i in 0..OPENINGS_WEIGHED {
        let stones = candidate(size, i % 2 == 1, &mut rng);
        let pos = Gomoku::from_stones(size, rule, &[stones[0], stones[2]], &[stones[1]])
            .map_err(|e| e.to_string())?;
        let Some(result) = timed_search(engine, &pos, share, seed.wrapping_add(u64::from(i)))
        else {
            continue;
        };
        let imbalance = result.score.as_number().abs();
        if best.is_none_or(|(_, b)| imbalance < b) {
            best = Some((stones, imbalance));
        }
    }
    best.map(|(stones, _)| Answer::Open(stones))
        .ok_or_else(|| "no opening fits this board".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gomoku::GomokuEngine;

    fn cells(text: &str) -> Vec<Cell> {
        text.split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    #[test]
    fn an_opening_is_three_distinct_stones_close_together() {
        let mut engine = GomokuEngine::with_tt_bits(12);
        let budget = Duration::from_millis(60);
        for (size, seed) in [(7, 3), (15, 3), (15, 4), (20, 5)] {
            let Answer::Open(stones) =
                open(&mut engine, size, GomokuRule::Freestyle, budget, seed).unwrap()
            else {
                panic!("not an opening");
            };
            let pos = Gomoku::from_stones(
                size,
                GomokuRule::Freestyle,
                &[stones[0], stones[2]],
                &[stones[1]],
            )
            .unwrap();
            assert_eq!(
                pos.legal_moves().len(),
                usize::from(size) * usize::from(size) - 3
            );
            // The other two stones lie within two points of the first.
            let near =
                |c: &Cell| c.col.abs_diff(stones[0].col) <= 2 && c.row.abs_diff(stones[0].row) <= 2;
            assert!(stones.iter().all(near), "{stones:?}");
        }
    }

    #[test]
    fn the_brain_takes_black_when_white_is_lost_and_plays_white_when_white_wins() {
        let mut engine = GomokuEngine::with_tt_bits(12);
        let budget = Duration::from_millis(100);
        // Black has an open four: white to move is lost.
        let lost = Gomoku::from_stones(
            15,
            GomokuRule::Freestyle,
            &cells("e8 f8 g8 h8 a1"),
            &cells("a3 a5 a7 a9"),
        )
        .unwrap();
        assert_eq!(choose(&mut engine, &lost, budget, 1).unwrap(), Answer::Swap);
        // White has four in a row with an open end: white to move wins there.
        let won = Gomoku::from_stones(
            15,
            GomokuRule::Freestyle,
            &cells("a1 c1 e1 g1 i1"),
            &cells("e8 f8 g8 h8"),
        )
        .unwrap();
        match choose(&mut engine, &won, budget, 1).unwrap() {
            Answer::Move(c, _) => assert!(c == "d8".parse().unwrap() || c == "i8".parse().unwrap()),
            other => panic!("{other:?}"),
        }
    }
}
