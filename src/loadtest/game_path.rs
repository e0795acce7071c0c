//! The games the load generator plays: each one fixed by a seed, a room and a game number,
//! so that every run plays the same moves whatever the timing, and every move is legal.

use game_core::{AnyPosition, Cell, GameSpec, GomokuRule};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The one game of the load: 15x15 freestyle Gomoku.
#[must_use]
pub fn spec() -> GameSpec {
    GameSpec::gomoku(15, GomokuRule::Freestyle)
}

/// How far from the stones already on the board a move is drawn, in cells (any direction).
/// Players play near the stones; so do these games, which makes them end like real ones
/// (a five after a few dozen moves) rather than fill the board.
const REACH: i32 = 2;

/// The moves of game `game` of room `room`, from the first to the one that ends it (a five,
/// or the last cell of a full board). ChaCha8 gives the same stream in every build and on
/// every platform, so two builds of the server are measured on the same games.
pub fn game_path(seed: u64, room: usize, game: u64) -> anyhow::Result<Vec<String>> {
    let spec = spec();
    let GameSpec::Gomoku { size, .. } = spec else {
        anyhow::bail!("the load game is Gomoku");
    };
    let size = i32::try_from(size)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream((room as u64) << 32 | (game & 0xffff_ffff));
    let mut position = AnyPosition::new(&spec)?;
    let mut stones: Vec<(i32, i32)> = Vec::new();
    let mut moves = Vec::new();
    while !position.is_over() {
        let legal = position.legal_moves();
        let near: Vec<&String> = legal
            .iter()
            .filter(|mv| {
                let (col, row) = cell_of(mv);
                stones.is_empty()
                    && (col - size / 2).abs() <= REACH
                    && (row - size / 2).abs() <= REACH
                    || stones
                        .iter()
                        .any(|&(c, r)| (c - col).abs() <= REACH && (r - row).abs() <= REACH)
            })
            .collect();
        let choice = match near.choose(&mut rng) {
            Some(mv) => (*mv).clone(),
            // Only when every cell near the stones is taken: any legal move.
            None => legal
                .choose(&mut rng)
                .ok_or_else(|| anyhow::anyhow!("a game that is not over has a legal move"))?
                .clone(),
        };
        position.play_str(&choice)?;
        stones.push(cell_of(&choice));
        moves.push(choice);
    }
    Ok(moves)
}

/// Column and row (0-based) of a legal Gomoku move; off every board if it were not one.
fn cell_of(mv: &str) -> (i32, i32) {
    mv.parse::<Cell>()
        .map_or((-100, -100), |c| (i32::from(c.col), i32::from(c.row)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_legal_finished_and_the_same_for_the_same_seed_room_and_number() {
        for (room, game) in [(0, 0), (1, 0), (0, 1), (499, 7)] {
            let moves = game_path(7, room, game).unwrap();
            let mut position = AnyPosition::new(&spec()).unwrap();
            for mv in &moves {
                position.play_str(mv).unwrap();
            }
            assert!(position.is_over(), "room {room} game {game} ends");
            assert_eq!(moves, game_path(7, room, game).unwrap(), "deterministic");
        }
        assert_ne!(game_path(7, 0, 0).unwrap(), game_path(7, 1, 0).unwrap());
        assert_ne!(game_path(7, 0, 0).unwrap(), game_path(7, 0, 1).unwrap());
        assert_ne!(game_path(7, 0, 0).unwrap(), game_path(8, 0, 0).unwrap());
    }
}
