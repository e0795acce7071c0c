//! Moderation (docs/protocol.md "Blocks" and "Moderation"): what players do to keep others
//! away from them, and what moderators do to keep abuse out of the hall.
//!
//! - [`blocks`]: whom each account has blocked, kept in the store and known by every node
//!   that needs it; what a block stops. [`block_lists`]: the lists this node holds.
//! - [`sanctions`]: moderators' actions (warn, mute, bans, close, rename, hide a chat line),
//!   the sanctions in force on every node, and what each stops. [`in_force`]: the sanctions
//!   this node holds, and the refusal one gives.
//! - [`chat_guard`]: the operator's word list applied, and the timeouts the hall gives by
//!   itself for floods and repeated reports. [`chat_words`]: the list as read.

pub mod block_lists;
pub mod blocks;
pub mod chat_guard;
pub mod chat_words;
pub mod in_force;
pub mod sanctions;
