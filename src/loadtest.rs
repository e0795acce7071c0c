//! `kibitz loadtest`: a small load generator. Pairs of real WebSocket clients play random
//! legal Gomoku games against a server (an in-process one on a temporary store by default, or
//! a running one), and the run reports moves per second and the latency of a move — from
//! sending it to receiving its `moved` broadcast.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use game_core::protocol::{ClientMsg, JoinAs, RoomStatus, SeatChoice, ServerMsg};
use game_core::{AnyPosition, GameSpec, GomokuRule};
use kibitz_bot::wire::{Connection, Hello, Received};
use rand::{Rng, SeedableRng};
use tokio::sync::Mutex;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// A running server's `/ws` URL; `None` starts one in-process on a temporary store.
    pub server: Option<String>,
    /// Games played at the same time (two connections each).
    pub pairs: usize,
    /// How long to generate load.
    pub duration: Duration,
}

/// What a run measured.
#[derive(Debug, Default)]
pub struct LoadReport {
    pub moves: u64,
    pub games: u64,
    pub elapsed: Duration,
    /// Sorted latencies of every move, in microseconds.
    pub latencies_us: Vec<u64>,
}

impl LoadReport {
    fn percentile(&self, p: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies_us.len() - 1) as f64 * p).round() as usize;
        self.latencies_us[i] as f64 / 1000.0
    }

    /// The report as printed (and written into docs/benchmarks.md).
    #[must_use]
    pub fn summary(&self, pairs: usize) -> String {
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        format!(
            "loadtest: {pairs} concurrent games, {moves} moves in {secs:.1} s = {mps:.0} moves/s; \
             {games} games finished; move latency p50 {p50:.2} ms, p95 {p95:.2} ms, p99 {p99:.2} ms, max {max:.2} ms",
            moves = self.moves,
            games = self.games,
            mps = self.moves as f64 / secs,
            p50 = self.percentile(0.50),
            p95 = self.percentile(0.95),
            p99 = self.percentile(0.99),
            max = self.percentile(1.0),
        )
    }
}

/// The next message, within 30 s.
async fn recv(connection: &mut Connection) -> anyhow::Result<Received> {
    tokio::time::timeout(Duration::from_secs(30), connection.recv())
        .await
        .context("no answer from the server in 30 s")??
        .context("connection closed")
}

/// The first message that `what` accepts; an `error` before it fails the run.
async fn expect(
    connection: &mut Connection,
    what: impl Fn(&ServerMsg) -> bool,
) -> anyhow::Result<Received> {
    loop {
        let received = recv(connection).await?;
        if let ServerMsg::Error { code, message, .. } = &received.msg {
            anyhow::bail!("server error {code:?}: {message}");
        }
        if what(&received.msg) {
            return Ok(received);
        }
    }
}

async fn connect(url: &str, name: &str) -> anyhow::Result<Connection> {
    let (connection, _) = Connection::open_welcomed(url, &Hello::player(name)).await?;
    Ok(connection)
}

/// One pair of players, game after game, until `until`.
async fn pair(
    url: String,
    seed: u64,
    until: Instant,
    report: Arc<Mutex<LoadReport>>,
) -> anyhow::Result<()> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut a = connect(&url, &format!("load-a{seed}")).await?;
    let mut b = connect(&url, &format!("load-b{seed}")).await?;
    let spec = GameSpec::gomoku(15, GomokuRule::Freestyle);
    while Instant::now() < until {
        a.send(&ClientMsg::Create {
            game: spec.clone(),
            seat: SeatChoice::Black,
            clock: None,
            opening: Vec::new(),
            bots: None,
            private: true,
        })
        .await?;
        let ServerMsg::Created { room } =
            expect(&mut a, |m| matches!(m, ServerMsg::Created { .. }))
                .await?
                .msg
        else {
            unreachable!("expect returned another message");
        };
        b.send(&ClientMsg::Join {
            room: room.clone(),
            join_as: JoinAs::Player,
        })
        .await?;
        expect(
            &mut b,
            |m| matches!(m, ServerMsg::State(s) if s.status == RoomStatus::Playing),
        )
        .await?;
        let mut position = AnyPosition::new(&spec)?;
        let mut latencies = Vec::new();
        let mut turn = 0usize;
        while !position.is_over() && Instant::now() < until {
            let moves = position.legal_moves();
            let mv = moves[rng.random_range(0..moves.len())].clone();
            position.play_str(&mv)?;
            let (mover, other) = if turn.is_multiple_of(2) {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let sent = Instant::now();
            mover
                .send(&ClientMsg::Move {
                    room: room.clone(),
                    mv: mv.clone(),
                    id: None,
                })
                .await?;
            let moved = expect(
                mover,
                |m| matches!(m, ServerMsg::Moved { mv: x, .. } if *x == mv),
            )
            .await?;
            latencies.push(moved.at.duration_since(sent).as_micros() as u64);
            expect(
                other,
                |m| matches!(m, ServerMsg::Moved { mv: x, .. } if *x == mv),
            )
            .await?;
            turn += 1;
        }
        let finished = position.is_over();
        if !finished {
            a.send(&ClientMsg::Resign { room: room.clone() }).await?;
        }
        expect(&mut a, |m| matches!(m, ServerMsg::Over { .. })).await?;
        expect(&mut b, |m| matches!(m, ServerMsg::Over { .. })).await?;
        for connection in [&mut a, &mut b] {
            connection
                .send(&ClientMsg::Leave { room: room.clone() })
                .await?;
        }
        let mut r = report.lock().await;
        r.moves += latencies.len() as u64;
        r.latencies_us.extend(latencies);
        if finished {
            r.games += 1;
        }
    }
    Ok(())
}

/// Runs the load and returns what it measured.
pub async fn run(options: LoadOptions) -> anyhow::Result<LoadReport> {
    let mut local = None;
    let url = match &options.server {
        Some(url) => url.clone(),
        None => {
            let dir = std::env::temp_dir().join(format!("kibitz-loadtest-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let mut config = kibitz_server::Config::new(&dir);
            // The generator is one client per player; the default per-connection rate limits
            // are for people and would throttle it.
            config.limits.player_msgs_per_window = u32::MAX / 2;
            // Every generated player connects from 127.0.0.1.
            config.limits.connections_per_address = usize::MAX;
            let server = kibitz_server::Server::open(config).await?;
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let addr = listener.local_addr()?;
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let task = tokio::spawn(server.run(listener, async move {
                let _ = stopped.await;
            }));
            local = Some((stop, task, dir));
            format!("ws://{addr}/ws")
        }
    };
    let report = Arc::new(Mutex::new(LoadReport::default()));
    let started = Instant::now();
    let until = started + options.duration;
    let mut tasks = Vec::new();
    for seed in 0..options.pairs {
        tasks.push(tokio::spawn(pair(
            url.clone(),
            seed as u64,
            until,
            report.clone(),
        )));
    }
    for t in tasks {
        t.await??;
    }
    let elapsed = started.elapsed();
    if let Some((stop, task, dir)) = local {
        let _ = stop.send(());
        let _ = task.await;
        let _ = std::fs::remove_dir_all(dir);
    }
    let mut report = std::mem::take(&mut *report.lock().await);
    report.elapsed = elapsed;
    report.latencies_us.sort_unstable();
    Ok(report)
}
