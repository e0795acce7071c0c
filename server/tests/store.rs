//! The store's contract, written against its interface alone: what any backend must keep and
//! give back. Each check takes a [`Backend`] — something that opens a store on one durable
//! location, as often as asked — and the `suite!`s at the bottom run every check against
//! SQLite in a fresh directory and against PostgreSQL in a fresh database of a real server
//! (`support::postgres`). Below the suites, what only PostgreSQL has: its schema version, and
//! the server going away and coming back.

mod support;

use game_core::protocol::{ClockSpec, GameResult, ResultKind, RoomStatus};
use game_core::{Color, EndReason, GameSpec, GomokuRule};
use kibitz_server::accounts::ratings::{rate_game, Rating, Side};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{
    RoomChange, Store, StoreError, StoredAccount, StoredChat, StoredMove, StoredPlayer, StoredRoom,
    StoredRoomHead, StoredSeat, StoredTournament, Write,
};
use support::postgres::PgServer;

/// Opens a store on one durable location; a second `open` sees what the first wrote.
trait Backend {
    async fn open(&self) -> Store;
}

/// SQLite in a temporary directory.
struct Sqlite(tempfile::TempDir);

impl Sqlite {
    fn new() -> Sqlite {
        Sqlite(tempfile::tempdir().expect("a temporary directory"))
    }
}

impl Backend for Sqlite {
    async fn open(&self) -> Store {
        Store::open_sqlite(self.0.path(), Metrics::new()).expect("open the SQLite store")
    }
}

/// A fresh database on the PostgreSQL server the tests share.
struct Postgres {
    url: String,
}

impl Postgres {
    fn new() -> Postgres {
        Postgres {
            url: PgServer::shared().database(),
        }
    }
}

impl Backend for Postgres {
    async fn open(&self) -> Store {
        Store::open_postgres(&self.url, Metrics::new())
            .await
            .expect("open the PostgreSQL store")
    }
}

fn seat(name: &str) -> StoredSeat {
    StoredSeat {
        player: format!("id-{name}"),
        name: name.to_string(),
        bot: false,
        level: None,
    }
}

fn room(id: &str, status: RoomStatus) -> StoredRoom {
    StoredRoom {
        rating: None,
        head: StoredRoomHead {
            rated: false,
            id: id.to_string(),
            game: GameSpec::gomoku(15, GomokuRule::Renju),
            clock: Some(ClockSpec::Fischer {
                initial_ms: 60_000,
                increment_ms: 2_000,
            }),
            opening: vec!["h8".into(), "h9".into()],
            private: true,
            created_ms: 1_700_000_000_000,
            creator: Some("id-Alice".into()),
        },
        status,
        result: None,
        seq: 0,
        black: Some(seat("Alice")),
        white: None,
        moves: Vec::new(),
        fence: 0,
    }
}

fn mv(ply: usize, text: &str, by: Color, seq: u64) -> StoredMove {
    StoredMove {
        ply,
        mv: text.to_string(),
        by,
        black_ms: Some(59_000 - ply as u64),
        white_ms: Some(58_000),
        at_ms: 1_700_000_000_100 + ply as u64,
        req_id: (by == Color::Black).then(|| format!("req-{ply}")),
        seq,
    }
}

fn line(text: &str, seat: Option<Color>) -> StoredChat {
    StoredChat {
        player: "id-Alice".into(),
        name: "Alice".into(),
        text: text.to_string(),
        seat,
        bot: false,
        at_ms: 1_700_000_000_200,
    }
}

fn change(room: &str, seq: u64) -> RoomChange {
    RoomChange::new(room, seq)
}

async fn write(store: &Store, write: Write) {
    store.write(write).await.expect("the write is stored");
}

/// A PostgreSQL store on `url` holding one new room.
async fn open_postgres_with_room(url: &str, id: &str, status: RoomStatus) -> Store {
    let store = Store::open_postgres(url, Metrics::new())
        .await
        .expect("open the PostgreSQL store");
    write(&store, Write::NewRoom(Box::new(room(id, status)))).await;
    store
}

async fn read(store: &Store, id: &str) -> StoredRoom {
    store
        .read_room(id)
        .await
        .expect("the read works")
        .expect("the room is stored")
}

fn win(reason: EndReason) -> GameResult {
    GameResult {
        result: ResultKind::Black,
        reason,
        line: Some(vec!["a1".into(), "b2".into()]),
        score: None,
    }
}

