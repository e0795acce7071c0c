//! Moderation (docs/protocol.md "Blocks"): what players do to keep others away from them.
//!
//! - [`blocks`]: whom each account has blocked, kept in the store and known by every node
//!   that needs it; what a block stops.

pub mod blocks;
