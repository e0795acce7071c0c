//! The real `kibitz bot` process playing whole games on a server: against a scripted person
//! in every game, against another bot process under a spectator's eyes, eight games at once
//! on one-second move clocks, and its manners — three take-backs a casual game and the reason
//! when it declines, draws only when drawn, no games past its capacity, pongs while it
//! thinks, a quiet chat; and entered in a tournament at two levels, the game against itself.
//!
//! The bots run with `--pace-ms 20` (their natural pace is 250 ms against people and 900 ms
//! between bots) so that whole games fit in a test; the eight-game test keeps the natural pace.

use std::time::{Duration, Instant};

use crate::support::bots::*;
use crate::support::*;
use game_core::AnyPosition;
use serde_json::{json, Value};

/// One scripted person against the bot, to the end, with random legal moves.
async fn person_against_the_bot(game: Value, my_seat: &str, bot_seat: &str, level: u8, seed: u64) {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut me = server.client("Alice").await;
    // The bot may still be connecting: ask until it is there.
    let room = create_with_bot(&mut me, &game, my_seat, bot_seat, level, Value::Null).await;
    let state = me
        .expect_where(|v| {
            v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing"
        })
        .await;
    assert_eq!(state["seats"][bot_seat]["bot"], true);
    assert_eq!(state["seats"][bot_seat]["name"], "Kibot");
    let mut rng = Lcg(seed);
    let played = play_to_end(&mut me, &state, |p| rng.pick(p)).await;
    played.follow.check_board_result(&played.over);
    let chat = &played.their_chat;
    assert!(
        chat.first()
            .is_some_and(|l| l.starts_with("Hi, Kibot here")),
        "a greeting first: {chat:?}"
    );
    assert!(
        chat.last().is_some_and(|l| l.starts_with("gg")),
        "gg last: {chat:?}"
    );
    assert!(chat.len() <= 4, "the bot talks too much: {chat:?}");
}

#[tokio::test]
async fn a_person_plays_the_bot_at_gomoku_to_the_end() {
    person_against_the_bot(
        json!({"kind":"gomoku","size":9,"rule":"freestyle"}),
        "black",
        "white",
        2,
        1,
    )
    .await;
}

#[tokio::test]
async fn a_person_plays_the_bot_at_othello_to_the_end() {
    person_against_the_bot(json!({"kind":"othello"}), "white", "black", 1, 2).await;
}

#[tokio::test]
async fn a_person_plays_the_bot_at_connect4_to_the_end() {
    person_against_the_bot(
        json!({"kind":"connect4","cols":7,"rows":6}),
        "black",
        "white",
        2,
        3,
    )
    .await;
}

/// Watches a room as a spectator from its first `state` to `over`: every move is seen, in
/// order, legal, and the result is the board's.
async fn watch_to_the_end(c: &mut Client, room: &str) -> (Follow, Value) {
    let mut follow: Option<Follow> = None;
    loop {
        let v = c.expect_where(|v| v["room"] == room).await;
        match v["t"].as_str() {
            Some("state") => {
                let fresh = Follow::from_state(&v);
                if let Some(f) = &follow {
                    assert!(
                        fresh.moves.starts_with(&f.moves),
                        "a state that forgets moves"
                    );
                }
                follow = Some(fresh);
            }
            Some("moved") => follow.as_mut().expect("a state first").moved(&v),
            Some("over") => {
                let f = follow.expect("a state first");
                return (f, v);
            }
            Some("chat") => follow.as_mut().expect("a state first").numbered(&v),
            _ => {}
        }
    }
}

