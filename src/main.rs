//! The `kibitz` executable: one binary for the server, the bot and the engine tools. It only
//! parses flags, binds and starts; the work lives in the library crates.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

mod admin_tools;
mod loadtest;
mod puzzle_tools;
mod showcase;
mod store_tools;
mod up;

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use game_core::{Cell, GameKind, GomokuRule};
use tokio::net::TcpListener;

/// Kibitz — an online board-game hall for Gomoku, Othello and Connect Four.
#[derive(Parser, Debug)]
#[command(name = "kibitz", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    /// With no subcommand, `kibitz` runs `up` with these flags.
    #[command(flatten)]
    up: ServeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Start everything on one address: the server with its store, two bots and a live
    /// bot-vs-bot showcase game (the default command).
    Up(ServeArgs),
    /// Run the server alone.
    Serve(ServeArgs),
    /// Run a bot: a client that accepts invitations and plays its games.
    Bot(BotArgs),
    /// Analyse positions read from standard input, one JSON line each (docs/engines.md).
    Analyze(AnalyzeArgs),
    /// Run the Gomoku engine as a Gomocup (Piskvork) brain on standard input and output.
    Pbrain,
    /// Run the Othello engine as an NBoard engine on standard input and output.
    Nboard,
    /// Search fixed positions of every game at fixed depth; the node total is a signature.
    Bench,
    /// Generate load against a server (rooms of players and spectators playing fixed games) and
    /// report moves per second, move latencies, errors, and the server's memory and CPU.
    Loadtest(LoadtestArgs),
    /// The store: a backup of a hall's SQLite file while its server runs; a hall's store
    /// copied to another backend (SQLite to PostgreSQL, and back).
    #[command(subcommand)]
    Store(StoreCommand),
    /// Puzzles: generate a set from bot-vs-bot games, proven by the solvers; check a set.
    #[command(subcommand)]
    Puzzles(puzzle_tools::PuzzlesCommand),
    /// The operator's commands on a hall's store: grant an account the moderator's role.
    #[command(subcommand)]
    Admin(admin_tools::AdminCommand),
}

#[derive(Subcommand, Debug)]
enum StoreCommand {
    /// Copy the SQLite store to a new file through SQLite's online backup: the server may run
    /// meanwhile. The copy is a whole kibitz.db: a data directory holding it is a hall.
    Backup {
        /// The new file.
        file: PathBuf,
        /// Directory of the SQLite store.
        #[arg(long, env = "KIBITZ_DATA", default_value = "./kibitz-data")]
        data: PathBuf,
    },
    /// Copy a hall's whole store to another one: a data directory (SQLite) or a postgres://
    /// URL, either way. Every table is read from one snapshot of the source and written in
    /// batches; a copy stopped part way goes on where it stopped when run again. Each table is
    /// counted and checksummed on both sides at the end.
    Copy {
        /// The store to copy: a data directory or a postgres:// URL.
        #[arg(long)]
        from: String,
        /// The store to copy into: a data directory or a postgres:// URL. It must hold no hall
        /// (unless --replace), or an unfinished copy from the same source, which goes on.
        #[arg(long)]
        to: String,
        /// Rows per batch (one transaction each on the target).
        #[arg(long, default_value_t = kibitz_server::store::copy::BATCH_ROWS)]
        batch: usize,
        /// Empty a target that holds a hall first (its rows are lost).
        #[arg(long)]
        replace: bool,
    },
}

