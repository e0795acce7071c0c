//! One task per room, the room's only writer: seats, moves through the referee
//! (`game_core::AnyPosition`), clocks, offers, chat, presence, bot invitations and the end of
//! the game. Every move, chat line and result is stored before anyone is told of it.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use dashmap::mapref::entry::Entry;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Instant};

use game_core::error::{IllegalMoveError, MoveError};
use game_core::protocol::{
    ClockSpec, ClockState, ErrorCode, GameResult, ResultKind, RoomState, RoomStatus, SeatInfo,
    Seats, SeatsOnline, ServerMsg,
};
use game_core::{AnyPosition, Color, EndReason, GameSpec};

use crate::clock::GameClock;
use crate::conn::Conn;
use crate::hub::{PlayerRecord, SharedHub};
use crate::lobby::{LobbyEvent, RoomSummary};
use crate::store::{StoredChat, StoredMove, StoredRoom, StoredRoomHead, StoredSeat, Write};

/// Commands a room task may have queued before it blocks its senders.
const ROOM_QUEUE: usize = 1024;

/// Milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// Cheap-clone handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    pub id: String,
    /// The player who created it (counts against their open-room limit).
    pub creator: Option<String>,
    pub tx: mpsc::Sender<RoomCmd>,
    /// True until the game is over (or the room cancelled): what the open-room limit counts.
    pub unfinished: Arc<AtomicBool>,
}

impl RoomHandle {
    /// Whether the room still counts as open for its creator.
    #[must_use]
    pub fn is_unfinished(&self) -> bool {
        self.unfinished.load(Ordering::Relaxed)
    }
}

/// Who sent a command: the connection to answer and the player behind it.
#[derive(Clone, Debug)]
pub struct Actor {
    pub conn: Conn,
    pub player: PlayerRecord,
}

/// A player's request in a room.
#[derive(Clone, Debug)]
pub enum Action {
    Move { mv: String, id: Option<String> },
    Resign,
    Undo,
    UndoReply(bool),
    Draw,
    DrawReply(bool),
    Rematch,
    Chat(String),
    InviteBot(u8),
}

impl Action {
    /// The `t` of the request, for the `ref` of an error.
    #[must_use]
    pub fn type_name(&self) -> &'static str {
        match self {
            Action::Move { .. } => "move",
            Action::Resign => "resign",
            Action::Undo => "undo",
            Action::UndoReply(_) => "undo_reply",
            Action::Draw => "draw",
            Action::DrawReply(_) => "draw_reply",
            Action::Rematch => "rematch",
            Action::Chat(_) => "chat",
            Action::InviteBot(_) => "invite_bot",
        }
    }
}

/// What a room task is asked to do.
#[derive(Debug)]
pub enum RoomCmd {
    Join {
        who: Actor,
        as_player: bool,
    },
    Leave {
        who: Actor,
    },
    /// The connection closed.
    Gone {
        conn_id: u64,
    },
    Act {
        who: Actor,
        action: Action,
        received: Instant,
    },
    /// A bot declined its invitation, or its last connection closed.
    Decline {
        bot: String,
    },
    /// Find a bot for a seat promised to one in `create`; `requester` hears if none is free.
    InviteSeat {
        seat: Color,
        level: u8,
        requester: Option<Conn>,
    },
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub player: String,
    pub name: String,
    pub bot: bool,
    pub level: Option<u8>,
}

impl From<&StoredSeat> for Seat {
    fn from(s: &StoredSeat) -> Seat {
        Seat {
            player: s.player.clone(),
            name: s.name.clone(),
            bot: s.bot,
            level: s.level,
        }
    }
}

impl From<&Seat> for StoredSeat {
    fn from(s: &Seat) -> StoredSeat {
        StoredSeat {
            player: s.player.clone(),
            name: s.name.clone(),
            bot: s.bot,
            level: s.level,
        }
    }
}

/// A new room to set up: its facts and who sits where. Seats promised to bots are asked for
/// afterwards with [`RoomCmd::InviteSeat`], once the creator is in the room to hear the answer.
#[derive(Clone, Debug)]
pub struct NewRoom {
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub opening: Vec<String>,
    pub private: bool,
    pub creator: Option<String>,
    pub seats: [Option<Seat>; 2],
}

struct Member {
    conn: Conn,
    player: PlayerRecord,
}

struct Invite {
    bot: String,
    level: u8,
    deadline: Instant,
    /// Told `no_bot_available` if every bot declines, with the `ref` of its request.
    requester: Option<(Conn, &'static str)>,
}

const ANSWERS_KEPT: usize = 256;

struct Room {
    hub: SharedHub,
    id: String,
    /// This task's own handle, to leave the hub only if it is still the registered one.
    handle: RoomHandle,
    game: GameSpec,
    clock_spec: Option<ClockSpec>,
    opening: Vec<String>,
    private: bool,
    created_ms: u64,
    creator: Option<String>,
    position: AnyPosition,
    moves: Vec<StoredMove>,
    status: RoomStatus,
    result: Option<GameResult>,
    seats: [Option<Seat>; 2],
    clock: Option<GameClock>,
    seq: u64,
    members: HashMap<u64, Member>,
    offline_since: [Option<Instant>; 2],
    invites: [Option<Invite>; 2],
    tried: [Vec<String>; 2],
    undo_offer: Option<(Color, usize)>,
    draw_offer: Option<Color>,
    rematch_asks: [bool; 2],
    rematch_next: Option<String>,
    answers: HashMap<(String, String), ServerMsg>,
    answer_order: VecDeque<(String, String)>,
    chat_times: HashMap<String, VecDeque<Instant>>,
    last_chat: HashMap<String, String>,
    crowd_due: Option<Instant>,
}

fn seat_index(c: Color) -> usize {
    c.index()
}

fn color_of(i: usize) -> Color {
    if i == 0 {
        Color::Black
    } else {
        Color::White
    }
}

fn err(code: ErrorCode, message: impl Into<String>, reference: &str, room: &str) -> ServerMsg {
    ServerMsg::Error {
        code,
        message: message.into(),
        reference: Some(reference.to_string()),
        room: Some(room.to_string()),
        id: None,
    }
}

fn status_name(s: RoomStatus) -> &'static str {
    match s {
        RoomStatus::Waiting => "waiting",
        RoomStatus::Playing => "playing",
        RoomStatus::Over => "over",
    }
}

