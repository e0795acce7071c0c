//! Proposing a room's start, seats and moves: what a `move` changes, the pass the server
//! plays for a side with none, and what follows a move (a win, a draw, the next turn).

use game_core::game::{Game, Step};
use game_core::protocol::{GameResult, RoomStatus, ServerMsg};
use game_core::Color;

use crate::clock::{GameClock, Turn};
use crate::refusal::About;
use crate::room::change::{Change, Event, Moment};
use crate::room::error::RoomError;
use crate::store::{StoredMove, StoredSeat};

use super::{has_moved, Played, RoomGame, PASS};

impl RoomGame {
    // ---- proposing ---------------------------------------------------------------------------

    /// A change that keeps everything as it is.
    pub(super) fn change(&self) -> Change {
        Change::new(&self.head.id, self.seq, self.offers)
    }

    pub fn check_playing(&self) -> Result<(), RoomError> {
        match self.status {
            RoomStatus::Playing => Ok(()),
            RoomStatus::Waiting => Err(RoomError::NotStarted),
            RoomStatus::Over => Err(RoomError::GameOver),
        }
    }

    /// Starts a waiting room whose seats are both taken (one stored just before its start).
    #[must_use]
    pub fn start_if_full(&self, now: Moment) -> Option<Change> {
        if self.status != RoomStatus::Waiting || self.seats.iter().any(Option::is_none) {
            return None;
        }
        let mut change = self.change();
        self.start_into(&mut change, now);
        change.events.push(Event::States);
        Some(change)
    }

    pub(super) fn start_into(&self, change: &mut Change, now: Moment) {
        change.record.status = Some((RoomStatus::Playing, None));
        if let Some(mut clock) = self.clock.clone() {
            clock.give_turn(self.game.to_act(), Turn::First, now.at);
            change.clock = Some(clock);
        }
    }

    /// The seat a player who joins takes: the first one neither taken nor promised to an
    /// invited bot (`reserved`), while the room waits.
    pub fn free_seat(&self, reserved: [bool; 2]) -> Result<Color, RoomError> {
        match self.status {
            RoomStatus::Over => Err(RoomError::SeatsClosed),
            RoomStatus::Playing => Err(RoomError::SeatsTaken),
            RoomStatus::Waiting => [Color::Black, Color::White]
                .into_iter()
                .find(|c| self.seat(*c).is_none() && !reserved[c.index()])
                .ok_or(RoomError::SeatsTaken),
        }
    }

    /// Seats a player on a free seat of the waiting room; with both seats taken the game
    /// starts, in the same change.
    pub fn take_seat(
        &self,
        color: Color,
        seat: StoredSeat,
        now: Moment,
    ) -> Result<Change, RoomError> {
        match self.status {
            RoomStatus::Over => return Err(RoomError::SeatsClosed),
            RoomStatus::Playing => return Err(RoomError::SeatsTaken),
            RoomStatus::Waiting if self.seat(color).is_some() => return Err(RoomError::SeatsTaken),
            RoomStatus::Waiting => {}
        }
        let mut change = self.change();
        change.record.seats.push((color, Some(seat)));
        if self.seat(color.other()).is_some() {
            self.start_into(&mut change, now);
        }
        change.events.push(Event::States);
        Ok(change)
    }

    /// Gives up a seat before the game starts (`leave`). With nobody left seated and no bot
    /// still `invited`, the room closes without a result.
    #[must_use]
    pub fn leave_seat(&self, color: Color, invited: bool) -> Option<Change> {
        if self.status != RoomStatus::Waiting || self.seat(color).is_none() {
            return None;
        }
        let mut change = self.change();
        change.record.seats.push((color, None));
        if self.seat(color.other()).is_none() && !invited {
            change.record.status = Some((RoomStatus::Over, None));
        }
        change.events.push(Event::States);
        Some(change)
    }

    /// Closes a waiting room that nobody will play, without a result.
    #[must_use]
    pub fn cancel(&self) -> Option<Change> {
        if self.status != RoomStatus::Waiting {
            return None;
        }
        let mut change = self.change();
        change.record.status = Some((RoomStatus::Over, None));
        change.events.push(Event::States);
        Some(change)
    }

