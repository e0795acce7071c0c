//! End-to-end room life: take-backs, draws, resignation, rematch, reconnecting with the token,
//! idempotent move resends, the lobby lists, quick pairing and challenges.

use crate::support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn undo_accepted_then_declined() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.play(&room, "a1").await;
    a.play(&room, "h9").await;
    b.saw_ply(&room, 3).await;

    a.send(json!({"t":"undo","room":room})).await;
    for c in [&mut a, &mut b] {
        let offer = c.expect("undo_offer").await;
        assert_eq!(offer["by"], "black");
        assert_eq!(offer["seq"], 4);
    }
    // The asker cannot answer its own request.
    let e = a
        .refused(json!({"t":"undo_reply","room":room,"accept":true}))
        .await;
    assert_eq!(e["code"], "bad_request");
    b.send(json!({"t":"undo_reply","room":room,"accept":true}))
        .await;
    for c in [&mut a, &mut b] {
        let undone = c.expect("undone").await;
        assert_eq!(undone["ply"], 2);
        assert_eq!(undone["seq"], 5);
    }
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!(["h8", "a1"]));
    assert_eq!(st["to_move"], "black");
    assert_eq!(st["seq"], 5);

    // Now white asks to take back a1 (and black's reply after it); black declines.
    a.play(&room, "j9").await;
    b.send(json!({"t":"undo","room":room})).await;
    a.expect("undo_offer").await;
    a.send(json!({"t":"undo_reply","room":room,"accept":false}))
        .await;
    // The refusal is announced as a line from the room itself.
    let line = b
        .expect_where(|v| v["t"] == "chat" && v["from"] == "")
        .await;
    assert!(
        line["text"].as_str().unwrap().contains("declines"),
        "{line}"
    );
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!(["h8", "a1", "j9"]));
    assert_eq!(st["to_move"], "white");
    // The offer is gone: a second answer has nothing to answer.
    let e = a
        .refused(json!({"t":"undo_reply","room":room,"accept":true}))
        .await;
    assert_eq!(e["code"], "bad_request");
}

#[tokio::test]
async fn draw_by_agreement_and_resignation() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    a.send(json!({"t":"draw","room":room})).await;
    let offer = b.expect("draw_offer").await;
    assert_eq!(offer["by"], "black");
    b.send(json!({"t":"draw_reply","room":room,"accept":false}))
        .await;
    a.expect_where(|v| v["t"] == "chat" && v["from"] == "")
        .await;
    // A declined offer does not end anything; a new one accepted does.
    b.play(&room, "a1").await;
    b.send(json!({"t":"draw","room":room})).await;
    a.expect("draw_offer").await;
    a.send(json!({"t":"draw_reply","room":room,"accept":true}))
        .await;
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "draw");
        assert_eq!(over["reason"], "agreement");
    }

    let (mut c, mut d, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    c.play(&room, "h8").await;
    d.send(json!({"t":"resign","room":room})).await;
    for p in [&mut c, &mut d] {
        let over = p.expect("over").await;
        assert_eq!(over["result"], "black");
        assert_eq!(over["reason"], "resign");
        assert!(over.get("line").is_none());
    }
    let st = c.fresh_state(&room, "player").await;
    assert_eq!(st["status"], "over");
    assert_eq!(st["result"]["reason"], "resign");
}

#[tokio::test]
async fn rematch_swaps_colours_and_seats_both() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.send(json!({"t":"resign","room":room})).await;
    a.expect("over").await;
    b.expect("over").await;

    a.send(json!({"t":"rematch","room":room})).await;
    let line = b
        .expect_where(|v| v["t"] == "chat" && v["from"] == "")
        .await;
    assert!(line["text"].as_str().unwrap().contains("rematch"), "{line}");
    b.send(json!({"t":"rematch","room":room})).await;
    let mut next = String::new();
    for c in [&mut a, &mut b] {
        let r = c.expect("rematch").await;
        next = r["next"].as_str().unwrap().to_string();
        assert_ne!(next, room);
    }
    let sa = a.join(&next, "player").await;
    let sb = b.join(&next, "player").await;
    for st in [&sa, &sb] {
        assert_eq!(st["status"], "playing");
        assert_eq!(st["seats"]["black"]["player"], b.player.as_str());
        assert_eq!(st["seats"]["white"]["player"], a.player.as_str());
        assert_eq!(st["moves"], json!([]));
    }
    assert_eq!(sa["you"], "white");
    assert_eq!(sb["you"], "black");
    // The new game is played by the new colours.
    let e = a.refused(json!({"t":"move","room":next,"move":"h8"})).await;
    assert_eq!(e["code"], "not_your_turn");
    b.play(&next, "h8").await;
    a.saw_ply(&next, 1).await;
}

