//! A session's identity and role, and where each of its messages goes: `hello` to identity,
//! `create` and `seek` to making rooms, room requests to the room's queue (reloading a finished
//! room from the store), lobby subscriptions to the lobby.

use std::net::IpAddr;

use tokio::time::Instant;

use game_core::protocol::{ClientMsg, JoinAs, ServerMsg, PROTOCOL_VERSION};

use super::create::{create, CreateRequest};
use super::error::SessionError;
use super::frames::Role;
use super::identity::hello;
use super::{hall_puzzles, live, reviews};
use crate::accounts::players::PlayerRecord;
use crate::hub::SharedHub;
use crate::lobby::challenges;
use crate::lobby::pairing::{seek, unseek};
use crate::moderation::sanctions;
use crate::net::connection::Conn;
use crate::refusal::{error_reply, About, Refusal};
use crate::room::error::RoomError;
use crate::room::handle::{Action, Actor, RoomCmd};
use crate::room::member::MemberLink;
use crate::room::relay;

/// Longest move text passed to a room. The longest step of any game is an opening's ten
/// offered 5th moves, `fifths a1,b2,...` (46 bytes in canonical form).
const MAX_MOVE_BYTES: usize = 64;
/// Longest request id of a move, in characters: ids are kept in the room's answers and
/// stored with each move, so an unbounded one would grow both with every move.
const MAX_MOVE_ID_CHARS: usize = 64;

/// One connection's state past the frame rules.
pub struct Session {
    hub: SharedHub,
    conn: Conn,
    /// The client's address: its new players and rooms count against it.
    address: IpAddr,
    link: MemberLink,
    player: Option<PlayerRecord>,
    /// Joined a room as a player, created, or sought a game: the player rate applies.
    acts_as_player: bool,
}

impl Session {
    #[must_use]
    pub fn new(hub: SharedHub, conn: Conn, address: IpAddr) -> Session {
        hub.coord().conn_opened(&conn);
        Session {
            hub,
            link: MemberLink::Local(conn.clone()),
            conn,
            address,
            player: None,
            acts_as_player: false,
        }
    }

    /// Who the connection is, for its message rate. Before `hello` it counts as a player.
    #[must_use]
    pub fn role(&self) -> Role {
        match &self.player {
            Some(p) if p.bot => Role::Bot,
            Some(_) if !self.acts_as_player => Role::Spectator,
            _ => Role::Player,
        }
    }

    /// The one answer to a refused message.
    pub fn refuse(&self, why: &dyn Refusal, about: About<'_>) {
        self.conn.send(&error_reply(self.hub.metrics(), why, about));
    }

    /// A parsed message: `hello` first, then anything.
    pub async fn on_message(&mut self, msg: ClientMsg, received: Instant) {
        let reference = msg.type_name();
        let about = About {
            reference: Some(reference),
            ..About::default()
        };
        match (msg, self.player.is_some()) {
            (
                ClientMsg::Hello {
                    name,
                    token,
                    bot,
                    house,
                },
                false,
            ) => {
                let analysis = bot.as_ref().is_some_and(|b| b.analysis);
                match hello(
                    &self.hub,
                    &self.link,
                    self.address,
                    &name,
                    token,
                    bot,
                    house,
                )
                .await
                {
                    Ok(welcome) => {
                        self.conn.send(&ServerMsg::Welcome {
                            player: welcome.player.id.clone(),
                            name: welcome.player.name.clone(),
                            token: welcome.token,
                            protocol: PROTOCOL_VERSION,
                            account: welcome.player.account,
                            name_max: Some(self.hub.config().limits.name_max_chars as u32),
                        });
                        if analysis {
                            reviews::worker_joined(&self.hub, &self.conn, &welcome.player.name);
                        }
                        self.hub.coord().conn_is(self.conn.id, &welcome.player);
                        self.player = Some(welcome.player);
                    }
                    Err(e) => self.refuse(&e, about),
                }
            }
            (ClientMsg::Hello { .. }, true) => self.refuse(&SessionError::AlreadyHello, about),
            (_, false) => self.refuse(&SessionError::HelloRequired, about),
            (msg, true) => self.dispatch(msg, reference, received).await,
        }
    }

    fn actor(&self) -> Actor {
        Actor {
            link: self.link.clone(),
            player: self.player.clone().unwrap_or(PlayerRecord {
                id: String::new(),
                name: String::new(),
                bot: false,
                account: false,
            }),
        }
    }

    /// Sends `cmd` to room `id`, wherever it is; an unknown room, or one whose node cannot
    /// be reached, is refused: false, the client told why.
    async fn to_room(&self, id: &str, cmd: RoomCmd, reference: &str) -> bool {
        match relay::to_room(&self.hub, id, cmd).await {
            Ok(()) => true,
            Err(why) => {
                self.refuse(&why, About::room(reference, id));
                false
            }
        }
    }

