//! The bot's reactions to the server's messages about its rooms and its work, one method a
//! message ([`Bot::on_message`](super::Bot) hands each to its own): a welcome, an invitation,
//! a move, a take-back or draw offer, a take-back made, an analysis job.

use game_core::protocol::{AnalyzeJob, ClientMsg, ClockSpec, ClockState};
use game_core::{Color, GameKind};

use super::state_file::RoomMemo;
use super::{analysis, policy, Bot};
use crate::engine::StopFlag;

impl Bot<'_> {
    /// The server knows the bot: its id and token are kept, and every room it sat in is
    /// joined again.
    pub(super) fn on_welcome(&mut self, player: String, token: String) {
        tracing::info!(%player, "welcome");
        self.me = Some(player);
        self.state.token = Some(token);
        self.save();
        let rooms: Vec<String> = self.state.rooms.keys().cloned().collect();
        for room in rooms {
            self.rejoin(room);
        }
    }

    /// An invitation to a seat: taken within the bot's games and capacity, else declined.
    pub(super) fn on_invite(
        &mut self,
        room: String,
        kind: GameKind,
        seat: Color,
        level: u8,
        clock: Option<ClockSpec>,
    ) {
        let options = self.options;
        let accepted =
            policy::accepts_invitation(self.state, &options.games, options.capacity, &room, kind);
        if !accepted {
            self.send(ClientMsg::Decline { room });
            return;
        }
        // A second seat of a room it sits in already (a tournament's game between two levels
        // of this bot) keeps the room's memo, with that seat's level.
        match self.state.rooms.get_mut(&room) {
            Some(memo) => memo.seat_levels[seat.index()] = Some(level),
            None => {
                let memo = RoomMemo::invited(level, clock, seat);
                self.state.rooms.insert(room.clone(), memo);
            }
        }
        self.save();
        self.rejoin(room);
    }

    /// A move in one of its rooms: the bot thinks when it is its turn, and asks for the room
    /// again when it missed something.
    pub(super) fn on_moved(
        &mut self,
        room: String,
        seq: u64,
        ply: u32,
        mv: String,
        to_move: Color,
        clock: Option<ClockState>,
    ) {
        let Some(seat) = self.seats.get_mut(&room) else {
            return;
        };
        if seat.table.moved(seq, ply, mv, to_move, clock) {
            self.think(&room);
        } else {
            self.rejoin(room);
        }
    }

    /// The opponent asks to take a move back: the policy answers, its reason said first.
    pub(super) fn on_undo_offer(&mut self, room: String, seq: u64, by: Color) {
        let Some(seat) = self.seats.get_mut(&room) else {
            return;
        };
        seat.table.seq = seq;
        if Some(by) == seat.table.you {
            return;
        }
        let granted = self.state.rooms.get(&room).map_or(0, |m| m.take_backs);
        let answer = policy::take_back(seat.table.rated, granted);
        // The reason goes out first, so it stands just above the room's own "declines the
        // take-back" line.
        let line = policy::take_back_line(&mut seat.talk, answer);
        self.chat(&room, line);
        if answer.accepted() {
            if let Some(memo) = self.state.rooms.get_mut(&room) {
                memo.take_backs += 1;
            }
            self.save();
        }
        self.send(ClientMsg::UndoReply {
            room,
            accept: answer.accepted(),
        });
    }

    /// A take-back was made: the search stops, and the room is asked for again so that the
    /// clocks are exact too (the side to move comes from the position).
    pub(super) fn on_undone(&mut self, room: String, seq: u64, ply: u32) {
        let Some(seat) = self.seats.get_mut(&room) else {
            return;
        };
        seat.thinking.stop();
        seat.table.undone(seq, ply);
        self.rejoin(room);
    }

    /// The opponent offers a draw: the policy answers from the last search's score.
    pub(super) fn on_draw_offer(&mut self, room: String, seq: u64, by: Color) {
        let Some(seat) = self.seats.get_mut(&room) else {
            return;
        };
        seat.table.seq = seq;
        if Some(by) != seat.table.you {
            let accept = policy::accepts_draw(&seat.table, seat.thinking.last_score);
            self.send(ClientMsg::DrawReply { room, accept });
        }
    }

    /// A review job: searched on a thread when the bot is an analysis worker (a new job
    /// stops the one before).
    pub(super) fn on_analyze(&mut self, job: AnalyzeJob) {
        let Some(per_position) = self.options.analysis else {
            tracing::debug!("an analyze job, but this bot takes none");
            return;
        };
        tracing::info!(job = %job.job, positions = job.moves.len(), "analysing");
        self.analysis_stop.stop();
        self.analysis_stop = StopFlag::new();
        analysis::start(
            job,
            self.engines,
            per_position,
            self.analysis.clone(),
            self.analysis_stop.clone(),
        );
    }
}
