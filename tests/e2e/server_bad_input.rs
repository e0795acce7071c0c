//! Bad input end to end: every refusal is a clear `error` with its code, changes nothing (a
//! following `join` shows the same state), and keeps the connection open — except oversized
//! frames and persistent flooding, which close it. A second room alongside keeps working.

use crate::support::*;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The parts of a `state` that a refused request must not change.
fn essentials(st: &Value) -> Value {
    json!({
        "seq": st["seq"], "moves": st["moves"], "to_move": st["to_move"],
        "status": st["status"], "result": st["result"], "seats": st["seats"],
    })
}

/// Asserts that `msg` draws error `code` (with `ref` when given) and that the room is as it was.
async fn refused_unchanged(c: &mut Client, room: &str, msg: Value, code: &str, as_: &str) {
    let before = essentials(&c.fresh_state(room, as_).await);
    let e = c.refused(msg.clone()).await;
    assert_eq!(e["code"], code, "{msg} -> {e}");
    assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    let after = essentials(&c.fresh_state(room, as_).await);
    assert_eq!(before, after, "{msg} changed the room");
}

#[tokio::test]
async fn identity_errors_keep_the_connection_open() {
    let server = TestServer::start().await;
    let mut c = Client::connect(&server.url()).await;
    let e = c
        .refused(json!({"t":"join","room":"x","as":"player"}))
        .await;
    assert_eq!(e["code"], "hello_required");
    assert_eq!(e["ref"], "join");
    let e = c.refused(json!({"t":"lobby"})).await;
    assert_eq!(e["code"], "hello_required");
    let e = c.refused(json!({"t":"hello","name":""})).await;
    assert_eq!(e["code"], "bad_request");
    let e = c
        .refused(
            json!({"t":"hello","name":"Bot","bot":{"key":"wrong","games":["gomoku"],"capacity":1}}),
        )
        .await;
    assert_eq!(e["code"], "bad_bot_key");
    let e = c
        .refused(json!({"t":"hello","name":"Eve","token":"not-a-token"}))
        .await;
    assert_eq!(e["code"], "bad_token");
    // Still not welcomed: still hello_required.
    let e = c.refused(json!({"t":"lobby"})).await;
    assert_eq!(e["code"], "hello_required");
    c.hello("Eve").await;
    let e = c.refused(json!({"t":"hello","name":"Eve"})).await;
    assert_eq!(e["code"], "bad_request");
    c.send(json!({"t":"lobby"})).await;
    c.expect("lobby").await;
}

