//! Shared helpers of the bot end-to-end tests: real `kibitz bot` and `kibitz serve`
//! processes behind guards that kill them when the test ends, and a scripted player that
//! plays a room to its end with legal moves from game-core, checking every move it sees.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use game_core::{AnyPosition, Color, GameSpec};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::support::{within, Client, BOT_KEY, WAIT};

/// The pace the test bots keep (`--pace-ms`): low, so that whole games fit in a test.
pub const TEST_PACE_MS: &str = "20";

/// The children's log level: errors only, unless `KIBITZ_TEST_LOG` asks for more (say
/// `KIBITZ_TEST_LOG=info` to see what the bots did in a failing test).
fn log_level() -> String {
    std::env::var("KIBITZ_TEST_LOG").unwrap_or_else(|_| "error".to_string())
}

/// A child process killed when the guard is dropped (the test ended or failed).
pub struct Guard {
    pub child: Child,
}

impl Guard {
    pub fn pid(&self) -> i32 {
        self.child.id().map_or(0, |id| id as i32)
    }

    /// SIGKILL, and wait until the process is gone.
    pub async fn kill(&mut self) {
        let _ = self.child.start_kill();
        let _ = within("the killed process to exit", self.child.wait()).await;
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// A `kibitz bot` process playing on `url` with the test bot key and the test pace.
pub struct BotProcess {
    pub guard: Guard,
    pub state: PathBuf,
    url: String,
    name: String,
    capacity: u32,
    pace_ms: String,
}

impl BotProcess {
    pub fn start(url: &str, name: &str, capacity: u32, state: &Path) -> BotProcess {
        Self::start_paced(url, name, capacity, state, TEST_PACE_MS)
    }

    /// With a chosen pace; `""` keeps the bot's natural one.
    pub fn start_paced(
        url: &str,
        name: &str,
        capacity: u32,
        state: &Path,
        pace_ms: &str,
    ) -> BotProcess {
        BotProcess {
            guard: spawn_bot(url, name, capacity, state, pace_ms),
            state: state.to_path_buf(),
            url: url.to_string(),
            name: name.to_string(),
            capacity,
            pace_ms: pace_ms.to_string(),
        }
    }

    /// SIGKILL, then the same command again (same state file).
    pub async fn restart(&mut self) {
        self.guard.kill().await;
        self.guard = spawn_bot(
            &self.url,
            &self.name,
            self.capacity,
            &self.state,
            &self.pace_ms,
        );
    }
}

/// `kibitz bot` on `url` as `name`, with the test bot key, quiet on standard output.
fn bot_command(url: &str, name: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kibitz"));
    cmd.args(["bot", "--server", url, "--name", name])
        // The key through the environment, as `kibitz up` passes it.
        .env("KIBITZ_BOT_KEY", BOT_KEY)
        .env("RUST_LOG", log_level())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    cmd
}

fn spawn_bot(url: &str, name: &str, capacity: u32, state: &Path, pace_ms: &str) -> Guard {
    let mut cmd = bot_command(url, name);
    cmd.arg("--capacity")
        .arg(capacity.to_string())
        .arg("--state")
        .arg(state);
    if !pace_ms.is_empty() {
        cmd.args(["--pace-ms", pace_ms]);
    }
    Guard {
        child: cmd.spawn().expect("start kibitz bot"),
    }
}

/// A `kibitz bot` process whose moves come from `engine`, a command line speaking `protocol`
/// (`kibitz bot --engine … --protocol …`), with the test pace.
pub fn spawn_engine_bot(url: &str, name: &str, engine: &str, protocol: &str) -> Guard {
    let mut cmd = bot_command(url, name);
    cmd.args(["--pace-ms", TEST_PACE_MS])
        .args(["--engine", engine, "--protocol", protocol]);
    Guard {
        child: cmd.spawn().expect("start kibitz bot"),
    }
}

/// A `kibitz serve` process and the address it printed.
pub struct ServeProcess {
    pub guard: Guard,
    pub addr: String,
}

impl ServeProcess {
    /// Starts `kibitz serve` on `bind` (`127.0.0.1:0` for a free port) over `data`.
    pub async fn start(bind: &str, data: &Path) -> ServeProcess {
        let (guard, addr) =
            spawn_listening(&["serve", "--bind", bind, "--bot-key", BOT_KEY], data).await;
        ServeProcess { guard, addr }
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }
}

/// Starts `kibitz <args> --data <data>` and waits for its `Kibitz is listening on` line;
/// returns the guard and the address. Its stdout is drained in the background.
pub async fn spawn_listening(args: &[&str], data: &Path) -> (Guard, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(args)
        .arg("--data")
        .arg(data)
        .env("RUST_LOG", log_level())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("start kibitz");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = within("the listening line", async {
        while let Some(line) = lines.next_line().await.expect("read stdout") {
            if let Some(rest) = line.strip_prefix("Kibitz is listening on http://") {
                return rest.split('/').next().unwrap_or_default().to_string();
            }
        }
        panic!("kibitz ended without listening");
    })
    .await;
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (Guard { child }, addr)
}

/// A small deterministic generator, so that a failing game can be replayed.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }

    /// A random legal move (never the Othello pass: the server plays that itself).
    pub fn pick(&mut self, pos: &AnyPosition) -> String {
        let moves: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m != "pass")
            .collect();
        assert!(!moves.is_empty(), "no move to pick in {pos:?}");
        moves[self.below(moves.len())].clone()
    }
}

