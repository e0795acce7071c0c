//! The Kibitz bot: the engines that search Gomoku, Othello and Connect Four positions, the
//! protocols through which others use those engines, and the protocol client that joins rooms
//! and plays them like any other player.
//!
//! # Layout, by which way each part faces
//! - [`engine`]: the engines themselves — what every engine shares (the `Engine` trait,
//!   values, the transposition table, the watchdog, the generic search), the engines by game
//!   ([`engine::gomoku`], [`engine::othello`], [`engine::connect4`]), the registry of which
//!   plays what, and a rule-following beginner for each game.
//! - [`frontends`]: our engines speaking someone else's protocol on standard input and output
//!   (pbrain, NBoard, the analyze lines) and `kibitz bench` (docs/engines.md).
//! - [`client`]: the bot as a client of the hall's protocol (invitations, games, reconnects,
//!   the WebSocket client shared with the showcase and the load generator), and
//!   [`client::external`]: engines built elsewhere that the bot drives as its engine.
//! - [`puzzles`]: puzzles proven by the engines from positions of games.

// The module docs are a map of the source and name private parts too: `cargo doc
// --document-private-items` renders those links, and the public docs leave them as text.
#![allow(rustdoc::private_intra_doc_links)]

pub mod client;
pub mod engine;
pub mod frontends;
pub mod puzzles;
