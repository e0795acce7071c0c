//! What only PostgreSQL has: its schema versions, and the server going away and coming back.

use super::*;

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
const LATEST: &str = "11";

/// What versions 11 (sanctions, the moderators' log, hidden chat lines, follows), 10 (moderators, reports), 9 (blocks), 8 (the hall's puzzles), 7 (puzzle ratings), 6 (the explorer), 5
/// (tournaments) and 4 (accounts and ratings) added, dropped to make a database of an older
/// one.
const UNDO_SINCE_V3: &str = "DROP TABLE sanctions, moderation_log, hidden_chat, follows; \
    DROP TABLE moderators, reports; DROP TABLE blocks; \
    DROP TABLE hall_puzzles; \
    DROP TABLE puzzle_ratings, puzzle_players, puzzle_attempts; \
    DROP TABLE explorer, explorer_games; DROP TABLE tournaments; \
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

/// A plain connection to the test's database, beside the store's (the test server takes
/// plain TCP too: the URL's TLS options are the store's).
async fn connect(url: &str) -> tokio_postgres::Client {
    let plain = url.split('?').next().unwrap_or(url);
    let (client, connection) = tokio_postgres::connect(plain, tokio_postgres::NoTls)
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
