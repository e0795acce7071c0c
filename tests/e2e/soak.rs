//! A soak of the real `kibitz serve` process: honest pairs play short games back to back on
//! connections they never leave, while hostile clients come and go all along — sockets that
//! never finish their handshake (half a request, or nothing), a spectator that stops reading in
//! a busy room, a lobby subscriber that never reads, and a flood of rooms from fresh identities
//! on many addresses. The server's memory and open files are sampled from /proc every few
//! seconds. At the end: no honest player saw an error, memory and files are flat after the
//! warm-up (bounds below), every hostile client was dropped, and after a SIGKILL and a restart
//! on the same data every acknowledged move and result is in `/api/games/<room>`.
//!
//! The length comes from `KIBITZ_SOAK_SECONDS` (default 25 s, so it runs in `cargo test`); the
//! long run is `KIBITZ_SOAK_SECONDS=1800 cargo test --release --test e2e soak:: -- --nocapture`, which
//! prints the figures (games, moves, memory and files over time).

use std::net::{SocketAddr, SocketAddrV4};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::serve::ServeProcess;
use crate::support::*;
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::MaybeTlsStream;

/// The soak's length when `KIBITZ_SOAK_SECONDS` is not set.
const DEFAULT_SECONDS: u64 = 25;

/// Honest pairs playing at once.
const PAIRS: usize = 4;

/// Each honest pair starts a game at most this often (a game takes a few milliseconds), so
/// that a long run stays a few tens of thousands of games, every one of them checked at the
/// end.
const GAME_PACE: Duration = Duration::from_millis(250);

/// Memory after the warm-up: the largest sample of the last third may exceed the largest of
/// the first third by at most this fraction, plus [`RSS_SLACK_KIB`] for the allocator's
/// granularity on a short run.
const RSS_GROWTH: f64 = 0.20;
const RSS_SLACK_KIB: u64 = 4 * 1024;

/// Open files: the largest sample of the last third may exceed the largest of the first third
/// by at most this many (hostile sockets come and go between samples).
const FD_SLACK: usize = 24;

/// How long the server may take to drop a client that stopped reading.
const DROP_WITHIN: Duration = Duration::from_secs(60);

/// The server's settings for the soak: the defaults, except times shortened so that a short
/// run sees rooms expire, finished rooms leave memory, unseen players be forgotten and
/// clients that stopped reading dropped (by the send time in a busy room, by the silence —
/// no pong — in a quiet lobby), and message rates raised for players who play far faster than
/// people.
const FLAGS: &[&str] = &[
    "--idle-secs",
    "10",
    "--ping-secs",
    "3",
    "--handshake-secs",
    "2",
    "--send-timeout-secs",
    "1",
    "--waiting-room-secs",
    "5",
    "--finished-room-secs",
    "5",
    "--player-idle-secs",
    "60",
    "--player-messages",
    "1000000",
    "--chat-lines",
    "1000000",
    "--chat-max-chars",
    "1000",
];

/// Loopback hosts (127.0.0.<host>) of the hostile clients; honest players use 127.0.0.1.
const HALF_OPEN_HOST: u8 = 10;
const STUCK_SPECTATOR_HOST: u8 = 11;
const STUCK_LOBBY_HOST: u8 = 12;
const FLOOD_HOSTS: std::ops::Range<u8> = 20..60;

/// A game as its players were told of it: every acknowledged move, and the `over` if any.
struct GameLog {
    room: String,
    moves: Vec<String>,
    over: Option<Value>,
}

#[derive(Default)]
struct Counts {
    games: AtomicU64,
    moves: AtomicU64,
    half_open_closed: AtomicU64,
    spectators_dropped: AtomicU64,
    lobby_subscribers_dropped: AtomicU64,
    flood_rooms: AtomicU64,
    flood_refusals: AtomicU64,
}

