//! `kibitz up`, the default command: the server with its store, two bot processes (this same
//! executable, `kibitz bot`, restarted if they die) with a bot key made for this run, and the
//! showcase game — everything a newcomer needs behind one printed address.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use anyhow::Context;
use tokio::net::TcpListener;
use tokio::process::Command;
use tokio::sync::watch;

/// The bots `up` starts: a name and a capacity each.
const BOTS: [(&str, u32); 2] = [("Kibot", 8), ("Kibitzer", 8)];

/// Runs everything until SIGINT/SIGTERM.
pub async fn up(
    config: kibitz_server::Config,
    bind: std::net::SocketAddr,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let mut config = config;
    let key = config
        .bot_key
        .get_or_insert_with(kibitz_server::token::new_token)
        .clone();
    let data = config.data_dir.clone();
    if config.store_url.is_some() && !data.exists() {
        // The store is elsewhere, but the bots keep their state files here.
        std::fs::create_dir(&data)
            .with_context(|| format!("cannot create data directory {}", data.display()))?;
    }
    let store = config.store_name();
    let server = kibitz_server::Server::open(config)
        .await
        .map_err(|e| crate::open_error(e, &store))?;
    let listener = TcpListener::bind(bind)
        .await
        .with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    println!("Kibitz is listening on http://{addr}/ — open it in a browser (Ctrl-C stops)");

    let (stop_tx, stop_rx) = watch::channel(false);
    let server_task = tokio::spawn(server.run(listener, {
        let mut stop = stop_rx.clone();
        async move {
            let _ = stop.changed().await;
        }
    }));
    let ws_url = format!("ws://{addr}/ws");
    let mut bots = Vec::new();
    for (i, (name, capacity)) in BOTS.iter().enumerate() {
        let state = data.join(format!("bot-{}.json", i + 1));
        bots.push(tokio::spawn(supervise_bot(
            ws_url.clone(),
            key.clone(),
            (*name).to_string(),
            *capacity,
            state,
            stop_rx.clone(),
        )));
    }
    let showcase = tokio::spawn(crate::showcase::run(ws_url, key));

    shutdown.await;
    let _ = stop_tx.send(true);
    showcase.abort();
    for bot in bots {
        let _ = bot.await;
    }
    server_task.await??;
    Ok(())
}

/// Keeps one bot process running until `stop`; a bot that dies is restarted.
async fn supervise_bot(
    url: String,
    key: String,
    name: String,
    capacity: u32,
    state: std::path::PathBuf,
    mut stop: watch::Receiver<bool>,
) {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            tracing::error!(error = %e, "cannot find this executable to start the bots");
            return;
        }
    };
    loop {
        let child = spawn_bot(&exe, &url, &key, &name, capacity, &state);
        let mut child = match child {
            Ok(child) => child,
            Err(e) => {
                tracing::error!(error = %e, bot = %name, "cannot start bot");
                return;
            }
        };
        // `wait` closes a stdin it finds; this one must stay open as long as `up` lives.
        let _held_open = child.stdin.take();
        tokio::select! {
            status = child.wait() => {
                tracing::warn!(bot = %name, ?status, "bot exited; restarting");
            }
            _ = stop.changed() => {
                let _ = child.start_kill();
                let _ = child.wait().await;
                return;
            }
        }
        tokio::select! {
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = stop.changed() => return,
        }
    }
}

fn spawn_bot(
    exe: &Path,
    url: &str,
    key: &str,
    name: &str,
    capacity: u32,
    state: &Path,
) -> std::io::Result<tokio::process::Child> {
    Command::new(exe)
        .arg("bot")
        .arg("--server")
        .arg(url)
        .arg("--name")
        .arg(name)
        .arg("--capacity")
        .arg(capacity.to_string())
        .arg("--state")
        .arg(state)
        // The key travels in the environment, not on the command line that `ps` shows.
        .env("KIBITZ_BOT_KEY", key)
        // Only this process holds the pipe's other end (kept in the `Child`): when it exits,
        // however it exits, the bot reads the end of its input and stops.
        .arg("--exit-with-stdin")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
}
