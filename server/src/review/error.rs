//! Why a review request, or an analysis worker's answer, is refused.

use game_core::protocol::ErrorCode;
use thiserror::Error;

use crate::refusal::Refusal;

/// A refused review request or worker answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReviewError {
    #[error("the game is not over yet; a review comes after it")]
    NotOver,
    #[error("this game has no moves to review")]
    NothingToReview,
    #[error("the stored game could not be replayed: {0}")]
    Unreadable(String),
    #[error("the review queue is full ({0} games); ask again later")]
    QueueFull(usize),
    #[error("you have {0} reviews waiting already; ask again when one is done")]
    TooManyOfYours(usize),
    #[error("{0} reviews asked from your address are waiting already; ask again when one is done")]
    TooManyFromAddress(usize),
    #[error("the hall could not count reviews just now; try again")]
    Uncounted,
    #[error("only an analysis worker sends analysis")]
    NotAWorker,
    #[error("no job {0} of yours")]
    NotYourJob(String),
    #[error("analysis for position {got}, expected {expected}")]
    OutOfOrder { got: u32, expected: u32 },
    #[error("bad analysis of position {ply}: {why}")]
    BadAnalysis { ply: u32, why: String },
    #[error("could not store the review")]
    NotStored,
}

impl Refusal for ReviewError {
    fn code(&self) -> ErrorCode {
        match self {
            ReviewError::NotOver => ErrorCode::BadRequest,
            ReviewError::NothingToReview => ErrorCode::BadRequest,
            ReviewError::Unreadable(_) => ErrorCode::BadGame,
            ReviewError::QueueFull(_)
            | ReviewError::TooManyOfYours(_)
            | ReviewError::TooManyFromAddress(_) => ErrorCode::RateLimited,
            ReviewError::NotAWorker => ErrorCode::NotAPlayer,
            ReviewError::NotYourJob(_)
            | ReviewError::OutOfOrder { .. }
            | ReviewError::NotStored
            | ReviewError::Uncounted => ErrorCode::BadRequest,
            ReviewError::BadAnalysis { .. } => ErrorCode::IllegalMove,
        }
    }
}
