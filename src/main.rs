//! The `kibitz` executable: one binary for the server, the bot and the engine tools.

use clap::{Parser, Subcommand};

/// Kibitz — an online board-game hall for Gomoku, Othello and Connect Four.
#[derive(Parser, Debug)]
#[command(name = "kibitz", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Start everything: the server, bots and a showcase game (the default).
    Up,
    /// Run the server alone.
    Serve,
    /// Run a bot client that joins rooms and plays.
    Bot,
    /// Analyse positions read from standard input.
    Analyze,
    /// Run the Gomoku engine as a Gomocup (Piskvork) brain.
    Pbrain,
    /// Search fixed positions and print the node-count signature.
    Bench,
    /// Generate load against a server and report moves per second.
    Loadtest,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Up) {
        other => anyhow::bail!("`kibitz {other:?}` is not available yet"),
    }
}
