//! End-to-end games over real sockets: a full Gomoku game with a spectator, a renju forbidden
//! point refused, an Othello game with a forced pass played to its score, and Connect Four on
//! a 9x11 board with a blocked cell.

use crate::support::*;
use game_core::{AnyPosition, Cell, Color, GameSpec};
use serde_json::{json, Value};

#[tokio::test]
async fn gomoku_to_five_with_a_spectator() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) =
        seated_pair(&server, json!({"kind":"gomoku","size":15}), json!(null)).await;
    let mut s = server.client("Sam").await;
    let st = s.join(&room, "spectator").await;
    assert_eq!(st["you"], json!(null));
    assert_eq!(st["status"], "playing");
    let black = ["h8", "h9", "h10", "h11"];
    let white = ["a1", "a2", "a3", "a4"];
    for i in 0..4 {
        a.play(&room, black[i]).await;
        b.saw_move(black[i]).await;
        b.play(&room, white[i]).await;
        a.saw_move(white[i]).await;
    }
    a.play(&room, "h12").await;
    let mut seq = st["seq"].as_u64().unwrap();
    for (ply, mv) in ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
        .iter()
        .enumerate()
    {
        let moved = s.saw_ply(&room, ply as u64 + 1).await;
        assert_eq!(moved["move"], *mv);
        assert_eq!(moved["seq"].as_u64().unwrap(), seq + 1, "no gap in seq");
        assert!(moved.get("id").is_none(), "the id goes to the mover only");
        seq += 1;
    }
    for c in [&mut a, &mut b, &mut s] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "black");
        assert_eq!(over["reason"], "five");
        assert_eq!(over["line"], json!(["h8", "h9", "h10", "h11", "h12"]));
        assert_eq!(over["seq"].as_u64().unwrap(), seq + 1);
    }
    // Any action after the end is refused.
    b.send(json!({"t":"move","room":room,"move":"b1"})).await;
    assert_eq!(b.expect_error().await, "game_over");
    // The record is stored and exported.
    let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    assert_eq!(v["result"]["reason"], "five");
    let (status, sgf) = http_get(server.addr, &format!("/api/games/{room}/sgf")).await;
    assert_eq!(status, 200);
    assert!(sgf.contains("GM[4]"), "{sgf}");
}

/// Black stones on f8, g8 and h6, h7 (white far away on the a file): h8 makes two open
/// threes at once, a forbidden double-three for black under renju.
const DOUBLE_THREE_OPENING: [&str; 8] = ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"];

#[tokio::test]
async fn renju_forbidden_point_is_refused_and_the_game_goes_on() {
    let game = json!({"kind":"gomoku","size":15,"rule":"renju"});
    // The position really has h8 forbidden for black.
    let spec: GameSpec = serde_json::from_value(game.clone()).unwrap();
    let pos = AnyPosition::with_moves(&spec, &DOUBLE_THREE_OPENING).unwrap();
    assert!(pos.forbidden_points().contains(&Cell::new(7, 7)));

    let server = TestServer::start().await;
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let (room, st) = a
        .create(json!({"t":"create","game":game,"seat":"black","clock":null,
            "opening":DOUBLE_THREE_OPENING}))
        .await;
    assert_eq!(st["opening"], json!(DOUBLE_THREE_OPENING));
    assert_eq!(st["to_move"], "black");
    b.send(json!({"t":"join","room":room,"as":"player"})).await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    let e = a
        .refused(json!({"t":"move","room":room,"move":"h8","id":"x1"}))
        .await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert_eq!(e["ref"], "move");
    assert_eq!(e["room"], room.as_str());
    assert_eq!(e["id"], "x1");
    let st = a.fresh_state(&room, "player").await;
    assert_eq!(st["moves"], json!([]));
    assert_eq!(st["status"], "playing");
    assert_eq!(st["to_move"], "black");
    // White may take the point; black plays elsewhere and the game goes on.
    let moved = a.play(&room, "j9").await;
    assert_eq!(moved["ply"], 1, "ply counts moves after the opening");
    let moved = b.play(&room, "h8").await;
    assert_eq!(moved["by"], "white");
    assert_eq!(moved["to_move"], "black");
}

