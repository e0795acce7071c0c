//! Pure rules of the three Kibitz games — Gomoku (freestyle, standard, renju), Othello and
//! Connect Four — with their notation, game records and the wire-protocol message types.
//!
//! The server (the referee) and the bot (the engines) both stand on this crate, so they can
//! never disagree about a rule. Nothing here does I/O or async work.
//!
//! Gomoku may be played from a tournament opening — swap2, Soosõrv-8 or Taraguchi-10, named by
//! the spec's `opening_rule` — which [`opening::Opening`] referees choice by choice before
//! handing over an ordinary position:
//!
//! ```
//! use game_core::opening::{Opening, Role};
//! use game_core::{GameSpec, GomokuRule, OpeningRule, Position};
//!
//! let spec: GameSpec = serde_json::from_str(
//!     r#"{"kind":"gomoku","size":15,"rule":"renju","opening_rule":"taraguchi10"}"#,
//! ).unwrap();
//! assert_eq!(spec.opening_rule(), Some(OpeningRule::Taraguchi10));
//! let mut opening = Opening::new(&spec).unwrap();
//! for choice in ["h8", "stay", "i9", "swap", "j7", "stay", "e5", "stay", "l12", "stay"] {
//!     let by = opening.to_act().unwrap();
//!     opening.apply_str(by, choice).unwrap();
//! }
//! assert!(opening.is_over());
//! assert_eq!(opening.black(), Role::Second); // one swap, after the 2nd move
//! let game = opening.into_position();
//! assert_eq!(game.ply(), 5); // white plays the 6th move
//! ```
//!
//! ```
//! use game_core::{AnyPosition, GameSpec, Color};
//!
//! let spec: GameSpec = serde_json::from_str(r#"{"kind":"connect4","cols":7,"rows":6}"#).unwrap();
//! let mut pos = AnyPosition::new(&spec).unwrap();
//! for m in ["4", "4", "3", "3", "2", "2"] {
//!     pos.play_str(m).unwrap();
//! }
//! assert!(pos.play_str("0").is_err()); // a syntax error changes nothing
//! pos.play_str("1").unwrap();
//! let outcome = pos.outcome().unwrap();
//! assert_eq!(outcome.winner, Some(Color::Black));
//! ```
//!
//! # Layout
//! - [`color`]: the two seats, `Color::Black` moves first in every game.
//! - [`position`]: the [`Position`] trait shared by the three games, [`Outcome`] and [`Cell`].
//! - [`error`]: syntax errors ([`ParseMoveError`]), legality errors ([`IllegalMoveError`]),
//!   game-spec errors ([`SpecError`]).
//! - [`gomoku`], [`renju`]: Gomoku boards 5..=26 and the RIF forbidden-point rules for black.
//! - [`othello`]: 8x8 Othello on bitboards, the FFO position text.
//! - [`connect4`]: Connect Four 4..=12 by 4..=12 with blocked cells, on wide bitboards.
//! - [`spec`]: the game spec of the protocol (`{"kind":...}`), its opening rule and its
//!   validation.
//! - [`symmetry`]: the eight symmetries of a square board; when two positions are the same up
//!   to them.
//! - [`opening`]: the opening rules swap2, Soosõrv-8 and Taraguchi-10 as a state machine over a
//!   Gomoku position, with the notation of their choices.
//! - [`any`]: [`AnyPosition`], one enum over the three games for the server.
//! - [`game`]: [`game::Game`], a game from its spec: the opening rule's choices, then the moves.
//! - [`record`]: game records — move strings, SGF, PSQ.
//! - [`review`]: the engine review of a finished game: the analysis job, a worker's answer
//!   per position, the stored review.
//! - [`protocol`]: `ClientMsg` and `ServerMsg`, the two directions of the wire protocol.

pub mod any;
pub mod color;
pub mod connect4;
pub mod error;
pub mod game;
pub mod gomoku;
pub mod opening;
pub mod othello;
pub mod position;
pub mod protocol;
pub mod puzzle;
pub mod record;
pub mod renju;
pub mod review;
pub mod setup;
pub mod spec;
pub mod symmetry;

pub use any::AnyPosition;
pub use color::Color;
pub use error::{IllegalMoveError, MoveError, ParseMoveError, SpecError};
pub use game::StepError;
pub use position::{Cell, EndReason, Outcome, PlayError, Position, Score};
pub use spec::{GameKind, GameSpec, GomokuRule, OpeningRule};