    async fn act(&self, room: &str, action: Action, reference: &'static str, received: Instant) {
        let cmd = RoomCmd::Act {
            who: self.actor(),
            action,
            reference,
            received,
        };
        self.to_room(room, cmd, reference).await;
    }

    async fn dispatch(&mut self, msg: ClientMsg, reference: &'static str, received: Instant) {
        let about = About {
            reference: Some(reference),
            ..About::default()
        };
        match msg {
            ClientMsg::Hello { .. } => self.refuse(&SessionError::AlreadyHello, about),
            ClientMsg::Create {
                game,
                seat,
                clock,
                opening,
                bots,
                private,
                rated,
            } => {
                if rated {
                    if let Err(why) = sanctions::may_play_rated(&self.hub, &self.actor().player.id)
                    {
                        self.refuse(&why, about);
                        return;
                    }
                }
                let request = CreateRequest {
                    game,
                    seat,
                    clock,
                    opening,
                    bots,
                    private,
                    rated,
                    prefer_bot: None,
                };
                let me = self.actor();
                match create(&self.hub, &me, self.address, reference, request).await {
                    Ok(seated) => self.acts_as_player |= seated,
                    Err(e) => self.refuse(&e, about),
                }
            }
            ClientMsg::Join { room, join_as } => {
                let as_player = join_as == JoinAs::Player;
                self.acts_as_player |= as_player;
                let cmd = RoomCmd::Join {
                    who: self.actor(),
                    as_player,
                };
                if !self.to_room(&room, cmd, reference).await {
                    // Told to try again, say: if the join was passed to the room's node
                    // before it failed, it is not to be made again for the client.
                    self.conn.join_settled(&room);
                }
            }
            ClientMsg::Move { room, mv, id } => {
                if mv.len() > MAX_MOVE_BYTES {
                    let about = About::room(reference, &room).with_id(id.as_deref());
                    self.refuse(&RoomError::NotAMove, about);
                    return;
                }
                if id
                    .as_deref()
                    .is_some_and(|id| id.chars().count() > MAX_MOVE_ID_CHARS)
                {
                    // Not echoed: the id is what is too long.
                    let about = About::room(reference, &room);
                    self.refuse(&RoomError::LongMoveId(MAX_MOVE_ID_CHARS), about);
                    return;
                }
                if id
                    .as_deref()
                    .is_some_and(|id| id.chars().any(char::is_control))
                {
                    let about = About::room(reference, &room).with_id(id.as_deref());
                    self.refuse(&RoomError::BadMoveId, about);
                    return;
                }
                self.act(&room, Action::Move { mv, id }, reference, received)
                    .await;
            }
            ClientMsg::Resign { room } => {
                self.act(&room, Action::Resign, reference, received).await
            }
            ClientMsg::Abort { room } => self.act(&room, Action::Abort, reference, received).await,
            ClientMsg::Claim { room, result } => {
                self.act(&room, Action::Claim(result), reference, received)
                    .await
            }
            ClientMsg::Undo { room } => self.act(&room, Action::Undo, reference, received).await,
            ClientMsg::UndoReply { room, accept } => {
                let action = Action::UndoReply(accept);
                self.act(&room, action, reference, received).await;
            }
            ClientMsg::Draw { room } => self.act(&room, Action::Draw, reference, received).await,
            ClientMsg::DrawReply { room, accept } => {
                let action = Action::DrawReply(accept);
                self.act(&room, action, reference, received).await;
            }
            ClientMsg::Rematch { room } => {
                self.act(&room, Action::Rematch, reference, received).await;
            }
            ClientMsg::Chat { room, text } => {
                if let Err(why) = sanctions::may_chat(&self.hub, &self.actor().player.id) {
                    self.refuse(&why, About::room(reference, &room));
                    return;
                }
                self.act(&room, Action::Chat(text), reference, received)
                    .await;
            }
            ClientMsg::InviteBot { room, level } => {
                let action = Action::InviteBot(level);
                self.act(&room, action, reference, received).await;
            }
            ClientMsg::Leave { room } => {
                // Also for a seated player who has not joined on this connection: leaving a
                // waiting room gives the seat up. A join of it passed to another node and
                // lost there is not to be made again.
                self.conn.join_settled(&room);
                let cmd = RoomCmd::Leave { who: self.actor() };
                self.to_room(&room, cmd, reference).await;
            }
            ClientMsg::Seek { game, clock } => {
                self.acts_as_player = true;
                if let Err(e) = seek(&self.hub, &self.actor(), game, clock).await {
                    self.refuse(&e, about);
                }
            }
            ClientMsg::Unseek => unseek(&self.hub, self.conn.id).await,
            ClientMsg::Challenge {
                to,
                game,
                clock,
                color,
                rated,
                level,
            } => {
                if rated {
                    if let Err(why) = sanctions::may_play_rated(&self.hub, &self.actor().player.id)
                    {
                        self.refuse(&why, about);
                        return;
                    }
                }
                self.acts_as_player = true;
                if let Some(bot) = challenges::bot_named(&self.hub, &to) {
                    // A bot is not asked: the room is made and the bot invited, as for a
                    // game against a bot (docs/protocol.md "Challenges").
                    let request = challenges::bot_game(bot, game, clock, color, rated, level);
                    let me = self.actor();
                    if let Err(e) = create(&self.hub, &me, self.address, reference, request).await {
                        self.refuse(&e, about);
                    }
                    return;
                }
                let terms = challenges::Terms {
                    game,
                    clock,
                    color,
                    rated,
                };
                if let Err(e) = challenges::challenge(&self.hub, &self.actor(), &to, terms).await {
                    self.refuse(&e, about);
                }
            }
            ClientMsg::ChallengeReply {
                challenge,
                accept,
                reason,
            } => {
                self.acts_as_player = true;
                let me = self.actor();
                if let Err(e) = challenges::reply(&self.hub, &me, &challenge, accept, reason).await
                {
                    self.refuse(&e, about);
                }
            }
            ClientMsg::ChallengeCancel { challenge } => {
                if let Err(e) = challenges::cancel(&self.hub, &self.actor(), &challenge) {
                    self.refuse(&e, about);
                }
            }
            ClientMsg::Lobby => self.hub.lobby().subscribe(self.conn.clone()),
            ClientMsg::Unlobby => self.hub.lobby().unsubscribe(self.conn.id),
            ClientMsg::Decline { room } => {
                let bot = self.actor().player.id;
                self.to_room(&room, RoomCmd::Decline { bot }, reference)
                    .await;
            }
            ClientMsg::Review { room, ask } => {
                let requester = crate::review::Requester {
                    player: self.actor().player.id,
                    address: Some(self.address),
                };
                let link = MemberLink::Local(self.conn.clone());
                reviews::request(&self.hub, &link, requester, &room, ask, reference).await;
            }
            ClientMsg::Analysis { job, ply } => {
                reviews::answer(&self.hub, &self.conn, &job, &ply, reference).await;
            }
            ClientMsg::Analyse {
                id,
                game,
                position,
                moves,
                rate,
            } => {
                let ask = live::Ask {
                    id: &id,
                    game: &game,
                    position: position.as_deref(),
                    moves: &moves,
                    rate: &rate,
                };
                let player = self.actor().player.id;
                live::ask(
                    &self.hub,
                    &MemberLink::Local(self.conn.clone()),
                    &player,
                    &ask,
                    About {
                        reference: Some(reference),
                        ..About::default()
                    },
                );
            }
            ClientMsg::AnalyseStop => live::stop(&self.hub, &self.conn),
            ClientMsg::AnalysisLine { job, line } => {
                live::line(
                    &self.hub,
                    &self.conn,
                    &job,
                    &line,
                    About {
                        reference: Some(reference),
                        ..About::default()
                    },
                );
            }
            ClientMsg::AnalysisDone { job } => live::done(&self.hub, &self.conn, &job),
            ClientMsg::AnalysisMove { job, rated } => {
                live::rated(
                    &self.hub,
                    &self.conn,
                    &job,
                    &rated,
                    About {
                        reference: Some(reference),
                        ..About::default()
                    },
                );
            }
            ClientMsg::PuzzleProof {
                job,
                puzzle,
                reason,
            } => {
                let about = About {
                    reference: Some(reference),
                    ..About::default()
                };
                hall_puzzles::proof(
                    &self.hub,
                    &self.conn,
                    &job,
                    puzzle,
                    reason.as_deref(),
                    about,
                )
                .await;
            }
        }
    }

