//! Server settings: every limit of docs/operations.md "Limits", each with its flag,
//! environment variable, default and help in one place, and the rest of what the command line
//! can change.

use std::path::PathBuf;
use std::time::Duration;

use crate::rate_limit::Rate;

/// Every limit the server enforces, per connection, per player and per room. Each is written
/// here once: its doc line is its help, and its flag, environment variable and default are
/// those of `kibitz serve` and `kibitz up` (docs/operations.md, "Limits", lists them).
#[derive(Clone, Debug, clap::Args)]
#[command(next_help_heading = "Limits")]
pub struct Limits {
    /// Open WebSocket connections from one IP address; more are answered HTTP 429.
    #[arg(
        long = "connections-per-address",
        env = "KIBITZ_CONNECTIONS_PER_ADDRESS",
        default_value = "256"
    )]
    pub connections_per_address: usize,
    /// Sockets from one IP address that are not (yet) WebSockets: in their handshake, or plain
    /// HTTP. More are answered HTTP 429 and closed at once.
    #[arg(
        long = "handshakes-per-address",
        env = "KIBITZ_HANDSHAKES_PER_ADDRESS",
        default_value = "32"
    )]
    pub handshakes_per_address: usize,
    /// Reverse proxies (addresses or networks, comma-separated: `127.0.0.1,10.0.0.0/8`) whose
    /// `Forwarded` or `X-Forwarded-For` header names the client: every per-address limit
    /// counts that address instead of the proxy's, and a proxy's own sockets are not held to
    /// the handshakes per address. Nobody else's header is read. Empty: none.
    #[arg(long = "trusted-proxies", env = "KIBITZ_TRUSTED_PROXIES", default_value = "",
        value_parser = proxy_nets, value_name = "ADDRS")]
    pub trusted_proxies: ProxyNets,
    /// Seconds a socket has to send a whole request head (after opening, or after its last
    /// request); otherwise it is closed.
    #[arg(long = "handshake-secs", env = "KIBITZ_HANDSHAKE_SECS", default_value = "10", value_parser = secs,
        value_name = "SECS")]
    pub handshake_timeout: Duration,
    /// Open files kept free below the process's limit for the store, logs and `/healthz`: near
    /// it, a new socket takes the place of the oldest one still in its handshake, or is answered
    /// 503 (`/healthz` still 200).
    #[arg(long = "fd-reserve", env = "KIBITZ_FD_RESERVE", default_value = "128")]
    pub fd_reserve: usize,
    /// Seconds a frame may take to reach a client that does not read before the connection is
    /// dropped.
    #[arg(long = "send-timeout-secs", env = "KIBITZ_SEND_TIMEOUT_SECS", default_value = "5", value_parser = secs,
        value_name = "SECS")]
    pub send_timeout: Duration,
    /// Largest text frame in bytes; a larger one closes the connection with 1009.
    #[arg(
        long = "max-frame-bytes",
        env = "KIBITZ_MAX_FRAME_BYTES",
        default_value = "8192"
    )]
    pub max_frame_bytes: usize,
    /// Messages a player's connection may send per rate window.
    #[arg(
        long = "player-messages",
        env = "KIBITZ_PLAYER_MESSAGES",
        default_value = "100"
    )]
    pub player_msgs_per_window: u32,
    /// Messages a connection that only watches may send per rate window.
    #[arg(
        long = "spectator-messages",
        env = "KIBITZ_SPECTATOR_MESSAGES",
        default_value = "50"
    )]
    pub spectator_msgs_per_window: u32,
    /// Messages a bot's connection may send per rate window (one bot plays many games).
    #[arg(
        long = "bot-messages",
        env = "KIBITZ_BOT_MESSAGES",
        default_value = "1000"
    )]
    pub bot_msgs_per_window: u32,
    /// Seconds of the message rate window.
    #[arg(long = "rate-window-secs", env = "KIBITZ_RATE_WINDOW_SECS", default_value = "20", value_parser = secs,
        value_name = "SECS")]
    pub rate_window: Duration,
    /// Refused messages per rate window past which the connection is closed with 1008.
    #[arg(
        long = "max-refusals",
        env = "KIBITZ_MAX_REFUSALS",
        default_value = "20"
    )]
    pub max_refusals_per_window: u32,
    /// Longest chat line in characters.
    #[arg(
        long = "chat-max-chars",
        env = "KIBITZ_CHAT_MAX_CHARS",
        default_value = "140"
    )]
    pub chat_max_chars: usize,
    /// Chat lines one player may say in a room per chat window.
    #[arg(long = "chat-lines", env = "KIBITZ_CHAT_LINES", default_value = "5")]
    pub chat_lines_per_window: u32,
    /// Seconds of the chat window.
    #[arg(long = "chat-window-secs", env = "KIBITZ_CHAT_WINDOW_SECS", default_value = "10", value_parser = secs,
        value_name = "SECS")]
    pub chat_window: Duration,
    /// A file of words and phrases, one a line, that no chat line may hold (`#` starts a
    /// comment); empty: none.
    #[arg(long = "chat-words", env = "KIBITZ_CHAT_WORDS", value_name = "FILE", default_value = "",
        value_parser = crate::moderation::chat_words::read_words)]
    pub chat_words: crate::moderation::chat_words::ChatWords,
    /// Unfinished rooms one player may have created at once.
    #[arg(long = "open-rooms", env = "KIBITZ_OPEN_ROOMS", default_value = "10")]
    pub open_rooms_per_player: usize,
    /// Unfinished rooms created from one IP address at once, whoever created them.
    #[arg(
        long = "open-rooms-per-address",
        env = "KIBITZ_OPEN_ROOMS_PER_ADDRESS",
        default_value = "100"
    )]
    pub open_rooms_per_address: usize,
    /// New players (a `hello` without a token) one IP address may make per new-player window.
    #[arg(
        long = "new-players-per-address",
        env = "KIBITZ_NEW_PLAYERS_PER_ADDRESS",
        default_value = "100"
    )]
    pub new_players_per_address: u32,
    /// Seconds of the new-player window.
    #[arg(long = "new-players-window-secs", env = "KIBITZ_NEW_PLAYERS_WINDOW_SECS", default_value = "600", value_parser = secs,
        value_name = "SECS")]
    pub new_players_window: Duration,
    /// Seconds a room may wait for its players after it was made before it is closed.
    #[arg(long = "waiting-room-secs", env = "KIBITZ_WAITING_ROOM_SECS", default_value = "1800", value_parser = secs,
        value_name = "SECS")]
    pub waiting_room: Duration,
    /// Seconds a finished room stays in memory after its last event, even with members still
    /// connected; a later request reloads it from the store.
    #[arg(long = "finished-room-secs", env = "KIBITZ_FINISHED_ROOM_SECS", default_value = "60", value_parser = secs,
        value_name = "SECS")]
    pub finished_room_idle: Duration,
    /// Seconds after which a player not seen, and seated in no unfinished room, is forgotten; its
    /// token then gets `bad_token`. Bots are kept.
    #[arg(long = "player-idle-secs", env = "KIBITZ_PLAYER_IDLE_SECS", default_value = "604800", value_parser = secs,
        value_name = "SECS")]
    pub player_idle: Duration,
    /// Entries of each lobby list (open rooms, live games, seeks); the lobby also sends the
    /// totals.
    #[arg(
        long = "lobby-list-max",
        env = "KIBITZ_LOBBY_LIST_MAX",
        default_value = "50"
    )]
    pub lobby_list_max: usize,
    /// Outgoing frames queued for one connection before it is closed as too slow.
    #[arg(
        long = "outgoing-queue",
        env = "KIBITZ_OUTGOING_QUEUE",
        default_value = "512"
    )]
    pub outgoing_queue: usize,
    /// Requests queued for one room before their senders wait.
    #[arg(long = "room-queue", env = "KIBITZ_ROOM_QUEUE", default_value = "1024")]
    pub room_queue: usize,
    /// Seconds of silence (not even a pong) before a connection is closed.
    #[arg(long = "idle-secs", env = "KIBITZ_IDLE_SECS", default_value = "60", value_parser = secs,
        value_name = "SECS")]
    pub idle_timeout: Duration,
    /// Seconds between pings.
    #[arg(long = "ping-secs", env = "KIBITZ_PING_SECS", default_value = "20", value_parser = secs,
        value_name = "SECS")]
    pub ping_interval: Duration,
    /// Seconds a disconnected player keeps the seat before losing by abandonment.
    #[arg(long = "grace-secs", env = "KIBITZ_GRACE_SECS", default_value = "60", value_parser = secs,
        value_name = "SECS")]
    pub grace: Duration,
    /// Seconds each side of a timed game has for its first move (its clock does not run until
    /// then); past it the game is aborted, without a result.
    #[arg(long = "first-move-secs", env = "KIBITZ_FIRST_MOVE_SECS", default_value = "30", value_parser = secs,
        value_name = "SECS")]
    pub first_move: Duration,
    /// Seconds an invited bot has to join before the next bot is asked.
    #[arg(long = "invite-secs", env = "KIBITZ_INVITE_SECS", default_value = "10", value_parser = secs,
        value_name = "SECS")]
    pub invite_timeout: Duration,
    /// Longest player name in characters.
    #[arg(
        long = "name-max-chars",
        env = "KIBITZ_NAME_MAX_CHARS",
        default_value = "32"
    )]
    pub name_max_chars: usize,
    /// Largest number of games a bot may announce in `hello` that it plays at once.
    #[arg(
        long = "bot-capacity-max",
        env = "KIBITZ_BOT_CAPACITY_MAX",
        default_value = "1000"
    )]
    pub bot_capacity_max: u32,
    /// Answers to moves sent with a request id a room keeps, for resends; the oldest go first.
    #[arg(
        long = "answers-kept",
        env = "KIBITZ_ANSWERS_KEPT",
        default_value = "256"
    )]
    pub answers_kept: usize,
    /// Longest opening a room may be created with, in moves.
    #[arg(
        long = "opening-max-moves",
        env = "KIBITZ_OPENING_MAX_MOVES",
        default_value = "1024"
    )]
    pub opening_max_moves: usize,
    /// Reviews waiting for an analysis worker; more are refused until the queue drains.
    #[arg(
        long = "review-queue",
        env = "KIBITZ_REVIEW_QUEUE",
        default_value = "64"
    )]
    pub review_queue: usize,
    /// Reviews one player may have waiting or in progress at once; more are refused until one
    /// is done.
    #[arg(
        long = "review-per-player",
        env = "KIBITZ_REVIEW_PER_PLAYER",
        default_value = "2"
    )]
    pub review_per_player: usize,
    /// Reviews asked from one IP address waiting or in progress at once, whoever asked.
    #[arg(
        long = "review-per-address",
        env = "KIBITZ_REVIEW_PER_ADDRESS",
        default_value = "8"
    )]
    pub review_per_address: usize,
    /// Seconds a review may wait for an analysis worker; past it the review is given up and the
    /// room told so.
    #[arg(long = "review-wait-secs", env = "KIBITZ_REVIEW_WAIT_SECS", default_value = "600", value_parser = secs,
        value_name = "SECS")]
    pub review_wait: Duration,
    /// Milliseconds an analysis worker is given per position of a job (plus a fixed 10 s); past
    /// it the job goes to another worker.
    #[arg(long = "review-ply-ms", env = "KIBITZ_REVIEW_PLY_MS", default_value = "2000", value_parser = millis,
        value_name = "MS")]
    pub review_ply_time: Duration,
    /// Sign-in attempts one IP address may make per sign-in window; more are answered 429.
    #[arg(
        long = "signin-attempts",
        env = "KIBITZ_SIGNIN_ATTEMPTS",
        default_value = "30"
    )]
    pub signin_attempts_per_address: u32,
    /// Seconds of the sign-in window.
    #[arg(long = "signin-window-secs", env = "KIBITZ_SIGNIN_WINDOW_SECS", default_value = "600", value_parser = secs,
        value_name = "SECS")]
    pub signin_window: Duration,
    /// Failed sign-ins in a row under one name before the name is locked.
    #[arg(
        long = "signin-failures",
        env = "KIBITZ_SIGNIN_FAILURES",
        default_value = "5"
    )]
    pub signin_failures_before_lock: u32,
    /// Seconds of the first lock-out; each further failure doubles it, up to 16 times it.
    #[arg(long = "signin-lock-secs", env = "KIBITZ_SIGNIN_LOCK_SECS", default_value = "60", value_parser = secs,
        value_name = "SECS")]
    pub signin_lock: Duration,
    /// For tests only: `POST /api/test/clock` moves the hall's clock ahead, so that a
    /// correspondence game's days pass at once. Never on a hall open to players.
    #[arg(
        long = "test-clock",
        env = "KIBITZ_TEST_CLOCK",
        default_value_t = false
    )]
    pub test_clock: bool,
}

