//! Cluster mode end to end: three nodes on one real PostgreSQL and one real Redis, each a
//! server of its own with its own sockets. A player on node A plays a whole renju game
//! against a player on node B, in a room A owns; a spectator on node C sees every move, in
//! order; chat crosses the nodes; a token made on one node is known on another; the room's
//! owner is the one node that writes it (its lease's fence is in the store); an address's new
//! players and open rooms are counted for the hall, not once a node.

use std::time::Duration;

use crate::support::postgres::PgServer;
use crate::support::redis::RedisServer;
use crate::support::*;
use serde_json::{json, Value};

/// A node of the cluster on `store` and `redis`, named `id`.
async fn node(store: &str, redis: &str, id: &str) -> TestServer {
    TestServer::cluster_node(store, redis, id, Duration::from_secs(3)).await
}

/// Black wins with five in a column; white answers on the a file.
const RENJU_GAME: [&str; 9] = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renju_game_between_nodes_with_a_spectator_on_a_third() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let b_node = node(&store, &redis.url(), "B").await;
    let c_node = node(&store, &redis.url(), "C").await;

    let mut alice = a_node.client("Alice").await;
    let game = json!({"kind":"gomoku","size":15,"rule":"renju"});
    let (room, _) = alice
        .create(json!({"t":"create","game":game,"seat":"black"}))
        .await;
    // Bob, on node B, sits down in the room node A owns.
    let mut bob = b_node.client("Bob").await;
    bob.send(json!({"t":"join","room":room,"as":"player"}))
        .await;
    let st = bob
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(st["you"], "white");
    alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    let mut carol = c_node.client("Carol").await;
    let st = carol.join(&room, "spectator").await;
    assert_eq!(st["status"], "playing");

    for (i, mv) in RENJU_GAME.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut alice } else { &mut bob };
        mover.play(&room, mv).await;
    }
    // The spectator saw every move, in order, with rising event numbers.
    let mut seen = Vec::new();
    let mut last_seq = st["seq"].as_u64().unwrap();
    while seen.len() < RENJU_GAME.len() {
        let moved = carol.expect("moved").await;
        let seq = moved["seq"].as_u64().unwrap();
        assert!(seq > last_seq, "seq {seq} after {last_seq}");
        last_seq = seq;
        seen.push(moved["move"].as_str().unwrap().to_string());
    }
    assert_eq!(seen, RENJU_GAME);
    for client in [&mut alice, &mut bob, &mut carol] {
        let over = client.expect("over").await;
        assert_eq!(over["result"], "black", "{over}");
        assert_eq!(over["reason"], "five");
    }

    // Chat crosses the nodes both ways.
    bob.send(json!({"t":"chat","room":room,"text":"well played"}))
        .await;
    for client in [&mut alice, &mut carol] {
        let line = client.expect("chat").await;
        assert_eq!(line["text"], "well played");
        assert_eq!(line["name"], "Bob");
    }

    // Every move is in PostgreSQL, in order, under node A's fence.
    let stored = pg.psql(
        &store,
        &format!("SELECT string_agg(mv, ',' ORDER BY ply) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(stored, RENJU_GAME.join(","));
    let fence: u64 = pg
        .psql(
            &store,
            &format!("SELECT fence FROM rooms WHERE id = '{room}'"),
        )
        .parse()
        .unwrap();
    assert!(fence > 0, "the room is stored under a fence");
    assert_eq!(metric(&a_node, "kibitz_cluster_rooms_owned").await, 1.0);
    assert!(metric(&b_node, "kibitz_cluster_forwarded_total").await >= 5.0);
    assert_eq!(metric(&b_node, "kibitz_cluster_rooms_owned").await, 0.0);

    // Alice's token, made on node A, is known on node C, and she is still black there.
    let token = alice.token.clone();
    let mut alice_on_c = Client::connect(&c_node.url()).await;
    alice_on_c.hello_again("Alice", &token).await;
    let st = alice_on_c.join(&room, "player").await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["moves"], json!(RENJU_GAME));
}

/// A request for a room that no node knows is refused the same way on every node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_room_is_refused_on_any_node() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let mut alice = a_node.client("Alice").await;
    let e: Value = alice
        .refused(json!({"t":"join","room":"nosuch01","as":"player"}))
        .await;
    assert_eq!(e["code"], "no_such_room", "{e}");
    // The connection stays.
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    assert_eq!(room.len(), 8);
}