#[tokio::test]
async fn bots_play_each_other_in_every_game_and_a_spectator_sees_it_all() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _x = BotProcess::start(&server.url(), "Kibot", 3, &dir.path().join("x.json"));
    let _y = BotProcess::start(&server.url(), "Kibitzer", 3, &dir.path().join("y.json"));
    let mut lobby = server.client("Lobby").await;
    lobby.send(json!({"t":"lobby"})).await;
    lobby
        .expect_where(|v| v["t"] == "lobby" && v["bots"].as_array().is_some_and(|b| b.len() == 2))
        .await;
    let games = [
        json!({"kind":"gomoku","size":9,"rule":"freestyle"}),
        json!({"kind":"othello"}),
        json!({"kind":"connect4","cols":7,"rows":6}),
    ];
    let watch = games.iter().map(|game| {
        let url = server.url();
        let game = game.clone();
        async move {
            let mut c = Client::connect(&url).await;
            c.hello("Watcher").await;
            let (room, state) = c
                .create(json!({"t":"create","game":game,"seat":"none",
                    "bots":{"black":1,"white":1}}))
                .await;
            assert_eq!(state["you"], Value::Null, "the creator watches");
            let (follow, over) = watch_to_the_end(&mut c, &room).await;
            follow.check_board_result(&over);
            assert!(!follow.moves.is_empty());
            (room, follow.moves.len())
        }
    });
    let results = futures::future::join_all(watch).await;
    for (room, plies) in &results {
        assert!(*plies > 0, "{room}");
    }
    // Both bots are free again.
    lobby
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["bots"]
                    .as_array()
                    .is_some_and(|b| b.len() == 2 && b.iter().all(|b| b["busy"] == 0))
        })
        .await;
}

#[tokio::test]
async fn the_bot_plays_eight_games_on_one_second_clocks_without_losing_on_time() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    // The natural pace: this is about time, so nothing is made easier.
    let _bot = BotProcess::start_paced(&server.url(), "Kibot", 8, &dir.path().join("bot.json"), "");
    let games = [
        json!({"kind":"connect4","cols":7,"rows":6}),
        json!({"kind":"gomoku","size":9,"rule":"freestyle"}),
        json!({"kind":"othello"}),
        json!({"kind":"connect4","cols":7,"rows":6}),
        json!({"kind":"gomoku","size":11,"rule":"freestyle"}),
        json!({"kind":"connect4","cols":7,"rows":6}),
        json!({"kind":"gomoku","size":9,"rule":"freestyle"}),
        json!({"kind":"othello"}),
    ];
    let mut first = server.client("Player0").await;
    create_and_drop_until_bot_is_there(&mut first).await;
    let players = games.iter().enumerate().map(|(i, game)| {
        let url = server.url();
        let game = game.clone();
        async move {
            let mut c = Client::connect(&url).await;
            c.hello(&format!("Player{i}")).await;
            let level = 3 + (i % 4) as u8;
            let (room, _) = c
                .create(json!({"t":"create","game":game,"seat":"black",
                    "clock":{"move_ms":1000},"bots":{"white":level}}))
                .await;
            let state = c
                .expect_where(|v| {
                    v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing"
                })
                .await;
            let mut rng = Lcg(100 + i as u64);
            let played = play_to_end(&mut c, &state, |p| rng.pick(p)).await;
            (played.over, played.follow)
        }
    });
    let results = futures::future::join_all(players).await;
    for (over, follow) in &results {
        assert_ne!(over["reason"], "timeout", "lost on time: {over}");
        follow.check_board_result(over);
    }
}

/// Waits until a bot is connected (the lobby lists it).
async fn create_and_drop_until_bot_is_there(c: &mut Client) {
    c.send(json!({"t":"lobby"})).await;
    c.expect_where(|v| v["t"] == "lobby" && v["bots"].as_array().is_some_and(|b| !b.is_empty()))
        .await;
    c.send(json!({"t":"unlobby"})).await;
}

/// Asks for a take-back and reads the room's events in order up to the answer: `undone`, or the
/// room's own "… declines the take-back". Returns the answer and the bot's lines meanwhile.
async fn ask_take_back(me: &mut Client, seat: &mut Seat) -> (Value, Vec<String>) {
    let room = seat.follow.room.clone();
    me.send(json!({"t":"undo","room":room})).await;
    let mut said = Vec::new();
    loop {
        let v = me.expect_where(|v| v["room"] == room.as_str()).await;
        match v["t"].as_str() {
            Some("undo_offer") => {
                assert_eq!(v["by"], seat.me.as_str());
                seat.follow.numbered(&v);
            }
            Some("undone") => {
                seat.undone(&v);
                return (v, said);
            }
            Some("chat") if v["seat"].is_null() => {
                seat.follow.numbered(&v);
                return (v, said);
            }
            Some("chat") => {
                seat.follow.numbered(&v);
                said.push(v["text"].as_str().unwrap_or_default().to_string());
            }
            _ => panic!("unexpected before the answer to a take-back: {v}"),
        }
    }
}

