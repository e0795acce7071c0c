//! The games of the crash drills: players that survive their node (reconnecting to the next
//! one with their tokens), the acknowledged moves they record, a game played through kills and
//! outages, and the check that every acknowledged move is stored.

use std::collections::{BTreeSet, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::postgres::PgServer;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::sync::{watch, Notify};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub const GAMES: usize = 50;
/// Plies each game plays; far apart, no five.
pub const MOVES: [&str; 12] = [
    "a1", "a15", "c1", "c15", "e1", "e15", "g1", "g15", "i1", "i15", "k1", "k15",
];
/// How long a client waits before asking again after a refusal (as a real client backs off).
pub const RETRY_AFTER: Duration = Duration::from_millis(250);
/// How long a game may take, outages and takeovers included.
pub const GAME_WITHIN: Duration = Duration::from_secs(60);
/// How long a move request waits for its answer before it is sent again.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(3);
/// Where a game waits, if it gets there first, until the drill has struck.
pub const HALFWAY: u64 = 6;
/// How many of the last refusals and rejoins a stuck game tells.
pub const TRAIL: usize = 12;
/// Acknowledged moves, over all games, before the owner is killed.
pub const MOVES_BEFORE_KILL: usize = GAMES * 4;

/// One acknowledged move: room, ply, move.
pub type Ack = (String, u64, String);

/// What a game's players last met (refusals, reconnections, joins), told when it is stuck.
#[derive(Clone, Default)]
pub struct Trail(Arc<Mutex<VecDeque<String>>>);

impl Trail {
    /// Adds a line, dropping the oldest past [`TRAIL`].
    pub fn note(&self, line: String) {
        let mut lines = self.0.lock().unwrap();
        if lines.len() == TRAIL {
            lines.pop_front();
        }
        lines.push_back(line);
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().iter().cloned().collect()
    }
}

/// A player that survives its node: on a dropped connection it reconnects to the next node
/// with its token.
pub struct Player {
    pub name: &'static str,
    pub ws: Ws,
    pub token: String,
    /// The plies whose `moved` this player heard.
    pub heard: BTreeSet<u64>,
    pub trail: Trail,
}

/// The next JSON message; `None` once the connection is gone.
pub async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => return serde_json::from_str(&t).ok(),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Sends a message; false once the connection is gone.
pub async fn send(ws: &mut Ws, v: &Value) -> bool {
    ws.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// Connects to `url` and says hello (with `token`, if any); the socket and the token.
pub async fn hello(url: &str, name: &str, token: Option<&str>) -> Option<(Ws, String)> {
    let (mut ws, _) = connect_async(url).await.ok()?;
    let mut msg = json!({"t":"hello","name":name});
    if let Some(token) = token {
        msg["token"] = json!(token);
    }
    if !send(&mut ws, &msg).await {
        return None;
    }
    loop {
        let v = next(&mut ws).await?;
        if v["t"] == "welcome" {
            return Some((ws, v["token"].as_str()?.to_string()));
        }
        if v["t"] == "error" {
            return None;
        }
    }
}

/// How a move request ended.
pub enum Sent {
    Moved(Value),
    /// Refused for now (the room's node, Redis or the store is out of reach), or no answer
    /// in time: try again. Why, for a stuck game's trail.
    Again(String),
    /// Refused: the game is elsewhere than the client thought (its move was stored before
    /// the connection dropped, say): read the state again. The refusal's message.
    Resync(String),
    Dropped,
}

impl Player {
    pub async fn try_move(&mut self, room: &str, mv: &str, id: &str, acks: &Recorder) -> Sent {
        let msg = json!({"t":"move","room":room,"move":mv,"id":id});
        if !send(&mut self.ws, &msg).await {
            return Sent::Dropped;
        }
        // A request the dead node took and never answered is sent again (same id: a move
        // already made is answered, not made twice).
        tokio::time::timeout(ANSWER_WITHIN, self.answer(room, id, acks))
            .await
            .unwrap_or_else(|_| Sent::Again(format!("no answer within {ANSWER_WITHIN:?}")))
    }

    /// A state of `room` (sent again when the room moved, or when this player's node heard
    /// the bus again after missing some of it) tells the player every move up to it.
    pub fn heard_in_state(&mut self, room: &str, v: &Value) {
        if v["t"] == "state" && v["room"] == room {
            let plies = v["moves"].as_array().map_or(0, Vec::len) as u64;
            self.heard.extend(1..=plies);
        }
    }

    /// Reads until this player has heard ply `ply` of `room`; false if it does not within
    /// `ANSWER_WITHIN`.
    pub async fn hears(&mut self, room: &str, ply: u64) -> bool {
        tokio::time::timeout(ANSWER_WITHIN, async {
            while !self.heard.contains(&ply) {
                let Some(v) = next(&mut self.ws).await else {
                    return;
                };
                if v["t"] == "moved" && v["room"] == room {
                    self.heard.insert(v["ply"].as_u64().unwrap_or(0));
                }
                self.heard_in_state(room, &v);
            }
        })
        .await
        .is_ok()
            && self.heard.contains(&ply)
    }

    pub async fn answer(&mut self, room: &str, id: &str, acks: &Recorder) -> Sent {
        loop {
            let Some(v) = next(&mut self.ws).await else {
                return Sent::Dropped;
            };
            if v["t"] == "moved" && v["room"] == room {
                acks.saw(room, &v);
                self.heard.insert(v["ply"].as_u64().unwrap_or(0));
                if v["id"] == id {
                    return Sent::Moved(v);
                }
            }
            self.heard_in_state(room, &v);
            if v["t"] == "error" && v["id"] == id {
                let message = v["message"].as_str().unwrap_or_default().to_string();
                // "cannot be reached; try again", "could not be stored; try again"
                return if message.contains("try again") {
                    Sent::Again(message)
                } else {
                    Sent::Resync(message)
                };
            }
        }
    }

    /// Joins `room` as its player on `url` (reconnecting first when `fresh`); the state.
    /// Retries while the room's node cannot be reached.
    pub async fn rejoin(&mut self, url: &str, room: &str, mut fresh: bool) -> Value {
        tokio::time::timeout(GAME_WITHIN, async {
            loop {
                if fresh {
                    self.trail.note(format!("{}: hello again", self.name));
                    let Some((ws, token)) = hello(url, self.name, Some(&self.token)).await else {
                        self.trail
                            .note(format!("{}: hello refused or dropped", self.name));
                        tokio::time::sleep(RETRY_AFTER).await;
                        continue;
                    };
                    self.ws = ws;
                    self.token = token;
                    fresh = false;
                }
                let join = json!({"t":"join","room":room,"as":"player"});
                self.trail.note(format!("{}: join", self.name));
                if !send(&mut self.ws, &join).await {
                    // The connection is gone: a new one, to the node given.
                    fresh = true;
                    continue;
                }
                loop {
                    let Some(v) = next(&mut self.ws).await else {
                        fresh = true;
                        break;
                    };
                    if v["t"] == "state" && v["room"] == room {
                        return v;
                    }
                    if v["t"] == "error" && v["ref"] == "join" {
                        self.trail
                            .note(format!("{}: join refused: {}", self.name, v["message"]));
                        // Not yet taken over (the dead node's lease lives), or a server out
                        // of reach: ask again a little later.
                        tokio::time::sleep(RETRY_AFTER).await;
                        break;
                    }
                }
            }
        })
        .await
        .expect("a rejoin within the game's time")
    }
}

/// Every move anyone saw acknowledged.
#[derive(Clone, Default)]
pub struct Recorder {
    pub seen: Arc<Mutex<BTreeSet<Ack>>>,
    pub count: Arc<AtomicUsize>,
    pub changed: Arc<Notify>,
}

impl Recorder {
    pub fn saw(&self, room: &str, moved: &Value) {
        let ack = (
            room.to_string(),
            moved["ply"].as_u64().unwrap_or(0),
            moved["move"].as_str().unwrap_or_default().to_string(),
        );
        if self.seen.lock().unwrap().insert(ack) {
            self.count.fetch_add(1, Ordering::SeqCst);
            self.changed.notify_waiters();
        }
    }
}

/// What a game's players found once the room was taken over.
pub struct Resumed {
    pub room: String,
    /// The clock of the side not running, in the first state after the takeover, and its
    /// reading in the last `moved` before it.
    pub clock_check: Option<(u64, u64)>,
    /// Each player heard the other's last move.
    pub heard_the_end: bool,
}

/// One timed game: black on the first node (which owns the room), white on the second; each
/// moves in turn until the game is 12 plies long, riding out the first node's death.
pub async fn play(
    i: usize,
    urls: [String; 2],
    acks: Recorder,
    mut go_on: watch::Receiver<bool>,
) -> Resumed {
    // What the players last met, told when the game is stuck.
    let trail = Trail::default();
    let (ws, token) = hello(&urls[0], "Black", None).await.expect("black's hello");
    let mut black = Player {
        name: "Black",
        ws,
        token,
        heard: BTreeSet::new(),
        trail: trail.clone(),
    };
    let create = json!({"t":"create","game":{"kind":"gomoku","size":15},"seat":"black",
        "clock":{"initial_ms":600_000,"increment_ms":1000}});
    assert!(send(&mut black.ws, &create).await);
    let room = loop {
        let v = next(&mut black.ws).await.expect("created");
        if v["t"] == "created" {
            break v["room"].as_str().unwrap().to_string();
        }
    };
    let (ws, token) = hello(&urls[1], "White", None).await.expect("white's hello");
    let mut white = Player {
        name: "White",
        ws,
        token,
        heard: BTreeSet::new(),
        trail: trail.clone(),
    };
    white.rejoin(&urls[1], &room, false).await;
    let mut ply = 0u64;
    let mut last_clock = Value::Null;
    let mut last_clock_ply = 0u64;
    let mut clock_check = None;
    let game = async {
        while ply < MOVES.len() as u64 {
            if ply == HALFWAY {
                // Every game is still going when the drill strikes.
                let _ = go_on.wait_for(|go| *go).await;
            }
            let black_moves = ply.is_multiple_of(2);
            let player = if black_moves { &mut black } else { &mut white };
            let id = format!("g{i}-{ply}");
            let mv = MOVES[usize::try_from(ply).unwrap()];
            let who = player.name;
            match player.try_move(&room, mv, &id, &acks).await {
                Sent::Moved(v) => {
                    ply = v["ply"].as_u64().unwrap();
                    last_clock = v["clock"].clone();
                    last_clock_ply = ply;
                }
                Sent::Again(why) => {
                    trail.note(format!("{who} {mv}: again ({why})"));
                    tokio::time::sleep(RETRY_AFTER).await;
                }
                sent @ (Sent::Resync(_) | Sent::Dropped) => {
                    // A player whose node is gone goes to the other one; others ask again.
                    let fresh = matches!(sent, Sent::Dropped);
                    trail.note(match sent {
                        Sent::Resync(why) => format!("{who} {mv}: refused ({why})"),
                        _ => format!("{who} {mv}: connection dropped"),
                    });
                    let st = player.rejoin(&urls[1], &room, fresh).await;
                    player.heard_in_state(&room, &st);
                    ply = st["moves"].as_array().unwrap().len() as u64;
                    trail.note(format!(
                        "{who} rejoined (fresh: {fresh}): {ply} moves, to move {}, you {}, status {}",
                        st["to_move"], st["you"], st["status"]
                    ));
                    if clock_check.is_none() && !last_clock.is_null() {
                        let idle = match st["clock"]["running"].as_str() {
                            Some("black") => "white_ms",
                            _ => "black_ms",
                        };
                        // Only when no move was stored after the last one acknowledged.
                        if ply == last_clock_ply {
                            clock_check = Some((
                                st["clock"][idle].as_u64().unwrap(),
                                last_clock[idle].as_u64().unwrap(),
                            ));
                        }
                    }
                }
            }
        }
    };
    let ended = tokio::time::timeout(GAME_WITHIN, game).await.is_ok();
    assert!(
        ended,
        "game {i} (room {room}) stuck at ply {ply} for {GAME_WITHIN:?}; last met: {:#?}",
        trail.lines()
    );
    // Each player hears the other's last move: both are members of the room wherever it
    // went on (white the one before the end, black the end).
    let last = MOVES.len() as u64;
    let heard_the_end = black.hears(&room, last).await && white.hears(&room, last - 1).await;
    Resumed {
        room,
        clock_check,
        heard_the_end,
    }
}

/// Every move anyone saw acknowledged is in PostgreSQL, at its ply, and every game went on to
/// its end.
pub fn all_stored(pg: &PgServer, store: &str, games: &[Resumed], acks: &Recorder) {
    let seen = acks.seen.lock().unwrap().clone();
    for r in games {
        let rows = pg.psql(
            store,
            &format!(
                "SELECT ply || ':' || mv FROM moves WHERE room = '{}' ORDER BY ply",
                r.room
            ),
        );
        let stored: BTreeSet<Ack> = rows
            .lines()
            .map(|l| {
                let (ply, mv) = l.split_once(':').unwrap();
                (
                    r.room.clone(),
                    ply.parse::<u64>().unwrap() + 1,
                    mv.to_string(),
                )
            })
            .collect();
        assert_eq!(
            stored.len(),
            MOVES.len(),
            "game {} has all its moves",
            r.room
        );
        for ack in seen.iter().filter(|a| a.0 == r.room) {
            assert!(
                stored.contains(ack),
                "acknowledged {ack:?} is stored: {stored:?}"
            );
        }
    }
}
