//! What a room does when the store cannot write (the room's row taken away behind the
//! server's back, in the real SQLite file): a move is refused and nothing changes; a flag
//! fall is announced to nobody until its ending is stored, and is tried again until it is.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use tokio::time::advance;

/// The server's store file, opened beside the server.
fn open_db(server: &TestServer) -> rusqlite::Connection {
    let db = rusqlite::Connection::open(server.data.path().join("kibitz.db")).expect("open db");
    db.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    db
}

/// Waits until the server has counted `n` failed store writes.
async fn store_failures(server: &TestServer, n: u32) {
    let want = format!("kibitz_store_failures_total {n}\n");
    within("the store failures", async {
        while !server.metrics().await.contains(&want) {
            tokio::task::yield_now().await;
        }
    })
    .await;
}

#[tokio::test(start_paused = true)]
async fn nothing_unstored_is_announced_and_a_timed_ending_is_tried_again() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let clock = json!({"move_ms":5000});
    let (mut a, mut b, room) =
        seated_pair(&server, json!({"kind":"gomoku","size":15}), clock).await;

    let db = open_db(&server);
    db.execute_batch(&format!(
        "CREATE TABLE kept AS SELECT * FROM rooms WHERE id = '{room}';
         DELETE FROM rooms WHERE id = '{room}';"
    ))
    .expect("take the room's row away");

    // A move whose write fails is refused, and the game is as it was.
    let e = a
        .refused(json!({"t":"move","room":room,"move":"h8","id":"m1"}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert_eq!(e["id"], "m1");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("could not be stored"),
        "{e}"
    );
    store_failures(&server, 1).await;

    // Black makes no first move in time, but the abort cannot be stored: nobody is told.
    advance(Duration::from_secs(30)).await;
    store_failures(&server, 2).await;
    for c in [&mut a, &mut b] {
        let st = c.fresh_state(&room, "player").await;
        assert_eq!(st["status"], "playing");
        assert_eq!(st["moves"], json!([]));
        assert!(!c
            .backlog
            .iter()
            .any(|v| v["t"] == "over" || v["t"] == "moved"));
    }

    // The row is back: the next try, a second later, stores the abort and announces it.
    db.execute_batch("INSERT INTO rooms SELECT * FROM kept;")
        .expect("put the row back");
    advance(Duration::from_secs(1)).await;
    for c in [&mut a, &mut b] {
        let over = c.expect("over").await;
        assert_eq!(over["result"], "aborted");
        assert_eq!(over["reason"], "aborted");
    }
    let (status, result): (String, String) = db
        .query_row(
            "SELECT status, result FROM rooms WHERE id = ?1",
            [&room],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("the room's row");
    assert_eq!(status, "over");
    let result: serde_json::Value = serde_json::from_str(&result).expect("a stored result");
    assert_eq!(
        (&result["result"], &result["reason"]),
        (&json!("aborted"), &json!("aborted"))
    );
    // The move refused earlier may be sent again: it was never played.
    let e = a
        .refused(json!({"t":"move","room":room,"move":"h8","id":"m1"}))
        .await;
    assert_eq!(e["code"], "game_over");
}