/// The bot reads `rated` from the room's state: in a rated game it declines every take-back,
/// saying why, and the game goes on.
#[tokio::test]
async fn the_bot_declines_take_backs_in_a_rated_game() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut me = account(&server, "Alice").await;
    let c4 = json!({"kind":"connect4","cols":7,"rows":6});
    let create = json!({"t":"create","game":c4,"seat":"black","rated":true,
        "bots":{"white":10}});
    let room = create_with_bot_as(&mut me, &create).await;
    let state = me
        .expect_where(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    assert_eq!(state["rated"], true, "{state}");
    let mut seat = Seat::new(&state);
    seat.play(&mut me, |_| "4".to_string(), |f| f.moves.len() >= 2)
        .await;
    let (answer, said) = ask_take_back(&mut me, &mut seat).await;
    assert_eq!(
        answer["t"], "chat",
        "a take-back granted in a rated game: {answer}"
    );
    assert_eq!(answer["text"], "Kibot declines the take-back");
    assert!(
        said.iter()
            .any(|l| l == "I decline the take-back: rated game."),
        "the reason in the chat: {said:?}"
    );
    assert_eq!(seat.follow.moves.len(), 2);
}

#[tokio::test]
async fn the_bot_grants_three_take_backs_a_timed_casual_game_then_says_why_not() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut me = server.client("Alice").await;
    let c4 = json!({"kind":"connect4","cols":7,"rows":6});
    let clock = json!({"initial_ms":120000,"increment_ms":0});
    let room = create_with_bot(&mut me, &c4, "black", "white", 2, clock).await;
    let state = me
        .expect_where(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    let mut seat = Seat::new(&state);

    // Three take-backs: each time the game goes back to the start, and plays on from there.
    for n in 1..=3 {
        seat.play(&mut me, |_| "4".to_string(), |f| f.moves.len() >= 2)
            .await;
        let (answer, said) = ask_take_back(&mut me, &mut seat).await;
        assert_eq!(answer["t"], "undone", "take-back {n} refused: {answer}");
        assert_eq!(answer["ply"], 0);
        if n == 3 {
            assert!(
                said.iter().any(|l| l.contains("last take-back")),
                "the last one is announced: {said:?}"
            );
        }
    }

    // The fourth: the bot says why, then the room says it declined; the game goes on.
    seat.play(&mut me, |_| "3".to_string(), |f| f.moves.len() >= 2)
        .await;
    let (answer, said) = ask_take_back(&mut me, &mut seat).await;
    assert_eq!(answer["t"], "chat", "a fourth take-back granted: {answer}");
    assert_eq!(answer["text"], "Kibot declines the take-back");
    assert!(
        said.iter().any(|l| l
            == "I decline the take-back: limit of 3 take-backs reached (this is the 4th request)."),
        "the reason in the chat: {said:?}"
    );
    assert_eq!(seat.follow.moves.len(), 2);
    seat.play(&mut me, |_| "3".to_string(), |f| f.moves.len() >= 4)
        .await;
    assert_eq!(seat.follow.moves[0], "3");
}

/// A Connect Four game of 32 moves after which the position is a proven draw, with black
/// (the bot's seat below) to move: found by the test's own brute force.
fn drawn_connect4_opening() -> Vec<String> {
    // Column heights fill up evenly from a fixed sequence; check every candidate.
    let mut rng = Lcg(7);
    for _ in 0..2000 {
        let mut pos = AnyPosition::new(
            &serde_json::from_value(json!({"kind":"connect4","cols":7,"rows":6})).unwrap(),
        )
        .unwrap();
        let mut moves = Vec::new();
        while moves.len() < 32 && !pos.is_over() {
            let m = rng.pick(&pos);
            pos.play_str(&m).unwrap();
            moves.push(m);
        }
        if moves.len() == 32 && !pos.is_over() && connect4_value(&pos) == 0 {
            return moves;
        }
    }
    panic!("no drawn position found");
}

/// Naive negamax of a Connect Four position: 0 for a draw, else ±(cells + 1 − n) / 2 as
/// docs/engines.md defines the score (n stones before the winning one).
pub fn connect4_value(pos: &AnyPosition) -> i32 {
    let n = pos.ply() as i32;
    let mut best = i32::MIN;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_str(&m).unwrap();
        let value = match next.outcome() {
            Some(o) if o.winner.is_some() => (42 + 1 - n) / 2,
            Some(_) => 0,
            None => -connect4_value(&next),
        };
        best = best.max(value);
    }
    best
}

