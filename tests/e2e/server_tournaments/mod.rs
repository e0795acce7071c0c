//! Tournaments end to end, over real sockets: a bot-only round-robin that runs unattended to
//! its end, its games stored as rooms with the right seats, rated; a Swiss of people and
//! bots whose results the test decides, paired without repeats, with Buchholz in the
//! standings; bad requests answered with clear errors; a bot at the level it was entered at,
//! waited for while every place of it is taken; and a server restarted in the middle
//! of a tournament, whose director resumes it to its end.

mod levels;
mod support;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::*;
use futures::StreamExt;
use serde_json::{json, Value};
use support::*;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_bot_round_robin_runs_unattended_to_its_end() {
    let server = TestServer::start().await;
    let host = account(&server, "Host").await;
    let mut bots = Vec::new();
    let mut players = HashMap::new();
    for name in ["Ada", "Bix", "Cyd"] {
        let bot = server.bot(name, &["connect4"], 4).await;
        players.insert(bot.player.clone(), name);
        bots.push(autoplay(bot, name, Manner::BlackWins, unlimited()));
    }
    let id = make(
        &server,
        json!({"token": host.token, "name": "Bots at dawn", "kind": "round_robin",
               "game": connect4(), "clock": clock(), "rated": true,
               "bots": ["ada", "Bix", "Cyd"]}),
    )
    .await;
    let (status, open) = get(&server, &format!("/api/tournaments/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        (
            open["status"].as_str(),
            open["players"].as_array().map(Vec::len)
        ),
        (Some("open"), Some(3))
    );
    assert_eq!(
        open["players"][0]["name"], "Ada",
        "a bot goes by its account's name"
    );
    let (status, started) = post(
        &server,
        &format!("/api/tournaments/{id}/start"),
        json!({"token": host.token}),
    )
    .await;
    assert_eq!(
        (
            status,
            started["status"].as_str(),
            started["rounds"].as_u64()
        ),
        (200, Some("running"), Some(3)),
        "{started}"
    );

    let t = tournament_until(&server, &id, "the end", |t| t["status"] == "over").await;
    assert!(t["finished_ms"].as_u64().is_some());
    let games = games_of(&t);
    assert_eq!(games.len(), 3, "three rounds of one game: {t:#}");
    let pairs: HashSet<Vec<String>> = games
        .iter()
        .map(|(_, b, w, _, _)| {
            let mut pair = vec![b.clone(), w.clone()];
            pair.sort();
            pair
        })
        .collect();
    assert_eq!(pairs.len(), 3, "every pair met once");
    assert!(
        games.iter().all(|g| g.3 == "black"),
        "black won every game: {t:#}"
    );
    let byes: HashSet<&str> = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["bye_player"].as_str())
        .collect();
    assert_eq!(byes.len(), 3, "one bye each");

    // The standings add up to the games and byes: a win and a bye for everyone.
    let standings = t["standings"].as_array().expect("standings");
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 6.0, "3 games and 3 byes: {t:#}");
    let computed = points_by_player(&t);
    for line in standings {
        let player = line["player"].as_str().unwrap();
        assert_eq!(
            line["points"].as_f64(),
            computed.get(player).copied(),
            "{line}"
        );
        assert_eq!(
            (
                line["games"].as_u64(),
                line["wins"].as_u64(),
                line["byes"].as_u64()
            ),
            (Some(2), Some(1), Some(1)),
            "{line}"
        );
        assert_eq!(line["name"].as_str(), players.get(player).copied());
    }
    let ranks: Vec<u64> = standings
        .iter()
        .map(|s| s["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [1, 2, 3]);
    rooms_stored_as_paired(&server, &t, true).await;

    // The list shows it.
    let (status, list) = get(&server, "/api/tournaments").await;
    assert_eq!(status, 200);
    let line = &list["tournaments"][0];
    assert_eq!(
        (
            line["id"].as_str(),
            line["status"].as_str(),
            line["players"].as_u64()
        ),
        (Some(id.as_str()), Some("over"), Some(3))
    );
    assert_eq!(
        (line["game"]["kind"].as_str(), line["game"]["cols"].as_u64()),
        (Some("connect4"), Some(7))
    );
    for bot in bots {
        bot.abort();
    }
}

#[tokio::test]
async fn a_swiss_of_people_and_bots_pairs_without_repeats_and_ranks_by_buchholz() {
    let server = TestServer::start().await;
    let ann = account(&server, "Ann").await;
    let bea = account(&server, "Bea").await;
    let (ann_token, bea_token) = (ann.token.clone(), bea.token.clone());
    let mut names: HashMap<String, String> = HashMap::new();
    names.insert(ann.player.clone(), "Ann".into());
    names.insert(bea.player.clone(), "Bea".into());
    let mut tasks = vec![
        autoplay(ann, "Ann", Manner::ByName, unlimited()),
        autoplay(bea, "Bea", Manner::ByName, unlimited()),
    ];
    for name in ["Cid", "Dan", "Eve"] {
        let bot = server.bot(name, &["connect4"], 4).await;
        names.insert(bot.player.clone(), name.into());
        tasks.push(autoplay(bot, name, Manner::ByName, unlimited()));
    }
    let id = make(
        &server,
        json!({"token": ann_token, "name": "Swiss of five", "kind": "swiss",
               "game": connect4(), "clock": {"move_ms": 10_000}, "bots": ["Cid", "Dan", "Eve"]}),
    )
    .await;
    for token in [&ann_token, &bea_token] {
        let (status, joined) = post(
            &server,
            &format!("/api/tournaments/{id}/join"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
    }
    // Joining twice is joining once; leaving and coming back puts one last in the seeding.
    let (_, again) = post(
        &server,
        &format!("/api/tournaments/{id}/join"),
        json!({"token": ann_token}),
    )
    .await;
    assert_eq!(again["players"].as_array().map(Vec::len), Some(5));
    let (status, left) = post(
        &server,
        &format!("/api/tournaments/{id}/leave"),
        json!({"token": bea_token}),
    )
    .await;
    assert_eq!(
        (status, left["players"].as_array().map(Vec::len)),
        (200, Some(4))
    );
    post(
        &server,
        &format!("/api/tournaments/{id}/join"),
        json!({"token": bea_token}),
    )
    .await;
    let (status, started) = post(
        &server,
        &format!("/api/tournaments/{id}/start"),
        json!({"token": ann_token}),
    )
    .await;
    assert_eq!(
        (status, started["rounds"].as_u64()),
        (200, Some(3)),
        "ceil(log2 5) rounds: {started}"
    );

    let t = tournament_until(&server, &id, "the end", |t| t["status"] == "over").await;
    let games = games_of(&t);
    assert_eq!(games.len(), 6, "three rounds of two games: {t:#}");
    let mut met = HashSet::new();
    for (round, black, white, result, _) in &games {
        let mut pair = [names[black].clone(), names[white].clone()];
        pair.sort();
        assert!(
            met.insert(pair.clone()),
            "{pair:?} met twice (round {round}): {t:#}"
        );
        let expected = if pair.contains(&"Ann".to_string()) {
            "draw"
        } else if names[black] == pair[0] {
            "black"
        } else {
            "white"
        };
        assert_eq!(result, expected, "{pair:?} in round {round}");
    }
    let byes: Vec<&str> = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["bye_player"].as_str())
        .collect();
    assert_eq!(byes.len(), 3);
    assert_eq!(
        byes.iter().collect::<HashSet<_>>().len(),
        3,
        "never a second bye: {byes:?}"
    );

    // Points and Buchholz as the test counts them from the games.
    let points = points_by_player(&t);
    let mut buchholz: HashMap<String, f64> = HashMap::new();
    for (_, black, white, _, _) in &games {
        *buchholz.entry(black.clone()).or_default() += points[white];
        *buchholz.entry(white.clone()).or_default() += points[black];
    }
    let standings = t["standings"].as_array().expect("standings");
    assert_eq!(standings.len(), 5);
    let total: f64 = standings
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 9.0, "6 games and 3 byes");
    let mut previous: Option<(f64, f64)> = None;
    for line in standings {
        let player = line["player"].as_str().unwrap();
        let (p, b) = (
            line["points"].as_f64().unwrap(),
            line["buchholz"].as_f64().unwrap(),
        );
        assert_eq!(
            (p, b),
            (points[player], buchholz.get(player).copied().unwrap_or(0.0)),
            "{line}"
        );
        assert_eq!(line["name"].as_str(), Some(names[player].as_str()));
        assert!(line["sonneborn_berger"].as_f64().is_some());
        if let Some(before) = previous {
            assert!(
                before >= (p, b),
                "ranked by points, then Buchholz: {standings:#?}"
            );
        }
        previous = Some((p, b));
    }
    // Ann plays two games at least (one bye at most), each a draw: half a point each side.
    let draws: Vec<&Value> = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .filter(|g| g["result"] == "draw")
        .collect();
    assert!(draws.len() >= 2, "{t:#}");
    for g in draws {
        assert_eq!(
            (g["black_points"].as_f64(), g["white_points"].as_f64()),
            (Some(0.5), Some(0.5)),
            "{g}"
        );
    }
    rooms_stored_as_paired(&server, &t, false).await;
    for task in tasks {
        task.abort();
    }
}

#[tokio::test]
async fn bad_tournament_requests_are_clear_errors() {
    let server = TestServer::start().await;
    let host = account(&server, "Host").await;
    let other = account(&server, "Other").await;
    let guest = server.client("Guest").await;
    let good = || json!({"token": host.token, "name": "Cup", "kind": "swiss", "game": connect4(), "clock": clock()});
    let refused = |body: Value| {
        let server = &server;
        async move { post(server, "/api/tournaments", body).await }
    };
    let with = |field: &str, value: Value| {
        let mut body = good();
        body[field] = value;
        body
    };

    // Only accounts make tournaments; a token nobody has is unknown.
    let (status, body) = refused(with("token", json!(guest.token))).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("account"),
        "{body}"
    );
    let (status, body) = refused(with("token", json!("nobody"))).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("unknown token: reload the page"))
    );

    for (field, value, needle) in [
        ("kind", json!("knockout"), "kind is round_robin or swiss"),
        ("game", json!({"kind":"chess"}), "bad game"),
        ("game", json!({"kind":"gomoku","size":3}), "bad game"),
        ("game", Value::Null, "name the game"),
        ("clock", Value::Null, "needs a clock"),
        ("clock", json!({"move_ms": 5}), "bad game or clock"),
        ("clock", json!("fast"), "bad clock"),
        ("name", json!(""), "name is 1 to 40"),
        ("name", json!("x".repeat(41)), "name is 1 to 40"),
        ("rounds", json!(21), "1 to 20 rounds"),
        ("bots", json!(["Nobody"]), "no bot named"),
    ] {
        let (status, body) = refused(with(field, value.clone())).await;
        assert_eq!(status, 400, "{field} = {value}: {body}");
        let error = body["error"].as_str().unwrap_or_default();
        assert!(error.contains(needle), "{field} = {value}: {body}");
    }
    let mut rr = good();
    rr["kind"] = json!("round_robin");
    rr["rounds"] = json!(3);
    let (status, body) = refused(rr).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (
            400,
            Some("a round-robin's rounds come from its table: leave rounds out")
        )
    );
    let (status, body) = refused(with("game", json!({"kind":"connect4","cols":8,"rows":6}))).await;
    assert_eq!(status, 201, "unrated, any board: {body}");
    let mut rated = with("game", json!({"kind":"connect4","cols":8,"rows":6}));
    rated["rated"] = json!(true);
    let (status, body) = refused(rated).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("rated"), "{body}");
    let (status, _, text) = http_request(
        server.addr,
        "POST",
        "/api/tournaments",
        &[("Content-Type", "text/plain")],
        Some("{}"),
    )
    .await;
    assert_eq!(status, 415, "{text}");

    // Start: the creator alone, with two players at least; then nobody joins or leaves.
    let id = make(&server, good()).await;
    let path = |action: &str| format!("/api/tournaments/{id}/{action}");
    let (status, body) = post(&server, &path("start"), json!({"token": host.token})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("a tournament needs at least 2 players to start"))
    );
    for who in [&host, &other] {
        let (status, body) = post(&server, &path("join"), json!({"token": who.token})).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = post(&server, &path("join"), json!({"token": guest.token})).await;
    assert_eq!(status, 403, "a guest does not join: {body}");
    let (status, body) = post(&server, &path("start"), json!({"token": other.token})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("only the tournament's creator can start it"))
    );
    let (status, body) = post(&server, &path("start"), json!({"token": host.token})).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (200, Some("running")),
        "{body}"
    );
    let late = account(&server, "Late").await;
    let (status, body) = post(&server, &path("join"), json!({"token": late.token})).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (
            409,
            Some("the tournament has started: players can no longer join or leave")
        )
    );
    let (status, body) = post(&server, &path("leave"), json!({"token": other.token})).await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = post(&server, &path("start"), json!({"token": host.token})).await;
    assert_eq!(status, 409, "started once: {body}");
    let (status, body) = post(
        &server,
        "/api/tournaments/nosuchtour/join",
        json!({"token": host.token}),
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("no such tournament"))
    );
    let (status, body) = get(&server, "/api/tournaments/nosuchtour").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("no such tournament"))
    );
    let (status, body) = post(&server, &path("join"), json!({"not": "a token"})).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn a_tournament_resumes_after_a_restart_in_the_middle() {
    let server = TestServer::start().await;
    let host = account(&server, "Host").await;
    let host_token = host.token.clone();
    let names = ["Ada", "Bix", "Cyd"];
    let mut tokens = Vec::new();
    let mut tasks = Vec::new();
    // Before the restart the bots take the first round's two seats only.
    let first_round = Arc::new(AtomicUsize::new(2));
    for name in names {
        let bot = server.bot(name, &["connect4"], 4).await;
        tokens.push(bot.token.clone());
        tasks.push(autoplay(bot, name, Manner::BlackWins, first_round.clone()));
    }
    let id = make(
        &server,
        json!({"token": host_token, "name": "Interrupted", "kind": "round_robin",
               "game": connect4(), "clock": clock(), "bots": names}),
    )
    .await;
    post(
        &server,
        &format!("/api/tournaments/{id}/start"),
        json!({"token": host_token}),
    )
    .await;
    let before = tournament_until(&server, &id, "the second round", |t| {
        t["round"] == 2 && t["pairings"][0]["games"][0]["result"] == "black"
    })
    .await;
    let waiting = before["pairings"][1]["games"][0]["room"].clone();
    assert_eq!(
        before["pairings"][1]["games"][0]["result"],
        Value::Null,
        "not played: {before:#}"
    );

    let data = server.stop().await;
    for task in tasks {
        task.abort();
    }
    let server = TestServer::start_in(data, |_| {}).await;
    let mut tasks = Vec::new();
    for (name, token) in names.iter().zip(&tokens) {
        let bot = bot_again(&server, name, token).await;
        tasks.push(autoplay(bot, name, Manner::BlackWins, unlimited()));
    }
    let t = tournament_until(&server, &id, "the end after the restart", |t| {
        t["status"] == "over"
    })
    .await;
    let games = games_of(&t);
    assert_eq!(games.len(), 3, "{t:#}");
    assert_eq!(games[1].4, waiting, "the second round kept its room");
    assert!(
        games.iter().all(|g| g.3 == "black"),
        "every game played to its end: {t:#}"
    );
    let total: f64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 6.0);
    rooms_stored_as_paired(&server, &t, false).await;
    for task in tasks {
        task.abort();
    }
}