/// How a bot connects and how much it plays.
#[derive(Args, Debug, Clone)]
struct BotArgs {
    /// The server's WebSocket URL.
    #[arg(long, env = "KIBITZ_SERVER", default_value = "ws://127.0.0.1:8080/ws")]
    server: String,
    /// The server's bot key.
    #[arg(long, env = "KIBITZ_BOT_KEY", hide_env_values = true)]
    key: String,
    /// The name players see.
    #[arg(long, env = "KIBITZ_BOT_NAME", default_value = "Kibot")]
    name: String,
    /// Games played at once; invitations beyond it are declined.
    #[arg(long, env = "KIBITZ_BOT_CAPACITY", default_value_t = 8)]
    capacity: u32,
    /// File that keeps the bot's identity and games across restarts.
    #[arg(long, env = "KIBITZ_BOT_STATE")]
    state: Option<PathBuf>,
    /// Shortest time in milliseconds from the bot's turn to its move (never more than half
    /// the move's time). Without it: 250 ms against people, 900 ms between bots, so that
    /// games are natural to play and to watch. Tests set it low to play games quickly.
    #[arg(long, env = "KIBITZ_BOT_PACE_MS")]
    pace_ms: Option<u64>,
    /// Stop when standard input reaches its end. `kibitz up` starts its bots with a pipe on
    /// standard input that only it holds, so they stop with it however it ends (even
    /// `kill -9`): the system closes the pipe and the bot reads its end.
    #[arg(long, env = "KIBITZ_BOT_EXIT_WITH_STDIN")]
    exit_with_stdin: bool,
    /// Search time in milliseconds per position when the bot reviews a finished game as an
    /// analysis worker; 0: the bot takes no review jobs.
    #[arg(long, env = "KIBITZ_BOT_ANALYSIS_MS", default_value_t = 200)]
    analysis_ms: u64,
    /// The most a move of a correspondence game (days per move) may think, in
    /// milliseconds: there the bot searches up to this long at every level, rather than its
    /// level's usual time, since its opponent has days.
    #[arg(long, env = "KIBITZ_BOT_CORRESPONDENCE_MS", default_value_t = 10_000)]
    correspondence_ms: u64,
    /// An engine built outside the project plays the bot's moves: the command line that
    /// starts it (run by `sh`). The bot then takes no review jobs.
    #[arg(long, env = "KIBITZ_BOT_ENGINE")]
    engine: Option<String>,
    /// The protocol the `--engine` speaks: `pbrain` (Gomocup brains, Gomoku), `nboard`
    /// (Othello), `analyze` (the `kibitz analyze` lines, any game).
    #[arg(long, env = "KIBITZ_BOT_PROTOCOL", default_value = "pbrain",
          value_parser = ["pbrain", "nboard", "analyze"], requires = "engine")]
    protocol: String,
    /// The games the bot plays, comma-separated. Default: all three, or with `--engine` the
    /// game of its protocol (`analyze`: connect4).
    #[arg(long, env = "KIBITZ_BOT_GAMES", value_delimiter = ',',
          value_parser = ["gomoku", "othello", "connect4"])]
    games: Vec<String>,
}

impl BotArgs {
    /// The engines of the bot's rooms and the games it announces, as the arguments ask.
    fn engines(&self) -> anyhow::Result<(kibitz_bot::client::EngineFactory, Vec<GameKind>)> {
        use kibitz_bot::client::external::{ExternalEngine, Protocol};
        let named: Vec<GameKind> = self.games.iter().map(|g| game_kind(g)).collect();
        let Some(command) = self.engine.clone() else {
            let games = if named.is_empty() {
                vec![GameKind::Gomoku, GameKind::Othello, GameKind::Connect4]
            } else {
                named
            };
            let engines: kibitz_bot::client::EngineFactory =
                Arc::new(|kind| Some(kibitz_bot::engine::registry::engine_for(kind)));
            return Ok((engines, games));
        };
        let protocol = Protocol::from_name(&self.protocol)
            .ok_or_else(|| anyhow::anyhow!("unknown protocol {}", self.protocol))?;
        let games = if named.is_empty() {
            protocol.default_games()
        } else {
            named
        };
        if let Some(kind) = games.iter().find(|k| !protocol.plays(**k)) {
            anyhow::bail!(
                "the {} protocol does not carry {kind:?} positions",
                self.protocol
            );
        }
        let engines: kibitz_bot::client::EngineFactory = Arc::new(move |kind| {
            protocol.plays(kind).then(|| {
                let own = kibitz_bot::engine::registry::engine_for(kind);
                Box::new(ExternalEngine::new(&command, protocol, own))
                    as Box<dyn kibitz_bot::engine::Engine>
            })
        });
        Ok((engines, games))
    }
}

/// What to analyse and how hard.
#[derive(Args, Debug, Clone)]
struct AnalyzeArgs {
    #[arg(long, value_parser = ["gomoku", "othello", "connect4"])]
    game: String,
    /// Gomoku board size.
    #[arg(long, default_value_t = 15)]
    size: u8,
    /// Gomoku rule.
    #[arg(long, default_value = "freestyle", value_parser = ["freestyle", "standard", "renju"])]
    rule: String,
    /// Connect Four columns (for move strings).
    #[arg(long, default_value_t = 7)]
    cols: u8,
    /// Connect Four rows (for move strings).
    #[arg(long, default_value_t = 6)]
    rows: u8,
    /// A blocked Connect Four cell `column,row`, 1-based from the bottom left; repeatable.
    #[arg(long)]
    blocked: Vec<String>,
    /// Playing strength 1..=10.
    #[arg(long, default_value_t = 10)]
    level: u8,
    /// Think this many milliseconds a position.
    #[arg(long, conflicts_with_all = ["depth", "solve"])]
    time_ms: Option<u64>,
    /// Search to this depth (deterministic).
    #[arg(long, conflicts_with = "solve")]
    depth: Option<u32>,
    /// Prove the result: exact score (Connect Four, Othello) or forced win (Gomoku).
    #[arg(long)]
    solve: bool,
}

