//! The real `kibitz serve` on a real PostgreSQL server (`--store postgres://...`): a game's
//! moves land in the database and, after a SIGKILL, come back to a server started again on
//! an empty data directory (through `KIBITZ_STORE`) — from PostgreSQL alone. A store URL of
//! another kind, or a server nobody answers at, stops `kibitz serve` at start with a clear
//! error and a non-zero exit. And a hall moved: a SQLite hall with accounts, a rated game
//! with its chat and its review by the real bot, and a tournament is copied to PostgreSQL by
//! `kibitz store copy` (killed part way with SIGKILL, then run again: it goes on), and served
//! from there, where the players sign in with their passwords and find their history.

use std::process::Stdio;

use crate::support::postgres::PgServer;
use crate::support::serve::{serve_args, ServeProcess};
use crate::support::*;
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

/// A SQLite hall: Alice beats Bob in a rated game with a chat line, the bot reviews it, Alice
/// opens a tournament. Returns the room, the review and the stopped hall's data directory.
async fn a_sqlite_hall() -> (String, serde_json::Value, tempfile::TempDir) {
    let server = TestServer::start().await;
    let bot_dir = tempfile::tempdir().unwrap();
    let _bot = crate::support::bots::BotProcess::start(
        &server.url(),
        "Kibot",
        1,
        &bot_dir.path().join("bot.json"),
    );
    let mut alice = account(&server, "Alice").await;
    let mut bob = account(&server, "Bob").await;
    let (room, _) = alice
        .create(
            json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black","rated":true}),
        )
        .await;
    bob.join(&room, "player").await;
    alice.play(&room, "h8").await;
    bob.play(&room, "a1").await;
    alice
        .send(json!({"t":"chat","room":room,"text":"gg — 好棋"}))
        .await;
    alice.expect("chat").await;
    bob.send(json!({"t":"resign","room":room})).await;
    alice.expect("rated").await;
    alice.send(json!({"t":"review","room":room})).await;
    let done = alice
        .expect_where(|v| v["t"] == "review" && v["status"] == "done")
        .await;
    let (status, made) = http_json(
        server.addr,
        "POST",
        "/api/tournaments",
        json!({"token": alice.token, "name": "Winter Cup", "kind": "swiss",
               "game": {"kind":"connect4","cols":7,"rows":6},
               "clock": {"initial_ms":60_000,"increment_ms":0}}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    drop((alice, bob));
    (room, done["review"].clone(), server.stop().await)
}

/// Adds `n` guests to the stopped hall's file, so that the copy takes many batches.
fn pad_with_guests(data: &std::path::Path, n: usize) {
    let mut db = rusqlite::Connection::open(data.join("kibitz.db")).expect("open kibitz.db");
    let tx = db.transaction().unwrap();
    for i in 0..n {
        tx.execute(
            "INSERT INTO players (id, name, token_hash, bot, last_seen_ms) VALUES (?1, ?2, ?3, 0, 0)",
            (format!("pad-{i}"), format!("Guest{i}"), format!("pad-hash-{i}")),
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

fn store_copy(from: &std::path::Path, to: &str) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"));
    command
        .args(["store", "copy", "--batch", "20", "--from"])
        .arg(from)
        .args(["--to", to])
        .stdin(Stdio::null())
        .kill_on_drop(true);
    command
}

#[tokio::test]
async fn a_sqlite_hall_copied_to_postgres_is_served_from_there() {
    use tokio::io::AsyncBufReadExt;
    let (room, review, data) = a_sqlite_hall().await;
    pad_with_guests(data.path(), 3000);
    let pg = PgServer::shared();
    let url = pg.database();

    // The first copy is killed once it has committed a batch.
    let mut first = store_copy(data.path(), &url)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run kibitz store copy");
    let mut lines = tokio::io::BufReader::new(first.stderr.take().unwrap()).lines();
    let progress = within("a batch copied", async {
        loop {
            let line = lines
                .next_line()
                .await
                .unwrap()
                .expect("the copy printed its progress");
            if line.trim_start().starts_with("players: ") {
                return line;
            }
        }
    })
    .await;
    first.start_kill().expect("SIGKILL");
    first.wait().await.unwrap();
    let copied: u64 = pg
        .psql(&url, "SELECT count(*) FROM players")
        .parse()
        .unwrap();
    assert!(
        copied > 0 && copied < 3002,
        "{progress}: {copied} players copied before the kill"
    );

    let second = within("the copy to end", store_copy(data.path(), &url).output())
        .await
        .expect("run kibitz store copy again");
    let (out, err) = (
        String::from_utf8_lossy(&second.stdout),
        String::from_utf8_lossy(&second.stderr),
    );
    assert!(second.status.success(), "{err}");
    assert!(err.contains("going on with the copy"), "{err}");
    assert!(out.contains("counts and checksums match"), "{out}");
    assert_eq!(
        pg.psql(&url, "SELECT count(*) FROM players"),
        "3003",
        "{out}"
    );

    // Served from PostgreSQL, on a new data directory: Alice signs in and finds her game.
    let server = TestServer::start_with(|c| c.store_url = Some(url.clone())).await;
    let (status, session) = http_json(
        server.addr,
        "POST",
        "/api/session",
        json!({"name": "alice", "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 200, "{session}");
    let mut alice = Client::connect(&server.url()).await;
    let welcome = alice
        .hello_again("anything", session["token"].as_str().expect("a token"))
        .await;
    assert_eq!(
        (&welcome["name"], &welcome["account"]),
        (&json!("Alice"), &json!(true))
    );
    let (status, page) = http_get(server.addr, "/api/players/alice").await;
    assert_eq!(status, 200);
    let page: serde_json::Value = serde_json::from_str(&page).unwrap();
    assert_eq!(page["games"][0]["room"], room, "{page}");
    assert_eq!(page["history"].as_array().map(Vec::len), Some(1), "{page}");
    assert!(page["ratings"][0]["rating"].as_i64() > Some(1500), "{page}");
    let (status, game) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    let game: serde_json::Value = serde_json::from_str(&game).unwrap();
    assert_eq!(stored_moves(&game), ["h8", "a1"]);
    assert_eq!(game["chat"][0]["text"], "gg — 好棋", "{game}");
    alice.join(&room, "spectator").await;
    alice
        .send(json!({"t":"review","room":room,"ask":false}))
        .await;
    let stored = alice.expect("review").await;
    assert_eq!(
        (&stored["status"], &stored["review"]),
        (&json!("done"), &review)
    );
    let (_, list) = http_get(server.addr, "/api/tournaments").await;
    assert!(list.contains("Winter Cup"), "{list}");
}
