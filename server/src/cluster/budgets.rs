//! The new players per address in Redis, shared by every node (the rules are
//! `accounts::new_players`'s): `kibitz:new_players:{address}` counts an address's new players
//! in its window and expires with it. One script a new player, so that a burst over several
//! nodes counts whole.

use std::net::IpAddr;
use std::time::Duration;

use redis::Script;

use super::Cluster;
use crate::accounts::new_players::NotAdmitted;
use crate::rate_limit::Rate;

/// `KEYS`: the address's count. `ARGV`: new players an address may make, its window in ms.
/// Answers 0 admitted, or the ms left in the window when refused. A refused one still
/// counts; a count without an expiry (left by an earlier failure) is given one.
const ADMIT: &str = r"
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n <= tonumber(ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  left = tonumber(ARGV[2])
end
return math.max(left, 1)
";

impl Cluster {
    /// Counts a new player made from `address` (see `NewPlayers::admit`).
    pub async fn admit_new_player(&self, rate: Rate, address: IpAddr) -> Result<(), NotAdmitted> {
        let key = format!("kibitz:new_players:{address}");
        let window = u64::try_from(rate.per.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let answer = self
            .call(async |r| {
                Script::new(ADMIT)
                    .key(&key)
                    .arg(rate.max)
                    .arg(window)
                    .invoke_async::<u64>(r)
                    .await
            })
            .await;
        match answer {
            Ok(0) => Ok(()),
            Ok(ms) => Err(NotAdmitted::Spent(Duration::from_millis(ms))),
            Err(e) => {
                tracing::warn!(error = %e, "the count of new players is out of reach");
                Err(NotAdmitted::Unavailable)
            }
        }
    }
}
