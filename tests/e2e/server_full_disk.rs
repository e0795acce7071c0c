//! A full disk under a running server: nothing is announced that is not stored. Every ending
//! (resignation, agreement, five, full board, pass-out, flag fall, abandonment), a forced
//! pass, chat, a seat taken, a waiting room given up or expired and a rematch are tried while
//! the store cannot write: the requester is told "could not be stored", nobody else hears of
//! it, the stored game is unchanged; once the disk has room the same request is stored and
//! told, and it is still there after a restart.
//!
//! The disk: when the test may mount one (root on Linux, as in CI), the data directory is a
//! 4 MiB tmpfs that the test fills with a file until the kernel answers ENOSPC — SQLite then
//! fails for real. Otherwise (no mount allowed) every table of the real SQLite file gets
//! triggers that fail each write with "database or disk is full". The test prints which one
//! ran.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::*;
use serde_json::{json, Value};
use tokio::time::advance;

/// The server's data directory, on a disk the test can fill and free.
struct Disk {
    path: PathBuf,
    tmpfs: bool,
}

const TABLES: [&str; 5] = ["rooms", "seats", "moves", "chat", "players"];
const WRITES: [&str; 3] = ["INSERT", "UPDATE", "DELETE"];

impl Disk {
    /// A data directory on a tiny tmpfs when this process may mount one, else a plain one.
    fn new() -> (Disk, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("tempdir");
        let tmpfs = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        eprintln!(
            "full disk: {}",
            if tmpfs {
                "a 4 MiB tmpfs filled with a file (ENOSPC)"
            } else {
                "no mount allowed: SQLite triggers that fail every write"
            }
        );
        let path = dir.path().to_path_buf();
        (Disk { path, tmpfs }, dir)
    }

    fn filler(&self) -> PathBuf {
        self.path.join("filler")
    }

    /// Leaves no room for any write. On tmpfs, first waits until the store has truncated its
    /// WAL (it does so when idle), so that no WAL space it already holds can take a write, and
    /// no truncation frees room afterwards.
    async fn fill(&self, server: &TestServer) {
        if !self.tmpfs {
            let db = rusqlite::Connection::open(self.path.join("kibitz.db")).expect("open db");
            for table in TABLES {
                for write in WRITES {
                    db.execute_batch(&format!(
                        "CREATE TRIGGER full_{table}_{write} BEFORE {write} ON {table}
                         BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;"
                    ))
                    .expect("create trigger");
                }
            }
            return;
        }
        wait_metric(server, "kibitz_store_wal_bytes", |v| v == 0.0).await;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.filler())
            .expect("open the filler");
        for size in [1 << 16, 1 << 12, 1] {
            let chunk = vec![0u8; size];
            while matches!(file.write(&chunk), Ok(n) if n > 0) {}
        }
    }

    /// Makes room again.
    fn free(&self) {
        if !self.tmpfs {
            let db = rusqlite::Connection::open(self.path.join("kibitz.db")).expect("open db");
            for table in TABLES {
                for write in WRITES {
                    db.execute_batch(&format!("DROP TRIGGER IF EXISTS full_{table}_{write};"))
                        .expect("drop trigger");
                }
            }
            return;
        }
        std::fs::remove_file(self.filler()).expect("remove the filler");
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        if self.tmpfs {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(&self.path)
                .status();
        }
    }
}

/// The game as stored, from `/api/games/{room}`.
async fn stored(server: &TestServer, room: &str) -> Value {
    let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("game JSON")
}

/// `msg` is refused because it could not be stored.
async fn not_stored(c: &mut Client, msg: Value) {
    let e = c.refused(msg.clone()).await;
    assert_eq!(e["code"], "bad_request", "{msg} -> {e}");
    let text = e["message"].as_str().unwrap_or_default();
    assert!(text.contains("could not be stored"), "{msg} -> {e}");
}

/// `c` heard nothing of `room` beyond what is stored: its fresh `state` (which comes after
/// anything the room had queued for it) has the stored event number, and no event it heard
/// has a later one. Returns that state.
async fn untold(server: &TestServer, c: &mut Client, room: &str, as_: &str) -> Value {
    let st = c.fresh_state(room, as_).await;
    let seq = stored(server, room).await["seq"].clone();
    assert_eq!(st["seq"], seq, "{st}");
    let seq = seq.as_u64().unwrap_or_default();
    let told: Vec<&Value> = c
        .backlog
        .iter()
        .filter(|v| v["room"] == room && v["seq"].as_u64().is_some_and(|s| s > seq))
        .collect();
    assert!(told.is_empty(), "{} heard {told:?}", c.player);
    st
}