#[tokio::test]
async fn reconnect_with_the_token_mid_game() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.play(&room, "h8").await;
    b.play(&room, "a1").await;
    a.saw_ply(&room, 2).await;
    let (player, token) = (a.player.clone(), a.token.clone());
    a.close().await;
    let crowd = b
        .expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == false)
        .await;
    assert_eq!(crowd["online"]["white"], true);

    // A bad token is refused without a welcome; the right one resumes the identity.
    let mut a = Client::connect(&server.url()).await;
    let e = a
        .refused(json!({"t":"hello","name":"Alice","token":"0123456789abcdef"}))
        .await;
    assert_eq!(e["code"], "bad_token");
    let w = a.hello_again("Alice", &token).await;
    assert_eq!(w["player"], player.as_str());
    let st = a.join(&room, "player").await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["moves"], json!(["h8", "a1"]));
    assert_eq!(st["seats"]["black"]["online"], true);
    b.expect_where(|v| v["t"] == "crowd" && v["online"]["black"] == true)
        .await;
    a.play(&room, "h9").await;
    b.saw_ply(&room, 3).await;
    b.play(&room, "a2").await;
    a.saw_ply(&room, 4).await;
}

#[tokio::test]
async fn a_resent_move_is_answered_not_replayed() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    let mv = json!({"t":"move","room":room,"move":"h8","id":"req-1"});
    a.send(mv.clone()).await;
    let first = a.expect_where(|v| v["t"] == "moved").await;
    assert_eq!(first["id"], "req-1");
    a.send(mv.clone()).await;
    let again = a.expect_where(|v| v["t"] == "moved").await;
    assert_eq!(again, first, "the same answer");
    // The opponent saw one move, and it is white's turn.
    let seen = b.saw_ply(&room, 1).await;
    assert!(seen.get("id").is_none());
    b.play(&room, "a1").await;
    let st = b.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!(["h8", "a1"]));

    // After a reconnect the resend still gets the first answer, not an error.
    let token = a.token.clone();
    a.close().await;
    let mut a = Client::connect(&server.url()).await;
    a.hello_again("Alice", &token).await;
    a.send(mv).await;
    let after = a.expect_where(|v| v["t"] == "moved").await;
    assert_eq!(after, first);
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!(["h8", "a1"]));
    assert_eq!(st["to_move"], "black");
}

fn lists_have(v: &Value, list: &str, room: &str) -> bool {
    v["t"] == "lobby"
        && v[list]
            .as_array()
            .is_some_and(|l| l.iter().any(|r| r["room"] == room))
}

