//! The store's contract, written against its interface alone: what any backend must keep and
//! give back. Each check takes a [`Backend`] — something that opens a store on one durable
//! location, as often as asked — and the `suite!`s at the bottom run every check against
//! SQLite in a fresh directory and against PostgreSQL in a fresh database of a real server
//! (`support::postgres`). Below the suites, what only PostgreSQL has: its schema version, and
//! the server going away and coming back.

mod support;

use game_core::protocol::{ClockSpec, GameResult, ResultKind, RoomStatus};
use game_core::{Color, EndReason, GameSpec, GomokuRule};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{
    RoomChange, Store, StoredChat, StoredMove, StoredPlayer, StoredRoom, StoredRoomHead,
    StoredSeat, Write,
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
        head: StoredRoomHead {
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

async fn players_are_stored_and_renamed(b: &impl Backend) {
    let store = b.open().await;
    let alice = StoredPlayer {
        id: "p1".into(),
        name: "Alice".into(),
        token_hash: "hash-1".into(),
        bot: false,
    };
    let kibot = StoredPlayer {
        id: "p2".into(),
        name: "Kibot".into(),
        token_hash: "hash-2".into(),
        bot: true,
    };
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
        "2"
    );
}

/// A database at schema version 1 (no commit markers) is migrated in place to version 2,
/// keeping what it holds, and writes go on.
#[tokio::test]
async fn postgres_migrates_a_version_1_database_in_place() {
    let server = PgServer::shared();
    let url = server.database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Waiting).await;
    drop(store);
    server.psql(
        &url,
        "DROP TABLE commits; UPDATE schema_version SET version = 1",
    );
    let store = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("a version 1 database opens");
    assert_eq!(server.psql(&url, "SELECT version FROM schema_version"), "2");
    write(
        &store,
        Write::NewRoom(Box::new(room("r2", RoomStatus::Waiting))),
    )
    .await;
    assert_eq!(read(&store, "r1").await.head.id, "r1");
    assert_eq!(read(&store, "r2").await.head.id, "r2");
    assert_eq!(server.psql(&url, "SELECT count(*) FROM commits"), "1");
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
