//! The bot as a client of the public protocol: it says `hello` with the bot key, accepts
//! invitations up to its capacity, joins rooms and plays every game it is seated in — each
//! search on a blocking thread with a deadline from the clock, so the connection keeps
//! answering pings while it thinks — chats like a player, and reconnects with backoff,
//! resuming its identity and its games from a small state file.

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use game_core::protocol::{
    parse_server, BotHello, ClientMsg, ClockSpec, ClockState, ErrorCode, JoinAs, ResultKind,
    RoomStatus, ServerMsg,
};
use game_core::{AnyPosition, Color, GameKind, GameSpec};

use crate::engine::{Engine, Level, Limits, Score, SearchResult, StopFlag};
use crate::talk::Talk;

/// Makes a fresh engine for a game (each room keeps its own, with its own TT).
pub type EngineFactory = Arc<dyn Fn(GameKind) -> Option<Box<dyn Engine>> + Send + Sync>;

/// How long to think in an untimed game at a level.
pub type ThinkTime = Arc<dyn Fn(GameKind, Level) -> Duration + Send + Sync>;

/// What the bot needs to run.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// `ws://host:port/ws`
    pub server: String,
    pub key: String,
    pub name: String,
    pub capacity: u32,
    pub games: Vec<GameKind>,
    /// Where the token and the rooms in play are kept across restarts.
    pub state_file: Option<PathBuf>,
    /// Shortest time from the bot's turn to its move, for every game; `None` keeps the
    /// natural pace ([`pace`]). Tests set it near zero to play whole games quickly.
    pub pace: Option<Duration>,
}

/// What survives a restart of the bot.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BotState {
    pub token: Option<String>,
    /// Rooms the bot sits in, with the level and clock it was invited with.
    pub rooms: HashMap<String, RoomMemo>,
}

/// What the bot remembers of a room it plays in.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoomMemo {
    pub level: u8,
    pub clock: Option<ClockSpec>,
}

