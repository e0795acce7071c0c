//! Room leases in Redis. A lease is the key `kibitz:lease:{room}` holding `node|fence`, set
//! only if absent and with an expiry, renewed while its node lives; the fence comes from the
//! counter `kibitz:fence:{room}`, so every owner of a room holds a larger fence than the one
//! before, and the store refuses writes under an older one. Each step is one Lua script, so
//! that reading and setting a key are one step for Redis.

use std::sync::Arc;

use redis::aio::ConnectionManager;
use redis::{RedisResult, Script};
use tokio::sync::Notify;

/// A room this node owns: the fence its writes carry, and what wakes the room when the lease
/// is lost (another node owns it now: the room must stop at once).
#[derive(Clone, Debug)]
pub struct Lease {
    pub fence: u64,
    pub lost: Arc<Notify>,
}

/// What claiming a room found.
#[derive(Debug)]
pub enum Claim {
    /// The lease is this node's now, under this fence.
    Ours(Lease),
    /// Another node holds the lease.
    Elsewhere(String),
}

/// The lease key of a room.
pub(super) fn lease_key(room: &str) -> String {
    format!("kibitz:lease:{room}")
}

/// The fence counter of a room.
pub(super) fn fence_key(room: &str) -> String {
    format!("kibitz:fence:{room}")
}

/// Takes the lease unless another node holds it: `{1, fence}` taken, `{0, owner}` held
/// elsewhere. A fresh fence is drawn even when this node held the lease already (the room is
/// not in memory, so whatever held it before is gone); it is raised past `ARGV[3]`, the fence
/// the store holds, so that a Redis that lost its counters still hands out larger ones.
const CLAIM: &str = r"
local cur = redis.call('GET', KEYS[1])
if cur then
  local sep = string.find(cur, '|', 1, true)
  local owner = string.sub(cur, 1, sep - 1)
  if owner ~= ARGV[1] then return {0, owner} end
end
local fence = redis.call('INCR', KEYS[2])
local floor = tonumber(ARGV[3])
if fence <= floor then
  fence = floor + 1
  redis.call('SET', KEYS[2], fence)
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. fence, 'PX', ARGV[2])
return {1, tostring(fence)}
";

/// Renews leases: keys in pairs (lease, fence counter), `ARGV[1]` the node, `ARGV[2]` the
/// expiry, then one fence per pair. A lease that is still this node's under that fence is
/// extended; one that expired while nobody else took it (the counter still at that fence:
/// Redis was out of reach for a moment) is set again. Answers 1 or 0 per lease.
const RENEW: &str = r"
local out = {}
for i = 1, #KEYS, 2 do
  local fence = ARGV[2 + (i + 1) / 2]
  local mine = ARGV[1] .. '|' .. fence
  local cur = redis.call('GET', KEYS[i])
  if cur == mine then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    out[#out + 1] = 1
  elseif (not cur) and redis.call('GET', KEYS[i + 1]) == fence then
    redis.call('SET', KEYS[i], mine, 'PX', ARGV[2])
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out
";

/// Gives a lease up if it is still this node's under that fence.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// Claims `room` for `node` for `lease_ms`, with fences above `floor`.
pub(super) async fn claim(
    redis: &mut ConnectionManager,
    node: &str,
    room: &str,
    lease_ms: u64,
    floor: u64,
) -> RedisResult<Result<u64, String>> {
    let (taken, value): (u8, String) = Script::new(CLAIM)
        .key(lease_key(room))
        .key(fence_key(room))
        .arg(node)
        .arg(lease_ms)
        .arg(floor)
        .invoke_async(redis)
        .await?;
    if taken == 1 {
        Ok(value.parse::<u64>().map_err(|_| value))
    } else {
        Ok(Err(value))
    }
}

/// Renews these leases; true for each one still this node's.
pub(super) async fn renew(
    redis: &mut ConnectionManager,
    node: &str,
    lease_ms: u64,
    rooms: &[(String, u64)],
) -> RedisResult<Vec<bool>> {
    if rooms.is_empty() {
        return Ok(Vec::new());
    }
    let script = Script::new(RENEW);
    let mut call = script.prepare_invoke();
    for (room, _) in rooms {
        call.key(lease_key(room)).key(fence_key(room));
    }
    call.arg(node).arg(lease_ms);
    for (_, fence) in rooms {
        call.arg(fence.to_string());
    }
    let kept: Vec<u8> = call.invoke_async(redis).await?;
    Ok(kept.into_iter().map(|k| k == 1).collect())
}

/// Gives the lease of `room` up if `node` still holds it under `fence`.
pub(super) async fn release(
    redis: &mut ConnectionManager,
    node: &str,
    room: &str,
    fence: u64,
) -> RedisResult<()> {
    let _: u8 = Script::new(RELEASE)
        .key(lease_key(room))
        .arg(format!("{node}|{fence}"))
        .invoke_async(redis)
        .await?;
    Ok(())
}

/// The node holding the lease of `room`, if any.
pub(super) async fn owner(
    redis: &mut ConnectionManager,
    room: &str,
) -> RedisResult<Option<String>> {
    let value: Option<String> = redis::cmd("GET")
        .arg(lease_key(room))
        .query_async(redis)
        .await?;
    Ok(value.and_then(|v| v.split_once('|').map(|(node, _)| node.to_string())))
}

/// The node holding the lease of each of `rooms`, in order (one `MGET`).
pub(super) async fn owners(
    redis: &mut ConnectionManager,
    rooms: &[String],
) -> RedisResult<Vec<Option<String>>> {
    if rooms.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = rooms.iter().map(|r| lease_key(r)).collect();
    let values: Vec<Option<String>> = redis::cmd("MGET").arg(&keys).query_async(redis).await?;
    Ok(values
        .into_iter()
        .map(|v| v.and_then(|v| v.split_once('|').map(|(node, _)| node.to_string())))
        .collect())
}
