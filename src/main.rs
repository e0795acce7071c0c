//! The `kibitz` executable: one binary for the server, the bot and the engine tools. It only
//! parses flags, binds and starts; the work lives in the library crates.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

mod loadtest;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
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
    /// Start everything on one address: the server with its store (the default command).
    Up(ServeArgs),
    /// Run the server alone.
    Serve(ServeArgs),
    /// Generate load (pairs of clients playing random games) and report moves per second
    /// and move latency.
    Loadtest(LoadtestArgs),
}

/// How much load to generate.
#[derive(Args, Debug, Clone)]
struct LoadtestArgs {
    /// A running server's WebSocket URL; without it an in-process server on a temporary
    /// store is started.
    #[arg(long, env = "KIBITZ_SERVER")]
    server: Option<String>,
    /// Games played at the same time (two connections each).
    #[arg(long, default_value_t = 50)]
    pairs: usize,
    /// Seconds of load.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
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
    /// Secret that bots present in `hello`; without it no bot can connect.
    #[arg(long, env = "KIBITZ_BOT_KEY", hide_env_values = true)]
    bot_key: Option<String>,
    /// Seconds a disconnected player keeps the seat before losing by abandonment.
    #[arg(long, env = "KIBITZ_GRACE_SECS", default_value_t = 60)]
    grace_secs: u64,
}

impl ServeArgs {
    fn config(&self) -> kibitz_server::Config {
        let mut config = kibitz_server::Config::new(&self.data);
        config.bot_key.clone_from(&self.bot_key);
        config.grace = Duration::from_secs(self.grace_secs);
        config
    }
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tracing::info!("shutting down");
}

async fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let server = kibitz_server::Server::open(args.config())
        .await
        .with_context(|| format!("cannot use data directory {}", args.data.display()))?;
    let listener = TcpListener::bind(args.bind)
        .await
        .with_context(|| format!("cannot listen on {}", args.bind))?;
    let addr = listener.local_addr()?;
    // Tests and scripts read this line to find the port.
    println!("Kibitz is listening on http://{addr}/");
    server.run(listener, shutdown_signal()).await?;
    Ok(())
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
        Command::Up(args) | Command::Serve(args) => runtime.block_on(serve(args)),
        Command::Loadtest(args) => {
            let report = runtime.block_on(loadtest::run(loadtest::LoadOptions {
                server: args.server,
                pairs: args.pairs,
                duration: Duration::from_secs(args.seconds),
            }))?;
            println!("{}", report.summary(args.pairs));
            Ok(())
        }
    }
}