    /// The connection is gone: its rooms learn it (those that left memory forget it), its
    /// seeks and lobby subscription end, its player was last seen now, and a bot's unanswered
    /// invitations go to the next bot.
    pub async fn finish(&mut self) {
        self.hub.coord().conn_closed(self.conn.id);
        // First, so that no other node pairs a seeker with this closed connection meanwhile.
        unseek(&self.hub, self.conn.id).await;
        for room in self.conn.take_rooms() {
            self.hub.parked().drop_conn(&room, self.conn.id);
            let gone = RoomCmd::Gone {
                conn_id: self.conn.id,
            };
            let _ = relay::to_room(&self.hub, &room, gone).await;
        }
        self.hub.lobby().unsubscribe(self.conn.id);
        reviews::worker_left(&self.hub, self.conn.id).await;
        live::conn_closed(&self.hub, &self.conn);
        hall_puzzles::worker_left(&self.hub, self.conn.id);
        challenges::conn_closed(&self.hub, self.conn.id);
        if let Some(p) = &self.player {
            self.hub.players().disconnected(&p.id);
            self.hub.links().disconnected(&p.id, self.conn.id);
        }
        let Some(p) = self.player.as_ref().filter(|p| p.bot) else {
            return;
        };
        for room in self.hub.bots().disconnected(&p.id, self.conn.id) {
            let decline = RoomCmd::Decline { bot: p.id.clone() };
            let _ = relay::to_room(&self.hub, &room, decline).await;
        }
    }
}
