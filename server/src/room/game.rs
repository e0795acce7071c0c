//! The rules of play of one room, as plain data: the position, the moves, the clocks, the
//! seats, the event numbers, the pending offers and the answers kept for resent moves.
//! Nothing here awaits, stores or sends. Each request is checked against the state and
//! answered with a [`Change`] (what to store, the state after it, what to announce) or a
//! [`RoomError`]; the room's task stores the change and only then [`RoomGame::commit`]s it.
//! Time comes in as a [`Moment`], so the rules are tested on a frozen clock.
//!
//! Each side's first move is free: its time runs only from then on, and until both sides have
//! made one the game may be aborted, without a result.
//!
//! A game with an opening rule runs the opening first: each decision is a step like a move,
//! stored and announced as one, made by the player whose decision it is, and followed by a
//! fresh `state` for everyone with the opening's view; the clock of that player runs. When a decision exchanges the colours, the players change seats (and take
//! their times with them), so a seat always holds the colour its player plays. The player
//! seated black when the game starts is the opening's first player.

use tokio::time::{Duration, Instant};

use game_core::game::Game;
use game_core::opening::{OpeningChoice, Role};
use game_core::protocol::{
    ClockState, GameResult, RatingOutcome, RoomState, RoomStatus, SeatInfo, Seats, ServerMsg,
};
use game_core::{AnyPosition, Color};

use super::answers::AnswerCache;
use super::change::{Change, Event, Moment, Offers};
use super::error::RoomError;
use super::plan::RoomPlan;
use crate::clock::{GameClock, Turn};
use crate::config::Limits;
use crate::store::{RoomChange, StoredMove, StoredRematch, StoredRoom, StoredRoomHead, StoredSeat};

/// The name on the room's own chat lines (declined offers, rematch asks).
const ROOM_VOICE: &str = "kibitz";

/// The move text of a pass, which only the server plays.
const PASS: &str = "pass";

/// One room's game.
#[derive(Clone, Debug)]
pub struct RoomGame {
    head: StoredRoomHead,
    /// The game after the set-up moves: undo replays from here, a rematch starts here.
    start: Game,
    /// The game now: the opening rule's state, if any, and the position.
    game: Game,
    /// Moves after the set-up moves (an opening rule's decisions first).
    moves: Vec<StoredMove>,
    clock: Option<GameClock>,
    seq: u64,
    status: RoomStatus,
    result: Option<GameResult>,
    seats: [Option<StoredSeat>; 2],
    offers: Offers,
    /// The room a rematch was made in.
    rematch_next: Option<String>,
    answers: AnswerCache,
    /// How long a side has for its first move, shown in the clocks as `abort_ms`.
    first_move: Duration,
    /// What a rated game's end did to the ratings (settled by the store with the end).
    rating: Option<RatingOutcome>,
    /// The tournament this game is played in, as the room heard it while the game went on.
    tournament: Option<String>,
}

/// What a `move` came to. Returned once and taken apart at once: boxing the change would
/// cost an allocation on every move for nothing.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Played {
    /// A resend of a request id already answered: the same answer, nothing played.
    Again(ServerMsg),
    /// The move, with any forced passes and the end of the game it brings.
    Move(Change),
}

/// What a `rematch` request comes to (returned once, like [`Played`]).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum RematchStep {
    /// The rematch exists: its announcement again, for the asker alone.
    Made(ServerMsg),
    /// The first ask of this player, announced to the room.
    Asked(Change),
    /// Asked before; nothing new to say.
    AlreadyAsked,
    /// Both players asked (or the opponent is a bot): make this room, then
    /// [`RoomGame::rematch_made`].
    Create(RoomPlan),
}

