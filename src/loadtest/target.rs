//! The server under load: a running one named by its URL, or one started in this process on
//! a temporary store, with the limits that would refuse the generator raised.

use tokio::sync::oneshot;

/// The server the run talks to.
pub struct Target {
    pub url: String,
    local: Option<LocalServer>,
}

/// A server running in this process until stopped.
struct LocalServer {
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    _store: tempfile::TempDir,
}

impl Target {
    /// The server at `url`, or a new one in this process when there is none.
    pub async fn start(url: Option<String>) -> anyhow::Result<Target> {
        if let Some(url) = url {
            return Ok(Target { url, local: None });
        }
        let store = tempfile::Builder::new()
            .prefix("kibitz-loadtest-")
            .tempdir()?;
        let mut config = kibitz_server::Config::new(store.path());
        // Every generated client connects from 127.0.0.1 and moves far faster than a person;
        // the limits for people would refuse them.
        // The same as docs/operations.md raises for an outside server ("Which limits to raise
        // for which load"): without the handshakes, new players and open rooms of one address
        // a run of 50 rooms was mostly refused (`rate_limited`).
        config.limits.connections_per_address = usize::MAX;
        config.limits.handshakes_per_address = usize::MAX / 2;
        config.limits.new_players_per_address = u32::MAX / 2;
        config.limits.open_rooms_per_address = usize::MAX / 2;
        config.limits.player_msgs_per_window = u32::MAX / 2;
        config.limits.spectator_msgs_per_window = u32::MAX / 2;
        let server = kibitz_server::Server::open(config).await?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(server.run(listener, async move {
            let _ = stopped.await;
        }));
        Ok(Target {
            url: format!("ws://{addr}/ws"),
            local: Some(LocalServer {
                stop,
                task,
                _store: store,
            }),
        })
    }

    /// Whether the server runs in this process.
    #[must_use]
    pub fn in_process(&self) -> bool {
        self.local.is_some()
    }

    /// Stops an in-process server and removes its store; a server at a URL runs on.
    pub async fn stop(self) {
        if let Some(local) = self.local {
            let _ = local.stop.send(());
            let _ = local.task.await;
        }
    }
}