impl Counts {
    fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

struct Sample {
    at: Duration,
    rss_kib: u64,
    fds: usize,
    rooms_over: f64,
    rooms_waiting: f64,
    connections: f64,
}

/// Panics if an honest client was told of an error (kept in its backlog meanwhile).
fn no_errors(who: &Client) {
    if let Some(e) = who.backlog.iter().find(|v| v["t"] == "error") {
        panic!(
            "an honest player ({}) was told of an error: {e}",
            who.player
        );
    }
}

/// One honest pair: games of Connect Four back to back, ended by four in a row, a
/// resignation or a draw agreed, on connections that never leave a room. Stops mid-game once
/// told to, so that the end finds unfinished games with acknowledged moves.
async fn honest_pair(
    url: String,
    n: usize,
    stop: Arc<AtomicBool>,
    counts: Arc<Counts>,
) -> Vec<GameLog> {
    let mut a = Client::connect(&url).await;
    a.hello(&format!("Honest{n}a")).await;
    let mut b = Client::connect(&url).await;
    b.hello(&format!("Honest{n}b")).await;
    a.no_delay();
    b.no_delay();
    let mut logs = Vec::new();
    let mut pace = tokio::time::interval(GAME_PACE);
    pace.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for game in 0.. {
        // Once told to stop, the pair still starts a game and leaves it after its first move.
        if !stop.load(Ordering::Relaxed) {
            pace.tick().await;
        }
        let (room, _) = a
            .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
            .await;
        b.join(&room, "player").await;
        a.expect_where(|v| v["t"] == "state" && v["room"] == room && v["status"] == "playing")
            .await;
        let plan = if game % 3 == 0 {
            &QUICK_WIN[..]
        } else {
            &QUICK_WIN[..2]
        };
        let mut log = GameLog {
            room: room.clone(),
            moves: Vec::new(),
            over: None,
        };
        for (i, mv) in plan.iter().enumerate() {
            let mover = if i % 2 == 0 { &mut a } else { &mut b };
            mover.play(&room, mv).await;
            log.moves.push((*mv).to_string());
            Counts::add(&counts.moves, 1);
            if stop.load(Ordering::Relaxed) && !(game % 3 == 0 && i + 1 == plan.len()) {
                logs.push(log);
                no_errors(&a);
                no_errors(&b);
                return logs;
            }
        }
        match game % 3 {
            1 => a.send(json!({"t":"resign","room":room})).await,
            2 => {
                a.send(json!({"t":"draw","room":room})).await;
                b.expect_where(|v| v["t"] == "draw_offer" && v["room"] == room)
                    .await;
                b.send(json!({"t":"draw_reply","room":room,"accept":true}))
                    .await;
            }
            _ => {}
        }
        let over = a
            .expect_where(|v| v["t"] == "over" && v["room"] == room)
            .await;
        let seen_by_b = b
            .expect_where(|v| v["t"] == "over" && v["room"] == room)
            .await;
        assert_eq!(over["result"], seen_by_b["result"]);
        log.over = Some(over);
        logs.push(log);
        Counts::add(&counts.games, 1);
        for p in [&mut a, &mut b] {
            no_errors(p);
            p.backlog.clear();
        }
    }
    logs
}

/// The local address of a client's socket.
fn local_addr(c: &Client) -> SocketAddrV4 {
    match c.ws.get_ref() {
        MaybeTlsStream::Plain(tcp) => match tcp.local_addr() {
            Ok(SocketAddr::V4(a)) => a,
            other => panic!("not an IPv4 socket: {other:?}"),
        },
        _ => panic!("not a plain socket"),
    }
}

/// Whether the server still holds an open socket to `client`: an established entry of
/// /proc/net/tcp from the server's port to the client that belongs to a process (a socket the
/// server closed with data still unsent lingers with no owner, inode 0). Read without reading
/// from the client, which would let a stuck client catch up.
fn server_holds(server: SocketAddr, client: SocketAddrV4) -> bool {
    let hex = |a: SocketAddrV4| {
        let [w, x, y, z] = a.ip().octets();
        format!("{z:02X}{y:02X}{x:02X}{w:02X}:{:04X}", a.port())
    };
    let server_port = format!(":{:04X}", server.port());
    let client = hex(client);
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    table.lines().skip(1).any(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        f.len() > 9 && f[1].ends_with(&server_port) && f[2] == client && f[3] == "01" && f[9] != "0"
    })
}