/// Trusted reverse proxies: addresses and networks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProxyNets(pub Vec<ipnet::IpNet>);

/// Proxies' addresses (`10.0.0.7`, `::1`) and networks (`10.0.0.0/8`), comma-separated, as a
/// flag gives them; empty for none.
fn proxy_nets(text: &str) -> Result<ProxyNets, String> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            t.parse::<ipnet::IpNet>()
                .or_else(|_| t.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| format!("{t:?} is not an IP address or network (10.0.0.0/8)"))
        })
        .collect::<Result<_, _>>()
        .map(ProxyNets)
}

/// A whole number of seconds, as a flag gives it.
fn secs(text: &str) -> Result<Duration, String> {
    text.parse::<u64>()
        .map(Duration::from_secs)
        .map_err(|e| format!("a whole number of seconds: {e}"))
}

/// A whole number of milliseconds, as a flag gives it.
fn millis(text: &str) -> Result<Duration, String> {
    text.parse::<u64>()
        .map(Duration::from_millis)
        .map_err(|e| format!("a whole number of milliseconds: {e}"))
}

impl Default for Limits {
    /// The defaults of the flags, whatever the environment holds.
    fn default() -> Self {
        use clap::{Args, FromArgMatches};
        let command = Limits::augment_args(clap::Command::new("limits"))
            .mut_args(|arg| arg.env(None::<&str>));
        let matches = command
            .try_get_matches_from(["limits"])
            .expect("every limit has a default that parses");
        Limits::from_arg_matches(&matches).expect("every limit has a default that parses")
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
    pub fn signin(&self) -> crate::accounts::guard::SignInLimits {
        crate::accounts::guard::SignInLimits {
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
    /// The bearer token `GET /metrics` asks for (`Authorization: Bearer ...`); `None`: it is
    /// answered to anyone who reaches the port.
    pub metrics_token: Option<String>,
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
            metrics_token: None,
            lobby_interval: Duration::from_millis(200),
            lobby_board_interval: Duration::from_secs(1),
            crowd_interval: Duration::from_millis(300),
            limits: Limits::default(),
        }
    }
}
