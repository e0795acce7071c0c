//! The real `kibitz serve` on a real PostgreSQL server (`--store postgres://...`): a game's
//! moves land in the database and, after a SIGKILL, come back to a server started again on
//! an empty data directory (through `KIBITZ_STORE`) — from PostgreSQL alone. A store URL of
//! another kind, or a server nobody answers at, stops `kibitz serve` at start with a clear
//! error and a non-zero exit.

mod common;

use std::process::Stdio;

use common::postgres::PgServer;
use common::serve::{serve_args, ServeProcess};
use common::*;
use serde_json::json;

#[tokio::test]
async fn a_game_stored_in_postgres_survives_sigkill_and_a_new_data_directory() {
    let pg = PgServer::shared();
    let url = pg.database();
    let data = tempfile::tempdir().unwrap();
    let p = ServeProcess::start(data.path(), &["--store", &url]).await;
    let mut a = Client::connect(&p.url()).await;
    a.hello("Alice").await;
    let mut b = Client::connect(&p.url()).await;
    b.hello("Bob").await;
    let (room, _) = a
        .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
        .await;
    b.join(&room, "player").await;
    let moves = ["h8", "a1", "h9", "a2", "h10"];
    let mut last = json!(null);
    for (i, m) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        last = mover.play(&room, m).await;
    }
    assert!(
        !data.path().join("kibitz.db").exists(),
        "no SQLite file beside a PostgreSQL store"
    );
    // Every acknowledged move is a row of PostgreSQL's `moves`, in order.
    let stored = pg.psql(
        &url,
        &format!("SELECT string_agg(mv, ',' ORDER BY ply) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(stored, moves.join(","));
    let (a_token, b_token) = (a.token.clone(), b.token.clone());
    p.kill().await;
    drop((a, b));

    // Started again on an empty data directory, the store named by the environment.
    let empty = tempfile::tempdir().unwrap();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"));
    command
        .args(serve_args(empty.path()))
        .env("KIBITZ_STORE", &url);
    let p = ServeProcess::spawn(command).await;
    let mut a = Client::connect(&p.url()).await;
    a.hello_again("Alice", &a_token).await;
    let st = a.join(&room, "player").await;
    assert_eq!(st["you"], "black");
    assert_eq!(st["status"], "playing");
    assert_eq!(st["moves"], json!(moves));
    assert_eq!(st["seq"], last["seq"]);
    // And the game goes on, stored as before.
    let mut b = Client::connect(&p.url()).await;
    b.hello_again("Bob", &b_token).await;
    assert_eq!(b.join(&room, "player").await["you"], "white");
    b.play(&room, "a3").await;
    let count = pg.psql(
        &url,
        &format!("SELECT count(*) FROM moves WHERE room = '{room}'"),
    );
    assert_eq!(count, "6");
}

/// Runs `kibitz serve --store <store>` to its end; its exit status and standard error.
async fn serve_exits(store: &str) -> (std::process::ExitStatus, String) {
    let data = tempfile::tempdir().unwrap();
    let output = within(
        "kibitz serve to exit",
        tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
            .args(serve_args(data.path()))
            .args(["--store", store])
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("run kibitz serve");
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn a_bad_store_url_or_an_absent_server_stops_serve_at_start() {
    let (status, stderr) = serve_exits("mysql://localhost/kibitz").await;
    assert!(!status.success(), "{status}");
    assert!(stderr.contains("postgres://"), "{stderr}");

    // A port nothing listens on: bound a moment ago, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let (status, stderr) =
        serve_exits(&format!("postgres://kibitz:secret@127.0.0.1:{port}/kibitz")).await;
    assert!(!status.success(), "{status}");
    assert!(stderr.contains("cannot reach PostgreSQL"), "{stderr}");
    assert!(
        !stderr.contains("secret"),
        "the password is not shown: {stderr}"
    );
}