/// A real Othello game that contains a forced pass and ends. An iterative-deepening search
/// finds the shortest way to a position where the side to move must pass (trying first the
/// moves that leave the opponent fewest replies); from there, always taking the move that
/// leaves the opponent fewest replies runs into the end soon (every game ends by move 60).
/// The server plays the passes itself, so they are not sent.
fn othello_game_with_a_pass() -> Vec<String> {
    fn replies(p: &AnyPosition) -> usize {
        if p.must_pass() {
            0
        } else {
            p.legal_moves().len()
        }
    }
    fn ordered(pos: &AnyPosition) -> Vec<(String, AnyPosition)> {
        let mut next: Vec<(usize, String, AnyPosition)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut p = pos.clone();
                p.play_str(&m).unwrap();
                (replies(&p), m, p)
            })
            .collect();
        next.sort_by(|x, y| (x.0, &x.1).cmp(&(y.0, &y.1)));
        next.into_iter().map(|(_, m, p)| (m, p)).collect()
    }
    fn to_a_pass(pos: &AnyPosition, line: &mut Vec<String>, depth: usize) -> Option<AnyPosition> {
        if pos.must_pass() {
            return Some(pos.clone());
        }
        if depth == 0 || pos.is_over() {
            return None;
        }
        for (m, p) in ordered(pos) {
            line.push(m);
            if let Some(found) = to_a_pass(&p, line, depth - 1) {
                return Some(found);
            }
            line.pop();
        }
        None
    }
    let start = AnyPosition::new(&GameSpec::Othello).unwrap();
    let mut line = Vec::new();
    let mut pos = (4..=20)
        .find_map(|depth| to_a_pass(&start, &mut line, depth))
        .expect("no forced pass within 20 moves");
    while !pos.is_over() {
        let (m, p) = ordered(&pos).swap_remove(0);
        line.push(m);
        pos = p;
    }
    line
}

#[tokio::test]
async fn othello_with_a_forced_pass_is_played_to_the_score() {
    let line = othello_game_with_a_pass();
    let mut pos = AnyPosition::new(&GameSpec::Othello).unwrap();
    for m in &line {
        pos.play_str(m).unwrap();
    }
    let outcome = pos.outcome().expect("the line ends the game");
    let score = outcome.score.unwrap();

    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    let mut s = server.client("Sam").await;
    s.join(&room, "spectator").await;
    let mut passes = 0;
    let mut replay = AnyPosition::new(&GameSpec::Othello).unwrap();
    for (i, m) in line.iter().enumerate() {
        let ply = i as u64 + 1;
        let side = replay.turn();
        replay.play_str(m).unwrap();
        if m == "pass" {
            // Nobody sends it: everyone sees the server play it.
            for c in [&mut a, &mut b, &mut s] {
                let moved = c.saw_ply(&room, ply).await;
                assert_eq!(moved["move"], "pass");
                assert_eq!(moved["by"], side.as_str());
            }
            passes += 1;
            continue;
        }
        let mover = if side == Color::Black { &mut a } else { &mut b };
        let moved = mover.play(&room, m).await;
        assert_eq!(moved["ply"], ply);
    }
    assert!(passes > 0);
    let expected = json!({"black": score.black, "white": score.white});
    let winner = match outcome.winner {
        Some(c) => c.as_str(),
        None => "draw",
    };
    for c in [&mut a, &mut b, &mut s] {
        let over = c.expect("over").await;
        assert_eq!(over["reason"], "count");
        assert_eq!(over["result"], winner);
        assert_eq!(over["score"], expected);
        assert!(over.get("line").is_none());
    }
    let st = s.fresh_state(&room, "spectator").await;
    assert_eq!(st["moves"].as_array().unwrap().len(), line.len());
    assert_eq!(st["result"]["score"], expected);
}

#[tokio::test]
async fn connect_four_with_a_blocked_cell_to_a_win() {
    let server = TestServer::start().await;
    let game = json!({"kind":"connect4","cols":9,"rows":11,"blocked":[[5,1]]});
    let (mut a, mut b, room) = seated_pair(&server, game, json!(null)).await;
    // Row 1: c1 (black), d1 (white), e1 blocked, f1 (black), g1 (white).
    // Then black builds c2 d2 e2 f2, where e2 is what column 5 gives over the blocked e1.
    let moves = ["3", "4", "6", "7", "3", "1", "4", "1", "5", "1", "6"];
    for (i, m) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let moved = mover.play(&room, m).await;
        assert_eq!(moved["move"], *m);
        other.saw_ply(&room, i as u64 + 1).await;
    }
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "black");
        assert_eq!(over["reason"], "four");
        assert_eq!(over["line"], json!(["c2", "d2", "e2", "f2"]));
    }
}
