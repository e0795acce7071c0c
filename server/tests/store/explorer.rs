//! The contract's checks of the opening explorer's index: a finished game of a kept variant is
//! indexed with its end, once, by position (move orders that meet count together), in its
//! bucket; an aborted game or a board the explorer does not keep is not; a room that ended
//! before the index existed is indexed on request, once.

use kibitz_server::explorer::{self, buckets, ExplorerMove};

use super::*;

/// Plays `moves` in a new rated room `id` between p1 (black) and p2 (white), ended by `result`.
async fn finished(store: &Store, id: &str, moves: &str, result: Option<ResultKind>) {
    let mut r = rated_room(id, ("p1", "Ann", false), ("p2", "Ben", false));
    r.head.rated = false;
    write(store, Write::NewRoom(Box::new(r))).await;
    let mut played = change(id, 2);
    played.moves = moves
        .split(' ')
        .enumerate()
        .map(|(i, m)| {
            mv(
                i,
                m,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                i as u64 + 1,
            )
        })
        .collect();
    write(store, Write::Room(played)).await;
    end(store, id, result).await;
}

async fn look_up(store: &Store, moves: &str, rated: Option<bool>) -> Vec<ExplorerMove> {
    let spec = explorer::spec_of("gomoku-freestyle").unwrap();
    let moves: Vec<&str> = moves.split(' ').filter(|m| !m.is_empty()).collect();
    let pos = game_core::AnyPosition::with_moves(&spec, &moves).unwrap();
    store
        .explorer(
            "gomoku-freestyle",
            &explorer::position_key(&pos),
            buckets(rated, None),
            10,
        )
        .await
        .expect("the look-up works")
}

fn line(m: &ExplorerMove) -> (&str, i64, i64, i64, i64) {
    (
        m.mv.as_str(),
        m.games,
        m.outcome.black_wins,
        m.outcome.draws,
        m.outcome.white_wins,
    )
}

pub(crate) async fn a_finished_game_is_indexed_by_position_once(b: &impl Backend) {
    let store = b.open().await;
    finished(&store, "g1", "h8 h9 i8 i9", Some(ResultKind::Black)).await;
    finished(&store, "g2", "i8 i9 h8 h9 j8", Some(ResultKind::White)).await;
    finished(&store, "g3", "h8 g7", Some(ResultKind::Draw)).await;
    finished(&store, "aborted", "h8 h9", None).await;
    // The same end stored again adds nothing.
    end(&store, "g1", Some(ResultKind::Black)).await;

    let first = look_up(&store, "", None).await;
    assert_eq!(
        first.iter().map(line).collect::<Vec<_>>(),
        [("h8", 2, 1, 1, 0), ("i8", 1, 0, 0, 1)]
    );
    let after_h8 = look_up(&store, "h8", None).await;
    assert_eq!(
        after_h8.iter().map(line).collect::<Vec<_>>(),
        [("g7", 1, 0, 1, 0), ("h9", 1, 1, 0, 0)]
    );
    // h8 h9 i8 i9 and i8 i9 h8 h9 meet: j8 was played from where g1 went on with nothing.
    let met = look_up(&store, "h8 h9 i8 i9", None).await;
    assert_eq!(
        met.iter().map(line).collect::<Vec<_>>(),
        [("j8", 1, 0, 0, 1)]
    );
    // None of them was rated: the rated bucket is empty.
    assert!(look_up(&store, "", Some(true)).await.is_empty());
    assert_eq!(look_up(&store, "", Some(false)).await.len(), 2);
    assert_eq!(first[0].rated_players, 0);
}

/// A room stored already over (as a store of an earlier version holds it, before the index
/// existed) is found unindexed, indexed by `IndexEnded` once, and then no longer found.
pub(crate) async fn a_room_that_ended_before_the_index_is_indexed_on_request(b: &impl Backend) {
    let store = b.open().await;
    let mut old = rated_room("old", ("p1", "Ann", false), ("p2", "Ben", false));
    old.head.rated = false;
    old.status = RoomStatus::Over;
    old.result = Some(GameResult {
        result: ResultKind::White,
        reason: EndReason::Resign,
        line: None,
        score: None,
    });
    old.moves = vec![mv(0, "h8", Color::Black, 1), mv(1, "h9", Color::White, 2)];
    write(&store, Write::NewRoom(Box::new(old))).await;
    let mut aborted = rated_room("aborted", ("p1", "Ann", false), ("p2", "Ben", false));
    aborted.status = RoomStatus::Over;
    write(&store, Write::NewRoom(Box::new(aborted))).await;

    let mut waiting = store.unindexed_ended(10).await.expect("the read works");
    waiting.sort();
    assert_eq!(waiting, ["aborted", "old"]);
    for room in waiting {
        write(&store, Write::IndexEnded { room: room.clone() }).await;
        write(&store, Write::IndexEnded { room }).await;
    }
    assert!(store.unindexed_ended(10).await.unwrap().is_empty());
    let first = look_up(&store, "", None).await;
    assert_eq!(
        first.iter().map(line).collect::<Vec<_>>(),
        [("h8", 1, 0, 0, 1)]
    );
}

/// A game played from an opening rule is indexed under `<key>@<rule>`, from its stones: the
/// rule's decisions leave only the stones they placed.
pub(crate) async fn a_game_from_an_opening_rule_is_indexed_under_its_rule(b: &impl Backend) {
    let store = b.open().await;
    let mut r = rated_room("soosorv", ("p1", "Ann", false), ("p2", "Ben", false));
    r.head.rated = false;
    r.head.opening = Vec::new();
    r.head.game =
        GameSpec::gomoku_with_opening(15, GomokuRule::Renju, game_core::OpeningRule::Soosorv8);
    write(&store, Write::NewRoom(Box::new(r))).await;
    let steps = [
        "h8",
        "i9",
        "j10",
        "swap",
        "g7",
        "declare 2",
        "stay",
        "fifths k5,e12",
        "choose e12",
        "a1",
    ];
    let mut played = change("soosorv", 2);
    played.moves = steps
        .iter()
        .enumerate()
        .map(|(i, m)| {
            mv(
                i,
                m,
                if i % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                i as u64 + 1,
            )
        })
        .collect();
    write(&store, Write::Room(played)).await;
    end(&store, "soosorv", Some(ResultKind::Black)).await;
    let spec = explorer::spec_of("gomoku-renju@soosorv8").unwrap();
    let look = |moves: &[&str]| {
        let pos = game_core::AnyPosition::with_moves(&spec, moves).unwrap();
        let key = explorer::position_key(&pos);
        let store = store.clone();
        async move {
            store
                .explorer("gomoku-renju@soosorv8", &key, buckets(None, None), 10)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        look(&[]).await.iter().map(line).collect::<Vec<_>>(),
        [("h8", 1, 1, 0, 0)]
    );
    let fifth = look(&["h8", "i9", "j10", "g7"]).await;
    assert_eq!(
        fifth.iter().map(line).collect::<Vec<_>>(),
        [("e12", 1, 1, 0, 0)]
    );
    // Not under the plain renju board's variant.
    let plain = game_core::AnyPosition::new(&spec).unwrap();
    let none = store
        .explorer(
            "gomoku-renju",
            &explorer::position_key(&plain),
            buckets(None, None),
            10,
        )
        .await
        .unwrap();
    assert!(none.is_empty());
}