#[tokio::test]
async fn lobby_lists_follow_rooms_bots_and_seeks() {
    let server = TestServer::start().await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    let first = watcher.expect("lobby").await;
    for key in ["open", "live", "bots", "seeks"] {
        assert!(first[key].is_array(), "{first}");
    }

    let mut a = server.client("Alice").await;
    let clock = json!({"initial_ms":300000,"increment_ms":2000});
    let (room, _) = a
        .create(json!({"t":"create","game":gomoku(15),"seat":"black","clock":clock}))
        .await;
    let (hidden, _) = a
        .create(json!({"t":"create","game":gomoku(15),"seat":"black","private":true}))
        .await;
    let lobby = watcher.expect_where(|v| lists_have(v, "open", &room)).await;
    let open = lobby["open"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room.as_str())
        .unwrap();
    assert_eq!(open["clock"], clock);
    assert_eq!(open["seats"]["black"]["name"], "Alice");
    assert!(open["seats"]["white"].is_null());
    assert!(
        !lists_have(&lobby, "open", &hidden),
        "private rooms are not listed"
    );

    // The game starts: the room moves from open to live.
    let mut b = server.client("Bob").await;
    b.join(&room, "player").await;
    let lobby = watcher.expect_where(|v| lists_have(v, "live", &room)).await;
    assert!(!lists_have(&lobby, "open", &room));

    // A bot and a seek show up.
    let _bot = server.bot("Kibot", &["gomoku", "connect4"], 3).await;
    let mut c = server.client("Carol").await;
    c.send(json!({"t":"seek","game":{"kind":"othello"},"clock":null}))
        .await;
    c.expect("seeking").await;
    let lobby = watcher
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["bots"].as_array().is_some_and(|b| !b.is_empty())
                && v["seeks"].as_array().is_some_and(|s| !s.is_empty())
        })
        .await;
    let bot = &lobby["bots"][0];
    assert_eq!(bot["name"], "Kibot");
    assert_eq!(bot["games"], json!(["gomoku", "connect4"]));
    assert_eq!(bot["capacity"], 3);
    assert_eq!(bot["busy"], 0);
    let seek = &lobby["seeks"][0];
    assert_eq!(seek["game"]["kind"], "othello");
    assert_eq!(seek["waiting"], 1);
}

#[tokio::test]
async fn quick_pairing_pairs_equal_seeks_only() {
    let server = TestServer::start().await;
    let clock = json!({"initial_ms":60000,"increment_ms":0});
    let seek = json!({"t":"seek","game":gomoku(15),"clock":clock});
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let mut c = server.client("Carol").await;
    let mut d = server.client("Dave").await;
    a.send(seek.clone()).await;
    a.expect("seeking").await;
    // Another clock, another game: no pairing with Alice.
    c.send(json!({"t":"seek","game":gomoku(15),"clock":{"move_ms":5000}}))
        .await;
    c.expect("seeking").await;
    d.send(json!({"t":"seek","game":{"kind":"othello"},"clock":clock}))
        .await;
    d.expect("seeking").await;
    // The same game with its defaults spelled out is the same game.
    b.send(json!({"t":"seek","game":{"kind":"gomoku"},"clock":clock}))
        .await;
    let room_a = a.expect("created").await["room"].clone();
    let room_b = b.expect("created").await["room"].clone();
    assert_eq!(room_a, room_b);
    let room = room_a.as_str().unwrap().to_string();
    let sa = a.expect("state").await;
    let sb = b.expect("state").await;
    for st in [&sa, &sb] {
        assert_eq!(st["room"], room.as_str());
        assert_eq!(st["status"], "playing");
        assert_eq!(st["clock"]["black_ms"], 60000);
    }
    let you = [sa["you"].as_str().unwrap(), sb["you"].as_str().unwrap()];
    assert!(
        you == ["black", "white"] || you == ["white", "black"],
        "{you:?}"
    );
    let (black, white) = if you[0] == "black" {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    black.play(&room, "h8").await;
    white.saw_ply(&room, 1).await;

    // Carol stops waiting; Dave's othello seek is still listed.
    c.send(json!({"t":"unseek"})).await;
    let mut w = server.client("Watcher").await;
    w.send(json!({"t":"lobby"})).await;
    let lobby = w
        .expect_where(|v| v["t"] == "lobby" && v["seeks"].as_array().is_some_and(|s| s.len() == 1))
        .await;
    assert_eq!(lobby["seeks"][0]["game"]["kind"], "othello");
    // Closing the connection ends a seek too.
    d.close().await;
    w.expect_where(|v| v["t"] == "lobby" && v["seeks"] == json!([]))
        .await;
}

#[tokio::test]
async fn a_taken_back_moves_id_can_be_used_again() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, gomoku(15), json!(null)).await;
    a.send(json!({"t":"move","room":room,"move":"h8","id":"x1"}))
        .await;
    a.saw_move("h8").await;
    b.play(&room, "a1").await;
    a.send(json!({"t":"undo","room":room})).await;
    b.expect("undo_offer").await;
    b.send(json!({"t":"undo_reply","room":room,"accept":true}))
        .await;
    a.expect("undone").await;
    // The id of the taken-back h8 now names a new move, which is played.
    a.send(json!({"t":"move","room":room,"move":"h9","id":"x1"}))
        .await;
    let moved = a.saw_move("h9").await;
    assert_eq!(moved["id"], "x1");
    assert_eq!(moved["ply"], 1);
    b.saw_move("h9").await;
}