/// The /proc/net/tcp entries of `client`, for a failure's message.
fn tcp_entries(client: SocketAddrV4) -> String {
    let [w, x, y, z] = client.ip().octets();
    let hex = format!("{z:02X}{y:02X}{x:02X}{w:02X}:{:04X}", client.port());
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    table
        .lines()
        .filter(|l| l.contains(&hex))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Waits (bounded by [`DROP_WITHIN`]) until the server no longer holds the socket of `c`, then
/// reads what was in flight until the stream ends.
async fn until_server_drops(server: SocketAddr, c: &mut Client, what: &str) {
    let me = local_addr(c);
    let start = Instant::now();
    let mut poll = tokio::time::interval(Duration::from_millis(100));
    while server_holds(server, me) {
        assert!(
            start.elapsed() < DROP_WITHIN,
            "the server did not drop {what}: {}",
            tcp_entries(me)
        );
        poll.tick().await;
    }
    c.until_dropped().await;
}

/// A pair chats long lines in a fresh room while a spectator that never reads sits in it; the
/// server must drop the spectator. Over and over, each time in a new room.
async fn stuck_spectators(server: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    let url = format!("ws://{server}/ws");
    let mut a = Client::connect(&url).await;
    a.hello("Chatter").await;
    let mut b = Client::connect(&url).await;
    b.hello("Listener").await;
    let mut token = None::<String>;
    let line = "x".repeat(990);
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let (room, _) = a
            .create(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black"}))
            .await;
        b.join(&room, "player").await;
        let mut stuck = Client::connect_from(server, STUCK_SPECTATOR_HOST, Some(4096))
            .await
            .expect("the stuck spectator connects");
        match &token {
            Some(t) => stuck.hello_again("Stuck", t).await,
            None => stuck.hello("Stuck").await,
        };
        token = Some(stuck.token.clone());
        stuck.join(&room, "spectator").await;
        let me = local_addr(&stuck);
        // The room gets busy; the spectator reads nothing from here on.
        let start = Instant::now();
        while server_holds(server, me) {
            assert!(
                start.elapsed() < DROP_WITHIN,
                "the stuck spectator was not dropped"
            );
            n += 1;
            a.send(json!({"t":"chat","room":room,"text":format!("{n} {line}")}))
                .await;
            a.expect("chat").await;
            b.expect("chat").await;
        }
        stuck.until_dropped().await;
        Counts::add(&counts.spectators_dropped, 1);
        a.expect_where(|v| v["t"] == "crowd" && v["room"] == room && v["spectators"] == 0)
            .await;
        a.send(json!({"t":"resign","room":room})).await;
        for p in [&mut a, &mut b] {
            p.expect_where(|v| v["t"] == "over" && v["room"] == room)
                .await;
            no_errors(p);
            p.backlog.clear();
        }
    }
}

/// A lobby subscriber that never reads, over and over: the server must drop each one.
async fn stuck_lobby_subscribers(server: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    let mut token = None::<String>;
    while !stop.load(Ordering::Relaxed) {
        let mut stuck = Client::connect_from(server, STUCK_LOBBY_HOST, Some(4096))
            .await
            .expect("the stuck lobby subscriber connects");
        match &token {
            Some(t) => stuck.hello_again("Lurker", t).await,
            None => stuck.hello("Lurker").await,
        };
        token = Some(stuck.token.clone());
        stuck.send(json!({"t":"lobby"})).await;
        until_server_drops(server, &mut stuck, "the stuck lobby subscriber").await;
        Counts::add(&counts.lobby_subscribers_dropped, 1);
    }
}

/// Sockets that never finish their handshake — half a request, or nothing — sixteen at a
/// time: the server must close every one.
async fn half_open_sockets(server: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    while !stop.load(Ordering::Relaxed) {
        let mut stuck = Vec::new();
        for i in 0..16 {
            let socket = TcpSocket::new_v4().expect("socket");
            socket
                .bind(SocketAddr::from(([127, 0, 0, HALF_OPEN_HOST], 0)))
                .expect("bind");
            let mut s: TcpStream = socket.connect(server).await.expect("connect");
            if i % 2 == 0 {
                s.write_all(b"GET /ws HTTP/1.1\r\nHost: kibitz\r\n")
                    .await
                    .expect("half a request");
            }
            stuck.push(s);
        }
        for mut s in stuck {
            let mut buf = [0u8; 1024];
            let closed = tokio::time::timeout(DROP_WITHIN, async {
                while matches!(s.read(&mut buf).await, Ok(n) if n > 0) {}
            })
            .await;
            assert!(
                closed.is_ok(),
                "a socket stuck in its handshake stayed open"
            );
            Counts::add(&counts.half_open_closed, 1);
        }
    }
}

/// Fresh identities from many addresses, each making rooms nobody sits in until refused.
async fn room_flood(server: SocketAddr, stop: Arc<AtomicBool>, counts: Arc<Counts>) {
    let mut pace = tokio::time::interval(Duration::from_millis(500));
    let mut hosts = FLOOD_HOSTS.cycle();
    let mut n = 0u64;
    while !stop.load(Ordering::Relaxed) {
        pace.tick().await;
        let host = hosts.next().unwrap_or(FLOOD_HOSTS.start);
        let Some(mut c) = Client::connect_from(server, host, None).await else {
            Counts::add(&counts.flood_refusals, 1);
            continue;
        };
        n += 1;
        c.send(json!({"t":"hello","name":format!("Flood{n}")}))
            .await;
        let hello = c
            .expect_where(|v| v["t"] == "welcome" || v["t"] == "error")
            .await;
        if hello["t"] == "error" {
            Counts::add(&counts.flood_refusals, 1);
            c.close().await;
            continue;
        }
        loop {
            c.send(json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"none"}))
                .await;
            let v = c
                .expect_where(|v| v["t"] == "created" || v["t"] == "error")
                .await;
            if v["t"] == "error" {
                Counts::add(&counts.flood_refusals, 1);
                break;
            }
            c.expect("state").await;
            Counts::add(&counts.flood_rooms, 1);
        }
        c.close().await;
    }
}

