//! The cluster's quick-pairing book, in Redis: one list of waiting seekers per game and clock,
//! so that a seek on one node pairs with a seek on any other. Taking the first live seeker
//! of a list, or joining it when nobody waits, is one Lua script: two nodes never pair the
//! same seeker twice. A seeker of a node that is gone (its presence key expired) is skipped
//! and dropped, as is one whose connection closed (its node removes it), and a node that
//! starts drops what an earlier run of it under the same id left. An entry that does not read
//! (another version's) is dropped rather than blocking its list.

use redis::aio::ConnectionManager;
use redis::{RedisResult, Script};
use serde::{Deserialize, Serialize};

use crate::players::PlayerRecord;

/// One waiting seeker as Redis keeps it (JSON): which connection of which node, who.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekEntry {
    pub seek: String,
    pub node: String,
    pub conn: u64,
    pub house: bool,
    pub player: PlayerRecord,
}

/// Pairs or waits. `ARGV`: the game-and-clock key, the seeker's entry, its player id. A
/// player has one seek at a time: its previous one (`kibitz:seek-of:{player}`) goes first.
/// Answers the entry of the seeker taken, or nil when the new entry now waits.
const SEEK: &str = r"
local function read(e)
  local ok, o = pcall(cjson.decode, e)
  if ok and type(o) == 'table' and type(o.node) == 'string' and type(o.player) == 'table'
    and type(o.player.id) == 'string' then return o end
  return nil
end
local lists = 'kibitz:seeks:'
local mine = 'kibitz:seek-of:' .. ARGV[3]
local old = redis.call('HMGET', mine, 's', 'e')
if old[1] then
  redis.call('LREM', lists .. old[1], 0, old[2])
  redis.call('DEL', mine)
end
local list = lists .. ARGV[1]
while true do
  local e = redis.call('LPOP', list)
  if not e then break end
  local o = read(e)
  if o then
    local theirs = 'kibitz:seek-of:' .. o.player.id
    if redis.call('HGET', theirs, 'e') == e then redis.call('DEL', theirs) end
    if o.player.id ~= ARGV[3] and redis.call('EXISTS', 'kibitz:alive:' .. o.node) == 1 then
      return e
    end
  end
end
redis.call('RPUSH', list, ARGV[2])
redis.call('SADD', 'kibitz:seek-specs', ARGV[1])
redis.call('HSET', mine, 's', ARGV[1], 'e', ARGV[2])
return false
";

/// Withdraws a seek. `ARGV`: the game-and-clock key, the entry, the player id.
const UNSEEK: &str = r"
redis.call('LREM', 'kibitz:seeks:' .. ARGV[1], 0, ARGV[2])
local mine = 'kibitz:seek-of:' .. ARGV[3]
if redis.call('HGET', mine, 'e') == ARGV[2] then redis.call('DEL', mine) end
return 1
";

/// Counts the live seekers per game-and-clock key (`{key, count, key, count, …}`), dropping
/// those of nodes that are gone and forgetting keys nobody waits under.
/// With `ARGV[1]` set, a node's own entries are dropped too (it has just started: none of
/// its connections waits).
const COUNT: &str = r"
local function read(e)
  local ok, o = pcall(cjson.decode, e)
  if ok and type(o) == 'table' and type(o.node) == 'string' and type(o.player) == 'table'
    and type(o.player.id) == 'string' then return o end
  return nil
end
local out = {}
for _, spec in ipairs(redis.call('SMEMBERS', 'kibitz:seek-specs')) do
  local list = 'kibitz:seeks:' .. spec
  local n = 0
  for _, e in ipairs(redis.call('LRANGE', list, 0, -1)) do
    local o = read(e)
    if o and o.node ~= ARGV[1] and redis.call('EXISTS', 'kibitz:alive:' .. o.node) == 1 then
      n = n + 1
    else
      redis.call('LREM', list, 0, e)
      if o then
        local theirs = 'kibitz:seek-of:' .. o.player.id
        if redis.call('HGET', theirs, 'e') == e then redis.call('DEL', theirs) end
      end
    end
  end
  if n == 0 then
    redis.call('SREM', 'kibitz:seek-specs', spec)
  else
    out[#out + 1] = spec
    out[#out + 1] = n
  end
end
return out
";

/// Puts a seeker taken by `SEEK` back at the head of its list (its pairing failed), unless
/// the player seeks again elsewhere meanwhile. `ARGV`: the key, the entry, the player id.
const PUT_BACK: &str = r"
local mine = 'kibitz:seek-of:' .. ARGV[3]
if redis.call('EXISTS', mine) == 1 then return 0 end
redis.call('LPUSH', 'kibitz:seeks:' .. ARGV[1], ARGV[2])
redis.call('SADD', 'kibitz:seek-specs', ARGV[1])
redis.call('HSET', mine, 's', ARGV[1], 'e', ARGV[2])
return 1
";

/// Takes the first live seeker under `spec`, or makes `entry` wait there.
pub(super) async fn seek(
    redis: &mut ConnectionManager,
    spec: &str,
    entry: &str,
    player: &str,
) -> RedisResult<Option<String>> {
    Script::new(SEEK)
        .arg(spec)
        .arg(entry)
        .arg(player)
        .invoke_async(redis)
        .await
}

/// Runs one of the scripts that take a key, an entry and a player id and answer a number.
async fn entry_step(
    redis: &mut ConnectionManager,
    script: &str,
    spec: &str,
    entry: &str,
    player: &str,
) -> RedisResult<()> {
    Script::new(script)
        .arg(spec)
        .arg(entry)
        .arg(player)
        .invoke_async::<i64>(redis)
        .await
        .map(|_| ())
}

/// Withdraws `entry` from under `spec`.
pub(super) async fn unseek(
    redis: &mut ConnectionManager,
    spec: &str,
    entry: &str,
    player: &str,
) -> RedisResult<()> {
    entry_step(redis, UNSEEK, spec, entry, player).await
}

/// Puts `entry` back at the head of the list under `spec`.
pub(super) async fn put_back(
    redis: &mut ConnectionManager,
    spec: &str,
    entry: &str,
    player: &str,
) -> RedisResult<()> {
    entry_step(redis, PUT_BACK, spec, entry, player).await
}

/// The live seekers per game-and-clock key; with `starting`, that node's entries are dropped.
pub(super) async fn count(
    redis: &mut ConnectionManager,
    starting: Option<&str>,
) -> RedisResult<Vec<(String, u32)>> {
    Script::new(COUNT)
        .arg(starting.unwrap_or(""))
        .invoke_async(redis)
        .await
}
