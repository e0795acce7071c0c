//! The real `kibitz serve` as a child process of a test: started on a data directory with
//! extra flags, its printed address read, its output drained, its memory and files readable
//! from /proc, and killed with SIGKILL when the test says so (or when it is dropped).

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::task::JoinHandle;

use super::{rss_kib, within};

/// A running `kibitz serve` and the address it printed.
pub struct ServeProcess {
    pub child: Child,
    pub addr: SocketAddr,
    pub pid: u32,
    /// The lines the process wrote on standard error, once it has ended.
    pub stderr: JoinHandle<Vec<String>>,
}

impl ServeProcess {
    /// Starts `kibitz serve` on `data`, listening on a free loopback port, with `flags`.
    pub async fn start(data: &Path, flags: &[&str]) -> ServeProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kibitz"));
        command.args(serve_args(data)).args(flags);
        Self::spawn(command).await
    }

    /// Runs `command` (`kibitz serve`, perhaps under a wrapper such as `prlimit`) and waits
    /// for its listening line.
    pub async fn spawn(mut command: Command) -> ServeProcess {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("start kibitz serve");
        let pid = child.id().expect("kibitz serve is running");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr = within("the listening line", async {
            while let Some(line) = lines.next_line().await.expect("read stdout") {
                if let Some(rest) = line.strip_prefix("Kibitz is listening on http://") {
                    return rest.trim_end_matches('/').to_string();
                }
            }
            panic!("kibitz serve ended without listening");
        })
        .await;
        // Keep draining both pipes so the process never blocks on a full one.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let mut errors = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let stderr = tokio::spawn(async move {
            let mut kept = Vec::new();
            while let Ok(Some(line)) = errors.next_line().await {
                kept.push(line);
            }
            kept
        });
        ServeProcess {
            child,
            addr: addr.parse().expect("a socket address"),
            pid,
            stderr,
        }
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Resident memory of the process in KiB.
    pub fn rss_kib(&self) -> u64 {
        rss_kib(self.pid)
    }

    /// Kills the process with SIGKILL and waits for it to end.
    pub async fn kill(mut self) {
        self.child.kill().await.expect("SIGKILL kibitz serve");
    }
}

/// The arguments of `kibitz serve` on `data` at a free loopback port, before any limit.
pub fn serve_args(data: &Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = ["serve", "--bind", "127.0.0.1:0", "--data"]
        .iter()
        .map(Into::into)
        .collect();
    args.push(data.into());
    args
}
