//! A player's requests in a room — moves, resignation, offers, chat, bot invitations,
//! rematches — as the room's task carries them out: the rules answer with a change or a
//! refusal, the change is stored, committed and announced, the refusal answered.

use game_core::protocol::{Claim, BOT_LEVELS};
use game_core::Color;
use tokio::time::Instant;

use super::actor::RoomActor;
use super::change::Moment;
use super::chat::checked_line;
use super::error::RoomError;
use super::game::{Played, RematchStep};
use super::invites::send_seated_bot;
use super::registry::{new_room_lease, plan_room, spawn_room};
use crate::moderation::chat_guard;
use crate::room::handle::{Action, Actor};
use crate::store::{StoreError, StoredSeat, Write};

impl RoomActor {
    /// Answers a request "try again" (with a move's id), deciding nothing: this copy of the
    /// room cannot vouch that it is the room's present state.
    pub(super) fn try_again(&self, who: &Actor, action: &Action, reference: &'static str) {
        super::relay::try_again(&self.hub, self.game.id(), who, action, reference);
    }

    /// A request of `who`: its seat decides what it may do. A refusal is answered with the
    /// request's `ref` (and a move's id); a move after the flag fell also ends the game.
    pub(super) async fn act(
        &mut self,
        who: Actor,
        action: Action,
        reference: &'static str,
        received: Instant,
    ) {
        if !self.may_write() {
            // Redis has not answered this node lately: another node may have taken the room
            // over and played on, so this game may be behind the real one. Any answer but
            // "try again" (a move refused as out of turn, say) could then contradict it, and
            // a client that resynchronises on such an answer reads this stale room again and
            // again until this node learns the lease is lost.
            self.try_again(&who, &action, reference);
            return;
        }
        let seat = self.game.seat_of(&who.player.id);
        if let Some(seat) = seat {
            if !self.members.contains(who.link.id()) {
                // A seated player acting from a connection that has not joined (yet) is
                // present all the same: it hears the room from now on and is not abandoned.
                let was_online = self.members.online(&who.player.id);
                self.members.back(seat);
                self.members
                    .add(self.game.id(), who.link.clone(), &who.player.id);
                if !was_online {
                    self.crowd_changed();
                }
            }
        }
        let now = Moment::now();
        let mut move_id = None;
        let done = match (action, seat) {
            (Action::Chat(text), _) => self.chat(&who, &text, now).await,
            (Action::InviteBot(level), Some(_)) => self.invite_bot(&who, level, reference),
            (Action::InviteBot(level), None)
                if self.game.head().creator.as_deref() == Some(who.player.id.as_str()) =>
            {
                self.invite_bot(&who, level, reference)
            }
            (_, None) => Err(RoomError::NotSeated),
            (Action::Move { mv, id }, Some(seat)) => {
                move_id = id;
                self.play(&who, seat, &mv, move_id.as_deref(), received, now)
                    .await
            }
            (Action::Resign, Some(seat)) => {
                let proposal = self.game.resign(seat, now);
                self.settle(proposal, "the resignation").await
            }
            (Action::Claim(claim), Some(seat)) => self.claim(seat, claim, now).await,
            (Action::Abort, Some(_)) if self.hub.tournaments().is_game_room(self.game.id()) => {
                Err(RoomError::AbortInTournament)
            }
            (Action::Abort, Some(_)) => {
                let proposal = self.game.abort(now);
                self.settle(proposal, "the abort").await
            }
            (Action::Undo, Some(seat)) => {
                let proposal = self.game.offer_undo(seat);
                self.settle(proposal, "the request").await
            }
            (Action::UndoReply(accept), Some(seat)) => {
                let proposal = self.game.answer_undo(seat, accept, now);
                self.settle(proposal, "the undo").await
            }
            (Action::Draw, Some(seat)) => {
                let proposal = self.game.offer_draw(seat, now);
                self.settle(proposal, "the offer").await
            }
            (Action::DrawReply(accept), Some(seat)) => {
                let proposal = self.game.answer_draw(seat, accept, now);
                self.settle(proposal, "the answer").await
            }
            (Action::Rematch, Some(seat)) => self.rematch(&who, seat).await,
        };
        if let Err(e) = done {
            self.refuse(&who.link, reference, move_id.as_deref(), &e);
            if e == RoomError::TimeRanOut {
                if let Some(change) = self.game.flag_fall(now) {
                    self.timed_ending(change).await;
                }
            }
        }
    }

    /// A move: played, stored, announced (the mover hears its request id), and counted.
    async fn play(
        &mut self,
        who: &Actor,
        seat: Color,
        mv: &str,
        id: Option<&str>,
        received: Instant,
        now: Moment,
    ) -> Result<(), RoomError> {
        match self.game.play(seat, mv, id, now)? {
            Played::Again(answer) => {
                // A resend: answered as the first time, nothing played.
                who.link.send(&answer);
                Ok(())
            }
            Played::Move(change) => {
                let moves = change.record().moves.len();
                self.carry_out(change, Some(&who.link), "the move").await?;
                self.hub.metrics().move_played(Some(received.elapsed()));
                for _pass in 1..moves {
                    self.hub.metrics().move_played(None);
                }
                Ok(())
            }
        }
    }