/// A room that waits for its players goes with the last person in it, a grace period later,
/// as a seek goes with its connection: one nobody sits in when its creator closes the tab,
/// and one whose creator stood up and left. A creator who comes back within the grace keeps
/// the room.
#[tokio::test]
async fn a_waiting_room_goes_with_the_last_person_in_it() {
    let server = TestServer::start_with(|c| {
        c.limits.grace = std::time::Duration::from_secs(1);
    })
    .await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;

    let mut a = server.client("Alice").await;
    let (unseated, _) = a
        .create(json!({"t":"create","game":gomoku(15),"seat":"none"}))
        .await;
    let (seated, _) = a
        .create(json!({"t":"create","game":gomoku(15),"seat":"black"}))
        .await;
    let mut b = server.client("Bob").await;
    let (kept, _) = b
        .create(json!({"t":"create","game":gomoku(15),"seat":"none"}))
        .await;
    watcher
        .expect_where(|v| {
            lists_have(v, "open", &unseated)
                && lists_have(v, "open", &seated)
                && lists_have(v, "open", &kept)
        })
        .await;

    // Bob leaves his room and comes back at once; then Alice stands up in one room and
    // closes her connection.
    b.send(json!({"t":"leave","room":kept})).await;
    b.send(json!({"t":"join","room":kept,"as":"spectator"}))
        .await;
    b.expect_where(|v| v["t"] == "state" && v["room"] == kept.as_str())
        .await;
    a.send(json!({"t":"leave","room":seated})).await;
    a.close().await;

    // Alice's rooms leave the lobby once the grace is over, not after the waiting time;
    // Bob's, whose grace would have begun earlier, stays.
    watcher
        .expect_where(|v| {
            lists_have(v, "open", &kept)
                && !lists_have(v, "open", &unseated)
                && !lists_have(v, "open", &seated)
        })
        .await;
    for room in [&unseated, &seated] {
        let st = watcher.fresh_state(room, "spectator").await;
        assert_eq!(st["status"], "over", "{st}");
        assert!(st["result"].is_null(), "closed without a result: {st}");
    }
    // Bob's room is still open for a second player.
    let mut c = server.client("Carol").await;
    c.send(json!({"t":"join","room":kept,"as":"player"})).await;
    let st = c
        .expect_where(|v| v["t"] == "state" && v["room"] == kept.as_str())
        .await;
    assert_eq!(st["status"], "waiting", "{st}");
}

fn othello_challenge(to: &str, color: &str) -> Value {
    json!({"t":"challenge","to":to,"game":{"kind":"othello"},"clock":null,"color":color})
}

