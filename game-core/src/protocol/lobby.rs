//! The lobby's lists as the wire carries them: open rooms, live games, connected bots, seeks.

use serde::{Deserialize, Serialize};

use super::{ClockSpec, Seats};
use crate::spec::{GameKind, GameSpec};

/// A room waiting for a player, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenRoom {
    pub room: String,
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub seats: Seats,
    /// Creation time, milliseconds since the Unix epoch.
    pub created: u64,
}

/// A game in progress, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveGame {
    pub room: String,
    pub game: GameSpec,
    pub seats: Seats,
    pub spectators: u32,
    pub ply: u32,
    /// The position as [`crate::AnyPosition::board_text`] draws it, for the lobby's small
    /// boards (an addition to the v1 contract; absent from older servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The last move played, in canonical notation (absent before the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

/// A connected bot, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotInfo {
    pub name: String,
    pub games: Vec<GameKind>,
    /// The levels it plays (normally all of [`BOT_LEVELS`](crate::protocol::BOT_LEVELS)).
    pub levels: Vec<u8>,
    /// Games it is playing now.
    pub busy: u32,
    /// Games it can play at once.
    pub capacity: u32,
}

/// Players waiting for quick pairing with one game and clock, in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekInfo {
    pub game: GameSpec,
    pub clock: Option<ClockSpec>,
    pub waiting: u32,
}

/// The four lobby lists. The server sends at most so many entries of each list (the newest
/// open rooms, the most watched live games) and, beside them, how many there are in all.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyLists {
    pub open: Vec<OpenRoom>,
    pub live: Vec<LiveGame>,
    pub bots: Vec<BotInfo>,
    pub seeks: Vec<SeekInfo>,
    /// Open rooms in all, listed or not (an addition to the v1 contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_total: Option<u32>,
    /// Live games in all, listed or not (an addition to the v1 contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live_total: Option<u32>,
}