impl RoomGame {
    /// A new room from a checked plan; with both seats taken it starts at `now`.
    #[must_use]
    pub fn new(id: String, plan: RoomPlan, answers_kept: usize, now: Moment) -> RoomGame {
        let RoomPlan {
            game,
            clock: control,
            opening,
            start,
            private,
            creator,
            seats,
            origin: _,
            rated,
            id: _,
        } = plan;
        let full = seats.iter().all(Option::is_some);
        let mut clock = control.map(GameClock::new);
        if let (true, Some(clock)) = (full, clock.as_mut()) {
            clock.give_turn(start.to_act(), Turn::First, now.at);
        }
        RoomGame {
            head: StoredRoomHead {
                id,
                game,
                clock: control,
                opening,
                private,
                created_ms: now.unix_ms,
                creator,
                rated,
            },
            rating: None,
            tournament: None,
            game: start.clone(),
            start,
            moves: Vec::new(),
            clock,
            seq: 0,
            status: if full {
                RoomStatus::Playing
            } else {
                RoomStatus::Waiting
            },
            result: None,
            seats,
            offers: Offers::default(),
            rematch_next: None,
            answers: AnswerCache::new(answers_kept),
            first_move: Limits::default().first_move,
        }
    }

    /// A stored room, replayed. Each side's clock resumes from what it had after the last
    /// stored move (the time the server was down is not charged) and runs again from `now`
    /// (or, before the side to move's first move, waits for it from `now`); the request ids
    /// of the stored moves keep being answered.
    pub fn restore(
        stored: StoredRoom,
        answers_kept: usize,
        now: Moment,
    ) -> Result<RoomGame, RoomError> {
        let StoredRoom {
            head,
            status,
            result,
            seq,
            black,
            white,
            moves,
            fence: _,
            rating,
        } = stored;
        let start = Game::with_setup(&head.game, &head.opening)
            .map_err(|e| RoomError::Replay(e.to_string()))?;
        // Who made each stored step, by role: the opening's decisions belong to the player
        // whose decision it was, whatever colour they held.
        let mut game = start.clone();
        let mut steps = Vec::with_capacity(moves.len());
        for m in &moves {
            let role = game.role_of(game.to_act());
            game.play(&m.mv)
                .map_err(|e| RoomError::Replay(format!("move {}: {e}", m.mv)))?;
            steps.push((role, game.to_act()));
        }
        let clock = head.clock.map(|spec| {
            let mut clock = match moves.last().and_then(|m| Some((m.black_ms?, m.white_ms?))) {
                Some((black_ms, white_ms)) => GameClock::resumed(spec, black_ms, white_ms),
                None => GameClock::new(spec),
            };
            if status == RoomStatus::Playing {
                let turn = game.to_act();
                clock.give_turn(turn, Turn::after(has_moved(&moves, turn)), now.at);
                if spec.is_correspondence() {
                    // Correspondence runs on the wall clock: the days that passed while the
                    // room was out of memory count, since the last move (or the room's start).
                    let since = moves.last().map_or(head.created_ms, |m| m.at_ms);
                    clock.charge(now.unix_ms.saturating_sub(since));
                }
            }
            clock
        });
        let seats = [black, white];
        let first = first_seat(&game);
        let mut answers = AnswerCache::new(answers_kept);
        for (k, (m, (role, to_move))) in moves.iter().zip(steps).enumerate() {
            let seat = if role == Role::First {
                first
            } else {
                1 - first
            };
            if let (Some(id), Some(seat)) = (&m.req_id, &seats[seat]) {
                let next_ran = has_moved(&moves[..k], m.by.other());
                let answer = stored_answer(&head.id, m, id, to_move, next_ran);
                answers.remember(&seat.player, id, answer);
            }
        }
        Ok(RoomGame {
            head,
            start,
            game,
            moves,
            clock,
            seq,
            status,
            result,
            seats,
            offers: Offers::default(),
            rematch_next: None,
            answers,
            first_move: Limits::default().first_move,
            rating,
            tournament: None,
        })
    }

