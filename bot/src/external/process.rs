//! An engine's process: started as `sh -c "exec COMMAND"` (so a command line may carry
//! arguments and quotes as the operator wrote them, and the engine itself is the child that
//! is killed), spoken to one line at a time on its standard input,
//! heard through a thread that reads its standard output, and killed when dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Instant;

use super::ExternalError;

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
            .spawn()
            .map_err(|e| ExternalError::Start(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ExternalError::Start("no pipes to the engine".into()));
        };
        let (tx, lines) = mpsc::channel();
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

    /// The engine's next line, waiting until `deadline` at most.
    pub fn line_by(&mut self, deadline: Instant) -> Result<String, ExternalError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                tracing::trace!(line, "from the engine");
                Ok(line.trim().to_string())
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(ExternalError::Late),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(ExternalError::Closed),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
