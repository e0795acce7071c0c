//! Bot invitations of a room: which bot is asked to take which seat and until when, who asked
//! (to hear if no bot is free), and the bots already tried for each seat. A bot that declines,
//! lets its time pass or disconnects is replaced by the next one at once.

use game_core::protocol::{ClockSpec, ServerMsg};
use game_core::{Color, GameSpec};
use tokio::time::Instant;

use super::error::RoomError;
use super::game::RoomGame;
use crate::hub::Hub;
use crate::refusal::{error_reply, About};
use crate::room::member::MemberLink;
use crate::store::StoredSeat;

/// The level a bot is told for a game it sat down to without an invitation.
const UNINVITED_BOT_LEVEL: u8 = 5;

/// One pending invitation.
#[derive(Debug)]
pub struct Invite {
    pub bot: String,
    pub level: u8,
    pub deadline: Instant,
    /// Told `no_bot_available` if every bot declines, with the `ref` of its request.
    pub requester: Option<(MemberLink, &'static str)>,
}

/// The invitations of one room, black and white.
#[derive(Debug, Default)]
pub struct Invitations {
    slots: [Option<Invite>; 2],
    tried: [Vec<String>; 2],
    /// The bot a player challenged for each seat, asked first.
    wanted: [Option<String>; 2],
}

impl Invitations {
    /// Seats promised to an invited bot.
    #[must_use]
    pub fn reserved(&self) -> [bool; 2] {
        [self.slots[0].is_some(), self.slots[1].is_some()]
    }

    #[must_use]
    pub fn any(&self) -> bool {
        self.slots.iter().any(Option::is_some)
    }

    /// The seat `bot` is invited to.
    #[must_use]
    pub fn seat_of(&self, bot: &str) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.slots[c.index()].as_ref().is_some_and(|i| i.bot == bot))
    }

    /// The level the bot on `seat` was invited at.
    #[must_use]
    pub fn level(&self, seat: Color) -> Option<u8> {
        self.slots[seat.index()].as_ref().map(|i| i.level)
    }

    pub fn deadlines(&self) -> impl Iterator<Item = Instant> + '_ {
        self.slots.iter().flatten().map(|i| i.deadline)
    }

    /// Seats whose invited bot let its time pass by `now`.
    #[must_use]
    pub fn expired(&self, now: Instant) -> Vec<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .filter(|c| {
                self.slots[c.index()]
                    .as_ref()
                    .is_some_and(|i| i.deadline <= now)
            })
            .collect()
    }

    /// The bot invited to `seat` took it. False when nobody was invited there.
    pub fn joined(&mut self, hub: &Hub, room: &str, seat: Color) -> bool {
        match self.slots[seat.index()].take() {
            Some(invite) => {
                hub.bots().invite_resolved(&invite.bot, room);
                true
            }
            None => false,
        }
    }

    /// The bot `bot` is asked first for `seat` (a player challenged it by name).
    pub fn prefer(&mut self, seat: Color, bot: String) {
        self.wanted[seat.index()] = Some(bot);
    }

    /// Asks the next untried bot to take `seat` (the one a player challenged first); tells
    /// `requester` if none is left.
    pub fn ask(
        &mut self,
        hub: &Hub,
        game: &RoomGame,
        seat: Color,
        level: u8,
        requester: Option<(MemberLink, &'static str)>,
    ) {
        let i = seat.index();
        let mut excluded = self.tried[i].clone();
        // A bot never plays itself: exclude whoever sits or is invited on the other seat.
        if let Some(s) = game.seat(seat.other()) {
            excluded.push(s.player.clone());
        }
        if let Some(invite) = &self.slots[1 - i] {
            excluded.push(invite.bot.clone());
        }
        let head = game.head();
        match hub.bots().reserve(
            head.game.kind(),
            &excluded,
            &head.id,
            head.rated,
            self.wanted[i].take().as_deref(),
        ) {
            Some((bot, links)) => {
                let invite = ServerMsg::Invite {
                    room: head.id.clone(),
                    game: head.game.clone(),
                    seat,
                    level,
                    clock: head.clock,
                };
                let text = crate::net::connection::shared_text(&invite);
                for link in &links {
                    link.send_text(&text);
                }
                self.slots[i] = Some(Invite {
                    bot,
                    level,
                    deadline: Instant::now() + hub.config().limits.invite_timeout,
                    requester,
                });
            }
            None => {
                self.tried[i].clear();
                if let Some((link, reference)) = requester {
                    let about = About::room(reference, &head.id);
                    link.send(&error_reply(
                        hub.metrics(),
                        &RoomError::NoBotAvailable,
                        about,
                    ));
                }
            }
        }
    }

    /// The bot invited to `seat` declined, let its time pass or vanished: ask the next one.
    pub fn failed(&mut self, hub: &Hub, game: &RoomGame, seat: Color) {
        let Some(invite) = self.slots[seat.index()].take() else {
            return;
        };
        hub.bots().invite_resolved(&invite.bot, game.id());
        hub.bots().release(&invite.bot);
        self.tried[seat.index()].push(invite.bot);
        self.ask(hub, game, seat, invite.level, invite.requester);
    }

    /// The room is over: every pending invitation is withdrawn.
    pub fn withdraw_all(&mut self, hub: &Hub, room: &str) {
        for slot in &mut self.slots {
            if let Some(invite) = slot.take() {
                hub.bots().invite_resolved(&invite.bot, room);
                hub.bots().release(&invite.bot);
            }
        }
    }
}

/// A bot already seated in the new room `next` of `game` and `clock` (a rematch, a
/// tournament's game): it counts the game and is told where to go.
pub fn send_seated_bot(
    hub: &Hub,
    next: &str,
    game: &GameSpec,
    clock: Option<ClockSpec>,
    seat: Color,
    bot: &StoredSeat,
) {
    hub.bots().hold(&bot.player, &bot.name);
    let invite = seated_invite(next, game, clock, seat, bot);
    for link in hub.bots().links(&bot.player) {
        link.send(&invite);
    }
}

/// The invitation that tells a bot seated in `room` (of `game` and `clock`) where to go.
#[must_use]
pub fn seated_invite(
    room: &str,
    game: &GameSpec,
    clock: Option<ClockSpec>,
    seat: Color,
    bot: &StoredSeat,
) -> ServerMsg {
    ServerMsg::Invite {
        room: room.to_string(),
        game: game.clone(),
        seat,
        level: bot.level.unwrap_or(UNINVITED_BOT_LEVEL),
        clock,
    }
}
