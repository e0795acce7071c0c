//! People and moderation end to end, over real sockets: whom an account follows and their
//! games in play, head to head; what a player's block hides (chat, challenges, pairing), a
//! report kept with its context and read by moderators only, and the moderators' actions —
//! warn, mute for a time, ban from rated play, ban, lift, rename, hide a chat line — each
//! taking effect at once and written to the audit log, with the sanctions in force listed;
//! the operator's word list, and the hall's own timeouts for a flood and for repeated reports.

use crate::support::*;
use serde_json::{json, Value};

/// `method` on `/api/blocks…` as `who`: the status and the JSON answer.
async fn blocks_call(
    server: &TestServer,
    who: &Client,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let bearer = format!("Bearer {}", who.token);
    let text = body.map(|b| b.to_string());
    let (status, _, answer) = http_request(
        server.addr,
        method,
        path,
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
        ],
        text.as_deref(),
    )
    .await;
    (status, serde_json::from_str(&answer).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_block_hides_chat_challenges_and_pairing_until_it_is_lifted() {
    let server = TestServer::start().await;
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    let mut cid = server.client("Cid").await;
    let (status, _) = blocks_call(
        &server,
        &ann,
        "POST",
        "/api/blocks",
        Some(json!({"name":"Bob"})),
    )
    .await;
    assert_eq!(status, 201);
    let (status, list) = blocks_call(&server, &ann, "GET", "/api/blocks", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        list["blocked"],
        json!([{"player": bob.player, "name": "Bob"}])
    );
    // A guest keeps no blocks; oneself cannot be blocked.
    let (status, _) = blocks_call(&server, &cid, "GET", "/api/blocks", None).await;
    assert_eq!(status, 401);
    let (status, _) = blocks_call(
        &server,
        &ann,
        "POST",
        "/api/blocks",
        Some(json!({"player": ann.player})),
    )
    .await;
    assert_eq!(status, 400);

    // Chat: Bob's line reaches Cid, a spectator, not Ann; Ann's reaches Bob.
    let othello = json!({"kind":"othello"});
    let (room, _) = ann
        .create(json!({"t":"create","game":othello,"seat":"black"}))
        .await;
    bob.join(&room, "player").await;
    cid.join(&room, "spectator").await;
    bob.send(json!({"t":"chat","room":room,"text":"from bob"}))
        .await;
    cid.expect_where(|v| v["t"] == "chat" && v["text"] == "from bob")
        .await;
    // Ann's own line comes back to her first: Bob's, said before it, never came.
    ann.send(json!({"t":"chat","room":room,"text":"from ann"}))
        .await;
    let first = ann.expect("chat").await;
    assert_eq!(
        first["text"], "from ann",
        "Bob's line never reaches Ann: {first}"
    );
    bob.expect_where(|v| v["t"] == "chat" && v["text"] == "from ann")
        .await;

    // Challenges: Bob's to Ann looks sent but never reaches her; Ann's to Bob is refused.
    let challenge = |to: &str| json!({"t":"challenge","to":to,"game":{"kind":"othello"}});
    bob.send(challenge(&ann.player)).await;
    bob.expect("challenge_sent").await;
    ann.send(challenge(&bob.player)).await;
    let e = ann.expect("error").await;
    assert!(e["message"].as_str().unwrap().contains("blocked"), "{e}");
    cid.send(challenge(&ann.player)).await;
    let told = ann.expect("challenged").await;
    assert_eq!(
        told["from"]["name"], "Cid",
        "only Cid's challenge reaches Ann: {told}"
    );

    // Pairing: Ann and Bob both wait; Cid is paired with the first of them.
    let seek = json!({"t":"seek","game":{"kind":"connect4","cols":7,"rows":6},"clock":null});
    ann.send(seek.clone()).await;
    ann.expect("seeking").await;
    bob.send(seek.clone()).await;
    bob.expect("seeking").await;
    cid.send(seek).await;
    let paired = cid.expect("created").await["room"].clone();
    assert_eq!(ann.expect("created").await["room"], paired);

    // Lifted: Bob's challenge reaches Ann again.
    let path = format!("/api/blocks/{}", bob.player);
    assert_eq!(
        blocks_call(&server, &ann, "DELETE", &path, None).await.0,
        200
    );
    bob.send(challenge(&ann.player)).await;
    let told = ann
        .expect_where(|v| v["t"] == "challenged" && v["from"]["name"] == "Bob")
        .await;
    assert_eq!(told["from"]["player"], bob.player);
}

#[tokio::test]
async fn a_report_keeps_its_context_and_only_a_moderator_reads_it() {
    let server = TestServer::start().await;
    let mut ann = account(&server, "Ann").await;
    let moderator = account(&server, "Mod").await;
    let mut bob = server.client("Bob").await;
    let (room, _) = ann
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    bob.join(&room, "player").await;
    for text in ["hello", "something rude", "bye"] {
        bob.send(json!({"t":"chat","room":room,"text":text})).await;
        ann.expect_where(|v| v["t"] == "chat" && v["text"] == text)
            .await;
    }
    let report = |body: Value| blocks_call(&server, &ann, "POST", "/api/reports", Some(body));
    let line = json!({"kind":"chat","room":room,"player":bob.player,"text":"something rude",
        "reason":"abuse","note":"said twice"});
    let (status, made) = report(line.clone()).await;
    assert_eq!(status, 201, "{made}");
    // Bad reports say why and store nothing.
    let mut wrong = line.clone();
    wrong["reason"] = json!("boring");
    assert_eq!(report(wrong).await.0, 400);
    let mut unknown = line.clone();
    unknown["text"] = json!("never said");
    assert_eq!(report(unknown).await.0, 400);
    let mut long = line.clone();
    long["note"] = json!("x".repeat(501));
    assert_eq!(report(long).await.0, 400);
    let me = json!({"kind":"player","player":ann.player,"reason":"other"});
    assert_eq!(report(me).await.0, 400);

    // Only a moderator reads reports; the operator grants the role with the store's command.
    let (status, _) = blocks_call(&server, &ann, "GET", "/api/moderation/reports", None).await;
    assert_eq!(status, 403);
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["admin", "grant-moderator", "Mod", "--data"])
        .arg(server.data.path())
        .output()
        .expect("run kibitz admin");
    assert!(granted.status.success(), "{granted:?}");
    let (status, list) =
        blocks_call(&server, &moderator, "GET", "/api/moderation/reports", None).await;
    assert_eq!(status, 200, "{list}");
    let reports = list["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "{list}");
    let r = &reports[0];
    assert_eq!(r["id"], made["report"]);
    assert_eq!(
        (&r["kind"], &r["reason"], &r["note"]),
        (&json!("chat"), &json!("abuse"), &json!("said twice"))
    );
    assert_eq!(
        (&r["player"], &r["room"]),
        (&json!(bob.player), &json!(room))
    );
    let chat = r["context"]["chat"].as_array().unwrap();
    let texts: Vec<&str> = chat.iter().map(|c| c["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["hello", "something rude", "bye"]);
    assert_eq!(r["context"]["line"], 1);
    assert_eq!(r["context"]["game"]["kind"], "othello");

    // An action that answers the report closes it.
    let warn = json!({"action":"warn","player":bob.player,"reason":"that line",
        "report": made["report"]});
    let (status, acted) = blocks_call(
        &server,
        &moderator,
        "POST",
        "/api/moderation/actions",
        Some(warn),
    )
    .await;
    assert_eq!(status, 201, "{acted}");
    assert_eq!(bob.expect("sanction").await["action"], "warn");
    let (_, list) = blocks_call(&server, &moderator, "GET", "/api/moderation/reports", None).await;
    assert_eq!(list["reports"], json!([]), "{list}");
    let (_, closed) = blocks_call(
        &server,
        &moderator,
        "GET",
        "/api/moderation/reports?status=closed",
        None,
    )
    .await;
    assert_eq!(closed["reports"][0]["id"], made["report"]);
}

/// Names `name` a moderator with the operator's command against the server's data.
fn grant_moderator(server: &TestServer, name: &str) {
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["admin", "grant-moderator", name, "--data"])
        .arg(server.data.path())
        .output()
        .expect("run kibitz admin");
    assert!(granted.status.success(), "{granted:?}");
}

/// A moderator's action as `who`: the status and the answer.
async fn moderate(server: &TestServer, who: &Client, body: Value) -> (u16, Value) {
    blocks_call(server, who, "POST", "/api/moderation/actions", Some(body)).await
}

#[tokio::test]
async fn moderators_actions_take_effect_at_once_and_are_in_the_audit_log() {
    let server = TestServer::start().await;
    let moderator = account(&server, "Mod").await;
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    let (room, _) = ann
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    bob.join(&room, "player").await;
    bob.send(json!({"t":"chat","room":room,"text":"a rude line"}))
        .await;
    ann.expect_where(|v| v["t"] == "chat" && v["text"] == "a rude line")
        .await;
    let hide = json!({"action":"hide_chat","player":"Bob","room":room,"text":"a rude line",
        "reason":"abuse"});
    // Only a moderator acts.
    assert_eq!(moderate(&server, &ann, hide.clone()).await.0, 403);
    grant_moderator(&server, "Mod");

    // Bad actions say why and change nothing.
    for (body, status) in [
        (json!({"action":"shout","player":"Bob","reason":"x"}), 400),
        (json!({"action":"mute","player":"Bob","reason":"  "}), 400),
        (json!({"action":"mute","player":"Nobody","reason":"x"}), 404),
        (
            json!({"action":"mute","player":"Bob","reason":"x","minutes":0}),
            400,
        ),
        (
            json!({"action":"lift","player":"Bob","reason":"x","kind":"praise"}),
            400,
        ),
        (
            json!({"action":"rename","player":"Bob","reason":"x","name":"Ann"}),
            409,
        ),
        (json!({"action":"mute","player":"Mod","reason":"x"}), 400),
    ] {
        let (got, answer) = moderate(&server, &moderator, body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }

    // A hidden line leaves every page of the room and the stored game.
    let (status, made) = moderate(&server, &moderator, hide).await;
    assert_eq!(status, 201, "{made}");
    let hidden = ann.expect("chat_hidden").await;
    assert_eq!(
        (&hidden["player"], &hidden["text"]),
        (&json!(bob.player), &json!("a rude line"))
    );
    let (_, game) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert!(!game.contains("a rude line"), "{game}");

    // A mute for ten minutes: Bob is told why and until when, and his chat is refused.
    let mute = json!({"action":"mute","player":"Bob","reason":"spam","minutes":10});
    assert_eq!(moderate(&server, &moderator, mute).await.0, 201);
    let told = bob.expect("sanction").await;
    assert_eq!(
        (&told["action"], &told["reason"]),
        (&json!("mute"), &json!("spam"))
    );
    assert!(told["until_ms"].as_u64().is_some(), "{told}");
    let e = bob
        .refused(json!({"t":"chat","room":room,"text":"still here"}))
        .await;
    assert_eq!(e["code"], "sanctioned", "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("muted until") && message.contains("spam"),
        "{e}"
    );

    // Banned from rated play for good; a rated room is refused, an unrated one is not.
    let rated_ban = json!({"action":"rated_ban","player":"Bob","reason":"farming"});
    assert_eq!(moderate(&server, &moderator, rated_ban).await.0, 201);
    bob.expect("sanction").await;
    let e = bob
        .refused(json!({"t":"create","game":{"kind":"othello"},"seat":"black","rated":true}))
        .await;
    assert_eq!(e["code"], "sanctioned", "{e}");
    // Nor a seat in a rated room someone else made.
    let (rated_room, _) = ann
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black","rated":true}))
        .await;
    let e = bob
        .refused(json!({"t":"join","room":rated_room,"as":"player"}))
        .await;
    assert_eq!(e["code"], "sanctioned", "{e}");

    // The mute lifted: Bob speaks again.
    let lift = json!({"action":"lift","player":"Bob","reason":"served","kind":"mute"});
    assert_eq!(moderate(&server, &moderator, lift).await.0, 201);
    let told = bob
        .expect_where(|v| v["t"] == "sanction" && v["action"] == "lift")
        .await;
    assert_eq!(told["kind"], "mute");
    bob.send(json!({"t":"chat","room":room,"text":"sorry"}))
        .await;
    ann.expect_where(|v| v["t"] == "chat" && v["text"] == "sorry")
        .await;

    // A warning reaches Ann.
    let warn = json!({"action":"warn","player":"Ann","reason":"keep it friendly"});
    assert_eq!(moderate(&server, &moderator, warn).await.0, 201);
    let told = ann.expect("sanction").await;
    assert_eq!(told["action"], "warn");

    // Renamed: Bob's connection closes; he comes back under the new name.
    let rename = json!({"action":"rename","player":"Bob","reason":"offensive","name":"Robert"});
    assert_eq!(moderate(&server, &moderator, rename).await.0, 201);
    bob.until_dropped().await;
    let mut robert = Client::connect(&server.url()).await;
    let welcome = robert.hello_again("Bob", &bob.token).await;
    assert_eq!(welcome["name"], "Robert");
    assert_eq!(http_get(server.addr, "/api/players/Robert").await.0, 200);
    assert_eq!(http_get(server.addr, "/api/players/Bob").await.0, 404);

    // Banned for good: the connection closes, and neither a hello nor a sign-in lets him in.
    let ban = json!({"action":"ban","player":"Robert","reason":"repeated abuse"});
    assert_eq!(moderate(&server, &moderator, ban).await.0, 201);
    robert.until_dropped().await;
    let mut again = Client::connect(&server.url()).await;
    again
        .send(json!({"t":"hello","name":"Robert","token":bob.token}))
        .await;
    let e = again.expect("error").await;
    assert_eq!(e["code"], "sanctioned", "{e}");
    assert!(e["message"].as_str().unwrap().contains("banned"), "{e}");
    let (status, answer) = http_json(
        server.addr,
        "POST",
        "/api/session",
        json!({"name":"Robert","password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 403, "{answer}");

    // The audit log has every action, newest first, with who took it and why; the sanctions
    // in force are the rated ban and the ban.
    let (status, log) = blocks_call(&server, &moderator, "GET", "/api/moderation/log", None).await;
    assert_eq!(status, 200, "{log}");
    let actions: Vec<&str> = log["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "ban",
            "rename",
            "warn",
            "lift",
            "rated_ban",
            "mute",
            "hide_chat"
        ]
    );
    assert!(log["actions"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["moderator_name"] == "Mod" && a["reason"].is_string()));
    let (status, list) = blocks_call(
        &server,
        &moderator,
        "GET",
        "/api/moderation/sanctions",
        None,
    )
    .await;
    assert_eq!(status, 200);
    let kinds: Vec<&str> = list["sanctions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["rated_ban", "ban"], "{list}");
    assert_eq!(list["sanctions"][0]["name"], "Robert");
}

#[tokio::test]
async fn listed_words_are_refused_and_the_hall_times_out_floods_and_the_often_reported() {
    use kibitz_server::moderation::chat_guard::ChatWords;
    let server = TestServer::start_with(|c| {
        c.limits.chat_words = ChatWords(std::sync::Arc::new(vec!["badword".into()]));
        c.limits.chat_lines_per_window = 2;
    })
    .await;
    let mut ann = server.client("Ann").await;
    let mut bob = server.client("Bob").await;
    let (room, _) = ann
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    bob.join(&room, "player").await;
    let e = bob
        .refused(json!({"t":"chat","room":room,"text":"you BadWord!"}))
        .await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("does not allow"),
        "{e}"
    );

    // Two lines pass; three more over the rate, and the hall mutes Bob for ten minutes.
    for i in 0..2 {
        bob.send(json!({"t":"chat","room":room,"text":format!("line {i}")}))
            .await;
        let me = bob.player.clone();
        bob.expect_where(|v| v["t"] == "chat" && v["from"] == me.as_str())
            .await;
    }
    for i in 2..5 {
        let e = bob
            .refused(json!({"t":"chat","room":room,"text":format!("line {i}")}))
            .await;
        assert_eq!(e["code"], "rate_limited", "{e}");
    }
    let told = bob.expect("sanction").await;
    assert_eq!(
        (&told["action"], &told["reason"]),
        (&json!("mute"), &json!("flooding the chat"))
    );
    let e = bob
        .refused(json!({"t":"chat","room":room,"text":"and now?"}))
        .await;
    assert_eq!(e["code"], "sanctioned", "{e}");

    // Three players report Cid within the hour: the hall mutes Cid too.
    let mut cid = server.client("Cid").await;
    let reporters = [ann, server.client("Dan").await, server.client("Eve").await];
    for reporter in &reporters {
        let body = json!({"kind":"player","player":cid.player,"reason":"abuse"});
        let (status, _) = blocks_call(&server, reporter, "POST", "/api/reports", Some(body)).await;
        assert_eq!(status, 201);
    }
    let told = cid.expect("sanction").await;
    assert_eq!(told["reason"], "reported by 3 players within the hour");
}

#[tokio::test]
async fn follows_show_whom_one_follows_playing_and_head_to_head_keeps_the_score() {
    let server = TestServer::start().await;
    let mut ann = account(&server, "Ann").await;
    let mut bob = account(&server, "Bob").await;
    let mut cid = account(&server, "Cid").await;
    let guest = server.client("Guest").await;
    let call = |who: &Client, method: &'static str, path: String, body: Option<Value>| {
        let bearer = format!("Bearer {}", who.token);
        let addr = server.addr;
        async move {
            let text = body.map(|b| b.to_string());
            let (status, _, answer) = http_request(
                addr,
                method,
                &path,
                &[
                    ("Authorization", &bearer),
                    ("Content-Type", "application/json"),
                ],
                text.as_deref(),
            )
            .await;
            (
                status,
                serde_json::from_str::<Value>(&answer).unwrap_or(Value::Null),
            )
        }
    };
    let follow = |name: &str| Some(json!({ "name": name }));
    assert_eq!(
        call(&ann, "POST", "/api/follows".into(), follow("Bob"))
            .await
            .0,
        201
    );
    assert_eq!(
        call(&ann, "POST", "/api/follows".into(), follow("Ann"))
            .await
            .0,
        400
    );
    assert_eq!(
        call(&ann, "POST", "/api/follows".into(), follow("Nobody"))
            .await
            .0,
        404
    );
    assert_eq!(
        call(&guest, "GET", "/api/follows".into(), None).await.0,
        401
    );

    // Bob plays Cid: Ann sees the game among her followed players' games.
    let (room, _) = bob
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    cid.join(&room, "player").await;
    bob.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    let (status, follows) = call(&ann, "GET", "/api/follows".into(), None).await;
    assert_eq!(status, 200, "{follows}");
    assert_eq!(
        follows["following"],
        json!([{"player": bob.player, "name": "Bob"}])
    );
    assert_eq!(follows["playing"][0]["room"], room, "{follows}");
    assert_eq!(follows["playing"][0]["white"], "Cid");

    // Ann beats Bob once: the score from each side.
    bob.send(json!({"t":"resign","room":room})).await;
    let quick = quick_game(&mut ann, &mut bob).await;
    let (status, h2h) = http_get(server.addr, "/api/players/Ann/vs/bob").await;
    assert_eq!(status, 200, "{h2h}");
    let h2h: Value = serde_json::from_str(&h2h).unwrap();
    assert_eq!(
        (&h2h["wins"], &h2h["draws"], &h2h["losses"]),
        (&json!(1), &json!(0), &json!(0))
    );
    assert_eq!(h2h["games"][0]["room"], quick);
    assert_eq!(
        h2h["games"].as_array().map(Vec::len),
        Some(1),
        "Bob's game with Cid is not theirs"
    );
    let (_, back) = http_get(server.addr, "/api/players/Bob/vs/Ann").await;
    let back: Value = serde_json::from_str(&back).unwrap();
    assert_eq!(back["losses"], 1);
    assert_eq!(
        http_get(server.addr, "/api/players/Ann/vs/Nobody").await.0,
        404
    );

    // Unfollowed: the list is empty again.
    let path = format!("/api/follows/{}", bob.player);
    assert_eq!(call(&ann, "DELETE", path, None).await.0, 200);
    let (_, follows) = call(&ann, "GET", "/api/follows".into(), None).await;
    assert_eq!(follows["following"], json!([]));
    assert_eq!(follows["playing"], json!([]));
}
