//! The bot as a client of the public protocol: it says `hello` with the bot key, accepts
//! invitations up to its capacity, joins rooms and plays every game it is seated in, chats
//! like a player, and reconnects with backoff, resuming its identity and its games from a
//! small state file.
//!
//! # Layout
//! - this file: the options, the reconnect loop, and the session that hands the server's
//!   messages and the finished searches to the bot's reactions ([`Bot`]).
//! - [`table`]: what a room is, mirrored from the server's events.
//! - [`policy`]: what the bot decides as a player: invitations, take-backs, draws, pace, chat.
//! - [`thinking`]: the searches, on blocking threads with deadlines and stop flags.
//! - [`talk`]: the lines the bot says in a room.
//! - [`analysis`]: the bot as an analysis worker: `analyze` jobs searched on a thread.
//! - [`live`]: the analysis board's live analyses, one thread a job, one line a depth, then
//!   the rated moves.
//! - [`puzzle_jobs`]: positions of the hall's games proven into puzzles.
//! - [`reactions`]: the reactions to the server's messages about rooms and work.
//! - [`state_file`]: what survives a restart.
//! - [`wire`]: the WebSocket client of the protocol, shared with the showcase and the load
//!   generator; [`error`]: what can go wrong on the wire.
//! - [`external`]: engines built outside the project, driven as the bot's engine (pbrain,
//!   NBoard, the analyze lines) — the other way round from [`crate::frontends`].

mod analysis;
pub mod error;
pub mod external;
mod live;
mod policy;
mod puzzle_jobs;
mod reactions;
mod state_file;
mod table;
mod talk;
mod thinking;
pub mod wire;

use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use game_core::protocol::{
    BotHello, ClientMsg, ErrorCode, JoinAs, ResultKind, RoomState, RoomStatus, ServerMsg,
};
use game_core::{Color, GameKind};
use tokio::sync::mpsc;

use crate::client::error::BotError;
use crate::client::wire::{Backoff, Connection, Hello};
use crate::engine::{Level, StopFlag};
use table::Table;
use talk::Talk;
use thinking::{Thinking, Thought};

pub use state_file::{BotState, RoomMemo};
pub use thinking::EngineFactory;

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
    /// natural pace (see the policy). Tests set it near zero to play whole games quickly.
    pub pace: Option<Duration>,
    /// Search time per position of an `analyze` job; `None`: the bot takes no jobs.
    pub analysis: Option<Duration>,
    /// The most a move of a correspondence game may think (the operator's limit).
    pub correspondence: Duration,
}

impl BotOptions {
    /// The bot's `hello`, with the token of an earlier `welcome` if it has one.
    fn hello(&self, token: Option<String>) -> Hello {
        Hello {
            name: self.name.clone(),
            token,
            bot: Some(BotHello {
                key: self.key.clone(),
                games: self.games.clone(),
                capacity: self.capacity,
                analysis: self.analysis.is_some(),
            }),
            house: None,
        }
    }
}

/// Runs the bot until `shutdown` completes, reconnecting with backoff whenever the connection
/// drops or the server restarts.
pub async fn run(options: BotOptions, engines: EngineFactory, shutdown: impl Future<Output = ()>) {
    let mut state = BotState::load(options.state_file.as_deref());
    tokio::pin!(shutdown);
    let mut backoff = Backoff::new(Duration::from_millis(250), Duration::from_secs(5));
    loop {
        let mut welcomed = false;
        let session = session(&options, &engines, &mut state, &mut welcomed);
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
            // The server was there: a restart of it is likely over in a moment.
            backoff.reset();
        }
        tokio::select! {
            () = tokio::time::sleep(backoff.next_pause()) => {}
            () = &mut shutdown => return,
        }
    }
}

/// One connection, from `hello` to its end.
async fn session(
    options: &BotOptions,
    engines: &EngineFactory,
    state: &mut BotState,
    welcomed: &mut bool,
) -> Result<(), BotError> {
    let mut connection =
        Connection::open(&options.server, &options.hello(state.token.clone())).await?;
    let (thoughts_tx, mut thoughts) = mpsc::unbounded_channel::<Thought>();
    let (analysis_tx, mut analyses) = mpsc::unbounded_channel::<ClientMsg>();
    let mut bot = Bot {
        options,
        engines,
        state,
        seats: HashMap::new(),
        me: None,
        thoughts: thoughts_tx,
        analysis: analysis_tx,
        analysis_stop: StopFlag::new(),
        live: live::LiveJobs::default(),
        outbox: Vec::new(),
    };
    loop {
        tokio::select! {
            received = connection.recv() => {
                match received {
                    Ok(Some(received)) => bot.on_message(received.msg),
                    Ok(None) => return Ok(()),
                    Err(BotError::Unreadable { text, .. }) => {
                        tracing::debug!(%text, "unreadable server message");
                    }
                    Err(e) => return Err(e),
                }
                *welcomed = bot.me.is_some();
            }
            Some(thought) = thoughts.recv() => bot.on_thought(thought),
            Some(answer) = analyses.recv() => bot.send(answer),
        }
        for msg in std::mem::take(&mut bot.outbox) {
            connection.send(&msg).await?;
        }
    }
}