    /// A chat line: checked by the chat rules, stored, then said.
    async fn chat(&mut self, who: &Actor, text: &str, now: Moment) -> Result<(), RoomError> {
        let limits = &self.hub.config().limits;
        let line = checked_line(text, limits.chat_max_chars)?;
        let player = who.player.id.as_str();
        if !self.members.contains(who.link.id()) && self.game.seat_of(player).is_none() {
            return Err(RoomError::NotInRoom);
        }
        if limits.chat_words.holds_one(&line) {
            return Err(RoomError::ChatWord);
        }
        let rate = limits.chat_rate();
        let admitted = self.chat.admit(player, &line, rate, now.at);
        if admitted.is_err() && self.chat.struck_out(player, chat_guard::FLOOD_STRIKES) {
            // Flooding on after being refused: the hall mutes the player for a while.
            tokio::spawn(chat_guard::time_out(
                self.hub.clone(),
                player.to_string(),
                "flooding the chat",
            ));
        }
        admitted?;
        let change = self.game.chat(&who.player, line.clone(), now);
        self.carry_out(change, None, "the line").await?;
        self.chat.said(player, line);
        Ok(())
    }

    /// `seat`'s claim over an opponent who has stayed away for half the grace period or more.
    async fn claim(&mut self, seat: Color, claim: Claim, now: Moment) -> Result<(), RoomError> {
        self.game.check_playing()?;
        let absent = seat.other();
        match self.members.away_from(&self.game, absent, now.at) {
            None => Err(RoomError::OpponentHere),
            Some(away) if away.claim_ms > 0 => {
                Err(RoomError::ClaimTooEarly(away.claim_ms.div_ceil(1000)))
            }
            Some(_) => {
                let forfeit = self.hub.tournaments().is_game_room(self.game.id());
                let proposal = self.game.claim(absent, claim, forfeit, now);
                self.settle(proposal, "the claim").await
            }
        }
    }

    /// A bot for the first free seat of a waiting room.
    fn invite_bot(
        &mut self,
        who: &Actor,
        level: u8,
        reference: &'static str,
    ) -> Result<(), RoomError> {
        if !BOT_LEVELS.contains(&level) {
            return Err(RoomError::BadBotLevel);
        }
        if self.game.head().rated && level != crate::accounts::ratings::RATED_BOT_LEVEL {
            return Err(RoomError::RatedBotLevel);
        }
        let seat = self
            .game
            .free_seat(self.invites.reserved())
            .map_err(|_| RoomError::NoFreeSeat)?;
        let requester = Some((who.link.clone(), reference));
        self.invites
            .ask(&self.hub, &self.game, seat, level, requester);
        self.publish();
        Ok(())
    }

    /// A rematch: asked, announced, or made once both players (or a player and a bot) agree.
    async fn rematch(&mut self, who: &Actor, seat: Color) -> Result<(), RoomError> {
        match self.game.ask_rematch(seat)? {
            RematchStep::Made(announcement) => {
                who.link.send(&announcement);
                Ok(())
            }
            RematchStep::AlreadyAsked => Ok(()),
            RematchStep::Asked(change) => self.carry_out(change, None, "the rematch").await,
            RematchStep::Create(plan) => {
                let bots: Vec<(Color, StoredSeat)> = [Color::Black, Color::White]
                    .into_iter()
                    .filter_map(|c| {
                        plan.seats[c.index()]
                            .clone()
                            .filter(|s| s.bot)
                            .map(|s| (c, s))
                    })
                    .collect();
                // The new room and the link to it are stored in one write: neither exists
                // without the other, and nothing is started or told before both are stored.
                let (next, origin) = plan_room(&self.hub, plan);
                if !self.may_write() {
                    return Err(RoomError::Unreachable);
                }
                let lease = new_room_lease(&self.hub, next.id()).await?;
                let change = self.game.rematch_made(next.id());
                let mut stored = next.stored();
                stored.fence = lease.fence;
                let mut record = change.record().clone();
                record.fence = self.fence();
                let write = Write::Rematch {
                    next: Box::new(stored),
                    change: record,
                };
                if let Err(e) = self.hub.store().write(write).await {
                    tracing::error!(room = %self.game.id(), error = %e, "storing a rematch failed");
                    self.hub.coord().release(next.id(), lease.fence);
                    if matches!(e, StoreError::Fenced { .. }) {
                        self.fenced();
                    }
                    return Err(RoomError::NotStored("the rematch"));
                }
                let next = spawn_room(&self.hub, next, false, origin, Some(lease));
                for (seat, bot) in &bots {
                    // The bot already sits there; the invitation tells it where to go.
                    let head = self.game.head();
                    send_seated_bot(&self.hub, &next.id, &head.game, head.clock, *seat, bot);
                }
                self.commit(change, None);
                Ok(())
            }
        }
    }
}
