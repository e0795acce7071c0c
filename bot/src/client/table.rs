//! What a room is, as the bot mirrors it from the server's events: the game and its moves,
//! whose turn it is, the bot's seat, the clocks and the time control, and the number of the
//! room's last event (`seq`), so that a missed event is noticed and the room asked for again.
//! Nothing here decides anything: that is the policy's and the thinking's part.

use std::time::Duration;

use game_core::game::Game;
use game_core::protocol::{ClockSpec, ClockState, RoomState, RoomStatus, SeatInfo};
use game_core::{Color, GameSpec};
use tokio::time::Instant;

/// One room the bot is seated in.
#[derive(Clone, Debug)]
pub struct Table {
    pub spec: GameSpec,
    pub opening: Vec<String>,
    pub moves: Vec<String>,
    pub status: RoomStatus,
    pub you: Option<Color>,
    pub to_move: Color,
    /// The clocks as the server last told them, at `clock_at`.
    pub clock: Option<ClockState>,
    pub clock_at: Instant,
    /// The room's time control: what the room said, else what the invitation said.
    pub control: Option<ClockSpec>,
    pub seq: u64,
    /// Both seats are bots: a game people watch.
    pub bots_only: bool,
    /// The game counts for ratings (the room's `rated`): the bot grants no take-back in it.
    pub rated: bool,
    /// The bot sits on both seats (a tournament's game between two of its levels): it plays
    /// whichever side is to move.
    pub both_seats: bool,
}

impl Table {
    /// The room as a `state` describes it; `control` is the time control known so far (the
    /// room's own word in the `state` beats it).
    #[must_use]
    pub fn from_state(state: RoomState, control: Option<ClockSpec>) -> Table {
        let bot = |seat: &Option<SeatInfo>| seat.as_ref().is_some_and(|p| p.bot);
        let both_seats = match (&state.seats.black, &state.seats.white) {
            (Some(b), Some(w)) => b.player == w.player && state.you.is_some(),
            _ => false,
        };
        Table {
            both_seats,
            bots_only: bot(&state.seats.black) && bot(&state.seats.white),
            spec: state.game,
            opening: state.opening,
            moves: state.moves,
            status: state.status,
            you: state.you,
            to_move: state.to_move,
            clock: state.clock,
            clock_at: Instant::now(),
            control: state.control.or(control),
            seq: state.seq,
            rated: state.rated,
        }
    }

    /// A fresh `state` of the room.
    pub fn refresh(&mut self, state: RoomState) {
        *self = Table::from_state(state, self.control);
    }

    /// A `moved`; false (and nothing changed) when it is not the next event and the next
    /// ply, so that something was missed and the room must be asked for again.
    #[must_use]
    pub fn moved(
        &mut self,
        seq: u64,
        ply: u32,
        mv: String,
        to_move: Color,
        clock: Option<ClockState>,
    ) -> bool {
        if seq != self.seq + 1 || ply as usize != self.moves.len() + 1 {
            return false;
        }
        // An opening rule's swap moves the players between the seats: the bot's seat
        // changes with it (the room's fresh `state` follows and says the same).
        if self.spec.opening_rule().is_some() {
            let swapped = self
                .game()
                .ok()
                .and_then(|mut game| game.play(&mv).ok())
                .is_some_and(|step| step.swapped);
            if swapped {
                self.you = self.you.map(Color::other);
            }
        }
        self.seq = seq;
        self.moves.push(mv);
        self.to_move = to_move;
        if self.both_seats {
            self.you = Some(to_move);
        }
        self.clock = clock;
        self.clock_at = Instant::now();
        true
    }

    /// An `undone`: the game goes back to its first `ply` moves. The side to move and the
    /// clocks come with the room's next `state`.
    pub fn undone(&mut self, seq: u64, ply: u32) {
        self.seq = seq;
        self.moves.truncate(ply as usize);
    }

    /// An `over`.
    pub fn over(&mut self, seq: u64) {
        self.seq = seq;
        self.status = RoomStatus::Over;
    }

    /// A chat line. Players' lines and the room's own lines (a declined offer, a rematch
    /// request) take a number; a bot, being a player, never receives spectators' lines,
    /// which do not.
    pub fn chat(&mut self, seq: u64) {
        self.seq = self.seq.max(seq);
    }

