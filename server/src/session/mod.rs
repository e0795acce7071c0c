//! One WebSocket connection, from the upgrade to the close.
//!
//! - [`reader`]: the read loop: frame rules, parsing, shutdown, the end of the connection.
//! - [`frames`]: the per-connection rate limits and refusal count.
//! - [`writer`]: the writer task: a bounded queue, pings, closing a client that cannot keep up.
//! - [`dispatch`]: the session's identity and role, and where each message goes.
//! - [`identity`]: `hello`: names, tokens, the store, bot registration.
//! - [`create`]: `create`, checked once into a room plan.
//! - `seek` and `unseek` go to quick pairing (`crate::lobby::pairing`).
//! - [`reviews`]: `review` requests and analysis workers' answers.
//! - [`live`]: the analysis board's live analyses: `analyse`, `analyse_stop`, workers' lines.
//! - [`hall_puzzles`]: reviews' missed wins proven into puzzles by the workers.
//! - [`error`]: why a session refuses a message.

pub mod create;
pub mod dispatch;
pub mod error;
pub mod frames;
pub mod hall_puzzles;
pub mod identity;
pub mod live;
pub mod reader;
pub mod reviews;
pub mod writer;
