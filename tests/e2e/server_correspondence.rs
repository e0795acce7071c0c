//! Correspondence games (days per move) over a real `kibitz serve` started with
//! `--test-clock`, whose clock the test moves ahead: a rated game between two accounts spans a
//! restart and simulated days, each player's list shows whose turn it is with the time left,
//! the vacation is drawn on when a move takes longer than its days, a player away loses
//! nothing, and a flag falls only once the days and the vacation are spent — rated under the
//! game's correspondence key.

use std::net::SocketAddr;
use std::path::Path;

use crate::support::serve::ServeProcess;
use crate::support::*;
use serde_json::{json, Value};

const DAY_MS: u64 = 24 * 3_600_000;

/// A guest who claims `name` on the server at `addr`: its connection, as the account.
async fn account_on(addr: SocketAddr, url: &str, name: &str) -> Client {
    let mut guest = Client::connect(url).await;
    guest.hello(&format!("guest-{name}")).await;
    let (status, body) = http_json(
        addr,
        "POST",
        "/api/accounts",
        json!({"token": guest.token, "name": name, "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let token = guest.token.clone();
    guest.close().await;
    let mut me = Client::connect(url).await;
    me.hello_again(name, &token).await;
    me
}

/// `token`'s correspondence games, as the lobby reads them.
async fn my_games(addr: SocketAddr, token: &str) -> Vec<Value> {
    let bearer = format!("Bearer {token}");
    let (status, _, body) = http_request(
        addr,
        "GET",
        "/api/correspondence",
        &[("Authorization", &bearer)],
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).expect("JSON");
    body["games"].as_array().expect("a list").clone()
}

async fn advance(addr: SocketAddr, ms: u64) {
    let (status, body) =
        http_json(addr, "POST", "/api/test/clock", json!({ "advance_ms": ms })).await;
    assert_eq!(status, 200, "{body}");
}

async fn restart(data: &Path, server: ServeProcess) -> ServeProcess {
    server.kill().await;
    ServeProcess::start(data, &["--test-clock"]).await
}

/// `left` is within a minute under `expected` (the test's own steps take a little time).
fn about(left: &Value, expected: u64) -> bool {
    let left = left.as_u64().expect("a number of ms");
    left <= expected && left + 60_000 > expected
}

#[tokio::test]
async fn a_correspondence_game_spans_a_restart_and_simulated_days() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let server = ServeProcess::start(data.path(), &["--test-clock"]).await;
    let (addr, url) = (server.addr, server.url());
    let mut alice = account_on(addr, &url, "Alice").await;
    let mut bob = account_on(addr, &url, "Bob").await;
    let clock = json!({"days": 2, "vacation_days": 1});
    let (room, state) = alice
        .create(
            json!({"t":"create","game":{"kind":"connect4"},"seat":"black",
                       "clock": clock, "rated": true}),
        )
        .await;
    assert_eq!(state["control"], clock);
    bob.join(&room, "player").await;
    alice
        .expect_where(|m| m["t"] == "state" && m["status"] == "playing")
        .await;
    // Each side's first move may take the days per move before the game is aborted.
    let st = alice.fresh_state(&room, "player").await;
    assert!(about(&st["clock"]["abort_ms"], 2 * DAY_MS), "{st}");
    alice.play(&room, "4").await;
    bob.play(&room, "4").await;
    let moved = alice.play(&room, "3").await;
    assert_eq!(moved["clock"]["running"], "white");
    assert_eq!(moved["clock"]["black_ms"], 3 * DAY_MS);

    // Bob's turn, with 2 days and his vacation day left; Alice waits.
    let bobs = my_games(addr, &bob.token).await;
    assert_eq!(bobs.len(), 1, "{bobs:?}");
    assert_eq!(bobs[0]["room"], room);
    assert_eq!(bobs[0]["your_turn"], true);
    assert_eq!(bobs[0]["opponent"]["name"], "Alice");
    assert!(about(&bobs[0]["left_ms"], 3 * DAY_MS), "{bobs:?}");
    assert_eq!(bobs[0]["vacation_ms"], DAY_MS);
    assert_eq!(bobs[0]["first_move"], false);
    assert_eq!(my_games(addr, &alice.token).await[0]["your_turn"], false);

    // Both leave; the server restarts; a day and a half passes. Nobody lost by being away.
    let (alice_token, bob_token) = (alice.token.clone(), bob.token.clone());
    alice.close().await;
    bob.close().await;
    let server = restart(data.path(), server).await;
    let (addr, url) = (server.addr, server.url());
    advance(addr, DAY_MS + DAY_MS / 2).await;
    let bobs = my_games(addr, &bob_token).await;
    assert_eq!(bobs[0]["status"], "playing");
    assert!(
        about(&bobs[0]["left_ms"], 3 * DAY_MS - (DAY_MS + DAY_MS / 2)),
        "{bobs:?}"
    );

    // Bob comes back and plays after a full day more: half a day over his 2, off his vacation.
    let mut bob = Client::connect(&url).await;
    bob.hello_again("Bob", &bob_token).await;
    let st = bob.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "playing");
    advance(addr, DAY_MS).await;
    let moved = bob.play(&room, "3").await;
    let white_ms = moved["clock"]["white_ms"].as_u64().expect("white's time");
    assert!(
        (2 * DAY_MS + DAY_MS / 2 - 60_000..=2 * DAY_MS + DAY_MS / 2).contains(&white_ms),
        "{moved}"
    );
    let vacation = moved["clock"]["white_vacation_ms"]
        .as_u64()
        .expect("white's vacation");
    assert!(
        (DAY_MS / 2 - 60_000..=DAY_MS / 2).contains(&vacation),
        "{moved}"
    );
    assert_eq!(moved["clock"]["black_vacation_ms"], DAY_MS);
    let alices = my_games(addr, &alice_token).await;
    assert_eq!(alices[0]["your_turn"], true);

    // Alice never comes back: after 3 days (2 and her vacation day) her flag falls.
    advance(addr, 3 * DAY_MS - 120_000).await;
    let st = bob.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "playing", "{st}");
    advance(addr, 120_000).await;
    let over = bob.expect("over").await;
    assert_eq!(over["result"], "white");
    assert_eq!(over["reason"], "timeout");
    let rated = bob.expect("rated").await;
    assert_eq!(
        rated["changes"].as_array().map(Vec::len),
        Some(2),
        "{rated}"
    );
    assert!(my_games(addr, &bob_token).await.is_empty());
    let (status, page) = http_get(addr, "/api/players/Bob").await;
    assert_eq!(status, 200);
    let page: Value = serde_json::from_str(&page).expect("JSON");
    let keys: Vec<&str> = page["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .filter_map(|r| r["key"].as_str())
        .collect();
    // Rated apart from the live game's rating.
    assert_eq!(keys, ["connect4-corr"], "{page}");
}

#[tokio::test]
async fn the_hall_clock_moves_only_on_a_test_server_and_days_are_checked() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let server = ServeProcess::start(data.path(), &[]).await;
    let (status, body) = http_json(
        server.addr,
        "POST",
        "/api/test/clock",
        json!({"advance_ms": 1000}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"].as_str().unwrap().contains("--test-clock"));
    let mut c = Client::connect(&server.url()).await;
    c.hello("Carol").await;
    for (clock, word) in [
        (json!({"days": 0}), "days"),
        (json!({"days": 15}), "days"),
        (json!({"days": 3, "vacation_days": 31}), "vacation_days"),
        (json!({"days": 3, "move_ms": 5000}), "one form"),
    ] {
        let e = c
            .refused(json!({"t":"create","game":{"kind":"othello"},"clock":clock}))
            .await;
        assert!(
            e["message"].as_str().unwrap().contains(word),
            "{clock}: {e}"
        );
    }
    let (status, _, body) =
        http_request(server.addr, "GET", "/api/correspondence", &[], None).await;
    assert_eq!(status, 401, "{body}");
}

#[tokio::test]
async fn a_correspondence_room_waits_for_its_players_after_everyone_left() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let server = ServeProcess::start(data.path(), &["--grace-secs", "1"]).await;
    let mut ann = Client::connect(&server.url()).await;
    ann.hello("Ann").await;
    let othello = json!({"kind":"othello"});
    let (live, _) = ann
        .create(json!({"t":"create","game":othello,"seat":"black","clock":{"move_ms":5000}}))
        .await;
    let (corr, _) = ann
        .create(json!({"t":"create","game":othello,"seat":"black","clock":{"days":2}}))
        .await;
    ann.close().await;
    let status = |room: String| async move {
        let (code, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
        assert_eq!(code, 200, "{body}");
        let game: Value = serde_json::from_str(&body).expect("JSON");
        game["status"].as_str().unwrap_or_default().to_string()
    };
    // The live room closes once its grace has passed with nobody in it; the correspondence
    // room, left at the same moment, still waits.
    within("the live room to close", async {
        while status(live.clone()).await != "over" {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    })
    .await;
    assert_eq!(status(corr.clone()).await, "waiting");
    let mut bob = Client::connect(&server.url()).await;
    bob.hello("Bob").await;
    let st = bob.join(&corr, "player").await;
    assert_eq!(st["status"], "playing", "{st}");
}