/// Samples the server's memory, files and rooms every `every` until told to stop.
async fn sample(
    server: SocketAddr,
    pid: u32,
    every: Duration,
    stop: Arc<AtomicBool>,
    samples: Arc<Mutex<Vec<Sample>>>,
) {
    let start = Instant::now();
    let mut tick = tokio::time::interval(every);
    while !stop.load(Ordering::Relaxed) {
        tick.tick().await;
        let (_, metrics) = http_get(server, "/metrics").await;
        let s = Sample {
            at: start.elapsed(),
            rss_kib: rss_kib(pid),
            fds: open_fds(pid),
            rooms_over: metric_in(&metrics, r#"kibitz_rooms{status="over"}"#),
            rooms_waiting: metric_in(&metrics, r#"kibitz_rooms{status="waiting"}"#),
            connections: metric_in(&metrics, "kibitz_connections"),
        };
        samples.lock().unwrap_or_else(|e| e.into_inner()).push(s);
    }
}

/// The largest value of `f` over a slice of samples.
fn max_of<T: Ord + Copy>(samples: &[Sample], f: impl Fn(&Sample) -> T) -> T {
    samples.iter().map(f).max().expect("samples")
}

/// Checks a game as stored against what its players were told.
fn check_stored(log: &GameLog, body: &str) -> Result<(), String> {
    let v: Value = serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))?;
    let stored: Vec<&str> = v["moves"]
        .as_array()
        .map(|ms| ms.iter().filter_map(|m| m["mv"].as_str()).collect())
        .unwrap_or_default();
    if stored != log.moves {
        return Err(format!("moves {:?} stored as {stored:?}", log.moves));
    }
    if let Some(over) = &log.over {
        let result = &v["result"];
        if result["result"] != over["result"] || result["reason"] != over["reason"] {
            return Err(format!("told {over}, stored {result}"));
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn honest_games_beside_hostile_clients_lose_nothing_and_memory_stays_flat() {
    let seconds = std::env::var("KIBITZ_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SECONDS);
    let duration = Duration::from_secs(seconds);
    let every = (duration / 40).clamp(Duration::from_millis(500), Duration::from_secs(5));
    let data = tempfile::tempdir().expect("tempdir");
    let server = ServeProcess::start(data.path(), FLAGS).await;
    let (addr, pid) = (server.addr, server.pid);

    let stop = Arc::new(AtomicBool::new(false));
    let counts = Arc::new(Counts::default());
    let samples = Arc::new(Mutex::new(Vec::new()));
    let honest: Vec<_> = (0..PAIRS)
        .map(|n| tokio::spawn(honest_pair(server.url(), n, stop.clone(), counts.clone())))
        .collect();
    let hostile = vec![
        tokio::spawn(stuck_spectators(addr, stop.clone(), counts.clone())),
        tokio::spawn(stuck_lobby_subscribers(addr, stop.clone(), counts.clone())),
        tokio::spawn(half_open_sockets(addr, stop.clone(), counts.clone())),
        tokio::spawn(room_flood(addr, stop.clone(), counts.clone())),
    ];
    let sampler = tokio::spawn(sample(addr, pid, every, stop.clone(), samples.clone()));

    // The soak's length is its parameter, not a wait for an event.
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut logs = Vec::new();
    for task in honest {
        logs.extend(task.await.expect("an honest pair failed"));
    }
    for task in hostile {
        task.await
            .expect("a hostile client saw the server misbehave");
    }
    sampler.await.expect("the sampler");
    let samples = std::mem::take(&mut *samples.lock().unwrap_or_else(|e| e.into_inner()));

    // SIGKILL, a restart on the same data, and every acknowledged move and result is there.
    server.kill().await;
    let server = ServeProcess::start(data.path(), FLAGS).await;
    let checked_addr = server.addr;
    let lost: Vec<String> = futures::stream::iter(&logs)
        .map(|log| async move {
            let (status, body) = http_get(checked_addr, &format!("/api/games/{}", log.room)).await;
            if status != 200 {
                Some(format!("{}: HTTP {status}", log.room))
            } else {
                check_stored(log, &body)
                    .err()
                    .map(|e| format!("{}: {e}", log.room))
            }
        })
        .buffer_unordered(8)
        .filter_map(|lost| async move { lost })
        .collect()
        .await;

    let games = Counts::get(&counts.games);
    let moves = Counts::get(&counts.moves);
    let unfinished = logs.iter().filter(|l| l.over.is_none()).count();
    println!("soak: {seconds} s against kibitz serve (pid {pid}), {PAIRS} honest pairs");
    println!(
        "honest: {games} games finished, {unfinished} unfinished at the end, {moves} moves acknowledged; \
         {} games checked after SIGKILL and restart, {} lost",
        logs.len(),
        lost.len()
    );
    println!(
        "hostile: {} handshake-less sockets closed, {} stuck spectators and {} stuck lobby \
         subscribers dropped, {} flood rooms made, {} flood refusals",
        Counts::get(&counts.half_open_closed),
        Counts::get(&counts.spectators_dropped),
        Counts::get(&counts.lobby_subscribers_dropped),
        Counts::get(&counts.flood_rooms),
        Counts::get(&counts.flood_refusals),
    );
    println!("  time    RSS MiB   fds  conns  rooms over  rooms waiting");
    let step = samples.len().div_ceil(30).max(1);
    let shown = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || i + 1 == samples.len());
    for (_, s) in shown {
        println!(
            "{:>5} s  {:>8.1}  {:>4}  {:>5}  {:>10}  {:>13}",
            s.at.as_secs(),
            s.rss_kib as f64 / 1024.0,
            s.fds,
            s.connections,
            s.rooms_over,
            s.rooms_waiting
        );
    }

    assert!(
        lost.is_empty(),
        "acknowledged moves or results lost: {lost:#?}"
    );
    assert!(games > 0 && moves > 0, "the honest pairs played nothing");
    for (what, n) in [
        ("handshake-less sockets closed", &counts.half_open_closed),
        ("stuck spectators dropped", &counts.spectators_dropped),
        (
            "stuck lobby subscribers dropped",
            &counts.lobby_subscribers_dropped,
        ),
        ("flood refusals", &counts.flood_refusals),
    ] {
        assert!(Counts::get(n) > 0, "no {what}");
    }
    assert!(samples.len() >= 6, "only {} samples", samples.len());
    let third = samples.len() / 3;
    let (first, last) = (&samples[..third], &samples[samples.len() - third..]);
    let (rss_first, rss_last) = (max_of(first, |s| s.rss_kib), max_of(last, |s| s.rss_kib));
    let rss_bound = (rss_first as f64 * (1.0 + RSS_GROWTH)) as u64 + RSS_SLACK_KIB;
    println!(
        "RSS: first-third max {rss_first} KiB, last-third max {rss_last} KiB (bound {rss_bound}); \
         fds: first-third max {}, last-third max {}",
        max_of(first, |s| s.fds),
        max_of(last, |s| s.fds)
    );
    assert!(
        rss_last <= rss_bound,
        "memory grew: last-third max {rss_last} KiB, first-third max {rss_first} KiB"
    );
    let (fds_first, fds_last) = (max_of(first, |s| s.fds), max_of(last, |s| s.fds));
    assert!(
        fds_last <= fds_first + FD_SLACK,
        "open files grew: last-third max {fds_last}, first-third max {fds_first}"
    );
}
