//! The contract's checks of rooms: seats, moves, event numbers, chat, results, players,
//! failed and fenced writes, reviews.

use super::*;

pub(crate) async fn a_new_room_comes_back_as_written(b: &impl Backend) {
    let store = b.open().await;
    let new = room("r1", RoomStatus::Waiting);
    write(&store, Write::NewRoom(Box::new(new.clone()))).await;
    assert_eq!(read(&store, "r1").await, new);
    assert_eq!(store.read_room("nope").await.expect("the read works"), None);
}

pub(crate) async fn seats_are_taken_and_given_up(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Waiting))),
    )
    .await;
    let mut taken = change("r1", 0);
    taken.seats.push((Color::White, Some(seat("Bob"))));
    write(&store, Write::Room(taken)).await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.black, Some(seat("Alice")));
    assert_eq!(stored.white, Some(seat("Bob")));
    let mut left = change("r1", 0);
    left.seats.push((Color::Black, None));
    write(&store, Write::Room(left)).await;
    let stored = read(&store, "r1").await;
    assert_eq!((stored.black, stored.white), (None, Some(seat("Bob"))));
}

pub(crate) async fn moves_are_appended_and_truncated(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let played = [
        mv(0, "a1", Color::Black, 1),
        mv(1, "b1", Color::White, 2),
        mv(2, "c1", Color::Black, 3),
    ];
    let mut first = change("r1", 1);
    first.moves.push(played[0].clone());
    write(&store, Write::Room(first)).await;
    let mut two = change("r1", 3);
    two.moves.extend_from_slice(&played[1..]);
    write(&store, Write::Room(two)).await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, played);
    assert_eq!(stored.seq, 3);

    // An undo keeps the first move, and a new one takes the freed place.
    let mut undo = change("r1", 4);
    undo.truncate = Some(1);
    write(&store, Write::Room(undo)).await;
    assert_eq!(read(&store, "r1").await.moves, played[..1]);
    let again = mv(1, "d1", Color::White, 5);
    let mut next = change("r1", 5);
    next.moves.push(again.clone());
    write(&store, Write::Room(next)).await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, [played[0].clone(), again]);
    assert_eq!(stored.seq, 5);
}

/// A change that only appends moves may leave the room's own row alone; its event number
/// still comes back, as does that of a change whose last event is not a move, and a change
/// for a room that does not exist is refused either way.
pub(crate) async fn the_event_number_comes_back_after_any_change(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let mut moved = change("r1", 4);
    moved.moves.push(mv(0, "a1", Color::Black, 4));
    write(&store, Write::Room(moved)).await;
    assert_eq!(read(&store, "r1").await.seq, 4);
    // A move followed by another event (a chat line) in the same change.
    let mut moved_and_said = change("r1", 6);
    moved_and_said.moves.push(mv(1, "b1", Color::White, 5));
    moved_and_said.chat = Some(line("good move", Some(Color::White)));
    write(&store, Write::Room(moved_and_said)).await;
    assert_eq!(read(&store, "r1").await.seq, 6);

    let mut lost = change("nowhere", 1);
    lost.moves.push(mv(0, "a1", Color::Black, 1));
    let refused = store.write(Write::Room(lost)).await;
    assert!(refused.is_err(), "a move for an unknown room is refused");
    assert!(store.read_room("nowhere").await.unwrap().is_none());
}

pub(crate) async fn chat_lines_are_kept_in_order(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let lines = [line("gl hf", Some(Color::Black)), line("who wins?", None)];
    for (i, l) in lines.iter().enumerate() {
        let mut said = change("r1", 1 + i as u64);
        said.chat = Some(l.clone());
        write(&store, Write::Room(said)).await;
    }
    assert_eq!(store.read_chat("r1").await.expect("the read works"), lines);
    assert_eq!(store.read_chat("r2").await.expect("the read works"), []);
}

pub(crate) async fn the_status_and_result_are_stored(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Waiting))),
    )
    .await;
    let mut start = change("r1", 0);
    start.status = Some((RoomStatus::Playing, None));
    write(&store, Write::Room(start)).await;
    assert_eq!(read(&store, "r1").await.status, RoomStatus::Playing);
    let mut end = change("r1", 7);
    end.status = Some((RoomStatus::Over, Some(win(EndReason::Resign))));
    write(&store, Write::Room(end)).await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.status, RoomStatus::Over);
    assert_eq!(stored.result, Some(win(EndReason::Resign)));
    assert_eq!(stored.seq, 7);
}