    /// With what the store kept of its rematch (a finished room reloaded): the next room, and
    /// the asks that are still waiting for the other player.
    #[must_use]
    pub fn with_rematch(mut self, rematch: StoredRematch) -> RoomGame {
        self.offers.rematch = rematch.asked;
        self.rematch_next = rematch.next;
        self
    }

    /// What the store settled for this rated game's end; the announcement to send.
    pub fn rated(&mut self, outcome: RatingOutcome) -> ServerMsg {
        self.rating = Some(outcome.clone());
        ServerMsg::Rated {
            room: self.head.id.clone(),
            outcome,
        }
    }

    // ---- reading ---------------------------------------------------------------------------

    #[must_use]
    pub fn id(&self) -> &str {
        &self.head.id
    }

    /// The fixed facts: game, clock, opening, privacy, creator.
    #[must_use]
    pub fn head(&self) -> &StoredRoomHead {
        &self.head
    }

    #[must_use]
    pub fn status(&self) -> RoomStatus {
        self.status
    }

    #[must_use]
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The number of the room's last event.
    #[must_use]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Moves played after the opening.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    #[must_use]
    pub fn moves(&self) -> &[StoredMove] {
        &self.moves
    }

    /// The last move that put a stone on the board, for the lobby's small boards: an opening
    /// rule's choices that place nothing (`swap`, a colour, a declaration, offered 5th moves)
    /// leave the mark on the stone before them, and `choose c` marks `c`.
    #[must_use]
    pub fn last_stone(&self) -> Option<String> {
        if self.head.game.opening_rule().is_none() {
            return self.moves.last().map(|m| m.mv.clone());
        }
        self.moves
            .iter()
            .rev()
            .find_map(|m| match m.mv.parse::<OpeningChoice>() {
                Ok(choice) => choice.stone().map(|cell| cell.to_string()),
                Err(_) => Some(m.mv.clone()),
            })
    }