/// How much load to generate, against which server.
#[derive(Args, Debug, Clone)]
struct LoadtestArgs {
    /// The server's WebSocket URL (`ws://HOST:PORT/ws`). Without it a server is started in this
    /// process on a temporary store, with the limits that would refuse the generator raised.
    #[arg(long, alias = "server")]
    url: Option<String>,
    /// Another node of the same cluster (`ws://HOST:PORT/ws`): half the rooms are made there.
    #[arg(long, requires = "url")]
    peer: Option<String>,
    /// With --peer: each room's white player and spectators connect to the other node than
    /// its black player (cross-node rooms); without it every room keeps to one node.
    #[arg(long, requires = "peer")]
    cross: bool,
    /// Rooms playing at once, each with two players (`--pairs` is an alias).
    #[arg(long, alias = "pairs", default_value_t = 50)]
    rooms: usize,
    /// Spectators in each room.
    #[arg(long, default_value_t = 2)]
    spectators: usize,
    /// Milliseconds from the receipt of the opponent's move to sending the answer.
    #[arg(long, default_value_t = 50)]
    think_ms: u64,
    /// Seconds of the measured window (`--seconds` is an alias).
    #[arg(long, alias = "seconds", default_value_t = 10.0)]
    duration: f64,
    /// The server's process id, for its memory and CPU from /proc (default: this process when
    /// the server runs in it).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Idle connections to open (each says hello) and hold before the rooms start; the report
    /// gives the server's memory per idle connection. `--rooms 0` measures them alone.
    #[arg(long, default_value_t = 0)]
    conns: usize,
    /// Seed of the games: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the whole report as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// Where the server listens and keeps its data.
#[derive(Args, Debug, Clone)]
struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "KIBITZ_BIND", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Directory of the SQLite store; created if its parent exists.
    #[arg(long, env = "KIBITZ_DATA", default_value = "./kibitz-data")]
    data: PathBuf,
    /// Keep the store in PostgreSQL instead: a postgres:// or postgresql:// URL. Without it
    /// (or empty) the store is SQLite in the data directory. TLS as libpq's options say:
    /// `?sslmode=verify-full&sslrootcert=/etc/kibitz/db-ca.pem` (or require, verify-ca).
    #[arg(long, env = "KIBITZ_STORE", hide_env_values = true, value_name = "URL")]
    store: Option<String>,
    /// Cluster mode: the Redis that links the nodes (a redis:// URL, or rediss:// for TLS;
    /// needs --store postgres://...). Each room is owned by one node through a lease in it.
    #[arg(long, env = "KIBITZ_REDIS", hide_env_values = true, value_name = "URL")]
    redis: Option<String>,
    /// The CA file (PEM) a rediss:// server's certificate must chain to; without it, the
    /// system's CAs.
    #[arg(long, env = "KIBITZ_REDIS_CA", requires = "redis", value_name = "FILE")]
    redis_ca: Option<PathBuf>,
    /// This node's name in the cluster, unique among its nodes (letters, digits, '-', '_').
    #[arg(long, env = "KIBITZ_NODE_ID", requires = "redis")]
    node_id: Option<String>,
    /// Cluster mode: how long, in ms, a node's lease on a room lasts without renewal; a room
    /// of a node that died moves to another node at its next request after this long.
    #[arg(long, env = "KIBITZ_LEASE_MS", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(300..=600_000))]
    lease_ms: u64,
    /// Secret that bots present in `hello`; without it no bot can connect.
    #[arg(long, env = "KIBITZ_BOT_KEY", hide_env_values = true)]
    bot_key: Option<String>,
    /// Bearer token that `GET /metrics` asks for (`Authorization: Bearer TOKEN`), for a
    /// scraper that reaches the node from another machine; without it (or empty) the metrics
    /// are answered to anyone who reaches the port.
    #[arg(
        long,
        env = "KIBITZ_METRICS_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    metrics_token: Option<String>,
    #[command(flatten)]
    limits: kibitz_server::Limits,
}

