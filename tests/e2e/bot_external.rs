//! Engines built outside the bot as its engine (`kibitz bot --engine CMD --protocol …`): the
//! project's own `kibitz pbrain` as the Gomocup brain, `kibitz nboard` as the NBoard engine and
//! `kibitz analyze` on its line protocol stand in for foreign programs. A shell pipe beside each engine keeps what the
//! bot sent it and what it answered, so the tests see that every move of the bot came from
//! the engine; an engine that dies at once leaves the bot's own engine to play.

use std::path::Path;

use crate::support::bots::*;
use crate::support::*;
use serde_json::{json, Value};

/// The command line of `kibitz <args>` with what goes in and out of it kept in `dir`'s
/// `in.log` and `out.log`.
fn logged(dir: &Path, args: &str) -> String {
    let kibitz = env!("CARGO_BIN_EXE_kibitz");
    let (input, output) = (dir.join("in.log"), dir.join("out.log"));
    format!(
        "sh -c 'tee -a {} | {kibitz} {args} | tee -a {}'",
        input.display(),
        output.display()
    )
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Plays a person (`my_seat`, random legal moves) against the engine bot at `level` to the
/// end; returns the moves of the game. The level sets the move's time of an untimed game
/// (0.3 s a level): enough for an engine behind pipes on a loaded machine.
async fn game_against(
    server: &TestServer,
    game: Value,
    my_seat: &str,
    bot_seat: &str,
    level: u8,
) -> Vec<String> {
    let mut me = server.client("Alice").await;
    let room = create_with_bot(&mut me, &game, my_seat, bot_seat, level, Value::Null).await;
    let state = me
        .expect_where(|v| {
            v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing"
        })
        .await;
    assert_eq!(state["seats"][bot_seat]["bot"], true);
    let mut rng = Lcg(7);
    let played = play_to_end(&mut me, &state, |p| rng.pick(p)).await;
    played.follow.check_board_result(&played.over);
    played.follow.moves
}

#[tokio::test]
async fn a_gomocup_brain_plays_every_move_of_the_bot() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = spawn_engine_bot(
        &server.url(),
        "Brain",
        &logged(dir.path(), "pbrain"),
        "pbrain",
    );
    let game = json!({"kind":"gomoku","size":15,"rule":"freestyle"});
    let moves = game_against(&server, game, "black", "white", 3).await;

    // White's moves are the brain's answers, `x,y` with y from the top.
    let answered: Vec<String> = lines(&dir.path().join("out.log"))
        .into_iter()
        .filter_map(|l| {
            let (x, y) = l.split_once(',')?;
            let (x, y): (u8, u8) = (x.parse().ok()?, y.parse().ok()?);
            Some(format!("{}{}", char::from(b'a' + x), 15 - y))
        })
        .collect();
    let whites: Vec<String> = moves.iter().skip(1).step_by(2).cloned().collect();
    assert!(!whites.is_empty());
    assert_eq!(answered, whites, "every white move came from the brain");
    let sent = lines(&dir.path().join("in.log"));
    assert_eq!(sent.first().map(String::as_str), Some("START 15"));
    assert!(sent.iter().any(|l| l.starts_with("INFO timeout_turn ")));
    assert_eq!(sent.iter().filter(|l| *l == "DONE").count(), whites.len());
}

#[tokio::test]
async fn an_nboard_engine_plays_every_move_of_the_bot() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = spawn_engine_bot(&server.url(), "Nb", &logged(dir.path(), "nboard"), "nboard");
    let moves = game_against(&server, json!({"kind":"othello"}), "white", "black", 3).await;

    // Black's moves (passes the server plays are not asked of the engine) are its answers.
    let answered: Vec<String> = lines(&dir.path().join("out.log"))
        .iter()
        .filter_map(|l| l.strip_prefix("=== "))
        .map(|a| a.split('/').next().unwrap().to_ascii_lowercase())
        .collect();
    let mut position = game_core::AnyPosition::Othello(game_core::othello::Othello::new());
    let mut blacks = Vec::new();
    for mv in &moves {
        if position.turn() == game_core::Color::Black && mv != "pass" {
            blacks.push(mv.clone());
        }
        position.play_str(mv).expect("a legal move");
    }
    assert!(!blacks.is_empty());
    assert_eq!(answered, blacks, "every black move came from the engine");
    let sent = lines(&dir.path().join("in.log"));
    assert!(sent.iter().any(|l| l.starts_with("set depth ")));
    assert!(sent.iter().any(|l| l.starts_with("set game (;GM[Othello]")));
}

#[tokio::test]
async fn a_connect_four_engine_on_the_analyze_lines_plays_every_move_of_the_bot() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let engine = logged(dir.path(), "analyze --game connect4 --level 4");
    let _bot = spawn_engine_bot(&server.url(), "Liner", &engine, "analyze");
    // A larger board with a blocked cell: the board text carries both.
    let game = json!({"kind":"connect4","cols":9,"rows":7,"blocked":[[5,1]]});
    let moves = game_against(&server, game, "white", "black", 3).await;

    let answered: Vec<String> = lines(&dir.path().join("out.log"))
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("a JSON line")["best"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let blacks: Vec<String> = moves.iter().step_by(2).cloned().collect();
    assert!(!blacks.is_empty());
    assert_eq!(answered, blacks, "every black move came from the engine");
    for line in lines(&dir.path().join("in.log")) {
        let (time, board) = line.split_once(' ').expect("@MS BOARD");
        assert!(
            time.strip_prefix('@')
                .is_some_and(|ms| ms.parse::<u64>().is_ok()),
            "{line}"
        );
        assert_eq!(board.split('/').count(), 7, "{line}");
        assert!(board.contains('#'), "{line}");
    }
}

#[tokio::test]
async fn an_engine_that_dies_leaves_the_bot_s_own_engine_to_play() {
    let server = TestServer::start().await;
    // Reads its first line and exits: every move finds the pipe closed.
    let engine = "sh -c 'read line; exit 3'";
    let _bot = spawn_engine_bot(&server.url(), "Fallback", engine, "pbrain");
    let game = json!({"kind":"gomoku","size":9,"rule":"freestyle"});
    let moves = game_against(&server, game, "white", "black", 1).await;
    assert!(moves.len() >= 9, "a whole game: {moves:?}");
}