#[tokio::test]
async fn malformed_frames_change_nothing() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    let (mut c, mut d, other) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;

    let before = essentials(&a.fresh_state(&room, "player").await);
    for (frame, code) in [
        ("{not json", "bad_json"),
        ("[1,2]", "bad_json"),
        ("\"move\"", "bad_json"),
        (r#"{"room":"r"}"#, "unknown_type"),
        (r#"{"t":5}"#, "unknown_type"),
        (r#"{"t":"dance","room":"r"}"#, "unknown_type"),
    ] {
        a.send_raw(frame).await;
        let e = a.expect("error").await;
        assert_eq!(e["code"], code, "{frame} -> {e}");
    }
    for (msg, code) in [
        (json!({"t":"move","room":room}), "bad_request"),
        (json!({"t":"move","room":room,"move":5}), "bad_request"),
        (json!({"t":"move","move":"h9"}), "bad_request"),
        (
            json!({"t":"undo_reply","room":room,"accept":"yes"}),
            "bad_request",
        ),
        (
            json!({"t":"join","room":room,"as":"referee"}),
            "bad_request",
        ),
        (json!({"t":"create","game":{"kind":"chess"}}), "bad_request"),
        (
            json!({"t":"create","game":{"kind":"gomoku","size":30}}),
            "bad_game",
        ),
        (
            json!({"t":"create","game":{"kind":"connect4","cols":3,"rows":6}}),
            "bad_game",
        ),
        (
            json!({"t":"create","game":gomoku(15),"opening":["h8","h8"]}),
            "bad_game",
        ),
        (
            json!({"t":"create","game":gomoku(15),"clock":{"initial_ms":5}}),
            "bad_request",
        ),
        (
            json!({"t":"create","game":gomoku(15),"bots":{"green":3}}),
            "bad_request",
        ),
        (
            json!({"t":"create","game":gomoku(15),"bots":{"white":11}}),
            "bad_request",
        ),
        (
            json!({"t":"join","room":"no-such-room","as":"player"}),
            "no_such_room",
        ),
        (
            json!({"t":"move","room":"no-such-room","move":"h8"}),
            "no_such_room",
        ),
    ] {
        let e = a.refused(msg.clone()).await;
        assert_eq!(e["code"], code, "{msg} -> {e}");
    }
    // A wrong field reports the request it belongs to.
    let e = b
        .refused(json!({"t":"move","room":room,"move":[1],"id":"q"}))
        .await;
    assert_eq!(e["ref"], "move");
    assert_eq!(e["room"], room.as_str());
    assert_eq!(e["id"], "q");
    // A request id holding a control character (a store may not keep it) is refused; the
    // connection stays.
    for id in ["m\u{0}1", "m\n1"] {
        let e = b
            .refused(json!({"t":"move","room":room,"move":"a1","id":id}))
            .await;
        assert_eq!(e["code"], "bad_request", "{e}");
        assert!(
            e["message"].as_str().unwrap_or("").contains("control"),
            "{e}"
        );
    }
    // A request id longer than 64 characters (counted as characters, not bytes) is refused
    // with the limit named, and is not echoed.
    for id in ["x".repeat(65), "x".repeat(4000), "é".repeat(65)] {
        let e = b
            .refused(json!({"t":"move","room":room,"move":"a1","id":id}))
            .await;
        assert_eq!(e["code"], "bad_request", "{e}");
        assert!(e["message"].as_str().unwrap_or("").contains("64"), "{e}");
        assert!(e.get("id").is_none(), "{e}");
    }
    assert_eq!(essentials(&a.fresh_state(&room, "player").await), before);

    // Unknown fields are ignored: the move is played.
    b.send(json!({"t":"move","room":room,"move":"a1","colour":"mauve"}))
        .await;
    a.saw_ply(&room, 2).await;

    // The other room never noticed.
    c.play(&other, "h8").await;
    d.play(&other, "h9").await;
}

#[tokio::test]
async fn illegal_moves_change_nothing() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.saw_ply(&room, 1).await;
    let mv = |m: &str| json!({"t":"move","room":room,"move":m});
    refused_unchanged(&mut a, &room, mv("h9"), "not_your_turn", "player").await;
    refused_unchanged(&mut b, &room, mv("h8"), "illegal_move", "player").await;
    refused_unchanged(&mut b, &room, mv("p8"), "illegal_move", "player").await;
    refused_unchanged(&mut b, &room, mv("h16"), "illegal_move", "player").await;
    refused_unchanged(&mut b, &room, mv("8h"), "illegal_move", "player").await;
    refused_unchanged(&mut b, &room, mv("pass"), "illegal_move", "player").await;
    refused_unchanged(&mut b, &room, mv(&"h".repeat(40)), "illegal_move", "player").await;
    // Nothing to take back for white yet, and no offer to answer.
    let undo_reply = json!({"t":"undo_reply","room":room,"accept":true});
    refused_unchanged(&mut b, &room, undo_reply, "bad_request", "player").await;
    let draw_reply = json!({"t":"draw_reply","room":room,"accept":true});
    refused_unchanged(&mut b, &room, draw_reply, "bad_request", "player").await;
    refused_unchanged(
        &mut b,
        &room,
        json!({"t":"undo","room":room}),
        "bad_request",
        "player",
    )
    .await;

    // Someone else: not seated, cannot act; cannot sit either.
    let mut s = server.client("Sam").await;
    refused_unchanged(&mut s, &room, mv("a1"), "not_a_player", "spectator").await;
    refused_unchanged(
        &mut s,
        &room,
        json!({"t":"resign","room":room}),
        "not_a_player",
        "spectator",
    )
    .await;
    refused_unchanged(
        &mut s,
        &room,
        json!({"t":"draw","room":room}),
        "not_a_player",
        "spectator",
    )
    .await;
    refused_unchanged(
        &mut s,
        &room,
        json!({"t":"undo","room":room}),
        "not_a_player",
        "spectator",
    )
    .await;
    refused_unchanged(
        &mut s,
        &room,
        json!({"t":"join","room":room,"as":"player"}),
        "room_full",
        "spectator",
    )
    .await;
    // A player who never joined this room is not seated in it either.
    let mut e = server.client("Eve").await;
    let e_err = e.refused(mv("a1")).await;
    assert_eq!(e_err["code"], "not_a_player");

    // The game goes on as if nothing happened.
    b.play(&room, "a1").await;
    a.saw_ply(&room, 2).await;
}

#[tokio::test]
async fn othello_and_connect_four_refusals() {
    let server = TestServer::start().await;
    let (mut a, _b, room) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    let mv = |m: &str| json!({"t":"move","room":room,"move":m});
    // a1 flips nothing; d4 is occupied; i9 is off the board.
    refused_unchanged(&mut a, &room, mv("a1"), "illegal_move", "player").await;
    refused_unchanged(&mut a, &room, mv("d4"), "illegal_move", "player").await;
    refused_unchanged(&mut a, &room, mv("i9"), "illegal_move", "player").await;
    refused_unchanged(&mut a, &room, mv("pass"), "illegal_move", "player").await;
    a.play(&room, "f5").await;

    let game = json!({"kind":"connect4","cols":4,"rows":4});
    let (mut c, mut d, room) = seated_pair(&server, game, json!(null)).await;
    for (i, m) in ["1", "1", "1", "1"].iter().enumerate() {
        let mover = if i % 2 == 0 { &mut c } else { &mut d };
        mover.play(&room, m).await;
    }
    let mv = |m: &str| json!({"t":"move","room":room,"move":m});
    refused_unchanged(&mut c, &room, mv("1"), "illegal_move", "player").await;
    refused_unchanged(&mut c, &room, mv("5"), "illegal_move", "player").await;
    refused_unchanged(&mut c, &room, mv("0"), "illegal_move", "player").await;
    refused_unchanged(&mut c, &room, mv("a1"), "illegal_move", "player").await;
    c.play(&room, "2").await;
}

#[tokio::test]
async fn nothing_after_the_game_is_over() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.send(json!({"t":"resign","room":room})).await;
    a.expect("over").await;
    for msg in [
        json!({"t":"move","room":room,"move":"h9"}),
        json!({"t":"resign","room":room}),
        json!({"t":"undo","room":room}),
        json!({"t":"draw","room":room}),
    ] {
        refused_unchanged(&mut a, &room, msg.clone(), "game_over", "player").await;
        refused_unchanged(&mut b, &room, msg, "game_over", "player").await;
    }
    let mut s = server.client("Sam").await;
    refused_unchanged(
        &mut s,
        &room,
        json!({"t":"join","room":room,"as":"player"}),
        "room_full",
        "spectator",
    )
    .await;
    // Chat still works after the end.
    a.send(json!({"t":"chat","room":room,"text":"gg"})).await;
    b.expect_where(|v| v["t"] == "chat" && v["text"] == "gg")
        .await;
}