async fn pair_with(server: &TestServer, game: Value, opening: &[&str]) -> (Client, Client, String) {
    seated_pair_made(
        server,
        json!({"t":"create","game":game,"seat":"black","opening":opening}),
    )
    .await
}

#[tokio::test]
async fn requests_of_players_are_told_only_once_stored() {
    let (disk, data) = Disk::new();
    let server = TestServer::start_in(data, no_idle).await;
    let gomoku = json!({"kind":"gomoku","size":15});
    let (mut a, mut b, resigned) = pair_with(&server, gomoku.clone(), &[]).await;
    let (mut c, mut d, agreed) = pair_with(&server, gomoku.clone(), &[]).await;
    let mut e = server.client("Erin").await;
    let (waiting, _) = e
        .create(json!({"t":"create","game":gomoku,"seat":"black"}))
        .await;
    let mut f = server.client("Frank").await;

    // Resignation.
    disk.fill(&server).await;
    not_stored(&mut a, json!({"t":"resign","room":resigned})).await;
    assert_eq!(
        untold(&server, &mut b, &resigned, "player").await["status"],
        "playing"
    );
    assert_eq!(stored(&server, &resigned).await["status"], "playing");
    disk.free();
    a.send(json!({"t":"resign","room":resigned})).await;
    for p in [&mut a, &mut b] {
        let over = p.expect("over").await;
        assert_eq!(
            (&over["result"], &over["reason"]),
            (&json!("white"), &json!("resign"))
        );
    }

    // A draw offer, then its acceptance.
    disk.fill(&server).await;
    not_stored(&mut c, json!({"t":"draw","room":agreed})).await;
    untold(&server, &mut d, &agreed, "player").await;
    disk.free();
    c.send(json!({"t":"draw","room":agreed})).await;
    for p in [&mut c, &mut d] {
        p.expect("draw_offer").await;
    }
    disk.fill(&server).await;
    not_stored(
        &mut d,
        json!({"t":"draw_reply","room":agreed,"accept":true}),
    )
    .await;
    assert_eq!(
        untold(&server, &mut c, &agreed, "player").await["status"],
        "playing"
    );
    disk.free();
    d.send(json!({"t":"draw_reply","room":agreed,"accept":true}))
        .await;
    for p in [&mut c, &mut d] {
        assert_eq!(p.expect("over").await["reason"], "agreement");
    }

    // A chat line.
    disk.fill(&server).await;
    not_stored(&mut a, json!({"t":"chat","room":resigned,"text":"gg"})).await;
    untold(&server, &mut b, &resigned, "player").await;
    disk.free();
    a.send(json!({"t":"chat","room":resigned,"text":"gg"}))
        .await;
    assert_eq!(b.expect("chat").await["text"], "gg");

    // A seat taken in a waiting room.
    disk.fill(&server).await;
    not_stored(&mut f, json!({"t":"join","room":waiting,"as":"player"})).await;
    let st = untold(&server, &mut e, &waiting, "player").await;
    assert_eq!(
        (&st["status"], &st["seats"]["white"]),
        (&json!("waiting"), &json!(null))
    );

    // A waiting room given up by its only player: it stays as it was.
    e.send(json!({"t":"leave","room":waiting})).await;
    let st = untold(&server, &mut f, &waiting, "spectator").await;
    assert_eq!(st["seats"]["black"]["name"], "Erin");
    assert_eq!(stored(&server, &waiting).await["status"], "waiting");
    disk.free();
    f.send(json!({"t":"leave","room":waiting})).await;
    e.send(json!({"t":"leave","room":waiting})).await;
    within("the room to close", async {
        while stored(&server, &waiting).await["status"] != "over" {
            tokio::task::yield_now().await;
        }
    })
    .await;

    // A rematch: the first ask (a line of the room), then the room made with its link.
    disk.fill(&server).await;
    not_stored(&mut a, json!({"t":"rematch","room":resigned})).await;
    untold(&server, &mut b, &resigned, "player").await;
    disk.free();
    a.send(json!({"t":"rematch","room":resigned})).await;
    b.expect_where(|v| v["t"] == "chat" && v["text"] == "Alice offers a rematch")
        .await;
    disk.fill(&server).await;
    let rooms_before = count_rooms(&disk.path);
    not_stored(&mut b, json!({"t":"rematch","room":resigned})).await;
    untold(&server, &mut a, &resigned, "player").await;
    assert_eq!(
        count_rooms(&disk.path),
        rooms_before,
        "no rematch room was stored"
    );
    disk.free();
    b.send(json!({"t":"rematch","room":resigned})).await;
    let next = a.expect("rematch").await["next"].clone();
    assert_eq!(b.expect("rematch").await["next"], next);
    let next = next.as_str().expect("next room").to_string();
    assert_eq!(stored(&server, &next).await["status"], "playing");

    // After a restart everything told is there, the link to the rematch included.
    let alice = a.token.clone();
    drop((a, b, c, d, e, f));
    let data = server.stop().await;
    let server = TestServer::start_in(data, no_idle).await;
    let game = stored(&server, &resigned).await;
    assert_eq!(game["result"]["reason"], "resign");
    assert_eq!(game["chat"][0]["text"], "gg");
    assert_eq!(
        stored(&server, &agreed).await["result"]["reason"],
        "agreement"
    );
    assert_eq!(stored(&server, &waiting).await["status"], "over");
    assert_eq!(stored(&server, &next).await["status"], "playing");
    let mut a = Client::connect(&server.url()).await;
    a.hello_again("Alice", &alice).await;
    a.send(json!({"t":"rematch","room":resigned})).await;
    assert_eq!(a.expect("rematch").await["next"], next.as_str());
    drop(disk);
}