    /// The bot is to move in a game in play.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.status == RoomStatus::Playing && Some(self.to_move) == self.you
    }

    /// The game after the set-up moves and the moves (an opening rule's choices first).
    pub fn game(&self) -> Result<Game, String> {
        Game::with_setup(&self.spec, &self.opening)
            .map_err(|e| e.to_string())?
            .replay(&self.moves)
            .map_err(|(index, e)| format!("move {index}: {e}"))
    }

    /// The bot's time left now, if the game has a clock. Time since the reading counts only
    /// while the bot's clock runs: before the bot's first move it waits.
    #[must_use]
    pub fn my_time_left(&self) -> Option<Duration> {
        let clock = self.clock.as_ref()?;
        let mine = if self.you == Some(Color::Black) {
            clock.black_ms
        } else {
            clock.white_ms
        };
        if !self.my_clock_runs() {
            return Some(Duration::from_millis(mine));
        }
        let elapsed = self.clock_at.elapsed().as_millis() as u64;
        Some(Duration::from_millis(mine.saturating_sub(elapsed)))
    }

    /// Whether the bot's time runs now (a timed game, the bot's turn, its first move made).
    #[must_use]
    pub fn my_clock_runs(&self) -> bool {
        self.you
            .is_some_and(|you| self.clock.as_ref().and_then(|c| c.running) == Some(you))
    }

    /// The share of the board filled, as (cells filled, cells the game can fill).
    #[must_use]
    pub fn filled(&self) -> (usize, usize) {
        let cells = match &self.spec {
            GameSpec::Gomoku { size, .. } => (*size as usize).pow(2),
            // Othello's four starting discs are not moves.
            GameSpec::Othello => 60,
            GameSpec::Connect4 {
                cols,
                rows,
                blocked,
            } => (*cols as usize * *rows as usize).saturating_sub(blocked.len()),
        };
        (self.opening.len() + self.moves.len(), cells)
    }
}

#[cfg(test)]
mod tests {
    use game_core::protocol::Seats;

    use super::*;

    fn seat(player: &str, bot: bool) -> Option<SeatInfo> {
        Some(SeatInfo {
            player: player.into(),
            name: "n".into(),
            bot,
            online: true,
            away: None,
        })
    }

    fn connect4_state() -> RoomState {
        RoomState {
            rated: false,
            rating: None,
            tournament: None,
            room: "r1".into(),
            seq: 4,
            game: GameSpec::connect4(7, 6),
            opening: Vec::new(),
            moves: vec!["4".into(), "4".into()],
            to_move: Color::Black,
            status: RoomStatus::Playing,
            result: None,
            seats: Seats {
                black: seat("bot", true),
                white: seat("person", false),
            },
            clock: None,
            spectators: 0,
            you: Some(Color::Black),
            control: None,
            opening_state: None,
        }
    }

    #[test]
    fn follows_moves_and_notices_a_missed_event() {
        let per_move = Some(ClockSpec::PerMove { move_ms: 4_000 });
        let mut table = Table::from_state(connect4_state(), per_move);
        assert!(table.my_turn() && !table.bots_only);
        assert_eq!(
            table.control, per_move,
            "the invitation's control until the room says"
        );
        assert!(table.moved(5, 3, "3".into(), Color::White, None));
        assert!(!table.my_turn());
        assert!(
            !table.moved(7, 4, "3".into(), Color::Black, None),
            "event 6 is missing"
        );
        assert_eq!(table.moves.len(), 3, "nothing changed");
        table.chat(5);
        assert_eq!(table.seq, 5, "a spectator's line takes no number");
        assert_eq!(table.filled(), (3, 42));
        assert!(table.game().is_ok());
        table.undone(6, 1);
        assert_eq!((table.seq, table.moves.len()), (6, 1));
        table.refresh(connect4_state());
        assert_eq!(table.control, per_move, "kept across a state without one");
        table.over(5);
        assert_eq!(table.status, RoomStatus::Over);
        assert!(!table.rated);
        let rated = RoomState {
            rated: true,
            ..connect4_state()
        };
        assert!(Table::from_state(rated, None).rated, "the room's word");
    }

    #[test]
    fn on_both_seats_it_plays_whichever_side_is_to_move() {
        let mut state = connect4_state();
        state.seats.white = seat("bot", true);
        let mut table = Table::from_state(state, None);
        assert!(table.both_seats && table.bots_only && table.my_turn());
        assert!(table.moved(5, 3, "3".into(), Color::White, None));
        assert_eq!(table.you, Some(Color::White));
        assert!(table.my_turn(), "the other side is the bot's too");
        assert!(!Table::from_state(connect4_state(), None).both_seats);
    }
}