#[tokio::test]
async fn the_bot_accepts_a_draw_only_when_it_is_drawn() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut me = server.client("Alice").await;

    // Early in a Gomoku game nothing is decided: declined, and the room says so.
    let gomoku = json!({"kind":"gomoku","size":15,"rule":"freestyle"});
    let room = create_with_bot(&mut me, &gomoku, "black", "white", 3, Value::Null).await;
    let state = me
        .expect_where(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    let mut seat = Seat::new(&state);
    let mut rng = Lcg(11);
    seat.play(&mut me, |p| rng.pick(p), |f| f.moves.len() >= 4)
        .await;
    me.send(json!({"t":"draw","room":room})).await;
    let answer = me
        .expect_where(|v| {
            v["room"] == room.as_str()
                && (v["t"] == "over" || (v["t"] == "chat" && v["seat"].is_null()))
        })
        .await;
    assert_eq!(
        answer["t"], "chat",
        "the bot agreed to a draw at move 4: {answer}"
    );
    assert!(answer["text"]
        .as_str()
        .unwrap_or_default()
        .contains("declines the draw"));
    me.send(json!({"t":"resign","room":room})).await;
    me.expect_where(|v| v["t"] == "over" && v["room"] == room.as_str())
        .await;

    // A Connect Four endgame the test proved drawn: the bot (black, to move) sees it too.
    let opening = drawn_connect4_opening();
    me.send(
        json!({"t":"create","game":{"kind":"connect4","cols":7,"rows":6},"seat":"white",
        "opening":opening,"bots":{"black":9}}),
    )
    .await;
    let room = me.expect("created").await["room"]
        .as_str()
        .unwrap()
        .to_string();
    let state = me
        .expect_where(|v| {
            v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing"
        })
        .await;
    let mut seat = Seat::new(&state);
    // Our reply keeps the draw (the test's own negamax picks it).
    let keep_draw = |p: &AnyPosition| {
        p.legal_moves()
            .into_iter()
            .find(|m| {
                let mut next = p.clone();
                next.play_str(m).unwrap();
                !next.is_over() && connect4_value(&next) == 0
            })
            .expect("a drawing reply")
    };
    seat.play(&mut me, keep_draw, |f| !f.moves.is_empty()).await;
    assert_eq!(connect4_value(&seat.follow.pos), 0);
    seat.play(&mut me, keep_draw, |f| f.moves.len() >= 2).await;
    me.send(json!({"t":"draw","room":room})).await;
    let over = me
        .expect_where(|v| {
            v["room"] == room.as_str()
                && (v["t"] == "over" || (v["t"] == "chat" && v["seat"].is_null()))
        })
        .await;
    assert_eq!(
        over["t"], "over",
        "the bot declined a drawn position: {over}"
    );
    assert_eq!(over["result"], "draw");
    assert_eq!(over["reason"], "agreement");
}

#[tokio::test]
async fn the_bot_takes_no_game_past_its_capacity() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 1, &dir.path().join("bot.json"));
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let c4 = json!({"kind":"connect4","cols":7,"rows":6});
    let first = create_with_bot(&mut a, &c4, "black", "white", 1, Value::Null).await;
    let (second, _) = b
        .create(json!({"t":"create","game":c4,"seat":"black"}))
        .await;
    b.send(json!({"t":"invite_bot","room":second,"level":1}))
        .await;
    assert_eq!(b.expect_error().await, "no_bot_available");
    // The first game ends: the bot has room again.
    a.send(json!({"t":"resign","room":first})).await;
    a.expect_where(|v| v["t"] == "over" && v["room"] == first.as_str())
        .await;
    b.send(json!({"t":"lobby"})).await;
    b.expect_where(|v| v["t"] == "lobby" && v["bots"][0]["busy"] == 0)
        .await;
    b.send(json!({"t":"invite_bot","room":second,"level":1}))
        .await;
    let state = b
        .expect_where(|v| {
            v["t"] == "state" && v["room"] == second.as_str() && v["status"] == "playing"
        })
        .await;
    assert_eq!(state["seats"]["white"]["name"], "Kibot");
}

