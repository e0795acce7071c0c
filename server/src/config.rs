//! Server settings: every limit of docs/protocol.md "Limits" with its default, and the rest of
//! what the command line can change. The defaults live here alone; the command line shows them.

use std::path::PathBuf;
use std::time::Duration;

use crate::rate_limit::Rate;

/// Every limit the server enforces, per connection, per player and per room.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open WebSocket connections from one IP address; more are answered HTTP 429.
    pub connections_per_address: usize,
    /// Largest text frame accepted; larger ones close the connection with 1009.
    pub max_frame_bytes: usize,
    /// Messages a player connection may send per `rate_window`.
    pub player_msgs_per_window: u32,
    /// Messages a spectator-only connection may send per `rate_window`.
    pub spectator_msgs_per_window: u32,
    /// Messages a bot connection may send per `rate_window` (one bot plays many games).
    pub bot_msgs_per_window: u32,
    pub rate_window: Duration,
    /// Refusals within one window past which the connection is closed with 1008.
    pub max_refusals_per_window: u32,
    pub chat_max_chars: usize,
    pub chat_lines_per_window: u32,
    pub chat_window: Duration,
    /// Unfinished rooms one player may have created at once.
    pub open_rooms_per_player: usize,
    /// Outgoing messages queued for one connection before it is dropped as too slow.
    pub outgoing_queue: usize,
    /// Requests queued for one room before their senders wait.
    pub room_queue: usize,
    /// A connection that sends nothing (not even a pong) for this long is dropped.
    pub idle_timeout: Duration,
    pub ping_interval: Duration,
    /// How long a disconnected player keeps the seat before losing by abandonment.
    pub grace: Duration,
    /// How long an invited bot has to join before the next bot is asked.
    pub invite_timeout: Duration,
    /// Longest player name, in characters.
    pub name_max_chars: usize,
    /// Largest capacity a bot may announce in `hello`.
    pub bot_capacity_max: u32,
    /// Answers to moves sent with a request id a room keeps, for resends; the oldest go first.
    pub answers_kept: usize,
    /// Longest opening a room may be created with, in moves.
    pub opening_max_moves: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections_per_address: 256,
            max_frame_bytes: 8 * 1024,
            player_msgs_per_window: 100,
            spectator_msgs_per_window: 50,
            bot_msgs_per_window: 1000,
            rate_window: Duration::from_secs(20),
            max_refusals_per_window: 20,
            chat_max_chars: 140,
            chat_lines_per_window: 5,
            chat_window: Duration::from_secs(10),
            open_rooms_per_player: 10,
            outgoing_queue: 512,
            room_queue: 1024,
            idle_timeout: Duration::from_secs(60),
            ping_interval: Duration::from_secs(20),
            grace: Duration::from_secs(60),
            invite_timeout: Duration::from_secs(10),
            name_max_chars: 32,
            bot_capacity_max: 1000,
            answers_kept: 256,
            opening_max_moves: 1024,
        }
    }
}

impl Limits {
    /// The refusals a connection may draw in one window before it is closed.
    #[must_use]
    pub fn refusal_rate(&self) -> Rate {
        Rate::new(self.max_refusals_per_window, self.rate_window)
    }

    /// The chat lines one player may say in a room.
    #[must_use]
    pub fn chat_rate(&self) -> Rate {
        Rate::new(self.chat_lines_per_window, self.chat_window)
    }
}

/// Everything the server needs to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Directory of the SQLite store (`kibitz.db`).
    pub data_dir: PathBuf,
    /// The secret a bot presents in `hello`; `None` disables bots.
    pub bot_key: Option<String>,
    /// The lobby pushes its lists at most this often.
    pub lobby_interval: Duration,
    /// `crowd` updates are batched over this period.
    pub crowd_interval: Duration,
    pub limits: Limits,
}

impl Config {
    /// Defaults with the given data directory.
    #[must_use]
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            bot_key: None,
            lobby_interval: Duration::from_millis(200),
            crowd_interval: Duration::from_millis(300),
            limits: Limits::default(),
        }
    }
}
