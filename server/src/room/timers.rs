//! A room's timers: the next moment something is due — a flag fall, a first move's lapse, a
//! seat's grace, a bot invitation's answer, a waiting room's close, the crowd's count, a
//! finished room's idle time — and what happens when it comes.

use game_core::protocol::{RoomStatus, SeatsOnline, ServerMsg};
use tokio::time::Instant;

use super::actor::RoomActor;
use super::change::Moment;

impl RoomActor {
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let mut best = self.crowd_due;
        let mut consider = |t: Instant| best = Some(best.map_or(t, |b| b.min(t)));
        let ending = |t: Instant| self.retry_endings_at.map_or(t, |r| t.max(r));
        if let Some(flag) = self.game.flag_deadline() {
            consider(ending(flag));
        }
        if let Some(lapse) = self
            .game
            .first_move_deadline(self.hub.config().limits.first_move)
        {
            consider(ending(lapse));
        }
        if self.game.status() != RoomStatus::Over {
            for t in self.members.grace_deadlines() {
                consider(ending(t));
            }
            for t in self.invites.deadlines() {
                consider(t);
            }
        }
        let unattended = self.members.unattended_until(&self.game);
        for t in self.waiting_until.into_iter().chain(unattended) {
            consider(ending(t));
        }
        if let Some(t) = self.quiet_since {
            consider(t + self.hub.config().limits.finished_room_idle);
        }
        best
    }

    pub(super) async fn on_timer(&mut self) {
        let now = Moment::now();
        if self.crowd_due.is_some_and(|t| t <= now.at) {
            self.prune_closed();
            self.crowd_due = None;
            let online = self.members.seats_online(&self.game);
            self.members.send_all(&ServerMsg::Crowd {
                room: self.game.id().to_string(),
                spectators: self.members.spectators(&self.game),
                online: SeatsOnline {
                    black: online[0],
                    white: online[1],
                },
                away: self.members.seats_away(&self.game, now.at),
            });
            self.publish();
        }
        let endings_due = self.retry_endings_at.is_none_or(|t| t <= now.at);
        if endings_due {
            self.retry_endings_at = None;
            if let Some(change) = self.game.flag_fall(now) {
                self.timed_ending(change).await;
                return;
            }
            let first_move = self.hub.config().limits.first_move;
            if let Some(change) = self.game.first_move_lapse(first_move, now) {
                // A side did not make its first move in time: no game was played.
                self.timed_ending(change).await;
                return;
            }
        }
        for seat in self.invites.expired(now.at) {
            self.invites.failed(&self.hub, &self.game, seat);
            self.publish();
        }
        if endings_due && self.game.status() != RoomStatus::Over {
            if let Some(seat) = self.members.gone_for_good(now.at) {
                // A tournament game is lost by the side that left, even before both moved:
                // aborted, it would score against whichever side had not moved yet.
                let forfeit = self.hub.tournaments().is_game_room(self.game.id());
                if let Some(change) = self.game.abandon(seat, forfeit, now) {
                    self.timed_ending(change).await;
                    return;
                }
            }
        }
        let unattended = self.members.unattended_until(&self.game);
        let closing = self.waiting_until.into_iter().chain(unattended);
        if endings_due && closing.min().is_some_and(|t| t <= now.at) {
            // Nobody started the room in time, or everyone left it: it closes without a
            // result.
            if let Some(change) = self.game.cancel() {
                self.timed_ending(change).await;
            }
        }
    }
}
