//! Shared helpers of the end-to-end tests: a real server on port 0 in-process, and a real
//! WebSocket client that speaks the protocol and waits for events (never for fixed times).
//! Beside them: [`bots`] (bot processes and their games), [`cluster`] (nodes on a shared
//! PostgreSQL and Redis), [`fuzz`] (the fuzzers' corpora and mutations), [`serve`] (the
//! `kibitz serve` process).

pub mod bots;
pub mod cluster;
pub mod fuzz;
pub mod serve;

/// Real PostgreSQL and Redis servers: the workspace's harness, shared with the server crate's
/// tests.
pub use kibitz_test_harness::{postgres, redis};

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

pub const BOT_KEY: &str = "test-bot-key";

/// How long a test waits for an expected event before failing (a bound, not a sleep). Real
/// time, so that it holds in tests that pause tokio's clock.
pub const WAIT: Duration = Duration::from_secs(10);

/// Runs `fut` for at most [`WAIT`] of real time; panics naming `what` if it takes longer.
pub async fn within<T>(what: &str, fut: impl Future<Output = T>) -> T {
    match bounded(fut).await {
        Some(value) => value,
        None => panic!("timed out waiting for {what}"),
    }
}

/// Runs `fut` for at most [`WAIT`] of real time; `None` if it takes longer.
pub async fn bounded<T>(fut: impl Future<Output = T>) -> Option<T> {
    let (fire, fired) = oneshot::channel::<()>();
    let (done, cancel) = std_mpsc::channel::<()>();
    std::thread::spawn(move || {
        if let Err(std_mpsc::RecvTimeoutError::Timeout) = cancel.recv_timeout(WAIT) {
            let _ = fire.send(());
        }
    });
    tokio::select! {
        biased;
        value = fut => {
            drop(done);
            Some(value)
        }
        Ok(()) = fired => None,
    }
}

/// Tokio's clock moved only by [`tokio::time::advance`]: no jumps while the runtime waits for
/// the store thread or a socket. The test must run on a current-thread runtime started
/// paused, `#[tokio::test(start_paused = true)]`: the server then runs on the same clock, and
/// the clock starts on a millisecond boundary of the timer wheel, so that a timer due "now"
/// fires without the clock moving (advance by whole milliseconds to keep it so).
pub struct FrozenTime {
    _hold: std_mpsc::Sender<()>,
}

/// Keeps the paused clock from advancing on its own: a blocking task that lives as long as
/// the returned value inhibits tokio's auto-advance.
pub fn freeze_time() -> FrozenTime {
    let (hold, released) = std_mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || {
        let _ = released.recv();
    });
    FrozenTime { _hold: hold }
}

/// Server settings for tests that move the clock by minutes: no idle drops, no pings.
pub fn no_idle(config: &mut kibitz_server::Config) {
    config.limits.idle_timeout = Duration::from_secs(24 * 3600);
    config.limits.ping_interval = Duration::from_secs(24 * 3600);
}

/// A minimal HTTP GET over a raw socket: the status code and the body.
pub async fn http_get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let (status, _, body) = http_request(addr, "GET", path, &[], None).await;
    (status, body)
}

/// One HTTP/1.1 request with extra `headers` and a `body`: the status, the head (lowercased)
/// and the body of the answer.
pub async fn http_request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = TcpStream::connect(addr).await.expect("connect for HTTP");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    request.push_str(body.unwrap_or(""));
    s.write_all(request.as_bytes())
        .await
        .expect("send HTTP request");
    let mut buf = Vec::new();
    within("an HTTP response", s.read_to_end(&mut buf))
        .await
        .expect("read HTTP response");
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_string()
    };
    (status, head, body)
}

/// A JSON request (`POST` or `DELETE`) as the web client sends it: the status and the body
/// read as JSON (`null` for none).
pub async fn http_json(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let text = body.to_string();
    let (status, _, answer) = http_request(
        addr,
        method,
        path,
        &[("Content-Type", "application/json")],
        Some(&text),
    )
    .await;
    (status, serde_json::from_str(&answer).unwrap_or(Value::Null))
}

/// The payload of a chunked HTTP body.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// A server running in this process.
pub struct TestServer {
    pub addr: std::net::SocketAddr,
    pub data: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    /// Starts a server after letting the test adjust the config.
    pub async fn start_with(adjust: impl FnOnce(&mut kibitz_server::Config)) -> TestServer {
        let data = tempfile::tempdir().expect("tempdir");
        Self::start_in(data, adjust).await
    }

