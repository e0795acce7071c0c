//! What the cluster fault tests share: nodes as real `kibitz serve` processes, a client that
//! records every message it is sent (for the checker), the checker itself (no client ever
//! sees a room's moves or `seq` go back), a TCP proxy a test can cut between one node and
//! PostgreSQL, and signals to pause and resume a process; the crash drills' games in
//! [`games`].

pub mod games;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, Notify};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

use crate::support::postgres::PgServer;
use crate::support::redis::RedisServer;
use crate::support::serve::ServeProcess;
use crate::support::within;

/// Lease time of the nodes of these tests.
pub const LEASE_MS: u64 = 1500;

/// A `kibitz serve` node on `store` and `redis`, named `id`, with a short lease and the
/// `extra` flags.
pub async fn node(data: &Path, store: &str, redis: &str, id: &str, extra: &[&str]) -> ServeProcess {
    let lease = LEASE_MS.to_string();
    let ca = crate::support::redis::ca_file();
    let mut flags = vec![
        "--store",
        store,
        "--redis",
        redis,
        "--redis-ca",
        ca.to_str().expect("a UTF-8 path"),
        "--node-id",
        id,
        "--lease-ms",
        &lease,
    ];
    flags.extend_from_slice(extra);
    ServeProcess::start(data, &flags).await
}

/// A hall of a test's own: a fresh database on the shared PostgreSQL, a Redis, and a data
/// directory per node id (kept: a node started again under its id finds its own).
pub struct Hall {
    pub pg: Pg,
    pub store: String,
    pub redis: RedisServer,
    dirs: Mutex<HashMap<String, Arc<tempfile::TempDir>>>,
}

/// The hall's PostgreSQL: the one the test binary shares, or one of the hall's own (for a
/// test that stops it, while the others go on).
pub enum Pg {
    Shared(&'static PgServer),
    Own(Box<PgServer>),
}

impl std::ops::Deref for Pg {
    type Target = PgServer;

    fn deref(&self) -> &PgServer {
        match self {
            Pg::Shared(pg) => pg,
            Pg::Own(pg) => pg,
        }
    }
}

impl Hall {
    pub fn new() -> Hall {
        Hall::on(Pg::Shared(PgServer::shared()))
    }

    /// A hall on a PostgreSQL server of its own.
    pub fn with_own_postgres() -> Hall {
        Hall::on(Pg::Own(Box::new(PgServer::start())))
    }

    fn on(pg: Pg) -> Hall {
        let store = pg.database();
        Hall {
            pg,
            store,
            redis: RedisServer::start(),
            dirs: Mutex::default(),
        }
    }

    /// Node `id` of the hall, with the `extra` flags.
    pub async fn node(&self, id: &str, extra: &[&str]) -> ServeProcess {
        self.node_on(&self.store.clone(), id, extra).await
    }

    /// Node `id` of the hall on the store URL `store` (the hall's database, reached some other
    /// way: through a proxy, say).
    pub async fn node_on(&self, store: &str, id: &str, extra: &[&str]) -> ServeProcess {
        let dir = self
            .dirs
            .lock()
            .unwrap()
            .entry(id.to_string())
            .or_insert_with(|| Arc::new(tempfile::tempdir().expect("a data directory")))
            .clone();
        node(dir.path(), store, &self.redis.url(), id, extra).await
    }