/// Creates a room: stores it, then starts its task. Returns the handle.
pub async fn create_room(hub: &SharedHub, new: NewRoom) -> Result<RoomHandle, ServerMsg> {
    let position = AnyPosition::with_moves(&new.game, &new.opening)
        .map_err(|e| ServerMsg::error(ErrorCode::BadGame, e.to_string()))?;
    if position.is_over() {
        return Err(ServerMsg::error(
            ErrorCode::BadGame,
            "the opening already ends the game",
        ));
    }
    let id = crate::token::random_id(8);
    let head = StoredRoomHead {
        id: id.clone(),
        game: new.game.clone(),
        clock: new.clock,
        opening: new.opening.clone(),
        private: new.private,
        created_ms: now_ms(),
        creator: new.creator.clone(),
    };
    let store_failed = |e: crate::store::StoreError| {
        tracing::error!(error = %e, "storing a new room failed");
        ServerMsg::error(ErrorCode::BadRequest, "the room could not be stored")
    };
    hub.store
        .write(Write::Room(Box::new(head.clone())))
        .await
        .map_err(store_failed)?;
    for (i, seat) in new.seats.iter().enumerate() {
        if let Some(seat) = seat {
            hub.store
                .write(Write::Seat {
                    room: id.clone(),
                    color: color_of(i),
                    seat: Some(seat.into()),
                })
                .await
                .map_err(store_failed)?;
        }
    }
    let stored = StoredRoom {
        head,
        status: RoomStatus::Waiting,
        result: None,
        seq: 0,
        black: new.seats[0].as_ref().map(Into::into),
        white: new.seats[1].as_ref().map(Into::into),
        moves: Vec::new(),
    };
    spawn_room(hub, stored, false).map_err(|e| ServerMsg::error(ErrorCode::BadGame, e))
}

/// The answer a stored move gave its mover, so a resend after a restart gets the same one.
fn stored_answer(room: &str, m: &StoredMove, id: &str) -> ServerMsg {
    let clock = match (m.black_ms, m.white_ms) {
        (Some(black_ms), Some(white_ms)) => Some(ClockState {
            black_ms,
            white_ms,
            running: Some(m.by.other()),
        }),
        _ => None,
    };
    ServerMsg::Moved {
        room: room.to_string(),
        seq: m.seq,
        ply: (m.ply + 1) as u32,
        mv: m.mv.clone(),
        by: m.by,
        to_move: m.by.other(),
        clock,
        id: Some(id.to_string()),
    }
}

/// Starts the task of a stored room (new, or reloaded at start when `reloaded`). If a task
/// for that room is already registered, returns its handle and starts nothing: a room has
/// exactly one writer.
pub fn spawn_room(
    hub: &SharedHub,
    stored: StoredRoom,
    reloaded: bool,
) -> Result<RoomHandle, String> {
    let mut position = AnyPosition::with_moves(&stored.head.game, &stored.head.opening)
        .map_err(|e| e.to_string())?;
    for m in &stored.moves {
        position
            .play_str(&m.mv)
            .map_err(|e| format!("stored move {}: {e}", m.mv))?;
    }
    let now = Instant::now();
    let clock = stored.head.clock.map(|spec| {
        let last = stored.moves.last();
        let mut clock = match last.and_then(|m| Some((m.black_ms?, m.white_ms?))) {
            Some((b, w)) => GameClock::resumed(spec, b, w),
            None => GameClock::new(spec),
        };
        if stored.status == RoomStatus::Playing {
            clock.start_turn(position.turn(), now);
        }
        clock
    });
    let seats = [
        stored.black.as_ref().map(Seat::from),
        stored.white.as_ref().map(Seat::from),
    ];
    let mut answers = HashMap::new();
    let mut answer_order = VecDeque::new();
    for m in &stored.moves {
        if let (Some(id), Some(seat)) = (&m.req_id, &seats[seat_index(m.by)]) {
            let key = (seat.player.clone(), id.clone());
            answers.insert(key.clone(), stored_answer(&stored.head.id, m, id));
            answer_order.push_back(key);
        }
    }
    while answer_order.len() > ANSWERS_KEPT {
        if let Some(old) = answer_order.pop_front() {
            answers.remove(&old);
        }
    }
    let unfinished = stored.status != RoomStatus::Over;
    let offline = if reloaded && unfinished {
        [
            seats[0].as_ref().map(|_| now),
            seats[1].as_ref().map(|_| now),
        ]
    } else {
        [None, None]
    };
    let (tx, rx) = mpsc::channel(ROOM_QUEUE);
    let id = stored.head.id.clone();
    let handle = RoomHandle {
        id: id.clone(),
        creator: stored.head.creator.clone(),
        tx,
        unfinished: Arc::new(AtomicBool::new(unfinished)),
    };
    match hub.rooms.entry(id.clone()) {
        Entry::Occupied(running) => return Ok(running.get().clone()),
        Entry::Vacant(slot) => {
            slot.insert(handle.clone());
        }
    }
    if reloaded && unfinished {
        for seat in seats.iter().flatten() {
            if seat.bot {
                hub.hold_bot(&seat.player, &seat.name);
            }
        }
    }
    let room = Room {
        hub: hub.clone(),
        id,
        handle: handle.clone(),
        game: stored.head.game,
        clock_spec: stored.head.clock,
        opening: stored.head.opening,
        private: stored.head.private,
        created_ms: stored.head.created_ms,
        creator: stored.head.creator,
        position,
        moves: stored.moves,
        status: stored.status,
        result: stored.result,
        seats,
        clock,
        seq: stored.seq,
        members: HashMap::new(),
        offline_since: offline,
        invites: [None, None],
        tried: [Vec::new(), Vec::new()],
        undo_offer: None,
        draw_offer: None,
        rematch_asks: [false, false],
        rematch_next: None,
        answers,
        answer_order,
        chat_times: HashMap::new(),
        last_chat: HashMap::new(),
        crowd_due: None,
    };
    hub.metrics
        .room_status(None, Some(status_name(room.status)));
    tokio::spawn(room.run(rx));
    Ok(handle)
}