    /// Starts a server on an existing data directory.
    pub async fn start_in(
        data: tempfile::TempDir,
        adjust: impl FnOnce(&mut kibitz_server::Config),
    ) -> TestServer {
        let mut config = kibitz_server::Config::new(data.path());
        config.bot_key = Some(BOT_KEY.to_string());
        adjust(&mut config);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = kibitz_server::Server::open(config)
            .await
            .expect("open server");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(listener, async move {
                    let _ = stopped.await;
                })
                .await
                .expect("server run");
        });
        TestServer {
            addr,
            data,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// A node of a cluster on the PostgreSQL store `store` and the Redis `redis`, named
    /// `id`, whose leases last `lease`.
    pub async fn cluster_node(store: &str, redis: &str, id: &str, lease: Duration) -> TestServer {
        let (store, redis, id) = (store.to_string(), redis.to_string(), id.to_string());
        Self::start_with(move |c| {
            c.store_url = Some(store);
            c.cluster = Some(kibitz_server::cluster::ClusterSettings {
                redis_url: redis,
                redis_ca: Some(self::redis::ca_file()),
                node_id: id,
                lease,
            });
        })
        .await
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops the server gracefully and returns its data directory.
    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        let dir = tempfile::tempdir().unwrap();
        std::mem::replace(&mut self.data, dir)
    }

    /// A connected client that has said hello.
    pub async fn client(&self, name: &str) -> Client {
        let mut c = Client::connect(&self.url()).await;
        c.hello(name).await;
        c
    }

    /// A connected bot client that has said hello with the bot key.
    pub async fn bot(&self, name: &str, games: &[&str], capacity: u32) -> Client {
        let mut c = Client::connect(&self.url()).await;
        c.hello_bot(name, games, capacity).await;
        c
    }

    /// The `/metrics` text.
    pub async fn metrics(&self) -> String {
        let (status, body) = http_get(self.addr, "/metrics").await;
        assert_eq!(status, 200);
        body
    }
}

/// A value of the `/metrics` text (0 when the series is absent).
pub async fn metric(server: &TestServer, name: &str) -> f64 {
    let text = server.metrics().await;
    metric_in(&text, name)
}

/// The moves of a stored game (`/api/games/{room}`), as their texts.
pub fn stored_moves(game: &Value) -> Vec<&str> {
    game["moves"]
        .as_array()
        .expect("a stored game's moves")
        .iter()
        .map(|m| m["mv"].as_str().expect("a move's text"))
        .collect()
}

/// How many players a lobby frame shows waiting for quick pairing at `kind`; `None` for a
/// frame that is not the lobby.
pub fn seekers_waiting(v: &Value, kind: &str) -> Option<u64> {
    if v["t"] != "lobby" {
        return None;
    }
    let seeks = v["seeks"].as_array()?;
    Some(
        seeks
            .iter()
            .filter(|s| s["game"]["kind"] == kind)
            .map(|s| s["waiting"].as_u64().unwrap_or(0))
            .sum(),
    )
}

