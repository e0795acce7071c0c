//! Faults of one node of a cluster, with real `kibitz serve` processes on one real PostgreSQL
//! and one real Redis, each client recording every message it is sent: an owner paused past
//! its lease and resumed with requests queued to it shows nobody the past; a node restarted
//! at once frees the seats of its old connections; an owner cut off from PostgreSQL alone
//! gives its rooms up to a node that can store their moves; sign-in failures and attempts
//! spread over the nodes count once; joins of a tournament made at once over the nodes are all
//! kept; an analysis worker on one node reviews a game asked for on another; the owner killed
//! with SIGKILL: its rooms go on elsewhere, and a seat of a connection that died with it is
//! given up; Redis down for 15 s, and PostgreSQL crashed and restarted: nothing taken while
//! away, the players back within a lease and a second; a tournament's director killed:
//! another node directs it. `KIBITZ_FAULT_ROUNDS` repeats the kill (scripts/cluster_faults.sh, the long
//! version, prints each round's times).

mod cluster_support;
mod common;

use std::time::Duration;

use cluster_support::{one_history_stored, signal, steps_back, Hall, Proxy, Recorded, LEASE_MS};
use common::{http_get, http_json, metric_in, within};
use serde_json::json;

const LEASE: Duration = Duration::from_millis(LEASE_MS);
/// Plies played before each fault; far apart, no five.
const OPENING: [&str; 10] = [
    "a1", "a15", "c1", "c15", "e1", "e15", "g1", "g15", "i1", "i15",
];

/// A gomoku room made on `maker`'s node (which owns it), with black and white seated and the
/// opening played; the room.
async fn game_with_opening(
    maker: &mut Recorded,
    black: &mut Recorded,
    white: &mut Recorded,
) -> String {
    let room = maker
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"none"}))
        .await;
    black.join(&room, "player").await;
    white.join(&room, "player").await;
    for (i, mv) in OPENING.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *black } else { &mut *white };
        let id = format!("open-{i}");
        mover.send(json!({"t":"move","room":room,"move":mv,"id":id}));
        mover
            .wait_for(|v| v["t"] == "moved" && v["id"] == id.as_str())
            .await;
    }
    room
}

/// Whether a message tells ply `ply` of `room`: the move itself, or a state of the room
/// with that many moves (sent to a member that joined it again after a takeover).
fn tells_ply(room: &str, ply: usize) -> impl Fn(&serde_json::Value) -> bool + '_ {
    move |v| {
        v["room"] == room
            && ((v["t"] == "moved" && v["ply"] == ply)
                || (v["t"] == "state" && v["moves"].as_array().is_some_and(|m| m.len() == ply)))
    }
}

