//! What the bot decides as a player, apart from its moves: which invitations it takes, when
//! it grants a take-back or agrees to a draw, how quickly it answers, and what it says when a
//! game starts, when it answers a take-back, when its evaluation changes a lot, and at the
//! end. It never asks for nor accepts a rematch: it leaves a finished room, and a new game
//! comes as a new invitation.

use std::time::Duration;

use game_core::protocol::ResultKind;
use game_core::GameKind;

use super::state_file::BotState;
use super::table::Table;
use super::talk::Talk;
use crate::engine::Score;

/// An invitation is taken for a room the bot already plays in (it was restarted), or for a
/// game it plays while it has a free place.
#[must_use]
pub fn accepts_invitation(
    state: &BotState,
    games: &[GameKind],
    capacity: u32,
    room: &str,
    game: GameKind,
) -> bool {
    let known = state.rooms.contains_key(room);
    known || (games.contains(&game) && state.rooms.len() < capacity as usize)
}

/// How many take-backs the bot grants its opponent in one casual game, whatever the level
/// and the clock: enough to undo a slip now and then, too few to search the game by trial.
pub const TAKE_BACKS_PER_GAME: u32 = 3;

/// The bot's answer to a take-back request, with the reason a refusal gives in the chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakeBack {
    /// Granted; `left` more will be granted in this game.
    Granted { left: u32 },
    /// Refused: a rated game is played as it stands.
    Rated,
    /// Refused: this would be take-back number `asked` of the game, past the limit.
    OverLimit { asked: u32 },
}

impl TakeBack {
    #[must_use]
    pub fn accepted(self) -> bool {
        matches!(self, TakeBack::Granted { .. })
    }
}

/// Take-backs are granted in casual games, clock or no clock (people undo a slip against the
/// computer in every Gomoku program), up to [`TAKE_BACKS_PER_GAME`] a game (`granted` so far);
/// in rated games never (`rated`: the room's state says so).
#[must_use]
pub fn take_back(rated: bool, granted: u32) -> TakeBack {
    if rated {
        TakeBack::Rated
    } else if granted >= TAKE_BACKS_PER_GAME {
        TakeBack::OverLimit { asked: granted + 1 }
    } else {
        TakeBack::Granted {
            left: TAKE_BACKS_PER_GAME - granted - 1,
        }
    }
}

/// What the bot says when it answers a take-back request: a refusal always gives its reason.
#[must_use]
pub fn take_back_line(talk: &mut Talk, answer: TakeBack) -> Option<String> {
    match answer {
        TakeBack::Granted { left } => talk.take_back_granted(left),
        TakeBack::Rated => talk.take_back_rated(),
        TakeBack::OverLimit { asked } => talk.take_back_over_limit(asked, TAKE_BACKS_PER_GAME),
    }
}

/// A draw is agreed when it is proven, or when the evaluation is level with most of the
/// board filled (earlier, a level evaluation says little).
#[must_use]
pub fn accepts_draw(table: &Table, last_score: Option<Score>) -> bool {
    let (filled, cells) = table.filled();
    let late = filled * 4 >= cells * 3;
    match last_score {
        Some(Score::Exact(0)) => true,
        Some(Score::Heuristic(s)) => s.abs() <= 20 && late,
        _ => false,
    }
}

/// Shortest time between the bot's turn and its move: a game between bots is for watching,
/// and an instant reply to a person feels mechanical (the thinking never lets it take more
/// than half the move's budget). A pace `chosen` by the operator (`--pace-ms`) replaces both.
#[must_use]
pub fn pace(bots_only: bool, chosen: Option<Duration>) -> Duration {
    if let Some(pace) = chosen {
        pace
    } else if bots_only {
        Duration::from_millis(900)
    } else {
        Duration::from_millis(250)
    }
}

/// The greeting, when a game starts from its first move.
#[must_use]
pub fn greeting(talk: &mut Talk, table: &Table, name: &str, level: u8) -> Option<String> {
    if table.moves.is_empty() {
        talk.greeting(name, level)
    } else {
        None
    }
}

/// "gg" when a game the bot played ends (`result` is `None` when the room only said it was
/// over, as after a restart: nothing to say then). An aborted game was not played: no gg.
#[must_use]
pub fn goodbye(talk: &mut Talk, table: &Table, result: Option<ResultKind>) -> Option<String> {
    let result = result.filter(|r| *r != ResultKind::Aborted)?;
    let won = result.winner().map(|c| Some(c) == table.you);
    talk.goodbye(won)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::state_file::RoomMemo;

    #[test]
    fn invitations_fill_the_capacity_and_restarts_rejoin() {
        let mut state = BotState::default();
        let games = [GameKind::Othello];
        assert!(accepts_invitation(
            &state,
            &games,
            1,
            "r1",
            GameKind::Othello
        ));
        assert!(!accepts_invitation(
            &state,
            &games,
            1,
            "r1",
            GameKind::Gomoku
        ));
        state.rooms.insert(
            "r1".into(),
            RoomMemo::invited(5, None, game_core::Color::Black),
        );
        assert!(!accepts_invitation(
            &state,
            &games,
            1,
            "r2",
            GameKind::Othello
        ));
        assert!(accepts_invitation(
            &state,
            &games,
            1,
            "r1",
            GameKind::Othello
        ));
    }

    #[test]
    fn take_backs_are_casual_only_and_limited_per_game() {
        assert_eq!(take_back(false, 0), TakeBack::Granted { left: 2 });
        assert_eq!(take_back(false, 2), TakeBack::Granted { left: 0 });
        assert_eq!(take_back(false, 3), TakeBack::OverLimit { asked: 4 });
        assert_eq!(take_back(false, 7), TakeBack::OverLimit { asked: 8 });
        assert_eq!(take_back(true, 0), TakeBack::Rated);
        let granted = (0..10).filter(|&n| take_back(false, n).accepted()).count();
        assert_eq!(granted, TAKE_BACKS_PER_GAME as usize);
    }

    #[test]
    fn the_operator_pace_replaces_the_natural_one() {
        assert_eq!(pace(true, None), Duration::from_millis(900));
        assert_eq!(pace(false, None), Duration::from_millis(250));
        let chosen = Some(Duration::from_millis(20));
        assert_eq!(pace(true, chosen), Duration::from_millis(20));
    }
}