impl BotState {
    fn load(path: Option<&PathBuf>) -> BotState {
        path.and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    fn save(&self, path: Option<&PathBuf>) {
        let Some(path) = path else { return };
        let Ok(text) = serde_json::to_string_pretty(self) else {
            return;
        };
        // Write then rename, so a crash never leaves half a file.
        let tmp = path.with_extension("tmp");
        if std::fs::write(&tmp, text).is_ok() {
            if let Err(e) = std::fs::rename(&tmp, path) {
                tracing::warn!(error = %e, "cannot save bot state");
            }
        }
    }
}

/// One game the bot plays.
struct Table {
    spec: GameSpec,
    opening: Vec<String>,
    moves: Vec<String>,
    status: RoomStatus,
    you: Option<Color>,
    to_move: Color,
    clock: Option<ClockState>,
    clock_at: Instant,
    memo: RoomMemo,
    seq: u64,
    /// The ply being searched, and how to stop it.
    thinking: Option<(usize, StopFlag)>,
    engine: Arc<Mutex<Option<Box<dyn Engine>>>>,
    talk: Talk,
    greeted: bool,
    last_score: Option<Score>,
    /// Both seats are bots: a game people watch, so moves come at a watchable pace.
    bots_only: bool,
}

/// Shortest time between the bot's turn and its move: a game between bots is for watching,
/// and an instant reply to a person feels mechanical. Never more than half the move's budget.
/// A pace `chosen` by the operator (`--pace-ms`) replaces both.
fn pace(bots_only: bool, chosen: Option<Duration>) -> Duration {
    if let Some(pace) = chosen {
        pace
    } else if bots_only {
        Duration::from_millis(900)
    } else {
        Duration::from_millis(250)
    }
}

/// The cells a game can fill (Othello's four starting discs are not moves).
fn cells(spec: &GameSpec) -> usize {
    match spec {
        GameSpec::Gomoku { size, .. } => (*size as usize).pow(2),
        GameSpec::Othello => 60,
        GameSpec::Connect4 {
            cols,
            rows,
            blocked,
        } => (*cols as usize * *rows as usize).saturating_sub(blocked.len()),
    }
}

/// A finished search.
struct Thought {
    room: String,
    ply: usize,
    result: Option<SearchResult>,
}

/// Runs the bot until `shutdown` completes, reconnecting with backoff whenever the connection
/// drops or the server restarts.
pub async fn run(
    options: BotOptions,
    engines: EngineFactory,
    think_time: ThinkTime,
    shutdown: impl Future<Output = ()>,
) {
    let mut state = BotState::load(options.state_file.as_ref());
    tokio::pin!(shutdown);
    const FIRST_BACKOFF: Duration = Duration::from_millis(250);
    let mut backoff = FIRST_BACKOFF;
    loop {
        let mut welcomed = false;
        let session = session(&options, &engines, &think_time, &mut state, &mut welcomed);
        tokio::select! {
            outcome = session => {
                match outcome {
                    Ok(()) => tracing::info!("connection closed; reconnecting"),
                    Err(e) => tracing::warn!(error = %e, "connection failed; reconnecting"),
                }
            }
            () = &mut shutdown => return,
        }
        if welcomed {
            // The server was there: a restart of it is likely over in a moment, so start
            // the backoff again from the beginning.
            backoff = FIRST_BACKOFF;
        }
        // Jitter keeps many bots from reconnecting in lockstep.
        let jitter = Duration::from_millis(rand::random::<u64>() % 250);
        tokio::select! {
            () = tokio::time::sleep(backoff + jitter) => {}
            () = &mut shutdown => return,
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, msg: &ClientMsg) -> Result<(), String> {
    ws.send(Message::Text(msg.to_json().into()))
        .await
        .map_err(|e| e.to_string())
}

/// One connection, from `hello` to its end.
async fn session(
    options: &BotOptions,
    engines: &EngineFactory,
    think_time: &ThinkTime,
    state: &mut BotState,
    welcomed: &mut bool,
) -> Result<(), String> {
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(options.server.as_str(), None, true)
            .await
            .map_err(|e| e.to_string())?;
    let hello = |token: Option<String>| ClientMsg::Hello {
        name: options.name.clone(),
        token,
        bot: Some(BotHello {
            key: options.key.clone(),
            games: options.games.clone(),
            capacity: options.capacity,
        }),
    };
    send(&mut ws, &hello(state.token.clone())).await?;
    let (thoughts_tx, mut thoughts) = mpsc::unbounded_channel::<Thought>();
    let mut tables: HashMap<String, Table> = HashMap::new();
    let mut me = String::new();
    loop {
        tokio::select! {
            frame = ws.next() => {
                let text = match frame {
                    None => return Ok(()),
                    Some(Err(e)) => return Err(e.to_string()),
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) => return Ok(()),
                    Some(Ok(_)) => continue,
                };
                let Ok(msg) = parse_server(&text) else {
                    tracing::debug!(%text, "unreadable server message");
                    continue;
                };
                let mut bot = Bot { options, engines, think_time, state, tables: &mut tables, me: &mut me, thoughts: &thoughts_tx, out: Vec::new() };
                bot.on_message(msg);
                let out = std::mem::take(&mut bot.out);
                *welcomed = !me.is_empty();
                for m in out {
                    if let Some(m) = m {
                        send(&mut ws, &m).await?;
                    } else {
                        // A stale token (the server's store was reset): start a new identity.
                        state.token = None;
                        send(&mut ws, &hello(None)).await?;
                    }
                }
            }
            Some(thought) = thoughts.recv() => {
                let mut bot = Bot { options, engines, think_time, state, tables: &mut tables, me: &mut me, thoughts: &thoughts_tx, out: Vec::new() };
                bot.on_thought(thought);
                let out = std::mem::take(&mut bot.out);
                for m in out.into_iter().flatten() {
                    send(&mut ws, &m).await?;
                }
            }
        }
    }
}

/// The bot's reactions; collects messages to send (`None` asks for a fresh `hello`).
struct Bot<'a> {
    options: &'a BotOptions,
    engines: &'a EngineFactory,
    think_time: &'a ThinkTime,
    state: &'a mut BotState,
    tables: &'a mut HashMap<String, Table>,
    me: &'a mut String,
    thoughts: &'a mpsc::UnboundedSender<Thought>,
    out: Vec<Option<ClientMsg>>,
}

impl Bot<'_> {
    fn send(&mut self, msg: ClientMsg) {
        self.out.push(Some(msg));
    }

