//! Watching games: the server's own client (the showcase, a house client proved by the bot
//! key) is never counted as a spectator, the lobby's live games carry their position and
//! follow each move, their boards take a bounded share of a full lobby's frame, and `/tv`
//! serves the page that shows the best live game.

use crate::support::{gomoku, http_get, seated_pair, Client, TestServer, BOT_KEY};
use serde_json::{json, Value};

/// A client that says hello as the server's own, with `key`.
async fn house(server: &TestServer, key: &str) -> (Client, Value) {
    let mut c = Client::connect(&server.url()).await;
    c.send(json!({"t":"hello","name":"Showcase","house":{"key":key}}))
        .await;
    let answer = c
        .expect_where(|v| v["t"] == "welcome" || v["t"] == "error")
        .await;
    (c, answer)
}

/// The lobby's entry for `room` among the live games, once one satisfies `ok`.
async fn live_entry(watcher: &mut Client, room: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let lobby = watcher
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["live"]
                    .as_array()
                    .is_some_and(|l| l.iter().any(|r| r["room"] == room && ok(r)))
        })
        .await;
    lobby["live"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room"] == room)
        .unwrap()
        .clone()
}

#[tokio::test]
async fn the_house_client_watches_without_being_counted() {
    let server = TestServer::start().await;
    let (mut showcase, welcome) = house(&server, BOT_KEY).await;
    assert_eq!(welcome["t"], "welcome", "{welcome}");
    let (room, created) = showcase
        .create(json!({"t":"create","game":gomoku(15),"seat":"none"}))
        .await;
    assert_eq!(created["spectators"], 0, "{created}");

    let mut alice = server.client("Alice").await;
    let mut bob = server.client("Bob").await;
    alice.join(&room, "player").await;
    bob.send(json!({"t":"join","room":room,"as":"player"}))
        .await;
    let playing = alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(
        playing["spectators"], 0,
        "the showcase is no spectator: {playing}"
    );
    // The showcase still hears the room: it sees the game start.
    showcase
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;

    let mut lobby = server.client("Lobby").await;
    lobby.send(json!({"t":"lobby"})).await;
    let entry = live_entry(&mut lobby, &room, |_| true).await;
    assert_eq!(entry["spectators"], 0, "{entry}");

    // A person who watches is counted, in the room and in the lobby.
    let mut carol = server.client("Carol").await;
    let seen = carol.join(&room, "spectator").await;
    assert_eq!(seen["spectators"], 1, "{seen}");
    let crowd = alice
        .expect_where(|v| v["t"] == "crowd" && v["spectators"] == 1)
        .await;
    assert_eq!(crowd["room"], room.as_str());
    live_entry(&mut lobby, &room, |r| r["spectators"] == 1).await;

    // The showcase leaving changes nobody's count; Carol leaving does.
    showcase.send(json!({"t":"leave","room":room})).await;
    carol.send(json!({"t":"leave","room":room})).await;
    alice
        .expect_where(|v| v["t"] == "crowd" && v["spectators"] == 0)
        .await;
}

#[tokio::test]
async fn a_house_hello_needs_the_server_key() {
    let server = TestServer::start().await;
    let (mut pretender, answer) = house(&server, "not-the-key").await;
    assert_eq!(answer["t"], "error", "{answer}");
    assert_eq!(answer["code"], "bad_bot_key");
    // Refused, the connection stays and may say hello as anyone honest.
    let welcome = pretender.hello("Pretender").await;
    assert_eq!(welcome["name"], "Pretender");

    // Without a bot key nothing is a house client.
    let keyless = TestServer::start_with(|c| c.bot_key = None).await;
    let (_, answer) = house(&keyless, BOT_KEY).await;
    assert_eq!(answer["code"], "bad_bot_key", "{answer}");
}

/// Index of a Gomoku cell in the lobby's board text (rows from the top).
fn gomoku_index(size: usize, col: usize, row_from_bottom: usize) -> usize {
    (size - row_from_bottom) * size + col
}

