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

/// What the index keeps of a finished game: its variant (the rating key, with `@<rule>` for a
/// game played from an opening rule: `gomoku-renju@soosorv8`), the plain game its positions
/// are of, and its line — an opening rule's stones, in the order they were placed, then the
/// moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedGame {
    pub variant: String,
    pub plain: GameSpec,
    pub line: Vec<String>,
}

/// The steps of a stored game the index reads at most (an opening rule's decisions, then
/// moves).
pub const STEPS_READ: usize = 2 * MAX_PLIES;

/// How a game of `spec` with the preset `opening` and the stored `steps` is indexed; `None`
/// for a game the explorer does not keep (another board, a preset opening, a game that ended
/// within its opening rule).
#[must_use]
pub fn indexed_game(spec: &GameSpec, opening: &[String], steps: &[String]) -> Option<IndexedGame> {
    let key = ratings::rating_key(spec, !opening.is_empty(), false)?;
    let Some(rule) = spec.opening_rule() else {
        return Some(IndexedGame {
            variant: key.to_string(),
            plain: spec.clone(),
            line: steps.to_vec(),
        });
    };
    let GameSpec::Gomoku {
        size,
        rule: gomoku_rule,
        ..
    } = spec
    else {
        return None;
    };
    let game = game_core::game::Game::with_setup(spec, opening)
        .ok()?
        .replay(steps)
        .ok()?;
    if game.in_opening() {
        return None;
    }
    let from = game.opening_steps();
    let choices: Vec<&str> = steps[..from].iter().map(String::as_str).collect();
    let mut line = game_core::opening::opening_stones(&choices);
    line.extend(steps[from..].iter().cloned());
    Some(IndexedGame {
        variant: format!("{key}@{}", rule.as_str()),
        plain: GameSpec::gomoku(*size, *gomoku_rule),
        line,
    })
}

/// The game of a variant: its board and rule (the plain game, for one with `@<rule>`, whose
/// rule must belong to it).
#[must_use]
pub fn spec_of(variant: &str) -> Option<GameSpec> {
    use game_core::{GomokuRule, OpeningRule};
    if let Some((base, rule)) = variant.split_once('@') {
        let plain = spec_of(base)?;
        let rule = OpeningRule::ALL.into_iter().find(|r| r.as_str() == rule)?;
        let GameSpec::Gomoku { size, rule: g, .. } = plain else {
            return None;
        };
        return rule.check(size, g).is_ok().then_some(plain);
    }
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
        let othello = spec_of("othello").unwrap();
        let f5 = moves("f5");
        assert_eq!(
            indexed_game(&othello, &[], &f5).map(|g| g.variant),
            Some("othello".to_string())
        );
        assert_eq!(indexed_game(&othello, &f5, &f5), None);
        assert!(spec_of("chess").is_none());
        assert_eq!(Outcome::of(ResultKind::Aborted), None);
    }

    #[test]
    fn a_game_from_an_opening_rule_is_indexed_under_its_rule_from_its_stones() {
        use game_core::{GomokuRule, OpeningRule};
        let spec = GameSpec::gomoku_with_opening(15, GomokuRule::Renju, OpeningRule::Soosorv8);
        let steps = moves("h8 i9 j10 swap g7 declare_2 stay fifths_k5,e12 choose_e12 a1")
            .into_iter()
            .map(|s| s.replace('_', " "))
            .collect::<Vec<_>>();
        let game = indexed_game(&spec, &[], &steps).expect("kept");
        assert_eq!(game.variant, "gomoku-renju@soosorv8");
        assert_eq!(game.plain, GameSpec::gomoku(15, GomokuRule::Renju));
        assert_eq!(game.line, moves("h8 i9 j10 g7 e12 a1"));
        assert_eq!(spec_of("gomoku-renju@soosorv8"), Some(game.plain.clone()));
        assert_eq!(
            spec_of("gomoku-freestyle@soosorv8"),
            None,
            "the rule is renju's"
        );
        assert_eq!(spec_of("gomoku-renju@nothing"), None);
        // Ended within the opening: not kept; a plain game: its moves as they are.
        assert_eq!(indexed_game(&spec, &[], &steps[..4]), None);
        let plain = GameSpec::gomoku(15, GomokuRule::Freestyle);
        let kept = indexed_game(&plain, &[], &moves("h8 h9")).unwrap();
        assert_eq!(
            (kept.variant.as_str(), kept.line.len()),
            ("gomoku-freestyle", 2)
        );
        assert_eq!(
            indexed_game(&plain, &moves("h8"), &moves("h9")),
            None,
            "a preset opening"
        );
    }
}
