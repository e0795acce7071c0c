//! What a room does when the store cannot write (the room's row taken away behind the
//! server's back, in the real SQLite file): a move is refused and nothing changes; a flag
//! fall is announced to nobody until its ending is stored, and is tried again until it is.
//! And when it cannot read (the rooms table renamed away): a finished room that left memory
//! is "try again" on `join`, not "no such room", and is there again once the store reads.

use std::time::Duration;

use crate::support::*;
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

#[tokio::test(start_paused = true)]
async fn a_finished_room_the_store_cannot_read_is_try_again_not_no_such_room() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(no_idle).await;
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let room = quick_game(&mut a, &mut b).await;
    // The finished room leaves memory once it has been quiet for the finished-room time.
    advance(Duration::from_secs(60)).await;
    wait_metric(&server, r#"kibitz_rooms{status="over"}"#, |v| v == 0.0).await;

    let db = open_db(&server);
    db.execute_batch("ALTER TABLE rooms RENAME TO rooms_away;")
        .expect("take the rooms table away");
    let mut c = server.client("Carol").await;
    let e = c
        .refused(json!({"t":"join","room":room,"as":"spectator"}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("the stored games cannot be read now; try again"),
        "{e}"
    );
    assert_eq!(
        metric(&server, r#"kibitz_rooms{status="over"}"#).await,
        0.0,
        "nothing was loaded"
    );

    // The table is back: the same join, on the same connection, shows the finished game.
    db.execute_batch("ALTER TABLE rooms_away RENAME TO rooms;")
        .expect("put the rooms table back");
    let st = c.join(&room, "spectator").await;
    assert_eq!(st["room"], room.as_str());
    assert_eq!(st["status"], "over");
    assert_eq!(st["moves"].as_array().map(Vec::len), Some(QUICK_WIN.len()));
    // An id the store does not know is still "no such room".
    let e = c
        .refused(json!({"t":"join","room":"nosuchid","as":"spectator"}))
        .await;
    assert_eq!(e["code"], "no_such_room", "{e}");
}
