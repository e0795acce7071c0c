//! Small things that leak or grow, over real sockets: the public game JSON does not publish
//! the movers' request ids; chat refuses control characters with a clear error; only `/`, room
//! links and real asset paths serve files (traversal attempts are 404); the store's WAL is
//! truncated once the server is idle.

use crate::support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn request_ids_stay_with_the_mover() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, json!({"kind":"connect4"}), json!(null)).await;
    a.send(json!({"t":"move","room":room,"move":"4","id":"secret-7"}))
        .await;
    assert_eq!(a.expect("moved").await["id"], "secret-7");
    assert!(b.expect("moved").await.get("id").is_none());
    let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    assert!(!body.contains("secret-7"), "{body}");
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(game["moves"][0]["mv"], "4");
    assert!(game["moves"][0].get("req_id").is_none(), "{body}");
}

#[tokio::test]
async fn chat_refuses_control_characters() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    for text in ["\u{0}\u{7}\u{1b}[31mred", "two\nlines", "a\ttab"] {
        let e = a.refused(json!({"t":"chat","room":room,"text":text})).await;
        assert_eq!(e["code"], "bad_request", "{e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("control characters"),
            "{e}"
        );
    }
    // Surrounding whitespace is trimmed as before, and the line goes through.
    a.send(json!({"t":"chat","room":room,"text":"\tgl hf\n"}))
        .await;
    assert_eq!(b.expect("chat").await["text"], "gl hf");
    let (_, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(game["chat"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn only_the_page_and_its_files_are_served() {
    let server = TestServer::start().await;
    for path in ["/", "/?room=abcdefgh", "/index.html"] {
        let (status, body) = http_get(server.addr, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            body.contains("<html") || body.contains("<!doctype"),
            "{path}"
        );
    }
    for path in [
        "/%2e%2e/%2e%2e/etc/passwd",
        "/../../etc/passwd",
        "/etc/passwd",
        "/room/abcdefgh",
        "/nope.js",
    ] {
        let (status, body) = http_get(server.addr, path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("root:"), "{path}");
    }
}

#[tokio::test]
async fn the_wal_is_truncated_once_the_server_is_idle() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) =
        seated_pair(&server, json!({"kind":"gomoku","size":15}), json!(null)).await;
    for (i, m) in ["h8", "a1", "h9", "a2", "h10", "a3"].iter().enumerate() {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        mover.play(&room, m).await;
    }
    let wal = server.data.path().join("kibitz.db-wal");
    within("the WAL to be truncated", async {
        while std::fs::metadata(&wal).map_or(0, |m| m.len()) > 0 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    // The store's checkpoint thread sets the gauge just after it empties the file: wait for it.
    within("the WAL gauge to read zero", async {
        while metric(&server, "kibitz_store_wal_bytes").await != 0.0 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    // Everything is in the database file itself.
    let db = rusqlite::Connection::open(server.data.path().join("kibitz.db")).unwrap();
    let moves: i64 = db
        .query_row("SELECT COUNT(*) FROM moves WHERE room = ?1", [&room], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(moves, 6);
}
