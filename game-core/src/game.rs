//! [`Game`]: a game as it is played from its spec, the opening rule's decisions first (when
//! the spec has one) and the moves after them, all as one list of texts. The server keeps a
//! room's game in it and the bot reads the room's record with it, so both replay a record
//! the same way.

use crate::any::AnyPosition;
use crate::error::{MoveError, SpecError};
use crate::opening::{ChoiceError, Opening, OpeningView, Role};
use crate::spec::GameSpec;
use crate::Color;

/// A game from its start: the opening (kept, once over, to tell its choices from the moves)
/// and the position on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    opening: Option<Opening>,
    position: AnyPosition,
}

/// A step of a [`Game`]: a move that is refused, or an opening choice that is. It lives here,
/// beside the game that makes both kinds of step, so that the crate's error module needs
/// nothing from the opening's (which itself builds on the board's errors).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error(transparent)]
    Choice(#[from] ChoiceError),
}

/// What one step of a game did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The canonical text of the move or choice.
    pub text: String,
    /// The colour of who made it, as held when making it.
    pub by: Color,
    /// The players exchanged colours (a swap, or swap2's colour choice that changed hands).
    pub swapped: bool,
}

impl Game {
    /// The start of a validated spec: the opening's empty board for a spec with an opening
    /// rule, the game's start position otherwise.
    pub fn new(spec: &GameSpec) -> Result<Game, SpecError> {
        if spec.opening_rule().is_some() {
            let opening = Opening::new(spec)?;
            let position = AnyPosition::Gomoku(opening.position().clone());
            return Ok(Game {
                opening: Some(opening),
                position,
            });
        }
        Ok(Game {
            opening: None,
            position: AnyPosition::new(spec)?,
        })
    }

    /// The start of a room: the spec's start followed by set-up moves, which only a game
    /// without an opening rule may have.
    pub fn with_setup<S: AsRef<str>>(spec: &GameSpec, setup: &[S]) -> Result<Game, SpecError> {
        if let Some(rule) = spec.opening_rule() {
            if !setup.is_empty() {
                return Err(SpecError::SetupWithOpeningRule(rule.as_str()));
            }
            return Game::new(spec);
        }
        Ok(Game {
            opening: None,
            position: AnyPosition::with_moves(spec, setup)?,
        })
    }

    /// `start` followed by `steps` (choices of the opening, then moves); the first that fails
    /// is reported with its index.
    pub fn replay<S: AsRef<str>>(mut self, steps: &[S]) -> Result<Game, (usize, StepError)> {
        for (index, text) in steps.iter().enumerate() {
            self.play(text.as_ref()).map_err(|e| (index, e))?;
        }
        Ok(self)
    }

    #[must_use]
    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// The opening, for a spec with an opening rule (over or not).
    #[must_use]
    pub fn opening(&self) -> Option<&Opening> {
        self.opening.as_ref()
    }

    /// The opening's view, for a spec with an opening rule.
    #[must_use]
    pub fn opening_view(&self) -> Option<OpeningView> {
        self.opening.as_ref().map(Opening::view)
    }

    /// Whether the opening rule's decisions are still being made.
    #[must_use]
    pub fn in_opening(&self) -> bool {
        self.opening.as_ref().is_some_and(|o| !o.is_over())
    }

    /// How many steps the opening took, once it is over (0 without an opening rule).
    #[must_use]
    pub fn opening_steps(&self) -> usize {
        self.opening.as_ref().map_or(0, |o| o.choices().len())
    }

    /// The role holding `color`; without an opening rule black is the first player.
    #[must_use]
    pub fn role_of(&self, color: Color) -> Role {
        match &self.opening {
            Some(opening) => opening.role_of(color),
            None if color == Color::Black => Role::First,
            None => Role::Second,
        }
    }

    /// The colour of whoever acts next: the one whose opening decision it is, else the side
    /// to move.
    #[must_use]
    pub fn to_act(&self) -> Color {
        match &self.opening {
            Some(opening) => match opening.to_act() {
                Some(role) => opening.color_of(role),
                None => self.position.turn(),
            },
            None => self.position.turn(),
        }
    }

    /// Plays the next step for whoever acts: an opening choice while the opening runs, a
    /// move after it. On error the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<Step, StepError> {
        let by = self.to_act();
        let Some(opening) = self.opening.as_mut().filter(|o| !o.is_over()) else {
            let text = self.position.play_str(text).map_err(StepError::Move)?;
            return Ok(Step {
                text,
                by,
                swapped: false,
            });
        };
        let black = opening.black();
        let role = opening.role_of(by);
        let choice = opening.apply_str(role, text).map_err(StepError::Choice)?;
        self.position = AnyPosition::Gomoku(opening.position().clone());
        Ok(Step {
            text: choice.to_string(),
            by,
            swapped: opening.black() != black,
        })
    }
}
