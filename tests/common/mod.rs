//! Shared helpers of the end-to-end tests: a real server on port 0 in-process, and a real
//! WebSocket client that speaks the protocol and waits for events (never for fixed times).
#![allow(dead_code)]

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

pub const BOT_KEY: &str = "test-bot-key";

/// How long a test waits for an expected event before failing (a bound, not a sleep).
pub const WAIT: Duration = Duration::from_secs(10);

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

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    pub fn http(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
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
        self.recv_wire().await
    }

    async fn recv_wire(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("timed out waiting for a message")
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
            let v = self.recv_wire().await;
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
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("timed out waiting for close");
            match msg {
                Some(Ok(Message::Close(Some(frame)))) => return u16::from(frame.code),
                Some(Ok(Message::Close(None))) | None | Some(Err(_)) => return 0,
                _ => {}
            }
        }
    }

    pub async fn hello(&mut self, name: &str) -> Value {
        self.send(json!({"t":"hello","name":name})).await;
        let w = self.expect("welcome").await;
        self.player = w["player"].as_str().unwrap().to_string();
        self.token = w["token"].as_str().unwrap().to_string();
        w
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

    /// Plays a move and waits for its `moved`.
    pub async fn play(&mut self, room: &str, mv: &str) -> Value {
        self.send(json!({"t":"move","room":room,"move":mv})).await;
        self.expect_where(|v| v["t"] == "moved" && v["move"] == mv)
            .await
    }

    /// Waits for the `moved` of `mv`.
    pub async fn saw_move(&mut self, mv: &str) -> Value {
        self.expect_where(|v| v["t"] == "moved" && v["move"] == mv)
            .await
    }
}

/// Two players seated in a fresh room of `game` (black first), the game started.
pub async fn seated_pair(
    server: &TestServer,
    game: Value,
    clock: Value,
) -> (Client, Client, String) {
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let (room, _) = a
        .create(json!({"t":"create","game":game,"seat":"black","clock":clock}))
        .await;
    b.send(json!({"t":"join","room":room,"as":"player"})).await;
    b.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    (a, b, room)
}