/// Waits until the lobby of `server` lists a bot named `name`.
async fn lobby_lists_bot(server: &TestServer, name: &str) {
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["bots"]
                    .as_array()
                    .is_some_and(|b| b.iter().any(|b| b["name"] == name))
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_on_one_node_plays_rooms_owned_by_others() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let b_node = node(&store, &redis.url(), "B").await;
    let mut bot = b_node.bot("RemoteBot", &["connect4"], 4).await;
    // Node A hears of the bot from node B.
    lobby_lists_bot(&a_node, "RemoteBot").await;

    let mut alice = a_node.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    alice
        .send(json!({"t":"invite_bot","room":room,"level":5}))
        .await;
    let invite = bot.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    assert_eq!(invite["seat"], "white");
    let st = bot.join(&room, "player").await;
    assert_eq!(st["you"], "white");
    let st = alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(st["seats"]["white"]["name"], "RemoteBot");
    alice.play(&room, "4").await;
    bot.saw_ply(&room, 1).await;
    bot.play(&room, "4").await;
    let moved = alice.saw_ply(&room, 2).await;
    assert_eq!(moved["by"], "white");
    // Node A owns the room; the bot's moves came through node B.
    assert_eq!(metric(&a_node, "kibitz_cluster_rooms_owned").await, 1.0);
    assert!(metric(&b_node, "kibitz_cluster_forwarded_total").await >= 2.0);

    // A node that joins later learns of the bot too, and its rooms invite it.
    let c_node = node(&store, &redis.url(), "C").await;
    lobby_lists_bot(&c_node, "RemoteBot").await;
    let mut carol = c_node.client("Carol").await;
    let (room2, _) = carol
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    carol
        .send(json!({"t":"invite_bot","room":room2,"level":3}))
        .await;
    let invite = bot
        .expect_where(|v| v["t"] == "invite" && v["room"] == room2.as_str())
        .await;
    assert_eq!(invite["level"], 3);
    assert_eq!(bot.join(&room2, "player").await["you"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_node_s_lobby_lists_the_rooms_of_all() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let b_node = node(&store, &redis.url(), "B").await;
    let mut alice = a_node.client("Alice").await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    // Node B's lobby lists the open room of node A, and then its game once Bob sits down.
    let mut watcher = b_node.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    let listed = |v: &Value, list: &str| {
        v["t"] == "lobby"
            && v[list]
                .as_array()
                .is_some_and(|rooms| rooms.iter().any(|r| r["room"] == room.as_str()))
    };
    watcher.expect_where(|v| listed(v, "open")).await;
    let mut bob = b_node.client("Bob").await;
    bob.join(&room, "player").await;
    watcher.expect_where(|v| listed(v, "live")).await;
}

/// Waits until the lobby frames `watcher` gets show `waiting` seekers of `kind` (0: none).
async fn lobby_shows_seeks(watcher: &mut Client, kind: &str, waiting: u64) {
    watcher
        .expect_where(|v| seekers_waiting(v, kind) == Some(waiting))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_pairs_seekers_of_different_nodes() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let b_node = node(&store, &redis.url(), "B").await;
    let c_node = node(&store, &redis.url(), "C").await;
    let mut watcher = c_node.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;

    let clock = json!({"initial_ms":60000,"increment_ms":0});
    let seek = json!({"t":"seek","game":{"kind":"connect4"},"clock":clock});
    let mut alice = a_node.client("Alice").await;
    alice.send(seek.clone()).await;
    alice.expect("seeking").await;
    // Node C's lobby counts node A's seeker; another game's seeker on C waits apart.
    lobby_shows_seeks(&mut watcher, "connect4", 1).await;
    let mut carol = c_node.client("Carol").await;
    carol
        .send(json!({"t":"seek","game":{"kind":"othello"},"clock":clock}))
        .await;
    carol.expect("seeking").await;
    lobby_shows_seeks(&mut watcher, "othello", 1).await;

    // Bob, on node B, seeks the same: the two are paired in one room, which starts at once.
    let mut bob = b_node.client("Bob").await;
    bob.send(seek.clone()).await;
    let room_a = alice.expect("created").await["room"].clone();
    let room_b = bob.expect("created").await["room"].clone();
    assert_eq!(room_a, room_b);
    let room = room_a.as_str().unwrap().to_string();
    let sa = alice.expect("state").await;
    let sb = bob.expect("state").await;
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
        (&mut alice, &mut bob)
    } else {
        (&mut bob, &mut alice)
    };
    black.play(&room, "4").await;
    white.saw_ply(&room, 1).await;
    white.play(&room, "4").await;
    black.saw_ply(&room, 2).await;
    lobby_shows_seeks(&mut watcher, "connect4", 0).await;

    // Carol stops waiting: no seek is left anywhere.
    carol.send(json!({"t":"unseek"})).await;
    lobby_shows_seeks(&mut watcher, "othello", 0).await;

    // A seeker whose connection closed is never paired: Erin on node B waits.
    let mut dave = a_node.client("Dave").await;
    dave.send(seek.clone()).await;
    dave.expect("seeking").await;
    lobby_shows_seeks(&mut watcher, "connect4", 1).await;
    dave.close().await;
    lobby_shows_seeks(&mut watcher, "connect4", 0).await;
    let mut erin = b_node.client("Erin").await;
    erin.send(seek.clone()).await;
    erin.expect("seeking").await;
    lobby_shows_seeks(&mut watcher, "connect4", 1).await;
}

/// An account made on node A is one on node B: its owner signs in there and is the same
/// player, a guest there cannot take its name nor one that only looks like it, a rated game between the nodes is rated once,
/// and a token signed out on A is refused on B too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_and_ratings_hold_across_nodes() {
    let pg = PgServer::shared();
    let store = pg.database();
    let redis = RedisServer::start();
    let a_node = node(&store, &redis.url(), "A").await;
    let b_node = node(&store, &redis.url(), "B").await;
    let password = "correct horse battery";

    let claim = |server: &TestServer, token: String, name: &'static str| {
        let addr = server.addr;
        async move {
            http_json(
                addr,
                "POST",
                "/api/accounts",
                json!({"token": token, "name": name, "password": password}),
            )
            .await
        }
    };
    let guest = a_node.client("Guest").await;
    let (status, body) = claim(&a_node, guest.token.clone(), "Alice").await;
    assert_eq!(status, 201, "{body}");
    // Node B knows it from the store.
    let mut impostor = Client::connect(&b_node.url()).await;
    impostor.send(json!({"t":"hello","name":"ALICE"})).await;
    assert_eq!(impostor.expect("error").await["code"], "name_taken");
    // A name that only looks like it (a Cyrillic а) is refused on node B too, once the
    // account's word has crossed the bus (asked again until then).
    within("a look-alike name refused on node B", async {
        loop {
            let mut lookalike = Client::connect(&b_node.url()).await;
            lookalike
                .send(json!({"t":"hello","name":"\u{430}lice"}))
                .await;
            let v = lookalike
                .expect_where(|v| v["t"] == "welcome" || v["t"] == "error")
                .await;
            if v["t"] == "error" {
                assert_eq!(v["code"], "name_taken", "{v}");
                assert!(v["message"].as_str().unwrap().contains("looks like"), "{v}");
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    let (status, body) = http_json(
        b_node.addr,
        "POST",
        "/api/session",
        json!({"name": "alice", "password": password}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let token_b = body["token"].as_str().unwrap().to_string();
    let mut alice = Client::connect(&b_node.url()).await;
    let w = alice.hello_again("x", &token_b).await;
    assert_eq!(
        (w["player"].as_str(), &w["name"], &w["account"]),
        (Some(guest.player.as_str()), &json!("Alice"), &json!(true))
    );

    // A rated game: Alice on B, Bob (an account made on A) on A.
    let bob_guest = a_node.client("Guest2").await;
    assert_eq!(claim(&a_node, bob_guest.token.clone(), "Bob").await.0, 201);
    let mut bob = Client::connect(&a_node.url()).await;
    bob.hello_again("x", &bob_guest.token).await;
    let (room, _) = alice
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black","rated":true}))
        .await;
    bob.join(&room, "player").await;
    alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    alice.send(json!({"t":"resign","room":room})).await;
    for client in [&mut alice, &mut bob] {
        let rated = client.expect("rated").await;
        assert_eq!(rated["changes"][1]["name"], "Bob");
        assert!(
            rated["changes"][1]["after"].as_i64().unwrap() > 1500,
            "{rated}"
        );
    }
    assert_eq!(
        pg.psql(
            &store,
            &format!("SELECT count(*) FROM rating_changes WHERE room = '{room}'")
        ),
        "2"
    );

    // Signed out on A: refused on B as well, once the word has crossed.
    let (status, _, _) = http_request(
        a_node.addr,
        "DELETE",
        "/api/session",
        &[("Authorization", &format!("Bearer {token_b}"))],
        None,
    )
    .await;
    assert_eq!(status, 204);
    within("the sign-out to reach node B", async {
        loop {
            let mut again = Client::connect(&b_node.url()).await;
            again
                .send(json!({"t":"hello","name":"x","token":token_b}))
                .await;
            let answer = again.recv().await;
            if answer["t"] == "error" {
                assert_eq!(answer["code"], "bad_token");
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_s_new_players_and_open_rooms_count_once_over_the_nodes() {
    let store = PgServer::shared().database();
    let redis = RedisServer::start();
    let capped = |id: &str| {
        let (store, redis, id) = (store.clone(), redis.url(), id.to_string());
        TestServer::start_with(move |c| {
            c.store_url = Some(store);
            c.cluster = Some(kibitz_server::cluster::ClusterSettings {
                redis_url: redis,
                redis_ca: Some(crate::support::redis::ca_file()),
                node_id: id,
                lease: Duration::from_secs(3),
            });
            c.limits.new_players_per_address = 4;
            c.limits.open_rooms_per_address = 3;
        })
    };
    let (a, b) = (capped("A").await, capped("B").await);
    // Four new players from one address, two on each node; a fifth is refused on either.
    let mut players = Vec::new();
    for (i, node) in [&a, &b, &a, &b].into_iter().enumerate() {
        players.push(node.client(&format!("P{i}")).await);
    }
    let mut fifth = Client::connect(&b.url()).await;
    fifth.send(json!({"t":"hello","name":"P4"})).await;
    let refused = fifth.expect("error").await;
    assert_eq!(refused["code"], "rate_limited", "{refused}");
    // Three open rooms from the address over both nodes; a fourth is refused on either.
    let game = json!({"t":"create","game":{"kind":"connect4"},"seat":"black"});
    let mut rooms = Vec::new();
    for p in &mut players[..3] {
        rooms.push(p.create(game.clone()).await.0);
    }
    let e = players[3].refused(game.clone()).await;
    assert!(
        e["message"].as_str().unwrap().contains("from one address"),
        "{e}"
    );
    // A room closed on its node (its creator leaves it waiting) frees one for the address,
    // once its end is counted (asked again until then).
    players[0].send(json!({"t":"leave","room":rooms[0]})).await;
    within("a room made again", async {
        loop {
            players[3].send(game.clone()).await;
            let v = players[3]
                .expect_where(|v| v["t"] == "created" || v["t"] == "error")
                .await;
            if v["t"] == "created" {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_another_node_than_the_director_are_seated_in_their_games() {
    let store = PgServer::shared().database();
    let redis = RedisServer::start();
    let a = node(&store, &redis.url(), "A").await;
    let b = node(&store, &redis.url(), "B").await;
    // Two accounts, connected to node B only.
    let mut players = Vec::new();
    for name in ["Tess", "Tom"] {
        let c = b.client(&format!("{name}-guest")).await;
        let claim = json!({"token": c.token, "name": name, "password": "correct horse battery"});
        let (status, body) = http_json(b.addr, "POST", "/api/accounts", claim).await;
        assert_eq!(status, 201, "{body}");
        players.push(c);
    }
    // Made, joined and started through node A, whose director pairs the round there.
    let made = json!({"token": players[0].token, "name": "Across", "kind": "round_robin",
                      "game": {"kind":"connect4","cols":7,"rows":6},
                      "clock": {"move_ms": 10000}});
    let (status, t) = http_json(a.addr, "POST", "/api/tournaments", made).await;
    assert_eq!(status, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for p in &players {
        let path = format!("/api/tournaments/{id}/join");
        let (status, body) = http_json(a.addr, "POST", &path, json!({"token": p.token})).await;
        assert_eq!(status, 200, "{body}");
    }
    let path = format!("/api/tournaments/{id}/start");
    let start = json!({"token": players[0].token});
    let (status, body) = http_json(a.addr, "POST", &path, start).await;
    assert_eq!(status, 200, "{body}");
    // Each player, on node B, is told where the game is and seated in it; the game is a
    // tournament game there too (no abort).
    let mut rooms = Vec::new();
    for p in &mut players {
        let created = p.expect("created").await;
        let room = created["room"].as_str().unwrap().to_string();
        let st = p
            .expect_where(|v| v["t"] == "state" && v["room"] == room.as_str())
            .await;
        assert_eq!(st["status"], "playing", "{st}");
        rooms.push(room);
    }
    assert_eq!(rooms[0], rooms[1]);
    let e = players[0]
        .refused(json!({"t":"abort","room":rooms[0]}))
        .await;
    assert!(e["message"].as_str().unwrap().contains("resign"), "{e}");
}