#[tokio::test]
async fn chat_limits() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    let mut s = server.client("Sam").await;
    s.join(&room, "spectator").await;
    let chat = |text: &str| json!({"t":"chat","room":room,"text":text});

    refused_unchanged(&mut a, &room, chat(&"x".repeat(141)), "too_long", "player").await;
    a.send(chat(&"é".repeat(140))).await;
    let me = a.player.clone();
    b.expect_where(|v| v["t"] == "chat" && v["from"] == me.as_str())
        .await;
    refused_unchanged(
        &mut a,
        &room,
        chat(&"é".repeat(140)),
        "rate_limited",
        "player",
    )
    .await;
    for i in 0..4 {
        a.send(chat(&format!("line {i}"))).await;
        let line = b
            .expect_where(|v| v["t"] == "chat" && v["text"] == format!("line {i}"))
            .await;
        assert_eq!(line["seat"], "black");
        assert_eq!(line["name"], "Alice");
    }
    // Five lines in ten seconds: the sixth is refused.
    refused_unchanged(&mut a, &room, chat("one more"), "rate_limited", "player").await;
    refused_unchanged(&mut a, &room, chat("   "), "bad_request", "player").await;

    // Spectator chat reaches spectators only and takes no number from the room's sequence.
    let seq = s.fresh_state(&room, "spectator").await["seq"].clone();
    s.send(chat("who wins?")).await;
    let line = s
        .expect_where(|v| v["t"] == "chat" && v["text"] == "who wins?")
        .await;
    assert_eq!(line["seat"], json!(null));
    assert_eq!(line["seq"], seq);
    b.send(chat("from white")).await;
    let me = a.player.clone();
    let first = a
        .expect_where(|v| v["t"] == "chat" && v["from"] != me.as_str())
        .await;
    assert_eq!(
        first["text"], "from white",
        "players do not see spectator chat"
    );
    s.expect_where(|v| v["t"] == "chat" && v["text"] == "from white")
        .await;
}

