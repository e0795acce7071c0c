//! A real Redis server for tests: Debian's `redis-server` on a free loopback port, with no
//! persistence, in a temporary directory. It can be stopped and started again on the same
//! port (an outage). However the test binary ends, the server goes with it: a watchdog shell
//! waits on a pipe the binary holds and kills the server once the pipe closes. Every server
//! speaks TLS (its `url` is `rediss://`, checked against the test CA of [`ca_file`], which
//! nodes name as their Redis CA) beside a plain port that only the harness's own checks use.

use crate::{free_port, test_ca};

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// What to do when no Redis is found.
const INSTALL: &str = "install Debian's `redis-server` package (apt-get install redis-server)";

/// How long a started server has to answer PING.
const READY_WITHIN: Duration = Duration::from_secs(20);

/// How many times a server is started before the harness gives up: a port that was free a
/// moment ago may have been taken since (another test's outbound connection, say), and then
/// the server exits at once.
const START_TRIES: u32 = 5;

/// A Redis server of the test's own.
pub struct RedisServer {
    dir: tempfile::TempDir,
    /// The plain port (the harness's checks) and the TLS port (the nodes').
    port: u16,
    tls_port: u16,
    running: Mutex<Option<Running>>,
}

/// The server process and the watchdog that kills it when the test binary ends.
struct Running {
    server: Child,
    watchdog: Child,
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The `redis-server` binary: on the PATH, else Debian's.
fn server_bin() -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join("redis-server"))
                .find(|bin| bin.is_file())
        })
        .or_else(|| {
            let debian = PathBuf::from("/usr/bin/redis-server");
            debian.is_file().then_some(debian)
        })
        .unwrap_or_else(|| panic!("redis-server was not found: {INSTALL}"))
}

/// The test CA every Redis server of this test binary uses, made on first use in a directory
/// that a watchdog removes once the binary ends.
fn shared_tls() -> &'static test_ca::CaFiles {
    static SHARED: OnceLock<(test_ca::CaFiles, Mutex<Child>)> = OnceLock::new();
    let (files, _watchdog) = SHARED.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("kibitz-redis-ca-")
            .tempdir()
            .expect("a temporary directory")
            .keep();
        let watchdog = Command::new("sh")
            .args([
                "-c",
                "trap '' INT TERM HUP; read -r _ || true; rm -rf \"$1\"",
                "kibitz-ca-watchdog",
            ])
            .arg(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the CA's watchdog");
        (test_ca::make(&dir, "redis"), Mutex::new(watchdog))
    });
    files
}

/// The CA file that nodes name as their Redis CA (`--redis-ca`) to reach a test's Redis.
pub fn ca_file() -> PathBuf {
    shared_tls().ca.clone()
}

/// Whether the Redis server of process `pid` answers on `port`: another server that took
/// the port (one of another test's, started on the same free port a moment before) does not
/// count, or the test would share it.
fn answers(port: u16, pid: u32) -> bool {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    if stream.write_all(b"INFO server\r\n").is_err() {
        return false;
    }
    // The answer is one bulk string: `$<length>\r\n`, then that many bytes.
    let mut reader = BufReader::new(stream);
    let mut header = String::new();
    if reader.read_line(&mut header).is_err() {
        return false;
    }
    let Some(Ok(length)) = header.trim_end().strip_prefix('$').map(str::parse::<usize>) else {
        return false;
    };
    let mut body = vec![0u8; length];
    reader.read_exact(&mut body).is_ok()
        && String::from_utf8_lossy(&body).contains(&format!("process_id:{pid}\r\n"))
}

impl RedisServer {
    /// Starts a server of the caller's own.
    pub fn start() -> RedisServer {
        let dir = tempfile::Builder::new()
            .prefix("kibitz-redis-")
            .tempdir()
            .expect("a temporary directory");
        let mut server = RedisServer {
            dir,
            port: 0,
            tls_port: 0,
            running: Mutex::new(None),
        };
        for attempt in 1..=START_TRIES {
            server.port = free_port();
            server.tls_port = free_port();
            if server.tls_port != server.port && server.try_start() {
                return server;
            }
            assert!(
                attempt < START_TRIES,
                "redis-server did not start; its log:\n{}",
                server.log()
            );
        }
        unreachable!("the loop returns or fails")
    }

    /// The URL nodes connect to: TLS, with the certificate of [`ca_file`]'s CA.
    pub fn url(&self) -> String {
        format!("rediss://127.0.0.1:{}", self.tls_port)
    }

