//! How a game ends: a result, a resignation, an abort, a flag fall, a first move not made in
//! time, a seat abandoned.

use tokio::time::Duration;

use game_core::protocol::{Claim, GameResult, ResultKind, RoomStatus, ServerMsg};
use game_core::{Color, EndReason};

use crate::clock::GameClock;
use crate::room::change::{Change, Moment};
use crate::room::error::RoomError;

use super::RoomGame;

impl RoomGame {
    /// Ends the game in `change`: clocks stopped, offers dropped, `over` announced.
    pub(super) fn end_into(
        &self,
        change: &mut Change,
        clock: &mut Option<GameClock>,
        result: GameResult,
        now: Moment,
    ) {
        if let Some(clock) = clock.as_mut() {
            clock.stop(now.at);
        }
        change.record.status = Some((RoomStatus::Over, Some(result.clone())));
        change.offers.undo = None;
        change.offers.draw = None;
        self.announce(change, |room, seq| ServerMsg::Over { room, seq, result });
    }

    /// An end decided off the board: resignation, time, agreement, abandonment.
    pub(super) fn ending(&self, winner: Option<Color>, reason: EndReason, now: Moment) -> Change {
        let result = GameResult {
            result: ResultKind::from_winner(winner),
            reason,
            line: None,
            score: None,
        };
        let mut change = self.change();
        let mut clock = self.clock.clone();
        self.end_into(&mut change, &mut clock, result, now);
        change.clock = clock;
        change
    }

    pub fn resign(&self, seat: Color, now: Moment) -> Result<Change, RoomError> {
        self.check_playing()?;
        Ok(self.ending(Some(seat.other()), EndReason::Resign, now))
    }

    /// Ends the game without a result (a player's `abort`, or the server's once a first move
    /// takes too long): clocks stopped, offers dropped, `over` announced.
    pub(super) fn aborted(&self, now: Moment) -> Change {
        let result = GameResult {
            result: ResultKind::Aborted,
            reason: EndReason::Aborted,
            line: None,
            score: None,
        };
        let mut change = self.change();
        let mut clock = self.clock.clone();
        self.end_into(&mut change, &mut clock, result, now);
        change.clock = clock;
        change
    }

    /// A player aborts the game: possible while a side has not made its first move.
    pub fn abort(&self, now: Moment) -> Result<Change, RoomError> {
        self.check_playing()?;
        if !self.abortable() {
            return Err(RoomError::TooLateToAbort);
        }
        Ok(self.aborted(now))
    }

    /// The abort of a timed game whose side to move has not made its first move within
    /// `limit`, if that time is up by `now`.
    #[must_use]
    pub fn first_move_lapse(&self, limit: Duration, now: Moment) -> Option<Change> {
        let deadline = self.first_move_deadline(limit)?;
        (deadline <= now.at).then(|| self.aborted(now))
    }

    /// The loss on time of the side whose flag has fallen by `now`, if any.
    #[must_use]
    pub fn flag_fall(&self, now: Moment) -> Option<Change> {
        if self.status != RoomStatus::Playing {
            return None;
        }
        let (side, deadline) = self.clock.as_ref()?.deadline()?;
        (deadline <= now.at).then(|| self.ending(Some(side.other()), EndReason::Timeout, now))
    }

    /// `seat` stayed away past its grace period: it loses a game in progress, a game not
    /// under way yet (a side has not made its first move) is aborted — unless `forfeit` (a
    /// tournament game, where an abort would score against whoever had not moved): lost
    /// too — and a waiting room closes.
    #[must_use]
    pub fn abandon(&self, seat: Color, forfeit: bool, now: Moment) -> Option<Change> {
        match self.status {
            RoomStatus::Playing if self.abortable() && !forfeit => Some(self.aborted(now)),
            RoomStatus::Playing => Some(self.ending(Some(seat.other()), EndReason::Abandoned, now)),
            RoomStatus::Waiting => self.cancel(),
            RoomStatus::Over => None,
        }
    }

    /// A player's claim over `absent`, away for half its grace period or more (the caller
    /// checks that): the win, or a draw, by abandonment — an abort while a side has not
    /// made its first move, as when the grace runs out (a tournament game aside).
    pub fn claim(
        &self,
        absent: Color,
        claim: Claim,
        forfeit: bool,
        now: Moment,
    ) -> Result<Change, RoomError> {
        self.check_playing()?;
        if self.abortable() && !forfeit {
            return Ok(self.aborted(now));
        }
        let winner = match claim {
            Claim::Win => Some(absent.other()),
            Claim::Draw => None,
        };
        Ok(self.ending(winner, EndReason::Abandoned, now))
    }
}
