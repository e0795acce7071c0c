//! The Kibitz bot: the engines that search Gomoku, Othello and Connect Four positions, and
//! the protocol client that joins rooms and plays them like any other player.
//!
//! # Layout
//! - [`engine`]: the `Engine` trait and what every engine shares — search limits and
//!   requests, results, levels, the stop flag.
//! - [`value`]: the shared search's value scale (proven wins by distance) and its scores.
//! - [`tt`]: the Zobrist-keyed transposition table.
//! - [`watchdog`]: the deadline, node budget and stop flag every search reads as it goes.
//! - [`search`]: the generic iterative-deepening PVS alpha-beta over a `SearchGame`.
//! - [`connect4`], [`othello`], [`gomoku`]: one engine per game, each with its level table.
//! - [`registry`]: which engine plays which game; position parsing for analyze and bench.
//! - [`analyze`], [`bench`], [`pbrain`], [`nboard`]: the engine command line
//!   (docs/engines.md).
//! - [`external`]: any engine built outside the project as the bot's engine (pbrain, NBoard,
//!   the analyze lines).
//! - [`beginner`]: a rule-following beginner for each game, the yardstick below level 1.
//! - [`wire`]: the WebSocket client of the protocol, shared with the showcase and the load
//!   generator.
//! - [`client`]: the bot as a protocol client: invitations, games, reconnects.
//! - [`error`]: what can go wrong on the wire.

pub mod analyze;
pub mod beginner;
pub mod bench;
pub mod client;
pub mod connect4;
pub mod engine;
pub mod error;
pub mod external;
pub mod gomoku;
pub mod nboard;
pub mod othello;
pub mod pbrain;
pub mod puzzles;
pub mod registry;
pub mod search;
pub mod tt;
pub mod value;
pub mod watchdog;
pub mod wire;