/// The bot's place in one room: the room as it is, and the bot's own part in it.
struct Seat {
    table: Table,
    thinking: Thinking,
    talk: Talk,
    greeted: bool,
}

/// The level to play `seat` of `room` at: its invitation's (level 5 for a room the bot
/// does not remember being invited to).
fn level_in(state: &BotState, room: &str, seat: Option<Color>) -> Level {
    Level::new(state.rooms.get(room).map_or(5, |m| m.level_of(seat)))
}

/// The bot during one connection: its reactions to the server and to its own searches,
/// which collect the messages to send.
struct Bot<'a> {
    options: &'a BotOptions,
    engines: &'a EngineFactory,
    state: &'a mut BotState,
    seats: HashMap<String, Seat>,
    /// The player id, once welcomed.
    me: Option<String>,
    thoughts: mpsc::UnboundedSender<Thought>,
    /// Where analysis threads send their answers.
    analysis: mpsc::UnboundedSender<ClientMsg>,
    /// Stops the analysis under way: a new job replaces it (the server hands a worker one job
    /// at a time, so a new one means the last was taken back), and so does the connection's end.
    analysis_stop: StopFlag,
    /// The live analyses under way.
    live: live::LiveJobs,
    outbox: Vec<ClientMsg>,
}

impl Drop for Bot<'_> {
    fn drop(&mut self) {
        self.analysis_stop.stop();
        self.live.stop_all();
    }
}

