//! A count of the hall's in Redis, by name ([`Tally`]): its own file, so that the rooms' limits
//! (`room::open_rooms`), which the Redis side of the counts implements, can name one without
//! importing that side back.

use std::time::Duration;

/// What a count of the hall counts in Redis: the word its keys start with
/// (`kibitz:{name}:...`), and how long one unit counts at most without being closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub name: &'static str,
    pub longest: Duration,
}
