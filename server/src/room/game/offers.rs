//! Offers between the players (take-backs, draws, rematches) and the chat lines the room
//! keeps.

use game_core::protocol::{RoomStatus, ServerMsg};
use game_core::{Color, EndReason};

use crate::accounts::players::PlayerRecord;
use crate::clock::Turn;
use crate::room::change::{Change, Event, Moment};
use crate::room::error::RoomError;
use crate::room::plan::RoomPlan;
use crate::store::StoredChat;

use super::{first_seat, has_moved, RematchStep, RoomGame, PASS};

impl RoomGame {
    /// `seat` asks to take back its last move (and the reply after it). The decisions of an
    /// opening rule are final: no take-back during the opening, nor one that reaches into it.
    pub fn offer_undo(&self, seat: Color) -> Result<Change, RoomError> {
        self.check_playing()?;
        if self.game.in_opening() {
            return Err(RoomError::UndoInOpening);
        }
        let keep = self
            .moves
            .iter()
            .rposition(|m| m.by == seat && m.mv != PASS)
            .ok_or(RoomError::NothingToTakeBack)?;
        if keep < self.game.opening_steps() {
            return Err(RoomError::UndoInOpening);
        }
        if self.offers.undo.is_some_and(|(by, _)| by == seat) {
            return Err(RoomError::UndoPending);
        }
        let mut change = self.change();
        change.offers.undo = Some((seat, keep));
        self.announce(&mut change, |room, seq| ServerMsg::UndoOffer {
            room,
            seq,
            by: seat,
        });
        Ok(change)
    }

    /// The opponent of the asker answers an undo request. Accepted, the game returns to just
    /// before the asker's move and the side to move's clock runs (or, before that side's
    /// first move, waits for it).
    pub fn answer_undo(&self, seat: Color, accept: bool, now: Moment) -> Result<Change, RoomError> {
        self.check_playing()?;
        let (by, keep) = self.offers.undo.ok_or(RoomError::NoUndoToAnswer)?;
        if by == seat {
            return Err(RoomError::OwnUndo);
        }
        let mut change = self.change();
        change.offers.undo = None;
        if !accept {
            self.say_into(
                &mut change,
                format!("{} declines the take-back", self.seat_name(seat)),
            );
            return Ok(change);
        }
        let kept: Vec<&str> = self.moves[..keep].iter().map(|m| m.mv.as_str()).collect();
        let position = self
            .start
            .clone()
            .replay(&kept)
            .map_err(|(k, e)| RoomError::Replay(format!("move {}: {e}", kept[k])))?;
        change.offers.draw = None;
        change.record.truncate = Some(keep);
        if let Some(mut clock) = self.clock.clone() {
            let turn = position.to_act();
            clock.give_turn(
                turn,
                Turn::after(has_moved(&self.moves[..keep], turn)),
                now.at,
            );
            change.clock = Some(clock);
        }
        change.position = Some(position);
        let ply = keep as u32;
        self.announce(&mut change, |room, seq| ServerMsg::Undone {
            room,
            seq,
            ply,
        });
        Ok(change)
    }

    /// `seat` offers a draw; an offer of the opponent's already pending is accepted.
    pub fn offer_draw(&self, seat: Color, now: Moment) -> Result<Change, RoomError> {
        self.check_playing()?;
        match self.offers.draw {
            Some(by) if by != seat => Ok(self.ending(None, EndReason::Agreement, now)),
            Some(_) => Err(RoomError::DrawPending),
            None => {
                let mut change = self.change();
                change.offers.draw = Some(seat);
                self.announce(&mut change, |room, seq| ServerMsg::DrawOffer {
                    room,
                    seq,
                    by: seat,
                });
                Ok(change)
            }
        }
    }

    /// `seat` answers the opponent's draw offer.
    pub fn answer_draw(&self, seat: Color, accept: bool, now: Moment) -> Result<Change, RoomError> {
        self.check_playing()?;
        match self.offers.draw {
            Some(by) if by != seat && accept => Ok(self.ending(None, EndReason::Agreement, now)),
            Some(by) if by != seat => {
                let mut change = self.change();
                change.offers.draw = None;
                self.say_into(
                    &mut change,
                    format!("{} declines the draw", self.seat_name(seat)),
                );
                Ok(change)
            }
            _ => Err(RoomError::NoDrawToAnswer),
        }
    }

    /// `seat` asks for a rematch, once the game is over.
    pub fn ask_rematch(&self, seat: Color) -> Result<RematchStep, RoomError> {
        if self.status != RoomStatus::Over {
            return Err(RoomError::RematchTooEarly);
        }
        if let Some(next) = &self.rematch_next {
            return Ok(RematchStep::Made(ServerMsg::Rematch {
                room: self.head.id.clone(),
                seq: self.seq,
                next: next.clone(),
            }));
        }
        let bot_opponent = self.seat(seat.other()).is_some_and(|s| s.bot);
        if bot_opponent || self.offers.rematch[seat.other().index()] {
            return Ok(RematchStep::Create(self.rematch_plan()));
        }
        if self.offers.rematch[seat.index()] {
            return Ok(RematchStep::AlreadyAsked);
        }
        let mut change = self.change();
        change.offers.rematch[seat.index()] = true;
        change.record.rematch_asks = Some(change.offers.rematch);
        self.say_into(
            &mut change,
            format!("{} offers a rematch", self.seat_name(seat)),
        );
        Ok(RematchStep::Asked(change))
    }

    /// The next game: same game, clock and opening, colours swapped: with an opening rule,
    /// the other player opens (is the first player) this time.
    pub(super) fn rematch_plan(&self) -> RoomPlan {
        let first = first_seat(&self.game);
        RoomPlan {
            game: self.head.game.clone(),
            clock: self.head.clock,
            opening: self.head.opening.clone(),
            start: self.start.clone(),
            private: self.head.private,
            creator: self.head.creator.clone(),
            seats: [self.seats[1 - first].clone(), self.seats[first].clone()],
            origin: None,
            rated: self.head.rated,
            id: None,
        }
    }

    /// The rematch room `next` is made: link to it and announce it. The link is stored with
    /// the new room, in one write.
    pub fn rematch_made(&self, next: &str) -> Change {
        let mut change = self.change();
        change.rematch_next = Some(next.to_string());
        change.record.rematch_next = Some(next.to_string());
        let next = next.to_string();
        self.announce(&mut change, |room, seq| ServerMsg::Rematch {
            room,
            seq,
            next,
        });
        change
    }

    /// A chat line (already checked by the chat rules). A player's line takes the next event
    /// number and reaches everyone; a spectator's reaches spectators only, so it takes no
    /// number (players would see a gap) and carries the current one.
    pub fn chat(&self, from: &PlayerRecord, text: String, now: Moment) -> Change {
        let seat = self.seat_of(&from.id);
        let mut change = self.change();
        let seq = if seat.is_some() {
            change.next_seq()
        } else {
            self.seq
        };
        change.record.chat = Some(StoredChat {
            player: from.id.clone(),
            name: from.name.clone(),
            text: text.clone(),
            seat,
            bot: from.bot,
            at_ms: now.unix_ms,
        });
        let line = ServerMsg::Chat {
            room: self.head.id.clone(),
            seq,
            from: from.id.clone(),
            name: from.name.clone(),
            text,
            bot: from.bot,
            seat,
        };
        change.events.push(if seat.is_some() {
            Event::All(line)
        } else {
            Event::Spectators(line)
        });
        change
    }
}
