//! The contract's checks of puzzle ratings: an account's first attempt at a puzzle stores the
//! attempt and both ratings; a second attempt at the same puzzle changes nothing; the reads
//! give each variant's puzzles, a player's ratings and the puzzles he tried; and all of it is
//! still there when the store is opened again.

use kibitz_server::store::{PuzzleAttempt, StoredGlicko};

use super::*;

fn glicko(rating: f64, plays: i64) -> StoredGlicko {
    StoredGlicko {
        rating,
        rd: 200.0,
        volatility: 0.06,
        plays,
    }
}

fn attempt(player: &str, puzzle: &str, variant: &str, solved: bool, after: f64) -> Write {
    Write::PuzzleAttempt(PuzzleAttempt {
        player: player.into(),
        puzzle: puzzle.into(),
        variant: variant.into(),
        solved,
        at_ms: 1_700_000_000_000,
        player_after: glicko(after, 1),
        puzzle_after: glicko(3000.0 - after, 1),
    })
}

pub(crate) async fn a_puzzle_attempt_is_rated_once(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        attempt("p1", "connect4-0001", "connect4", true, 1600.0),
    )
    .await;
    // The same puzzle again: nothing changes, ratings included.
    write(
        &store,
        attempt("p1", "connect4-0001", "connect4", false, 1400.0),
    )
    .await;
    write(
        &store,
        attempt("p1", "othello-0002", "othello", false, 1450.0),
    )
    .await;
    write(
        &store,
        attempt("p2", "connect4-0001", "connect4", false, 1480.0),
    )
    .await;

    let store = b.open().await;
    let mine = store.puzzle_player("p1").await.expect("the read works");
    assert_eq!(
        mine,
        [
            ("connect4".to_string(), glicko(1600.0, 1)),
            ("othello".to_string(), glicko(1450.0, 1)),
        ]
    );
    assert_eq!(
        store.puzzles_tried("p1", "connect4").await.unwrap(),
        ["connect4-0001"]
    );
    assert!(store
        .puzzles_tried("p3", "connect4")
        .await
        .unwrap()
        .is_empty());
    // The puzzle's rating is the last rated attempt's (p2's).
    assert_eq!(
        store.puzzle_ratings("connect4").await.unwrap(),
        [("connect4-0001".to_string(), glicko(1520.0, 1))]
    );
    assert_eq!(store.puzzle_ratings("othello").await.unwrap().len(), 1);
    assert!(store
        .puzzle_ratings("gomoku-renju")
        .await
        .unwrap()
        .is_empty());
}
