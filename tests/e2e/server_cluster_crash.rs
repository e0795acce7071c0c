//! Cluster drills with real `kibitz serve` processes on one real PostgreSQL and one real Redis:
//! the node that owns the rooms is killed with SIGKILL in the middle of 50 timed games under
//! load; the other node takes every room over once the leases expire, the players resume
//! (those of the dead node reconnect to the live one with their tokens), the clocks go on from
//! the stored readings, and every move anyone saw acknowledged is in PostgreSQL.

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::support::cluster::{node, tells_ply};
use crate::support::postgres::PgServer;
use crate::support::redis::RedisServer;
use crate::support::serve::ServeProcess;
use crate::support::signal;
use crate::support::*;
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::watch;

use crate::support::cluster::games::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_mid_game_loses_no_acknowledged_move() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let flags = |id: &'static str| {
        vec![
            "--store".to_string(),
            store.clone(),
            "--redis".to_string(),
            redis.url(),
            "--redis-ca".to_string(),
            crate::support::redis::ca_file().display().to_string(),
            "--node-id".to_string(),
            id.to_string(),
            "--lease-ms".to_string(),
            "1500".to_string(),
            // Every client of the drill comes from 127.0.0.1.
            "--handshakes-per-address".to_string(),
            "512".to_string(),
            "--new-players-per-address".to_string(),
            "10000".to_string(),
        ]
    };
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a_flags = flags("A");
    let a_flags: Vec<&str> = a_flags.iter().map(String::as_str).collect();
    let b_flags = flags("B");
    let b_flags: Vec<&str> = b_flags.iter().map(String::as_str).collect();
    let a = ServeProcess::start(dir_a.path(), &a_flags).await;
    let b = ServeProcess::start(dir_b.path(), &b_flags).await;
    let urls = [a.url(), b.url()];
    let acks = Recorder::default();
    let (killed, go_on) = watch::channel(false);
    let games: Vec<_> = (0..GAMES)
        .map(|i| tokio::spawn(play(i, urls.clone(), acks.clone(), go_on.clone())))
        .collect();

    // Under load, once enough moves are acknowledged: SIGKILL the owner of every room.
    within("moves before the kill", async {
        loop {
            let changed = acks.changed.notified();
            if acks.count.load(Ordering::SeqCst) >= MOVES_BEFORE_KILL {
                return;
            }
            changed.await;
        }
    })
    .await;
    a.kill().await;
    let _ = killed.send(true);

    let mut resumed = Vec::new();
    for game in games {
        resumed.push(game.await.expect("a game task"));
    }
    all_stored(pg, &store, &resumed, &acks);
    let deaf: Vec<&str> = resumed
        .iter()
        .filter(|r| !r.heard_the_end)
        .map(|r| r.room.as_str())
        .collect();
    assert!(deaf.is_empty(), "players missed moves in rooms {deaf:?}");
    // The clocks went on from the stored readings: the side not running kept its time.
    let checked: Vec<(u64, u64)> = resumed.iter().filter_map(|r| r.clock_check).collect();
    assert!(
        !checked.is_empty(),
        "some game resumed with a clock to compare"
    );
    for (now, before) in &checked {
        assert_eq!(
            now, before,
            "the waiting side's clock is its stored reading"
        );
    }
    let (status, body) = http_get(b.addr, "/metrics").await;
    assert_eq!(status, 200);
    assert!(
        metric_in(&body, "kibitz_cluster_takeovers_total") >= 1.0,
        "node B took rooms over"
    );
    let owned = metric_in(&body, "kibitz_cluster_rooms_owned");
    if owned != GAMES as f64 {
        let b_stderr = b.stderr;
        let mut child = b.child;
        child.kill().await.unwrap();
        let lines = b_stderr.await.unwrap();
        let notable: Vec<&String> = lines
            .iter()
            .filter(|l| l.contains("WARN") || l.contains("ERROR"))
            .collect();
        panic!("node B owns {owned} rooms, not {GAMES}: {notable:#?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_old_owner_can_neither_store_nor_announce_a_move() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = node(dir_a.path(), &store, &redis.url(), "A", &[]).await;
    let b = node(dir_b.path(), &store, &redis.url(), "B", &[]).await;

    // Carol, on node A, makes the room (A owns it) and watches; both players are on node B.
    let mut carol = Client::connect(&a.url()).await;
    carol.hello("Carol").await;
    let (room, _) = carol
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"none"}))
        .await;
    let mut black = Client::connect(&b.url()).await;
    black.hello("Black").await;
    black.join(&room, "player").await;
    let mut white = Client::connect(&b.url()).await;
    white.hello("White").await;
    white.join(&room, "player").await;
    black.play(&room, "a1").await;
    white.play(&room, "a15").await;

    // Node A stops (as a long pause would); black's next move reaches its socket and waits.
    signal(a.pid, "STOP");
    black
        .send(json!({"t":"move","room":room,"move":"c1","id":"stale"}))
        .await;
    // Once A's lease has expired, node B takes the room over and black's other move is made.
    let moved = within("the takeover", async {
        loop {
            black
                .send(json!({"t":"move","room":room,"move":"e1","id":"fresh"}))
                .await;
            // Sent to node A while its lease lives, the request gets no answer: sent again.
            let answer = tokio::time::timeout(
                ANSWER_WITHIN,
                black.expect_where(|v| {
                    (v["t"] == "moved" || v["t"] == "error") && v["id"] == "fresh"
                }),
            )
            .await;
            if let Ok(v) = answer.as_ref() {
                if v["t"] == "moved" {
                    return v.clone();
                }
            }
        }
    })
    .await;
    assert_eq!(moved["ply"], 3);

    // Node A wakes with black's stale move in its queue: its lease is gone and the store
    // refuses its fence, so the move is neither stored nor announced.
    signal(a.pid, "CONT");
    within("node A to give the room up", async {
        loop {
            let (_, body) = http_get(a.addr, "/metrics").await;
            if metric_in(&body, "kibitz_cluster_rooms_owned") == 0.0 {
                return;
            }
            tokio::task::yield_now().await;
        }
    })
    .await;
    // The game goes on at node B; nobody ever heard of c1.
    white.play(&room, "c15").await;
    let stored = pg.psql(
        &store,
        &format!("SELECT string_agg(mv, ',' ORDER BY ply) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(stored, "a1,a15,e1,c15");
    for client in [&mut black, &mut white, &mut carol] {
        // Everything this client was told, up to a state of the room with its four moves.
        client
            .send(json!({"t":"join","room":room,"as":"spectator"}))
            .await;
        let st = client
            .expect_where(|v| {
                v["t"] == "state" && v["moves"].as_array().is_some_and(|m| m.len() == 4)
            })
            .await;
        assert_eq!(st["moves"], json!(["a1", "a15", "e1", "c15"]));
        assert!(
            !client
                .backlog
                .iter()
                .any(|v| v["t"] == "moved" && v["move"] == "c1"),
            "{} heard of the stale move: {:?}",
            client.player,
            client.backlog
        );
    }
    let _ = b;
}

/// A node of the cluster in this process, with a short lease.
async fn node_here(store: &str, redis: &str, id: &str) -> TestServer {
    TestServer::cluster_node(store, redis, id, Duration::from_millis(1500)).await
}

/// Ten games played across two nodes while `stop` takes a server away for at least `outage`
/// and `start` brings it back: a request that needs it meanwhile is refused with an error,
/// every move acknowledged is stored, and every game reaches its end once the server is back,
/// its players hearing each other again, with nothing done by hand.
async fn ride_out(
    pg: &PgServer,
    store: &str,
    redis: &str,
    outage: Duration,
    stop: impl FnOnce(),
    start: impl FnOnce(),
) {
    const OUTAGE_GAMES: usize = 10;
    let a = node_here(store, redis, "A").await;
    let b = node_here(store, redis, "B").await;
    let urls = [a.url(), b.url()];
    let acks = Recorder::default();
    let (_, go_on) = watch::channel(true);
    let games: Vec<_> = (0..OUTAGE_GAMES)
        .map(|i| tokio::spawn(play(i, urls.clone(), acks.clone(), go_on.clone())))
        .collect();
    within("moves before the outage", async {
        loop {
            let changed = acks.changed.notified();
            // Every game under way (made, joined, a move played: from there on each step of
            // a game rides out a refusal), and some moves in all.
            let under_way = {
                let seen = acks.seen.lock().unwrap();
                let rooms: BTreeSet<&str> = seen.iter().map(|a| a.0.as_str()).collect();
                rooms.len() == OUTAGE_GAMES && seen.len() >= OUTAGE_GAMES * 3
            };
            if under_way {
                return;
            }
            changed.await;
        }
    })
    .await;
    let mut probe = a.client("Probe").await;
    stop();
    let stopped = tokio::time::Instant::now();
    let refusal = within("a refusal", async {
        loop {
            probe
                .send(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
                .await;
            let v = probe
                .expect_where(|v| v["t"] == "created" || v["t"] == "error")
                .await;
            if v["t"] == "error" {
                return v;
            }
            // Made before the outage took hold: ask again.
            probe.expect("state").await;
        }
    })
    .await;
    assert_eq!(refusal["code"], "bad_request", "{refusal}");
    assert!(
        refusal["message"].as_str().unwrap().contains("try again"),
        "{refusal}"
    );
    tokio::time::sleep_until(stopped + outage).await;
    start();
    let mut finished = Vec::new();
    for game in games {
        finished.push(game.await.expect("a game task"));
    }
    all_stored(pg, store, &finished, &acks);
    let deaf: Vec<&str> = finished
        .iter()
        .filter(|r| !r.heard_the_end)
        .map(|r| r.room.as_str())
        .collect();
    assert!(deaf.is_empty(), "players missed moves in rooms {deaf:?}");
    drop((a, b));
}

/// Longer than the Redis client's own reconnection tries last (six, 3.5 to 7 s in all): a
/// node whose subscribing connection gave up then would never hear the bus again.
const REDIS_OUTAGE: Duration = Duration::from_secs(8);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_out_of_reach_for_a_while_refuses_moves_and_service_returns() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    ride_out(
        pg,
        &store,
        &redis.url(),
        REDIS_OUTAGE,
        || redis.stop(),
        || redis.restart(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_out_of_reach_for_a_while_refuses_moves_and_service_returns() {
    // A server of its own: the other tests go on meanwhile.
    let pg = PgServer::start();
    let store = pg.database();
    let redis = RedisServer::start();
    ride_out(
        &pg,
        &store,
        &redis.url(),
        Duration::ZERO,
        || pg.stop(),
        || pg.restart(),
    )
    .await;
}

/// Empties the Redis at the plain `url` (`FLUSHALL`), as a restart without persistence would, without
/// taking it away: the old owner is not kept from hearing the new one's word meanwhile.
async fn redis_loses_its_data(url: &str) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = url.trim_start_matches("redis://");
    let mut redis = TcpStream::connect(addr).await.expect("Redis answers");
    redis
        .write_all(b"*1\r\n$8\r\nFLUSHALL\r\n")
        .await
        .expect("FLUSHALL sent");
    let mut answer = [0u8; 5];
    redis
        .read_exact(&mut answer)
        .await
        .expect("FLUSHALL answered");
    assert_eq!(&answer, b"+OK\r\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_on_the_old_owner_hears_the_moves_after_a_takeover() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    // Leases of 6 s, renewed every 2 s: node A finds its lease lost well after node B has
    // taken the room over and A has heard so (the order in which the fault showed).
    let lease = Duration::from_secs(6);
    let a = TestServer::cluster_node(&store, &redis.url(), "A", lease).await;
    let b = TestServer::cluster_node(&store, &redis.url(), "B", lease).await;

    // Alice, on node A, makes the room (A owns it); Bob plays from node B.
    let mut alice = a.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    let mut bob = b.client("Bob").await;
    bob.join(&room, "player").await;
    alice.play(&room, "a1").await;
    bob.saw_ply(&room, 1).await;

    // Redis loses its data: no node owns the room, and Bob's move makes node B take it over
    // before node A's next renewal finds its lease gone.
    redis_loses_its_data(&redis.plain_url()).await;
    bob.play(&room, "a15").await;
    assert!(metric(&b, "kibitz_cluster_takeovers_total").await >= 1.0);

    // Alice sends nothing and waits: she hears Bob's move (as the move itself, or in the
    // state of the room she is joined to again), then plays on, and hears his next one.
    alice.expect_where(tells_ply(&room, 2)).await;
    alice.play(&room, "c1").await;
    bob.saw_ply(&room, 3).await;
    bob.play(&room, "c15").await;
    alice.saw_ply(&room, 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_deaf_to_the_bus_for_a_while_tells_its_players_what_they_missed() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a = node_here(&store, &redis.url(), "A").await;
    let a_subscriber = redis.subscriber_ids();
    let b = node_here(&store, &redis.url(), "B").await;
    let b_subscriber: Vec<u64> = redis
        .subscriber_ids()
        .into_iter()
        .filter(|id| !a_subscriber.contains(id))
        .collect();
    assert_eq!(b_subscriber.len(), 1, "node B's one subscribing connection");

    // Alice, on node A, makes the room (A owns it); Bob plays from node B.
    let mut alice = a.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    let mut bob = b.client("Bob").await;
    bob.join(&room, "player").await;
    alice.play(&room, "a1").await;
    bob.saw_ply(&room, 1).await;
    bob.play(&room, "a15").await;
    alice.saw_ply(&room, 2).await;

    // Node B's subscribing connection is cut, and a password keeps it from coming back
    // (connections already open stay signed in): Alice's move, published for Bob, reaches
    // no one on node B.
    let password = "kept-out";
    redis.command(None, &["CONFIG", "SET", "requirepass", password]);
    let killed = redis.command(
        Some(password),
        &["CLIENT", "KILL", "ID", &b_subscriber[0].to_string()],
    );
    assert_eq!(killed, "1");
    alice.play(&room, "c1").await;

    // Once node B hears the bus again, Bob hears the move he missed (in the state of the
    // room he is joined to again), and the game goes on.
    redis.command(Some(password), &["CONFIG", "SET", "requirepass", ""]);
    bob.expect_where(tells_ply(&room, 3)).await;
    bob.play(&room, "c15").await;
    alice.saw_ply(&room, 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_that_lost_its_data_takes_no_live_node_for_gone() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    // Leases of 6 s: node A asks after node B every 6 s, each node sets its presence key
    // every 2 s, and the key lasts 12 s.
    let lease = Duration::from_secs(6);
    let a = TestServer::cluster_node(&store, &redis.url(), "A", lease).await;
    let dir_b = tempfile::tempdir().unwrap();
    let ca = crate::support::redis::ca_file().display().to_string();
    let b_flags = [
        "--store",
        &store,
        "--redis",
        &redis.url(),
        "--redis-ca",
        &ca,
        "--node-id",
        "B",
        "--lease-ms",
        "6000",
    ];
    let b = ServeProcess::start(dir_b.path(), &b_flags).await;

    // Alice, on node A, plays Bob, on node B: node A sends to node B, so it asks after it.
    let mut alice = a.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    let mut bob = Client::connect(&b.url()).await;
    bob.hello("Bob").await;
    bob.join(&room, "player").await;
    alice.play(&room, "a1").await;
    bob.saw_ply(&room, 1).await;

    // Redis loses every key, node B's presence too, and node B is away for longer than node
    // A's questions are apart: node A asks while B's key is missing, but its own is missing
    // as well, so it takes nobody for gone until every live node has had time to set its key.
    redis_loses_its_data(&redis.plain_url()).await;
    signal(b.pid, "STOP");
    tokio::time::sleep(lease + Duration::from_secs(1)).await;
    signal(b.pid, "CONT");
    within("node B's presence key again", async {
        // Each question starts a `redis-cli`: asked every 50 ms, not in a busy loop.
        while redis.command(None, &["EXISTS", "kibitz:alive:B"]) != "1" {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    // The game goes on (the room's lease went with the data: Bob's move makes node B take
    // it over), and node A took no node for gone.
    bob.play(&room, "a15").await;
    alice.expect_where(tells_ply(&room, 2)).await;
    let before = metric(&a, "kibitz_cluster_nodes_gone_total").await;
    assert_eq!(before, 0.0, "node B taken for gone while it lived");

    // A node that is really gone is taken for gone all the same.
    b.kill().await;
    let gone = tokio::time::timeout(Duration::from_secs(40), async {
        loop {
            let gone = metric(&a, "kibitz_cluster_nodes_gone_total").await;
            if gone > 0.0 {
                return gone;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("node A takes the killed node B for gone");
    assert_eq!(gone, 1.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_taken_for_gone_while_away_puts_its_players_back_in_their_rooms() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a = node_here(&store, &redis.url(), "A").await;
    let dir_b = tempfile::tempdir().unwrap();
    let b = node(dir_b.path(), &store, &redis.url(), "B", &[]).await;

    // Alice, on node A, makes the room (A owns it); Bob plays from node B.
    let mut alice = a.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    let mut bob = Client::connect(&b.url()).await;
    bob.hello("Bob").await;
    bob.join(&room, "player").await;
    alice.play(&room, "a1").await;
    bob.saw_ply(&room, 1).await;
    bob.play(&room, "a15").await;
    alice.saw_ply(&room, 2).await;

    // Node B is away (stopped) until its presence key has expired and node A has taken it
    // for gone: the room drops Bob's connection.
    signal(b.pid, "STOP");
    within("node A to take node B for gone", async {
        while metric(&a, "kibitz_cluster_nodes_gone_total").await < 1.0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    signal(b.pid, "CONT");

    // Back, node B finds its presence key missing; once node A has seen it again, Bob joins
    // the room again and hears Alice's move (in the state he is sent, or as the move).
    alice.play(&room, "c1").await;
    bob.expect_where(tells_ply(&room, 3)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_members_of_a_dead_node_leave_the_rooms_of_the_others() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a = node_here(&store, &redis.url(), "A").await;
    let dir_c = tempfile::tempdir().unwrap();
    let c = node(dir_c.path(), &store, &redis.url(), "C", &[]).await;

    // Alice plays on node A against Bob on node C; Carol watches from node C.
    let mut alice = a.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    let mut bob = Client::connect(&c.url()).await;
    bob.hello("Bob").await;
    bob.join(&room, "player").await;
    let mut carol = Client::connect(&c.url()).await;
    carol.hello("Carol").await;
    carol.join(&room, "spectator").await;
    alice
        .expect_where(|v| v["t"] == "crowd" && v["spectators"] == 1 && v["online"]["white"] == true)
        .await;
    // Dave waits for quick pairing on node C; node A's lobby counts him.
    let othello = json!({"t":"seek","game":{"kind":"othello"},"clock":null});
    let mut dave = Client::connect(&c.url()).await;
    dave.hello("Dave").await;
    dave.send(othello.clone()).await;
    dave.expect("seeking").await;
    let mut watcher = a.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    let othello_seekers = |v: &Value, n: u64| seekers_waiting(v, "othello") == Some(n);
    watcher.expect_where(|v| othello_seekers(v, 1)).await;

    // Node C dies: once its presence in Redis expires, node A's room counts its members gone
    // (no spectator, white away) without a word from them.
    c.kill().await;
    let crowd = tokio::time::timeout(
        GAME_WITHIN,
        alice.expect_where(|v| {
            v["t"] == "crowd" && v["spectators"] == 0 && v["online"]["white"] == false
        }),
    )
    .await;
    assert!(crowd.is_ok(), "node A never dropped node C's members");
    // Dave's seek is gone with his node: the lobby no longer counts it, and Erin, seeking
    // the same on node A, waits rather than being paired with nobody.
    let dropped =
        tokio::time::timeout(GAME_WITHIN, watcher.expect_where(|v| othello_seekers(v, 0)));
    assert!(dropped.await.is_ok(), "node C's seek stayed in the lobby");
    let mut erin = a.client("Erin").await;
    erin.send(othello).await;
    erin.expect("seeking").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarted_at_once_drops_the_seeks_its_last_run_left() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a = node_here(&store, &redis.url(), "A").await;
    let dir_c = tempfile::tempdir().unwrap();
    let c = node(dir_c.path(), &store, &redis.url(), "C", &[]).await;
    let mut dave = Client::connect(&c.url()).await;
    dave.hello("Dave").await;
    dave.send(json!({"t":"seek","game":{"kind":"othello"},"clock":null}))
        .await;
    dave.expect("seeking").await;
    let mut watcher = a.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    let othello_seekers = |v: &Value| seekers_waiting(v, "othello");
    watcher
        .expect_where(|v| othello_seekers(v) == Some(1))
        .await;

    // Killed, and started again under the same id before its presence key expires: Dave's
    // connection is gone, and so is his seek, though node C counts as alive throughout.
    c.kill().await;
    let c = node(dir_c.path(), &store, &redis.url(), "C", &[]).await;
    let dropped = tokio::time::timeout(
        GAME_WITHIN,
        watcher.expect_where(|v| othello_seekers(v) == Some(0)),
    );
    assert!(
        dropped.await.is_ok(),
        "the restarted node's old seek stayed"
    );
    // A seeker on node A now waits rather than being paired with Dave's dead connection.
    let mut erin = a.client("Erin").await;
    erin.send(json!({"t":"seek","game":{"kind":"othello"},"clock":null}))
        .await;
    erin.expect("seeking").await;
    drop(c);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_node_s_game_whose_players_never_return_runs_out_of_time_elsewhere() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a = node_here(&store, &redis.url(), "A").await;
    let dir_c = tempfile::tempdir().unwrap();
    let c = node(dir_c.path(), &store, &redis.url(), "C", &[]).await;

    // Alice and Bob play on node C, two seconds a move; Carol watches from node A.
    let mut alice = Client::connect(&c.url()).await;
    alice.hello("Alice").await;
    let (room, _) = alice
        .create(
            json!({"t":"create","game":{"kind":"connect4"},"seat":"black",
                       "clock":{"move_ms":2000}}),
        )
        .await;
    let mut bob = Client::connect(&c.url()).await;
    bob.hello("Bob").await;
    bob.join(&room, "player").await;
    // Both first moves made: from now on the clock of the side to move runs.
    alice.play(&room, "4").await;
    bob.play(&room, "4").await;
    alice.play(&room, "3").await;
    let mut carol = a.client("Carol").await;
    let st = carol.join(&room, "spectator").await;
    assert_eq!(st["status"], "playing");

    // Node C dies and neither player comes back: no request reaches the room, yet node A
    // finds it unowned, takes it over, and white's clock runs out there.
    c.kill().await;
    let over = tokio::time::timeout(
        GAME_WITHIN,
        carol.expect_where(|v| v["t"] == "over" && v["room"] == room.as_str()),
    )
    .await
    .expect("the orphaned game never ended");
    assert_eq!(over["result"], "black", "{over}");
    let status = pg.psql(
        &store,
        &format!("SELECT status FROM rooms WHERE id = '{room}'"),
    );
    assert_eq!(status.trim(), "over");
}