/// A room followed move by move from a `state`: every `moved` must extend it legally.
pub struct Follow {
    pub room: String,
    pub spec: GameSpec,
    pub pos: AnyPosition,
    pub seq: u64,
    pub opening: Vec<String>,
    pub moves: Vec<String>,
}

impl Follow {
    pub fn from_state(state: &Value) -> Follow {
        let spec: GameSpec = serde_json::from_value(state["game"].clone()).expect("game spec");
        let opening: Vec<String> = strings(&state["opening"]);
        let moves: Vec<String> = strings(&state["moves"]);
        let all: Vec<&String> = opening.iter().chain(moves.iter()).collect();
        let pos = AnyPosition::with_moves(&spec, &all).expect("the state's moves are legal");
        Follow {
            room: state["room"].as_str().expect("room").to_string(),
            spec,
            pos,
            seq: state["seq"].as_u64().expect("seq"),
            opening,
            moves,
        }
    }

    /// Applies a `moved` of this room: it must be the next event and a legal move.
    pub fn moved(&mut self, v: &Value) {
        assert_eq!(v["seq"].as_u64(), Some(self.seq + 1), "a gap before {v}");
        self.seq += 1;
        let mv = v["move"].as_str().expect("move");
        let by = v["by"].as_str().expect("by");
        assert_eq!(by, color_name(self.pos.turn()), "{v} by the wrong side");
        if let Err(e) = self.pos.play_str(mv) {
            panic!(
                "illegal move {mv} in {}: {e} (moves {:?})",
                self.room, self.moves
            );
        }
        self.moves.push(mv.to_string());
        assert_eq!(v["ply"].as_u64(), Some(self.moves.len() as u64), "{v}");
    }

    /// Takes the number of an event that is not a move (`over`, a chat line, an offer).
    pub fn numbered(&mut self, v: &Value) {
        let seq = v["seq"].as_u64().expect("seq");
        assert!(
            seq == self.seq + 1 || (seq == self.seq && v["t"] == "chat"),
            "a gap before {v} (at {})",
            self.seq
        );
        self.seq = seq;
    }

    /// Applies an `undone`: the game goes back to its first `ply` moves.
    pub fn undone(&mut self, v: &Value) {
        self.numbered(v);
        let ply = v["ply"].as_u64().expect("ply") as usize;
        assert!(ply <= self.moves.len(), "{v}");
        self.moves.truncate(ply);
        let all: Vec<&String> = self.opening.iter().chain(self.moves.iter()).collect();
        self.pos = AnyPosition::with_moves(&self.spec, &all).expect("legal before the undo");
    }

    /// Checks an `over` ending on the board against game-core's outcome.
    pub fn check_board_result(&self, over: &Value) {
        let outcome = self
            .pos
            .outcome()
            .unwrap_or_else(|| panic!("{over} but the position is not over: {:?}", self.moves));
        let result = outcome.winner.map_or("draw", color_name);
        assert_eq!(over["result"], result, "{over}");
        assert_eq!(
            over["reason"],
            serde_json::to_value(outcome.reason).unwrap(),
            "{over}"
        );
    }
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A scripted player in a seat: follows the room, answers its turns with `choose`, and
/// keeps what the opponent said.
pub struct Seat {
    pub me: String,
    pub follow: Follow,
    /// The opponent's chat lines, in order (the bot's, in a game against a bot).
    pub their_chat: Vec<String>,
    asked_for: Option<usize>,
}

impl Seat {
    /// From the client's latest `state` of the room.
    pub fn new(state: &Value) -> Seat {
        Seat {
            me: state["you"].as_str().expect("seated").to_string(),
            follow: Follow::from_state(state),
            their_chat: Vec::new(),
            asked_for: None,
        }
    }

    fn my_turn(&self) -> bool {
        let pos = &self.follow.pos;
        !pos.is_over() && color_name(pos.turn()) == self.me && !pos.must_pass()
    }

