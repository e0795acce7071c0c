//! The sign-in guard's counts in Redis, shared by every node (the rules are
//! `accounts::guard`'s): `kibitz:signin:address:{block}` counts an address's attempts in its
//! window, `kibitz:signin:failures:{name}` a name's failures in a row (kept for the longest
//! lock-out past the last failure, or past the end of its lock), `kibitz:signin:lock:{name}`
//! locks the name for its time to live. One
//! script an attempt, so that a burst over several nodes counts whole; every key expires.

use std::net::IpAddr;

use redis::Script;

use super::Cluster;
use crate::accounts::guard::{address_block, SignInLimits, Throttled};

/// `KEYS`: lock, failures, address. `ARGV`: attempts an address may make, its window in ms,
/// failures before a lock, the first lock and the longest in ms, and 1 to count the attempt
/// against the name (0: the address alone). Answers `{0, 0}` taken, `{1, ms}` the address
/// throttled for ms more, `{2, ms}` the name locked for ms more.
const ATTEMPT: &str = r"
local by_name = ARGV[6] == '1'
if by_name then
  local left = redis.call('PTTL', KEYS[1])
  if left > 0 then return {2, left} end
end
local n = redis.call('INCR', KEYS[3])
if n == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
if n > tonumber(ARGV[1]) then
  local left = redis.call('PTTL', KEYS[3])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[3], ARGV[2])
    left = tonumber(ARGV[2])
  end
  return {1, left}
end
if by_name then
  local f = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
  local before = tonumber(ARGV[3])
  if f >= before then
    local lock = tonumber(ARGV[4]) * (2 ^ math.min(f - before, 16))
    lock = math.floor(math.min(lock, tonumber(ARGV[5])))
    redis.call('SET', KEYS[1], '1', 'PX', lock)
    redis.call('PEXPIRE', KEYS[2], lock + tonumber(ARGV[5]))
  end
end
return {0, 0}
";

fn lock_key(name: &str) -> String {
    format!("kibitz:signin:lock:{name}")
}

fn failures_key(name: &str) -> String {
    format!("kibitz:signin:failures:{name}")
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl Cluster {
    /// Counts an attempt from `address`, under the name key `name` if given (see
    /// `SignInGuard::attempt`); `Unavailable` when Redis does not answer.
    pub async fn signin_attempt(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        name: Option<&str>,
    ) -> Result<(), Throttled> {
        let address_key = format!("kibitz:signin:address:{}", address_block(address));
        let name = name.unwrap_or_default();
        let answer = self
            .call(async |r| {
                Script::new(ATTEMPT)
                    .key(lock_key(name))
                    .key(failures_key(name))
                    .key(&address_key)
                    .arg(limits.per_address.max)
                    .arg(millis(limits.per_address.per))
                    .arg(limits.failures_before_lock.max(1))
                    .arg(millis(limits.lock_first))
                    .arg(millis(limits.lock_max))
                    .arg(u8::from(!name.is_empty()))
                    .invoke_async::<(u8, u64)>(r)
                    .await
            })
            .await;
        let wait = |ms: u64| std::time::Duration::from_millis(ms);
        match answer {
            Ok((0, _)) => Ok(()),
            Ok((1, ms)) => Err(Throttled::Address(wait(ms))),
            Ok((_, ms)) => Err(Throttled::Name(wait(ms))),
            Err(e) => {
                tracing::warn!(error = %e, "the sign-in guard's counts are out of reach");
                Err(Throttled::Unavailable)
            }
        }
    }

    /// Forgets the failures and lock of the name key `name` (a sign-in under it succeeded).
    pub async fn signin_succeeded(&self, name: &str) {
        let keys = [lock_key(name), failures_key(name)];
        let forgot = self
            .call(async |r| redis::cmd("DEL").arg(&keys).query_async::<u32>(r).await)
            .await;
        if let Err(e) = forgot {
            tracing::warn!(error = %e, "forgetting a name's failed sign-ins failed");
        }
    }
}
