//! Opening rules over real sockets: a swap2 opening between two people, with the seats that
//! change hands, a refused take-back and a server restart in the middle; and the real
//! `kibitz bot` process playing swap2 and Taraguchi-10 openings as either player.

use crate::support::bots::*;
use crate::support::*;
use game_core::game::Game;
use game_core::opening::{LegalChoice, Opening};
use game_core::{Cell, GameSpec};
use serde_json::{json, Value};

fn swap2() -> Value {
    json!({"kind":"gomoku","size":15,"rule":"freestyle","opening_rule":"swap2"})
}

fn taraguchi10() -> Value {
    json!({"kind":"gomoku","size":15,"rule":"renju","opening_rule":"taraguchi10"})
}

/// Waits for the fresh `state` the room sends after a swap.
async fn state_after_swap(c: &mut Client, room: &str, ply: u64) -> Value {
    c.expect_where(|v| {
        v["t"] == "state"
            && v["room"] == room
            && v["moves"].as_array().is_some_and(|m| m.len() as u64 == ply)
    })
    .await
}

#[tokio::test]
async fn two_people_play_a_swap2_opening_that_survives_a_restart() {
    let server = TestServer::start().await;
    let mut alice = server.client("Alice").await;
    let mut bob = server.client("Bob").await;
    let (room, state) = alice
        .create(json!({"t":"create","game":swap2(),"seat":"black","clock":null}))
        .await;
    assert_eq!(state["opening_state"]["phase"], "place");
    bob.join(&room, "player").await;
    alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;

    // The first player places three stones, all as black.
    for (cell, to_move) in [("h8", "black"), ("j9", "black"), ("i7", "white")] {
        let moved = alice.play(&room, cell).await;
        assert_eq!(
            (moved["by"].as_str(), moved["to_move"].as_str()),
            (Some("black"), Some(to_move))
        );
    }
    let err = alice
        .refused(json!({"t":"move","room":room,"move":"swap"}))
        .await;
    assert_eq!(err["code"], "not_your_turn");
    let err = bob
        .refused(json!({"t":"move","room":room,"move":"black"}))
        .await;
    assert_eq!(err["code"], "illegal_move", "{err}");
    let err = alice.refused(json!({"t":"undo","room":room})).await;
    assert_eq!(err["code"], "bad_request");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("cannot be taken back"),
        "{err}"
    );

    // Bob swaps: he is black now, and Alice, white, plays the 4th stone.
    let moved = bob.play(&room, "swap").await;
    assert_eq!(
        (moved["by"].as_str(), moved["to_move"].as_str()),
        (Some("white"), Some("white"))
    );
    let seen_by_bob = state_after_swap(&mut bob, &room, 4).await;
    assert_eq!(seen_by_bob["you"], "black");
    assert_eq!(seen_by_bob["seats"]["black"]["name"], "Bob");
    assert_eq!(seen_by_bob["opening_state"]["phase"], "over");
    assert_eq!(seen_by_bob["opening_state"]["black"], "second");
    let seen_by_alice = state_after_swap(&mut alice, &room, 4).await;
    assert_eq!(seen_by_alice["you"], "white");
    assert_eq!(seen_by_alice["to_move"], "white");
    alice.play(&room, "a1").await;

    // A restart from the same store: the room replays its opening, seats and moves.
    let (alice_token, bob_token) = (alice.token.clone(), bob.token.clone());
    drop((alice, bob));
    let data = server.stop().await;
    let server = TestServer::start_in(data, |_| {}).await;
    let mut alice = Client::connect(&server.url()).await;
    alice.hello_again("Alice", &alice_token).await;
    let mut bob = Client::connect(&server.url()).await;
    bob.hello_again("Bob", &bob_token).await;
    let state = bob.join(&room, "player").await;
    assert_eq!(state["moves"], json!(["h8", "j9", "i7", "swap", "a1"]));
    assert_eq!(
        (state["you"].as_str(), state["to_move"].as_str()),
        (Some("black"), Some("black"))
    );
    assert_eq!(state["opening_state"]["black"], "second");
    bob.play(&room, "b1").await;
    alice.join(&room, "player").await;
    alice.play(&room, "c1").await;

    // The exports write the stones on the board, without the choices.
    let (status, psq) = http_get(server.addr, &format!("/api/games/{room}/psq")).await;
    assert_eq!(status, 200, "{psq}");
    let stones = psq
        .lines()
        .filter(|l| l.matches(',').count() == 2 && !l.starts_with("Piskvorky"))
        .count();
    assert_eq!(stones, 6, "six stones, no choices: {psq}");
    let (status, json) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    assert!(json.contains(r#""move_string":"h8j9i7a1b1c1""#), "{json}");
}

#[tokio::test]
async fn rooms_and_seeks_take_only_the_rules_a_board_supports() {
    let server = TestServer::start().await;
    let mut alice = server.client("Alice").await;
    let renju_swap2 = json!({"kind":"gomoku","size":15,"rule":"renju","opening_rule":"swap2"});
    let err = alice
        .refused(json!({"t":"create","game":renju_swap2,"seat":"black"}))
        .await;
    assert_eq!(err["code"], "bad_game");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("swap2 opening rule needs"),
        "{err}"
    );
    let freestyle_soosorv =
        json!({"kind":"gomoku","size":15,"rule":"freestyle","opening_rule":"soosorv8"});
    let err = alice
        .refused(json!({"t":"seek","game":freestyle_soosorv,"clock":null}))
        .await;
    assert_eq!(err["code"], "bad_game");
    assert!(
        err["message"].as_str().unwrap().contains("renju on 15x15"),
        "{err}"
    );
    let err = alice
        .refused(json!({"t":"create","game":swap2(),"seat":"black","opening":["h8"]}))
        .await;
    assert_eq!(err["code"], "bad_game");
    assert!(
        err["message"].as_str().unwrap().contains("empty board"),
        "{err}"
    );

    // Two seeks of the same rule pair into a room that starts with the opening.
    let mut bob = server.client("Bob").await;
    for c in [&mut alice, &mut bob] {
        c.send(json!({"t":"seek","game":taraguchi10(),"clock":null}))
            .await;
    }
    for c in [&mut alice, &mut bob] {
        let state = c
            .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
            .await;
        assert_eq!(state["opening_state"]["rule"], "taraguchi10");
        assert_eq!(state["opening_state"]["to_act"], "first");
    }
}

