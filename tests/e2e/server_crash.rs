//! The real `kibitz serve` process: killed with SIGKILL mid-game and started again on the same
//! data directory, every acknowledged move, both clocks and the seats are back; stopped with
//! SIGTERM, it closes every connection with 1001 and exits 0 — even when the signal comes the
//! moment the listening line is out.

use std::path::Path;

use crate::support::serve::ServeProcess;
use crate::support::*;
use serde_json::json;

/// A running `kibitz serve` and its WebSocket URL.
struct Process {
    child: tokio::process::Child,
    url: String,
    addr: std::net::SocketAddr,
}

async fn serve(data: &Path) -> Process {
    let p = ServeProcess::start(data, &["--bot-key", "k"]).await;
    Process {
        url: p.url(),
        addr: p.addr,
        child: p.child,
    }
}

async fn client(p: &Process, name: &str) -> Client {
    let mut c = Client::connect(&p.url).await;
    c.hello(name).await;
    c
}

async fn resumed(p: &Process, name: &str, token: &str) -> Client {
    let mut c = Client::connect(&p.url).await;
    c.hello_again(name, token).await;
    c
}

#[tokio::test]
async fn sigkill_loses_no_acknowledged_move_clock_or_seat() {
    let data = tempfile::tempdir().unwrap();
    let p = serve(data.path()).await;
    let mut a = client(&p, "Alice").await;
    let mut b = client(&p, "Bob").await;
    let clock = json!({"initial_ms":300000,"increment_ms":2000});
    let (room, _) = a
        .create(
            json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black","clock":clock}),
        )
        .await;
    b.send(json!({"t":"join","room":room,"as":"player"})).await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    let moves = ["h8", "a1", "h9", "a2", "h10", "a3", "j9"];
    let mut last = json!(null);
    for (i, m) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        last = mover.play(&room, m).await;
    }
    let last_black = last["clock"]["black_ms"].as_u64().unwrap();
    let last_white = last["clock"]["white_ms"].as_u64().unwrap();
    assert_eq!(last["to_move"], "white");
    let (a_token, b_token) = (a.token.clone(), b.token.clone());

    let mut p = p;
    p.child.kill().await.expect("SIGKILL");
    drop(a);
    drop(b);

    let p = serve(data.path()).await;
    let mut a = resumed(&p, "Alice", &a_token).await;
    let mut b = resumed(&p, "Bob", &b_token).await;
    let st = a.join(&room, "player").await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["status"], "playing");
    assert_eq!(st["moves"], json!(moves));
    assert_eq!(st["seq"], last["seq"]);
    assert_eq!(st["seats"]["black"]["name"], "Alice");
    assert_eq!(st["seats"]["white"]["name"], "Bob");
    // Black's time is as it was after its last move; white's runs again from where it was.
    assert_eq!(st["clock"]["black_ms"].as_u64().unwrap(), last_black);
    assert_eq!(st["clock"]["running"], "white");
    let white_now = st["clock"]["white_ms"].as_u64().unwrap();
    assert!(
        white_now <= last_white && white_now + 5_000 > last_white,
        "white had {last_white} ms, now {white_now}"
    );
    let st = b.join(&room, "player").await;
    assert_eq!(st["you"], "white");

    // The last move resent after the crash is answered as the first time, not replayed.
    a.send(json!({"t":"move","room":room,"move":"j9","id":last["id"]}))
        .await;
    let again = a.expect_where(|v| v["t"] == "moved").await;
    assert_eq!(again, last);
    // And the game goes on.
    b.play(&room, "a4").await;
    let moved = a.saw_ply(&room, 8).await;
    assert_eq!(moved["seq"], last["seq"].as_u64().unwrap() + 1);
}

#[tokio::test]
async fn sigterm_closes_connections_with_1001_and_exits_0() {
    let data = tempfile::tempdir().unwrap();
    let mut p = serve(data.path()).await;
    let mut a = client(&p, "Alice").await;
    let mut b = client(&p, "Bob").await;
    let (room, _) = a
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    b.join(&room, "player").await;
    a.play(&room, "f5").await;
    let (status, _) = http_get(p.addr, "/healthz").await;
    assert_eq!(status, 200);

    let pid = p.child.id().expect("running").to_string();
    let kill = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("run kill");
    assert!(kill.success());
    assert_eq!(a.expect_close().await, 1001);
    assert_eq!(b.expect_close().await, 1001);
    let exit = within("kibitz to exit", p.child.wait())
        .await
        .expect("wait for kibitz");
    assert!(exit.success(), "{exit:?}");

    // Everything acknowledged was stored before the exit.
    let p = serve(data.path()).await;
    let mut a = resumed(&p, "Alice", &a.token).await;
    let st = a.join(&room, "player").await;
    assert_eq!(st["moves"], json!(["f5"]));
    assert_eq!(st["you"], "black");
}

#[tokio::test]
async fn sigterm_the_moment_it_listens_still_exits_0() {
    // The handlers are in place before the listening line: a supervisor that stops the server
    // at once must see a clean exit, not a death by the default action of the signal.
    for _ in 0..5 {
        let data = tempfile::tempdir().unwrap();
        let mut p = serve(data.path()).await;
        let pid = libc::pid_t::try_from(p.child.id().expect("running")).unwrap();
        // Straight away: a `kill` process would take long enough to hide the window.
        // SAFETY: kill(2) on the child's pid, which it holds until we wait on it.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        let exit = within("kibitz to exit", p.child.wait())
            .await
            .expect("wait for kibitz");
        assert!(exit.success(), "{exit:?}");
    }
}