impl Room {
    async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        if self.status == RoomStatus::Waiting && self.seats.iter().all(Option::is_some) {
            // Seated by quick pairing or a rematch (or stored just before the start).
            self.start().await;
        }
        self.publish();
        let mut shutdown = self.hub.shutdown.clone();
        'serve: loop {
            let deadline = self.next_deadline();
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = async {
                    match deadline {
                        Some(d) => sleep_until(d).await,
                        None => std::future::pending().await,
                    }
                } => self.on_timer().await,
                _ = shutdown.changed() => break,
            }
            while self.status == RoomStatus::Over && self.members.is_empty() {
                // Finished and unwatched: the store has it; a later `join` reloads it.
                match self.retire(rx).await {
                    Some(fresh) => rx = fresh,
                    None => break 'serve,
                }
            }
        }
        self.hub
            .rooms
            .remove_if(&self.id, |_, h| h.tx.same_channel(&self.handle.tx));
        self.handle.unfinished.store(false, Ordering::Relaxed);
        self.hub
            .metrics
            .room_status(Some(status_name(self.status)), None);
        let _ = self.hub.lobby.send(LobbyEvent::Gone(self.id.clone()));
    }

    /// Leaves the hub without dropping a request that is already queued: the queue is closed
    /// and drained, and if anything was in it the room registers again with a fresh queue
    /// (or hands the requests to a task that reloaded the room meanwhile) and answers them.
    /// Returns the fresh queue to go on with, or `None` to stop.
    async fn retire(&mut self, mut rx: mpsc::Receiver<RoomCmd>) -> Option<mpsc::Receiver<RoomCmd>> {
        self.hub
            .rooms
            .remove_if(&self.id, |_, h| h.tx.same_channel(&self.handle.tx));
        rx.close();
        let mut queued = Vec::new();
        while let Some(cmd) = rx.recv().await {
            queued.push(cmd);
        }
        if queued.is_empty() {
            return None;
        }
        let (tx, fresh) = mpsc::channel(ROOM_QUEUE);
        let handle = RoomHandle {
            id: self.id.clone(),
            creator: self.creator.clone(),
            tx,
            unfinished: self.handle.unfinished.clone(),
        };
        let successor = match self.hub.rooms.entry(self.id.clone()) {
            Entry::Vacant(slot) => {
                slot.insert(handle.clone());
                None
            }
            Entry::Occupied(running) => Some(running.get().clone()),
        };
        match successor {
            None => {
                self.handle = handle;
                for cmd in queued {
                    self.handle(cmd).await;
                }
                Some(fresh)
            }
            Some(successor) => {
                for cmd in queued {
                    let _ = successor.tx.send(cmd).await;
                }
                None
            }
        }
    }

    // ---- helpers -------------------------------------------------------------------------

    fn seat_of(&self, player: &str) -> Option<Color> {
        if player.is_empty() {
            return None;
        }
        (0..2)
            .find(|&i| self.seats[i].as_ref().is_some_and(|s| s.player == player))
            .map(color_of)
    }

    fn online(&self, c: Color) -> bool {
        match &self.seats[seat_index(c)] {
            Some(seat) => self
                .members
                .values()
                .any(|m| m.player.id == seat.player && !m.conn.is_closed()),
            None => false,
        }
    }

    /// Counts a connection as a member (it receives the room's events from now on).
    fn add_member(&mut self, conn: Conn, player: PlayerRecord) {
        if conn.is_closed() {
            return;
        }
        conn.entered(&self.id);
        self.members.insert(conn.id, Member { conn, player });
    }

    fn remove_member(&mut self, conn_id: u64) -> Option<Member> {
        let member = self.members.remove(&conn_id)?;
        member.conn.left(&self.id);
        Some(member)
    }

    /// Drops members whose connection has closed without a `Gone` reaching the room (a
    /// `join` still queued when the connection ended).
    fn prune_closed(&mut self) {
        let closed: Vec<u64> = self
            .members
            .values()
            .filter(|m| m.conn.is_closed())
            .map(|m| m.conn.id)
            .collect();
        for id in closed {
            self.gone(id);
        }
    }

    fn spectators(&self) -> u32 {
        self.members
            .values()
            .filter(|m| self.seat_of(&m.player.id).is_none())
            .count() as u32
    }

    fn seats_info(&self) -> Seats {
        let info = |i: usize| {
            self.seats[i].as_ref().map(|s| SeatInfo {
                player: s.player.clone(),
                name: s.name.clone(),
                bot: s.bot,
                online: self.online(color_of(i)),
            })
        };
        Seats {
            black: info(0),
            white: info(1),
        }
    }

    fn clock_state(&self) -> Option<game_core::protocol::ClockState> {
        self.clock.as_ref().map(|c| c.state(Instant::now()))
    }

    fn state_for(&self, player: &str) -> ServerMsg {
        ServerMsg::State(Box::new(RoomState {
            room: self.id.clone(),
            seq: self.seq,
            game: self.game.clone(),
            opening: self.opening.clone(),
            moves: self.moves.iter().map(|m| m.mv.clone()).collect(),
            to_move: self.position.turn(),
            status: self.status,
            result: self.result.clone(),
            seats: self.seats_info(),
            clock: self.clock_state(),
            spectators: self.spectators(),
            you: self.seat_of(player),
            control: self.clock_spec,
        }))
    }

    fn send_state(&self, conn: &Conn, player: &str) {
        conn.send(&self.state_for(player));
    }

    fn broadcast_state(&self) {
        for m in self.members.values() {
            self.send_state(&m.conn, &m.player.id);
        }
    }

    fn broadcast(&self, msg: &ServerMsg) {
        let text: Arc<str> = Arc::from(msg.to_json());
        for m in self.members.values() {
            m.conn.send_text(text.clone());
        }
    }

    fn reply(&self, who: &Actor, msg: ServerMsg) {
        if let ServerMsg::Error { code, .. } = &msg {
            self.hub.metrics.error(code.as_str());
        }
        who.conn.send(&msg);
    }

    fn summary(&self) -> RoomSummary {
        RoomSummary {
            room: self.id.clone(),
            game: self.game.clone(),
            clock: self.clock_spec,
            seats: self.seats_info(),
            status: self.status,
            private: self.private,
            spectators: self.spectators(),
            ply: self.moves.len() as u32,
            created: self.created_ms,
            reserved: [self.invites[0].is_some(), self.invites[1].is_some()],
        }
    }

    fn publish(&self) {
        let _ = self
            .hub
            .lobby
            .send(LobbyEvent::Room(Box::new(self.summary())));
    }

    fn crowd_changed(&mut self) {
        if self.crowd_due.is_none() {
            self.crowd_due = Some(Instant::now() + self.hub.config.crowd_interval);
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        let mut best: Option<Instant> = self.crowd_due;
        let mut consider = |t: Instant| best = Some(best.map_or(t, |b| b.min(t)));
        if self.status == RoomStatus::Playing {
            if let Some((_, t)) = self.clock.as_ref().and_then(GameClock::deadline) {
                consider(t);
            }
        }
        if self.status != RoomStatus::Over {
            for since in self.offline_since.iter().flatten() {
                consider(*since + self.hub.config.grace);
            }
            for inv in self.invites.iter().flatten() {
                consider(inv.deadline);
            }
        }
        best
    }

    fn set_status(&mut self, status: RoomStatus) {
        if status == RoomStatus::Over {
            self.handle.unfinished.store(false, Ordering::Relaxed);
        }
        self.hub
            .metrics
            .room_status(Some(status_name(self.status)), Some(status_name(status)));
        self.status = status;
    }

    async fn store(&self, write: Write) -> bool {
        match self.hub.store.write(write).await {
            Ok(()) => true,
            Err(e) => {
                tracing::error!(room = %self.id, error = %e, "store write failed");
                false
            }
        }
    }

    // ---- commands ------------------------------------------------------------------------

    async fn handle(&mut self, cmd: RoomCmd) {
        match cmd {
            RoomCmd::Join { who, as_player } => self.join(who, as_player).await,
            RoomCmd::Leave { who } => self.leave(who).await,
            RoomCmd::Gone { conn_id } => self.gone(conn_id),
            RoomCmd::Act {
                who,
                action,
                received,
            } => self.act(who, action, received).await,
            RoomCmd::Decline { bot } => {
                for i in 0..2 {
                    if self.invites[i].as_ref().is_some_and(|inv| inv.bot == bot) {
                        self.invite_failed(i).await;
                    }
                }
            }
            RoomCmd::InviteSeat {
                seat,
                level,
                requester,
            } => {
                let i = seat_index(seat);
                if self.status == RoomStatus::Waiting
                    && self.seats[i].is_none()
                    && self.invites[i].is_none()
                {
                    self.invite(i, level, requester.map(|c| (c, "create")))
                        .await;
                }
            }
        }
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        if self.crowd_due.is_some_and(|t| t <= now) {
            self.prune_closed();
            self.crowd_due = None;
            let msg = ServerMsg::Crowd {
                room: self.id.clone(),
                spectators: self.spectators(),
                online: SeatsOnline {
                    black: self.online(Color::Black),
                    white: self.online(Color::White),
                },
            };
            self.broadcast(&msg);
            self.publish();
        }
        if self.status == RoomStatus::Playing {
            if let Some((side, t)) = self.clock.as_ref().and_then(GameClock::deadline) {
                if t <= now {
                    self.finish(Some(side.other()), EndReason::Timeout, None)
                        .await;
                    return;
                }
            }
        }
        for i in 0..2 {
            if self.invites[i]
                .as_ref()
                .is_some_and(|inv| inv.deadline <= now)
            {
                self.invite_failed(i).await;
            }
        }
        if self.status != RoomStatus::Over {
            for i in 0..2 {
                if self.offline_since[i].is_some_and(|t| t + self.hub.config.grace <= now) {
                    self.offline_since[i] = None;
                    if self.status == RoomStatus::Playing {
                        self.finish(Some(color_of(i).other()), EndReason::Abandoned, None)
                            .await;
                    } else {
                        // A waiting room whose only player went away is cancelled.
                        self.cancel().await;
                    }
                    return;
                }
            }
        }
    }

    async fn join(&mut self, who: Actor, as_player: bool) {
        self.prune_closed();
        let player = who.player.id.clone();
        let seated = self.seat_of(&player);
        if as_player && seated.is_none() {
            // An invited bot takes the seat it was invited to.
            let invited = (0..2).find(|&i| {
                self.invites[i]
                    .as_ref()
                    .is_some_and(|inv| inv.bot == player)
            });
            let free = (0..2).find(|&i| self.seats[i].is_none() && self.invites[i].is_none());
            let target = match (invited, self.status) {
                (Some(i), _) => Some(i),
                (None, RoomStatus::Waiting) => free,
                _ => None,
            };
            let Some(i) = target else {
                // `room_full` also for a finished game: a client then watches instead.
                let msg = if self.status == RoomStatus::Over {
                    "the game is over"
                } else {
                    "both seats are taken"
                };
                self.reply(&who, err(ErrorCode::RoomFull, msg, "join", &self.id));
                return;
            };
            let level = self.invites[i].as_ref().map(|inv| inv.level);
            let seat = Seat {
                player: player.clone(),
                name: who.player.name.clone(),
                bot: who.player.bot,
                level,
            };
            if !self
                .store(Write::Seat {
                    room: self.id.clone(),
                    color: color_of(i),
                    seat: Some((&seat).into()),
                })
                .await
            {
                self.reply(
                    &who,
                    err(
                        ErrorCode::BadRequest,
                        "could not store the seat",
                        "join",
                        &self.id,
                    ),
                );
                return;
            }
            match self.invites[i].take() {
                Some(inv) => self.hub.invite_resolved(&inv.bot, &self.id),
                // A bot that sits down uninvited is busy with this game all the same.
                None if who.player.bot => self.hub.hold_bot(&player, &who.player.name),
                None => {}
            }
            self.seats[i] = Some(seat);
            self.add_member(who.conn, who.player);
            if self.seats.iter().all(Option::is_some) && self.status == RoomStatus::Waiting {
                self.start().await;
            } else {
                self.broadcast_state();
            }
            self.publish();
            return;
        }
        if let Some(c) = seated {
            self.offline_since[seat_index(c)] = None;
        }
        let was_online = seated.map(|c| self.online(c));
        self.add_member(who.conn.clone(), who.player);
        self.send_state(&who.conn, &player);
        if seated.is_none() || was_online == Some(false) {
            self.crowd_changed();
        }
    }

    async fn leave(&mut self, who: Actor) {
        self.remove_member(who.conn.id);
        if let Some(c) = self.seat_of(&who.player.id) {
            let i = seat_index(c);
            if self.status == RoomStatus::Waiting && !self.online(c) {
                // Before the game starts, leaving gives the seat up.
                if self
                    .store(Write::Seat {
                        room: self.id.clone(),
                        color: c,
                        seat: None,
                    })
                    .await
                {
                    self.seats[i] = None;
                    if self.seats.iter().all(Option::is_none)
                        && self.invites.iter().all(Option::is_none)
                    {
                        self.cancel().await;
                        return;
                    }
                    self.broadcast_state();
                    self.publish();
                }
            } else if self.status == RoomStatus::Playing && !self.online(c) {
                self.offline_since[i] = Some(Instant::now());
            }
        }
        self.crowd_changed();
    }

    fn gone(&mut self, conn_id: u64) {
        let Some(member) = self.remove_member(conn_id) else {
            return;
        };
        if let Some(c) = self.seat_of(&member.player.id) {
            if self.status != RoomStatus::Over && !self.online(c) {
                self.offline_since[seat_index(c)] = Some(Instant::now());
            }
        }
        self.crowd_changed();
    }

    async fn start(&mut self) {
        self.set_status(RoomStatus::Playing);
        self.store(Write::Status {
            room: self.id.clone(),
            status: RoomStatus::Playing,
            result: None,
            seq: self.seq,
        })
        .await;
        let now = Instant::now();
        let turn = self.position.turn();
        if let Some(clock) = self.clock.as_mut() {
            clock.start_turn(turn, now);
        }
        for i in 0..2 {
            if !self.online(color_of(i)) {
                self.offline_since[i] = Some(now);
            }
        }
        self.broadcast_state();
    }

    async fn act(&mut self, who: Actor, action: Action, received: Instant) {
        let reference = action.type_name();
        if let Some(c) = self.seat_of(&who.player.id) {
            if !self.members.contains_key(&who.conn.id) {
                // A seated player acting from a connection that has not joined (yet) is
                // present all the same: it hears the room from now on and is not abandoned.
                let was_online = self.online(c);
                self.offline_since[seat_index(c)] = None;
                self.add_member(who.conn.clone(), who.player.clone());
                if !was_online {
                    self.crowd_changed();
                }
            }
        }
        if let Action::Chat(text) = action {
            self.chat(who, text).await;
            return;
        }
        let Some(seat) = self.seat_of(&who.player.id) else {
            let may_invite = matches!(action, Action::InviteBot(_))
                && self.creator.as_deref() == Some(who.player.id.as_str());
            if may_invite {
                if let Action::InviteBot(level) = action {
                    self.invite_bot(who, level).await;
                }
                return;
            }
            self.reply(
                &who,
                err(
                    ErrorCode::NotAPlayer,
                    "you are not seated in this room",
                    reference,
                    &self.id,
                ),
            );
            return;
        };
        if let Action::InviteBot(level) = action {
            self.invite_bot(who, level).await;
            return;
        }
        if let Action::Rematch = action {
            self.rematch(who, seat).await;
            return;
        }
        if let Action::Move { id: Some(id), .. } = &action {
            if let Some(answer) = self.answers.get(&(who.player.id.clone(), id.clone())) {
                // A resend: answer as the first time, play nothing.
                let mut answer = answer.clone();
                if let ServerMsg::Moved { clock, .. } = &mut answer {
                    if clock.is_none() {
                        *clock = self.clock_state();
                    }
                }
                who.conn.send(&answer);
                return;
            }
        }
        match self.status {
            RoomStatus::Over => {
                self.reply(
                    &who,
                    err(ErrorCode::GameOver, "the game is over", reference, &self.id),
                );
                return;
            }
            RoomStatus::Waiting => {
                self.reply(
                    &who,
                    err(
                        ErrorCode::NotYourTurn,
                        "the game has not started",
                        reference,
                        &self.id,
                    ),
                );
                return;
            }
            RoomStatus::Playing => {}
        }
        match action {
            Action::Move { mv, id } => self.play(who, seat, mv, id, received).await,
            Action::Resign => {
                self.finish(Some(seat.other()), EndReason::Resign, None)
                    .await
            }
            Action::Undo => self.undo(who, seat).await,
            Action::UndoReply(accept) => self.undo_reply(who, seat, accept).await,
            Action::Draw => self.draw(who, seat).await,
            Action::DrawReply(accept) => self.draw_reply(who, seat, accept).await,
            Action::Chat(_) | Action::Rematch | Action::InviteBot(_) => {}
        }
    }

    fn remember(&mut self, player: &str, id: &str, answer: ServerMsg) {
        let key = (player.to_string(), id.to_string());
        if self.answers.insert(key.clone(), answer).is_none() {
            self.answer_order.push_back(key);
        }
        while self.answer_order.len() > ANSWERS_KEPT {
            if let Some(old) = self.answer_order.pop_front() {
                self.answers.remove(&old);
            }
        }
    }

    async fn play(
        &mut self,
        who: Actor,
        seat: Color,
        text: String,
        id: Option<String>,
        received: Instant,
    ) {
        let with_id = |mut e: ServerMsg| {
            if let ServerMsg::Error { id: slot, .. } = &mut e {
                slot.clone_from(&id);
            }
            e
        };
        if self.position.turn() != seat {
            self.reply(
                &who,
                with_id(err(
                    ErrorCode::NotYourTurn,
                    "it is not your turn",
                    "move",
                    &self.id,
                )),
            );
            return;
        }
        let now = Instant::now();
        if let Some(clock) = &self.clock {
            if clock.left_ms(seat, now) == 0 {
                self.reply(
                    &who,
                    with_id(err(
                        ErrorCode::GameOver,
                        "your time ran out",
                        "move",
                        &self.id,
                    )),
                );
                self.finish(Some(seat.other()), EndReason::Timeout, None)
                    .await;
                return;
            }
        }
        let before = self.position.clone();
        let canonical = match self.position.play_str(&text) {
            Ok(m) => m,
            Err(e) => {
                let code = match &e {
                    MoveError::Illegal(IllegalMoveError::Forbidden(..)) => ErrorCode::Forbidden,
                    MoveError::Illegal(IllegalMoveError::GameOver) => ErrorCode::GameOver,
                    _ => ErrorCode::IllegalMove,
                };
                let answer = with_id(err(code, e.to_string(), "move", &self.id));
                if let Some(id) = &id {
                    self.remember(&who.player.id, id, answer.clone());
                }
                self.reply(&who, answer);
                return;
            }
        };
        let clock_before = self.clock.clone();
        if let Some(clock) = self.clock.as_mut() {
            // The flag was checked above at this same instant, so charging the move cannot
            // find it fallen.
            let _ = clock.on_move(seat, now);
        }
        let readings = self.clock_state();
        let stored = StoredMove {
            ply: self.moves.len(),
            mv: canonical.clone(),
            by: seat,
            black_ms: readings.as_ref().map(|c| c.black_ms),
            white_ms: readings.as_ref().map(|c| c.white_ms),
            at_ms: now_ms(),
            req_id: id.clone(),
            seq: self.seq + 1,
        };
        let ok = self
            .store(Write::Move {
                room: self.id.clone(),
                mv: stored.clone(),
                seq: self.seq + 1,
            })
            .await;
        if !ok {
            self.position = before;
            self.clock = clock_before;
            self.reply(
                &who,
                with_id(err(
                    ErrorCode::BadRequest,
                    "the move could not be stored; try again",
                    "move",
                    &self.id,
                )),
            );
            return;
        }
        self.moves.push(stored);
        self.seq += 1;
        self.undo_offer = None;
        self.draw_offer = None;
        let moved = ServerMsg::Moved {
            room: self.id.clone(),
            seq: self.seq,
            ply: self.moves.len() as u32,
            mv: canonical,
            by: seat,
            to_move: self.position.turn(),
            clock: readings,
            id: None,
        };
        let plain: Arc<str> = Arc::from(moved.to_json());
        let mut mine = moved.clone();
        if let ServerMsg::Moved { id: slot, .. } = &mut mine {
            slot.clone_from(&id);
        }
        let mine_text: Arc<str> = Arc::from(mine.to_json());
        for m in self.members.values() {
            if m.conn.id == who.conn.id && id.is_some() {
                m.conn.send_text(mine_text.clone());
            } else {
                m.conn.send_text(plain.clone());
            }
        }
        if !self.members.contains_key(&who.conn.id) {
            who.conn
                .send_text(if id.is_some() { mine_text } else { plain });
        }
        if let Some(id) = &id {
            self.remember(&who.player.id, id, mine);
        }
        self.hub.metrics.move_played(Some(received.elapsed()));
        self.after_move().await;
    }

    /// The end of the game on the board, and forced passes.
    async fn after_move(&mut self) {
        loop {
            if let Some(outcome) = self.position.outcome() {
                let result = GameResult::from_outcome(&outcome);
                self.finish(outcome.winner, outcome.reason, Some(result))
                    .await;
                return;
            }
            if !self.position.must_pass() {
                break;
            }
            let passer = self.position.turn();
            if self.position.play_str("pass").is_err() {
                break;
            }
            let now = Instant::now();
            if let Some(clock) = self.clock.as_mut() {
                clock.on_pass(passer, now);
            }
            let readings = self.clock_state();
            let stored = StoredMove {
                ply: self.moves.len(),
                mv: "pass".to_string(),
                by: passer,
                black_ms: readings.as_ref().map(|c| c.black_ms),
                white_ms: readings.as_ref().map(|c| c.white_ms),
                at_ms: now_ms(),
                req_id: None,
                seq: self.seq + 1,
            };
            self.store(Write::Move {
                room: self.id.clone(),
                mv: stored.clone(),
                seq: self.seq + 1,
            })
            .await;
            self.moves.push(stored);
            self.seq += 1;
            self.hub.metrics.move_played(None);
            self.broadcast(&ServerMsg::Moved {
                room: self.id.clone(),
                seq: self.seq,
                ply: self.moves.len() as u32,
                mv: "pass".to_string(),
                by: passer,
                to_move: self.position.turn(),
                clock: readings,
                id: None,
            });
        }
        self.publish();
    }

    /// Ends the game. `result` is given when the board decided it (with line or score).
    async fn finish(
        &mut self,
        winner: Option<Color>,
        reason: EndReason,
        result: Option<GameResult>,
    ) {
        if self.status == RoomStatus::Over {
            return;
        }
        let result = result.unwrap_or(GameResult {
            result: ResultKind::from_winner(winner),
            reason,
            line: None,
            score: None,
        });
        let now = Instant::now();
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.seq += 1;
        self.store(Write::Status {
            room: self.id.clone(),
            status: RoomStatus::Over,
            result: Some(result.clone()),
            seq: self.seq,
        })
        .await;
        self.set_status(RoomStatus::Over);
        self.result = Some(result.clone());
        self.undo_offer = None;
        self.draw_offer = None;
        self.offline_since = [None, None];
        self.broadcast(&ServerMsg::Over {
            room: self.id.clone(),
            seq: self.seq,
            result,
        });
        self.release_bots();
        self.publish();
    }

    fn release_bots(&mut self) {
        for i in 0..2 {
            if let Some(inv) = self.invites[i].take() {
                self.hub.invite_resolved(&inv.bot, &self.id);
                self.hub.release_bot(&inv.bot);
            }
            if let Some(seat) = &self.seats[i] {
                if seat.bot {
                    self.hub.release_bot(&seat.player);
                }
            }
        }
    }

    /// A waiting room that nobody will play: closed without a result.
    async fn cancel(&mut self) {
        self.store(Write::Status {
            room: self.id.clone(),
            status: RoomStatus::Over,
            result: None,
            seq: self.seq,
        })
        .await;
        self.set_status(RoomStatus::Over);
        self.release_bots();
        self.broadcast_state();
        self.publish();
    }

    async fn undo(&mut self, who: Actor, seat: Color) {
        let Some(target) = self
            .moves
            .iter()
            .rposition(|m| m.by == seat && m.mv != "pass")
        else {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "you have no move to take back",
                    "undo",
                    &self.id,
                ),
            );
            return;
        };
        if self.undo_offer.is_some_and(|(by, _)| by == seat) {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "your undo request is already pending",
                    "undo",
                    &self.id,
                ),
            );
            return;
        }
        self.undo_offer = Some((seat, target));
        self.seq += 1;
        self.broadcast(&ServerMsg::UndoOffer {
            room: self.id.clone(),
            seq: self.seq,
            by: seat,
        });
    }

    async fn undo_reply(&mut self, who: Actor, seat: Color, accept: bool) {
        let Some((by, target)) = self.undo_offer else {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "there is no undo request to answer",
                    "undo_reply",
                    &self.id,
                ),
            );
            return;
        };
        if by == seat {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "you cannot answer your own undo request",
                    "undo_reply",
                    &self.id,
                ),
            );
            return;
        }
        self.undo_offer = None;
        if !accept {
            let text = format!("{} declines the take-back", self.seat_name(seat));
            self.system_chat(&text).await;
            return;
        }
        let Ok(position) = AnyPosition::with_moves(
            &self.game,
            &self
                .opening
                .iter()
                .chain(self.moves[..target].iter().map(|m| &m.mv))
                .collect::<Vec<_>>(),
        ) else {
            return;
        };
        if !self
            .store(Write::Truncate {
                room: self.id.clone(),
                ply: target,
                seq: self.seq + 1,
            })
            .await
        {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "the undo could not be stored",
                    "undo_reply",
                    &self.id,
                ),
            );
            return;
        }
        self.position = position;
        // The taken-back moves' request ids are free again: a client may reuse one for a new
        // move, which must then be played, not answered from the old one.
        for m in &self.moves[target..] {
            if let (Some(id), Some(seat)) = (&m.req_id, &self.seats[seat_index(m.by)]) {
                let key = (seat.player.clone(), id.clone());
                self.answers.remove(&key);
                self.answer_order.retain(|k| *k != key);
            }
        }
        self.moves.truncate(target);
        self.draw_offer = None;
        self.seq += 1;
        let turn = self.position.turn();
        if let Some(clock) = self.clock.as_mut() {
            clock.start_turn(turn, Instant::now());
        }
        self.broadcast(&ServerMsg::Undone {
            room: self.id.clone(),
            seq: self.seq,
            ply: target as u32,
        });
        self.publish();
    }

    async fn draw(&mut self, who: Actor, seat: Color) {
        match self.draw_offer {
            Some(by) if by != seat => {
                self.finish(None, EndReason::Agreement, None).await;
            }
            Some(_) => {
                self.reply(
                    &who,
                    err(
                        ErrorCode::BadRequest,
                        "your draw offer is already pending",
                        "draw",
                        &self.id,
                    ),
                );
            }
            None => {
                self.draw_offer = Some(seat);
                self.seq += 1;
                self.broadcast(&ServerMsg::DrawOffer {
                    room: self.id.clone(),
                    seq: self.seq,
                    by: seat,
                });
            }
        }
    }

    async fn draw_reply(&mut self, who: Actor, seat: Color, accept: bool) {
        match self.draw_offer {
            Some(by) if by != seat => {
                self.draw_offer = None;
                if accept {
                    self.finish(None, EndReason::Agreement, None).await;
                } else {
                    let text = format!("{} declines the draw", self.seat_name(seat));
                    self.system_chat(&text).await;
                }
            }
            _ => self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "there is no draw offer to answer",
                    "draw_reply",
                    &self.id,
                ),
            ),
        }
    }

    async fn rematch(&mut self, who: Actor, seat: Color) {
        if self.status != RoomStatus::Over {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "a rematch is possible once the game is over",
                    "rematch",
                    &self.id,
                ),
            );
            return;
        }
        if let Some(next) = &self.rematch_next {
            let msg = ServerMsg::Rematch {
                room: self.id.clone(),
                seq: self.seq,
                next: next.clone(),
            };
            who.conn.send(&msg);
            return;
        }
        let asked_before = self.rematch_asks[seat_index(seat)];
        self.rematch_asks[seat_index(seat)] = true;
        let other = &self.seats[seat_index(seat.other())];
        let bot_opponent = other.as_ref().is_some_and(|s| s.bot);
        if !(bot_opponent || self.rematch_asks[0] && self.rematch_asks[1]) {
            // Tell the room once; the opponent answers with its own `rematch`.
            if !asked_before {
                let text = format!("{} offers a rematch", self.seat_name(seat));
                self.system_chat(&text).await;
            }
            return;
        }
        // Colours swapped: black of this game plays white in the next.
        let seats = [self.seats[1].clone(), self.seats[0].clone()];
        let bots: Vec<(usize, Seat)> = seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.clone().filter(|s| s.bot).map(|s| (i, s)))
            .collect();
        let new = NewRoom {
            game: self.game.clone(),
            clock: self.clock_spec,
            opening: self.opening.clone(),
            private: self.private,
            creator: self.creator.clone(),
            seats,
        };
        match create_room(&self.hub, new).await {
            Ok(handle) => {
                for (i, seat) in bots {
                    // The bot already sits there; the invitation tells it where to go.
                    self.hub.hold_bot(&seat.player, &seat.name);
                    let invite = ServerMsg::Invite {
                        room: handle.id.clone(),
                        game: self.game.clone(),
                        seat: color_of(i),
                        level: seat.level.unwrap_or(5),
                        clock: self.clock_spec,
                    };
                    for conn in self.hub.bot_conns(&seat.player) {
                        conn.send(&invite);
                    }
                }
                self.seq += 1;
                self.rematch_next = Some(handle.id.clone());
                self.broadcast(&ServerMsg::Rematch {
                    room: self.id.clone(),
                    seq: self.seq,
                    next: handle.id,
                });
            }
            Err(e) => self.reply(&who, e),
        }
    }

    /// The name of whoever sits on `seat`, for lines from the room itself.
    fn seat_name(&self, seat: Color) -> String {
        self.seats[seat_index(seat)]
            .as_ref()
            .map_or_else(|| seat.as_str().to_string(), |s| s.name.clone())
    }

    /// A line from the room itself (offers without a message of their own).
    async fn system_chat(&mut self, text: &str) {
        self.seq += 1;
        self.broadcast(&ServerMsg::Chat {
            room: self.id.clone(),
            seq: self.seq,
            from: String::new(),
            name: "kibitz".to_string(),
            text: text.to_string(),
            bot: false,
            seat: None,
        });
    }

    async fn chat(&mut self, who: Actor, text: String) {
        let limits = &self.hub.config.limits;
        let text = text.trim().to_string();
        if text.is_empty() {
            self.reply(
                &who,
                err(ErrorCode::BadRequest, "empty chat line", "chat", &self.id),
            );
            return;
        }
        if text.chars().count() > limits.chat_max_chars {
            let msg = format!(
                "chat lines are at most {} characters",
                limits.chat_max_chars
            );
            self.reply(&who, err(ErrorCode::TooLong, msg, "chat", &self.id));
            return;
        }
        let player = who.player.id.clone();
        if !self.members.contains_key(&who.conn.id) && self.seat_of(&player).is_none() {
            self.reply(
                &who,
                err(
                    ErrorCode::NotAPlayer,
                    "join the room to chat",
                    "chat",
                    &self.id,
                ),
            );
            return;
        }
        if self.last_chat.get(&player) == Some(&text) {
            self.reply(
                &who,
                err(
                    ErrorCode::RateLimited,
                    "you just said that",
                    "chat",
                    &self.id,
                ),
            );
            return;
        }
        let now = Instant::now();
        let window = limits.chat_window;
        let max_lines = limits.chat_lines_per_window as usize;
        let times = self.chat_times.entry(player.clone()).or_default();
        while times.front().is_some_and(|t| *t + window <= now) {
            times.pop_front();
        }
        if times.len() >= max_lines {
            let msg = format!("at most {max_lines} chat lines per {} s", window.as_secs());
            self.reply(&who, err(ErrorCode::RateLimited, msg, "chat", &self.id));
            return;
        }
        times.push_back(now);
        self.last_chat.insert(player.clone(), text.clone());
        let seat = self.seat_of(&player);
        let line = StoredChat {
            player: player.clone(),
            name: who.player.name.clone(),
            text: text.clone(),
            seat,
            bot: who.player.bot,
            at_ms: now_ms(),
        };
        // Spectator lines reach spectators only, so they do not take a number from the
        // room's sequence (players would see a gap); they carry the current one.
        let seq = if seat.is_some() {
            self.seq + 1
        } else {
            self.seq
        };
        if !self
            .store(Write::Chat {
                room: self.id.clone(),
                seq,
                line,
            })
            .await
        {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "the line could not be stored",
                    "chat",
                    &self.id,
                ),
            );
            return;
        }
        self.seq = seq;
        let msg = ServerMsg::Chat {
            room: self.id.clone(),
            seq,
            from: player,
            name: who.player.name.clone(),
            text,
            bot: who.player.bot,
            seat,
        };
        if seat.is_some() {
            self.broadcast(&msg);
        } else {
            let text: Arc<str> = Arc::from(msg.to_json());
            for m in self.members.values() {
                if self.seat_of(&m.player.id).is_none() {
                    m.conn.send_text(text.clone());
                }
            }
            if !self.members.contains_key(&who.conn.id) {
                who.conn.send_text(text);
            }
        }
    }

    async fn invite_bot(&mut self, who: Actor, level: u8) {
        if !(1..=10).contains(&level) {
            self.reply(
                &who,
                err(
                    ErrorCode::BadRequest,
                    "bot levels are 1..=10",
                    "invite_bot",
                    &self.id,
                ),
            );
            return;
        }
        if self.status != RoomStatus::Waiting {
            self.reply(
                &who,
                err(
                    ErrorCode::RoomFull,
                    "there is no free seat",
                    "invite_bot",
                    &self.id,
                ),
            );
            return;
        }
        let Some(i) = (0..2).find(|&i| self.seats[i].is_none() && self.invites[i].is_none()) else {
            self.reply(
                &who,
                err(
                    ErrorCode::RoomFull,
                    "there is no free seat",
                    "invite_bot",
                    &self.id,
                ),
            );
            return;
        };
        self.invite(i, level, Some((who.conn, "invite_bot"))).await;
    }

    /// Asks the next untried bot to take seat `i`; tells `requester` if none is left.
    async fn invite(&mut self, i: usize, level: u8, requester: Option<(Conn, &'static str)>) {
        let mut tried = self.tried[i].clone();
        // A bot never plays itself: exclude whoever sits or is invited on the other seat.
        if let Some(s) = &self.seats[1 - i] {
            tried.push(s.player.clone());
        }
        if let Some(inv) = &self.invites[1 - i] {
            tried.push(inv.bot.clone());
        }
        match self.hub.reserve_bot(self.game.kind(), &tried, &self.id) {
            Some((bot, conns)) => {
                let invite = ServerMsg::Invite {
                    room: self.id.clone(),
                    game: self.game.clone(),
                    seat: color_of(i),
                    level,
                    clock: self.clock_spec,
                };
                for conn in &conns {
                    conn.send(&invite);
                }
                self.invites[i] = Some(Invite {
                    bot,
                    level,
                    deadline: Instant::now() + self.hub.config.invite_timeout,
                    requester,
                });
                self.publish();
            }
            None => {
                self.tried[i].clear();
                if let Some((conn, reference)) = requester {
                    self.hub.metrics.error(ErrorCode::NoBotAvailable.as_str());
                    conn.send(&err(
                        ErrorCode::NoBotAvailable,
                        "no bot is free to play this game",
                        reference,
                        &self.id,
                    ));
                }
                self.publish();
            }
        }
    }

    /// The invited bot declined, timed out or vanished: ask the next one.
    async fn invite_failed(&mut self, i: usize) {
        let Some(inv) = self.invites[i].take() else {
            return;
        };
        self.hub.invite_resolved(&inv.bot, &self.id);
        self.hub.release_bot(&inv.bot);
        self.tried[i].push(inv.bot);
        self.invite(i, inv.level, inv.requester).await;
    }
}