// ---- the checks -------------------------------------------------------------------------------

async fn a_new_room_comes_back_as_written(b: &impl Backend) {
    let store = b.open().await;
    let new = room("r1", RoomStatus::Waiting);
    write(&store, Write::NewRoom(Box::new(new.clone()))).await;
    assert_eq!(read(&store, "r1").await, new);
    assert_eq!(store.read_room("nope").await.expect("the read works"), None);
}

async fn seats_are_taken_and_given_up(b: &impl Backend) {
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

async fn moves_are_appended_and_truncated(b: &impl Backend) {
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
async fn the_event_number_comes_back_after_any_change(b: &impl Backend) {
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

async fn chat_lines_are_kept_in_order(b: &impl Backend) {
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

async fn the_status_and_result_are_stored(b: &impl Backend) {
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

async fn players_are_stored_and_renamed(b: &impl Backend) {
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

async fn only_unfinished_rooms_are_loaded_at_start(b: &impl Backend) {
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

async fn a_move_and_the_result_it_brings_are_durable_together(b: &impl Backend) {
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

async fn a_failed_write_stores_none_of_its_parts(b: &impl Backend) {
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

async fn a_flush_returns_once_every_queued_write_is_durable(b: &impl Backend) {
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
async fn a_failed_write_among_many_fails_alone(b: &impl Backend) {
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
async fn a_review_is_kept_with_its_room(b: &impl Backend) {
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
async fn a_rooms_fence_comes_back_with_it(b: &impl Backend) {
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

fn claim(room: &str, fence: u64) -> Write {
    Write::Claim {
        room: room.to_string(),
        fence,
    }
}

/// A claim raises a room's fence (the same one again is the same owner); an older one is
/// refused and changes nothing; a room not stored cannot be claimed.
async fn a_claim_raises_the_fence_and_never_lowers_it(b: &impl Backend) {
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
async fn a_change_under_an_old_fence_stores_nothing(b: &impl Backend) {
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
async fn a_fenced_off_rematch_stores_neither_room_nor_change(b: &impl Backend) {
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
async fn a_fenced_write_among_many_fails_alone(b: &impl Backend) {
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
async fn all_lines_but_20_are_stored(store: &Store, answers: Vec<Result<(), StoreError>>) {
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
async fn a_player_is_found_by_their_tokens_hash(b: &impl Backend) {
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

// ---- accounts and ratings ---------------------------------------------------------------------

fn account(player: &str, name: &str, bot: bool) -> StoredAccount {
    StoredAccount {
        player: player.into(),
        name: name.into(),
        password_hash: (!bot).then(|| "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into()),
        bot,
        created_ms: 1_700_000_000_000,
    }
}

fn person(id: &str, name: &str, token_hash: &str) -> StoredPlayer {
    StoredPlayer {
        id: id.into(),
        name: name.into(),
        token_hash: token_hash.into(),
        bot: false,
    }
}

/// A rated Gomoku room between two seated accounts, playing.
fn rated_room(id: &str, black: (&str, &str, bool), white: (&str, &str, bool)) -> StoredRoom {
    let seat = |(player, name, bot): (&str, &str, bool)| StoredSeat {
        player: player.into(),
        name: name.into(),
        bot,
        level: None,
    };
    let mut r = room(id, RoomStatus::Playing);
    r.head.game = GameSpec::gomoku(15, GomokuRule::Freestyle);
    r.head.opening = Vec::new();
    r.head.rated = true;
    r.head.private = false;
    r.black = Some(seat(black));
    r.white = Some(seat(white));
    r
}

/// Ends `room` with `result` (`None`: without one, as an abort).
async fn end(store: &Store, room: &str, result: Option<ResultKind>) {
    let mut over = change(room, 9);
    over.status = Some((
        RoomStatus::Over,
        result.map(|result| GameResult {
            result,
            reason: EndReason::Resign,
            line: None,
            score: None,
        }),
    ));
    write(store, Write::Room(over)).await;
}

async fn accounts_are_unique_by_name_whatever_the_case(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Guest1", "hash-1"))).await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    let taken = store
        .write(Write::NewAccount(account("p3", "ALICE", false)))
        .await;
    assert!(
        matches!(taken, Err(StoreError::NameTaken(ref n)) if n == "ALICE"),
        "{taken:?}"
    );
    let again = store
        .write(Write::NewAccount(account("p1", "Bob", false)))
        .await;
    assert!(matches!(again, Err(StoreError::HasAccount)), "{again:?}");
    let found = store
        .account_by_name("aLiCe")
        .await
        .expect("the read works");
    assert_eq!(found, Some(account("p1", "Alice", false)));
    assert_eq!(store.account_of("p1").await.expect("the read works"), found);
    assert_eq!(store.account_of("p3").await.expect("the read works"), None);
    assert_eq!(
        store.load_accounts().await.expect("the read works").len(),
        1
    );
    // The player goes by the account's name from now on.
    let players = store.load_players().await.expect("the read works");
    assert_eq!(players[0].name, "Alice");
}

async fn a_sign_in_token_finds_the_player_until_it_is_dropped(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Alice", "hash-1"))).await;
    let token = |hash: &str| Write::Token {
        token_hash: hash.into(),
        player: "p1".into(),
    };
    write(&store, token("hash-2")).await;
    let found = store
        .player_by_token("hash-2")
        .await
        .expect("the read works");
    assert_eq!(found.map(|p| p.id), Some("p1".to_string()));
    let drop = |hash: &str| Write::DropToken {
        token_hash: hash.into(),
        replacement: format!("{hash}-gone"),
    };
    write(&store, drop("hash-2")).await;
    assert_eq!(
        store
            .player_by_token("hash-2")
            .await
            .expect("the read works"),
        None
    );
    // The first token, kept with the player, is dropped too; the player stays.
    write(&store, drop("hash-1")).await;
    assert_eq!(
        store
            .player_by_token("hash-1")
            .await
            .expect("the read works"),
        None
    );
    assert_eq!(store.load_players().await.expect("the read works").len(), 1);
}

async fn a_rated_game_is_rated_with_its_end(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    write(&store, Write::NewAccount(account("p2", "Bob", false))).await;
    let alice = ("p1", "Alice", false);
    let bob = ("p2", "Bob", false);
    write(
        &store,
        Write::NewRoom(Box::new(rated_room("r1", alice, bob))),
    )
    .await;
    end(&store, "r1", Some(ResultKind::Black)).await;
    let stored = read(&store, "r1").await;
    assert!(stored.head.rated);
    let outcome = stored.rating.clone().expect("the game was rated");
    let start = Side {
        rating: Rating::start(false),
        bot: false,
    };
    let (black, white) = rate_game(start, start, 1.0);
    let sides: Vec<_> = outcome
        .changes
        .iter()
        .map(|c| (c.color, c.name.as_str(), c.before, c.after, c.provisional))
        .collect();
    assert_eq!(
        sides,
        [
            (
                Color::Black,
                "Alice",
                1500,
                black.rating.round() as i32,
                true
            ),
            (Color::White, "Bob", 1500, white.rating.round() as i32, true),
        ]
    );
    // A rated room ended without a result (aborted) rates nothing.
    write(
        &store,
        Write::NewRoom(Box::new(rated_room("r2", bob, alice))),
    )
    .await;
    end(&store, "r2", None).await;
    assert_eq!(read(&store, "r2").await.rating, None);
    // An end stored again rates nothing more.
    end(&store, "r1", Some(ResultKind::White)).await;
    assert_eq!(read(&store, "r1").await.rating, Some(outcome.clone()));
    // A private room's link is its secret: it is on no player's page.
    let mut secret = rated_room("r3", alice, bob);
    secret.head.private = true;
    write(&store, Write::NewRoom(Box::new(secret))).await;

    let board = store
        .leaderboard("gomoku-freestyle", false, 10)
        .await
        .expect("the read works");
    let names: Vec<_> = board.iter().map(|l| (l.name.as_str(), l.games)).collect();
    assert_eq!(names, [("Alice", 1), ("Bob", 1)]);
    assert!((board[0].rating - black.rating).abs() < 1e-6);
    assert!(store
        .leaderboard("gomoku-freestyle", true, 10)
        .await
        .expect("the read works")
        .is_empty());
    let page = store
        .player_page("ALICE", 10)
        .await
        .expect("the read works")
        .expect("Alice has a page");
    assert_eq!(
        (page.player.as_str(), page.name.as_str(), page.bot),
        ("p1", "Alice", false)
    );
    let r1 = page
        .games
        .iter()
        .find(|g| g.room == "r1")
        .expect("r1 listed");
    assert_eq!(
        (r1.black_player.as_deref(), r1.white_player.as_deref()),
        (Some("p1"), Some("p2"))
    );
    assert_eq!(page.ratings.len(), 1);
    assert_eq!(page.history.len(), 1);
    assert_eq!(page.history[0].room, "r1");
    let rooms: Vec<_> = page
        .games
        .iter()
        .map(|g| (g.room.as_str(), g.rated))
        .collect();
    assert_eq!(rooms.len(), 2);
    assert!(rooms.contains(&("r1", true)) && rooms.contains(&("r2", true)));
    assert_eq!(
        store
            .player_page("nobody", 10)
            .await
            .expect("the read works"),
        None
    );
}

async fn a_persons_fourth_game_a_day_against_one_bot_is_not_rated(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    write(&store, Write::NewAccount(account("k1", "Kibot", true))).await;
    let alice = ("p1", "Alice", false);
    let kibot = ("k1", "Kibot", true);
    for i in 0..4 {
        let id = format!("g{i}");
        let seats = if i % 2 == 0 {
            (alice, kibot)
        } else {
            (kibot, alice)
        };
        write(
            &store,
            Write::NewRoom(Box::new(rated_room(&id, seats.0, seats.1))),
        )
        .await;
        end(&store, &id, Some(ResultKind::White)).await;
        let outcome = read(&store, &id).await.rating.expect("an outcome");
        if i < 3 {
            assert_eq!(outcome.changes.len(), 2, "game {i}");
        } else {
            assert_eq!(outcome.unrated.as_deref(), Some("repeat"));
            assert!(outcome.changes.is_empty());
        }
    }
    // The first game: Alice lost to the bot, her loss halved.
    let first = read(&store, "g0").await.rating.expect("an outcome");
    let (alice_full, _) = rate_game(
        Side {
            rating: Rating::start(false),
            bot: false,
        },
        Side {
            rating: Rating::start(true),
            bot: false,
        },
        0.0,
    );
    let half = 1500.0 + (alice_full.rating - 1500.0) / 2.0;
    assert_eq!(first.changes[0].after, half.round() as i32);
    assert_eq!(first.changes[1].before, 1800);
    let bots = store
        .leaderboard("gomoku-freestyle", true, 10)
        .await
        .expect("the read works");
    assert_eq!(bots.len(), 1);
    assert_eq!((bots[0].name.as_str(), bots[0].games), ("Kibot", 3));
}

async fn forgetting_players_keeps_those_with_accounts(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Alice", "hash-1"))).await;
    write(&store, Write::Player(person("p3", "Guest3", "hash-3"))).await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    let forget = Write::ForgetPlayers {
        ids: vec!["p1".into(), "p3".into()],
        seen_before_ms: u64::MAX / 2,
    };
    write(&store, forget).await;
    let kept: Vec<_> = store
        .load_players()
        .await
        .expect("the read works")
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(kept, ["p1"]);
}

// ---- tournaments -------------------------------------------------------------------------------

fn tournament(id: &str, status: &str, created_ms: u64, doc: &str) -> StoredTournament {
    StoredTournament {
        id: id.into(),
        status: status.into(),
        created_ms,
        doc: doc.into(),
    }
}

async fn a_tournament_document_is_stored_and_replaced_whole(b: &impl Backend) {
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

async fn tournaments_are_listed_newest_first_and_the_running_ones_found(b: &impl Backend) {
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

async fn an_edit_of_a_tournament_is_stored_only_over_the_document_it_was_made_from(
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

/// One `#[tokio::test]` per check, each on a fresh backend: `suite!(backend)` runs every
/// check of the contract.
macro_rules! suite {
    ($backend:expr) => {
        suite!($backend =>
            a_new_room_comes_back_as_written,
            seats_are_taken_and_given_up,
            moves_are_appended_and_truncated,
            the_event_number_comes_back_after_any_change,
            chat_lines_are_kept_in_order,
            the_status_and_result_are_stored,
            players_are_stored_and_renamed,
            only_unfinished_rooms_are_loaded_at_start,
            a_move_and_the_result_it_brings_are_durable_together,
            a_failed_write_stores_none_of_its_parts,
            a_flush_returns_once_every_queued_write_is_durable,
            a_failed_write_among_many_fails_alone,
            a_review_is_kept_with_its_room,
            a_rooms_fence_comes_back_with_it,
            a_claim_raises_the_fence_and_never_lowers_it,
            a_change_under_an_old_fence_stores_nothing,
            a_fenced_off_rematch_stores_neither_room_nor_change,
            a_fenced_write_among_many_fails_alone,
            a_player_is_found_by_their_tokens_hash,
            accounts_are_unique_by_name_whatever_the_case,
            a_sign_in_token_finds_the_player_until_it_is_dropped,
            a_rated_game_is_rated_with_its_end,
            a_persons_fourth_game_a_day_against_one_bot_is_not_rated,
            forgetting_players_keeps_those_with_accounts,
            a_tournament_document_is_stored_and_replaced_whole,
            tournaments_are_listed_newest_first_and_the_running_ones_found,
            an_edit_of_a_tournament_is_stored_only_over_the_document_it_was_made_from,
        );
    };
    ($backend:expr => $($check:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() {
                super::$check(&$backend).await;
            }
        )*
    };
}

mod sqlite {
    use super::Sqlite;

    suite!(Sqlite::new());
}

mod postgres {
    use super::Postgres;

    suite!(Postgres::new());
}

// ---- PostgreSQL alone ---------------------------------------------------------------------------

/// How long a test waits for the store to come back after its server did (a bound, not a
/// sleep).
const RECONNECT_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

fn error_text(result: Result<Store, kibitz_server::store::StoreError>) -> String {
    match result {
        Ok(_) => panic!("the store opened"),
        Err(e) => e.to_string(),
    }
}

/// The schema version this build migrates to.
const LATEST: &str = "5";

/// What versions 5 (tournaments) and 4 (accounts and ratings) added, dropped to make a
/// database of an older one.
const UNDO_SINCE_V3: &str = "DROP TABLE tournaments; \
    DROP TABLE accounts, tokens, ratings, rating_changes; \
    ALTER TABLE rooms DROP COLUMN rated, DROP COLUMN unrated;";

/// Servers opening a fresh database together create its tables once, and each works.
#[tokio::test]
async fn postgres_servers_opening_one_new_database_together_both_work() {
    let url = PgServer::shared().database();
    let (a, b) = tokio::join!(
        Store::open_postgres(&url, Metrics::new()),
        Store::open_postgres(&url, Metrics::new())
    );
    let (a, b) = (a.expect("the first opens"), b.expect("the second opens"));
    write(
        &a,
        Write::NewRoom(Box::new(room("r1", RoomStatus::Waiting))),
    )
    .await;
    assert_eq!(read(&b, "r1").await.head.id, "r1");
    assert_eq!(
        PgServer::shared().psql(&url, "SELECT version FROM schema_version"),
        LATEST
    );
}

/// A database at schema version 1 (no commit markers, no fences) is migrated in place to the
/// latest version, keeping what it holds, and writes go on.
#[tokio::test]
async fn postgres_migrates_a_version_1_database_in_place() {
    let server = PgServer::shared();
    let url = server.database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Waiting).await;
    drop(store);
    server.psql(
        &url,
        &format!(
            "{UNDO_SINCE_V3} DROP TABLE commits; ALTER TABLE rooms DROP COLUMN fence; \
             UPDATE schema_version SET version = 1"
        ),
    );
    let store = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("a version 1 database opens");
    assert_eq!(
        server.psql(&url, "SELECT version FROM schema_version"),
        LATEST
    );
    write(
        &store,
        Write::NewRoom(Box::new(room("r2", RoomStatus::Waiting))),
    )
    .await;
    assert_eq!(read(&store, "r1").await.head.id, "r1");
    assert_eq!(read(&store, "r2").await.head.id, "r2");
    assert_eq!(server.psql(&url, "SELECT count(*) FROM commits"), "1");
}

/// A database at schema version 2 (no fences) is migrated in place: its rooms are unclaimed
/// (fence 0), and can be claimed and written under their fence.
#[tokio::test]
async fn postgres_migrates_a_version_2_database_to_fenced_rooms() {
    let server = PgServer::shared();
    let url = server.database();
    drop(open_postgres_with_room(&url, "r1", RoomStatus::Playing).await);
    server.psql(
        &url,
        &format!("{UNDO_SINCE_V3} ALTER TABLE rooms DROP COLUMN fence; UPDATE schema_version SET version = 2"),
    );
    let store = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("a version 2 database opens");
    assert_eq!(
        server.psql(&url, "SELECT version FROM schema_version"),
        LATEST
    );
    assert_eq!(read(&store, "r1").await.fence, 0);
    write(&store, claim("r1", 4)).await;
    let mut said = change("r1", 1);
    said.chat = Some(line("still here", None));
    said.fence = 4;
    write(&store, Write::Room(said)).await;
    assert_eq!(read(&store, "r1").await.fence, 4);
    assert_eq!(
        store.read_chat("r1").await.expect("the read works").len(),
        1
    );
}

/// A batch whose transaction fails as it begins (here its commit marker is refused) fails its
/// writes, and the next batch begins afresh rather than inside the aborted transaction.
#[tokio::test]
async fn postgres_a_batch_failing_as_it_begins_leaves_the_next_one_working() {
    let server = PgServer::shared();
    let url = server.database();
    let store = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("open the store");
    server.psql(
        &url,
        "ALTER TABLE commits ADD CONSTRAINT refused CHECK (false) NOT VALID",
    );
    store
        .write(Write::NewRoom(Box::new(room("r1", RoomStatus::Waiting))))
        .await
        .expect_err("no batch can begin");
    server.psql(&url, "ALTER TABLE commits DROP CONSTRAINT refused");
    write(
        &store,
        Write::NewRoom(Box::new(room("r2", RoomStatus::Waiting))),
    )
    .await;
    assert_eq!(
        server.psql(&url, "SELECT string_agg(id, ',') FROM rooms"),
        "r2"
    );
}

/// A database written by a newer build (a higher schema version) is refused, untouched.
#[tokio::test]
async fn postgres_refuses_a_database_of_a_newer_schema() {
    let server = PgServer::shared();
    let url = server.database();
    drop(
        Store::open_postgres(&url, Metrics::new())
            .await
            .expect("a new database opens"),
    );
    server.psql(&url, "UPDATE schema_version SET version = 99");
    let e = error_text(Store::open_postgres(&url, Metrics::new()).await);
    assert!(e.contains("schema version 99"), "{e}");
    assert_eq!(
        server.psql(&url, "SELECT version FROM schema_version"),
        "99"
    );
}

/// A URL of another kind, or a malformed one, or a server nobody answers at, is a clear error.
#[tokio::test]
async fn postgres_bad_urls_and_absent_servers_are_clear_errors() {
    let e = error_text(Store::open_postgres("mysql://localhost/kibitz", Metrics::new()).await);
    assert!(e.contains("postgres://"), "{e}");
    let e = error_text(Store::open_postgres("postgres://[::1/kibitz", Metrics::new()).await);
    assert!(e.starts_with("store URL"), "{e}");
    // A port nothing listens on: bound a moment ago, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let url = format!("postgres://kibitz:secret@127.0.0.1:{port}/kibitz");
    let e = error_text(Store::open_postgres(&url, Metrics::new()).await);
    assert!(
        e.contains(&format!(
            "cannot reach PostgreSQL at 127.0.0.1:{port}/kibitz"
        )),
        "{e}"
    );
    assert!(!e.contains("secret"), "the password is not shown: {e}");
}

/// With the server stopped, writes and reads fail with a clear error and store nothing; once it
/// is back, the store reconnects by itself and goes on.
#[tokio::test]
async fn postgres_writes_fail_while_the_server_is_away_and_resume_when_it_is_back() {
    let server = PgServer::start();
    let url = server.database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Playing).await;
    let said = |text: &str| {
        let mut change = change("r1", 1);
        change.chat = Some(line(text, None));
        Write::Room(change)
    };
    write(&store, said("before")).await;
    assert_eq!(
        store.read_chat("r1").await.expect("the read works").len(),
        1
    );

    server.stop();
    let e = store
        .write(said("while away"))
        .await
        .expect_err("a write fails while the server is away");
    assert!(e.to_string().to_lowercase().contains("postgres"), "{e}");
    assert!(store.read_chat("r1").await.is_err(), "reads fail too");

    server.restart();
    let started = std::time::Instant::now();
    loop {
        match store.write(said("after")).await {
            Ok(()) => break,
            Err(e) => assert!(
                started.elapsed() < RECONNECT_WAIT,
                "the store did not come back: {e}"
            ),
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let texts: Vec<String> = store
        .read_chat("r1")
        .await
        .expect("reads work again")
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(texts, ["before", "after"]);
}

/// The writer's backend ended by the server while writes flow (as a connection lost mid-batch
/// or mid-commit looks from the writer): every write is answered, exactly the writes answered
/// as stored are stored, and writes go on once the writer has connected again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_writes_survive_the_writers_backend_ending_mid_flow() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let server = PgServer::shared();
    let url = server.database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Playing).await;
    let psql = |sql: &str| tokio::task::block_in_place(|| server.psql(&url, sql));

    let ended = Arc::new(AtomicBool::new(false));
    let mut writers = tokio::task::JoinSet::new();
    for w in 0..4 {
        let (store, ended) = (store.clone(), ended.clone());
        writers.spawn(async move {
            let started = std::time::Instant::now();
            let mut stored = Vec::new();
            let mut stored_after_end = 0;
            for i in 0.. {
                let text = format!("w{w}-{i:05}");
                let mut change = change("r1", 1);
                change.chat = Some(line(&text, None));
                let after_end = ended.load(Ordering::SeqCst);
                let answer = tokio::time::timeout(RECONNECT_WAIT, store.write(Write::Room(change)))
                    .await
                    .expect("every write is answered");
                match answer {
                    Ok(()) => {
                        stored.push(text);
                        stored_after_end += usize::from(after_end);
                    }
                    // The writer is connecting again: wait a little before the next try.
                    Err(_) => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
                }
                if stored_after_end >= 3 {
                    break;
                }
                assert!(
                    started.elapsed() < RECONNECT_WAIT * 2,
                    "writes did not resume"
                );
            }
            stored
        });
    }

    // Mid-flow: once some lines are stored, end the writer's backend.
    let started = std::time::Instant::now();
    while psql("SELECT count(*) FROM chat")
        .parse::<u32>()
        .expect("a count")
        < 20
    {
        assert!(started.elapsed() < RECONNECT_WAIT, "no writes stored");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let ended_backends = psql(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
         WHERE datname = current_database() AND application_name = 'kibitz-writer'",
    );
    assert_eq!(ended_backends, "1", "the writer's one backend");
    ended.store(true, Ordering::SeqCst);

    let mut answered_stored = Vec::new();
    while let Some(stored) = writers.join_next().await {
        answered_stored.extend(stored.expect("a writer task"));
    }
    answered_stored.sort();
    let in_table: Vec<String> = psql("SELECT text FROM chat ORDER BY text")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(
        in_table, answered_stored,
        "exactly the writes answered as stored are stored"
    );
}

/// A plain connection to the test's database, beside the store's.
async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to the test database");
    tokio::spawn(connection);
    client
}

/// Waits until the store's writer waits for a lock another connection holds (well within the
/// writer's lock timeout of 5 s).
async fn wait_for_the_writer_to_wait_for_a_lock(watcher: &tokio_postgres::Client) {
    let started = std::time::Instant::now();
    loop {
        let waiting: i64 = watcher
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() \
                 AND application_name = 'kibitz-writer' AND wait_event_type = 'Lock'",
                &[],
            )
            .await
            .expect("pg_stat_activity")
            .get(0);
        if waiting == 1 {
            return;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(3),
            "the writer did not wait for the lock"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// A claim under way on another connection (another server's) is waited for by a fenced write
/// that touches only the moves: once it commits, the write is refused, and nothing of it is
/// stored. Without the room's row locked, the write would pass the check beside the claim.
#[tokio::test]
async fn postgres_a_fenced_write_waits_for_a_claim_under_way_and_is_refused_after_it() {
    let url = PgServer::shared().database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Playing).await;
    write(&store, claim("r1", 2)).await;
    let mut claimer = connect(&url).await;
    let watcher = connect(&url).await;
    let claiming = claimer.transaction().await.expect("a transaction");
    claiming
        .execute("UPDATE rooms SET fence = 3 WHERE id = 'r1'", &[])
        .await
        .expect("the claim runs");
    let mut moved = change("r1", 1);
    moved.moves.push(mv(0, "a1", Color::Black, 1));
    moved.fence = 2;
    let writing = {
        let store = store.clone();
        tokio::spawn(async move { store.write(Write::Room(moved)).await })
    };
    wait_for_the_writer_to_wait_for_a_lock(&watcher).await;
    claiming.commit().await.expect("the claim commits");
    let answer = writing.await.expect("the write's task");
    assert!(
        matches!(
            answer,
            Err(StoreError::Fenced {
                stored: 3,
                fence: 2,
                ..
            })
        ),
        "{answer:?}"
    );
    let stored = read(&store, "r1").await;
    assert_eq!((stored.moves.len(), stored.seq, stored.fence), (0, 0, 3));
}

/// A fenced-off write in one batch with good ones fails alone. The room's row is held from
/// another connection while the first write runs, so that the writer waits on it and the
/// others queue up behind it, to be taken as one batch once the row is let go.
#[tokio::test]
async fn postgres_a_fenced_write_in_a_batch_of_good_ones_fails_alone() {
    let url = PgServer::shared().database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Playing).await;
    write(&store, claim("r1", 2)).await;
    let said = |i: usize, fence: u64| {
        let mut said = change("r1", 1);
        said.chat = Some(line(&format!("line {i}"), None));
        said.fence = fence;
        let store = store.clone();
        async move { store.write(Write::Room(said)).await }
    };

    let mut holder = connect(&url).await;
    let watcher = connect(&url).await;
    let held = holder.transaction().await.expect("a transaction");
    held.execute("SELECT 1 FROM rooms WHERE id = 'r1' FOR UPDATE", &[])
        .await
        .expect("the room's row is held");
    let first = tokio::spawn(said(0, 2));
    wait_for_the_writer_to_wait_for_a_lock(&watcher).await;
    // Every write is queued on its first poll, before the row is let go.
    let rest: Vec<_> = (1..40)
        .map(|i| said(i, if i == 20 { 1 } else { 2 }))
        .collect();
    let (answers, released) = tokio::join!(futures::future::join_all(rest), held.rollback());
    released.expect("the row is let go");
    let first = first.await.expect("the first write's task");
    let answers = std::iter::once(first).chain(answers).collect();
    all_lines_but_20_are_stored(&store, answers).await;
}

/// Two servers sharing one database: once the new owner's claim is answered, no write of the
/// old owner is stored, and exactly the old owner's writes answered as stored are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_claim_by_another_server_fences_off_the_old_owner_at_once() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let url = PgServer::shared().database();
    let old_owner = open_postgres_with_room(&url, "r1", RoomStatus::Playing).await;
    write(&old_owner, claim("r1", 1)).await;
    let new_owner = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("the second server opens the store");

    let claimed = Arc::new(AtomicBool::new(false));
    let writing = {
        let (store, claimed) = (old_owner.clone(), claimed.clone());
        tokio::spawn(async move {
            let mut stored = Vec::new();
            for i in 0..100_000 {
                let text = format!("old {i:06}");
                let mut said = change("r1", 1);
                said.chat = Some(line(&text, None));
                said.fence = 1;
                let after_claim = claimed.load(Ordering::SeqCst);
                match store.write(Write::Room(said)).await {
                    Ok(()) => {
                        assert!(!after_claim, "{text} was stored after the claim");
                        stored.push(text);
                    }
                    Err(e) => {
                        assert!(
                            matches!(
                                e,
                                StoreError::Fenced {
                                    stored: 2,
                                    fence: 1,
                                    ..
                                }
                            ),
                            "{e}"
                        );
                        return stored;
                    }
                }
            }
            panic!("the old owner was never fenced off");
        })
    };
    let started = std::time::Instant::now();
    while new_owner
        .read_chat("r1")
        .await
        .expect("the read works")
        .len()
        < 20
    {
        assert!(started.elapsed() < RECONNECT_WAIT, "no writes stored");
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    write(&new_owner, claim("r1", 2)).await;
    claimed.store(true, Ordering::SeqCst);
    let stored = writing.await.expect("the old owner's task");
    let mut said = change("r1", 1);
    said.chat = Some(line("new", None));
    said.fence = 2;
    write(&new_owner, Write::Room(said)).await;

    let texts: Vec<String> = new_owner
        .read_chat("r1")
        .await
        .expect("the read works")
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert_eq!(texts.last().map(String::as_str), Some("new"));
    assert_eq!(texts[..texts.len() - 1], stored[..]);
}