/// A value of a `/metrics` text (0 when the series is absent).
pub fn metric_in(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

/// Waits (bounded) until a metric satisfies `ok`; returns its value then.
pub async fn wait_metric(server: &TestServer, name: &str, ok: impl Fn(f64) -> bool) -> f64 {
    within(name, async {
        loop {
            let v = metric(server, name).await;
            if ok(v) {
                return v;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
}

/// Resident memory of process `pid` in KiB (`VmRSS` of /proc/<pid>/status).
pub fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// Open file descriptors of process `pid`.
pub fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, Iterator::count)
}

/// A protocol client over a real WebSocket.
pub struct Client {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub player: String,
    pub token: String,
    /// Messages read while waiting for another one, in order.
    pub backlog: Vec<Value>,
}

impl Client {
    pub async fn connect(url: &str) -> Client {
        let (ws, _) = connect_async(url).await.expect("connect");
        Client {
            ws,
            player: String::new(),
            token: String::new(),
            backlog: Vec::new(),
        }
    }

    /// Connects with a receive buffer of about `bytes`: a client that stops reading then
    /// stops taking frames soon, as a stuck or slow client does.
    pub async fn connect_with_receive_buffer(addr: std::net::SocketAddr, bytes: u32) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(bytes).expect("receive buffer");
        let tcp = socket.connect(addr).await.expect("connect");
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
            .await
            .expect("handshake");
        Client {
            ws,
            player: String::new(),
            token: String::new(),
            backlog: Vec::new(),
        }
    }

    /// Connects from the loopback address `127.0.0.<host>` (a client of its own address,
    /// with caps of its own), with a small receive buffer when `receive_buffer` is given;
    /// `None` when the server refuses the socket or the upgrade.
    pub async fn connect_from(
        addr: std::net::SocketAddr,
        host: u8,
        receive_buffer: Option<u32>,
    ) -> Option<Client> {
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        if let Some(bytes) = receive_buffer {
            socket.set_recv_buffer_size(bytes).ok()?;
        }
        let local = std::net::SocketAddr::from(([127, 0, 0, host], 0));
        socket.bind(local).ok()?;
        let tcp = socket.connect(addr).await.ok()?;
        let url = format!("ws://{addr}/ws");
        let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
            .await
            .ok()?;
        Some(Client {
            ws,
            player: String::new(),
            token: String::new(),
            backlog: Vec::new(),
        })
    }

    /// Sends each small frame at once (no Nagle delay waiting for the server's ACK), as a
    /// client that sends requests back to back needs.
    pub fn no_delay(&self) {
        if let MaybeTlsStream::Plain(tcp) = self.ws.get_ref() {
            tcp.set_nodelay(true).expect("nodelay");
        }
    }

    /// Reads until the server ends the connection (a close frame, the end of the stream or
    /// an error); panics after [`WAIT`].
    pub async fn until_dropped(&mut self) {
        within("the server to drop the connection", async {
            loop {
                match self.ws.next().await {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send");
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .expect("send");
    }

    /// The next JSON message, skipping pings; panics after [`WAIT`].
    pub async fn recv(&mut self) -> Value {
        if !self.backlog.is_empty() {
            return self.backlog.remove(0);
        }
        within("a message", self.recv_wire()).await
    }

    async fn recv_wire(&mut self) -> Value {
        loop {
            let msg = self
                .ws
                .next()
                .await
                .expect("connection closed")
                .expect("websocket error");
            match msg {
                Message::Text(t) => return serde_json::from_str(&t).expect("server sent bad JSON"),
                Message::Close(f) => panic!("connection closed by server: {f:?}"),
                _ => {}
            }
        }
    }

    /// Waits for the first message with `t == kind`, keeping the others in the backlog.
    pub async fn expect(&mut self, kind: &str) -> Value {
        self.expect_where(|v| v["t"] == kind).await
    }

    /// Waits for the first message matching `pred`, keeping the others in the backlog.
    pub async fn expect_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        loop {
            let Some(v) = bounded(self.recv_wire()).await else {
                panic!(
                    "timed out; {} received meanwhile: {:#?}",
                    self.player, self.backlog
                );
            };
            if pred(&v) {
                return v;
            }
            self.backlog.push(v);
        }
    }

    /// Waits for an `error` and returns its code.
    pub async fn expect_error(&mut self) -> String {
        let e = self.expect("error").await;
        e["code"].as_str().unwrap_or_default().to_string()
    }

    /// Waits for the close frame; returns its code.
    pub async fn expect_close(&mut self) -> u16 {
        loop {
            let code = match within("a close frame", self.ws.next()).await {
                Some(Ok(Message::Close(Some(frame)))) => u16::from(frame.code),
                Some(Ok(Message::Close(None))) | None | Some(Err(_)) => 0,
                _ => continue,
            };
            // Reading on sends our answer to the close, as a real client does at once.
            within("the end of the connection", async {
                while let Some(Ok(_)) = self.ws.next().await {}
            })
            .await;
            return code;
        }
    }

    pub async fn hello(&mut self, name: &str) -> Value {
        self.send(json!({"t":"hello","name":name})).await;
        let w = self.expect("welcome").await;
        self.player = w["player"].as_str().unwrap().to_string();
        self.token = w["token"].as_str().unwrap().to_string();
        w
    }

    /// Says hello with a token (resuming an identity).
    pub async fn hello_again(&mut self, name: &str, token: &str) -> Value {
        self.send(json!({"t":"hello","name":name,"token":token}))
            .await;
        let w = self.expect("welcome").await;
        self.player = w["player"].as_str().unwrap().to_string();
        self.token = w["token"].as_str().unwrap().to_string();
        w
    }

    /// Says hello as a bot with the test bot key.
    pub async fn hello_bot(&mut self, name: &str, games: &[&str], capacity: u32) -> Value {
        self.send(json!({"t":"hello","name":name,
            "bot":{"key":BOT_KEY,"games":games,"capacity":capacity}}))
            .await;
        let w = self.expect("welcome").await;
        self.player = w["player"].as_str().unwrap().to_string();
        self.token = w["token"].as_str().unwrap().to_string();
        w
    }

    /// Closes the connection from the client side.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
        // Read until the server's answer so the server has seen the close.
        while let Some(Ok(_)) = within("the end of the connection", self.ws.next()).await {}
    }

    /// Creates a room and returns its id (after `created` and the first `state`).
    pub async fn create(&mut self, msg: Value) -> (String, Value) {
        self.send(msg).await;
        let c = self.expect("created").await;
        let room = c["room"].as_str().unwrap().to_string();
        let s = self.expect("state").await;
        (room, s)
    }

    pub async fn join(&mut self, room: &str, as_: &str) -> Value {
        self.send(json!({"t":"join","room":room,"as":as_})).await;
        self.expect("state").await
    }

    /// Plays a move and waits for its own `moved` (recognised by a fresh request id, so a
    /// repeated move text such as a Connect Four column is never mistaken).
    pub async fn play(&mut self, room: &str, mv: &str) -> Value {
        // Unique in the process: a reconnected client must not reuse an earlier id.
        static SENT: AtomicU64 = AtomicU64::new(0);
        let id = format!("play-{}", SENT.fetch_add(1, Ordering::Relaxed));
        self.send(json!({"t":"move","room":room,"move":mv,"id":id}))
            .await;
        let moved = self
            .expect_where(|v| (v["t"] == "moved" && v["id"] == id) || v["t"] == "error")
            .await;
        assert_eq!(moved["t"], "moved", "{mv} was refused: {moved}");
        moved
    }

    /// Waits for the `moved` that makes the game `ply` moves long (after the opening).
    pub async fn saw_ply(&mut self, room: &str, ply: u64) -> Value {
        self.expect_where(|v| v["t"] == "moved" && v["room"] == room && v["ply"] == ply)
            .await
    }

    /// Sends a request and waits for the error it draws; returns the error.
    pub async fn refused(&mut self, msg: Value) -> Value {
        self.send(msg).await;
        self.expect("error").await
    }

    /// A fresh `state` of `room` (re-joining changes nothing for a member).
    pub async fn fresh_state(&mut self, room: &str, as_: &str) -> Value {
        self.send(json!({"t":"join","room":room,"as":as_})).await;
        self.expect_where(|v| v["t"] == "state" && v["room"] == room)
            .await
    }

    /// Waits for the `moved` of `mv`.
    pub async fn saw_move(&mut self, mv: &str) -> Value {
        self.expect_where(|v| v["t"] == "moved" && v["move"] == mv)
            .await
    }
}

/// Sends `signal` (`STOP`, `CONT`, `KILL`, ...) to process `pid`, one the test started.
pub fn signal(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {pid}");
}

/// A freestyle Gomoku game on a `size` board, as a room's `game`.
pub fn gomoku(size: u32) -> Value {
    json!({"kind":"gomoku","size":size,"rule":"freestyle"})
}

/// The password of the accounts the tests make.
pub const PASSWORD: &str = "correct horse battery";

/// A guest who claims `name` with [`PASSWORD`] and says hello again as the account: its
/// connection.
pub async fn account(server: &TestServer, name: &str) -> Client {
    let guest = server.client(&format!("guest-{name}")).await;
    let (status, body) = http_json(
        server.addr,
        "POST",
        "/api/accounts",
        json!({"token": guest.token, "name": name, "password": PASSWORD}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let token = guest.token.clone();
    guest.close().await;
    let mut me = Client::connect(&server.url()).await;
    let welcome = me.hello_again("anything", &token).await;
    assert_eq!(welcome["name"], name);
    assert_eq!(welcome["account"], true);
    me
}

/// Two players seated in a fresh room of `game` (black first), the game started.
pub async fn seated_pair(
    server: &TestServer,
    game: Value,
    clock: Value,
) -> (Client, Client, String) {
    seated_pair_made(
        server,
        json!({"t":"create","game":game,"seat":"black","clock":clock}),
    )
    .await
}

/// Two players seated in a fresh room made by Alice's `create` message, the game started.
pub async fn seated_pair_made(server: &TestServer, create: Value) -> (Client, Client, String) {
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let (room, _) = a.create(create).await;
    b.send(json!({"t":"join","room":room,"as":"player"})).await;
    b.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    (a, b, room)
}

/// Black wins Connect Four in column 1 in seven moves.
pub const QUICK_WIN: [&str; 7] = ["1", "2", "1", "2", "1", "2", "1"];

/// One game of Connect Four that black (`a`) wins in seven moves; returns its room once both
/// players were told it is over.
pub async fn quick_game(a: &mut Client, b: &mut Client) -> String {
    let (room, _) = a
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    b.join(&room, "player").await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    for (i, m) in QUICK_WIN.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut *a } else { &mut *b };
        mover.play(&room, m).await;
    }
    for p in [a, b] {
        p.expect("over").await;
        p.backlog.clear();
    }
    room
}
