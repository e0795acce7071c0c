//! One WebSocket connection: a reader that enforces the frame rules and rate limits, parses
//! each frame in one place and routes it (identity, rooms, seeks, lobby), and a writer that
//! drains a bounded queue, pings, and closes a client that cannot keep up.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures::{SinkExt, StreamExt};
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::{timeout, Instant};

use game_core::protocol::{
    parse_client, BotSeats, ClientMsg, ClockSpec, ErrorCode, JoinAs, SeatChoice, ServerMsg,
};
use game_core::{AnyPosition, Color, GameSpec};

use crate::conn::{Conn, Out};
use crate::hub::{BotEntry, PlayerRecord, Seeker, SharedHub};
use crate::lobby::LobbyEvent;
use crate::room::{create_room, spawn_room, Action, Actor, NewRoom, RoomCmd, RoomHandle, Seat};
use crate::store::Write;
use crate::token;

/// Close codes of RFC 6455 used here.
const CLOSE_GOING_AWAY: u16 = 1001;
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;

/// Counts messages in fixed windows.
struct RateWindow {
    start: Instant,
    count: u32,
    refusals: u32,
}

struct Session {
    hub: SharedHub,
    conn: Conn,
    player: Option<PlayerRecord>,
    /// Joined a room as a player, created, or sought a game: the player rate limit applies.
    acts_as_player: bool,
    rate: RateWindow,
    /// The server has queued a close frame for this connection.
    closing: bool,
}