    /// The URL of the plain port.
    pub fn plain_url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (its data is gone: nothing is persisted).
    pub fn stop(&self) {
        let running = self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(mut r) = running {
            let _ = r.server.kill();
            let _ = r.server.wait();
            let _ = r.watchdog.kill();
            let _ = r.watchdog.wait();
        }
    }

    /// Starts the server again on its ports and waits until it answers. A port held for a
    /// moment by another process is tried again; one held for good fails the test.
    pub fn restart(&self) {
        for attempt in 1..=START_TRIES {
            if self.try_start() {
                return;
            }
            assert!(
                attempt < START_TRIES,
                "redis-server did not start again on ports {} and {}; its log:\n{}",
                self.port,
                self.tls_port,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(200 * u64::from(attempt)));
        }
    }

    /// The server's log so far.
    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("redis.log")).unwrap_or_default()
    }

    /// Starts the server on its ports: whether it answered as itself (rather than exiting, as
    /// it does when a port is taken). A server that neither answers nor exits fails the test.
    fn try_start(&self) -> bool {
        self.stop();
        let tls = shared_tls();
        let server = Command::new(server_bin())
            .args(["--bind", "127.0.0.1", "--port"])
            .arg(self.port.to_string())
            .arg("--tls-port")
            .arg(self.tls_port.to_string())
            .arg("--tls-cert-file")
            .arg(&tls.cert)
            .arg("--tls-key-file")
            .arg(&tls.key)
            .arg("--tls-ca-cert-file")
            .arg(&tls.ca)
            .args(["--tls-auth-clients", "no"])
            .args(["--save", "", "--appendonly", "no", "--dir"])
            .arg(self.dir.path())
            .arg("--logfile")
            .arg(self.dir.path().join("redis.log"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start redis-server ({e}): {INSTALL}"));
        let watchdog = Command::new("sh")
            .args([
                "-c",
                "trap '' INT TERM HUP; read -r _ || true; kill -9 \"$1\"",
                "kibitz-redis-watchdog",
            ])
            .arg(server.id().to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the Redis watchdog");
        *self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(Running { server, watchdog });
        let started = Instant::now();
        let pid = self.pid();
        while !answers(self.port, pid) {
            if self.exited() {
                return false;
            }
            assert!(
                started.elapsed() < READY_WITHIN,
                "redis-server did not answer on port {} within {READY_WITHIN:?}; its log:\n{}",
                self.port,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }

    /// The started server's process id (0 when none is running).
    fn pid(&self) -> u32 {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
            .map_or(0, |r| r.server.id())
    }

    /// Whether the started server has exited.
    fn exited(&self) -> bool {
        self.running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_mut()
            .is_none_or(|r| matches!(r.server.try_wait(), Ok(Some(_))))
    }

    /// Runs one command with Debian's `redis-cli` (beside the server), authenticating with
    /// `password` if given; its answer, trimmed.
    pub fn command(&self, password: Option<&str>, args: &[&str]) -> String {
        let cli = server_bin().with_file_name("redis-cli");
        let mut cmd = Command::new(&cli);
        cmd.args(["-h", "127.0.0.1", "-p"])
            .arg(self.port.to_string());
        if let Some(password) = password {
            cmd.args(["--no-auth-warning", "-a", password]);
        }
        let out = cmd
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {} ({e}): {INSTALL}", cli.display()));
        assert!(out.status.success(), "redis-cli {args:?} failed");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// How many clients are connected to the TLS port and to the plain port (this question's
    /// own `redis-cli` among the plain ones).
    pub fn clients_by_port(&self) -> (usize, usize) {
        let list = self.command(None, &["CLIENT", "LIST"]);
        let on = |port: u16| {
            let laddr = format!("laddr=127.0.0.1:{port} ");
            list.lines().filter(|line| line.contains(&laddr)).count()
        };
        (on(self.tls_port), on(self.port))
    }

    /// The ids of the connections subscribed to some channel.
    pub fn subscriber_ids(&self) -> Vec<u64> {
        self.command(None, &["CLIENT", "LIST", "TYPE", "pubsub"])
            .lines()
            .filter_map(|line| line.strip_prefix("id=")?.split(' ').next()?.parse().ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_is_known_by_its_process_not_only_by_its_port() {
        let server = RedisServer::start();
        let pid = server.pid();
        assert!(answers(server.port, pid));
        // Another server on that port (another test's, say) is not this one.
        assert!(!answers(server.port, pid + 1));
        server.stop();
        assert!(!answers(server.port, pid));
    }
}