/// A fresh `state` of `room` that has seen event `seq` (older ones still queued are skipped).
async fn state_since(c: &mut Client, room: &str, seq: u64) -> Value {
    c.send(json!({"t":"join","room":room,"as":"player"})).await;
    c.expect_where(|v| v["t"] == "state" && v["room"] == room && v["seq"].as_u64() >= Some(seq))
        .await
}

/// A person's decision in an opening: `stay` when a swap is offered, `black` for swap2's
/// colour, two 5th moves declared, the first offered 5th move, and stones as near the centre
/// as the rule lets them go.
fn person_choice(opening: &Opening) -> String {
    let legal = opening.legal_choices();
    let centre = opening.position().size() / 2;
    let near_centre = |area| {
        let mut cells = opening.cells(area);
        cells.sort_by_key(|c: &Cell| c.col.abs_diff(centre) + c.row.abs_diff(centre));
        cells
    };
    for choice in &legal {
        match *choice {
            LegalChoice::Stay => return "stay".into(),
            LegalChoice::ChooseColor => return "black".into(),
            LegalChoice::Declare { .. } => return "declare 2".into(),
            LegalChoice::ChooseFifth => return format!("choose {}", opening.proposals()[0]),
            _ => {}
        }
    }
    for choice in &legal {
        match *choice {
            LegalChoice::Place { area, .. } => return near_centre(area)[0].to_string(),
            LegalChoice::ProposeFifths { n, area } => {
                let cells: Vec<String> = opening
                    .distinct_cells(area)
                    .iter()
                    .take(usize::from(n))
                    .map(ToString::to_string)
                    .collect();
                return format!("fifths {}", cells.join(","));
            }
            _ => {}
        }
    }
    panic!("no choice in {legal:?}");
}

/// A person against the real bot in an opening rule: the person's decisions are
/// [`person_choice`], the bot's come from its engine. Checks every step against game-core
/// and plays until the game proper has begun and both sides have moved in it; returns the
/// room's moves.
async fn opening_against_the_bot(game: Value, my_seat: &str) -> Vec<String> {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut me = server.client("Alice").await;
    let bot_seat = if my_seat == "black" { "white" } else { "black" };
    let room = create_with_bot(&mut me, &game, my_seat, bot_seat, 5, Value::Null).await;
    let spec: GameSpec = serde_json::from_value(game).unwrap();
    let mut state = state_since(&mut me, &room, 0).await;
    let mut opening_steps = None;
    loop {
        let moves: Vec<String> = serde_json::from_value(state["moves"].clone()).unwrap();
        let replayed = Game::new(&spec).unwrap().replay(&moves);
        let game = replayed.unwrap_or_else(|(i, e)| panic!("step {i} of {moves:?}: {e}"));
        assert_eq!(state["to_move"], game.to_act().as_str(), "{moves:?}");
        if !game.in_opening() {
            let steps = *opening_steps.get_or_insert(moves.len());
            if moves.len() >= steps + 2 {
                return moves;
            }
        }
        let seq = state["seq"].as_u64().unwrap();
        let moved = if state["to_move"] == state["you"] {
            let mv = match game.opening().filter(|o| !o.is_over()) {
                Some(opening) => person_choice(opening),
                None => game.position().legal_moves()[0].clone(),
            };
            me.play(&room, &mv).await
        } else {
            me.expect_where(|v| {
                v["t"] == "moved" && v["room"] == room.as_str() && v["seq"].as_u64() > Some(seq)
            })
            .await
        };
        state = state_since(&mut me, &room, moved["seq"].as_u64().unwrap()).await;
    }
}

#[tokio::test]
async fn the_bot_answers_a_swap2_opening_as_the_second_player() {
    let moves = opening_against_the_bot(swap2(), "black").await;
    // The bot decided after the three stones: stay, swap or two more stones.
    let fourth = moves[3].as_str();
    assert!(
        ["stay", "swap"].contains(&fourth) || fourth.parse::<Cell>().is_ok(),
        "{moves:?}"
    );
}

#[tokio::test]
async fn the_bot_opens_a_swap2_game_as_the_first_player() {
    let moves = opening_against_the_bot(swap2(), "white").await;
    assert!(
        moves[..3].iter().all(|m| m.parse::<Cell>().is_ok()),
        "{moves:?}"
    );
    assert_eq!(moves[3], "stay", "{moves:?}");
}

#[tokio::test]
async fn the_bot_plays_a_taraguchi10_opening_through() {
    let moves = opening_against_the_bot(taraguchi10(), "black").await;
    assert!(moves.len() >= 10, "{moves:?}");
}

#[tokio::test]
async fn the_bot_plays_a_soosorv8_opening_as_the_second_player() {
    let game = json!({"kind":"gomoku","size":15,"rule":"renju","opening_rule":"soosorv8"});
    let moves = opening_against_the_bot(game, "black").await;
    assert!(moves.iter().any(|m| m.starts_with("declare ")), "{moves:?}");
}