#[tokio::test]
async fn endings_on_the_board_and_forced_passes_are_told_only_once_stored() {
    let (disk, data) = Disk::new();
    let server = TestServer::start_in(data, no_idle).await;
    let gomoku = json!({"kind":"gomoku","size":15});
    let four = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"];
    let (mut a, mut b, five) = pair_with(&server, gomoku, &four).await;
    // 15 of the 16 cells, no four anywhere: white's last stone fills the board.
    let full_board = [
        "2", "1", "1", "2", "1", "1", "3", "3", "3", "2", "4", "4", "3", "2", "4",
    ];
    let c4 = json!({"kind":"connect4","cols":4,"rows":4});
    let (mut c, mut d, full) = pair_with(&server, c4, &full_board).await;
    // White's h6 leaves black without a move: the server passes for black.
    let othello = json!({"kind":"othello"});
    let before_pass = ["f5", "f6", "d3", "g5", "h5", "h4", "g7"];
    let (mut e, mut f, passed) = pair_with(&server, othello.clone(), &before_pass).await;
    // Black's b5 takes white's last disc: neither side can move.
    let before_end = ["f5", "f4", "f3", "f6", "f7", "e3", "d3", "c5"];
    let (mut g, mut h, wiped) = pair_with(&server, othello, &before_end).await;

    // Five in a row: refused with the move's id, played later under the same id.
    disk.fill(&server).await;
    let win = json!({"t":"move","room":five,"move":"h12","id":"win"});
    let e1 = a.refused(win.clone()).await;
    assert_eq!(
        (&e1["code"], &e1["id"]),
        (&json!("bad_request"), &json!("win"))
    );
    let st = untold(&server, &mut b, &five, "player").await;
    assert_eq!(
        (&st["status"], &st["moves"]),
        (&json!("playing"), &json!([]))
    );
    disk.free();
    a.send(win).await;
    assert_eq!(a.expect("moved").await["id"], "win");
    for p in [&mut a, &mut b] {
        assert_eq!(p.expect("over").await["reason"], "five");
    }

    // A full board.
    disk.fill(&server).await;
    not_stored(&mut d, json!({"t":"move","room":full,"move":"4"})).await;
    assert_eq!(
        untold(&server, &mut c, &full, "player").await["status"],
        "playing"
    );
    disk.free();
    d.play(&full, "4").await;
    for p in [&mut c, &mut d] {
        let over = p.expect("over").await;
        assert_eq!(
            (&over["result"], &over["reason"]),
            (&json!("draw"), &json!("full"))
        );
    }

    // A forced pass, stored with the move that forces it.
    disk.fill(&server).await;
    not_stored(&mut f, json!({"t":"move","room":passed,"move":"h6"})).await;
    untold(&server, &mut e, &passed, "player").await;
    disk.free();
    f.play(&passed, "h6").await;
    let pass = e
        .expect_where(|v| v["t"] == "moved" && v["move"] == "pass")
        .await;
    assert_eq!(pass["by"], "black");

    // Neither side can move.
    disk.fill(&server).await;
    not_stored(&mut g, json!({"t":"move","room":wiped,"move":"b5"})).await;
    assert_eq!(
        untold(&server, &mut h, &wiped, "player").await["status"],
        "playing"
    );
    disk.free();
    g.play(&wiped, "b5").await;
    for p in [&mut g, &mut h] {
        let over = p.expect("over").await;
        assert_eq!(over["reason"], "count");
        assert_eq!(over["score"], json!({"black":64,"white":0}));
    }

    drop((a, b, c, d, e, f, g, h));
    let data = server.stop().await;
    let server = TestServer::start_in(data, no_idle).await;
    assert_eq!(stored(&server, &five).await["result"]["reason"], "five");
    assert_eq!(stored(&server, &full).await["result"]["reason"], "full");
    let game = stored(&server, &passed).await;
    assert_eq!(stored_moves(&game), ["h6", "pass"]);
    assert_eq!(stored(&server, &wiped).await["result"]["reason"], "count");
    drop(disk);
}

