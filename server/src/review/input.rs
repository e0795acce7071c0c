//! What a stored game gives a review: the game without its opening rule, the stones on the
//! board before the moves to review, those moves, and each position with its mover, so that
//! a worker's answers can be checked and the moves marked.

use game_core::game::Game;
use game_core::opening::opening_stones;
use game_core::protocol::{AnalyzeJob, RoomStatus};
use game_core::review::EVAL_WIN;
use game_core::{AnyPosition, Color, GameSpec};

use super::error::ReviewError;
use crate::store::StoredRoom;

/// One finished game, ready to be reviewed.
#[derive(Clone, Debug)]
pub struct ReviewInput {
    pub room: String,
    /// The game as the worker sees it: an opening rule's decisions are stones in `setup`.
    pub game: GameSpec,
    pub setup: Vec<String>,
    pub moves: Vec<String>,
    /// Index in the room's `moves` of the first reviewed move.
    pub from: u32,
    /// The position before each reviewed move.
    pub positions: Vec<AnyPosition>,
    /// The evaluation (black's view) of the final position when the game ended on the board.
    pub end: Option<i32>,
}

impl ReviewInput {
    /// Replays a stored game; refuses one that is not over or has nothing to review.
    pub fn from_room(stored: &StoredRoom) -> Result<ReviewInput, ReviewError> {
        if stored.status != RoomStatus::Over {
            return Err(ReviewError::NotOver);
        }
        let unreadable = |e: String| ReviewError::Unreadable(e);
        let spec = &stored.head.game;
        let texts: Vec<&str> = stored.moves.iter().map(|m| m.mv.as_str()).collect();
        let game = Game::with_setup(spec, &stored.head.opening)
            .map_err(|e| unreadable(e.to_string()))?
            .replay(&texts)
            .map_err(|(i, e)| unreadable(format!("move {}: {e}", i + 1)))?;
        if game.in_opening() {
            return Err(ReviewError::NothingToReview);
        }
        let from = game.opening_steps();
        let (plain, setup) = match spec {
            GameSpec::Gomoku {
                size,
                rule,
                opening_rule: Some(_),
            } => (
                GameSpec::gomoku(*size, *rule),
                opening_stones(&texts[..from]),
            ),
            _ => (spec.clone(), stored.head.opening.clone()),
        };
        let moves: Vec<String> = texts[from..].iter().map(|m| m.to_string()).collect();
        if moves.is_empty() {
            return Err(ReviewError::NothingToReview);
        }
        let mut position =
            AnyPosition::with_moves(&plain, &setup).map_err(|e| unreadable(e.to_string()))?;
        let mut positions = Vec::with_capacity(moves.len());
        for mv in &moves {
            positions.push(position.clone());
            position
                .play_str(mv)
                .map_err(|e| unreadable(format!("{mv}: {e}")))?;
        }
        if position.board_text() != game.position().board_text() {
            return Err(unreadable(
                "the opening's stones do not make its board".into(),
            ));
        }
        // A game ended by a resignation or the clock has no final position to value.
        let end = position.outcome().map(|o| match o.winner {
            Some(Color::Black) => EVAL_WIN,
            Some(Color::White) => -EVAL_WIN,
            None => 0,
        });
        Ok(ReviewInput {
            room: stored.head.id.clone(),
            game: plain,
            setup,
            moves,
            from: from as u32,
            positions,
            end,
        })
    }

    /// The side to move before each reviewed move.
    #[must_use]
    pub fn movers(&self) -> Vec<Color> {
        self.positions.iter().map(AnyPosition::turn).collect()
    }

    /// The job a worker is sent.
    #[must_use]
    pub fn job(&self, id: &str) -> AnalyzeJob {
        AnalyzeJob {
            job: id.to_string(),
            game: self.game.clone(),
            setup: self.setup.clone(),
            moves: self.moves.clone(),
        }
    }
}
