//! Floods from one address over real sockets, and what is kept for how long: fresh identities
//! making rooms nobody sits in hit the caps per address (new players, open rooms); the lobby
//! frame stays under 32 KiB however many rooms there are; rooms that wait too long are closed,
//! stored so and not reloaded; players unseen for long are forgotten from memory and the store
//! (their token then gets `bad_token`) unless they sit in an unfinished room. The server runs
//! in this process: its memory is this process's, bounded as stated.

use std::time::Duration;

use crate::support::*;
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::time::advance;

/// The largest lobby frame the server may send, whatever the number of rooms.
const LOBBY_FRAME_MAX: usize = 32 * 1024;

/// The test process may grow by at most this much during a flood.
const RSS_GROWTH_KIB: u64 = 64 * 1024;

fn empty_room() -> Value {
    json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"none"})
}

/// Says hello as a new player on a fresh connection; the refusal's error instead, if any.
async fn new_identity(server: &TestServer, name: &str) -> Result<Client, Value> {
    let mut c = Client::connect(&server.url()).await;
    c.send(json!({"t":"hello","name":name})).await;
    let v = c
        .expect_where(|v| v["t"] == "welcome" || v["t"] == "error")
        .await;
    if v["t"] == "error" {
        return Err(v);
    }
    c.player = v["player"].as_str().unwrap_or_default().to_string();
    c.token = v["token"].as_str().unwrap_or_default().to_string();
    Ok(c)
}

/// Creates rooms nobody sits in until one is refused; returns how many and the refusal.
async fn create_until_refused(c: &mut Client) -> (usize, Value) {
    let mut made = 0;
    loop {
        c.send(empty_room()).await;
        let v = c
            .expect_where(|v| v["t"] == "created" || v["t"] == "error")
            .await;
        if v["t"] == "error" {
            return (made, v);
        }
        c.expect("state").await;
        made += 1;
    }
}

