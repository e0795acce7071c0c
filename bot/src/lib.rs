//! The Kibitz bot: the engines that search Gomoku, Othello and Connect Four positions, and
//! (later) the protocol client that joins rooms and plays them like any other player.
//!
//! # Layout
//! - [`engine`]: what every engine shares — search limits, results, levels, the stop flag.
//! - [`search`]: the generic iterative-deepening PVS alpha-beta with a transposition table.
//! - [`tt`]: the Zobrist-keyed transposition table.
//! - [`connect4`], [`othello`], [`gomoku`]: one engine per game.
//! - [`client`]: the bot as a protocol client: invitations, games, reconnects.
//! - [`talk`]: what the bot says in a room.
//! - [`pbrain`]: the Gomoku engine as a Gomocup (Piskvork) brain.
//! - [`analyze`]: `kibitz analyze`, one JSON line per position.
//! - [`engines`]: which engine plays which game; position parsing and `kibitz bench`.

pub mod analyze;
pub mod client;
pub mod connect4;
pub mod engine;
pub mod engines;
pub mod gomoku;
pub mod othello;
pub mod pbrain;
pub mod search;
pub mod talk;
pub mod tt;
