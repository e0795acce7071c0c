//! What the nodes share: sign-in failures and attempts counted once, tournament joins made
//! at once all kept, a tournament directed by another node when its director's node dies,
//! an analysis worker on one node reviewing a game asked for on another, a review left
//! without a worker on its node going to a node where one came, a live analysis run for
//! another node's asker, a puzzle proven on one node served by another, a challenge
//! between players of two nodes, and a moderator's actions taken on one node in force at once
//! on another.

use super::*;

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

/// The bot key of the review tests' nodes.
const KEY: &str = "fault-suite-bot-key";
/// A Connect Four game black wins in seven plies.
const C4: [&str; 7] = ["4", "4", "3", "3", "2", "1", "5"];

/// An analysis worker's `hello`, named `name`.
fn worker_hello(name: &str) -> serde_json::Value {
    json!({"t":"hello","name":name,
           "bot":{"key":KEY,"games":["connect4"],"capacity":1,"analysis":true}})
}

/// A Connect Four game made and played to its end at `url`: its room, black and white.
async fn finished_game(url: &str) -> (String, Recorded, Recorded) {
    let mut black = Recorded::connect(url, "Black", None).await;
    let mut white = Recorded::connect(url, "White", None).await;
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
    (room, black, white)
}

/// `worker` takes its next job, checks it is the game of [`C4`], and answers every ply.
async fn review_the_game(worker: &mut Recorded) {
    let job = worker.wait_for(|v| v["t"] == "analyze").await;
    assert_eq!(job["moves"], json!(C4));
    for ply in 0..C4.len() {
        worker.send(json!({"t":"analysis","job":job["job"],"ply":ply,"eval":0,
                           "best":"4","pv":["4"]}));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_on_one_node_reviews_a_game_asked_for_on_another() {
    let hall = Hall::new();
    let key = ["--bot-key", KEY];
    let a = hall.node("A", &key).await;
    let b = hall.node("B", &key).await;
    // The only analysis worker is on node A; the game is played to its end on node B.
    let mut worker = Recorded::connect_as(&a.url(), worker_hello("W1")).await;
    let (room, mut black, mut white) = finished_game(&b.url()).await;
    // Asked on B, the review is pending, and the worker on A gets the job.
    black.send(json!({"t":"review","room":room}));
    let pending = black.wait_for(|v| v["t"] == "review").await;
    assert_eq!(pending["status"], "pending", "{pending}");
    assert!(
        pending.get("message").is_none(),
        "a worker is connected: {pending}"
    );
    review_the_game(&mut worker).await;
    // Both players, on B, hear the review done.
    for client in [&mut black, &mut white] {
        let done = client
            .wait_for(|v| v["t"] == "review" && v["status"] == "done")
            .await;
        assert_eq!(done["review"]["by"], "W1", "{done}");
    }
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_left_without_a_worker_goes_to_a_node_where_one_came() {
    let hall = Hall::new();
    let key = ["--bot-key", KEY];
    let a = hall.node("A", &key).await;
    let b = hall.node("B", &key).await;
    let mut first = Recorded::connect_as(&a.url(), worker_hello("W1")).await;
    let (room, mut black, _white) = finished_game(&b.url()).await;
    // Asked on B, queued on A, whose worker takes the job and leaves without an answer: the
    // job waits on A, which has no worker now.
    black.send(json!({"t":"review","room":room}));
    first.wait_for(|v| v["t"] == "analyze").await;
    drop(first);
    // A worker comes to node B: the job waiting on A goes there, and is done.
    let mut second = Recorded::connect_as(&b.url(), worker_hello("W2")).await;
    review_the_game(&mut second).await;
    let done = black
        .wait_for(|v| v["t"] == "review" && v["status"] == "done")
        .await;
    assert_eq!(done["review"]["by"], "W2", "{done}");
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_s_reviews_count_once_over_the_nodes() {
    let hall = Hall::new();
    let flags = ["--review-per-player", "1"];
    let a = hall.node("A", &flags).await;
    let b = hall.node("B", &flags).await;
    let (first, mut black, _white) = finished_game(&a.url()).await;
    let (second, mut other, _) = finished_game(&b.url()).await;
    // No worker anywhere: the review black asks on A waits there.
    black.send(json!({"t":"review","room":first}));
    let pending = black
        .wait_for(|v| v["t"] == "review" && v["room"] == first.as_str())
        .await;
    assert_eq!(pending["status"], "pending", "{pending}");
    // The same player on B is at the hall's limit of one.
    let mut again = Recorded::connect(&b.url(), "Black", Some(&black.token)).await;
    again.send(json!({"t":"review","room":second}));
    let e = again.wait_for(|v| v["t"] == "error").await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    assert!(e["message"].as_str().unwrap().contains("1 reviews"), "{e}");
    // Another player on B is not.
    other.send(json!({"t":"review","room":second}));
    let pending = other
        .wait_for(|v| v["t"] == "review" && v["room"] == second.as_str())
        .await;
    assert_eq!(pending["status"], "pending", "{pending}");
    drop((a, b));
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_analysis_asked_on_a_node_without_a_worker_runs_on_one_with() {
    let hall = Hall::new();
    let key = ["--bot-key", KEY];
    let a = hall.node("A", &key).await;
    let b = hall.node("B", &key).await;
    // The only worker is on A; Ann is on B.
    let mut worker = Recorded::connect_as(&a.url(), worker_hello("W1")).await;
    let mut ann = Recorded::connect(&b.url(), "Ann", None).await;
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    ann.send(json!({"t":"analyse","id":"1","game":game,"moves":["4"],"rate":["3","4"]}));
    let running = ann.wait_for(|v| v["t"] == "analysis_status").await;
    assert_eq!(running["status"], "running", "{running}");
    let job = worker.wait_for(|v| v["t"] == "analyse_live").await;
    assert_eq!(job["rate"], json!(["3", "4"]));
    worker.send(
        json!({"t":"analysis_line","job":job["job"],"depth":4,"eval":60,"best":"4","pv":["4"]}),
    );
    worker.send(json!({"t":"analysis_move","job":job["job"],"move":"3","depth":3,"eval":20}));
    let line = ann.wait_for(|v| v["t"] == "analysis_line").await;
    assert_eq!(
        (&line["id"], &line["by"], &line["depth"]),
        (&json!("1"), &json!("W1"), &json!(4))
    );
    let rated = ann.wait_for(|v| v["t"] == "analysis_move").await;
    assert_eq!((&rated["move"], &rated["eval"]), (&json!("3"), &json!(20)));
    // A new analysis replaces it there; a stop on B reaches the worker on A.
    ann.send(json!({"t":"analyse","id":"2","game":game,"moves":["4","4"]}));
    let stopped = worker.wait_for(|v| v["t"] == "analyse_stop").await;
    assert_eq!(stopped["job"], job["job"]);
    let second = worker.wait_for(|v| v["t"] == "analyse_live").await;
    ann.send(json!({"t":"analyse_stop"}));
    let stopped = worker.wait_for(|v| v["t"] == "analyse_stop").await;
    assert_eq!(stopped["job"], second["job"]);
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_proven_on_one_node_is_served_by_another() {
    let hall = Hall::new();
    let key = ["--bot-key", KEY];
    let a = hall.node("A", &key).await;
    let b = hall.node("B", &key).await;
    let mut worker = Recorded::connect_as(&a.url(), worker_hello("W1")).await;
    let (room, black, _white) = finished_game(&b.url()).await;
    black.send(json!({"t":"review","room":room}));
    // The worker says black had a win before its third move, and played another.
    let job = worker.wait_for(|v| v["t"] == "analyze").await;
    for ply in 0..C4.len() {
        let mut a =
            json!({"t":"analysis","job":job["job"],"ply":ply,"eval":0,"best":"4","pv":["4"]});
        if ply == 4 {
            a = json!({"t":"analysis","job":job["job"],"ply":ply,"eval":1000,"proven":true,
                       "win_in":3,"best":"5","pv":["5"]});
        }
        worker.send(a);
    }
    let asked = worker.wait_for(|v| v["t"] == "prove_puzzle").await;
    assert_eq!(asked["moves"], json!(["4", "4", "3", "3"]));
    // Black's 2 threatens 1 and 5: white blocks one, black plays the other.
    let puzzle = json!({"id":"","variant":"connect4","game":asked["game"],"moves":asked["moves"],
        "to_move":"black","length":2,"themes":["win"],"line":["2","1","5"],
        "proof":{"2":{"r":"1","n":{"5":{}}}}});
    worker.send(json!({"t":"puzzle_proof","job":asked["job"],"puzzle":puzzle}));
    let spec = game_core::GameSpec::connect4(7, 6);
    let moves: Vec<String> = ["4", "4", "3", "3"].map(String::from).to_vec();
    let pos = game_core::AnyPosition::with_moves(&spec, &moves).unwrap();
    let id = game_core::puzzle::hall_id("connect4", &game_core::puzzle::symmetry_key(&pos));
    // Stored by A; B, which never saw it, serves it by its id.
    let path = format!("/api/puzzles/{id}");
    let mut served = None;
    for _ in 0..200 {
        let (status, body) = http_get(b.addr, &path).await;
        if status == 200 {
            served = Some(serde_json::from_str::<serde_json::Value>(&body).unwrap());
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let served = served.expect("node B serves the puzzle node A stored");
    assert_eq!(served["source"], json!({"room": room, "ply": 4}));
    assert_eq!(served["length"], 2);
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_reaches_a_player_on_another_node_and_its_answer_comes_back() {
    let hall = Hall::new();
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    let mut ann = Recorded::connect(&a.url(), "Ann", None).await;
    let mut bob = Recorded::connect(&b.url(), "Bob", None).await;
    let challenge = json!({"t":"challenge","to":bob.player,"game":{"kind":"othello"},
        "clock":null,"color":"black"});
    ann.send(challenge.clone());
    let id = ann.wait_for(|v| v["t"] == "challenge_sent").await["challenge"].clone();
    let told = bob.wait_for(|v| v["t"] == "challenged").await;
    assert_eq!(told["challenge"], id);
    bob.send(json!({"t":"challenge_reply","challenge":id,"accept":false,"reason":"later"}));
    let declined = ann.wait_for(|v| v["t"] == "challenge_declined").await;
    assert_eq!(declined["message"], "Bob declined: not now, perhaps later");
    // Again, accepted: the room is made on A, Bob seated from B.
    ann.send(challenge);
    let id = ann
        .wait_for(|v| v["t"] == "challenge_sent" && v["challenge"] != id)
        .await["challenge"]
        .clone();
    bob.wait_for(|v| v["t"] == "challenged" && v["challenge"] == id)
        .await;
    bob.send(json!({"t":"challenge_reply","challenge":id,"accept":true}));
    let room = ann.wait_for(|v| v["t"] == "created").await["room"].clone();
    assert_eq!(bob.wait_for(|v| v["t"] == "created").await["room"], room);
    let state = bob
        .wait_for(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(state["seats"]["black"]["name"], "Ann", "{state}");
    assert_eq!(state["seats"]["white"]["name"], "Bob", "{state}");
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderators_actions_on_one_node_take_effect_at_once_on_another() {
    let hall = Hall::new();
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    let guest = Recorded::connect(&a.url(), "guest", None).await;
    let claim = json!({"token": guest.token, "name": "Mod", "password": "a-long-enough-password"});
    assert_eq!(
        http_json(a.addr, "POST", "/api/accounts", claim).await.0,
        201
    );
    let granted = std::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["admin", "grant-moderator", "Mod", "--store", &hall.store])
        .output()
        .expect("run kibitz admin");
    assert!(granted.status.success(), "{granted:?}");
    let bearer = format!("Bearer {}", guest.token);
    let act = |body: serde_json::Value| {
        let bearer = bearer.clone();
        async move {
            let text = body.to_string();
            let (status, _, answer) = crate::support::http_request(
                a.addr,
                "POST",
                "/api/moderation/actions",
                &[
                    ("Authorization", &bearer),
                    ("Content-Type", "application/json"),
                ],
                Some(&text),
            )
            .await;
            assert_eq!(status, 201, "{answer}");
        }
    };

    // Ann and Bob play on B; Bob says a line.
    let mut ann = Recorded::connect(&b.url(), "Ann", None).await;
    let mut bob = Recorded::connect(&b.url(), "Bob", None).await;
    let room = ann
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    bob.join(&room, "player").await;
    bob.send(json!({"t":"chat","room":room,"text":"a rude line"}));
    ann.wait_for(|v| v["t"] == "chat" && v["text"] == "a rude line")
        .await;

    // Hidden from A: gone from Ann's page on B.
    act(
        json!({"action":"hide_chat","player":bob.player,"room":room,"text":"a rude line",
        "reason":"abuse"}),
    )
    .await;
    let hidden = ann.wait_for(|v| v["t"] == "chat_hidden").await;
    assert_eq!(hidden["text"], "a rude line");

    // Muted from A: B refuses Bob's next line.
    act(json!({"action":"mute","player":bob.player,"reason":"spam","minutes":5})).await;
    bob.wait_for(|v| v["t"] == "sanction" && v["action"] == "mute")
        .await;
    bob.send(json!({"t":"chat","room":room,"text":"still here"}));
    let refused = bob.wait_for(|v| v["t"] == "error").await;
    assert_eq!(refused["code"], "sanctioned", "{refused}");

    // Banned from A: Bob's connection on B closes, and B lets him in no more.
    act(json!({"action":"ban","player":bob.player,"reason":"abuse"})).await;
    bob.closed().await;
    let mut again = crate::support::Client::connect(&b.url()).await;
    again
        .send(json!({"t":"hello","name":"Bob","token":bob.token}))
        .await;
    let refused = again.expect("error").await;
    assert_eq!(refused["code"], "sanctioned", "{refused}");
    drop((a, b));
}