/// A person and a bot.
fn two_players() -> [StoredPlayer; 2] {
    [
        StoredPlayer {
            id: "p1".into(),
            name: "Alice".into(),
            token_hash: "hash-1".into(),
            bot: false,
        },
        StoredPlayer {
            id: "p2".into(),
            name: "Kibot".into(),
            token_hash: "hash-2".into(),
            bot: true,
        },
    ]
}

pub(crate) async fn players_are_stored_and_renamed(b: &impl Backend) {
    let store = b.open().await;
    let [alice, kibot] = two_players();
    write(&store, Write::Player(alice.clone())).await;
    write(&store, Write::Player(kibot.clone())).await;
    let renamed = StoredPlayer {
        name: "Alicia".into(),
        ..alice
    };
    write(&store, Write::Player(renamed.clone())).await;
    let mut players = store.load_players().await.expect("the read works");
    players.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!(players, [renamed, kibot]);
}

pub(crate) async fn only_unfinished_rooms_are_loaded_at_start(b: &impl Backend) {
    let store = b.open().await;
    for (id, status) in [
        ("waiting", RoomStatus::Waiting),
        ("playing", RoomStatus::Playing),
        ("over", RoomStatus::Over),
    ] {
        write(&store, Write::NewRoom(Box::new(room(id, status)))).await;
    }
    let mut ids: Vec<String> = store
        .load_unfinished()
        .await
        .expect("the read works")
        .into_iter()
        .map(|r| r.head.id)
        .collect();
    ids.sort();
    assert_eq!(ids, ["playing", "waiting"]);
    // Their ids alone, as a cluster node lists them to find rooms no node owns.
    let mut listed = store.unfinished_ids().await.expect("the read works");
    listed.sort();
    assert_eq!(listed, ids);
}

pub(crate) async fn a_move_and_the_result_it_brings_are_durable_together(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let last = mv(0, "a1", Color::Black, 1);
    let mut ending = change("r1", 2);
    ending.moves.push(last.clone());
    ending.status = Some((RoomStatus::Over, Some(win(EndReason::Five))));
    write(&store, Write::Room(ending)).await;
    drop(store);

    let store = b.open().await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, [last]);
    assert_eq!(stored.status, RoomStatus::Over);
    assert_eq!(stored.result, Some(win(EndReason::Five)));
    assert_eq!(stored.seq, 2);
}

pub(crate) async fn a_failed_write_stores_none_of_its_parts(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let first = mv(0, "a1", Color::Black, 1);
    let mut played = change("r1", 1);
    played.moves.push(first.clone());
    write(&store, Write::Room(played)).await;

    // The same ply again cannot be stored: the result beside it is not stored either.
    let mut clash = change("r1", 3);
    clash.moves.push(mv(0, "b1", Color::Black, 2));
    clash.status = Some((RoomStatus::Over, Some(win(EndReason::Five))));
    clash.chat = Some(line("gg", Some(Color::Black)));
    assert!(store.write(Write::Room(clash)).await.is_err());
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, [first]);
    assert_eq!(
        (stored.status, stored.result, stored.seq),
        (RoomStatus::Playing, None, 1)
    );
    assert_eq!(store.read_chat("r1").await.expect("the read works"), []);

    // A change of a room that was never stored fails whole as well.
    let mut stray = change("ghost", 1);
    stray.moves.push(mv(0, "a1", Color::Black, 1));
    assert!(store.write(Write::Room(stray)).await.is_err());
    assert_eq!(
        store.read_room("ghost").await.expect("the read works"),
        None
    );

    // And the store goes on.
    let mut next = change("r1", 2);
    next.moves.push(mv(1, "b1", Color::White, 2));
    write(&store, Write::Room(next)).await;
    assert_eq!(read(&store, "r1").await.moves.len(), 2);
}

