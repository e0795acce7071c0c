//! A room about to be made, checked once: the game, the clock, the opening with the position
//! it leads to (built here, never replayed again), and who sits where. `create`, quick pairing
//! and rematches all make one, and the room starts from it.

use std::net::IpAddr;

use game_core::game::Game;
use game_core::protocol::ClockSpec;
use game_core::GameSpec;

use super::error::RoomError;
use crate::store::StoredSeat;

/// A checked room description, ready to be stored and started.
#[derive(Clone, Debug)]
pub struct RoomPlan {
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub opening: Vec<String>,
    /// The game after the set-up moves (an opening rule's opening is still to be played).
    pub start: Game,
    pub private: bool,
    pub creator: Option<String>,
    /// Black and white; a room made with both taken starts at once.
    pub seats: [Option<StoredSeat>; 2],
    /// The address the room was asked for from (counts against that address's open rooms).
    pub origin: Option<IpAddr>,
    /// A rated room (checked by [`RoomPlan::rated`]).
    pub rated: bool,
    /// The room's id when its maker drew it beforehand (a tournament stores its pairings
    /// with their rooms' ids before it makes the rooms); `None`: drawn when the room is made.
    pub id: Option<String>,
}

/// Checks a game spec and a clock (of `create` and `seek`).
pub fn check_game(game: &GameSpec, clock: Option<&ClockSpec>) -> Result<(), RoomError> {
    game.validate()
        .map_err(|e| RoomError::BadGame(e.to_string()))?;
    if let Some(clock) = clock {
        clock
            .validate()
            .map_err(|e| RoomError::BadClock(e.to_string()))?;
    }
    Ok(())
}

impl RoomPlan {
    /// Checks a requested room and plays its opening, once.
    pub fn new(
        game: GameSpec,
        clock: Option<ClockSpec>,
        opening: Vec<String>,
        max_opening: usize,
    ) -> Result<RoomPlan, RoomError> {
        check_game(&game, clock.as_ref())?;
        if opening.len() > max_opening {
            return Err(RoomError::OpeningTooLong(max_opening));
        }
        let start =
            Game::with_setup(&game, &opening).map_err(|e| RoomError::BadOpening(e.to_string()))?;
        if start.position().is_over() {
            return Err(RoomError::OpeningEnds);
        }
        Ok(RoomPlan {
            game,
            clock,
            opening,
            start,
            private: false,
            creator: None,
            seats: [None, None],
            origin: None,
            rated: false,
            id: None,
        })
    }

    /// Rated: only a game with a rating key (a standard board, no preset opening moves).
    pub fn rated(self) -> Result<RoomPlan, RoomError> {
        if crate::accounts::ratings::rating_key(&self.game, !self.opening.is_empty(), false)
            .is_none()
        {
            return Err(RoomError::NotRateable);
        }
        Ok(RoomPlan {
            rated: true,
            ..self
        })
    }

    /// Made by `creator` (counts against their open rooms).
    #[must_use]
    pub fn created_by(self, creator: &str, private: bool) -> RoomPlan {
        RoomPlan {
            creator: Some(creator.to_string()),
            private,
            ..self
        }
    }

    /// Asked for from `address`.
    #[must_use]
    pub fn from_address(self, address: IpAddr) -> RoomPlan {
        RoomPlan {
            origin: Some(address),
            ..self
        }
    }

    /// Made under the id `id`, drawn beforehand by its maker.
    #[must_use]
    pub fn with_id(self, id: &str) -> RoomPlan {
        RoomPlan {
            id: Some(id.to_string()),
            ..self
        }
    }

    /// With these players seated, black first.
    #[must_use]
    pub fn seated(self, seats: [Option<StoredSeat>; 2]) -> RoomPlan {
        RoomPlan { seats, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_the_game_the_clock_and_the_opening_once() {
        let gomoku = GameSpec::gomoku(15, game_core::GomokuRule::Freestyle);
        let plan = RoomPlan::new(gomoku.clone(), None, vec!["h8".into(), "h9".into()], 10)
            .expect("a fine plan");
        assert_eq!(plan.start.position().ply(), 2);
        assert!(matches!(
            RoomPlan::new(
                GameSpec::gomoku(3, game_core::GomokuRule::Freestyle),
                None,
                vec![],
                10
            ),
            Err(RoomError::BadGame(_))
        ));
        let bad_clock = ClockSpec::PerMove { move_ms: 1 };
        assert!(matches!(
            RoomPlan::new(gomoku.clone(), Some(bad_clock), vec![], 10),
            Err(RoomError::BadClock(_))
        ));
        assert_eq!(
            RoomPlan::new(gomoku.clone(), None, vec!["h8".into(); 3], 2).unwrap_err(),
            RoomError::OpeningTooLong(2)
        );
        assert!(matches!(
            RoomPlan::new(gomoku.clone(), None, vec!["h8".into(), "h8".into()], 10),
            Err(RoomError::BadOpening(_))
        ));
        let five: Vec<String> = ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5"]
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            RoomPlan::new(gomoku, None, five, 10).unwrap_err(),
            RoomError::OpeningEnds
        );
    }
}