/// Ann and Bob in a started two-player round-robin of Connect Four, both seated in its one
/// game: the tournament's id, the room, black, white and black's name.
async fn started_duel(server: &TestServer) -> (String, String, Client, Client, &'static str) {
    let ann = account(server, "Ann").await;
    let bob = account(server, "Bob").await;
    let id = make(
        server,
        json!({"token": ann.token, "name": "Duel", "kind": "round_robin",
               "game": connect4(), "clock": clock()}),
    )
    .await;
    for who in [&ann, &bob] {
        let path = format!("/api/tournaments/{id}/join");
        let (status, body) = post(server, &path, json!({"token": who.token})).await;
        assert_eq!(status, 200, "{body}");
    }
    let path = format!("/api/tournaments/{id}/start");
    let (status, body) = post(server, &path, json!({"token": ann.token})).await;
    assert_eq!(status, 200, "{body}");
    let (mut ann, mut bob) = (ann, bob);
    let room = ann.expect("created").await["room"]
        .as_str()
        .expect("a room")
        .to_string();
    let ann_state = ann
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    bob.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    if ann_state["you"] == "black" {
        (id, room, ann, bob, "Ann")
    } else {
        (id, room, bob, ann, "Bob")
    }
}

/// A player who has moved cannot end a tournament game by `abort` (which would score as the
/// opponent's forfeit); resigning still ends it, and the standings follow.
#[tokio::test]
async fn a_tournament_game_cannot_be_aborted() {
    let server = TestServer::start().await;
    let (id, room, mut black, mut white, _) = started_duel(&server).await;
    black.play(&room, "4").await;
    white.saw_ply(&room, 1).await;
    // The room tells everyone in it which tournament the game is played in.
    for c in [&mut black, &mut white] {
        let st = c.fresh_state(&room, "player").await;
        assert_eq!(st["tournament"], id.as_str(), "{st}");
    }
    // The game is public: the lobby lists it live, where the TV page picks its games.
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["live"]
                    .as_array()
                    .is_some_and(|l| l.iter().any(|g| g["room"] == room.as_str()))
        })
        .await;
    let e = black.refused(json!({"t":"abort","room":room})).await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("cannot be aborted"),
        "{e}"
    );
    black.send(json!({"t":"resign","room":room})).await;
    let t = tournament_until(&server, &id, "the tournament's end", |t| {
        t["status"] == "over"
    })
    .await;
    let winner = &t["standings"][0];
    assert_eq!(
        (winner["points"].as_f64(), winner["games"].as_u64()),
        (Some(1.0), Some(1)),
        "{t:#}"
    );
}

/// A player who leaves a tournament game for good loses it, even before both sides moved
/// (elsewhere such a game is aborted, which would score against the side that stayed).
#[tokio::test]
async fn a_player_who_leaves_a_tournament_game_loses_it() {
    let server = TestServer::start_with(|c| c.limits.grace = Duration::from_secs(1)).await;
    let (id, room, mut black, mut white, black_name) = started_duel(&server).await;
    black.play(&room, "4").await;
    white.saw_ply(&room, 1).await;
    black.close().await;
    let over = white.expect("over").await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("white"), &json!("abandoned")),
        "{over}"
    );
    let t = tournament_until(&server, &id, "the tournament's end", |t| {
        t["status"] == "over"
    })
    .await;
    let leaver = t["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .find(|s| s["name"] == black_name)
        .expect("the leaver's line")
        .clone();
    assert_eq!(leaver["points"].as_f64(), Some(0.0), "{t:#}");
}