#[tokio::test]
async fn lobby_live_games_carry_their_board_and_follow_each_move() {
    let server = TestServer::start().await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher.expect("lobby").await;

    let (mut alice, mut bob, room) = seated_pair(&server, gomoku(15), Value::Null).await;
    let start = live_entry(&mut watcher, &room, |_| true).await;
    assert_eq!(start["board"], ".".repeat(225), "{start}");
    assert!(start.get("last").is_none(), "no move yet: {start}");

    alice.play(&room, "h8").await;
    let one = live_entry(&mut watcher, &room, |r| r["ply"] == 1).await;
    let board = one["board"].as_str().unwrap().as_bytes().to_vec();
    assert_eq!(board[gomoku_index(15, 7, 8)], b'x', "{one}");
    assert_eq!(one["last"], "h8");

    bob.play(&room, "a1").await;
    let two = live_entry(&mut watcher, &room, |r| r["ply"] == 2).await;
    let board = two["board"].as_str().unwrap().as_bytes().to_vec();
    assert_eq!(board[gomoku_index(15, 0, 1)], b'o', "{two}");
    assert_eq!(board[gomoku_index(15, 7, 8)], b'x');
    assert_eq!(board.iter().filter(|&&c| c != b'.').count(), 2);
    assert_eq!(two["last"], "a1");
}

#[tokio::test]
async fn the_board_interval_never_holds_back_other_changes() {
    // With an hour between board updates, a spectator arriving (a change of the list) still
    // reaches the lobby at once, and carries the move played meanwhile.
    let server = TestServer::start_with(|c| {
        c.lobby_board_interval = std::time::Duration::from_secs(3600);
    })
    .await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher.expect("lobby").await;
    let (mut alice, _bob, room) = seated_pair(&server, gomoku(15), Value::Null).await;
    live_entry(&mut watcher, &room, |r| r["ply"] == 0).await;
    alice.play(&room, "h8").await;
    let mut carol = server.client("Carol").await;
    carol.join(&room, "spectator").await;
    let entry = live_entry(&mut watcher, &room, |r| r["spectators"] == 1).await;
    assert_eq!(entry["ply"], 1, "{entry}");
    assert_eq!(entry["last"], "h8");
}

#[tokio::test]
async fn tv_is_served_as_the_page() {
    let server = TestServer::start().await;
    let (status, body) = http_get(server.addr, "/tv").await;
    assert_eq!(status, 200);
    assert!(body.contains("js/main.js"), "{body}");
    let (status, _) = http_get(server.addr, "/tv/x").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_boards_of_a_full_lobby_stay_within_their_share_of_the_frame() {
    let server = TestServer::start_with(|c| {
        c.limits.new_players_per_address = 1000;
        c.limits.open_rooms_per_address = 1000;
    })
    .await;
    let mut watcher = server.client("Watcher").await;
    watcher.send(json!({"t":"lobby"})).await;
    watcher.expect("lobby").await;
    // A full open list, and more live games on the largest board than are listed.
    let mut keep = Vec::new();
    for i in 0..5 {
        let mut host = server.client(&format!("Host{i}")).await;
        for _ in 0..10 {
            host.create(json!({"t":"create","game":gomoku(15),"seat":"black"}))
                .await;
        }
        keep.push(host);
    }
    let large = json!({"kind":"gomoku","size":26,"rule":"freestyle"});
    for _ in 0..55 {
        let (a, b, _) = seated_pair(&server, large.clone(), Value::Null).await;
        keep.push(a);
        keep.push(b);
    }
    let mut largest = 0;
    let last = loop {
        let v = watcher.recv().await;
        if v["t"] != "lobby" {
            continue;
        }
        largest = largest.max(v.to_string().len());
        if v["live_total"] == 55 && v["open_total"] == 50 {
            break v;
        }
    };
    let live = last["live"].as_array().unwrap();
    assert_eq!(live.len(), 50);
    let boards: Vec<usize> = live
        .iter()
        .filter_map(|g| g["board"].as_str().map(str::len))
        .collect();
    assert!(!boards.is_empty(), "the first games keep their boards");
    assert!(boards.iter().all(|&n| n == 26 * 26));
    assert!(boards.len() < live.len(), "26x26 boards do not all fit");
    assert!(boards.iter().sum::<usize>() <= 12 * 1024);
    assert!(largest < 48 * 1024, "a lobby frame of {largest} bytes");
}
