//! Clocks and absence on a frozen tokio clock (the server runs in the test's runtime, so its
//! clocks follow): a Fischer flag falls, a per-move clock resets and falls, an absent player
//! loses by abandonment after the grace period and one who comes back in time does not.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use tokio::time::advance;

fn gomoku() -> serde_json::Value {
    json!({"kind":"gomoku","size":15})
}

#[tokio::test(start_paused = true)]
async fn fischer_flag_falls() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let clock = json!({"initial_ms":60000,"increment_ms":2000});
    let (mut a, mut b, room) = seated_pair(&server, gomoku(), clock).await;
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(
        st["clock"],
        json!({"black_ms":60000,"white_ms":60000,"running":"black"})
    );

    advance(Duration::from_secs(5)).await;
    let moved = a.play(&room, "h8").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":57000,"white_ms":60000,"running":"white"})
    );
    advance(Duration::from_secs(10)).await;
    let moved = b.play(&room, "a1").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":57000,"white_ms":52000,"running":"black"})
    );
    // Black thinks for 56.999 s: still in time.
    advance(Duration::from_millis(56_999)).await;
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "playing");
    assert_eq!(st["clock"]["black_ms"], 1);
    advance(Duration::from_millis(1)).await;
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "white");
        assert_eq!(over["reason"], "timeout");
    }
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(
        st["clock"],
        json!({"black_ms":0,"white_ms":52000,"running":null})
    );
    let e = a.refused(json!({"t":"move","room":room,"move":"h9"})).await;
    assert_eq!(e["code"], "game_over");
}

#[tokio::test(start_paused = true)]
async fn per_move_clock_resets_and_falls() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(), json!({"move_ms":5000})).await;
    advance(Duration::from_millis(4_900)).await;
    let moved = a.play(&room, "h8").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":5000,"white_ms":5000,"running":"white"})
    );
    advance(Duration::from_millis(4_999)).await;
    let moved = b.play(&room, "a1").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":5000,"white_ms":5000,"running":"black"})
    );
    advance(Duration::from_millis(5_000)).await;
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "white");
        assert_eq!(over["reason"], "timeout");
    }
}

#[tokio::test(start_paused = true)]
async fn absent_player_loses_after_the_grace_period() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.grace = Duration::from_secs(60);
    })
    .await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(), json!(null)).await;
    a.play(&room, "h8").await;
    b.saw_ply(&room, 1).await;
    a.close().await;
    advance(Duration::from_secs(1)).await;
    b.expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == false)
        .await;
    advance(Duration::from_secs(59)).await;
    let over = b.expect("over").await;
    assert_eq!(over["result"], "white");
    assert_eq!(over["reason"], "abandoned");
}

#[tokio::test(start_paused = true)]
async fn coming_back_in_time_keeps_the_game() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.grace = Duration::from_secs(60);
    })
    .await;
    let clock = json!({"initial_ms":600000,"increment_ms":0});
    let (a, mut b, room) = seated_pair(&server, gomoku(), clock).await;
    let token = a.token.clone();
    a.close().await;
    advance(Duration::from_secs(1)).await;
    b.expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == false)
        .await;
    advance(Duration::from_secs(50)).await;
    let mut a = Client::connect(&server.url()).await;
    a.hello_again("Alice", &token).await;
    let st = a.join(&room, "player").await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["status"], "playing");
    // The clock kept running while black was away.
    assert_eq!(st["clock"]["black_ms"], 600000 - 51000);
    // Presence changes are batched: they go out once the clock moves on a little.
    advance(Duration::from_secs(1)).await;
    b.expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == true)
        .await;
    advance(Duration::from_secs(119)).await;
    let moved = a.play(&room, "h8").await;
    assert_eq!(moved["clock"]["black_ms"], 600000 - 171000);
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "playing");
}

#[tokio::test(start_paused = true)]
async fn a_silent_connection_is_dropped() {
    let _frozen = freeze_time();
    let server = TestServer::start().await;
    let mut quiet = server.client("Quiet").await;
    // The server pings every 20 s; a client that never answers (this one reads nothing
    // while the clock moves) has sent nothing for 60 s and is dropped.
    advance(Duration::from_secs(61)).await;
    assert_eq!(quiet.expect_close().await, 1008);
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_invitation_moves_on() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.invite_timeout = Duration::from_secs(10);
    })
    .await;
    let mut x = server.bot("BotX", &["gomoku"], 1).await;
    let mut y = server.bot("BotY", &["gomoku"], 1).await;
    let mut a = server.client("Alice").await;
    let (room, _) = a
        .create(json!({"t":"create","game":gomoku(),"seat":"black","bots":{"white":6}}))
        .await;
    let x_first = tokio::select! {
        _ = x.expect("invite") => true,
        _ = y.expect("invite") => false,
    };
    let second = if x_first { &mut y } else { &mut x };
    advance(Duration::from_secs(10)).await;
    let invite = second.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    second.join(&room, "player").await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
}