    /// The colour of whoever acts next: the side to move, or the player whose opening
    /// decision it is.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.game.to_act()
    }

    /// Whether an opening rule's decisions are still being made.
    #[must_use]
    pub fn in_opening(&self) -> bool {
        self.game.in_opening()
    }

    /// The position now, opening included.
    #[must_use]
    pub fn position(&self) -> &AnyPosition {
        self.game.position()
    }

    #[must_use]
    pub fn seat(&self, color: Color) -> Option<&StoredSeat> {
        self.seats[color.index()].as_ref()
    }

    /// The seat `player` sits on.
    #[must_use]
    pub fn seat_of(&self, player: &str) -> Option<Color> {
        let on = |c: Color| self.seat(c).is_some_and(|s| s.player == player);
        match (on(Color::Black), on(Color::White)) {
            // One player on both seats (a bot entered in a tournament at two levels plays
            // itself): it acts for the side to act.
            (true, true) => Some(self.game.to_act()),
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            (false, false) => None,
        }
    }

    #[must_use]
    pub fn offers(&self) -> Offers {
        self.offers
    }

    /// The clocks at `now`; `None` when untimed.
    #[must_use]
    pub fn clock_state(&self, now: Instant) -> Option<ClockState> {
        self.clock.as_ref().map(|c| self.readings(c, now))
    }

    /// The readings of `clock` at `now`, with the time left for a first move still awaited.
    fn readings(&self, clock: &GameClock, now: Instant) -> ClockState {
        let mut state = clock.state(now);
        if self.status != RoomStatus::Over {
            state.abort_ms = clock.held_left_ms(clock.first_move_limit(self.first_move), now);
        }
        state
    }

    /// Sets how long a side has for its first move (the server's `first_move` limit).
    pub fn set_first_move_limit(&mut self, limit: Duration) {
        self.first_move = limit;
    }

    /// When the running side's flag falls, while the game is played.
    #[must_use]
    pub fn flag_deadline(&self) -> Option<Instant> {
        if self.status != RoomStatus::Playing {
            return None;
        }
        self.clock.as_ref()?.deadline().map(|(_, at)| at)
    }

    /// When a timed game whose side to move has not made its first move is aborted, given
    /// `limit`, the time a side has for its first move.
    #[must_use]
    pub fn first_move_deadline(&self, limit: Duration) -> Option<Instant> {
        if self.status != RoomStatus::Playing {
            return None;
        }
        let clock = self.clock.as_ref()?;
        clock.held_deadline(clock.first_move_limit(limit))
    }

    /// Charges the running side (or a held first move) `ms` that the room's clock did not
    /// see pass: the hall's clock advanced (`--test-clock`).
    pub fn charge_clock(&mut self, ms: u64) {
        if self.status == RoomStatus::Playing {
            if let Some(clock) = &mut self.clock {
                clock.charge(ms);
            }
        }
    }

    /// Whether the game is played by correspondence (days per move): its players come and
    /// go, and being away loses nothing.
    #[must_use]
    pub fn is_correspondence(&self) -> bool {
        self.head.clock.is_some_and(|c| c.is_correspondence())
    }

    /// Whether `side` has made a move of its own in this game (a pass is the server's).
    #[must_use]
    pub fn has_moved(&self, side: Color) -> bool {
        has_moved(&self.moves, side)
    }

    /// Whether the game may still be aborted: it is played, and a side has not made its
    /// first move.
    #[must_use]
    pub fn abortable(&self) -> bool {
        self.status == RoomStatus::Playing
            && !(self.has_moved(Color::Black) && self.has_moved(Color::White))
    }

    /// The room as stored (at its creation).
    #[must_use]
    pub fn stored(&self) -> StoredRoom {
        StoredRoom {
            head: self.head.clone(),
            status: self.status,
            result: self.result.clone(),
            seq: self.seq,
            black: self.seats[0].clone(),
            white: self.seats[1].clone(),
            moves: self.moves.clone(),
            fence: 0,
            rating: self.rating.clone(),
        }
    }

    /// Both seats for the protocol, with who of the seated players is `online`.
    #[must_use]
    pub fn seat_infos(&self, online: [bool; 2]) -> Seats {
        let info = |c: Color| {
            self.seat(c).map(|s| SeatInfo {
                player: s.player.clone(),
                name: s.name.clone(),
                bot: s.bot,
                online: online[c.index()],
                away: None,
            })
        };
        Seats {
            black: info(Color::Black),
            white: info(Color::White),
        }
    }

    /// The tournament this game is played in, once the room has heard of it.
    #[must_use]
    pub fn tournament(&self) -> Option<&str> {
        self.tournament.as_deref()
    }

    /// The game is one of tournament `id`: its state says so from now on.
    pub fn note_tournament(&mut self, id: String) {
        self.tournament = Some(id);
    }

    /// Everything a client needs to draw the room, seen from seat `you`.
    #[must_use]
    pub fn state(
        &self,
        you: Option<Color>,
        online: [bool; 2],
        spectators: u32,
        now: Instant,
    ) -> RoomState {
        RoomState {
            room: self.head.id.clone(),
            seq: self.seq,
            game: self.head.game.clone(),
            opening: self.head.opening.clone(),
            moves: self.moves.iter().map(|m| m.mv.clone()).collect(),
            to_move: self.game.to_act(),
            status: self.status,
            result: self.result.clone(),
            seats: self.seat_infos(online),
            clock: self.clock_state(now),
            spectators,
            you,
            control: self.head.clock,
            opening_state: self.game.opening_view(),
            rated: self.head.rated,
            rating: self.rating.clone(),
            tournament: self.tournament.clone(),
        }
    }

    /// The name of whoever sits on `seat`, for lines from the room itself.
    fn seat_name(&self, seat: Color) -> String {
        self.seat(seat)
            .map_or_else(|| seat.as_str().to_string(), |s| s.name.clone())
    }

    /// Announces an event to everyone; it takes the room's next number.
    fn announce(&self, change: &mut Change, event: impl FnOnce(String, u64) -> ServerMsg) {
        let seq = change.next_seq();
        change
            .events
            .push(Event::All(event(self.head.id.clone(), seq)));
    }

    /// A line from the room itself, with a number of its own.
    fn say_into(&self, change: &mut Change, text: String) {
        self.announce(change, |room, seq| ServerMsg::Chat {
            room,
            seq,
            from: String::new(),
            name: ROOM_VOICE.to_string(),
            text,
            bot: false,
            seat: None,
        });
    }

    /// A kept answer as sent again: a `moved` kept without clocks shows the current ones.
    fn answered_again(&self, answer: &ServerMsg, now: Instant) -> ServerMsg {
        let mut answer = answer.clone();
        if let ServerMsg::Moved { clock, .. } = &mut answer {
            if clock.is_none() {
                *clock = self.clock_state(now);
            }
        }
        answer
    }

    // ---- committing ----------------------------------------------------------------------------

    /// Applies a change whose record is stored; returns what to announce.
    pub fn commit(&mut self, change: Change) -> Vec<Event> {
        let Change {
            record,
            position,
            clock,
            offers,
            rematch_next,
            answer,
            events,
        } = change;
        let RoomChange {
            seq,
            truncate,
            moves,
            seats,
            status,
            ..
        } = record;
        if let Some(keep) = truncate {
            // The taken-back moves' request ids are free again: a client may reuse one for a
            // new move, which must then be played, not answered from the old one.
            for m in self.moves.drain(keep..) {
                if let (Some(id), Some(seat)) = (&m.req_id, &self.seats[m.by.index()]) {
                    self.answers.forget(&seat.player, id);
                }
            }
        }
        self.moves.extend(moves);
        for (color, seat) in seats {
            self.seats[color.index()] = seat;
        }
        if let Some((status, result)) = status {
            self.status = status;
            self.result = result;
        }
        self.seq = seq;
        if let Some(game) = position {
            self.game = game;
        }
        if clock.is_some() {
            self.clock = clock;
        }
        self.offers = offers;
        if rematch_next.is_some() {
            self.rematch_next = rematch_next;
        }
        if let Some((player, id, answer)) = answer {
            self.answers.remember(&player, &id, answer);
        }
        events
    }
}