#[tokio::test]
async fn fresh_identities_from_one_address_hit_the_caps() {
    let server = TestServer::start_with(|c| {
        c.limits.new_players_per_address = 30;
        c.limits.open_rooms_per_address = 25;
    })
    .await;
    let rss_before = rss_kib(std::process::id());
    let mut rooms = 0;
    let mut identities = 0;
    let refusal = loop {
        let mut c = match new_identity(&server, &format!("Flood{identities}")).await {
            Ok(c) => c,
            Err(e) => break e,
        };
        identities += 1;
        let (made, why) = create_until_refused(&mut c).await;
        rooms += made;
        assert_eq!(why["code"], "bad_request", "{why}");
        let text = why["message"].as_str().unwrap_or_default().to_string();
        assert!(
            text.contains("per player") || text.contains("from one address"),
            "{text}"
        );
        c.close().await;
    };
    assert_eq!(rooms, 25, "the open rooms of one address");
    assert_eq!(identities, 30, "the new players of one address");
    assert_eq!(refusal["code"], "rate_limited", "{refusal}");
    assert!(
        refusal["message"]
            .as_str()
            .unwrap_or_default()
            .contains("token"),
        "{refusal}"
    );
    assert_eq!(
        metric(&server, r#"kibitz_rooms{status="waiting"}"#).await,
        25.0
    );
    let growth = rss_kib(std::process::id()).saturating_sub(rss_before);
    assert!(growth < RSS_GROWTH_KIB, "grew by {growth} KiB");
}

#[tokio::test]
async fn the_lobby_frame_stays_small_however_many_rooms_there_are() {
    let server = TestServer::start_with(|c| {
        c.limits.new_players_per_address = 10_000;
        c.limits.open_rooms_per_address = 10_000;
    })
    .await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher.expect("lobby").await;
    for i in 0..60 {
        let mut c = new_identity(&server, &format!("Flood{i}"))
            .await
            .expect("hello");
        let (made, _) = create_until_refused(&mut c).await;
        assert_eq!(made, 10, "the open rooms of one player");
        c.close().await;
    }
    // The lists come bounded, with the totals; no frame is larger than the bound.
    let mut largest = 0;
    let last = within("the lobby to count every room", async {
        loop {
            let msg = match watcher.ws.next().await {
                Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => t,
                Some(Ok(_)) => continue,
                other => panic!("lobby connection ended: {other:?}"),
            };
            largest = largest.max(msg.len());
            let v: Value = serde_json::from_str(&msg).expect("JSON");
            if v["t"] == "lobby" && v["open_total"] == 600 {
                return v;
            }
        }
    })
    .await;
    assert_eq!(last["open"].as_array().map(Vec::len), Some(50));
    assert_eq!(last["live_total"], 0);
    assert!(
        largest < LOBBY_FRAME_MAX,
        "a lobby frame of {largest} bytes"
    );
    // The newest first.
    let created: Vec<u64> = last["open"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["created"].as_u64().unwrap())
        .collect();
    assert!(created.windows(2).all(|w| w[0] >= w[1]), "{created:?}");
}

#[tokio::test(start_paused = true)]
async fn rooms_that_wait_too_long_close_and_are_not_reloaded() {
    let _frozen = freeze_time();
    let waiting = |c: &mut kibitz_server::Config| {
        no_idle(c);
        c.limits.waiting_room = Duration::from_secs(600);
    };
    let server = TestServer::start_with(waiting).await;
    let mut a = server.client("Alice").await;
    let (empty, _) = a.create(empty_room()).await;
    let (seated, _) = a
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    advance(Duration::from_secs(599)).await;
    assert_eq!(
        metric(&server, r#"kibitz_rooms{status="waiting"}"#).await,
        2.0
    );
    advance(Duration::from_secs(1)).await;
    for room in [&empty, &seated] {
        let st = a
            .expect_where(|v| v["t"] == "state" && v["room"] == **room && v["status"] == "over")
            .await;
        assert_eq!(st["result"], Value::Null);
    }
    wait_metric(&server, r#"kibitz_rooms{status="waiting"}"#, |v| v == 0.0).await;
    drop(a);
    let data = server.stop().await;
    let server = TestServer::start_in(data, waiting).await;
    assert_eq!(
        metric(&server, r#"kibitz_rooms{status="waiting"}"#).await,
        0.0
    );
    let (status, body) = http_get(server.addr, &format!("/api/games/{empty}")).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#""status":"over""#), "{body}");
}

/// Players stored in the server's file.
fn stored_players(server: &TestServer) -> i64 {
    let db = rusqlite::Connection::open(server.data.path().join("kibitz.db")).expect("open db");
    db.query_row("SELECT COUNT(*) FROM players", [], |r| r.get(0))
        .expect("count players")
}

#[tokio::test]
async fn players_unseen_for_long_are_forgotten_unless_seated_in_a_game() {
    let server = TestServer::start_with(|c| {
        c.limits.player_idle = Duration::from_secs(1);
        c.limits.new_players_per_address = 1000;
    })
    .await;
    // A game in progress: its players are kept while it lasts, connected or not.
    let (a, b, room) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    let (alice, bob) = (a.token.clone(), b.token.clone());
    a.close().await;
    b.close().await;
    let mut gone = Vec::new();
    for i in 0..200 {
        let c = new_identity(&server, &format!("Passer{i}"))
            .await
            .expect("hello");
        gone.push(c.token.clone());
        c.close().await;
    }
    let mut here = server.client("Stays").await;
    assert_eq!(stored_players(&server), 203);

    within("the unseen players to be forgotten", async {
        while stored_players(&server) > 3 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    wait_metric(&server, "kibitz_players", |v| v == 3.0).await;
    // A forgotten token is unknown; the client makes a new identity.
    let mut back = Client::connect(&server.url()).await;
    back.send(json!({"t":"hello","name":"Passer0","token":gone[0]}))
        .await;
    assert_eq!(back.expect_error().await, "bad_token");
    back.hello("Passer0").await;
    // The seated players come back to their game; the connected one never left.
    let mut a = Client::connect(&server.url()).await;
    a.hello_again("Alice", &alice).await;
    assert_eq!(a.join(&room, "player").await["you"], "black");
    let mut b = Client::connect(&server.url()).await;
    b.hello_again("Bob", &bob).await;
    here.send(json!({"t":"lobby"})).await;
    here.expect("lobby").await;
}