    /// The moves of `room` as stored, in order, comma-separated.
    pub fn stored_moves(&self, room: &str) -> String {
        let sql =
            format!("SELECT string_agg(mv, ',' ORDER BY ply) FROM moves WHERE room = '{room}'");
        self.pg.psql(&self.store, &sql)
    }
}

/// Waits until every thread of process `pid` is stopped (`kill -STOP` has taken effect).
/// The signal stops a process's threads one after the other, the first when it is next
/// scheduled: on a busy machine another thread may serve a request meanwhile. A test that
/// queues requests to a frozen node waits for this first.
pub async fn stopped(pid: u32) {
    within("the process to stop", async {
        loop {
            let tasks =
                std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process's threads");
            let all_stopped = tasks.flatten().all(|task| {
                let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
                // The state follows the name in parentheses, which may hold spaces.
                let state = stat.rsplit_once(") ").map(|(_, rest)| rest.chars().next());
                matches!(state, Some(Some('T' | 't')))
            });
            if all_stopped {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
}

/// A client whose every received message is recorded, in order, by a task of its own.
pub struct Recorded {
    pub name: String,
    pub player: String,
    pub token: String,
    out: mpsc::UnboundedSender<String>,
    pub seen: Arc<Mutex<Vec<Value>>>,
    arrived: Arc<Notify>,
    /// Index of the first message not yet looked at by `wait_for`.
    cursor: usize,
    reader: JoinHandle<()>,
}

impl Drop for Recorded {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Recorded {
    /// Connects to `url` and says hello as `name` (with `token`, to be someone again).
    pub async fn connect(url: &str, name: &str, token: Option<&str>) -> Recorded {
        let mut hello = json!({"t":"hello","name":name});
        if let Some(token) = token {
            hello["token"] = json!(token);
        }
        Recorded::connect_as(url, hello).await
    }

    /// Connects to `url` and says `hello` (a bot's, say).
    pub async fn connect_as(url: &str, hello: Value) -> Recorded {
        let name = hello["name"].as_str().unwrap_or_default().to_string();
        let (ws, _) = within("a connection", tokio_tungstenite::connect_async(url))
            .await
            .expect("connect");
        let (mut sink, mut stream) = ws.split();
        let (out, mut outgoing) = mpsc::unbounded_channel::<String>();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let arrived = Arc::new(Notify::new());
        let (seen2, arrived2) = (seen.clone(), arrived.clone());
        let reader = tokio::spawn(async move {
            loop {
                tokio::select! {
                    text = outgoing.recv() => match text {
                        Some(text) => {
                            if sink.send(Message::Text(text.into())).await.is_err() {
                                break;
                            }
                        }
                        None => break,
                    },
                    msg = stream.next() => match msg {
                        Some(Ok(Message::Text(t))) => {
                            let v: Value = serde_json::from_str(&t).expect("JSON from the server");
                            seen2.lock().unwrap().push(v);
                            arrived2.notify_waiters();
                        }
                        Some(Ok(_)) => {}
                        _ => break,
                    },
                }
            }
            arrived2.notify_waiters();
        });
        let mut client = Recorded {
            name,
            player: String::new(),
            token: String::new(),
            out,
            seen,
            arrived,
            cursor: 0,
            reader,
        };
        client.send(hello);
        let w = client.wait_for(|v| v["t"] == "welcome").await;
        client.player = w["player"].as_str().unwrap().to_string();
        client.token = w["token"].as_str().unwrap().to_string();
        client
    }

    pub fn send(&self, v: Value) {
        let _ = self.out.send(v.to_string());
    }

    /// Waits until the server has closed the connection.
    pub async fn closed(&self) {
        within("the server to close the connection", async {
            while !self.reader.is_finished() {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        })
        .await;
    }

    /// The next message (after those already waited for) that matches `pred`.
    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        within("a message", async {
            loop {
                let arrived = self.arrived.notified();
                {
                    let seen = self.seen.lock().unwrap();
                    if let Some(i) = seen[self.cursor..].iter().position(&pred) {
                        self.cursor += i + 1;
                        return seen[self.cursor - 1].clone();
                    }
                }
                arrived.await;
            }
        })
        .await
    }

    /// Like [`Recorded::wait_for`], but `None` once `limit` has passed.
    pub async fn wait_up_to(
        &mut self,
        limit: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        tokio::time::timeout(limit, self.wait_for(pred)).await.ok()
    }

    /// Creates a room and waits for its `created`; the room's id.
    pub async fn create(&mut self, msg: Value) -> String {
        self.send(msg);
        let created = self.wait_for(|v| v["t"] == "created").await;
        created["room"].as_str().unwrap().to_string()
    }

    /// Joins `room` as `as_` and waits for its state.
    pub async fn join(&mut self, room: &str, as_: &str) -> Value {
        self.send(json!({"t":"join","room":room,"as":as_}));
        self.wait_for(|v| v["t"] == "state" && v["room"] == room)
            .await
    }

    /// Joins `room` as `as_`, asking again while the room's node cannot be reached (a
    /// refusal, or no answer within a second), for at most 30 s; the room's state.
    pub async fn join_retrying(&mut self, room: &str, as_: &str) -> Value {
        let started = tokio::time::Instant::now();
        while started.elapsed() < Duration::from_secs(30) {
            self.send(json!({"t":"join","room":room,"as":as_}));
            let answer = self
                .wait_up_to(Duration::from_secs(1), |v| {
                    v["room"] == room && (v["t"] == "state" || v["t"] == "error")
                })
                .await;
            match answer {
                Some(v) if v["t"] == "state" => return v,
                Some(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                None => {}
            }
        }
        panic!("{} could not join {room}", self.name);
    }

    /// Sends `mv` with request id `id` until it is acknowledged (a refusal, or no answer
    /// within `answer_within`, sends it again), for at most `limit`; the `moved`, if any.
    pub async fn move_until_acked(
        &mut self,
        room: &str,
        mv: &str,
        id: &str,
        answer_within: Duration,
        limit: Duration,
    ) -> Option<Value> {
        let started = tokio::time::Instant::now();
        while started.elapsed() < limit {
            self.send(json!({"t":"move","room":room,"move":mv,"id":id}));
            let answer = self
                .wait_up_to(answer_within, |v| {
                    (v["t"] == "moved" || v["t"] == "error") && v["id"] == id
                })
                .await;
            match answer {
                Some(v) if v["t"] == "moved" => return Some(v),
                Some(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                None => {}
            }
        }
        None
    }

    /// Looks past everything received so far: the next `wait_for` sees only what comes next.
    pub fn skip(&mut self) {
        self.cursor = self.seen.lock().unwrap().len();
    }

    /// Everything received so far.
    pub fn all(&self) -> Vec<Value> {
        self.seen.lock().unwrap().clone()
    }
}

/// The checker's one rule for what a client saw of `room`: the number of moves it was told
/// (a `state`'s moves, a `moved`'s ply) and the room's `seq` never go back. Returns every
/// step back found, described. The one repeat allowed is the protocol's answer to a resent
/// move id: the very `moved` this client was sent before, with the same id, ply and move,
/// which tells it nothing new (clients drop an event whose `seq` they have seen).
pub fn steps_back(seen: &[Value], room: &str) -> Vec<String> {
    let mut plies = 0u64;
    let mut seq = 0u64;
    let mut back = Vec::new();
    let mut acked = Vec::new();
    for (i, v) in seen.iter().enumerate().filter(|(_, v)| v["room"] == room) {
        if v["t"] == "moved" && v["id"].is_string() {
            let ack = (
                v["id"].clone(),
                v["ply"].clone(),
                v["move"].clone(),
                v["seq"].clone(),
            );
            if acked.contains(&ack) {
                continue;
            }
            acked.push(ack);
        }
        let told = match v["t"].as_str() {
            Some("state") => v["moves"].as_array().map(|m| m.len() as u64),
            Some("moved") => v["ply"].as_u64(),
            _ => None,
        };
        if let Some(told) = told {
            if told < plies {
                back.push(format!("message {i} tells {told} moves after {plies}: {v}"));
            }
            plies = plies.max(told);
        }
        if let Some(s) = v["seq"].as_u64() {
            if s < seq {
                back.push(format!("message {i} has seq {s} after {seq}: {v}"));
            }
            seq = seq.max(s);
        }
    }
    back
}

/// The checker over what `clients` saw of `rooms`: nobody saw the past, and every move told
/// is the one stored at its ply (one history, every acknowledged move stored).
pub fn one_history_stored(hall: &Hall, rooms: &[&str], clients: &[&Recorded]) {
    for room in rooms {
        let stored = hall.stored_moves(room);
        for client in clients {
            let seen = client.all();
            let back = steps_back(&seen, room);
            assert!(back.is_empty(), "{} saw the past: {back:#?}", client.name);
            for v in seen
                .iter()
                .filter(|v| v["t"] == "moved" && v["room"] == *room)
            {
                let ply = v["ply"].as_u64().unwrap() as usize;
                assert_eq!(
                    stored.split(',').nth(ply - 1),
                    v["move"].as_str(),
                    "{room}: {v} told {}, stored {stored}",
                    client.name
                );
            }
        }
    }
}

/// A TCP proxy on loopback to `upstream` that a test can cut (every connection through it
/// closed, new ones closed at once) and heal.
pub struct Proxy {
    pub port: u16,
    cut: Arc<AtomicBool>,
    links: Arc<Mutex<Vec<JoinHandle<()>>>>,
    accept: JoinHandle<()>,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }
}

impl Proxy {
    pub async fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the proxy");
        let port = listener.local_addr().unwrap().port();
        let cut = Arc::new(AtomicBool::new(false));
        let links: Arc<Mutex<Vec<JoinHandle<()>>>> = Arc::default();
        let (cut2, links2) = (cut.clone(), links.clone());
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if cut2.load(Ordering::SeqCst) {
                    continue;
                }
                let link = tokio::spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(("127.0.0.1", upstream)).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
                let mut links = links2.lock().unwrap();
                links.retain(|l| !l.is_finished());
                links.push(link);
            }
        });
        Proxy {
            port,
            cut,
            links,
            accept,
        }
    }

    /// Cuts the link: every connection through the proxy is closed, and so is every new one.
    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    /// Lets connections through again.
    pub fn heal(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}

/// Whether a message tells ply `ply` of `room`: the move itself, or a state of the room
/// with that many moves (sent to a member that joined it again, after a takeover too).
pub fn tells_ply(room: &str, ply: usize) -> impl Fn(&serde_json::Value) -> bool + '_ {
    move |v| {
        v["room"] == room
            && ((v["t"] == "moved" && v["ply"] == ply)
                || (v["t"] == "state" && v["moves"].as_array().is_some_and(|m| m.len() == ply)))
    }
}