#[tokio::test(start_paused = true)]
async fn timed_endings_are_told_once_stored_and_tried_again_until_they_are() {
    let _frozen = freeze_time();
    let (disk, data) = Disk::new();
    let server = TestServer::start_in(data, |c| {
        no_idle(c);
        c.limits.waiting_room = Duration::from_secs(600);
    })
    .await;
    let (mut a, mut b, timed) = seated_pair(
        &server,
        json!({"kind":"gomoku","size":15}),
        json!({"move_ms":5000}),
    )
    .await;
    // Both first moves, which are free: from then on black's clock runs.
    a.play(&timed, "h8").await;
    b.play(&timed, "a1").await;

    // Black's flag falls.
    disk.fill(&server).await;
    let failed = metric(&server, "kibitz_store_failures_total").await;
    advance(Duration::from_secs(5)).await;
    wait_metric(&server, "kibitz_store_failures_total", |v| v > failed).await;
    for (p, seat) in [(&mut a, "player"), (&mut b, "player")] {
        assert_eq!(untold(&server, p, &timed, seat).await["status"], "playing");
    }
    disk.free();
    advance(Duration::from_secs(1)).await;
    for p in [&mut a, &mut b] {
        assert_eq!(p.expect("over").await["reason"], "timeout");
    }

    // A player who does not come back.
    let (mut c, mut d, gone) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    c.play(&gone, "f5").await;
    d.play(&gone, "d6").await;
    d.close().await;
    disk.fill(&server).await;
    let failed = metric(&server, "kibitz_store_failures_total").await;
    advance(Duration::from_secs(60)).await;
    wait_metric(&server, "kibitz_store_failures_total", |v| v > failed).await;
    assert_eq!(
        untold(&server, &mut c, &gone, "player").await["status"],
        "playing"
    );
    disk.free();
    advance(Duration::from_secs(1)).await;
    let over = c.expect("over").await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("black"), &json!("abandoned"))
    );

    // A timed game whose first move is not made in time.
    let (mut f, mut g, unplayed) = seated_pair(
        &server,
        json!({"kind":"connect4"}),
        json!({"initial_ms":60000,"increment_ms":0}),
    )
    .await;
    disk.fill(&server).await;
    let failed = metric(&server, "kibitz_store_failures_total").await;
    advance(Duration::from_secs(30)).await;
    wait_metric(&server, "kibitz_store_failures_total", |v| v > failed).await;
    assert_eq!(
        untold(&server, &mut f, &unplayed, "player").await["status"],
        "playing"
    );
    disk.free();
    advance(Duration::from_secs(1)).await;
    for p in [&mut f, &mut g] {
        assert_eq!(p.expect("over").await["result"], "aborted");
    }

    // A room nobody sat down in, past its waiting time.
    let mut e = server.client("Erin").await;
    let (idle, _) = e
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"none"}))
        .await;
    disk.fill(&server).await;
    let failed = metric(&server, "kibitz_store_failures_total").await;
    advance(Duration::from_secs(600)).await;
    wait_metric(&server, "kibitz_store_failures_total", |v| v > failed).await;
    assert_eq!(
        untold(&server, &mut e, &idle, "spectator").await["status"],
        "waiting"
    );
    disk.free();
    advance(Duration::from_secs(1)).await;
    e.expect_where(|v| v["t"] == "state" && v["status"] == "over")
        .await;

    drop((a, b, c, e, f, g));
    let data = server.stop().await;
    let server = TestServer::start_in(data, no_idle).await;
    assert_eq!(stored(&server, &timed).await["result"]["reason"], "timeout");
    assert_eq!(
        stored(&server, &gone).await["result"]["reason"],
        "abandoned"
    );
    let room = stored(&server, &unplayed).await;
    assert_eq!(
        (&room["status"], &room["result"]["result"]),
        (&json!("over"), &json!("aborted"))
    );
    let room = stored(&server, &idle).await;
    assert_eq!(
        (&room["status"], &room["result"]),
        (&json!("over"), &json!(null))
    );
    drop(disk);
}

/// The rooms in the store file (read beside the server).
fn count_rooms(dir: &Path) -> i64 {
    let db = rusqlite::Connection::open(dir.join("kibitz.db")).expect("open db");
    db.query_row("SELECT COUNT(*) FROM rooms", [], |r| r.get(0))
        .expect("count rooms")
}
