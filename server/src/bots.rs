//! The bots connected during this run of the server: the games each plays, how many it may
//! take at once, how many it has (games and unanswered invitations), and its connections.

use std::collections::HashSet;

use dashmap::DashMap;
use game_core::protocol::{BotInfo, BOT_LEVELS};
use game_core::GameKind;

use crate::accounts::players::PlayerRecord;
use crate::lobby::feed::LobbyFeed;
use crate::room::member::MemberLink;

/// One bot player.
#[derive(Clone, Debug)]
struct BotEntry {
    name: String,
    games: Vec<GameKind>,
    capacity: u32,
    /// Rooms it sits in (unfinished) plus invitations it has not answered.
    busy: u32,
    links: Vec<MemberLink>,
    /// Rooms waiting for its answer to an invitation (told if its last connection closes).
    invited: HashSet<String>,
    /// Registered as an account: it may be invited to rated rooms.
    account: bool,
}

impl BotEntry {
    fn new(name: &str) -> BotEntry {
        BotEntry {
            name: name.to_string(),
            games: Vec::new(),
            capacity: 0,
            busy: 0,
            links: Vec::new(),
            invited: HashSet::new(),
            account: false,
        }
    }

    fn online(&self) -> bool {
        self.links.iter().any(|l| !l.is_closed())
    }
}

/// Bots by player id. A DashMap: rooms look bots up when they invite, sessions add
/// connections; each operation holds one entry for a few instructions, never across `.await`.
pub struct BotRegistry {
    bots: DashMap<String, BotEntry>,
    lobby: LobbyFeed,
}

impl BotRegistry {
    #[must_use]
    pub fn new(lobby: LobbyFeed) -> BotRegistry {
        BotRegistry {
            bots: DashMap::new(),
            lobby,
        }
    }

    /// A bot said `hello` on `link`: what it plays and how much.
    pub fn connected(
        &self,
        player: &PlayerRecord,
        games: Vec<GameKind>,
        capacity: u32,
        link: MemberLink,
    ) {
        let mut entry = self
            .bots
            .entry(player.id.clone())
            .or_insert_with(|| BotEntry::new(&player.name));
        entry.name.clone_from(&player.name);
        entry.account = player.account;
        entry.games = games;
        entry.capacity = capacity;
        // A connection announced again (by another node) is not counted twice.
        entry
            .links
            .retain(|l| !l.is_closed() && l.id() != link.id());
        entry.links.push(link);
        drop(entry);
        self.lobby.changed();
    }

    /// A connection of a bot closed. Returns the rooms whose invitations it will now never
    /// answer (when it was its last connection), so that they ask the next bot.
    #[must_use]
    pub fn disconnected(&self, player: &str, conn_id: u64) -> Vec<String> {
        let vanished = match self.bots.get_mut(player) {
            Some(mut bot) => {
                bot.links.retain(|l| l.id() != conn_id && !l.is_closed());
                if bot.links.is_empty() {
                    bot.invited.iter().cloned().collect()
                } else {
                    Vec::new()
                }
            }
            None => Vec::new(),
        };
        self.lobby.changed();
        vanished
    }

    /// Picks a connected bot that plays `kind`, has room for one more game and is not in
    /// `excluded` (and, for a `rated` room, has an account), least busy first, and counts the
    /// invitation to `room` against its capacity.
    #[must_use]
    pub fn reserve(
        &self,
        kind: GameKind,
        excluded: &[String],
        room: &str,
        rated: bool,
        prefer: Option<&str>,
    ) -> Option<(String, Vec<MemberLink>)> {
        let mut best: Option<(u32, String)> = None;
        for entry in &self.bots {
            let bot = entry.value();
            let free = bot.online()
                && bot.games.contains(&kind)
                && bot.busy < bot.capacity
                && !excluded.contains(entry.key())
                && (bot.account || !rated);
            // The bot a player challenged by name comes first when it is free.
            let wanted = prefer == Some(entry.key().as_str());
            if free && (wanted || best.as_ref().is_none_or(|(busy, _)| bot.busy < *busy)) {
                best = Some((if wanted { 0 } else { bot.busy }, entry.key().clone()));
                if wanted {
                    break;
                }
            }
        }
        let (_, id) = best?;
        let mut bot = self.bots.get_mut(&id)?;
        bot.busy += 1;
        bot.invited.insert(room.to_string());
        let links = bot.links.clone();
        drop(bot);
        self.lobby.changed();
        Some((id, links))
    }

    /// A bot joined, declined or lost its invitation to `room`.
    pub fn invite_resolved(&self, player: &str, room: &str) {
        if let Some(mut bot) = self.bots.get_mut(player) {
            bot.invited.remove(room);
        }
    }

    /// A bot's game or invitation ended.
    pub fn release(&self, player: &str) {
        if let Some(mut bot) = self.bots.get_mut(player) {
            bot.busy = bot.busy.saturating_sub(1);
        }
        self.lobby.changed();
    }

    /// Counts a game a bot sits in without an invitation (rooms reloaded at start, rematches,
    /// a bot that sat down by itself).
    pub fn hold(&self, player: &str, name: &str) {
        self.bots
            .entry(player.to_string())
            .or_insert_with(|| BotEntry::new(name))
            .busy += 1;
    }

    /// Whether the bot is connected here with every place taken: a game made for it now could
    /// only be declined. A bot not connected here is not known to be full.
    #[must_use]
    pub fn is_full(&self, player: &str) -> bool {
        self.bots
            .get(player)
            .is_some_and(|b| b.online() && b.busy >= b.capacity)
    }

    /// The live connections of a bot.
    #[must_use]
    pub fn links(&self, player: &str) -> Vec<MemberLink> {
        self.bots
            .get(player)
            .map(|b| b.links.iter().filter(|l| !l.is_closed()).cloned().collect())
            .unwrap_or_default()
    }

    /// The connected bot named `name` (any case) that plays `kind`: its player id and name.
    #[must_use]
    pub fn online_playing(&self, name: &str, kind: GameKind) -> Option<(String, String)> {
        let wanted = name.to_lowercase();
        self.bots
            .iter()
            .find(|b| b.online() && b.games.contains(&kind) && b.name.to_lowercase() == wanted)
            .map(|b| (b.key().clone(), b.name.clone()))
    }

    /// The lobby's list of connected bots, by name.
    #[must_use]
    pub fn list(&self) -> Vec<BotInfo> {
        let mut list: Vec<BotInfo> = self
            .bots
            .iter()
            .filter(|b| b.online())
            .map(|b| BotInfo {
                name: b.name.clone(),
                games: b.games.clone(),
                levels: BOT_LEVELS.collect(),
                busy: b.busy,
                capacity: b.capacity,
            })
            .collect();
        list.sort_by(|a, b| a.name.cmp(&b.name));
        list
    }
}