/// Serves one upgraded WebSocket until it closes or the server shuts down.
pub async fn serve(socket: WebSocket, hub: SharedHub) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(hub.config.limits.outgoing_queue);
    let overflow = Arc::new(Notify::new());
    let conn = Conn::new(hub.next_conn_id(), tx, overflow.clone());
    hub.metrics.connection_opened();
    hub.session_started();
    // Tells the writer that the reader is done: it sends what is queued and stops, even if a
    // room or the lobby still holds a clone of the connection's queue.
    let (reader_done, mut reader_done_rx) = oneshot::channel::<()>();

    let metrics = hub.metrics.clone();
    let ping_every = hub.config.limits.ping_interval;
    let writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        loop {
            tokio::select! {
                out = rx.recv() => match out {
                    Some(Out::Text(text)) => {
                        metrics.message_out();
                        if sink.send(Message::Text(Utf8Bytes::from(&*text))).await.is_err() {
                            break;
                        }
                    }
                    Some(Out::Close(code, reason)) => {
                        let _ = sink
                            .send(Message::Close(Some(CloseFrame { code, reason: Utf8Bytes::from(reason) })))
                            .await;
                        break;
                    }
                    None => break,
                },
                _ = &mut reader_done_rx => {
                    while let Ok(out) = rx.try_recv() {
                        let frame = match out {
                            Out::Text(text) => {
                                metrics.message_out();
                                Message::Text(Utf8Bytes::from(&*text))
                            }
                            Out::Close(code, reason) => Message::Close(Some(CloseFrame {
                                code,
                                reason: Utf8Bytes::from(reason),
                            })),
                        };
                        let closing = matches!(frame, Message::Close(_));
                        if sink.send(frame).await.is_err() || closing {
                            break;
                        }
                    }
                    break;
                }
                () = overflow.notified() => {
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: CLOSE_POLICY,
                            reason: Utf8Bytes::from_static("too slow to keep up"),
                        })))
                        .await;
                    break;
                }
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    });

    let mut session = Session {
        hub: hub.clone(),
        conn: conn.clone(),
        player: None,
        acts_as_player: false,
        closing: false,
        rate: RateWindow {
            start: Instant::now(),
            count: 0,
            refusals: 0,
        },
    };
    let mut shutdown = hub.shutdown.clone();
    let idle = hub.config.limits.idle_timeout;
    loop {
        tokio::select! {
            frame = timeout(idle, stream.next()) => {
                let frame = match frame {
                    Err(_) => {
                        session.close(CLOSE_POLICY, "idle for too long").await;
                        break;
                    }
                    Ok(None) | Ok(Some(Err(_))) => break,
                    Ok(Some(Ok(frame))) => frame,
                };
                let keep = match frame {
                    Message::Text(text) => session.on_text(text.as_str()).await,
                    Message::Binary(_) => {
                        session.refuse(ErrorCode::BadRequest, "binary frames are not accepted; send JSON text", None).await
                    }
                    Message::Ping(_) | Message::Pong(_) => true,
                    Message::Close(_) => false,
                };
                if !keep {
                    break;
                }
            }
            _ = shutdown.changed() => {
                session.close(CLOSE_GOING_AWAY, "server shutting down").await;
                break;
            }
        }
    }
    let closing = session.closing;
    session.finish().await;
    drop(session);
    drop(conn);
    let _ = reader_done.send(());
    if closing {
        // Complete the closing handshake: read until the client's close answers ours, so
        // that frames still in flight from the client do not reset the connection and
        // lose our close frame on the way.
        let _ = timeout(CLOSE_GRACE, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    // A client that does not read cannot hold the writer (and shutdown) forever.
    let _ = tokio::time::timeout(WRITER_GRACE, writer).await;
    hub.metrics.connection_closed();
    hub.session_ended();
}

/// How long the server waits for a client to answer its close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// How long a closing connection may take to flush its last frames.
const WRITER_GRACE: Duration = Duration::from_secs(5);

impl Session {
    /// Closes after whatever is queued, so it goes through the same queue.
    async fn close(&mut self, code: u16, reason: &'static str) {
        self.closing = true;
        self.conn.close(code, reason).await;
    }

    fn send(&self, msg: &ServerMsg) {
        self.conn.send(msg);
    }

    fn error(
        &self,
        code: ErrorCode,
        message: impl Into<String>,
        reference: Option<&str>,
        room: Option<&str>,
        id: Option<&str>,
    ) {
        self.hub.metrics.error(code.as_str());
        self.send(&ServerMsg::Error {
            code,
            message: message.into(),
            reference: reference.map(str::to_string),
            room: room.map(str::to_string),
            id: id.map(str::to_string),
        });
    }

    /// Refuses a frame; persistent abuse closes the connection. Returns whether to go on.
    async fn refuse(&mut self, code: ErrorCode, message: &str, reference: Option<&str>) -> bool {
        self.error(code, message, reference, None, None);
        self.count_refusal().await
    }

    async fn count_refusal(&mut self) -> bool {
        self.rate.refusals += 1;
        if self.rate.refusals > self.hub.config.limits.max_refusals_per_window {
            self.close(CLOSE_POLICY, "too many refused messages").await;
            return false;
        }
        true
    }

    /// Applies the rate limit; returns false when the message must be refused.
    fn within_rate(&mut self) -> bool {
        let limits = &self.hub.config.limits;
        let now = Instant::now();
        if now.duration_since(self.rate.start) >= limits.rate_window {
            self.rate = RateWindow {
                start: now,
                count: 0,
                refusals: 0,
            };
        }
        self.rate.count += 1;
        let is_bot = self.player.as_ref().is_some_and(|p| p.bot);
        let limit = if is_bot {
            // A bot plays many games at once; it gets ten players' worth.
            limits.player_msgs_per_window * 10
        } else if self.acts_as_player || self.player.is_none() {
            limits.player_msgs_per_window
        } else {
            limits.spectator_msgs_per_window
        };
        self.rate.count <= limit
    }

    async fn on_text(&mut self, text: &str) -> bool {
        self.hub.metrics.message_in();
        let received = Instant::now();
        if text.len() > self.hub.config.limits.max_frame_bytes {
            self.hub.metrics.error("too_long");
            self.close(CLOSE_TOO_BIG, "frame larger than 8 KiB").await;
            return false;
        }
        if !self.within_rate() {
            self.error(
                ErrorCode::RateLimited,
                "too many messages; slow down",
                None,
                None,
                None,
            );
            return self.count_refusal().await;
        }
        let msg = match parse_client(text) {
            Ok(msg) => msg,
            Err(e) => {
                self.hub.metrics.error(e.code.as_str());
                self.send(&e.to_server_msg());
                return true;
            }
        };
        let reference = msg.type_name();
        if self.player.is_none() {
            if let ClientMsg::Hello { name, token, bot } = msg {
                self.hello(name, token, bot).await;
            } else {
                self.error(
                    ErrorCode::HelloRequired,
                    "say hello first",
                    Some(reference),
                    None,
                    None,
                );
            }
            return true;
        }
        self.dispatch(msg, received).await;
        true
    }

    async fn hello(
        &mut self,
        name: String,
        token: Option<String>,
        bot: Option<game_core::protocol::BotHello>,
    ) {
        let name = name.trim().to_string();
        if name.is_empty() || name.chars().count() > 32 || name.chars().any(char::is_control) {
            self.error(
                ErrorCode::BadRequest,
                "a name is 1 to 32 printable characters",
                Some("hello"),
                None,
                None,
            );
            return;
        }
        if let Some(b) = &bot {
            let key_ok = self
                .hub
                .config
                .bot_key
                .as_deref()
                .is_some_and(|k| token::constant_time_eq(k.as_bytes(), b.key.as_bytes()));
            if !key_ok {
                self.error(
                    ErrorCode::BadBotKey,
                    "wrong bot key",
                    Some("hello"),
                    None,
                    None,
                );
                return;
            }
            if b.games.is_empty() || b.capacity == 0 || b.capacity > 1000 {
                self.error(
                    ErrorCode::BadRequest,
                    "a bot names its games and a capacity of 1..=1000",
                    Some("hello"),
                    None,
                    None,
                );
                return;
            }
        }
        // A known token resumes its player under the name given now; no token makes a new one.
        let known = token.as_ref().map(|t| {
            let hash = token::token_hash(t);
            let player = self
                .hub
                .tokens
                .get(&hash)
                .and_then(|id| self.hub.players.get(id.value()).map(|p| p.clone()));
            (hash, player)
        });
        let (mut record, token, hash) = match (known, token) {
            (Some((hash, Some(record))), Some(token)) => (record, token, hash),
            (Some(_), _) => {
                self.error(
                    ErrorCode::BadToken,
                    "unknown token",
                    Some("hello"),
                    None,
                    None,
                );
                return;
            }
            (None, _) => {
                let token = token::new_token();
                let hash = token::token_hash(&token);
                let record = PlayerRecord {
                    id: token::random_id(10),
                    name: name.clone(),
                    bot: false,
                };
                (record, token, hash)
            }
        };
        record.name.clone_from(&name);
        record.bot = bot.is_some();
        let stored = self
            .hub
            .store
            .write(Write::Player {
                id: record.id.clone(),
                name: name.clone(),
                token_hash: hash.clone(),
                bot: record.bot,
            })
            .await;
        if stored.is_err() {
            self.error(
                ErrorCode::BadRequest,
                "could not store the player",
                Some("hello"),
                None,
                None,
            );
            return;
        }
        self.hub.players.insert(record.id.clone(), record.clone());
        self.hub.tokens.insert(hash, record.id.clone());
        if let Some(b) = bot {
            let conn = self.conn.clone();
            let mut entry = self
                .hub
                .bots
                .entry(record.id.clone())
                .or_insert_with(|| BotEntry {
                    player: record.id.clone(),
                    name: record.name.clone(),
                    games: Vec::new(),
                    capacity: 0,
                    busy: 0,
                    conns: Vec::new(),
                    invited: HashSet::new(),
                });
            entry.name = record.name.clone();
            entry.games = b.games;
            entry.capacity = b.capacity;
            entry.conns.retain(|c| !c.is_closed());
            entry.conns.push(conn);
            drop(entry);
            self.hub.lobby_changed();
        }
        self.send(&ServerMsg::Welcome {
            player: record.id.clone(),
            name: record.name.clone(),
            token,
            protocol: 1,
        });
        self.player = Some(record);
    }

    fn actor(&self) -> Actor {
        Actor {
            conn: self.conn.clone(),
            player: self.player.clone().unwrap_or(PlayerRecord {
                id: String::new(),
                name: String::new(),
                bot: false,
            }),
        }
    }

    /// The room's handle, reloading a finished room from the store if it is not in memory.
    async fn room(&self, id: &str) -> Option<RoomHandle> {
        if let Some(handle) = self.hub.rooms.get(id) {
            return Some(handle.clone());
        }
        if id.is_empty() || id.len() > 64 {
            return None;
        }
        let stored = self.hub.store.read_room(id).await.ok()??;
        if let Some(handle) = self.hub.rooms.get(id) {
            return Some(handle.clone());
        }
        spawn_room(&self.hub, stored, false).ok()
    }

    async fn to_room(&self, id: &str, mut cmd: RoomCmd, reference: &str) -> bool {
        // A finished room may retire between the lookup and the send; the next lookup then
        // reloads it from the store.
        for _ in 0..3 {
            let Some(handle) = self.room(id).await else {
                break;
            };
            match handle.tx.send(cmd).await {
                Ok(()) => return true,
                Err(mpsc::error::SendError(back)) => cmd = back,
            }
        }
        self.error(
            ErrorCode::NoSuchRoom,
            format!("no room {id:?}"),
            Some(reference),
            Some(id),
            None,
        );
        false
    }

    async fn act(&self, room: &str, action: Action, received: Instant) {
        let reference = action.type_name();
        let cmd = RoomCmd::Act {
            who: self.actor(),
            action,
            received,
        };
        self.to_room(room, cmd, reference).await;
    }

    async fn dispatch(&mut self, msg: ClientMsg, received: Instant) {
        match msg {
            ClientMsg::Hello { .. } => {
                self.error(
                    ErrorCode::BadRequest,
                    "already said hello on this connection",
                    Some("hello"),
                    None,
                    None,
                );
            }
            ClientMsg::Create {
                game,
                seat,
                clock,
                opening,
                bots,
                private,
            } => self.create(game, seat, clock, opening, bots, private).await,
            ClientMsg::Join { room, join_as } => {
                let as_player = join_as == JoinAs::Player;
                if as_player {
                    self.acts_as_player = true;
                }
                let cmd = RoomCmd::Join {
                    who: self.actor(),
                    as_player,
                };
                self.to_room(&room, cmd, "join").await;
            }
            ClientMsg::Move { room, mv, id } => {
                if mv.len() > 16 {
                    self.error(
                        ErrorCode::IllegalMove,
                        "not a move",
                        Some("move"),
                        Some(&room),
                        id.as_deref(),
                    );
                    return;
                }
                self.act(&room, Action::Move { mv, id }, received).await;
            }
            ClientMsg::Resign { room } => self.act(&room, Action::Resign, received).await,
            ClientMsg::Undo { room } => self.act(&room, Action::Undo, received).await,
            ClientMsg::UndoReply { room, accept } => {
                self.act(&room, Action::UndoReply(accept), received).await
            }
            ClientMsg::Draw { room } => self.act(&room, Action::Draw, received).await,
            ClientMsg::DrawReply { room, accept } => {
                self.act(&room, Action::DrawReply(accept), received).await
            }
            ClientMsg::Rematch { room } => self.act(&room, Action::Rematch, received).await,
            ClientMsg::Chat { room, text } => {
                if text.chars().count() > self.hub.config.limits.chat_max_chars {
                    let max = self.hub.config.limits.chat_max_chars;
                    self.error(
                        ErrorCode::TooLong,
                        format!("chat lines are at most {max} characters"),
                        Some("chat"),
                        Some(&room),
                        None,
                    );
                    return;
                }
                self.act(&room, Action::Chat(text), received).await;
            }
            ClientMsg::InviteBot { room, level } => {
                self.act(&room, Action::InviteBot(level), received).await
            }
            ClientMsg::Leave { room } => {
                // Also for a seated player who has not joined on this connection: leaving a
                // waiting room gives the seat up.
                let cmd = RoomCmd::Leave { who: self.actor() };
                self.to_room(&room, cmd, "leave").await;
            }
            ClientMsg::Seek { game, clock } => self.seek(game, clock).await,
            ClientMsg::Unseek => {
                self.hub.drop_seeks(self.conn.id);
            }
            ClientMsg::Lobby => {
                let _ = self
                    .hub
                    .lobby
                    .send(LobbyEvent::Subscribe(self.conn.clone()));
            }
            ClientMsg::Unlobby => {
                let _ = self.hub.lobby.send(LobbyEvent::Unsubscribe(self.conn.id));
            }
            ClientMsg::Decline { room } => {
                let bot = self.actor().player.id;
                self.to_room(&room, RoomCmd::Decline { bot }, "decline")
                    .await;
            }
        }
    }

    fn check_game(&self, game: &GameSpec, clock: Option<&ClockSpec>, reference: &str) -> bool {
        if let Err(e) = game.validate() {
            self.error(
                ErrorCode::BadGame,
                e.to_string(),
                Some(reference),
                None,
                None,
            );
            return false;
        }
        if let Some(clock) = clock {
            if let Err(e) = clock.validate() {
                self.error(
                    ErrorCode::BadRequest,
                    e.to_string(),
                    Some(reference),
                    None,
                    None,
                );
                return false;
            }
        }
        true
    }

    fn open_rooms(&self) -> usize {
        let me = self.actor().player.id;
        self.hub
            .rooms
            .iter()
            .filter(|r| r.creator.as_deref() == Some(me.as_str()) && r.is_unfinished())
            .count()
    }

    async fn create(
        &mut self,
        game: GameSpec,
        seat: SeatChoice,
        clock: Option<ClockSpec>,
        opening: Vec<String>,
        bots: Option<BotSeats>,
        private: bool,
    ) {
        if !self.check_game(&game, clock.as_ref(), "create") {
            return;
        }
        if opening.len() > 1024 {
            self.error(
                ErrorCode::BadGame,
                "opening too long",
                Some("create"),
                None,
                None,
            );
            return;
        }
        if let Err(e) = AnyPosition::with_moves(&game, &opening) {
            self.error(
                ErrorCode::BadGame,
                format!("bad opening: {e}"),
                Some("create"),
                None,
                None,
            );
            return;
        }
        let bots = bots.unwrap_or_default();
        let levels = [bots.black, bots.white];
        if levels.iter().flatten().any(|l| !(1..=10).contains(l)) {
            self.error(
                ErrorCode::BadRequest,
                "bot levels are 1..=10",
                Some("create"),
                None,
                None,
            );
            return;
        }
        let limit = self.hub.config.limits.open_rooms_per_player;
        if self.open_rooms() >= limit {
            self.error(
                ErrorCode::BadRequest,
                format!("at most {limit} open rooms per player"),
                Some("create"),
                None,
                None,
            );
            return;
        }
        let me = self.actor().player;
        let mut my_seat = match seat {
            SeatChoice::Black => Some(Color::Black),
            SeatChoice::White => Some(Color::White),
            SeatChoice::None => None,
            SeatChoice::Random => Some(if rand::random::<bool>() {
                Color::Black
            } else {
                Color::White
            }),
        };
        if let Some(c) = my_seat {
            if levels[c.index()].is_some() {
                if seat == SeatChoice::Random && levels[c.other().index()].is_none() {
                    my_seat = Some(c.other());
                } else {
                    self.error(
                        ErrorCode::BadRequest,
                        "that seat is promised to a bot",
                        Some("create"),
                        None,
                        None,
                    );
                    return;
                }
            }
        }
        let mut seats: [Option<Seat>; 2] = [None, None];
        if let Some(c) = my_seat {
            seats[c.index()] = Some(Seat {
                player: me.id.clone(),
                name: me.name.clone(),
                bot: me.bot,
                level: None,
            });
            self.acts_as_player = true;
        }
        let new = NewRoom {
            game,
            clock,
            opening,
            private,
            creator: Some(me.id.clone()),
            seats,
        };
        match create_room(&self.hub, new).await {
            Ok(handle) => {
                self.send(&ServerMsg::Created {
                    room: handle.id.clone(),
                });
                let _ = handle
                    .tx
                    .send(RoomCmd::Join {
                        who: self.actor(),
                        as_player: my_seat.is_some(),
                    })
                    .await;
                // After the creator is in, so that it hears `no_bot_available`.
                for (i, level) in levels.iter().enumerate() {
                    if let Some(level) = *level {
                        let seat = if i == 0 { Color::Black } else { Color::White };
                        let _ = handle
                            .tx
                            .send(RoomCmd::InviteSeat {
                                seat,
                                level,
                                requester: Some(self.conn.clone()),
                            })
                            .await;
                    }
                }
            }
            Err(e) => {
                if let ServerMsg::Error { code, .. } = &e {
                    self.hub.metrics.error(code.as_str());
                }
                self.send(&e);
            }
        }
    }

    async fn seek(&mut self, game: GameSpec, clock: Option<ClockSpec>) {
        if !self.check_game(&game, clock.as_ref(), "seek") {
            return;
        }
        self.acts_as_player = true;
        let me = self.actor().player;
        let opponent = {
            let mut book = self.hub.seeks.lock().unwrap_or_else(|e| e.into_inner());
            // At most one seek per player: a new one replaces the old.
            book.waiting
                .retain(|(_, _, s)| s.player.id != me.id && !s.conn.is_closed());
            let found = book
                .waiting
                .iter()
                .position(|(g, c, _)| *g == game && *c == clock);
            match found {
                Some(i) => Some(book.waiting.remove(i).2),
                None => {
                    let seek = token::random_id(8);
                    book.waiting.push((
                        game.clone(),
                        clock,
                        Seeker {
                            seek: seek.clone(),
                            player: me.clone(),
                            conn: self.conn.clone(),
                        },
                    ));
                    self.send(&ServerMsg::Seeking { seek });
                    None
                }
            }
        };
        self.hub.lobby_changed();
        let Some(opponent) = opponent else {
            return;
        };
        let seat_of = |p: &PlayerRecord| Seat {
            player: p.id.clone(),
            name: p.name.clone(),
            bot: p.bot,
            level: None,
        };
        let seats = if rand::random::<bool>() {
            [Some(seat_of(&me)), Some(seat_of(&opponent.player))]
        } else {
            [Some(seat_of(&opponent.player)), Some(seat_of(&me))]
        };
        let new = NewRoom {
            game,
            clock,
            opening: Vec::new(),
            private: false,
            creator: None,
            seats,
        };
        match create_room(&self.hub, new).await {
            Ok(handle) => {
                for who in [
                    Actor {
                        conn: opponent.conn.clone(),
                        player: opponent.player.clone(),
                    },
                    self.actor(),
                ] {
                    who.conn.send(&ServerMsg::Created {
                        room: handle.id.clone(),
                    });
                    let _ = handle
                        .tx
                        .send(RoomCmd::Join {
                            who,
                            as_player: true,
                        })
                        .await;
                }
            }
            Err(e) => self.send(&e),
        }
    }

    /// The connection is gone: rooms learn it, seeks and lobby subscriptions end.
    async fn finish(&mut self) {
        for room in self.conn.take_rooms() {
            if let Some(handle) = self.hub.rooms.get(&room).map(|h| h.clone()) {
                let _ = handle
                    .tx
                    .send(RoomCmd::Gone {
                        conn_id: self.conn.id,
                    })
                    .await;
            }
        }
        self.hub.drop_seeks(self.conn.id);
        let _ = self.hub.lobby.send(LobbyEvent::Unsubscribe(self.conn.id));
        if let Some(p) = &self.player {
            if p.bot {
                let vanished: Vec<String> = match self.hub.bots.get_mut(&p.id) {
                    Some(mut bot) => {
                        let id = self.conn.id;
                        bot.conns.retain(|c| c.id != id && !c.is_closed());
                        if bot.conns.is_empty() {
                            bot.invited.iter().cloned().collect()
                        } else {
                            Vec::new()
                        }
                    }
                    None => Vec::new(),
                };
                // Its invitations will never be answered: the rooms ask the next bot now.
                for room in vanished {
                    if let Some(handle) = self.hub.rooms.get(&room).map(|h| h.clone()) {
                        let _ = handle.tx.send(RoomCmd::Decline { bot: p.id.clone() }).await;
                    }
                }
                self.hub.lobby_changed();
            }
        }
    }
}
