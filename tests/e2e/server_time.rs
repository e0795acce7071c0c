//! Clocks and absence on a frozen tokio clock (the server runs in the test's runtime, so its
//! clocks follow): each side's clock starts with its own first move, a first move not made in
//! time aborts the game, either player may abort until both have moved, a Fischer flag falls,
//! a per-move clock resets and falls, an absent player loses by abandonment after the grace
//! period and one who comes back in time does not, and the one who stayed may claim the win or
//! a draw once half the grace period has gone.

use std::time::Duration;

use crate::support::*;
use serde_json::json;
use tokio::time::advance;

#[tokio::test(start_paused = true)]
async fn fischer_flag_falls() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let clock = json!({"initial_ms":60000,"increment_ms":2000});
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock).await;
    let st = a.fresh_state(&room, "player").await;
    // `abort_ms`: the time left for a first move still awaited (30 s by default).
    assert_eq!(
        st["clock"],
        json!({"black_ms":60000,"white_ms":60000,"running":null,"abort_ms":30000})
    );

    // Each side's first move is free: no time charged, no increment.
    advance(Duration::from_secs(5)).await;
    let moved = a.play(&room, "h8").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":60000,"white_ms":60000,"running":null,"abort_ms":30000})
    );
    advance(Duration::from_secs(10)).await;
    let moved = b.play(&room, "a1").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":60000,"white_ms":60000,"running":"black"})
    );
    advance(Duration::from_secs(3)).await;
    let moved = a.play(&room, "h9").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":59000,"white_ms":60000,"running":"white"})
    );
    advance(Duration::from_secs(10)).await;
    let moved = b.play(&room, "a2").await;
    assert_eq!(
        moved["clock"],
        json!({"black_ms":59000,"white_ms":52000,"running":"black"})
    );
    // Black thinks for 58.999 s: still in time.
    advance(Duration::from_millis(58_999)).await;
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
    let e = a
        .refused(json!({"t":"move","room":room,"move":"h10"}))
        .await;
    assert_eq!(e["code"], "game_over");
}

#[tokio::test(start_paused = true)]
async fn per_move_clock_resets_and_falls() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!({"move_ms":5000})).await;
    a.play(&room, "j10").await;
    b.play(&room, "a15").await;
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
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.play(&room, "a1").await;
    a.saw_ply(&room, 2).await;
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
async fn the_one_who_stayed_may_claim_after_half_the_grace_period() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.grace = Duration::from_secs(60);
    })
    .await;
    for (claim, result) in [("win", "white"), ("draw", "draw")] {
        let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
        a.play(&room, "h8").await;
        b.play(&room, "a1").await;
        a.saw_ply(&room, 2).await;
        let ask = json!({"t":"claim","room":room,"result":claim});
        // Nothing to claim while the opponent is here.
        let e = b.refused(ask.clone()).await;
        assert_eq!(e["code"], "bad_request");
        assert!(e["message"].as_str().unwrap().contains("is here"), "{e}");
        a.close().await;
        advance(Duration::from_secs(1)).await;
        // Everyone can read how long the player who left has, and when a claim is possible.
        let crowd = b
            .expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == false)
            .await;
        assert_eq!(crowd["away"]["black"]["back_ms"], 59_000, "{crowd}");
        assert_eq!(crowd["away"]["black"]["claim_ms"], 29_000, "{crowd}");
        assert!(crowd["away"]["white"].is_null(), "{crowd}");
        let mut watcher = server.client("Carol").await;
        let st = watcher.join(&room, "spectator").await;
        assert_eq!(st["seats"]["black"]["away"]["back_ms"], 59_000, "{st}");
        assert!(st["seats"]["white"]["away"].is_null(), "{st}");
        assert!(st["tournament"].is_null(), "not a tournament's game: {st}");
        advance(Duration::from_millis(28_500)).await;
        let e = b.refused(ask.clone()).await;
        assert_eq!(e["code"], "bad_request");
        assert!(e["message"].as_str().unwrap().contains("in 1 s"), "{e}");
        advance(Duration::from_millis(500)).await;
        b.send(ask).await;
        for c in [&mut b, &mut watcher] {
            let over = c.expect("over").await;
            assert_eq!(over["result"], result);
            assert_eq!(over["reason"], "abandoned");
        }
        // Stored: the room reads the same result back.
        let st = watcher.fresh_state(&room, "spectator").await;
        assert_eq!(st["result"]["result"], result);
        assert!(st["seats"]["black"]["away"].is_null(), "{st}");
    }
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
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock).await;
    // Both first moves, at once: black's clock runs from here.
    a.play(&room, "j10").await;
    b.play(&room, "a1").await;
    a.saw_ply(&room, 2).await;
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
async fn clocks_wait_for_first_moves_and_a_late_first_move_aborts_the_game() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.first_move = Duration::from_secs(20);
    })
    .await;
    let clock = json!({"initial_ms":300000,"increment_ms":3000});
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock).await;
    let mut watcher = server.client("Carol").await;
    watcher.join(&room, "spectator").await;
    // Black takes its time over the first move: nothing runs.
    advance(Duration::from_millis(19_999)).await;
    let st = watcher.fresh_state(&room, "spectator").await;
    assert_eq!(
        (&st["status"], &st["clock"]),
        (
            &json!("playing"),
            &json!({"black_ms":300000,"white_ms":300000,"running":null,"abort_ms":1})
        )
    );
    a.play(&room, "h8").await;
    // White's own twenty seconds start with black's move; white lets them pass.
    advance(Duration::from_millis(19_999)).await;
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["clock"]["running"], json!(null));
    assert_eq!(st["clock"]["abort_ms"], json!(1));
    assert_eq!(st["status"], "playing");
    advance(Duration::from_millis(1)).await;
    for c in [&mut a, &mut b, &mut watcher] {
        let over = c.expect("over").await;
        assert_eq!(
            (&over["result"], &over["reason"]),
            (&json!("aborted"), &json!("aborted"))
        );
    }
    // Stored so before it was told: the game's record says it too.
    let (code, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(code, 200);
    let stored: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(stored["status"], "over");
    assert_eq!(stored["result"]["result"], "aborted");
    let e = a.refused(json!({"t":"move","room":room,"move":"h9"})).await;
    assert_eq!(e["code"], "game_over");
}

#[tokio::test(start_paused = true)]
async fn either_player_aborts_until_both_have_moved() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let clock = json!({"move_ms":10000});
    // White aborts before any move; both hear it, and it counts for nothing.
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock.clone()).await;
    b.send(json!({"t":"abort","room":room})).await;
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "aborted");
    }
    // Black aborts after its own first move.
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock.clone()).await;
    a.play(&room, "h8").await;
    a.send(json!({"t":"abort","room":room})).await;
    assert_eq!(b.expect("over").await["reason"], "aborted");
    // Once both have moved, the game is played: abort is refused and changes nothing.
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), clock).await;
    a.play(&room, "h8").await;
    b.play(&room, "a1").await;
    let e = b.refused(json!({"t":"abort","room":room})).await;
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().unwrap().contains("resign"), "{e}");
    let mut watcher = server.client("Carol").await;
    let e = watcher.refused(json!({"t":"abort","room":room})).await;
    assert_eq!(e["code"], "not_a_player");
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "playing");
}

#[tokio::test(start_paused = true)]
async fn an_untimed_game_waits_for_its_first_move_without_a_limit() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    advance(Duration::from_secs(3600)).await;
    a.play(&room, "h8").await;
    b.saw_ply(&room, 1).await;
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
        .create(json!({"t":"create","game":gomoku(15),"seat":"black","bots":{"white":6}}))
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
