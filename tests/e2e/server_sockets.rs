//! Sockets that never finish their handshake, against the real `kibitz serve` under a lowered
//! open-file limit (`prlimit --nofile=256`): half an HTTP request, or nothing at all, from 60
//! loopback addresses, far more than the process could hold. The server answers `/healthz`
//! and seats a new player all along, closes every stuck socket (the oldest make room for new
//! ones, the rest when their handshake time runs out), never runs out of files, and after the
//! flood holds no more open files than before it, within a small slack. On a quiet server, one
//! address past its share of handshakes is answered 429 until one of them ends. A connection
//! that sends nothing for the idle time is closed; one that keeps talking stays.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use crate::support::serve::{serve_args, ServeProcess};
use crate::support::*;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::process::Command;

/// The server's open-file limit for this test, and the files it keeps in reserve.
const NOFILE: usize = 256;
const FD_RESERVE: usize = 64;
/// Stuck sockets per address, and addresses.
const PER_ADDRESS: usize = 8;
const ADDRESSES: u8 = 60;
/// Open files the server may hold after the flood beyond those it held before.
const FD_SLACK: usize = 8;

async fn serve_limited(data: &std::path::Path) -> ServeProcess {
    let mut command = Command::new("prlimit");
    command
        .arg(format!("--nofile={NOFILE}:{NOFILE}"))
        .arg(env!("CARGO_BIN_EXE_kibitz"))
        .args(serve_args(data))
        .args(["--handshake-secs", "2"])
        .args(["--fd-reserve", &FD_RESERVE.to_string()])
        .args(["--handshakes-per-address", &PER_ADDRESS.to_string()]);
    ServeProcess::spawn(command).await
}

/// A socket to `server` from the loopback address `127.0.0.<host>`.
async fn connect_from(host: u8, server: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    let local = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, host)), 0);
    socket.bind(local).ok()?;
    socket.connect(server).await.ok()
}

/// Reads until the server ends the socket (end of stream or an error).
async fn until_closed(mut s: TcpStream) {
    let mut buf = [0u8; 1024];
    while matches!(s.read(&mut buf).await, Ok(n) if n > 0) {}
}

#[tokio::test]
async fn half_open_and_silent_sockets_are_closed_and_the_server_keeps_serving() {
    let data = tempfile::tempdir().unwrap();
    let mut p = serve_limited(data.path()).await;
    let pid = p.child.id().expect("running");
    let (status, _) = http_get(p.addr, "/healthz").await;
    assert_eq!(status, 200);
    let fds_before = open_fds(pid);

    // The flood: half a request or nothing, from many addresses.
    let mut stuck = Vec::new();
    for host in 2..2 + ADDRESSES {
        for i in 0..PER_ADDRESS {
            let Some(mut s) = connect_from(host, p.addr).await else {
                continue;
            };
            if i % 2 == 0 {
                let _ = s.write_all(b"GET /ws HTTP/1.1\r\nHost: kibitz\r\n").await;
            }
            stuck.push(s);
        }
    }
    // While the stuck sockets are open: health and a new player.
    let (status, body) = http_get(p.addr, "/healthz").await;
    assert_eq!((status, body.trim()), (200, "ok"));
    let mut player = Client::connect(&format!("ws://{}/ws", p.addr)).await;
    player.hello("Alice").await;
    let (_room, st) = player
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    assert_eq!(st["status"], "waiting");
    assert!(open_fds(pid) <= NOFILE, "{} files open", open_fds(pid));

    // Every stuck socket is closed by the server.
    let count = stuck.len();
    within("the stuck sockets to be closed", async {
        futures::future::join_all(stuck.into_iter().map(until_closed)).await;
    })
    .await;
    assert!(
        count >= (ADDRESSES as usize) * PER_ADDRESS / 2,
        "only {count} connected"
    );
    within("the server's files to be closed", async {
        while open_fds(pid) > fds_before + FD_SLACK + 1 {
            tokio::task::yield_now().await;
        }
    })
    .await;
    let text = {
        let (status, body) = http_get(p.addr, "/metrics").await;
        assert_eq!(status, 200);
        body
    };
    // The player's WebSocket is what is left.
    assert_eq!(metric_in(&text, "kibitz_connections"), 1.0, "{text}");
    assert!(metric_in(&text, r#"kibitz_sockets_shed_total{reason="timeout"}"#) > 0.0);
    player.send(json!({"t":"lobby"})).await;
    player.expect("lobby").await;

    // The server never ran out of files: no accept error was logged.
    let _ = p.child.start_kill();
    let _ = p.child.wait().await;
    let log = p.stderr.await.unwrap_or_default();
    let errors: Vec<&String> = log.iter().filter(|l| l.contains("accept error")).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[tokio::test]
async fn one_address_past_its_handshakes_is_answered_429_until_one_ends() {
    let server = TestServer::start_with(|c| {
        c.limits.handshakes_per_address = 3;
        c.limits.handshake_timeout = Duration::from_secs(1);
    })
    .await;
    let mut silent = Vec::new();
    for _ in 0..3 {
        silent.push(connect_from(7, server.addr).await.expect("connect"));
    }
    let mut extra = connect_from(7, server.addr).await.expect("connect");
    let mut answer = String::new();
    let _ = within("the 429", extra.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("too many connections"), "{answer}");
    // Another address is not affected, and WebSockets do not count.
    let mut a = Client::connect(&server.url()).await;
    a.hello("Alice").await;
    // The silent sockets' handshake time runs out; the address may connect again.
    within("the silent sockets to be closed", async {
        futures::future::join_all(silent.into_iter().map(until_closed)).await;
    })
    .await;
    let mut again = connect_from(7, server.addr).await.expect("connect");
    again
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: kibitz\r\nConnection: close\r\n\r\n")
        .await
        .expect("send");
    let mut answer = String::new();
    let _ = within("the answer", again.read_to_string(&mut answer)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert_eq!(
        metric(&server, r#"kibitz_sockets_shed_total{reason="address"}"#).await,
        1.0
    );
}

#[tokio::test]
async fn a_silent_connection_is_closed_after_the_idle_time_and_a_talking_one_stays() {
    // No server pings: only the clients' own frames count as signs of life.
    let server = TestServer::start_with(|c| {
        c.limits.idle_timeout = Duration::from_millis(400);
        c.limits.ping_interval = Duration::from_secs(3600);
        c.limits.player_msgs_per_window = 1_000_000;
    })
    .await;
    let mut silent = server.client("Quiet").await;
    let mut talking = server.client("Chatty").await;
    // The talking client asks for the lobby again and again while the silent one waits; both
    // connected at the same time, so once the silent one is closed the talking one has lived
    // past the idle time too.
    let close = silent.expect_close();
    tokio::pin!(close);
    let code = loop {
        tokio::select! {
            code = &mut close => break code,
            () = async {
                // A fresh subscription is answered with the lists at once.
                talking.send(json!({"t":"lobby"})).await;
                talking.expect("lobby").await;
                talking.send(json!({"t":"unlobby"})).await;
            } => {}
        }
    };
    assert_eq!(code, 1008, "closed as idle");
    // Twice: one answer may still be on its way from the last round of the loop.
    for _ in 0..2 {
        talking.send(json!({"t":"unlobby"})).await;
        talking.send(json!({"t":"lobby"})).await;
        talking.expect("lobby").await;
    }
}
