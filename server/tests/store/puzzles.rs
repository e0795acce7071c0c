//! The contract's checks of puzzle ratings: an account's first attempt at a puzzle stores the
//! attempt and both ratings; a second attempt at the same puzzle changes nothing; the reads
//! give each variant's puzzles, a player's ratings and the puzzles he tried; and all of it is
//! still there when the store is opened again. A puzzle of the hall's games is stored once by
//! its id and read back by when it was stored.

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

/// A shipped puzzle, as the hall's `id` would be made of another position.
fn hall_puzzle(id: &str, room: &str) -> game_core::puzzle::Puzzle {
    let set = kibitz_server::puzzles::PuzzleSet::shipped();
    let mut p = (**set.of_variant("connect4", None)[0]).clone();
    p.id = id.into();
    p.source = Some(game_core::puzzle::PuzzleSource {
        room: room.into(),
        ply: 12,
    });
    p
}

pub(crate) async fn a_hall_puzzle_is_stored_once_and_read_back(b: &impl Backend) {
    let store = b.open().await;
    let before_ms = now_ms();
    let first = hall_puzzle("connect4-h000000000001", "room-a");
    write(&store, Write::HallPuzzle(Box::new(first.clone()))).await;
    // The same id again (the same position, found in another game): the first stays.
    let again = hall_puzzle("connect4-h000000000001", "room-b");
    write(&store, Write::HallPuzzle(Box::new(again))).await;
    let second = hall_puzzle("connect4-h000000000002", "room-c");
    write(&store, Write::HallPuzzle(Box::new(second.clone()))).await;

    let store = b.open().await;
    let rows = store.hall_puzzles_since(0).await.expect("the read works");
    let puzzles: Vec<_> = rows.iter().map(|(_, p)| p.clone()).collect();
    assert_eq!(puzzles, [first, second]);
    assert!(rows.iter().all(|(made, _)| *made >= before_ms), "{rows:?}");
    let later = rows.iter().map(|(made, _)| made).max().unwrap() + 1;
    assert!(store.hall_puzzles_since(later).await.unwrap().is_empty());
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}
