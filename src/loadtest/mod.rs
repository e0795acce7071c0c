//! `kibitz loadtest`: a load generator that is an ordinary outside client of any Kibitz server
//! (or of one it starts in its own process). Rooms of two players and some spectators play
//! fixed, seeded 15x15 Gomoku games, the side to move answering a think time after its turn
//! starts; the run reports moves per second, the latency of a move to the opponent and to the
//! room's last spectator, failures by kind with the server limit to raise, and the server's
//! memory and CPU from `/proc`. `--conns N` first holds N idle connections and reports the
//! server's memory per connection.
//!
//! Layout: [`target`] the server under load; [`idle`] the idle connections; [`room`] what a
//! room's clients share; [`client`] one connection at work; [`player`] and [`spectator`] the
//! two roles; [`game_path`] the games; [`tally`], [`latency`] and [`failure`] what is
//! counted; [`proc_stats`] the kernel's view of a process; [`open_files`] the generator's
//! own file limit; [`report`] the result.

mod client;
mod failure;
mod game_path;
mod idle;
mod latency;
mod open_files;
mod player;
mod proc_stats;
mod report;
mod room;
mod spectator;
mod tally;
mod target;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use game_core::Color;
use kibitz_bot::client::wire::Connection;

use client::LoadClient;
use failure::Who;
use player::PlayPlan;
use proc_stats::{ProcSample, Sampler};
use report::{ConnectionsReport, LatencyReport, ProcessUsage};
use room::LoadRoom;
use tally::Tally;
use target::Target;

pub use report::LoadReport;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// A running server's `/ws` URL; `None` starts one in this process on a temporary store.
    pub url: Option<String>,
    /// Another node of the same cluster: half the rooms are made there.
    pub peer: Option<String>,
    /// With a peer: each room's white player and spectators connect to the other node than
    /// its black player (cross-node rooms), rather than the same one.
    pub cross: bool,
    /// Rooms playing at once.
    pub rooms: usize,
    /// Spectators in each room.
    pub spectators: usize,
    /// From the receipt of the opponent's `moved` to sending the answer.
    pub think: Duration,
    /// The measured window.
    pub duration: Duration,
    /// The server's process, for its memory and CPU; an in-process server is this process.
    pub server_pid: Option<u32>,
    /// Idle connections held (and measured) before the rooms start.
    pub idle_connections: usize,
    /// Seed of the games.
    pub seed: u64,
}

/// How long a client waits for a message it expects before the run counts a `timeout`.
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// Rooms connecting at once.
const ROOMS_CONNECTING_AT_ONCE: usize = 32;

/// How often the server's resident set is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(100);

/// The connections of one room, its black player first.
struct RoomConnections {
    black: Connection,
    white: Connection,
    spectators: Vec<Connection>,
}

/// Opens the connections of room `index`; `None` if any failed (the failure is counted).
async fn connect_room(
    home: &str,
    away: &str,
    index: usize,
    spectators: usize,
    tally: &Tally,
) -> Option<RoomConnections> {
    let black = client::open(
        home,
        &format!("load-{index}-black"),
        Who::Player,
        tally,
        ANSWER_WAIT,
    )
    .await?;
    let white = client::open(
        away,
        &format!("load-{index}-white"),
        Who::Player,
        tally,
        ANSWER_WAIT,
    )
    .await?;
    let mut watching = Vec::with_capacity(spectators);
    for s in 0..spectators {
        let name = format!("load-{index}-watch{s}");
        watching.push(client::open(away, &name, Who::Spectator, tally, ANSWER_WAIT).await?);
    }
    Some(RoomConnections {
        black,
        white,
        spectators: watching,
    })
}

/// The usage of a process between two samples.
fn usage(
    start: Option<ProcSample>,
    end: Option<ProcSample>,
    peak_kib: u64,
    window: Duration,
) -> Option<ProcessUsage> {
    let (start, end) = (start?, end?);
    let cpu_s = (end.cpu_s - start.cpu_s).max(0.0);
    Some(ProcessUsage {
        rss_start_kib: start.rss_kib,
        rss_peak_kib: peak_kib.max(end.rss_kib),
        hwm_kib: end.hwm_kib,
        cpu_s,
        cpu_percent: 100.0 * cpu_s / window.as_secs_f64().max(1e-9),
    })
}

