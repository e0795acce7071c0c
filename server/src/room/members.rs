//! Who is in a room: the connections that hear its events, players and spectators alike,
//! since when each seated player has been away, and since when a room that waits for its
//! players has had nobody in it. Every event is serialised once and the same
//! text goes to every member; a `state`, which differs by seat, at most once per seat.

use std::collections::HashMap;

use game_core::protocol::{RoomState, RoomStatus, SeatAway, SeatsAway, ServerMsg};
use game_core::Color;
use tokio::time::{Duration, Instant};

use super::game::RoomGame;
use crate::net::connection::{shared_text, SharedText};
use crate::room::member::MemberLink;

struct Member {
    link: MemberLink,
    /// The player id behind the connection.
    player: String,
    /// The server's own client (the showcase): it watches, but is not counted as a spectator.
    house: bool,
}

/// The members of one room, by connection id.
#[derive(Default)]
pub struct Members {
    by_conn: HashMap<u64, Member>,
    /// Since when each seat's player has had no connection in the room.
    away_since: [Option<Instant>; 2],
    /// The fence of this copy of the room, which its members' nodes hear it under.
    fence: u64,
    /// How long a seated player may stay away from a game in progress before losing it.
    grace: Duration,
    /// Since when the room, waiting for its players, has had no person in it (bots and the
    /// server's own clients aside).
    unattended_since: Option<Instant>,
    /// A correspondence game's players come and go: nobody is ever waited for.
    patient: bool,
}

impl Members {
    /// No members yet, of a copy of the room under `fence` whose players have `grace` to
    /// come back.
    #[must_use]
    pub fn under(fence: u64, grace: Duration) -> Members {
        Members {
            fence,
            grace,
            ..Members::default()
        }
    }

    /// Players of a correspondence game: being away from it loses nothing.
    #[must_use]
    pub fn patient(mut self, patient: bool) -> Members {
        self.patient = patient;
        self
    }

    /// Counts a connection of `player` as a member of `room` (it hears the room from now on).
    /// A closed connection is not added.
    pub fn add(&mut self, room: &str, link: MemberLink, player: &str) {
        if link.is_closed() {
            return;
        }
        let link = link.of_room(room, self.fence);
        link.entered(room, self.fence);
        self.by_conn.insert(
            link.id(),
            Member {
                house: link.is_house(),
                link,
                player: player.to_string(),
            },
        );
    }

    /// Removes a connection; returns the player behind it.
    pub fn remove(&mut self, room: &str, conn_id: u64) -> Option<String> {
        let member = self.by_conn.remove(&conn_id)?;
        member.link.left(room);
        Some(member.player)
    }