    /// A move by `seat`, with the request id `id` if the client sent one. On the board it is
    /// checked by `game-core`; the change also holds the passes the server plays for a side
    /// that cannot move, and the end of the game if the board decides it. A refused move with
    /// an id is remembered (only that), so that a resend gets the same refusal.
    pub fn play(
        &mut self,
        seat: Color,
        text: &str,
        id: Option<&str>,
        now: Moment,
    ) -> Result<Played, RoomError> {
        let mover = self.seat(seat).map(|s| s.player.as_str());
        if let (Some(id), Some(mover)) = (id, mover) {
            if let Some(answer) = self.answers.get(mover, id) {
                return Ok(Played::Again(self.answered_again(answer, now.at)));
            }
        }
        self.check_playing()?;
        if self.game.to_act() != seat {
            return Err(RoomError::NotYourTurn);
        }
        if self
            .clock
            .as_ref()
            .is_some_and(|c| c.left_ms(seat, now.at) == 0)
        {
            return Err(RoomError::TimeRanOut);
        }
        let mut game = self.game.clone();
        let Step {
            text: canonical,
            swapped,
            ..
        } = match game.play(text) {
            Ok(step) => step,
            Err(e) => {
                let refusal = RoomError::from(e);
                if let (Some(id), Some(mover)) = (id, mover.map(str::to_string)) {
                    let answer = About::room("move", &self.head.id)
                        .with_id(Some(id))
                        .error(&refusal);
                    self.answers.remember(&mover, id, answer);
                }
                return Err(refusal);
            }
        };
        let to = game.to_act();
        let mut clock = self.clock.clone();
        if let Some(clock) = clock.as_mut() {
            // The flag was checked above at this same instant, so charging the move cannot
            // find it fallen. The next to act may be the mover again (an opening's stones).
            let next = Turn::after(to == seat || self.has_moved(to));
            let _ = clock.on_step(seat, to, next, swapped, now.at);
        }
        let mut change = self.change();
        change.offers.undo = None;
        change.offers.draw = None;
        let plain = self.record_move(&mut change, to, &clock, seat, canonical, id, now);
        let mine = id.map(|id| {
            let mut mine = plain.clone();
            if let ServerMsg::Moved { id: slot, .. } = &mut mine {
                *slot = Some(id.to_string());
            }
            mine
        });
        if let (Some(id), Some(mine), Some(mover)) = (id, &mine, mover) {
            change.answer = Some((mover.to_string(), id.to_string(), mine.clone()));
        }
        change.events.push(Event::Moved { plain, mine });
        if swapped {
            change
                .record
                .seats
                .push((Color::Black, self.seats[1].clone()));
            change
                .record
                .seats
                .push((Color::White, self.seats[0].clone()));
            change.events.push(Event::SeatsSwapped);
        }
        if self.game.in_opening() {
            // The opening's view (phase, proposals, seats) comes with a fresh `state`.
            change.events.push(Event::States);
        }
        self.after_move(&mut change, &mut game, &mut clock, now);
        change.position = Some(game);
        change.clock = clock;
        Ok(Played::Move(change))
    }

    /// Appends a played move to the change's record; returns its `moved` (without id).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_move(
        &self,
        change: &mut Change,
        to_move: Color,
        clock: &Option<GameClock>,
        by: Color,
        mv: String,
        id: Option<&str>,
        now: Moment,
    ) -> ServerMsg {
        let readings = clock.as_ref().map(|c| self.readings(c, now.at));
        let seq = change.next_seq();
        let ply = self.moves.len() + change.record.moves.len();
        change.record.moves.push(StoredMove {
            ply,
            mv: mv.clone(),
            by,
            black_ms: readings.as_ref().map(|c| c.black_ms),
            white_ms: readings.as_ref().map(|c| c.white_ms),
            at_ms: now.unix_ms,
            req_id: id.map(str::to_string),
            seq,
        });
        ServerMsg::Moved {
            room: self.head.id.clone(),
            seq,
            ply: (ply + 1) as u32,
            mv,
            by,
            to_move,
            clock: readings,
            id: None,
        }
    }

    /// The end of the game on the board, and the passes of a side that cannot move.
    pub(super) fn after_move(
        &self,
        change: &mut Change,
        game: &mut Game,
        clock: &mut Option<GameClock>,
        now: Moment,
    ) {
        loop {
            if let Some(outcome) = game.position().outcome() {
                self.end_into(change, clock, GameResult::from_outcome(&outcome), now);
                return;
            }
            if game.in_opening() || !game.position().must_pass() {
                return;
            }
            let passer = game.to_act();
            if game.play(PASS).is_err() {
                return;
            }
            if let Some(clock) = clock.as_mut() {
                let next = passer.other();
                let moved = self.has_moved(next) || has_moved(&change.record.moves, next);
                clock.on_pass(passer, Turn::after(moved), now.at);
            }
            let to = game.to_act();
            let moved = self.record_move(change, to, clock, passer, PASS.into(), None, now);
            change.events.push(Event::All(moved));
        }
    }
}