    /// Plays until the game ends (returns its `over`) or, on our turn, until `pause` holds
    /// (returns `None`, nothing of ours in flight).
    pub async fn play(
        &mut self,
        c: &mut Client,
        mut choose: impl FnMut(&AnyPosition) -> String,
        pause: impl Fn(&Follow) -> bool,
    ) -> Option<Value> {
        static SENT: AtomicU64 = AtomicU64::new(0);
        let room = self.follow.room.clone();
        loop {
            if self.my_turn() && self.asked_for != Some(self.follow.moves.len()) {
                if pause(&self.follow) {
                    return None;
                }
                self.asked_for = Some(self.follow.moves.len());
                let mv = choose(&self.follow.pos);
                // Ids unique in the process: a ply may be played again after an undo.
                let id = format!("seat-{}", SENT.fetch_add(1, Ordering::Relaxed));
                c.send(json!({"t":"move","room":room,"move":mv,"id":id}))
                    .await;
            }
            let v = c
                .expect_where(|v| v["room"] == room.as_str() || v["t"] == "error")
                .await;
            match v["t"].as_str() {
                Some("moved") => self.follow.moved(&v),
                Some("over") => {
                    self.follow.numbered(&v);
                    return Some(v);
                }
                Some("chat") => {
                    self.follow.numbered(&v);
                    if v["seat"].is_string() && v["seat"] != self.me.as_str() {
                        self.their_chat
                            .push(v["text"].as_str().unwrap_or_default().to_string());
                    }
                }
                Some("undo_offer" | "draw_offer") => self.follow.numbered(&v),
                Some("undone") => self.undone(&v),
                Some("error") => panic!("refused: {v}"),
                _ => {}
            }
        }
    }

    /// Applies an `undone`: our turn may come again at a ply we already played.
    pub fn undone(&mut self, v: &Value) {
        self.follow.undone(v);
        self.asked_for = None;
    }

    /// Waits for the opponent's "gg" after the end (unless it came already).
    pub async fn goodbye(&mut self, c: &mut Client) {
        let room = self.follow.room.clone();
        while !self.their_chat.iter().any(|l| l.starts_with("gg")) {
            let line = c
                .expect_where(|v| v["t"] == "chat" && v["room"] == room.as_str())
                .await;
            if line["seat"].is_string() && line["seat"] != self.me.as_str() {
                self.their_chat
                    .push(line["text"].as_str().unwrap_or_default().to_string());
            }
        }
    }
}

/// What a scripted player saw of a game it played to the end.
pub struct Played {
    pub over: Value,
    pub follow: Follow,
    pub their_chat: Vec<String>,
}

/// Plays `room` as the seated client `c` to the end, from its latest `state`; `choose` picks
/// the client's moves. Every `moved` is checked against game-core. Waits for the opponent's
/// "gg" after `over`.
pub async fn play_to_end(
    c: &mut Client,
    state: &Value,
    choose: impl FnMut(&AnyPosition) -> String,
) -> Played {
    let mut seat = Seat::new(state);
    let over = seat
        .play(c, choose, |_| false)
        .await
        .expect("played to the end");
    seat.goodbye(c).await;
    Played {
        over,
        follow: seat.follow,
        their_chat: seat.their_chat,
    }
}

/// Creates a room with the bot on `bot_seat`, retrying while no bot is connected yet;
/// returns the room id.
pub async fn create_with_bot(
    c: &mut Client,
    game: &Value,
    my_seat: &str,
    bot_seat: &str,
    level: u8,
    clock: Value,
) -> String {
    let create = json!({"t":"create","game":game,"seat":my_seat,"clock":clock,
        "bots":{bot_seat: level}});
    create_with_bot_as(c, &create).await
}

/// Sends `create` (which invites a bot), again while no bot is connected yet; returns the
/// room id.
pub async fn create_with_bot_as(c: &mut Client, create: &Value) -> String {
    let started = Instant::now();
    loop {
        c.send(create.clone()).await;
        let room = c.expect("created").await["room"]
            .as_str()
            .unwrap()
            .to_string();
        // The bot joins (a `state` with both seats) or none is there yet.
        let v = c
            .expect_where(|v| {
                (v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing")
                    || (v["t"] == "error" && v["code"] == "no_bot_available")
            })
            .await;
        if v["t"] == "state" {
            c.backlog.insert(0, v);
            return room;
        }
        assert!(
            started.elapsed() < WAIT,
            "the bot never connected: no_bot_available"
        );
        c.send(json!({"t":"leave","room":room})).await;
        // A bot that is starting connects within moments; wait for the lobby to show it.
        c.send(json!({"t":"lobby"})).await;
        c.expect_where(|v| {
            v["t"] == "lobby" && v["bots"].as_array().is_some_and(|b| !b.is_empty())
        })
        .await;
        c.send(json!({"t":"unlobby"})).await;
    }
}
