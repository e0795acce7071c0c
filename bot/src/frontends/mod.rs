//! Our engines speaking a protocol of their own on standard input and output, for the programs
//! and managers built around those protocols (docs/engines.md). The other way round — a
//! program built elsewhere driven as the bot's engine — is [`crate::client::external`].
//!
//! - [`pbrain`]: the Gomoku engine as a Gomocup (Piskvork) brain.
//! - [`nboard`]: the Othello engine as an NBoard engine.
//! - [`analyze`]: any engine, one position a line in and one JSON line out.
//! - [`mod@bench`]: `kibitz bench`, the engines' search signature.

pub mod analyze;
pub mod bench;
pub mod nboard;
pub mod pbrain;
