//! Engine reviews of finished games: the server hands a game to an analysis worker (a bot
//! connection that offered to take `analyze` jobs), checks every position of the answer
//! against the rules, marks the moves, and stores the review with the game.
//!
//! - [`input`]: what a stored game gives a review: the positions to analyse, who moved.
//! - [`check`]: a worker's answer for one position, checked against the position.
//! - [`marks`]: mistakes and missed forced wins, from the evaluations.
//! - [`queue`]: the jobs waiting, the workers and what each is doing.
//! - [`live`]: live analyses of the analysis board, run on the same workers.
//! - [`error`]: why a review request or a worker's answer is refused.

pub mod check;
pub mod error;
pub mod input;
pub mod live;
pub mod marks;
pub mod queue;

pub use error::ReviewError;
pub use input::ReviewInput;
pub use queue::{longest_life, Assignment, PlyOutcome, QueueLimits, Requester, ReviewQueue};
