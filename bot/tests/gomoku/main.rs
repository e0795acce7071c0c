//! The Gomoku engine against game-core: incremental patterns, move generation, wins and
//! renju forbidden points on random games; threat-search claims replayed move by move; forced
//! replies, levels and determinism on constructed positions.
//!
//! One test binary, split by concern: [`common`] (shared helpers), [`random_games`],
//! [`threats`], [`engine`] and [`root_checks`].

mod common;
mod engine;
mod random_games;
mod root_checks;
mod threats;
