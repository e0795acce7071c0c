//! Puzzles made from the engines' own games and proven by their solvers: `kibitz puzzles
//! generate` plays bot-vs-bot games, looks for positions where the side to move has a forced
//! win, proves each with its game's solver into the tree of every accepted move
//! ([`game_core::puzzle`]), and keeps one of each position up to the board's symmetries.
//!
//! - [`proof`]: the tree, built the same way for every game from a [`proof::Prover`].
//! - [`gomoku`], [`connect4`], [`othello`]: each game's prover and themes.
//! - [`generate`](mod@generate): the games, the candidates, the set's check, and the proof of
//!   a position from a game of the hall ([`prove_position`]).

pub mod connect4;
pub mod generate;
pub mod gomoku;
pub mod othello;
pub mod proof;

pub use generate::{generate, prove_position, verify, GenerateOptions, GenerateReport, Variant};