pub(crate) async fn a_flush_returns_once_every_queued_write_is_durable(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    let writers: Vec<_> = (0..20)
        .map(|i| {
            let store = store.clone();
            let mut said = change("r1", 1);
            said.chat = Some(line(&format!("line {i}"), None));
            tokio::spawn(async move { store.write(Write::Room(said)).await })
        })
        .collect();
    for w in writers {
        w.await
            .expect("the writer ran")
            .expect("the line is stored");
    }
    store.flush().await;
    assert!(store.write(Write::Barrier).await.is_ok());
    drop(store);
    let store = b.open().await;
    let chat = store.read_chat("r1").await.expect("the read works");
    assert_eq!(chat.len(), 20);
}

/// Writes queued together share a transaction; one of them failing fails alone: the others
/// are stored and answered as stored, the failed one leaves nothing behind.
pub(crate) async fn a_failed_write_among_many_fails_alone(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    // Queued all at once so that the writer takes them in shared batches.
    let writes: Vec<_> = (0..40)
        .map(|i| {
            let mut said = change(if i == 20 { "ghost" } else { "r1" }, 1);
            said.chat = Some(line(&format!("line {i}"), None));
            store.write(Write::Room(said))
        })
        .collect();
    let results = futures::future::join_all(writes).await;
    for (i, result) in results.iter().enumerate() {
        assert_eq!(result.is_err(), i == 20, "write {i}: {result:?}");
    }
    let chat = store.read_chat("r1").await.expect("the read works");
    assert_eq!(chat.len(), 39);
    assert!(chat.iter().all(|l| l.text != "line 20"));
}

/// A review is stored with its room, read back after a restart, and replaced by a newer one;
/// a room without one reads as none.
pub(crate) async fn a_review_is_kept_with_its_room(b: &impl Backend) {
    use game_core::protocol::{Review, ReviewMark, ReviewPly};
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Over))),
    )
    .await;
    assert_eq!(store.read_review("r1").await.expect("the read works"), None);
    let mut review = Review {
        from: 0,
        plies: vec![ReviewPly {
            eval: -420,
            proven: false,
            win_in: None,
            best: "h8".to_string(),
            pv: vec!["h8".to_string(), "i9".to_string()],
            played: "a1".to_string(),
            mark: Some(ReviewMark::Mistake),
        }],
        by: "Kibot".to_string(),
        made_ms: 1_700_000_000_000,
    };
    let put = |review: &Review| Write::Review {
        room: "r1".to_string(),
        review: Box::new(review.clone()),
    };
    write(&store, put(&review)).await;
    store.flush().await;
    drop(store);
    let store = b.open().await;
    let back = store.read_review("r1").await.expect("the read works");
    assert_eq!(back.as_ref(), Some(&review));
    review.by = "Other".to_string();
    review.plies[0].mark = None;
    write(&store, put(&review)).await;
    assert_eq!(
        store.read_review("r1").await.expect("the read works"),
        Some(review)
    );
    assert_eq!(store.read_review("r2").await.expect("the read works"), None);
}

/// A room made under an owner's fence keeps it: read alone and loaded at start.
pub(crate) async fn a_rooms_fence_comes_back_with_it(b: &impl Backend) {
    let store = b.open().await;
    let owned = StoredRoom {
        fence: 5,
        ..room("owned", RoomStatus::Playing)
    };
    write(&store, Write::NewRoom(Box::new(owned.clone()))).await;
    write(
        &store,
        Write::NewRoom(Box::new(room("single", RoomStatus::Waiting))),
    )
    .await;
    assert_eq!(read(&store, "owned").await, owned);
    assert_eq!(read(&store, "single").await.fence, 0);
    drop(store);
    let store = b.open().await;
    let mut loaded: Vec<(String, u64)> = store
        .load_unfinished()
        .await
        .expect("the read works")
        .into_iter()
        .map(|r| (r.head.id, r.fence))
        .collect();
    loaded.sort();
    assert_eq!(
        loaded,
        [("owned".to_string(), 5), ("single".to_string(), 0)]
    );
}

pub(crate) fn claim(room: &str, fence: u64) -> Write {
    Write::Claim {
        room: room.to_string(),
        fence,
    }
}