    fn save(&self) {
        self.state.save(self.options.state_file.as_ref());
    }

    fn busy(&self) -> usize {
        self.state.rooms.len()
    }

    fn on_message(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { player, token, .. } => {
                tracing::info!(%player, "welcome");
                *self.me = player;
                self.state.token = Some(token);
                self.save();
                let rooms: Vec<String> = self.state.rooms.keys().cloned().collect();
                for room in rooms {
                    self.send(ClientMsg::Join {
                        room,
                        join_as: JoinAs::Player,
                    });
                }
            }
            ServerMsg::Invite {
                room,
                game,
                level,
                clock,
                ..
            } => {
                let plays = self.options.games.contains(&game.kind());
                let known = self.state.rooms.contains_key(&room);
                if known || (plays && self.busy() < self.options.capacity as usize) {
                    self.state
                        .rooms
                        .insert(room.clone(), RoomMemo { level, clock });
                    self.save();
                    self.send(ClientMsg::Join {
                        room,
                        join_as: JoinAs::Player,
                    });
                } else {
                    self.send(ClientMsg::Decline { room });
                }
            }
            ServerMsg::State(s) => {
                if s.you.is_none() {
                    // Not (or no longer) seated here: forget the room.
                    if self.state.rooms.remove(&s.room).is_some() {
                        self.save();
                    }
                    self.tables.remove(&s.room);
                    self.send(ClientMsg::Leave { room: s.room });
                    return;
                }
                let memo = self.state.rooms.get(&s.room).cloned().unwrap_or(RoomMemo {
                    level: 5,
                    clock: None,
                });
                let room = s.room.clone();
                let table = self.tables.entry(room.clone()).or_insert_with(|| Table {
                    spec: s.game.clone(),
                    opening: Vec::new(),
                    moves: Vec::new(),
                    status: s.status,
                    you: s.you,
                    to_move: s.to_move,
                    clock: None,
                    clock_at: Instant::now(),
                    memo,
                    seq: 0,
                    thinking: None,
                    engine: Arc::new(Mutex::new(None)),
                    talk: Talk::default(),
                    greeted: false,
                    last_score: None,
                    bots_only: false,
                });
                table.bots_only = s.seats.black.as_ref().is_some_and(|p| p.bot)
                    && s.seats.white.as_ref().is_some_and(|p| p.bot);
                if let Some((_, stop)) = table.thinking.take() {
                    stop.stop();
                }
                table.spec = s.game;
                table.opening = s.opening;
                table.moves = s.moves;
                table.status = s.status;
                table.you = s.you;
                table.to_move = s.to_move;
                table.clock = s.clock;
                table.clock_at = Instant::now();
                table.seq = s.seq;
                if s.control.is_some() {
                    // The room's own word on its time control beats what the invitation
                    // said (or a memo lost with the state file).
                    table.memo.clock = s.control;
                }
                if s.status == RoomStatus::Over {
                    self.finished(&room, None);
                    return;
                }
                if s.status == RoomStatus::Playing && !table.greeted {
                    table.greeted = true;
                    let level = table.memo.level;
                    if table.moves.is_empty() {
                        if let Some(line) = table.talk.greeting(&self.options.name, level) {
                            self.send(ClientMsg::Chat {
                                room: room.clone(),
                                text: line,
                            });
                        }
                    }
                }
                self.think(&room);
            }
            ServerMsg::Moved {
                room,
                seq,
                mv,
                to_move,
                clock,
                ply,
                ..
            } => {
                let Some(table) = self.tables.get_mut(&room) else {
                    return;
                };
                if seq != table.seq + 1 || ply as usize != table.moves.len() + 1 {
                    // Missed something: ask for the room again.
                    self.send(ClientMsg::Join {
                        room,
                        join_as: JoinAs::Player,
                    });
                    return;
                }
                table.seq = seq;
                table.moves.push(mv);
                table.to_move = to_move;
                table.clock = clock;
                table.clock_at = Instant::now();
                self.think(&room);
            }
            ServerMsg::Over { room, seq, result } => {
                if let Some(table) = self.tables.get_mut(&room) {
                    table.seq = seq;
                    table.status = RoomStatus::Over;
                }
                self.finished(&room, Some(result.result));
            }
            ServerMsg::UndoOffer { room, seq, by } => {
                let Some(table) = self.tables.get_mut(&room) else {
                    return;
                };
                table.seq = seq;
                if Some(by) != table.you {
                    // Take-backs are fine in untimed games; with a clock running they are not.
                    let accept = table.clock.is_none();
                    self.send(ClientMsg::UndoReply { room, accept });
                }
            }
            ServerMsg::Undone { room, seq, ply } => {
                let Some(table) = self.tables.get_mut(&room) else {
                    return;
                };
                table.seq = seq;
                if let Some((_, stop)) = table.thinking.take() {
                    stop.stop();
                }
                table.moves.truncate(ply as usize);
                // The side to move comes from the position; ask for the room to be exact
                // about clocks too.
                self.send(ClientMsg::Join {
                    room,
                    join_as: JoinAs::Player,
                });
            }
            ServerMsg::DrawOffer { room, seq, by } => {
                let Some(table) = self.tables.get_mut(&room) else {
                    return;
                };
                table.seq = seq;
                if Some(by) != table.you {
                    // Drawn when proven, or when the evaluation is level with most of the
                    // board filled (earlier, a level evaluation says little).
                    let filled = table.opening.len() + table.moves.len();
                    let late = filled * 4 >= cells(&table.spec) * 3;
                    let drawn = match table.last_score {
                        Some(Score::Exact(0)) => true,
                        Some(Score::Heuristic(s)) => s.abs() <= 20 && late,
                        _ => false,
                    };
                    if drawn {
                        self.send(ClientMsg::DrawReply { room, accept: true });
                    } else {
                        self.send(ClientMsg::DrawReply {
                            room,
                            accept: false,
                        });
                    }
                }
            }
            ServerMsg::Chat { room, seq, .. } => {
                // Players' lines and the room's own lines (a declined offer, a rematch
                // request) take a number; a bot, being a player, never receives spectators'
                // lines, which do not.
                if let Some(table) = self.tables.get_mut(&room) {
                    table.seq = table.seq.max(seq);
                }
            }
            ServerMsg::Rematch { room, seq, .. } => {
                if let Some(table) = self.tables.get_mut(&room) {
                    table.seq = seq;
                }
            }
            ServerMsg::Error {
                code,
                message,
                room,
                ..
            } => {
                tracing::debug!(?code, %message, ?room, "server refused");
                match code {
                    ErrorCode::BadToken => self.out.push(None),
                    ErrorCode::NoSuchRoom | ErrorCode::RoomFull => {
                        if let Some(room) = room {
                            if self.state.rooms.remove(&room).is_some() {
                                self.save();
                            }
                            self.tables.remove(&room);
                        }
                    }
                    ErrorCode::IllegalMove | ErrorCode::Forbidden | ErrorCode::NotYourTurn => {
                        if let Some(room) = room {
                            self.send(ClientMsg::Join {
                                room,
                                join_as: JoinAs::Player,
                            });
                        }
                    }
                    _ => {}
                }
            }
            ServerMsg::Created { .. }
            | ServerMsg::Crowd { .. }
            | ServerMsg::Seeking { .. }
            | ServerMsg::Lobby(_) => {}
        }
    }

    /// The game in `room` ended: say gg, leave, forget it.
    fn finished(&mut self, room: &str, result: Option<ResultKind>) {
        if let Some(mut table) = self.tables.remove(room) {
            if let Some((_, stop)) = table.thinking.take() {
                stop.stop();
            }
            if result.is_some() {
                let won = match result.and_then(ResultKind::winner) {
                    Some(c) => Some(Some(c) == table.you),
                    None => None,
                };
                if let Some(line) = table.talk.goodbye(won) {
                    self.send(ClientMsg::Chat {
                        room: room.to_string(),
                        text: line,
                    });
                }
            }
        }
        if self.state.rooms.remove(room).is_some() {
            self.save();
        }
        self.send(ClientMsg::Leave {
            room: room.to_string(),
        });
    }

    /// Starts a search if it is the bot's turn in `room` and none is running.
    fn think(&mut self, room: &str) {
        let Some(table) = self.tables.get_mut(room) else {
            return;
        };
        if table.status != RoomStatus::Playing || Some(table.to_move) != table.you {
            return;
        }
        let ply = table.moves.len();
        if table.thinking.as_ref().is_some_and(|(p, _)| *p == ply) {
            return;
        }
        if let Some((_, stop)) = table.thinking.take() {
            stop.stop();
        }
        let all: Vec<&String> = table.opening.iter().chain(table.moves.iter()).collect();
        let position = match AnyPosition::with_moves(&table.spec, &all) {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(%room, error = %e, "cannot rebuild the position");
                return;
            }
        };
        if position.is_over() {
            return;
        }
        let level = Level::new(table.memo.level);
        let limits = match (&table.clock, table.memo.clock) {
            (Some(c), spec) => {
                let mine = if table.you == Some(Color::Black) {
                    c.black_ms
                } else {
                    c.white_ms
                };
                let elapsed = table.clock_at.elapsed().as_millis() as u64;
                // Network and server time on the way back; always leave it in hand.
                let left = Duration::from_millis(mine.saturating_sub(elapsed + 80));
                match spec {
                    Some(ClockSpec::PerMove { .. }) => Limits::Time(
                        left.mul_f64(0.6)
                            .min((self.think_time)(position.kind(), level)),
                    ),
                    Some(ClockSpec::Fischer { increment_ms, .. }) => Limits::Clock {
                        left,
                        increment: Duration::from_millis(increment_ms),
                    },
                    None => Limits::Clock {
                        left,
                        increment: Duration::ZERO,
                    },
                }
            }
            (None, _) => Limits::Time((self.think_time)(position.kind(), level)),
        };
        let stop = StopFlag::new();
        table.thinking = Some((ply, stop.clone()));
        let engine_slot = table.engine.clone();
        let engines = self.engines.clone();
        let thoughts = self.thoughts.clone();
        let room = room.to_string();
        let seed = rand::random::<u64>();
        let started = std::time::Instant::now();
        let budget = crate::engine::deadline(limits, started)
            .map_or(Duration::from_secs(1), |d| d.duration_since(started));
        let pace = pace(table.bots_only, self.options.pace).min(budget / 2);
        tokio::task::spawn_blocking(move || {
            let mut slot = engine_slot.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = engines(position.kind());
            }
            let result = slot
                .as_mut()
                .and_then(|engine| engine.search(&position, limits, level, &stop, seed));
            drop(slot);
            // A deliberate pause on this blocking thread, within the move's budget.
            if let Some(rest) = pace.checked_sub(started.elapsed()) {
                std::thread::sleep(rest);
            }
            let _ = thoughts.send(Thought { room, ply, result });
        });
    }

    fn on_thought(&mut self, thought: Thought) {
        let Some(table) = self.tables.get_mut(&thought.room) else {
            return;
        };
        let current = table
            .thinking
            .as_ref()
            .is_some_and(|(p, _)| *p == thought.ply);
        if !current || table.moves.len() != thought.ply || table.status != RoomStatus::Playing {
            return;
        }
        table.thinking = None;
        let Some(result) = thought.result else {
            tracing::warn!(room = %thought.room, "the engine found no move");
            return;
        };
        table.last_score = Some(result.score);
        let line = table.talk.on_score(result.score);
        // Unique per search: after an undo the same ply is played again, and the server
        // answers a repeated id with the first move instead of playing the new one.
        let id = format!(
            "{}-{}-{:08x}",
            thought.room,
            thought.ply,
            rand::random::<u32>()
        );
        self.send(ClientMsg::Move {
            room: thought.room.clone(),
            mv: result.best,
            id: Some(id),
        });
        if let Some(text) = line {
            self.send(ClientMsg::Chat {
                room: thought.room,
                text,
            });
        }
    }
}