    /// Every member's link and the player behind it.
    pub fn links(&self) -> impl Iterator<Item = (&MemberLink, &str)> + '_ {
        self.by_conn.values().map(|m| (&m.link, m.player.as_str()))
    }

    #[must_use]
    pub fn contains(&self, conn_id: u64) -> bool {
        self.by_conn.contains_key(&conn_id)
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_conn.is_empty()
    }

    /// Members whose connection closed without the room hearing of it (a `join` still queued
    /// when the connection ended).
    #[must_use]
    pub fn closed(&self) -> Vec<u64> {
        self.by_conn
            .iter()
            .filter(|(_, m)| m.link.is_closed())
            .map(|(id, _)| *id)
            .collect()
    }

    /// Whether `player` has an open connection in the room.
    #[must_use]
    pub fn online(&self, player: &str) -> bool {
        self.by_conn
            .values()
            .any(|m| m.player == player && !m.link.is_closed())
    }

    /// Whether each seat's player is in the room, black and white.
    #[must_use]
    pub fn seats_online(&self, game: &RoomGame) -> [bool; 2] {
        [Color::Black, Color::White].map(|c| game.seat(c).is_some_and(|s| self.online(&s.player)))
    }

    /// Members who sit on no seat, the server's own clients left out.
    #[must_use]
    pub fn spectators(&self, game: &RoomGame) -> u32 {
        self.by_conn
            .values()
            .filter(|m| !m.house && game.seat_of(&m.player).is_none())
            .count() as u32
    }

    // ---- sending -------------------------------------------------------------------------------

    /// One message to every member.
    pub fn send_all(&self, msg: &ServerMsg) {
        let text = shared_text(msg);
        for m in self.by_conn.values() {
            m.link.send_text(&text);
        }
    }

    /// A chat line from `from` to the members `shown` (to the seatless ones alone when
    /// `spectators` is given): those who blocked its sender do not get it.
    pub fn send_chat(
        &self,
        msg: &ServerMsg,
        spectators: Option<&RoomGame>,
        shown: impl Fn(&str) -> bool,
    ) {
        let text = shared_text(msg);
        for m in self.by_conn.values() {
            let seatless = spectators.is_none_or(|game| game.seat_of(&m.player).is_none());
            if seatless && shown(&m.player) {
                m.link.send_text(&text);
            }
        }
    }

    /// A move to every member; with `mine`, the mover's connection gets that copy (with its
    /// request id) instead.
    pub fn send_move(&self, plain: &ServerMsg, mine: Option<(&ServerMsg, &MemberLink)>) {
        let text = shared_text(plain);
        let mine = mine.map(|(msg, link)| (shared_text(msg), link.id()));
        for (id, m) in &self.by_conn {
            match &mine {
                Some((text, mover)) if mover == id => m.link.send_text(text),
                _ => m.link.send_text(&text),
            }
        }
    }

    /// A message to the members who sit on no seat.
    pub fn send_spectators(&self, msg: &ServerMsg, game: &RoomGame) {
        let text = shared_text(msg);
        for m in self.by_conn.values() {
            if game.seat_of(&m.player).is_none() {
                m.link.send_text(&text);
            }
        }
    }

    /// A fresh `state` to every member, each seen from its seat.
    pub fn send_states(&self, game: &RoomGame, now: Instant) {
        let online = self.seats_online(game);
        let spectators = self.spectators(game);
        // Black's view, white's view, a spectator's: each serialised once, when first needed.
        let mut views: [Option<SharedText>; 3] = [None, None, None];
        for m in self.by_conn.values() {
            let you = game.seat_of(&m.player);
            let view = you.map_or(2, Color::index);
            let text = views[view].get_or_insert_with(|| {
                let mut state = game.state(you, online, spectators, now);
                self.mark_away(&mut state, game, now);
                shared_text(&ServerMsg::State(Box::new(state)))
            });
            m.link.send_text(text);
        }
    }

    /// The `state` for one connection of `player`.
    pub fn send_state(&self, link: &MemberLink, player: &str, game: &RoomGame, now: Instant) {
        let mut state = game.state(
            game.seat_of(player),
            self.seats_online(game),
            self.spectators(game),
            now,
        );
        self.mark_away(&mut state, game, now);
        link.send(&ServerMsg::State(Box::new(state)));
    }

    // ---- presence of the seated players ------------------------------------------------------------

    /// `seat`'s player is away from `now`: its grace period starts.
    pub fn away(&mut self, seat: Color, now: Instant) {
        if self.patient {
            return;
        }
        self.away_since[seat.index()] = Some(now);
    }

    /// `seat`'s player is back.
    pub fn back(&mut self, seat: Color) {
        self.away_since[seat.index()] = None;
    }

    /// The seated players exchanged seats: each one's absence goes with them.
    pub fn swap_seats(&mut self) {
        self.away_since.swap(0, 1);
    }

    /// Nobody is waited for any more (the game is over).
    pub fn clear_away(&mut self) {
        self.away_since = [None, None];
    }

    /// When each away player's grace period ends.
    pub fn grace_deadlines(&self) -> impl Iterator<Item = Instant> + '_ {
        self.away_since.iter().flatten().map(|t| *t + self.grace)
    }

    /// `seat`'s player, away from a game in progress: how long it has to come back, and how
    /// long before its opponent may claim (after half the grace period).
    #[must_use]
    pub fn away_from(&self, game: &RoomGame, seat: Color, now: Instant) -> Option<SeatAway> {
        if game.status() != RoomStatus::Playing {
            return None;
        }
        let since = self.away_since[seat.index()]?;
        let left = |d: Duration| (since + d).saturating_duration_since(now).as_millis() as u64;
        Some(SeatAway {
            back_ms: left(self.grace),
            claim_ms: left(self.grace / 2),
        })
    }

    /// The away players of a game in progress, for `crowd`.
    #[must_use]
    pub fn seats_away(&self, game: &RoomGame, now: Instant) -> SeatsAway {
        SeatsAway {
            black: self.away_from(game, Color::Black, now),
            white: self.away_from(game, Color::White, now),
        }
    }

    /// Writes into a `state` which seated players are away, and for how long yet.
    fn mark_away(&self, state: &mut RoomState, game: &RoomGame, now: Instant) {
        for (seat, info) in [
            (Color::Black, state.seats.black.as_mut()),
            (Color::White, state.seats.white.as_mut()),
        ] {
            if let Some(info) = info {
                info.away = self.away_from(game, seat, now);
            }
        }
    }

    /// Notes, as members come and go, whether a person is in the room while it waits for its
    /// players: the room goes with the last of them, a grace period later (as a seek goes
    /// with its connection), rather than staying listed for the whole waiting time.
    pub fn note_attendance(&mut self, game: &RoomGame, now: Instant) {
        let seated_bot = |player: &str| {
            game.seat_of(player)
                .and_then(|c| game.seat(c))
                .is_some_and(|s| s.bot)
        };
        // A correspondence room waits for its players whether or not anyone is on its page.
        let attended = self.patient
            || self
                .by_conn
                .values()
                .any(|m| !m.house && !m.link.is_closed() && !seated_bot(&m.player));
        if attended {
            self.unattended_since = None;
        } else {
            self.unattended_since.get_or_insert(now);
        }
    }

    /// While the room waits for its players with no person in it: when it closes.
    #[must_use]
    pub fn unattended_until(&self, game: &RoomGame) -> Option<Instant> {
        let waiting = game.status() == RoomStatus::Waiting;
        self.unattended_since
            .filter(|_| waiting)
            .map(|t| t + self.grace)
    }

    /// A seat whose player has been away for the whole grace period by `now`.
    #[must_use]
    pub fn gone_for_good(&self, now: Instant) -> Option<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.away_since[c.index()].is_some_and(|t| t + self.grace <= now))
    }
}
