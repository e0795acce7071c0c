//! The opening explorer: for a position of one of the hall's standard games, the moves played
//! from it in the hall's finished games, with how those games ended and how strong their
//! players were. Each finished game is indexed once, as it ends, in the same transaction that
//! stores its end: for each of its first [`MAX_PLIES`] moves, the position before the move
//! (by its board, so that move orders that meet count together) and the move, with the game's
//! result, into the store's `explorer` table, under one of four buckets (rated or not, a bot
//! seated or not) that a look-up may filter by. Only the five rated boards without a preset
//! opening are indexed: they are the games players meet again.

pub mod backfill;

use game_core::protocol::ResultKind;
use game_core::{AnyPosition, GameSpec};
use sha2::{Digest, Sha256};

use crate::accounts::ratings;

/// Moves of a game that are indexed: the opening, where games meet again.
pub const MAX_PLIES: usize = 30;

/// One indexed move: the position it was played from (its key) and the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedFrom {
    pub position: String,
    pub mv: String,
}

/// A game's counts as the index adds them: one game, and its result for each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub black_wins: i64,
    pub draws: i64,
    pub white_wins: i64,
}

impl Outcome {
    /// The counts of a game ended with `result`; `None` for an aborted game (not indexed).
    #[must_use]
    pub fn of(result: ResultKind) -> Option<Outcome> {
        let mut o = Outcome::default();
        match result {
            ResultKind::Black => o.black_wins = 1,
            ResultKind::White => o.white_wins = 1,
            ResultKind::Draw => o.draws = 1,
            ResultKind::Aborted => return None,
        }
        Some(o)
    }
}

/// The index's bucket for a game: rated or not, with a bot seated or not.
#[must_use]
pub fn bucket(rated: bool, bot_seated: bool) -> i64 {
    i64::from(rated) * 2 + i64::from(bot_seated)
}

/// The buckets a look-up reads: `rated` and `bots` each `None` for either.
#[must_use]
pub fn buckets(rated: Option<bool>, bots: Option<bool>) -> Vec<i64> {
    let choices = |filter: Option<bool>| match filter {
        Some(b) => vec![b],
        None => vec![false, true],
    };
    let mut out = Vec::new();
    for r in choices(rated) {
        for b in choices(bots) {
            out.push(bucket(r, b));
        }
    }
    out
}

/// The variant a game is indexed under (its rating key), or `None` when it is not indexed.
#[must_use]
pub fn variant(spec: &GameSpec, preset_opening: bool) -> Option<&'static str> {
    ratings::rating_key(spec, preset_opening)
}

/// The game of a variant: its board and rule.
#[must_use]
pub fn spec_of(variant: &str) -> Option<GameSpec> {
    use game_core::GomokuRule;
    Some(match variant {
        "gomoku-freestyle" => GameSpec::gomoku(15, GomokuRule::Freestyle),
        "gomoku-standard" => GameSpec::gomoku(15, GomokuRule::Standard),
        "gomoku-renju" => GameSpec::gomoku(15, GomokuRule::Renju),
        "othello" => GameSpec::Othello,
        "connect4" => GameSpec::connect4(7, 6),
        _ => return None,
    })
}

/// A position's key: its board and the side to move, hashed (96 bits, as hex).
#[must_use]
pub fn position_key(pos: &AnyPosition) -> String {
    let mut hash = Sha256::new();
    hash.update(pos.board_text().as_bytes());
    hash.update([b' ', pos.turn().as_str().as_bytes()[0]]);
    let digest = hash.finalize();
    digest[..12].iter().map(|b| format!("{b:02x}")).collect()
}

/// The first [`MAX_PLIES`] moves of a game of `spec`, each with the position it was played
/// from. A move the rules refuse (a stored game of an older rule) ends the list there.
#[must_use]
pub fn played_from(spec: &GameSpec, moves: &[String]) -> Vec<PlayedFrom> {
    let Ok(mut pos) = AnyPosition::new(spec) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for mv in moves.iter().take(MAX_PLIES) {
        let position = position_key(&pos);
        match pos.play_str(mv) {
            Ok(canonical) => out.push(PlayedFrom {
                position,
                mv: canonical,
            }),
            Err(_) => break,
        }
    }
    out
}

/// One move of a look-up's answer: how often it was played from the position and how those
/// games ended; the average rating of the rated players among them.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplorerMove {
    pub mv: String,
    pub games: i64,
    pub outcome: Outcome,
    pub rated_players: i64,
    pub rating_sum: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn move_orders_that_meet_share_a_position() {
        let spec = spec_of("gomoku-freestyle").unwrap();
        let a = played_from(&spec, &moves("h8 h9 i8 i9 j8"));
        let b = played_from(&spec, &moves("i8 i9 h8 h9 j8"));
        assert_eq!(a.len(), 5);
        assert_eq!(a[4], b[4], "the fifth move is played from one position");
        assert_ne!(a[0].position, a[1].position);
        assert_eq!(a[0].mv, "h8");
    }

    #[test]
    fn only_the_opening_is_indexed_and_a_refused_move_ends_it() {
        // Forty stones two cells apart: no five, the game goes on past the index's end.
        let long: Vec<String> = (0..40)
            .map(|i| format!("{}{}", (b'a' + 2 * (i % 8) as u8) as char, 1 + 2 * (i / 8)))
            .collect();
        let gomoku = spec_of("gomoku-freestyle").unwrap();
        assert_eq!(played_from(&gomoku, &long).len(), MAX_PLIES);
        let connect4 = spec_of("connect4").unwrap();
        assert_eq!(played_from(&connect4, &moves("4 4 9 4")).len(), 2);
        let othello = played_from(&spec_of("othello").unwrap(), &moves("f5 d6 c3"));
        assert_eq!(othello.len(), 3);
    }

    #[test]
    fn buckets_and_variants() {
        assert_eq!(buckets(None, None), [0, 1, 2, 3]);
        assert_eq!(buckets(Some(true), Some(false)), [2]);
        assert_eq!(buckets(None, Some(true)), [1, 3]);
        assert_eq!(
            variant(&spec_of("othello").unwrap(), false),
            Some("othello")
        );
        assert_eq!(variant(&spec_of("othello").unwrap(), true), None);
        assert!(spec_of("chess").is_none());
        assert_eq!(Outcome::of(ResultKind::Aborted), None);
    }
}
