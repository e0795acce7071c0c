//! The cluster's quick-pairing book, in Redis: one list of waiting seekers per game and clock,
//! so that a seek on one node pairs with a seek on any other. Taking the first live seeker
//! of a list, or joining it when nobody waits, is one Lua script: two nodes never pair the
//! same seeker twice. A seeker of a node that is gone (its presence key expired) is skipped
//! and dropped, as is one whose connection closed (its node removes it), and a node that
//! starts drops what an earlier run of it under the same id left. An entry that does not read
//! (another version's) is dropped rather than blocking its list.

use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{RedisResult, Script};
use serde::{Deserialize, Serialize};

use super::{seeks, BusMsg, Cluster, ClusterError};
use crate::accounts::players::PlayerRecord;

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

impl Cluster {
    /// Quick pairing across nodes: takes the first live seeker waiting under `spec` (see
    /// `seeks::spec_key`) on any node, or leaves `entry` waiting there. Every node hears that
    /// the seeks changed.
    pub async fn seek(
        &self,
        spec: &str,
        entry: &SeekEntry,
    ) -> Result<Option<SeekEntry>, ClusterError> {
        let text = serde_json::to_string(entry)
            .map_err(|e| ClusterError::Unreachable(format!("writing a seek: {e}")))?;
        let player = entry.player.id.as_str();
        // Recorded before Redis is asked: a call that fails after the entry was stored
        // still leaves something to withdraw.
        let waiting = (spec.to_string(), text.clone(), player.to_string());
        self.0.seeking.insert(entry.conn, waiting);
        let taken = self
            .call(async |r| seeks::seek(r, spec, &text, player).await)
            .await;
        let taken = match taken {
            Ok(taken) => taken,
            Err(e) => {
                self.withdraw_later(entry.conn);
                return Err(e);
            }
        };
        let opponent = match taken {
            None => None,
            Some(taken) => {
                // Paired: this connection's entry was never stored.
                self.0.seeking.remove(&entry.conn);
                let opponent: SeekEntry = serde_json::from_str(&taken)
                    .map_err(|e| ClusterError::Unreachable(format!("reading a seek: {e}")))?;
                if opponent.node == self.node() {
                    self.0
                        .seeking
                        .remove_if(&opponent.conn, |_, (_, e, _)| *e == taken);
                }
                Some(opponent)
            }
        };
        self.0.bus.send_everyone(&BusMsg::SeeksChanged);
        Ok(opponent)
    }

    /// Puts a seeker taken by [`Cluster::seek`] back at the head of its list: the room for
    /// the pair could not be made.
    pub async fn put_back(&self, spec: &str, entry: &SeekEntry) {
        let Ok(text) = serde_json::to_string(entry) else {
            return;
        };
        let player = entry.player.id.as_str();
        let back = self
            .call(async |r| seeks::put_back(r, spec, &text, player).await)
            .await;
        match back {
            Ok(()) => {
                if entry.node == self.node() {
                    let waiting = (spec.to_string(), text, player.to_string());
                    self.0.seeking.insert(entry.conn, waiting);
                }
                self.0.bus.send_everyone(&BusMsg::SeeksChanged);
            }
            Err(e) => tracing::warn!(error = %e, "putting a seeker back failed"),
        }
    }

    /// Withdraws the seek connection `conn` of this node left waiting, if any; if Redis does
    /// not take the withdrawal now, it is tried again in the background.
    pub async fn unseek(&self, conn: u64) {
        let Some((_, waiting)) = self.0.seeking.remove(&conn) else {
            return;
        };
        if let Err(e) = self.withdraw(&waiting).await {
            tracing::warn!(error = %e, "withdrawing a seek failed; trying again");
            self.retry_withdraw(waiting);
        }
    }

    /// [`Cluster::unseek`] off the caller's task.
    fn withdraw_later(&self, conn: u64) {
        let cluster = self.clone();
        tokio::spawn(async move { cluster.unseek(conn).await });
    }

    async fn withdraw(
        &self,
        (spec, entry, player): &(String, String, String),
    ) -> Result<(), ClusterError> {
        self.call(async |r| seeks::unseek(r, spec, entry, player).await)
            .await?;
        self.0.bus.send_everyone(&BusMsg::SeeksChanged);
        Ok(())
    }

    /// Tries a withdrawal again every second for a minute (Redis out of reach); past that
    /// the seek stays until a seeker pairs with it, who then wins when the absent player's
    /// grace period ends.
    fn retry_withdraw(&self, waiting: (String, String, String)) {
        let cluster = self.clone();
        tokio::spawn(async move {
            for _ in 0..60 {
                tokio::time::sleep(Duration::from_secs(1)).await;
                if cluster.withdraw(&waiting).await.is_ok() {
                    return;
                }
            }
            tracing::warn!("a seek could not be withdrawn from Redis");
        });
    }

    /// The live seekers of every node per game-and-clock key.
    pub async fn seek_counts(&self) -> Result<Vec<(String, u32)>, ClusterError> {
        self.call(async |r| seeks::count(r, None).await).await
    }

    /// Some node's seeks changed (word from the bus).
    pub fn seeks_changed(&self) {
        self.0.seeks_changed.notify_one();
    }

    /// Resolves at the next change of the seeks (at once if one came since the last call).
    pub async fn next_seeks_change(&self) {
        self.0.seeks_changed.notified().await;
    }
}