/// Waits until the node at `addr` owns no room.
async fn owns_nothing(addr: std::net::SocketAddr) {
    within("the node to give its rooms up", async {
        loop {
            let (_, body) = http_get(addr, "/metrics").await;
            if metric_in(&body, "kibitz_cluster_rooms_owned") == 0.0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_resumed_with_requests_queued_shows_nobody_the_past() {
    let hall = Hall::new();
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;

    // The room is made on node B, which owns it; both players and a spectator are on A.
    let mut maker = Recorded::connect(&b.url(), "Maker", None).await;
    let mut black = Recorded::connect(&a.url(), "Black", None).await;
    let mut white = Recorded::connect(&a.url(), "White", None).await;
    let mut spectator = Recorded::connect(&a.url(), "Spectator", None).await;
    let room = game_with_opening(&mut maker, &mut black, &mut white).await;
    spectator.join(&room, "spectator").await;

    // B stops; the spectator asks for the room afresh, which A passes to the frozen owner.
    signal(b.pid, "STOP");
    spectator.send(json!({"t":"join","room":room,"as":"spectator"}));
    // Past the lease, A takes the room over and black's move is made there.
    let moved = black
        .move_until_acked(
            &room,
            "k1",
            "after-pause",
            Duration::from_secs(2),
            Duration::from_secs(30),
        )
        .await
        .expect("black's move taken once node B's lease expired");
    assert_eq!(moved["ply"], 11);
    spectator.wait_for(tells_ply(&room, 11)).await;

    // B wakes with the spectator's request queued: it must not answer it from its copy.
    signal(b.pid, "CONT");
    owns_nothing(b.addr).await;
    // A last request through each node: everyone is told the game as it is.
    white.skip();
    maker.skip();
    white.send(json!({"t":"join","room":room,"as":"player"}));
    white
        .wait_for(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    maker.send(json!({"t":"join","room":room,"as":"spectator"}));
    let st = maker
        .wait_for(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 11, "{st}");
    // Another lease, for anything node B would still send.
    tokio::time::sleep(LEASE).await;
    for client in [&spectator, &black, &white, &maker] {
        let back = steps_back(&client.all(), &room);
        assert!(back.is_empty(), "{} saw the past: {back:#?}", client.name);
    }
    let stored = hall.pg.psql(
        &hall.store,
        &format!("SELECT count(*) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(stored, "11");
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarted_at_once_frees_the_seats_of_its_old_connections() {
    let hall = Hall::new();
    let grace = ["--grace-secs", "2"];
    let a = hall.node("A", &grace).await;
    let b = hall.node("B", &grace).await;

    // A owns the room and seats black; white sits on node B.
    let mut maker = Recorded::connect(&a.url(), "Maker", None).await;
    let mut black = Recorded::connect(&a.url(), "Black", None).await;
    let mut white = Recorded::connect(&b.url(), "White", None).await;
    let room = game_with_opening(&mut maker, &mut black, &mut white).await;

    // B dies and a supervisor starts it again at once, under the same id; white never comes
    // back.
    b.kill().await;
    let b = hall.node("B", &grace).await;
    // White goes offline, and loses by abandonment once the grace period is over.
    black
        .wait_for(|v| {
            v["t"] == "crowd" && v["room"] == room.as_str() && v["online"]["white"] == false
        })
        .await;
    let over = black
        .wait_for(|v| v["t"] == "over" && v["room"] == room.as_str())
        .await;
    assert_eq!(over["reason"], "abandoned", "{over}");
    assert_eq!(over["result"], "black", "{over}");
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_cut_off_from_postgres_alone_gives_its_rooms_to_a_node_that_can_store() {
    let hall = Hall::new();
    let pg_port = hall.pg.port();
    let proxy = Proxy::start(pg_port).await;
    let through_proxy = hall
        .store
        .replace(&format!(":{pg_port}/"), &format!(":{}/", proxy.port));
    let a = hall.node_on(&through_proxy, "A", &[]).await;
    let b = hall.node("B", &[]).await;

    // A owns the room; both players are on B.
    let mut maker = Recorded::connect(&a.url(), "Maker", None).await;
    let mut black = Recorded::connect(&b.url(), "Black", None).await;
    let mut white = Recorded::connect(&b.url(), "White", None).await;
    let room = game_with_opening(&mut maker, &mut black, &mut white).await;

    // A's link to PostgreSQL is cut (Redis still answers it). While the cut lasts, black's
    // move is taken: by B, once A has given the room up.
    proxy.cut();
    let moved = black
        .move_until_acked(
            &room,
            "k1",
            "cut",
            Duration::from_secs(2),
            Duration::from_secs(20),
        )
        .await
        .expect("a move taken while the owner cannot reach the store");
    assert_eq!(moved["ply"], 11);
    white.wait_for(tells_ply(&room, 11)).await;
    owns_nothing(a.addr).await;
    proxy.heal();
    let stored = hall.pg.psql(
        &hall.store,
        &format!("SELECT count(*) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(stored, "11");
    for client in [&black, &white] {
        let back = steps_back(&client.all(), &room);
        assert!(back.is_empty(), "{} saw the past: {back:#?}", client.name);
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_failures_and_attempts_over_every_node_count_once() {
    let hall = Hall::new();
    let guard = ["--signin-failures", "3", "--signin-attempts", "8"];
    let a = hall.node("A", &guard).await;
    let b = hall.node("B", &guard).await;
    let guest = Recorded::connect(&a.url(), "Guest", None).await;
    let password = "a-long-enough-password";
    let claim = json!({"token": guest.token, "name": "Alice", "password": password});
    assert_eq!(
        http_json(a.addr, "POST", "/api/accounts", claim).await.0,
        201
    );
    let sign_in = |name: &str, password: &str| json!({"name": name, "password": password});

    // Three wrong passwords round the nodes lock the name on every node, the right one too.
    for addr in [a.addr, b.addr, a.addr] {
        let (status, _) = http_json(addr, "POST", "/api/session", sign_in("Alice", "wrong")).await;
        assert_eq!(status, 401);
    }
    for addr in [b.addr, a.addr] {
        let (status, body) =
            http_json(addr, "POST", "/api/session", sign_in("alice", password)).await;
        assert_eq!(status, 429, "{body}");
    }
    // The address has made 4 attempts that count (the claim and three failures) of its 8;
    // four more over both nodes, and the next is refused on either.
    for (i, addr) in [b.addr, a.addr, b.addr, a.addr].into_iter().enumerate() {
        let name = format!("nobody{i}");
        let (status, _) = http_json(addr, "POST", "/api/session", sign_in(&name, "wrong")).await;
        assert_eq!(status, 401);
    }
    for addr in [b.addr, a.addr] {
        let (status, body) = http_json(addr, "POST", "/api/session", sign_in("Bob", "wrong")).await;
        assert_eq!(status, 429, "{body}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("too many sign-in attempts"),
            "{body}"
        );
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_joins_made_at_once_over_the_nodes_are_all_kept() {
    const JOINERS: usize = 8;
    let hall = Hall::new();
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    let addrs = [a.addr, b.addr];
    // Accounts for a host and the joiners, made on either node.
    let mut tokens = Vec::new();
    for i in 0..=JOINERS {
        let addr = addrs[i % 2];
        let url = format!("ws://{addr}/ws");
        let guest = Recorded::connect(&url, &format!("guest{i}"), None).await;
        let claim = json!({"token": guest.token, "name": format!("player{i}"),
                           "password": "a-long-enough-password"});
        assert_eq!(http_json(addr, "POST", "/api/accounts", claim).await.0, 201);
        tokens.push(guest.token.clone());
    }
    let made = json!({"token": tokens[0], "name": "All at once", "kind": "swiss", "rounds": 3,
                      "game": {"kind":"connect4","cols":7,"rows":6},
                      "clock": {"move_ms": 10000}});
    let (status, made) = http_json(a.addr, "POST", "/api/tournaments", made).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    // Every joiner at once, half through each node: every one is answered 200 ...
    let path = format!("/api/tournaments/{id}/join");
    let joins = tokens[1..].iter().enumerate().map(|(i, token)| {
        let path = path.clone();
        let addr = addrs[i % 2];
        let body = json!({"token": token});
        async move { http_json(addr, "POST", &path, body).await }
    });
    for (status, body) in futures::future::join_all(joins).await {
        assert_eq!(status, 200, "{body}");
    }
    // ... and every one is in the stored tournament, read through either node.
    for addr in addrs {
        let (status, t) = http_get(addr, &format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{t}");
        let t: serde_json::Value = serde_json::from_str(&t).unwrap();
        let mut names: Vec<&str> = t["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        names.sort_unstable();
        let expected: Vec<String> = (1..=JOINERS).map(|i| format!("player{i}")).collect();
        assert_eq!(names, expected, "{t}");
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_on_one_node_reviews_a_game_asked_for_on_another() {
    const KEY: &str = "fault-suite-bot-key";
    const C4: [&str; 7] = ["4", "4", "3", "3", "2", "1", "5"];
    let hall = Hall::new();
    let key = ["--bot-key", KEY];
    let a = hall.node("A", &key).await;
    let b = hall.node("B", &key).await;
    // The only analysis worker is on node A.
    let mut worker = Recorded::connect_as(
        &a.url(),
        json!({"t":"hello","name":"W1",
        "bot":{"key":KEY,"games":["connect4"],"capacity":1,"analysis":true}}),
    )
    .await;
    // A game on node B, played to its end there.
    let mut black = Recorded::connect(&b.url(), "Black", None).await;
    let mut white = Recorded::connect(&b.url(), "White", None).await;
    let room = black
        .create(json!({"t":"create","game":{"kind":"connect4","cols":7,"rows":6},"seat":"black"}))
        .await;
    white.join(&room, "player").await;
    for (i, mv) in C4.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut black } else { &mut white };
        let id = format!("c4-{i}");
        mover.send(json!({"t":"move","room":room,"move":mv,"id":id}));
        mover
            .wait_for(|v| v["t"] == "moved" && v["id"] == id.as_str())
            .await;
    }
    black.wait_for(|v| v["t"] == "over").await;
    // Asked on B, the review is pending, and the worker on A gets the job.
    black.send(json!({"t":"review","room":room}));
    let pending = black.wait_for(|v| v["t"] == "review").await;
    assert_eq!(pending["status"], "pending", "{pending}");
    assert!(
        pending.get("message").is_none(),
        "a worker is connected: {pending}"
    );
    let job = worker.wait_for(|v| v["t"] == "analyze").await;
    assert_eq!(job["moves"], json!(C4));
    for ply in 0..C4.len() {
        worker.send(json!({"t":"analysis","job":job["job"],"ply":ply,"eval":0,
                           "best":"4","pv":["4"]}));
    }
    // Both players, on B, hear the review done.
    for client in [&mut black, &mut white] {
        let done = client
            .wait_for(|v| v["t"] == "review" && v["status"] == "done")
            .await;
        assert_eq!(done["review"]["by"], "W1", "{done}");
    }
    drop((a, b));
}

/// Rounds of the kill drill (`KIBITZ_FAULT_ROUNDS`, 1 by default).
fn rounds() -> usize {
    std::env::var("KIBITZ_FAULT_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_its_rooms_go_on_elsewhere_and_its_players_seats_are_given_up() {
    for round in 0..rounds() {
        kill_round(round, GRACE_SECS).await;
    }
}

/// The grace period of the kill drills' nodes.
const GRACE_SECS: u64 = 2;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_s_node_killed_its_seat_goes_offline_and_the_game_is_decided() {
    for round in 0..rounds() {
        let hall = Hall::new();
        let grace = GRACE_SECS.to_string();
        let flags = ["--grace-secs", grace.as_str()];
        let a = hall.node("A", &flags).await;
        let b = hall.node("B", &flags).await;
        // A owns the room and seats black; white sits on node B, which dies for good.
        let mut maker = Recorded::connect(&a.url(), "Maker", None).await;
        let mut black = Recorded::connect(&a.url(), "Black", None).await;
        let mut white = Recorded::connect(&b.url(), "White", None).await;
        let room = game_with_opening(&mut maker, &mut black, &mut white).await;
        let killed = tokio::time::Instant::now();
        b.kill().await;
        black
            .wait_for(|v| {
                v["t"] == "crowd" && v["room"] == room.as_str() && v["online"]["white"] == false
            })
            .await;
        let offline = killed.elapsed();
        let over = black
            .wait_up_to(Duration::from_secs(30), |v| {
                v["t"] == "over" && v["room"] == room.as_str()
            })
            .await
            .expect("the game decided");
        let decided = killed.elapsed();
        assert_eq!(
            (over["result"].as_str(), over["reason"].as_str()),
            (Some("black"), Some("abandoned")),
            "{over}"
        );
        println!(
            "{{\"fault\":\"kill -9 a player's node\",\"round\":{round},\"offline_ms\":{},\"decided_ms\":{}}}",
            offline.as_millis(),
            decided.as_millis()
        );
        let limit = Duration::from_secs(GRACE_SECS) + LEASE + Duration::from_secs(2);
        assert!(decided <= limit, "abandonment {decided:?} after the kill");
        let back = steps_back(&black.all(), &room);
        assert!(back.is_empty(), "black saw the past: {back:#?}");
        drop((a, maker));
    }
}

/// One kill of an owner: room 1 has its players on the other nodes, room 2 has white on the
/// owner (that connection dies with it). Checked: every acknowledged move stored, one
/// history, nobody sees the past, room 1's next move taken within a lease and a second of
/// the kill, room 2 decided by abandonment within grace + lease + 2 s.
async fn kill_round(round: usize, grace_secs: u64) {
    let hall = Hall::new();
    let grace = grace_secs.to_string();
    let flags = ["--grace-secs", grace.as_str()];
    let owner = hall.node("A", &flags).await;
    let b = hall.node("B", &flags).await;
    let c = hall.node("C", &flags).await;
    let mut maker = Recorded::connect(&owner.url(), "Maker", None).await;
    let mut black = Recorded::connect(&b.url(), "Black", None).await;
    let mut white = Recorded::connect(&c.url(), "White", None).await;
    let mut watcher = Recorded::connect(&b.url(), "Watcher", None).await;
    let first = game_with_opening(&mut maker, &mut black, &mut white).await;
    watcher.join(&first, "spectator").await;
    let mut black2 = Recorded::connect(&c.url(), "Black2", None).await;
    let mut doomed = Recorded::connect(&owner.url(), "Doomed", None).await;
    let second = game_with_opening(&mut maker, &mut black2, &mut doomed).await;

    let killed = tokio::time::Instant::now();
    owner.kill().await;
    let moved = black
        // Asked again every half second without an answer (one sent to the dead owner gets
        // none), as a client that keeps trying would.
        .move_until_acked(
            &first,
            "k1",
            "after-kill",
            Duration::from_millis(500),
            Duration::from_secs(30),
        )
        .await
        .expect("room 1 goes on at another node");
    let takeover = killed.elapsed();
    assert_eq!(moved["ply"], 11);
    let over = black2
        .wait_up_to(Duration::from_secs(30), |v| {
            v["t"] == "over" && v["room"] == second.as_str()
        })
        .await
        .expect("room 2 decided");
    let decided = killed.elapsed();
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("black"), Some("abandoned")),
        "{over}"
    );
    white.wait_for(tells_ply(&first, 11)).await;
    watcher.wait_for(tells_ply(&first, 11)).await;
    println!(
        "{{\"fault\":\"kill -9 owner\",\"round\":{round},\"takeover_ms\":{},\"decided_ms\":{}}}",
        takeover.as_millis(),
        decided.as_millis()
    );
    assert!(
        takeover <= LEASE + Duration::from_secs(1),
        "next move {takeover:?} after the kill"
    );
    let limit = Duration::from_secs(grace_secs) + LEASE + Duration::from_secs(2);
    assert!(decided <= limit, "abandonment {decided:?} after the kill");
    one_history_stored(
        &hall,
        &[&first, &second],
        &[&black, &white, &watcher, &black2],
    );
    drop((b, c, maker, doomed));
}

/// How long Redis stays down in the outage test.
const REDIS_DOWN: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_for_15_s_takes_no_move_then_the_players_are_back_within_a_lease() {
    let hall = Hall::new();
    let redis = &hall.redis;
    let back = outage_round(&hall, REDIS_DOWN, || redis.stop(), || redis.restart()).await;
    println!(
        "{{\"fault\":\"redis down {} s\",\"back_ms\":{}}}",
        REDIS_DOWN.as_secs(),
        back.as_millis()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_after_a_crash_the_players_are_back_within_a_lease() {
    // A server of the hall's own: the other tests of this binary go on meanwhile.
    let hall = Hall::with_own_postgres();
    let pg = &*hall.pg;
    let back = outage_round(&hall, Duration::ZERO, || pg.crash(), || pg.restart()).await;
    println!(
        "{{\"fault\":\"postgres restarted (-m immediate)\",\"back_ms\":{}}}",
        back.as_millis()
    );
}

/// One outage: a room owned by node A, black on A, white and a spectator on B, its opening
/// played; `down` takes a server away for `held` and `up` brings it back. A move asked for
/// while the server is away (from two leases into the outage) is not taken; once it is back,
/// black's move is taken within a lease and a second, white and the spectator hear it, white
/// answers, and the checker finds one history, stored, that nobody saw go back. Returns how
/// long after `up` black's move was taken.
async fn outage_round(
    hall: &Hall,
    held: Duration,
    down: impl FnOnce(),
    up: impl FnOnce(),
) -> Duration {
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    let mut maker = Recorded::connect(&a.url(), "Maker", None).await;
    let mut black = Recorded::connect(&a.url(), "Black", None).await;
    let mut white = Recorded::connect(&b.url(), "White", None).await;
    let mut watcher = Recorded::connect(&b.url(), "Watcher", None).await;
    let room = game_with_opening(&mut maker, &mut black, &mut white).await;
    watcher.join(&room, "spectator").await;

    down();
    let stopped = tokio::time::Instant::now();
    if held > 2 * LEASE {
        tokio::time::sleep(2 * LEASE).await;
        black.send(json!({"t":"move","room":room,"move":"k1","id":"k1"}));
        let left = held.saturating_sub(stopped.elapsed());
        let answer = black
            .wait_up_to(left, |v| {
                (v["t"] == "moved" || v["t"] == "error") && v["id"] == "k1"
            })
            .await;
        assert!(
            answer.as_ref().is_none_or(|v| v["t"] == "error"),
            "a move taken while the server was away: {answer:?}"
        );
        tokio::time::sleep_until(stopped + held).await;
    }
    up();
    let restored = tokio::time::Instant::now();
    let moved = black
        .move_until_acked(
            &room,
            "k1",
            "k1",
            Duration::from_millis(500),
            Duration::from_secs(30),
        )
        .await
        .expect("black's move taken once the server is back");
    let back = restored.elapsed();
    assert_eq!(moved["ply"], 11);
    white.wait_for(tells_ply(&room, 11)).await;
    watcher.wait_for(tells_ply(&room, 11)).await;
    let answered = white
        .move_until_acked(
            &room,
            "k15",
            "k15",
            Duration::from_millis(500),
            Duration::from_secs(10),
        )
        .await
        .expect("white's answer taken");
    assert_eq!(answered["ply"], 12);
    black.wait_for(tells_ply(&room, 12)).await;
    one_history_stored(hall, &[&room], &[&black, &white, &watcher]);
    assert!(
        back <= LEASE + Duration::from_secs(1),
        "black's move taken {back:?} after the server came back"
    );
    drop((a, b, maker));
    back
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_whose_director_s_node_died_is_directed_by_another() {
    let hall = Hall::new();
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    // Two players with accounts, connected to B; the tournament is made and started on A,
    // whose director pairs the first round.
    let mut players = Vec::new();
    for name in ["First", "Second"] {
        let guest = Recorded::connect(&b.url(), &format!("{name}-guest"), None).await;
        let claim = json!({"token": guest.token, "name": name,
                           "password": "a-long-enough-password"});
        assert_eq!(
            http_json(b.addr, "POST", "/api/accounts", claim).await.0,
            201
        );
        players.push(guest);
    }
    let made = json!({"token": players[0].token, "name": "Orphaned", "kind": "swiss",
                      "rounds": 2, "game": {"kind":"connect4","cols":7,"rows":6},
                      "clock": {"move_ms": 10000}});
    let (status, made) = http_json(a.addr, "POST", "/api/tournaments", made).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for p in &players {
        let join = json!({"token": p.token});
        let (status, body) =
            http_json(a.addr, "POST", &format!("/api/tournaments/{id}/join"), join).await;
        assert_eq!(status, 200, "{body}");
    }
    let start = json!({"token": players[0].token});
    let (status, body) = http_json(
        a.addr,
        "POST",
        &format!("/api/tournaments/{id}/start"),
        start,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let first = paired(b.addr, &id, 1).await;
    let game = &first["pairings"][0]["games"][0];
    let room = game["room"].as_str().unwrap().to_string();
    let black_first = game["black_player"] == players[0].player.as_str();
    let (black, white) = players.split_at_mut(1);
    let (black, white) = if black_first {
        (&mut black[0], &mut white[0])
    } else {
        (&mut white[0], &mut black[0])
    };

    // A dies with the director. The game goes on at B, and ends (white resigns).
    let killed = tokio::time::Instant::now();
    a.kill().await;
    black.join_retrying(&room, "player").await;
    let moved = black
        .move_until_acked(
            &room,
            "4",
            "m1",
            Duration::from_millis(500),
            Duration::from_secs(30),
        )
        .await
        .expect("black's move taken at B");
    assert_eq!(moved["ply"], 1);
    white.join_retrying(&room, "player").await;
    white.send(json!({"t":"resign","room":room}));
    white
        .wait_for(|v| v["t"] == "over" && v["room"] == room.as_str())
        .await;

    // B directs the tournament now: the result is recorded and the second round paired,
    // its room made at B, whose players are told.
    let second = paired(b.addr, &id, 2).await;
    let directed = killed.elapsed();
    assert_eq!(
        second["pairings"][0]["games"][0]["result"], "black",
        "{second}"
    );
    let next = second["pairings"][1]["games"][0]["room"]
        .as_str()
        .unwrap()
        .to_string();
    black
        .wait_for(|v| v["t"] == "created" && v["room"] == next.as_str())
        .await;
    println!(
        "{{\"fault\":\"kill -9 a tournament's director\",\"round_2_paired_ms\":{}}}",
        directed.as_millis()
    );
    drop(b);
}

/// Tournament `id` read through the node at `addr` once `rounds` rounds are paired (asked
/// every 100 ms, for at most 30 s).
async fn paired(addr: std::net::SocketAddr, id: &str, rounds: usize) -> serde_json::Value {
    let started = tokio::time::Instant::now();
    loop {
        let (status, t) = http_get(addr, &format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{t}");
        let t: serde_json::Value = serde_json::from_str(&t).unwrap();
        if t["pairings"].as_array().is_some_and(|p| p.len() >= rounds) {
            return t;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "round {rounds} not paired: {t}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