#[tokio::test]
async fn binary_frames_are_refused_and_big_frames_close() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    let e = a.expect("error").await;
    assert_eq!(e["code"], "bad_request");
    a.play(&room, "h8").await;

    // Just under the limit is an ordinary (refused) frame; over it closes with 1009.
    let pad = "x".repeat(8 * 1024 - 40);
    a.send_raw(&format!(r#"{{"t":"dance","pad":"{pad}"}}"#))
        .await;
    assert_eq!(a.expect_error().await, "unknown_type");
    let big = format!(
        r#"{{"t":"chat","room":"{room}","text":"{}"}}"#,
        "x".repeat(9000)
    );
    a.send_raw(&big).await;
    assert_eq!(a.expect_close().await, 1009);
    // A much larger frame (200 KiB) gets the same clear close, not a transport error.
    let mut c = server.client("Huge").await;
    c.send_raw(&"y".repeat(200 * 1024)).await;
    assert_eq!(c.expect_close().await, 1009);

    // The opponent and the room are fine; the seat waits for its owner.
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!(["h8"]));
    assert_eq!(st["status"], "playing");
    b.play(&room, "a1").await;
}

#[tokio::test]
async fn flooding_is_refused_then_closed() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    let mut f = server.client("Flood").await;
    f.join(&room, "spectator").await;
    let mut codes = Vec::new();
    // 50 messages per 20 s for a spectator, then refusals; past 20 of them, 1008.
    let join = json!({"t":"join","room":room,"as":"spectator"}).to_string();
    for _ in 0..80 {
        // The server may close before the last ones arrive.
        let _ = f.ws.send(Message::Text(join.clone().into())).await;
    }
    let close = loop {
        match bounded(f.ws.next()).await.expect("the flood is answered") {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["t"] == "error" {
                    codes.push(v["code"].as_str().unwrap().to_string());
                }
            }
            Some(Ok(Message::Close(frame))) => break frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break None,
        }
    };
    assert_eq!(close, Some(1008));
    assert!(codes.len() > 5, "{codes:?}");
    assert!(codes.iter().all(|c| c == "rate_limited"), "{codes:?}");

    // The players did not suffer.
    a.play(&room, "h8").await;
    b.play(&room, "a1").await;
    let metrics = server.metrics().await;
    assert!(
        metrics.contains(r#"kibitz_errors_total{code="rate_limited"}"#),
        "{metrics}"
    );
}

#[tokio::test]
async fn open_rooms_per_player_are_limited() {
    let server = TestServer::start().await;
    let mut a = server.client("Alice").await;
    let mut rooms = Vec::new();
    for _ in 0..10 {
        let (room, _) = a
            .create(json!({"t":"create","game":gomoku(15),"seat":"black"}))
            .await;
        rooms.push(room);
    }
    let e = a
        .refused(json!({"t":"create","game":gomoku(15),"seat":"black"}))
        .await;
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().unwrap().contains("10"), "{e}");
    // Leaving a waiting room gives the seat up and closes the room: a slot is free again.
    a.send(json!({"t":"leave","room":rooms[0]})).await;
    let mut s = server.client("Sam").await;
    let st = s.join(&rooms[0], "spectator").await;
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"], json!(null));
    a.create(json!({"t":"create","game":gomoku(15),"seat":"black"}))
        .await;
}
