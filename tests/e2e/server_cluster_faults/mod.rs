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

mod hall_wide;
mod kills;
mod outages;

use std::time::Duration;

use crate::support::cluster::{
    one_history_stored, steps_back, stopped, tells_ply, Hall, Proxy, Recorded, LEASE_MS,
};
use crate::support::{http_get, http_json, metric_in, signal, within};
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

/// The checker finds a step back in the moves told or in `seq`, and lets the one repeat the
/// protocol makes — its own `moved` again, answering a resent move id — pass.
#[test]
fn the_checker_finds_the_past_and_lets_an_answer_to_a_resent_id_repeat() {
    let moved = |ply: u64, seq: u64, id: Option<&str>| {
        let mut v = json!({"t":"moved","room":"r","ply":ply,"seq":seq,"move":format!("m{ply}")});
        if let Some(id) = id {
            v["id"] = json!(id);
        }
        v
    };
    let state =
        |plies: usize, seq: u64| json!({"t":"state","room":"r","seq":seq,"moves":vec!["x"; plies]});
    let fine = [
        moved(1, 1, Some("a")),
        moved(2, 2, None),
        moved(1, 1, Some("a")),
        state(2, 2),
    ];
    assert_eq!(steps_back(&fine, "r"), Vec::<String>::new());
    let stale_state = [moved(1, 1, None), moved(2, 2, None), state(1, 1)];
    assert_eq!(
        steps_back(&stale_state, "r").len(),
        2,
        "fewer moves and a lower seq"
    );
    let stale_move = [moved(1, 1, Some("a")), moved(2, 2, None), moved(1, 1, None)];
    assert_eq!(
        steps_back(&stale_move, "r").len(),
        2,
        "an old move told again, not an answer"
    );
    let other_answer = [
        moved(1, 1, Some("a")),
        moved(2, 2, None),
        moved(1, 1, Some("b")),
    ];
    assert_eq!(
        steps_back(&other_answer, "r").len(),
        2,
        "an answer to an id never sent before"
    );
    let elsewhere = [
        moved(2, 2, None),
        json!({"t":"state","room":"q","seq":1,"moves":[]}),
    ];
    assert_eq!(steps_back(&elsewhere, "r"), Vec::<String>::new());
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
    stopped(b.pid).await;
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
        let all = client.all();
        let back = steps_back(&all, &room);
        assert!(
            back.is_empty(),
            "{} saw the past: {back:#?}\nall it saw: {all:#?}",
            client.name
        );
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
