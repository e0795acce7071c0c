//! A real PostgreSQL server for tests. Its binaries are Debian's (`/usr/lib/postgresql/*/bin`,
//! the newest there, else `initdb` and `pg_ctl` on the PATH); `initdb` makes a cluster in a
//! temporary directory and `pg_ctl` starts it on a free loopback port with its socket beside
//! it, as the `postgres` user when the tests run as root (PostgreSQL refuses root). Each test
//! takes a database of its own ([`PgServer::database`]), so tests run in parallel on one
//! server. A server is stopped and its directory removed when dropped; the one a test binary
//! shares ([`PgServer::shared`]) when the binary exits, however it exits: a watchdog process
//! waits on a pipe the binary holds, and cleans up once the pipe closes. Every server speaks
//! TLS with a certificate of a test CA of its own, and the URLs it hands out ask for
//! `sslmode=verify-full` against that CA: the store's tests run over checked TLS.

use crate::{free_port, test_ca};

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// What to do when no PostgreSQL is found.
const INSTALL: &str = "install Debian's `postgresql` package (apt-get install postgresql)";

/// Tries at a free port before giving up (another process may take the port first).
const START_TRIES: usize = 3;

/// A PostgreSQL server of the test's own.
pub struct PgServer {
    bin: PathBuf,
    /// The temporary directory: `data/` (the cluster), `sock/` and `log`.
    dir: PathBuf,
    port: u16,
    /// Whether its commands run as the `postgres` user (the tests run as root).
    as_postgres: bool,
    /// Stops the server and removes `dir` once its standard input closes.
    watchdog: Option<Child>,
    /// The test CA and the server's certificate (in `dir/tls`).
    tls: Option<test_ca::CaFiles>,
}

/// The directory of Debian's newest PostgreSQL binaries, else the PATH's.
fn bin_dir() -> PathBuf {
    let has_tools = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = entry.path().join("bin");
            has_tools(&bin).then_some((version, bin))
        })
        .collect();
    debian.sort();
    if let Some((_, bin)) = debian.pop() {
        return bin;
    }
    std::env::var_os("PATH")
        .and_then(|path| std::env::split_paths(&path).find(|dir| has_tools(dir)))
        .unwrap_or_else(|| {
            panic!(
                "PostgreSQL's server binaries (initdb, pg_ctl) were not found under \
                 /usr/lib/postgresql/*/bin or on the PATH: {INSTALL}"
            )
        })
}

/// Whether this process runs as root.
fn running_as_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The uid and gid of the `postgres` user (which Debian's package creates).
fn postgres_user() -> (u32, u32) {
    let passwd = std::fs::read_to_string("/etc/passwd").expect("read /etc/passwd");
    passwd
        .lines()
        .find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.first() == Some(&"postgres") && fields.len() > 3)
                .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
                .flatten()
        })
        .unwrap_or_else(|| {
            panic!("the tests run as root, and PostgreSQL needs a `postgres` user to run as: {INSTALL}")
        })
}