#[tokio::test]
async fn a_challenge_declined_says_why_and_an_accepted_one_seats_both_as_asked() {
    let server = TestServer::start().await;
    let mut ann = server.client("Ann").await;
    let mut bob = server.client("Bob").await;
    // Bob's second tab: the same player on another connection.
    let mut bob_tab = Client::connect(&server.url()).await;
    bob_tab
        .send(json!({"t":"hello","name":"Bob","token":bob.token}))
        .await;
    bob_tab.expect("welcome").await;

    ann.send(othello_challenge(&bob.player, "white")).await;
    let sent = ann.expect("challenge_sent").await;
    let id = sent["challenge"].clone();
    let told = bob.expect("challenged").await;
    assert_eq!(told["challenge"], id);
    assert_eq!(told["from"], json!({"player": ann.player, "name": "Ann"}));
    assert_eq!(
        (&told["color"], &told["rated"]),
        (&json!("white"), &json!(false))
    );
    assert_eq!(
        bob_tab.expect("challenged").await["challenge"],
        id,
        "every tab hears it"
    );

    bob.send(json!({"t":"challenge_reply","challenge":id,"accept":false,"reason":"too_fast"}))
        .await;
    let declined = ann.expect("challenge_declined").await;
    assert_eq!(declined["reason"], "too_fast");
    assert_eq!(
        declined["message"],
        "Bob declined: this time control is too fast for them"
    );
    let gone = bob_tab.expect("challenge_gone").await;
    assert_eq!(
        (&gone["challenge"], &gone["why"]),
        (&id, &json!("declined"))
    );
    // Answered once: a second answer finds it gone.
    bob.send(json!({"t":"challenge_reply","challenge":id,"accept":true}))
        .await;
    assert_eq!(bob.expect_error().await, "bad_request");

    ann.send(othello_challenge(&bob.player, "white")).await;
    let id = ann.expect("challenge_sent").await["challenge"].clone();
    bob.expect_where(|v| v["t"] == "challenged" && v["challenge"] == id)
        .await;
    bob.send(json!({"t":"challenge_reply","challenge":id,"accept":true}))
        .await;
    let room = ann.expect("created").await["room"].clone();
    assert_eq!(bob.expect("created").await["room"], room);
    for c in [&mut ann, &mut bob] {
        let state = c
            .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
            .await;
        assert_eq!(state["seats"]["white"]["name"], "Ann", "{state}");
        assert_eq!(state["seats"]["black"]["name"], "Bob", "{state}");
    }
}

#[tokio::test]
async fn challenges_nobody_can_take_are_refused_and_withdrawn_ones_are_gone() {
    let server = TestServer::start().await;
    let mut ann = server.client("Ann").await;
    let mut bob = server.client("Bob").await;
    ann.send(othello_challenge("nobody-here", "black")).await;
    let e = ann.expect("error").await;
    assert_eq!(e["code"], "bad_request");
    assert!(e["message"].as_str().unwrap().contains("not online"), "{e}");
    ann.send(othello_challenge(&ann.player.clone(), "black"))
        .await;
    assert_eq!(ann.expect_error().await, "bad_request");
    ann.send(
        json!({"t":"challenge","to":bob.player,"game":{"kind":"connect4","cols":99,"rows":6}}),
    )
    .await;
    assert_eq!(ann.expect_error().await, "bad_game");
    // A rated challenge between guests: refused.
    ann.send(json!({"t":"challenge","to":bob.player,"game":{"kind":"othello"},"rated":true}))
        .await;
    assert_eq!(ann.expect_error().await, "bad_request");

    let mut ids = Vec::new();
    for _ in 0..3 {
        ann.send(othello_challenge(&bob.player, "random")).await;
        ids.push(ann.expect("challenge_sent").await["challenge"].clone());
    }
    ann.send(othello_challenge(&bob.player, "random")).await;
    assert_eq!(ann.expect_error().await, "bad_request", "three at most");
    // Withdrawn: Bob hears it; only the challenger may withdraw.
    bob.send(json!({"t":"challenge_cancel","challenge":ids[0]}))
        .await;
    assert_eq!(bob.expect_error().await, "bad_request");
    ann.send(json!({"t":"challenge_cancel","challenge":ids[0]}))
        .await;
    let gone = bob
        .expect_where(|v| v["t"] == "challenge_gone" && v["challenge"] == ids[0])
        .await;
    assert_eq!(gone["why"], "cancelled");
    // Ann leaves: her other challenges are gone too.
    ann.close().await;
    for id in &ids[1..] {
        let gone = bob
            .expect_where(|v| v["t"] == "challenge_gone" && v["challenge"] == *id)
            .await;
        assert_eq!(gone["why"], "left");
    }
}
