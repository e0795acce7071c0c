//! A process's memory and CPU time as the kernel counts them — resident set from
//! `/proc/PID/status`, user and system time from `/proc/PID/stat` — and a sampler that keeps
//! the peak resident set while the load runs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

/// One reading of a process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ProcSample {
    /// Resident set now (`VmRSS`), KiB.
    pub rss_kib: u64,
    /// The largest resident set of the process's life (`VmHWM`), KiB.
    pub hwm_kib: u64,
    /// User plus system CPU time since the process started, seconds.
    pub cpu_s: f64,
}

/// Reads the process now; `None` when it does not exist (or this is not Linux).
#[must_use]
pub fn sample(pid: u32) -> Option<ProcSample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (rss_kib, hwm_kib) = memory_kib(&status)?;
    let ticks = cpu_ticks(&stat)?;
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Some(ProcSample {
        rss_kib,
        hwm_kib,
        cpu_s: ticks as f64 / per_second as f64,
    })
}

/// `VmRSS` and `VmHWM` of a `/proc/PID/status` text, in KiB.
fn memory_kib(status: &str) -> Option<(u64, u64)> {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .ok()
            })
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// `utime + stime` of a `/proc/PID/stat` line, in clock ticks. The command name (field 2)
/// is in parentheses and may hold spaces and parentheses itself, so fields are counted
/// from the last `)`: the state is field 3, utime 14 and stime 15.
fn cpu_ticks(stat: &str) -> Option<u64> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(14 - 3);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

/// Samples a process every `every` until dropped, keeping the largest resident set seen.
pub struct Sampler {
    peak_rss_kib: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl Sampler {
    #[must_use]
    pub fn start(pid: u32, every: Duration) -> Sampler {
        let peak_rss_kib = Arc::new(AtomicU64::new(0));
        let peak = peak_rss_kib.clone();
        let task = tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                if let Some(s) = sample(pid) {
                    peak.fetch_max(s.rss_kib, Ordering::Relaxed);
                }
            }
        });
        Sampler { peak_rss_kib, task }
    }

    /// The largest resident set sampled since the start or the last reset, KiB.
    #[must_use]
    pub fn peak_rss_kib(&self) -> u64 {
        self.peak_rss_kib.load(Ordering::Relaxed)
    }

    /// Starts a new peak (the load's own, after the idle connections').
    pub fn reset_peak(&self) {
        self.peak_rss_kib.store(0, Ordering::Relaxed);
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_and_stat_texts() {
        let status = "Name:\tkibitz\nVmPeak:\t  900 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n";
        assert_eq!(memory_kib(status), Some((1024, 2048)));
        // A command name with a space and a parenthesis.
        let stat = "42 (kib (x) z) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 1 2 3";
        assert_eq!(cpu_ticks(stat), Some(300));
        assert_eq!(cpu_ticks("42 (x) S 1"), None);
    }

    #[test]
    fn samples_this_process() {
        let s = sample(std::process::id()).expect("/proc of this process");
        assert!(s.rss_kib > 0 && s.hwm_kib >= s.rss_kib, "{s:?}");
        assert!(s.cpu_s >= 0.0);
    }
}
