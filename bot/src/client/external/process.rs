//! An engine's process: started as `sh -c "exec COMMAND"` in a process group of its own (so a
//! command line may carry arguments, quotes and pipes as the operator wrote them, and the
//! whole group is killed at the end), spoken to one line at a time on its standard input,
//! heard through a thread that reads its standard output, and killed when dropped.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::ExternalError;
use crate::engine::StopFlag;

/// Lines read but not yet taken: an engine that talks faster than the bot reads waits.
const LINES_QUEUED: usize = 1024;
/// How often a wait for an answer looks at the search's stop flag.
const STOP_CHECK: Duration = Duration::from_millis(20);

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Process {
    /// Starts `command` with piped standard input and output; its standard error is the
    /// bot's, so that what the engine says there reaches the operator's log.
    pub fn start(command: &str) -> Result<Process, ExternalError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .process_group(0)
            .spawn()
            .map_err(|e| ExternalError::Start(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ExternalError::Start("no pipes to the engine".into()));
        };
        let (tx, lines) = mpsc::sync_channel(LINES_QUEUED);
        // Ends when the engine closes its output (it exited or was killed).
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        tracing::trace!(line, "to the engine");
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| ExternalError::Closed)
    }

    /// Drops what the engine said unasked (a line no question waits for must not be read
    /// as the answer to the next one).
    pub fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            tracing::debug!(line, "unasked line from the engine, dropped");
        }
    }

    /// The engine's next line, waiting until `deadline` at most, or until `stop` is set.
    pub fn line_by(&mut self, deadline: Instant, stop: &StopFlag) -> Result<String, ExternalError> {
        loop {
            if stop.is_stopped() {
                return Err(ExternalError::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ExternalError::Late);
            }
            match self.lines.recv_timeout(left.min(STOP_CHECK)) {
                Ok(line) => {
                    tracing::trace!(line, "from the engine");
                    return Ok(line.trim().to_string());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(ExternalError::Closed),
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // The whole group: a command line with a pipe or a wrapper has more than one process.
        // The engine leads its own group (`process_group(0)`), so its group id is its pid;
        // a pid that does not fit, or 0 or 1, is never passed on (`kill(0)` or `kill(-1)`
        // would reach far more than the engine).
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            if pgid > 1 {
                // SAFETY: kill(2) with a negative pid signals that process group only; it
                // touches no memory of this process.
                unsafe {
                    libc::kill(-pgid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
