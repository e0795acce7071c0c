//! The hall's counts per player and per address in Redis, shared by every node (the rules are
//! `room::open_rooms`'s): the open rooms ([`OPEN_ROOMS`]) and the reviews asked
//! ([`reviews`]), each a [`Tally`]. For the open rooms, `kibitz:open:player:{id}` and
//! `kibitz:open:address:{address}` are sorted sets of room ids (scored by when each was
//! counted), and `kibitz:open:room:{room}` names the sets its room is in, so that the node
//! where the game ends, whichever it is, takes it out of them; a review's keys start
//! `kibitz:reviews:`. Opening is one script (both limits checked, then the unit counted), so
//! that a burst over several nodes counts whole; closing is one too. A unit not closed (its
//! end was not told: Redis out of reach then, or its node died) stops counting after its
//! tally's longest life, and every key expires with it. The closing script reaches the sets
//! named in the unit's key, which a single Redis server allows (not a Redis Cluster, which
//! Kibitz does not use).

use std::time::Duration;

use redis::Script;

use super::tally::Tally;
use super::Cluster;
use crate::room::open_rooms::{Makers, NotOpened, OpenLimits};

/// How long a room counts at most without being closed.
pub const COUNTED_AT_MOST: Duration = Duration::from_secs(24 * 3600);

/// The open rooms.
pub const OPEN_ROOMS: Tally = Tally {
    name: "open",
    longest: COUNTED_AT_MOST,
};

/// The reviews asked, each counting at most `longest` (the longest a job can live).
#[must_use]
pub fn reviews(longest: Duration) -> Tally {
    Tally {
        name: "reviews",
        longest,
    }
}

/// `KEYS`: the room's key, the player's set, the address's set. `ARGV`: the room, the limit of
/// the player's and of the address's (-1: none), the longest count in ms, and 1/0 for
/// whether there is a player, an address. Answers 0 counted (or counted before), 1 the player
/// at the limit, 2 the address at it.
const OPEN: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local age = tonumber(ARGV[4])
local sets = {}
if ARGV[5] == '1' then sets[#sets + 1] = {KEYS[2], tonumber(ARGV[2]), 1} end
if ARGV[6] == '1' then sets[#sets + 1] = {KEYS[3], tonumber(ARGV[3]), 2} end
for _, s in ipairs(sets) do
  redis.call('ZREMRANGEBYSCORE', s[1], '-inf', now - age)
  if s[2] >= 0 and redis.call('ZCARD', s[1]) >= s[2] then return s[3] end
end
local held = {}
for _, s in ipairs(sets) do
  redis.call('ZADD', s[1], now, ARGV[1])
  redis.call('PEXPIRE', s[1], age)
  held[#held + 1] = s[1]
end
redis.call('SET', KEYS[1], table.concat(held, '\n'), 'PX', age)
return 0
";

/// `KEYS`: the room's key. `ARGV`: the room. Takes the room out of the sets its key names.
const CLOSE: &str = r"
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
for set in string.gmatch(held, '[^\n]+') do redis.call('ZREM', set, ARGV[1]) end
redis.call('DEL', KEYS[1])
return 1
";

fn limit(limits: Option<OpenLimits>, of: impl Fn(OpenLimits) -> usize) -> i64 {
    limits.map_or(-1, |l| i64::try_from(of(l)).unwrap_or(i64::MAX))
}

impl Cluster {
    /// Counts unit `room` of `tally` for its makers (see `OpenRooms::open` and
    /// `OpenRooms::opened`).
    pub async fn open_room(
        &self,
        tally: Tally,
        room: &str,
        makers: &Makers,
        limits: Option<OpenLimits>,
    ) -> Result<(), NotOpened> {
        let player = makers.player.as_deref().unwrap_or_default();
        let address = makers.address.map(|a| a.to_string()).unwrap_or_default();
        let age = u64::try_from(tally.longest.as_millis()).unwrap_or(u64::MAX);
        let name = tally.name;
        let answer = self
            .call(async |r| {
                Script::new(OPEN)
                    .key(format!("kibitz:{name}:room:{room}"))
                    .key(format!("kibitz:{name}:player:{player}"))
                    .key(format!("kibitz:{name}:address:{address}"))
                    .arg(room)
                    .arg(limit(limits, |l| l.per_player))
                    .arg(limit(limits, |l| l.per_address))
                    .arg(age)
                    .arg(u8::from(makers.player.is_some()))
                    .arg(u8::from(makers.address.is_some()))
                    .invoke_async::<u8>(r)
                    .await
            })
            .await;
        match answer {
            Ok(0) => Ok(()),
            Ok(1) => Err(NotOpened::Player(limits.map_or(0, |l| l.per_player))),
            Ok(_) => Err(NotOpened::Address(limits.map_or(0, |l| l.per_address))),
            Err(e) => {
                tracing::warn!(room, error = %e, "the count of open rooms is out of reach");
                Err(NotOpened::Unavailable)
            }
        }
    }

    /// Unit `room` of `tally` no longer counts (see `OpenRooms::closed`).
    pub async fn close_room(&self, tally: Tally, room: &str) {
        let name = tally.name;
        let closed = self
            .call(async |r| {
                Script::new(CLOSE)
                    .key(format!("kibitz:{name}:room:{room}"))
                    .arg(room)
                    .invoke_async::<u8>(r)
                    .await
            })
            .await;
        if let Err(e) = closed {
            tracing::warn!(room, error = %e, "closing an open room's count failed");
        }
    }
}
