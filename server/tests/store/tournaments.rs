//! The contract's checks of tournaments: documents stored whole, listed, edited only over
//! the document an edit was made from.

use super::*;

pub(crate) fn tournament(id: &str, status: &str, created_ms: u64, doc: &str) -> StoredTournament {
    StoredTournament {
        id: id.into(),
        status: status.into(),
        created_ms,
        doc: doc.into(),
    }
}

pub(crate) async fn a_tournament_document_is_stored_and_replaced_whole(b: &impl Backend) {
    let store = b.open().await;
    let open = tournament("t1", "open", 1_700_000_000_000, r#"{"players":[]}"#);
    write(&store, Write::Tournament(open.clone())).await;
    let read =
        |store: Store| async move { store.read_tournament("t1").await.expect("the read works") };
    assert_eq!(read(store.clone()).await, Some(open));
    // A later write replaces the status and the document; the creation time stays.
    let running = tournament("t1", "running", 1_800_000_000_000, r#"{"players":["é ✓"]}"#);
    write(&store, Write::Tournament(running)).await;
    let expected = tournament("t1", "running", 1_700_000_000_000, r#"{"players":["é ✓"]}"#);
    assert_eq!(read(store.clone()).await, Some(expected.clone()));
    assert_eq!(
        store.read_tournament("t2").await.expect("the read works"),
        None
    );
    // Durable: another opening of the store reads the same.
    drop(store);
    assert_eq!(read(b.open().await).await, Some(expected));
}

pub(crate) async fn tournaments_are_listed_newest_first_and_the_running_ones_found(
    b: &impl Backend,
) {
    let store = b.open().await;
    for (id, status, created) in [
        ("old", "over", 1_000),
        ("new", "running", 3_000),
        ("mid", "open", 2_000),
        ("run", "running", 1_500),
    ] {
        write(
            &store,
            Write::Tournament(tournament(id, status, created, "{}")),
        )
        .await;
    }
    let ids = |list: Vec<StoredTournament>| list.into_iter().map(|t| t.id).collect::<Vec<_>>();
    let newest = store.list_tournaments(3).await.expect("the read works");
    assert_eq!(ids(newest), ["new", "mid", "run"]);
    let all = store.list_tournaments(10).await.expect("the read works");
    assert_eq!(ids(all), ["new", "mid", "run", "old"]);
    let running = store.running_tournaments().await.expect("the read works");
    assert_eq!(ids(running), ["run", "new"], "oldest first");
    // One ends: it is no longer running.
    write(
        &store,
        Write::Tournament(tournament("run", "over", 1_500, "{}")),
    )
    .await;
    let running = store.running_tournaments().await.expect("the read works");
    assert_eq!(ids(running), ["new"]);
}

pub(crate) async fn an_edit_of_a_tournament_is_stored_only_over_the_document_it_was_made_from(
    b: &impl Backend,
) {
    let store = b.open().await;
    let open = tournament("t1", "open", 1_000, r#"{"players":[]}"#);
    write(&store, Write::Tournament(open)).await;
    // Two edits made from the same document: the first is stored, the second refused whole.
    let alice = tournament("t1", "open", 1_000, r#"{"players":["alice"]}"#);
    let bob = tournament("t1", "open", 1_000, r#"{"players":["bob"]}"#);
    let first = Write::TournamentEdit {
        before: r#"{"players":[]}"#.into(),
        after: alice.clone(),
    };
    let second = Write::TournamentEdit {
        before: r#"{"players":[]}"#.into(),
        after: bob,
    };
    let (first, second) = tokio::join!(store.write(first), store.write(second));
    assert!(first.is_ok(), "{first:?}");
    assert!(
        matches!(second, Err(StoreError::Edited(ref id)) if id == "t1"),
        "{second:?}"
    );
    assert_eq!(
        store.read_tournament("t1").await.expect("the read works"),
        Some(alice)
    );
    // Made again from the stored document, it is stored.
    let both = tournament("t1", "running", 1_000, r#"{"players":["alice","bob"]}"#);
    let again = Write::TournamentEdit {
        before: r#"{"players":["alice"]}"#.into(),
        after: both.clone(),
    };
    write(&store, again).await;
    assert_eq!(
        store.read_tournament("t1").await.expect("the read works"),
        Some(both)
    );
    // A tournament that was never stored has nothing to edit.
    let missing = Write::TournamentEdit {
        before: "{}".into(),
        after: tournament("t9", "open", 1_000, "{}"),
    };
    assert!(matches!(
        store.write(missing).await,
        Err(StoreError::Edited(_))
    ));
}
