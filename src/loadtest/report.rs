//! What a run measured: the JSON report of `--json` and the summary printed on stdout.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::idle::IdleReport;
use super::latency::LatencySummary;

/// The whole report of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LoadReport {
    pub url: String,
    /// A second node of the same cluster, with half the rooms; `cross` when each room's
    /// white player and spectators are on the other node from its black player.
    pub peer: Option<String>,
    pub cross: bool,
    /// The server ran in the generator's process (its memory and CPU include the generator's).
    pub in_process: bool,
    pub server_pid: Option<u32>,
    pub rooms: usize,
    pub spectators: usize,
    pub think_ms: u64,
    pub seed: u64,
    /// The measured window: moves are counted when their `moved` reached the opponent in it.
    pub duration_s: f64,
    pub connections: ConnectionsReport,
    /// Rooms whose clients all connected, and so played.
    pub rooms_playing: usize,
    pub moves: u64,
    pub moves_per_s: f64,
    /// Games that ended on the board (resigned ones at the end of the run are not counted).
    pub games_finished: u64,
    pub latency: LatencyReport,
    /// Failures by kind: the server's error codes (`rate_limited`, ...), `http_429`,
    /// `closed_1008_too_slow`, `timeout`, ...
    pub errors: BTreeMap<String, u64>,
    /// What to change when there were errors (which server limit to raise).
    pub hints: Vec<String>,
    pub server: Option<ProcessUsage>,
    pub generator: ProcessUsage,
    pub idle: Option<IdleReport>,
    /// The generator's open-file limit (`None`: unlimited).
    pub open_files_limit: Option<u64>,
}

/// Connections the rooms opened.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ConnectionsReport {
    pub asked: usize,
    pub opened: u64,
    pub failed: u64,
    /// Seconds to open the rooms' connections (before the measured window).
    pub open_s: f64,
}

/// The two latencies of a move.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LatencyReport {
    /// (a) The mover's send to the opponent's receipt of `moved`.
    pub to_opponent: LatencySummary,
    /// (b) The mover's send to the receipt of `moved` by the last spectator of the room.
    pub to_last_spectator: LatencySummary,
}

/// A process's memory and CPU over the measured window, from `/proc`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProcessUsage {
    /// Resident set when the window opened, KiB.
    pub rss_start_kib: u64,
    /// Largest resident set sampled (every 100 ms) in the window, KiB.
    pub rss_peak_kib: u64,
    /// Largest resident set of the process's life (`VmHWM`) at the end, KiB.
    pub hwm_kib: u64,
    /// User + system CPU time spent in the window, seconds.
    pub cpu_s: f64,
    /// `cpu_s` over the window: 100 is one core busy.
    pub cpu_percent: f64,
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

impl LoadReport {
    /// Whether anything failed.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// The human-readable summary.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let c = &self.connections;
        let _ = writeln!(
            out,
            "loadtest against {}{}{}",
            self.url,
            if self.in_process {
                " (in this process)"
            } else {
                ""
            },
            match (&self.peer, self.cross) {
                (Some(peer), true) => format!(" and {peer}: cross-node rooms"),
                (Some(peer), false) => format!(" and {peer}: same-node rooms"),
                (None, _) => String::new(),
            }
        );
        if let Some(idle) = &self.idle {
            let _ = write!(
                out,
                "  idle connections: {} of {} opened ({} failed) in {:.1} s",
                idle.opened, idle.asked, idle.failed, idle.open_s
            );
            match (
                idle.rss_before_kib,
                idle.rss_held_kib,
                idle.bytes_per_connection,
            ) {
                (Some(before), Some(held), Some(per)) => {
                    let _ = writeln!(
                        out,
                        "; server RSS {:.1} MiB before, {:.1} MiB held = {:.1} KB per idle connection",
                        mib(before),
                        mib(held),
                        per / 1000.0
                    );
                }
                _ => {
                    let _ = writeln!(out, "; server memory unknown (no --server-pid)");
                }
            }
        }
        if self.rooms > 0 {
            let _ = writeln!(
                out,
                "  {} rooms x (2 players + {} spectators), think {} ms, {:.1} s: {} of {} connections \
                 opened in {:.1} s ({} failed), {} rooms playing",
                self.rooms,
                self.spectators,
                self.think_ms,
                self.duration_s,
                c.opened,
                c.asked,
                c.open_s,
                c.failed,
                self.rooms_playing
            );
            let _ = writeln!(
                out,
                "  {} moves = {:.0} moves/s; {} games finished",
                self.moves, self.moves_per_s, self.games_finished
            );
            let _ = writeln!(
                out,
                "  (a) to the opponent:       {}",
                self.latency.to_opponent
            );
            let _ = writeln!(
                out,
                "  (b) to the last spectator: {}",
                self.latency.to_last_spectator
            );
        }
        match &self.server {
            Some(s) => {
                let _ = writeln!(
                    out,
                    "  server (pid {}): RSS {:.1} MiB at the start, peak {:.1} MiB (lifetime peak {:.1} MiB); \
                     CPU {:.2} s = {:.0}% of one core",
                    self.server_pid.unwrap_or_default(),
                    mib(s.rss_start_kib),
                    mib(s.rss_peak_kib),
                    mib(s.hwm_kib),
                    s.cpu_s,
                    s.cpu_percent
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "  server memory and CPU: not measured (give --server-pid)"
                );
            }
        }
        let g = &self.generator;
        let _ = writeln!(
            out,
            "  generator: CPU {:.2} s = {:.0}% of one core, peak RSS {:.1} MiB",
            g.cpu_s,
            g.cpu_percent,
            mib(g.rss_peak_kib)
        );
        if self.errors.is_empty() {
            let _ = writeln!(out, "  errors: none");
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(kind, n)| format!("{kind} x{n}"))
                .collect();
            let _ = writeln!(out, "  errors: {}", list.join(", "));
            for hint in &self.hints {
                let _ = writeln!(out, "  hint: {hint}");
            }
        }
        out
    }
}