/// Runs the load and returns what it measured.
pub async fn run(options: LoadOptions) -> anyhow::Result<LoadReport> {
    let open_files_limit = open_files::raise_to_hard_limit();
    let target = Target::start(options.url.clone()).await?;
    let own_pid = std::process::id();
    let server_pid = options
        .server_pid
        .or_else(|| target.in_process().then_some(own_pid));
    let tally = Arc::new(Tally::default());
    let server_sampler = server_pid.map(|pid| Sampler::start(pid, SAMPLE_EVERY));
    let own_sampler = Sampler::start(own_pid, SAMPLE_EVERY);

    let (idle_connections, idle) = if options.idle_connections > 0 {
        let (held, report) = idle::open(
            &target.url,
            options.idle_connections,
            server_pid,
            &tally,
            ANSWER_WAIT,
        )
        .await;
        (Some(held), Some(report))
    } else {
        (None, None)
    };

    let opening = Instant::now();
    let rooms: Vec<Option<RoomConnections>> = futures::stream::iter(0..options.rooms)
        .map(|index| {
            // With a peer, rooms alternate between the nodes; a cross-node room's other
            // clients are on the other node.
            let nodes = [
                target.url.as_str(),
                options.peer.as_deref().unwrap_or(&target.url),
            ];
            let home = nodes[index % 2];
            let away = if options.cross {
                nodes[(index + 1) % 2]
            } else {
                home
            };
            connect_room(home, away, index, options.spectators, &tally)
        })
        .buffered(ROOMS_CONNECTING_AT_ONCE)
        .collect()
        .await;
    let open_s = opening.elapsed().as_secs_f64();
    let rooms_playing = rooms.iter().filter(|r| r.is_some()).count();

    // The measured window.
    if let Some(sampler) = &server_sampler {
        sampler.reset_peak();
    }
    own_sampler.reset_peak();
    let server_start = server_pid.and_then(proc_stats::sample);
    let own_start = proc_stats::sample(own_pid);
    let started = Instant::now();
    let until = started + options.duration;
    let plan = Arc::new(PlayPlan {
        seed: options.seed,
        think: options.think,
        until,
    });
    let mut load_rooms = Vec::new();
    let mut tasks = tokio::task::JoinSet::new();
    for (index, connections) in rooms.into_iter().enumerate() {
        let Some(connections) = connections else {
            continue;
        };
        let room = Arc::new(LoadRoom::new(
            index,
            options.spectators,
            until,
            tally.clone(),
        ));
        load_rooms.push(room.clone());
        let at_work = |connection, who| LoadClient {
            connection,
            who,
            room: room.clone(),
            tally: tally.clone(),
            wait: ANSWER_WAIT + options.think,
        };
        // Rooms start spread over one think time, as independent players would be.
        let first_delay = options
            .think
            .mul_f64(index as f64 / options.rooms.max(1) as f64);
        tasks.spawn(player::play(
            at_work(connections.black, Who::Player),
            Color::Black,
            plan.clone(),
            first_delay,
        ));
        tasks.spawn(player::play(
            at_work(connections.white, Who::Player),
            Color::White,
            plan.clone(),
            Duration::ZERO,
        ));
        for connection in connections.spectators {
            tasks.spawn(spectator::watch(at_work(connection, Who::Spectator)));
        }
    }
    if options.rooms > 0 {
        tokio::time::sleep_until(until.into()).await;
    }
    let window = started.elapsed();
    let server_end = server_pid.and_then(proc_stats::sample);
    let own_end = proc_stats::sample(own_pid);
    let server = usage(
        server_start,
        server_end,
        server_sampler.as_ref().map_or(0, Sampler::peak_rss_kib),
        window,
    );
    let generator =
        usage(own_start, own_end, own_sampler.peak_rss_kib(), window).unwrap_or_default();

    // The games under way end with a resignation; a room that does not end in time is ended.
    let all_done = async { while tasks.join_next().await.is_some() {} };
    if tokio::time::timeout(ANSWER_WAIT + options.think, all_done)
        .await
        .is_err()
    {
        for room in &load_rooms {
            room.end();
        }
        while tasks.join_next().await.is_some() {}
    }
    drop(idle_connections);
    let url = target.url.clone();
    let in_process = target.in_process();
    target.stop().await;

    let failures = tally.failures();
    let moves = tally.moves();
    Ok(LoadReport {
        url,
        peer: options.peer.clone(),
        cross: options.cross && options.peer.is_some(),
        in_process,
        server_pid,
        rooms: options.rooms,
        spectators: options.spectators,
        think_ms: u64::try_from(options.think.as_millis()).unwrap_or(u64::MAX),
        seed: options.seed,
        duration_s: options.duration.as_secs_f64(),
        connections: ConnectionsReport {
            asked: options.rooms * (2 + options.spectators),
            opened: tally.opened() - idle.as_ref().map_or(0, |i| i.opened),
            failed: tally.failed() - idle.as_ref().map_or(0, |i| i.failed),
            open_s,
        },
        rooms_playing,
        moves,
        moves_per_s: if options.rooms > 0 {
            moves as f64 / options.duration.as_secs_f64().max(1e-9)
        } else {
            0.0
        },
        games_finished: tally.games_finished(),
        latency: LatencyReport {
            to_opponent: tally.to_opponent(),
            to_last_spectator: tally.to_last_spectator(),
        },
        errors: failures.by_kind,
        hints: failures.hints.into_iter().map(str::to_string).collect(),
        server,
        generator,
        idle,
        open_files_limit,
    })
}