impl ServeArgs {
    fn config(&self) -> kibitz_server::Config {
        let mut config = kibitz_server::Config::new(&self.data);
        // An empty value (`KIBITZ_STORE=`) keeps the default, as an absent one does.
        config.store_url = self.store.clone().filter(|url| !url.is_empty());
        if let Some(redis_url) = self.redis.clone().filter(|url| !url.is_empty()) {
            config.cluster = Some(kibitz_server::cluster::ClusterSettings {
                redis_url,
                redis_ca: self.redis_ca.clone(),
                node_id: self.node_id.clone().unwrap_or_default(),
                lease: std::time::Duration::from_millis(self.lease_ms),
            });
        }
        config.bot_key.clone_from(&self.bot_key);
        // A header carries no surrounding blanks, so neither does the token it must match.
        config.metrics_token = self
            .metrics_token
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from);
        config.limits = self.limits.clone();
        config
    }
}

/// Takes over SIGINT and SIGTERM now, and resolves when either arrives. The handlers are
/// installed by the call, not on the first poll: a signal sent as soon as the listening line
/// is out must stop the server cleanly, not kill it by the default action. Call it inside the
/// runtime.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        )
    };
    async move {
        #[cfg(unix)]
        {
            // A handler that could not be installed never fires; the other still does.
            let wait = |s: std::io::Result<tokio::signal::unix::Signal>| async move {
                match s {
                    Ok(mut s) => {
                        s.recv().await;
                    }
                    Err(_) => std::future::pending().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => {}
                () = wait(terminate) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutting down");
    }
}

/// Resolves when standard input reaches its end (or cannot be read): the parent that holds
/// its other end has gone.
async fn stdin_closed() {
    use tokio::io::AsyncReadExt;
    let mut stdin = tokio::io::stdin();
    let mut buf = [0u8; 256];
    while let Ok(n) = stdin.read(&mut buf).await {
        if n == 0 {
            break;
        }
    }
}

/// Why the server could not open, said about what failed: the store, or the cluster.
pub(crate) fn open_error(e: kibitz_server::run_error::Error, store: &str) -> anyhow::Error {
    use kibitz_server::run_error::Error;
    match e {
        Error::Store(_) => anyhow::Error::new(e).context(format!("cannot use {store}")),
        Error::Cluster(_) => anyhow::Error::new(e).context("cannot join the cluster"),
        _ => anyhow::Error::new(e),
    }
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let config = args.config();
    let store = config.store_name();
    let server = kibitz_server::Server::open(config)
        .await
        .map_err(|e| open_error(e, &store))?;
    let listener = TcpListener::bind(args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = listener.local_addr()?;
    let stop = shutdown_signal();
    // Tests and scripts read this line to find the port.
    println!("Kibitz is listening on http://{addr}/");
    server.run(listener, stop).await?;
    Ok(())
}

/// A game by its name on the command line (clap has checked it is one of the three).
fn game_kind(name: &str) -> GameKind {
    match name {
        "gomoku" => GameKind::Gomoku,
        "othello" => GameKind::Othello,
        _ => GameKind::Connect4,
    }
}

fn analyze(args: AnalyzeArgs) -> anyhow::Result<()> {
    use kibitz_bot::engine::registry;
    use kibitz_bot::engine::{Level, SearchLimits};
    let kind = game_kind(&args.game);
    let rule = match args.rule.as_str() {
        "standard" => GomokuRule::Standard,
        "renju" => GomokuRule::Renju,
        _ => GomokuRule::Freestyle,
    };
    let mut blocked = Vec::new();
    for b in &args.blocked {
        let (c, r) = b
            .split_once(',')
            .and_then(|(c, r)| Some((c.trim().parse::<u8>().ok()?, r.trim().parse::<u8>().ok()?)))
            .filter(|(c, r)| *c >= 1 && *r >= 1)
            .with_context(|| format!("--blocked {b:?}: expected column,row from 1"))?;
        blocked.push(Cell::new(c - 1, r - 1));
    }
    let options = registry::PositionOptions {
        size: args.size,
        rule,
        connect4: kibitz_bot::engine::connect4::BoardOptions {
            cols: args.cols,
            rows: args.rows,
            blocked,
        },
    };
    let level = Level::new(args.level);
    let mut engine = registry::engine_for(kind);
    let limits = if args.solve {
        SearchLimits::Solve
    } else if let Some(d) = args.depth {
        SearchLimits::Depth(d)
    } else if let Some(ms) = args.time_ms {
        SearchLimits::Time(Duration::from_millis(ms))
    } else {
        SearchLimits::Time(engine.think_time(level))
    };
    let stdin = std::io::stdin();
    kibitz_bot::frontends::analyze::run(
        stdin.lock(),
        std::io::stdout(),
        |line| registry::parse_position(kind, line, &options),
        engine.as_mut(),
        limits,
        level,
    )?;
    Ok(())
}

/// Runs `kibitz loadtest`; `Ok(false)` when the run had errors (reported with the results).
async fn loadtest(args: LoadtestArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(
        args.duration.is_finite() && args.duration >= 0.0,
        "--duration must be a number of seconds"
    );
    let report = loadtest::run(loadtest::LoadOptions {
        url: args.url,
        peer: args.peer,
        cross: args.cross,
        rooms: args.rooms,
        spectators: args.spectators,
        think: Duration::from_millis(args.think_ms),
        duration: Duration::from_secs_f64(args.duration),
        server_pid: args.server_pid,
        idle_connections: args.conns,
        seed: args.seed,
    })
    .await?;
    print!("{}", report.summary());
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if report.has_errors() {
        eprintln!(
            "loadtest: the run had errors (see above); its numbers are not those of a clean run"
        );
    }
    Ok(!report.has_errors())
}

fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    init_logging();
    let runtime = tokio::runtime::Runtime::new()?;
    match cli.command.unwrap_or(Command::Up(cli.up)) {
        Command::Up(args) => {
            let config = args.config();
            runtime.block_on(async { up::up(config, args.bind, shutdown_signal()).await })
        }
        Command::Serve(args) => runtime.block_on(serve(args)),
        Command::Bot(args) => {
            let (engines, games) = args.engines()?;
            // Reviews want the project's own scores, which a foreign engine does not give.
            let reviews = args.analysis_ms > 0 && args.engine.is_none();
            let options = kibitz_bot::client::BotOptions {
                server: args.server,
                key: args.key,
                name: args.name,
                capacity: args.capacity,
                games,
                state_file: args.state,
                pace: args.pace_ms.map(Duration::from_millis),
                analysis: reviews.then(|| Duration::from_millis(args.analysis_ms)),
                correspondence: Duration::from_millis(args.correspondence_ms),
            };
            let watch_stdin = args.exit_with_stdin;
            let signalled = {
                let _runtime = runtime.enter();
                shutdown_signal()
            };
            let stop = async move {
                tokio::select! {
                    () = signalled => {}
                    () = stdin_closed(), if watch_stdin => {
                        tracing::info!("standard input closed; stopping");
                    }
                }
            };
            runtime.block_on(kibitz_bot::client::run(options, engines, stop));
            Ok(())
        }
        Command::Analyze(args) => analyze(args),
        Command::Pbrain => {
            let stdin = std::io::stdin();
            kibitz_bot::frontends::pbrain::run(stdin.lock(), std::io::stdout(), |max_memory| {
                Box::new(kibitz_bot::engine::gomoku::GomokuEngine::within_memory(
                    max_memory,
                ))
            })?;
            Ok(())
        }
        Command::Nboard => {
            let stdin = std::io::stdin();
            kibitz_bot::frontends::nboard::run(
                stdin.lock(),
                std::io::stdout(),
                std::io::stderr(),
                || kibitz_bot::engine::registry::engine_for(GameKind::Othello),
            )?;
            Ok(())
        }
        Command::Bench => {
            kibitz_bot::frontends::bench::run(&mut std::io::stdout())?;
            Ok(())
        }
        Command::Store(StoreCommand::Backup { file, data }) => store_tools::backup(&data, &file),
        Command::Store(StoreCommand::Copy {
            from,
            to,
            batch,
            replace,
        }) => runtime.block_on(store_tools::store_copy(&from, &to, batch, replace)),
        Command::Puzzles(command) => puzzle_tools::run(command),
        Command::Admin(command) => runtime.block_on(admin_tools::run(command)),
        Command::Loadtest(args) => {
            if !runtime.block_on(loadtest(args))? {
                // Scripts see a failed run; the report is out already.
                std::process::exit(1);
            }
            Ok(())
        }
    }
}