/// A claim raises a room's fence (the same one again is the same owner); an older one is
/// refused and changes nothing; a room not stored cannot be claimed.
pub(crate) async fn a_claim_raises_the_fence_and_never_lowers_it(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    write(&store, claim("r1", 3)).await;
    assert_eq!(read(&store, "r1").await.fence, 3);
    write(&store, claim("r1", 3)).await;
    assert_eq!(read(&store, "r1").await.fence, 3);

    let refused = store.write(claim("r1", 2)).await;
    assert!(
        matches!(
            &refused,
            Err(StoreError::Fenced { room, stored: 3, fence: 2 }) if room == "r1"
        ),
        "{refused:?}"
    );
    let e = refused.unwrap_err().to_string();
    assert!(e.contains("r1") && e.contains("fencing token"), "{e}");
    assert_eq!(read(&store, "r1").await.fence, 3);

    let unknown = store.write(claim("ghost", 1)).await;
    assert!(
        matches!(&unknown, Err(StoreError::NoSuchRoom(room)) if room == "ghost"),
        "{unknown:?}"
    );
    assert_eq!(
        store.read_room("ghost").await.expect("the read works"),
        None
    );
}

/// A change made under a fence the room no longer has is refused whole, whether it only adds
/// a move or ends the game; under the room's fence it is stored, and unfenced (0) always.
pub(crate) async fn a_change_under_an_old_fence_stores_nothing(b: &impl Backend) {
    let store = b.open().await;
    let owned = StoredRoom {
        fence: 1,
        ..room("r1", RoomStatus::Playing)
    };
    write(&store, Write::NewRoom(Box::new(owned))).await;
    let first = mv(0, "a1", Color::Black, 1);
    let mut played = change("r1", 1);
    played.moves.push(first.clone());
    played.fence = 1;
    write(&store, Write::Room(played)).await;
    write(&store, claim("r1", 2)).await;

    let fenced_off = |result: Result<(), StoreError>| {
        assert!(
            matches!(
                result,
                Err(StoreError::Fenced {
                    stored: 2,
                    fence: 1,
                    ..
                })
            ),
            "{result:?}"
        )
    };
    let mut only_a_move = change("r1", 2);
    only_a_move.moves.push(mv(1, "b1", Color::White, 2));
    only_a_move.fence = 1;
    fenced_off(store.write(Write::Room(only_a_move)).await);
    let mut ending = change("r1", 3);
    ending.moves.push(mv(1, "b1", Color::White, 2));
    ending.status = Some((RoomStatus::Over, Some(win(EndReason::Five))));
    ending.chat = Some(line("gg", Some(Color::White)));
    ending.seats.push((Color::White, Some(seat("Bob"))));
    ending.fence = 1;
    fenced_off(store.write(Write::Room(ending)).await);
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, std::slice::from_ref(&first));
    assert_eq!(
        (stored.status, stored.result, stored.seq, stored.white),
        (RoomStatus::Playing, None, 1, None)
    );
    assert_eq!(stored.fence, 2);
    assert_eq!(store.read_chat("r1").await.expect("the read works"), []);

    // A fence above the room's is not its owner's either (not yet claimed).
    let mut early = change("r1", 2);
    early.chat = Some(line("too soon", None));
    early.fence = 3;
    let refused = store.write(Write::Room(early)).await;
    assert!(
        matches!(
            refused,
            Err(StoreError::Fenced {
                stored: 2,
                fence: 3,
                ..
            })
        ),
        "{refused:?}"
    );

    let second = mv(1, "b1", Color::White, 2);
    let mut current = change("r1", 2);
    current.moves.push(second.clone());
    current.fence = 2;
    write(&store, Write::Room(current)).await;
    let mut unfenced = change("r1", 4);
    unfenced.status = Some((RoomStatus::Over, Some(win(EndReason::Resign))));
    write(&store, Write::Room(unfenced)).await;
    let stored = read(&store, "r1").await;
    assert_eq!(stored.moves, [first, second]);
    assert_eq!((stored.status, stored.seq), (RoomStatus::Over, 4));
    assert_eq!(stored.fence, 2, "a change never moves the fence");

    // A fenced change of a room not stored is still that.
    let mut stray = change("ghost", 1);
    stray.fence = 2;
    let refused = store.write(Write::Room(stray)).await;
    assert!(
        matches!(&refused, Err(StoreError::NoSuchRoom(room)) if room == "ghost"),
        "{refused:?}"
    );
}

