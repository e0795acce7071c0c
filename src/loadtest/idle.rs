//! Idle connections (`--conns N`): each one opens the WebSocket, says `hello`, waits for its
//! `welcome` — what a visitor with the page open costs — and then only reads (which answers
//! the server's pings) until the run ends. The server's resident set before and with them
//! all held gives its memory per idle connection.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{mpsc, watch, Semaphore};

use super::client;
use super::failure::{self, Who};
use super::proc_stats;
use super::tally::Tally;

/// Connections being opened at once: enough to open thousands in seconds, few enough that
/// the server's accept queue never overflows.
const OPENING_AT_ONCE: usize = 64;

/// How long the held connections settle before the resident set is read.
const SETTLE: Duration = Duration::from_secs(2);

/// What the idle connections cost the server.
#[derive(Clone, Debug, Default, Serialize)]
pub struct IdleReport {
    pub asked: usize,
    pub opened: u64,
    pub failed: u64,
    /// Seconds to open them all.
    pub open_s: f64,
    /// The server's resident set before the first one opened, KiB.
    pub rss_before_kib: Option<u64>,
    /// The server's resident set with all of them held, after they settled, KiB.
    pub rss_held_kib: Option<u64>,
    /// (held − before) / opened, bytes.
    pub bytes_per_connection: Option<f64>,
}

/// The idle connections, held until dropped.
pub struct IdleConnections {
    stop: watch::Sender<bool>,
}

impl Drop for IdleConnections {
    fn drop(&mut self) {
        self.stop.send_replace(true);
    }
}

/// Opens `count` idle connections to `url`, and measures what they cost the process `pid`.
pub async fn open(
    url: &str,
    count: usize,
    pid: Option<u32>,
    tally: &Arc<Tally>,
    wait: Duration,
) -> (IdleConnections, IdleReport) {
    let rss = || pid.and_then(proc_stats::sample).map(|s| s.rss_kib);
    let rss_before_kib = rss();
    let started = std::time::Instant::now();
    let (stop, stopped) = watch::channel(false);
    let (done, mut outcomes) = mpsc::unbounded_channel::<bool>();
    let opening = Arc::new(Semaphore::new(OPENING_AT_ONCE));
    for i in 0..count {
        let url = url.to_string();
        let tally = tally.clone();
        let opening = opening.clone();
        let done = done.clone();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let permit = opening.acquire_owned().await;
            let connection =
                client::open(&url, &format!("idle-{i}"), Who::Idle, &tally, wait).await;
            drop(permit);
            let _ = done.send(connection.is_some());
            drop(done);
            let Some(mut connection) = connection else {
                return;
            };
            let ended = loop {
                tokio::select! {
                    received = connection.recv() => match received {
                        Ok(Some(_)) => {}
                        Ok(None) | Err(_) => break true,
                    },
                    _ = stopped.wait_for(|s| *s) => break false,
                }
            };
            // Closed by the server before the run let it go.
            if ended && !*stopped.borrow() {
                tally.failure(failure::closed(connection.closed_with()));
            }
        });
    }
    drop(done);
    let (mut opened, mut failed) = (0, 0);
    while let Some(ok) = outcomes.recv().await {
        if ok {
            opened += 1;
        } else {
            failed += 1;
        }
    }
    let open_s = started.elapsed().as_secs_f64();
    tokio::time::sleep(SETTLE).await;
    let rss_held_kib = rss();
    let bytes_per_connection = match (rss_before_kib, rss_held_kib) {
        (Some(before), Some(held)) if opened > 0 => {
            Some((held as f64 - before as f64) * 1024.0 / opened as f64)
        }
        _ => None,
    };
    let report = IdleReport {
        asked: count,
        opened,
        failed,
        open_s,
        rss_before_kib,
        rss_held_kib,
        bytes_per_connection,
    };
    (IdleConnections { stop }, report)
}