/// Runs `command` to its end; panics with its output if it fails.
fn run(mut command: Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

impl PgServer {
    /// Makes and starts a server of the caller's own.
    pub fn start() -> PgServer {
        let bin = bin_dir();
        let as_postgres = running_as_root();
        // As root the server runs as `postgres`, who must reach its directory: TMPDIR may lie
        // inside a directory only root may enter, /tmp never does.
        let parent = if as_postgres {
            PathBuf::from("/tmp")
        } else {
            std::env::temp_dir()
        };
        let dir = tempfile::Builder::new()
            .prefix("kibitz-pg-")
            .tempdir_in(&parent)
            .unwrap_or_else(|e| panic!("a temporary directory in {}: {e}", parent.display()))
            .keep();
        let mut server = PgServer {
            bin,
            dir,
            port: 0,
            as_postgres,
            watchdog: None,
            tls: None,
        };
        // First, so that the directory is removed however the rest fails.
        server.arm_watchdog();
        let dir = server.dir.clone();
        std::fs::create_dir(dir.join("sock")).expect("the socket directory");
        if as_postgres {
            let (uid, gid) = postgres_user();
            for path in [dir.clone(), dir.join("sock")] {
                std::os::unix::fs::chown(&path, Some(uid), Some(gid))
                    .expect("hand the directory to the postgres user");
            }
        }
        let mut initdb = server.tool("initdb");
        initdb
            .arg("-D")
            .arg(server.data())
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"])
            .arg("--no-sync");
        run(initdb, "initdb");
        server.turn_on_tls();
        for attempt in 1..=START_TRIES {
            server.port = free_port();
            if server.try_start() {
                return server;
            }
            assert!(
                attempt < START_TRIES,
                "PostgreSQL did not start; its log:\n{}",
                server.log()
            );
        }
        unreachable!("the loop returns or fails")
    }

    /// The server every test of this binary shares, started on first use.
    pub fn shared() -> &'static PgServer {
        static SHARED: OnceLock<PgServer> = OnceLock::new();
        SHARED.get_or_init(PgServer::start)
    }

    /// A fresh, empty database of the caller's own; its URL.
    pub fn database(&self) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "kibitz_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut createdb = Command::new(self.bin.join("createdb"));
        createdb
            .args(["-h", "127.0.0.1", "-U", "postgres", "-p"])
            .arg(self.port.to_string())
            .arg(&name);
        run(createdb, "createdb");
        self.url(&name)
    }

    /// The URL of database `name` on this server, over TLS checked against the server's CA.
    pub fn url(&self, name: &str) -> String {
        format!(
            "{}?sslmode=verify-full&sslrootcert={}",
            self.plain_url(name),
            self.ca_file().display()
        )
    }

    /// The URL of database `name` without TLS options (plain TCP: the server takes both).
    pub fn plain_url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// The test CA's certificate, which the server's chains to.
    pub fn ca_file(&self) -> PathBuf {
        self.tls
            .as_ref()
            .expect("the server's TLS files")
            .ca
            .clone()
    }

    /// Runs `sql` with `psql` on the database at `url`; its rows, one a line, fields
    /// separated by `|`.
    pub fn psql(&self, url: &str, sql: &str) -> String {
        let mut psql = Command::new(self.bin.join("psql"));
        psql.args([
            "-X",
            "-A",
            "-t",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            url,
            "-c",
            sql,
        ]);
        let output = run(psql, "psql");
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    /// Stops the server (fast: open connections are ended), keeping its data.
    pub fn stop(&self) {
        let mut stop = self.tool("pg_ctl");
        stop.arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "stop"]);
        run(stop, "pg_ctl stop");
    }

    /// Stops the server as a crash would (`-m immediate`: no shutdown checkpoint; the next
    /// start recovers from the WAL), keeping its data.
    pub fn crash(&self) {
        let mut stop = self.tool("pg_ctl");
        stop.arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"]);
        run(stop, "pg_ctl stop -m immediate");
    }

    /// Starts a stopped server again, on the same port and data.
    pub fn restart(&self) {
        assert!(
            self.try_start(),
            "PostgreSQL did not start again; its log:\n{}",
            self.log()
        );
    }

    /// The port it listens on (loopback).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Makes the test CA and the server's certificate, and turns TLS on in the cluster's
    /// configuration (the server's key readable by the server's user alone, as it requires).
    fn turn_on_tls(&mut self) {
        let tls = self.dir.join("tls");
        std::fs::create_dir(&tls).expect("the TLS directory");
        let files = test_ca::make(&tls, "pg");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&files.key, std::fs::Permissions::from_mode(0o600))
            .expect("the key's mode");
        if self.as_postgres {
            let (uid, gid) = postgres_user();
            std::os::unix::fs::chown(&files.key, Some(uid), Some(gid))
                .expect("hand the key to the postgres user");
        }
        let settings = format!(
            "\nssl = on\nssl_cert_file = '{}'\nssl_key_file = '{}'\n",
            files.cert.display(),
            files.key.display()
        );
        let conf = self.data().join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).expect("read postgresql.conf");
        text.push_str(&settings);
        std::fs::write(&conf, text).expect("write postgresql.conf");
        self.tls = Some(files);
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
    }

    /// A server binary, run as the `postgres` user when this process is root.
    fn tool(&self, name: &str) -> Command {
        let path = self.bin.join(name);
        if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    /// Starts the server and waits until it accepts connections (`pg_ctl -w` polls, bounded
    /// by `-t`); false if it did not start.
    fn try_start(&self) -> bool {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off",
            self.port,
            self.dir.join("sock").display()
        );
        let mut start = self.tool("pg_ctl");
        start
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.join("log"))
            .args(["-w", "-t", "60", "-o", &options, "start"])
            .stdin(Stdio::null());
        start.output().is_ok_and(|o| o.status.success())
    }

    /// Starts the watchdog: a shell that ignores the terminal's signals, waits for the end of
    /// its standard input, then stops the server at once and removes the directory.
    fn arm_watchdog(&mut self) {
        let stop = self.tool("pg_ctl");
        let script = r#"trap '' INT TERM HUP
dir=$1; shift
read -r _ || true
"$@" -D "$dir/data" -m immediate -w stop
rm -rf "$dir""#;
        let child = Command::new("sh")
            .args(["-c", script, "kibitz-pg-watchdog"])
            .arg(&self.dir)
            .arg(stop.get_program())
            .args(stop.get_args())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the PostgreSQL watchdog");
        self.watchdog = Some(child);
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Some(mut watchdog) = self.watchdog.take() {
            drop(watchdog.stdin.take());
            let _ = watchdog.wait();
        }
    }
}