#[tokio::test]
async fn the_bot_answers_pings_while_it_thinks() {
    // Silent connections go after 600 ms; the bot thinks 3 s about its move.
    let server = TestServer::start_with(|c| {
        c.limits.ping_interval = Duration::from_millis(150);
        c.limits.idle_timeout = Duration::from_millis(600);
    })
    .await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 1, &dir.path().join("bot.json"));
    let mut me = server.client("Alice").await;
    let gomoku = json!({"kind":"gomoku","size":15,"rule":"freestyle"});
    let room = create_with_bot(&mut me, &gomoku, "black", "white", 10, Value::Null).await;
    let state = me
        .expect_where(|v| v["t"] == "state" && v["room"] == room.as_str())
        .await;
    let mut seat = Seat::new(&state);
    let mut rng = Lcg(5);
    let mut asked = Instant::now();
    seat.play(
        &mut me,
        |p| {
            asked = Instant::now();
            rng.pick(p)
        },
        |f| f.moves.len() >= 2,
    )
    .await;
    let thought = asked.elapsed();
    assert!(
        thought > Duration::from_millis(600),
        "the bot answered in {thought:?}: too fast to prove anything"
    );
    // Never shown offline meanwhile.
    assert!(
        !me.backlog
            .iter()
            .any(|v| v["t"] == "crowd" && v["online"]["white"] == false),
        "the bot was dropped: {:?}",
        me.backlog
    );
    let state = me.fresh_state(&room, "player").await;
    assert_eq!(state["seats"]["white"]["online"], true);
}

/// A tournament with the one bot process entered at two levels: the game between them is the
/// bot playing itself, both seats, each at its level, to a real end.
#[tokio::test]
async fn a_bot_entered_at_two_levels_plays_itself_in_a_tournament() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let host = server.client("guest-Host").await;
    let (status, body) = http_json(
        server.addr,
        "POST",
        "/api/accounts",
        json!({"token": host.token, "name": "Host", "password": "correct horse battery"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let make = json!({"token": host.token, "name": "Mirror", "kind": "round_robin",
        "game": {"kind":"connect4","cols":7,"rows":6},
        "clock": {"initial_ms":60_000,"increment_ms":0},
        "bots": [{"name":"Kibot","level":1}, {"name":"Kibot","level":2}]});
    // The bot may still be connecting: ask until it is there.
    let deadline = Instant::now() + Duration::from_secs(20);
    let made = loop {
        let (status, made) = http_json(server.addr, "POST", "/api/tournaments", make.clone()).await;
        if status == 201 {
            break made;
        }
        assert!(Instant::now() < deadline, "{made}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let levels: Vec<(Value, Value)> = made["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].clone(), p["level"].clone()))
        .collect();
    assert_eq!(
        levels,
        [(json!("Kibot"), json!(1)), (json!("Kibot"), json!(2))]
    );
    let id = made["id"].as_str().unwrap();
    let path = format!("/api/tournaments/{id}/start");
    let (status, body) = http_json(server.addr, "POST", &path, json!({"token": host.token})).await;
    assert_eq!(status, 200, "{body}");
    let deadline = Instant::now() + Duration::from_secs(60);
    let over = loop {
        let (_, text) = http_get(server.addr, &format!("/api/tournaments/{id}")).await;
        let t: Value = serde_json::from_str(&text).unwrap();
        if t["status"] == "over" {
            break t;
        }
        assert!(Instant::now() < deadline, "{t:#}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let game = &over["pairings"][0]["games"][0];
    assert_ne!(game["result"], "aborted", "played, not forfeited: {over:#}");
    let points = game["black_points"].as_f64().unwrap() + game["white_points"].as_f64().unwrap();
    assert_eq!(points, 1.0, "{over:#}");
    let (status, text) = http_get(
        server.addr,
        &format!("/api/games/{}", game["room"].as_str().unwrap()),
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let stored: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        stored["seats"]["black"]["player"], stored["seats"]["white"]["player"],
        "{stored}"
    );
    assert!(
        stored["moves"].as_array().unwrap().len() >= 7,
        "a real game: {stored}"
    );
    assert!(
        matches!(stored["result"]["reason"].as_str(), Some("four" | "full")),
        "{stored}"
    );
}