/// The seat (0 black, 1 white) of the opening's first player now: black without an opening
/// rule.
fn first_seat(game: &Game) -> usize {
    game.role_of(Color::White).eq(&Role::First).into()
}

/// Whether `side` made a move of its own among `moves` (a pass is the server's, not a move).
fn has_moved(moves: &[StoredMove], side: Color) -> bool {
    moves.iter().any(|m| m.by == side && m.mv != PASS)
}

/// The answer a stored move gave its mover, so a resend after a restart gets the same one;
/// `next_ran`: the other side had moved before, so its time ran after this move.
fn stored_answer(
    room: &str,
    m: &StoredMove,
    id: &str,
    to_move: Color,
    next_ran: bool,
) -> ServerMsg {
    let clock = match (m.black_ms, m.white_ms) {
        (Some(black_ms), Some(white_ms)) => Some(ClockState {
            black_ms,
            white_ms,
            running: next_ran.then(|| m.by.other()),
            abort_ms: None,
            black_vacation_ms: None,
            white_vacation_ms: None,
        }),
        _ => None,
    };
    ServerMsg::Moved {
        room: room.to_string(),
        seq: m.seq,
        ply: (m.ply + 1) as u32,
        mv: m.mv.clone(),
        by: m.by,
        to_move,
        clock,
        id: Some(id.to_string()),
    }
}

mod endings;
mod offers;
mod play;

#[cfg(test)]
mod opening_tests;
#[cfg(test)]
mod tests;
