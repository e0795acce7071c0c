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
    /// Sockets from one IP address that are not (yet) WebSockets: in their handshake, or plain
    /// HTTP. More are answered HTTP 429 and closed at once.
    pub handshakes_per_address: usize,
    /// A socket must send a whole request head within this long of opening (and of its last
    /// request); otherwise it is closed.
    pub handshake_timeout: Duration,
    /// File descriptors kept free for the store, logs and `/healthz`: once the open sockets
    /// come within this reserve of the process's open-file limit, a new socket takes the place
    /// of the oldest one still in its handshake, or is answered 503 (`/healthz` still 200).
    pub fd_reserve: usize,
    /// A frame that cannot be written to a connection within this long (the client does not
    /// read) drops the connection.
    pub send_timeout: Duration,
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
    /// Unfinished rooms created from one IP address at once, whoever created them.
    pub open_rooms_per_address: usize,
    /// New players (a `hello` without a token) one IP address may make per `new_players_window`.
    pub new_players_per_address: u32,
    pub new_players_window: Duration,
    /// A room still waiting for its players this long after it was made is closed.
    pub waiting_room: Duration,
    /// A finished room leaves memory once nothing has happened in it for this long, even with
    /// members still connected; a later request reloads it from the store.
    pub finished_room_idle: Duration,
    /// A player not seen for this long, and seated in no unfinished room, is forgotten; its
    /// token then gets `bad_token`. Bots are kept.
    pub player_idle: Duration,
    /// Entries of each lobby list (open rooms, live games, seeks); the lobby also sends the
    /// totals.
    pub lobby_list_max: usize,
    /// Outgoing messages queued for one connection before it is dropped as too slow.
    pub outgoing_queue: usize,
    /// Requests queued for one room before their senders wait.
    pub room_queue: usize,
    /// A connection that sends nothing (not even a pong) for this long is dropped.
    pub idle_timeout: Duration,
    pub ping_interval: Duration,
    /// How long a disconnected player keeps the seat before losing by abandonment.
    pub grace: Duration,
    /// How long each side of a timed game has for its first move (its clock does not run
    /// until then); past it the game is aborted, without a result.
    pub first_move: Duration,
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
    /// Reviews waiting for an analysis worker; more are refused until the queue drains.
    pub review_queue: usize,
    /// Time an analysis worker is given per position of a job (plus a fixed 10 s); past it
    /// the job goes to another worker.
    pub review_ply_time: Duration,
    /// Sign-in attempts one IP address may make per `signin_window`; more are answered 429.
    pub signin_attempts_per_address: u32,
    pub signin_window: Duration,
    /// Failed sign-ins in a row under one name before the name is locked for `signin_lock`;
    /// each further failure doubles the lock, up to 16 times it.
    pub signin_failures_before_lock: u32,
    pub signin_lock: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections_per_address: 256,
            handshakes_per_address: 32,
            handshake_timeout: Duration::from_secs(10),
            fd_reserve: 128,
            send_timeout: Duration::from_secs(5),
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
            open_rooms_per_address: 100,
            new_players_per_address: 100,
            new_players_window: Duration::from_secs(600),
            waiting_room: Duration::from_secs(30 * 60),
            finished_room_idle: Duration::from_secs(60),
            player_idle: Duration::from_secs(7 * 24 * 3600),
            lobby_list_max: 50,
            outgoing_queue: 512,
            room_queue: 1024,
            idle_timeout: Duration::from_secs(60),
            ping_interval: Duration::from_secs(20),
            grace: Duration::from_secs(60),
            first_move: Duration::from_secs(30),
            invite_timeout: Duration::from_secs(10),
            name_max_chars: 32,
            bot_capacity_max: 1000,
            answers_kept: 256,
            opening_max_moves: 1024,
            review_queue: 64,
            review_ply_time: Duration::from_secs(2),
            signin_attempts_per_address: 30,
            signin_window: Duration::from_secs(600),
            signin_failures_before_lock: 5,
            signin_lock: Duration::from_secs(60),
        }
    }
}

impl Limits {
    /// The refusals a connection may draw in one window before it is closed.
    #[must_use]
    pub fn refusal_rate(&self) -> Rate {
        Rate::new(self.max_refusals_per_window, self.rate_window)
    }

    /// The new players one address may make.
    #[must_use]
    pub fn new_player_rate(&self) -> Rate {
        Rate::new(self.new_players_per_address, self.new_players_window)
    }

    /// The sign-in guard's limits.
    #[must_use]
    pub fn signin(&self) -> crate::accounts::SignInLimits {
        crate::accounts::SignInLimits {
            per_address: Rate::new(self.signin_attempts_per_address, self.signin_window),
            failures_before_lock: self.signin_failures_before_lock.max(1),
            lock_first: self.signin_lock,
            lock_max: self.signin_lock.saturating_mul(16),
        }
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
    /// Directory of the SQLite store (`kibitz.db`), used when `store_url` is `None`.
    pub data_dir: PathBuf,
    /// A `postgres://` URL: the store is that PostgreSQL database instead of SQLite.
    pub store_url: Option<String>,
    /// Cluster mode (with a PostgreSQL store): Redis, this node's id, the lease time.
    pub cluster: Option<crate::cluster::ClusterSettings>,
    /// The secret a bot presents in `hello`; `None` disables bots.
    pub bot_key: Option<String>,
    /// The lobby pushes its lists at most this often.
    pub lobby_interval: Duration,
    /// A lobby change that is only moves in live games (their small boards) is pushed at most
    /// this often.
    pub lobby_board_interval: Duration,
    /// `crowd` updates are batched over this period.
    pub crowd_interval: Duration,
    pub limits: Limits,
}

impl Config {
    /// What the store is, for messages: the data directory, or PostgreSQL (its URL may hold a
    /// password: the store's own errors say where it is).
    #[must_use]
    pub fn store_name(&self) -> String {
        match self.store_url {
            None => format!("data directory {}", self.data_dir.display()),
            Some(_) => "the PostgreSQL store".to_string(),
        }
    }

    /// Defaults with the given data directory.
    #[must_use]
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            store_url: None,
            cluster: None,
            bot_key: None,
            lobby_interval: Duration::from_millis(200),
            lobby_board_interval: Duration::from_secs(1),
            crowd_interval: Duration::from_millis(300),
            limits: Limits::default(),
        }
    }
}