impl Bot<'_> {
    fn send(&mut self, msg: ClientMsg) {
        self.outbox.push(msg);
    }

    /// Asks for the room again (a `join` as the player answers with its `state`).
    fn rejoin(&mut self, room: String) {
        self.send(ClientMsg::Join {
            room,
            join_as: JoinAs::Player,
        });
    }

    fn chat(&mut self, room: &str, line: Option<String>) {
        if let Some(text) = line {
            self.send(ClientMsg::Chat {
                room: room.to_string(),
                text,
            });
        }
    }

    fn save(&self) {
        self.state.save(self.options.state_file.as_deref());
    }

    /// Forgets a room: its seat, and its place in the state file.
    fn forget(&mut self, room: &str) {
        if let Some(mut seat) = self.seats.remove(room) {
            seat.thinking.stop();
        }
        if self.state.forget(room) {
            self.save();
        }
    }

    /// Hands one server message to its reaction.
    fn on_message(&mut self, msg: ServerMsg) {
        match msg {
            ServerMsg::Welcome { player, token, .. } => self.on_welcome(player, token),
            ServerMsg::Invite {
                room,
                game,
                seat,
                level,
                clock,
            } => self.on_invite(room, game.kind(), seat, level, clock),
            ServerMsg::State(state) => self.on_state(*state),
            ServerMsg::Moved {
                room,
                seq,
                mv,
                to_move,
                clock,
                ply,
                ..
            } => self.on_moved(room, seq, ply, mv, to_move, clock),
            ServerMsg::Over { room, seq, result } => {
                if let Some(seat) = self.seats.get_mut(&room) {
                    seat.table.over(seq);
                }
                self.finished(&room, Some(result.result));
            }
            ServerMsg::UndoOffer { room, seq, by } => self.on_undo_offer(room, seq, by),
            ServerMsg::Undone { room, seq, ply } => self.on_undone(room, seq, ply),
            ServerMsg::DrawOffer { room, seq, by } => self.on_draw_offer(room, seq, by),
            ServerMsg::Chat { room, seq, .. } => {
                if let Some(seat) = self.seats.get_mut(&room) {
                    seat.table.chat(seq);
                }
            }
            ServerMsg::Rematch { room, seq, .. } => {
                if let Some(seat) = self.seats.get_mut(&room) {
                    seat.table.seq = seq;
                }
            }
            ServerMsg::Error {
                code,
                message,
                room,
                ..
            } => {
                tracing::debug!(?code, %message, ?room, "server refused");
                self.on_refusal(code, room);
            }
            ServerMsg::Analyze(job) => self.on_analyze(*job),
            ServerMsg::AnalyseLive(job) => {
                if self.options.analysis.is_some() {
                    tracing::info!(job = %job.job, "live analysis");
                    self.live.start(*job, self.engines, self.analysis.clone());
                }
            }
            ServerMsg::AnalyseStop { job } => self.live.stop(&job),
            ServerMsg::ProvePuzzle(job) => {
                if self.options.analysis.is_some() {
                    tracing::info!(job = %job.job, variant = %job.variant, "proving a puzzle");
                    puzzle_jobs::start(*job, self.analysis.clone());
                }
            }
            ServerMsg::AnalysisLine { .. }
            | ServerMsg::AnalysisMove { .. }
            | ServerMsg::AnalysisStatus { .. } => {}
            // A bot is invited, not challenged (docs/protocol.md "Challenges").
            ServerMsg::ChallengeSent { .. }
            | ServerMsg::Challenged { .. }
            | ServerMsg::ChallengeDeclined { .. }
            | ServerMsg::ChallengeGone { .. } => {}
            ServerMsg::Sanction { action, reason, .. } => {
                tracing::warn!(%action, %reason, "a moderator acted on this bot");
            }
            ServerMsg::Created { .. }
            | ServerMsg::Review { .. }
            | ServerMsg::ChatHidden { .. }
            | ServerMsg::Crowd { .. }
            | ServerMsg::Rated { .. }
            | ServerMsg::Seeking { .. }
            | ServerMsg::Lobby(_) => {}
        }
    }

    /// A room's `state`: the whole room, on joining it, after a gap or a take-back.
    fn on_state(&mut self, state: RoomState) {
        let room = state.room.clone();
        if state.you.is_none() {
            // Not (or no longer) seated here: forget the room.
            self.forget(&room);
            self.send(ClientMsg::Leave { room });
            return;
        }
        let seat = match self.seats.get_mut(&room) {
            Some(seat) => {
                seat.thinking.stop();
                seat.table.refresh(state);
                seat
            }
            None => {
                let clock = self.state.rooms.get(&room).and_then(|m| m.clock);
                self.seats.entry(room.clone()).or_insert(Seat {
                    table: Table::from_state(state, clock),
                    thinking: Thinking::new(),
                    talk: Talk::default(),
                    greeted: false,
                })
            }
        };
        match seat.table.status {
            RoomStatus::Over => {
                self.finished(&room, None);
                return;
            }
            RoomStatus::Playing if !seat.greeted => {
                seat.greeted = true;
                let line = policy::greeting(
                    &mut seat.talk,
                    &seat.table,
                    &self.options.name,
                    level_in(self.state, &room, seat.table.you).get(),
                );
                self.chat(&room, line);
            }
            _ => {}
        }
        self.think(&room);
    }

    /// A refusal by the server.
    fn on_refusal(&mut self, code: ErrorCode, room: Option<String>) {
        match (code, room) {
            (ErrorCode::BadToken, _) => {
                // A stale token (the server's store was reset): start a new identity.
                self.state.token = None;
                let hello = self.options.hello(None).message();
                self.send(hello);
            }
            (ErrorCode::NoSuchRoom | ErrorCode::RoomFull, Some(room)) => self.forget(&room),
            (
                ErrorCode::IllegalMove | ErrorCode::Forbidden | ErrorCode::NotYourTurn,
                Some(room),
            ) => {
                self.rejoin(room);
            }
            _ => {}
        }
    }

    /// The game in `room` ended: say gg, leave, forget it.
    fn finished(&mut self, room: &str, result: Option<ResultKind>) {
        if let Some(seat) = self.seats.get_mut(room) {
            let line = policy::goodbye(&mut seat.talk, &seat.table, result);
            self.chat(room, line);
        }
        self.forget(room);
        self.send(ClientMsg::Leave {
            room: room.to_string(),
        });
    }

    /// Starts a search if it is the bot's turn in `room` and none is running.
    fn think(&mut self, room: &str) {
        let Some(seat) = self.seats.get_mut(room) else {
            return;
        };
        let pace = policy::pace(seat.table.bots_only, self.options.pace);
        let how = thinking::HowToThink {
            level: level_in(self.state, room, seat.table.you),
            pace,
            correspondence: self.options.correspondence,
        };
        seat.thinking
            .start(room, &seat.table, how, self.engines, &self.thoughts);
    }

    fn on_thought(&mut self, thought: Thought) {
        let Some(seat) = self.seats.get_mut(&thought.room) else {
            return;
        };
        if !seat.thinking.finish(&thought, &seat.table) {
            return;
        }
        let Some(result) = thought.result else {
            tracing::warn!(room = %thought.room, "the engine found no move");
            return;
        };
        // A foreign engine's move comes with no search behind it (no depth, no nodes) and no
        // score: what the bot thinks of the position, for draws and chat, stays as it was.
        let scored = result.exact || result.depth > 0 || result.nodes > 0;
        if scored {
            seat.thinking.last_score = Some(result.score);
        }
        let line = if scored {
            seat.talk.on_score(result.score)
        } else {
            None
        };
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
        self.chat(&thought.room, line);
    }
}