/// A rematch whose change of the old room is fenced off stores neither the new room nor the
/// link; under the old room's fence both are stored, the new room under its own fence.
pub(crate) async fn a_fenced_off_rematch_stores_neither_room_nor_change(b: &impl Backend) {
    let store = b.open().await;
    let old = StoredRoom {
        fence: 2,
        ..room("r1", RoomStatus::Over)
    };
    write(&store, Write::NewRoom(Box::new(old))).await;
    let rematch = |fence: u64| {
        let mut link = change("r1", 9);
        link.rematch_next = Some("r2".to_string());
        link.rematch_asks = Some([true, true]);
        link.fence = fence;
        Write::Rematch {
            next: Box::new(StoredRoom {
                fence: 2,
                ..room("r2", RoomStatus::Playing)
            }),
            change: link,
        }
    };
    let refused = store.write(rematch(1)).await;
    assert!(
        matches!(
            refused,
            Err(StoreError::Fenced {
                stored: 2,
                fence: 1,
                ..
            })
        ),
        "{refused:?}"
    );
    assert_eq!(store.read_room("r2").await.expect("the read works"), None);
    let link = store
        .read_rematch("r1")
        .await
        .expect("the read works")
        .expect("the old room is stored");
    assert_eq!((link.next, link.asked), (None, [false, false]));
    assert_eq!(read(&store, "r1").await.seq, 0);

    write(&store, rematch(2)).await;
    assert_eq!(read(&store, "r2").await.fence, 2);
    let link = store
        .read_rematch("r1")
        .await
        .expect("the read works")
        .expect("the old room is stored");
    assert_eq!(link.next.as_deref(), Some("r2"));
}

/// Writes queued together share a transaction: one fenced off among them fails alone, with
/// its refusal, and the others are stored.
pub(crate) async fn a_fenced_write_among_many_fails_alone(b: &impl Backend) {
    let store = b.open().await;
    write(
        &store,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Playing))),
    )
    .await;
    write(&store, claim("r1", 2)).await;
    let writes: Vec<_> = (0..40)
        .map(|i| {
            let mut said = change("r1", 1);
            said.chat = Some(line(&format!("line {i}"), None));
            said.fence = if i == 20 { 1 } else { 2 };
            store.write(Write::Room(said))
        })
        .collect();
    let answers = futures::future::join_all(writes).await;
    all_lines_but_20_are_stored(&store, answers).await;
}

/// The answers to lines 0 to 39 of room `r1`, written under its fence 2 but line 20 under 1:
/// only line 20 was refused (fenced off), and every other line is stored.
pub(crate) async fn all_lines_but_20_are_stored(
    store: &Store,
    answers: Vec<Result<(), StoreError>>,
) {
    assert_eq!(answers.len(), 40);
    for (i, answer) in answers.iter().enumerate() {
        if i == 20 {
            assert!(
                matches!(
                    answer,
                    Err(StoreError::Fenced {
                        stored: 2,
                        fence: 1,
                        ..
                    })
                ),
                "write {i}: {answer:?}"
            );
        } else {
            assert!(answer.is_ok(), "write {i}: {answer:?}");
        }
    }
    let chat = store.read_chat("r1").await.expect("the read works");
    assert_eq!(chat.len(), 39);
    assert!(chat.iter().all(|l| l.text != "line 20"));
}

/// A player is found by the hash of their token, as stored; a hash nobody has finds none.
pub(crate) async fn a_player_is_found_by_their_tokens_hash(b: &impl Backend) {
    let store = b.open().await;
    let [alice, kibot] = two_players();
    write(&store, Write::Player(alice.clone())).await;
    write(&store, Write::Player(kibot.clone())).await;
    let found = |hash: &'static str| {
        let store = store.clone();
        async move { store.player_by_token(hash).await.expect("the read works") }
    };
    assert_eq!(found("hash-1").await, Some(alice));
    assert_eq!(found("hash-2").await, Some(kibot));
    assert_eq!(found("hash-3").await, None);
}
