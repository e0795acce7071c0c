//! `scripts/cluster.sh` end to end, with real processes: it starts a PostgreSQL, a Redis and
//! two `kibitz serve` nodes on free ports; a player on node 1 creates a Gomoku room, a player
//! on node 2 joins it and they play it to five, every move acknowledged to its player and
//! seen by the other; then SIGTERM stops the script, and with it every process it started
//! (the nodes, redis-server, PostgreSQL's postmaster), its ports and its directory.

use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::{bounded, Client};
use rustix::process::{kill_process, kill_process_group, Pid, Signal};
use serde_json::json;
use tokio::sync::mpsc;

/// How long the script may take to print its nodes: initdb, PostgreSQL, Redis and the nodes
/// start one after another, on a machine that may be busy.
const START_WITHIN: Duration = Duration::from_secs(120);
/// How long the script may take to stop everything after SIGTERM, and then the processes to
/// be gone.
const STOP_WITHIN: Duration = Duration::from_secs(90);

/// Black makes five in the h file; white answers on the a file.
const GAME: [&str; 9] = ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"];

/// The running script, in a process group of its own. When a test fails, dropping it cleans
/// up: a script still running is sent SIGTERM and, after a bounded wait, what is left of its
/// group SIGKILL; every process it was seen to start that is still there (PostgreSQL's
/// postmaster lives in a session of its own, out of the group's reach) is ended, and the
/// directory removed.
struct ClusterScript {
    pid: u32,
    /// The script's exit status, once it has ended.
    exited: std_mpsc::Receiver<ExitStatus>,
    stopped: bool,
    /// What it wrote on standard error, for failure messages.
    stderr: Arc<Mutex<Vec<String>>>,
    /// The processes of its group, PostgreSQL's postmaster and its directory, once known.
    group: Vec<Proc>,
    postmaster: Option<Proc>,
    dir: Option<PathBuf>,
}

impl ClusterScript {
    /// Starts `bash scripts/cluster.sh ARGS`; its standard output comes line by line.
    fn start(args: &[&str]) -> (ClusterScript, mpsc::UnboundedReceiver<String>) {
        let mut child = Command::new("bash")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/cluster.sh"))
            .args(args)
            .env("KIBITZ_BIN", env!("CARGO_BIN_EXE_kibitz"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start scripts/cluster.sh");
        let pid = child.id();
        let (line_tx, lines) = mpsc::unbounded_channel();
        let stdout = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                let _ = line_tx.send(line);
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let kept = stderr.clone();
        let errors = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(errors)
                .lines()
                .map_while(Result::ok)
            {
                kept.lock().unwrap_or_else(|e| e.into_inner()).push(line);
            }
        });
        let (exit_tx, exited) = std_mpsc::channel();
        std::thread::spawn(move || {
            if let Ok(status) = child.wait() {
                let _ = exit_tx.send(status);
            }
        });
        let script = ClusterScript {
            pid,
            exited,
            stopped: false,
            stderr,
            group: Vec::new(),
            postmaster: None,
            dir: None,
        };
        (script, lines)
    }

    fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .join("\n")
    }

    fn signal(&self, signal: Signal) {
        if let Some(pid) = Pid::from_raw(self.pid as i32) {
            let _ = kill_process(pid, signal);
        }
    }

    /// Waits (bounded) for the script to end; its exit status. The test's runtime has
    /// several threads: this one may block while the others serve.
    fn wait(&mut self) -> ExitStatus {
        let status = tokio::task::block_in_place(|| self.exited.recv_timeout(STOP_WITHIN));
        let status = status.unwrap_or_else(|_| {
            panic!(
                "the script did not end within {STOP_WITHIN:?} of SIGTERM; its errors:\n{}",
                self.stderr()
            )
        });
        self.stopped = true;
        status
    }
}

impl Drop for ClusterScript {
    fn drop(&mut self) {
        if !self.stopped {
            self.signal(Signal::TERM);
            let _ = self.exited.recv_timeout(STOP_WITHIN);
            if let Some(group) = Pid::from_raw(self.pid as i32) {
                let _ = kill_process_group(group, Signal::KILL);
            }
        }
        let left = self.group.iter().map(|p| (p, Signal::KILL));
        // SIGQUIT: PostgreSQL's immediate shutdown, which ends its backends too.
        let left = left.chain(self.postmaster.iter().map(|p| (p, Signal::QUIT)));
        for (process, signal) in left.filter(|(p, _)| !gone(**p)) {
            if let Some(pid) = Pid::from_raw(process.pid as i32) {
                let _ = kill_process(pid, signal);
            }
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// What the script printed about the cluster it started.
#[derive(Debug)]
struct Printed {
    dir: PathBuf,
    pg_port: u16,
    redis_port: u16,
    /// The store's and Redis's URLs, as the nodes were given them.
    store: String,
    redis: String,
    /// Node name to its address.
    nodes: BTreeMap<String, SocketAddr>,
}

/// The port of a `scheme://user@host:port/...` URL.
fn url_port(url: &str) -> u16 {
    let after_host = url.rsplit('@').next().unwrap_or(url);
    let after_scheme = after_host.rsplit("//").next().unwrap_or(after_host);
    let host_port = after_scheme.split('/').next().unwrap_or_default();
    host_port
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {url:?}"))
}

/// Reads the script's lines until it says how to stop it (its last line before waiting).
async fn read_printed(
    script: &ClusterScript,
    lines: &mut mpsc::UnboundedReceiver<String>,
) -> Printed {
    let mut dir = None;
    let (mut pg_port, mut redis_port) = (None, None);
    let (mut store, mut redis) = (String::new(), String::new());
    let mut nodes = BTreeMap::new();
    let read = async {
        while let Some(line) = lines.recv().await {
            let (key, value) = line.split_once(' ').unwrap_or((&line, ""));
            match key {
                "directory" => dir = Some(PathBuf::from(value)),
                "postgresql" => {
                    pg_port = Some(url_port(value));
                    store = value.to_string();
                }
                "redis" => {
                    redis_port = Some(url_port(value));
                    redis = value.to_string();
                }
                "Logs:" => return true,
                node if node.starts_with("node") => {
                    let addr = value
                        .strip_prefix("http://")
                        .and_then(|a| a.strip_suffix('/'))
                        .and_then(|a| a.parse().ok())
                        .unwrap_or_else(|| panic!("a node line with an address: {line:?}"));
                    nodes.insert(node.to_string(), addr);
                }
                _ => {}
            }
        }
        false
    };
    let told = tokio::time::timeout(START_WITHIN, read).await;
    assert!(
        told == Ok(true),
        "the script did not print its cluster within {START_WITHIN:?} ({told:?}); its errors:\n{}",
        script.stderr()
    );
    Printed {
        dir: dir.expect("a directory line"),
        pg_port: pg_port.expect("a postgresql line"),
        redis_port: redis_port.expect("a redis line"),
        store,
        redis,
        nodes,
    }
}

/// A process as /proc shows it: its id and start time, so that a later process given the
/// same id is not mistaken for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Proc {
    pid: u32,
    started: u64,
}

/// The state, process group and start time of `pid`, from `/proc/PID/stat`.
fn proc_stat(pid: u32) -> Option<(char, u32, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name, in parentheses, may hold spaces: the fields that follow it are counted.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    let group = fields.get(2)?.parse().ok()?;
    let started = fields.get(19)?.parse().ok()?;
    Some((state, group, started))
}

/// Every process of process group `group`.
fn group_members(group: u32) -> Vec<Proc> {
    std::fs::read_dir("/proc")
        .expect("read /proc")
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let (_, in_group, started) = proc_stat(pid)?;
            (in_group == group).then_some(Proc { pid, started })
        })
        .collect()
}

/// Whether `process` has ended (a zombie not yet reaped by its new parent has).
fn gone(process: Proc) -> bool {
    proc_stat(process.pid)
        .is_none_or(|(state, _, started)| state == 'Z' || started != process.started)
}

/// Whether something accepts connections on `addr`.
fn listening(addr: SocketAddr) -> bool {
    TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_ok()
}

/// The postmaster's process id: the first line of `postmaster.pid` in its data directory.
fn postmaster(dir: &Path) -> Proc {
    let text = std::fs::read_to_string(dir.join("pg/data/postmaster.pid"))
        .expect("PostgreSQL's postmaster.pid");
    let pid: u32 = text
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
        .expect("a process id in postmaster.pid");
    let (_, _, started) = proc_stat(pid).expect("the postmaster runs");
    Proc { pid, started }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_across_two_nodes_then_sigterm_stops_everything() {
    let printed = a_game_across_two_nodes_then_sigterm(&["2", "--base-port", "0"]).await;
    assert!(printed.store.starts_with("postgres://") && !printed.store.contains('?'));
    assert!(printed.redis.starts_with("redis://"), "{}", printed.redis);
}

/// With --tls, the nodes reach PostgreSQL and Redis over TLS that they check against the
/// script's CA (Redis has no plain port then): the game goes as it does without.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_tls_a_game_across_two_nodes_then_sigterm_stops_everything() {
    let printed = a_game_across_two_nodes_then_sigterm(&["2", "--base-port", "0", "--tls"]).await;
    assert!(
        printed.store.contains("?sslmode=verify-full&sslrootcert="),
        "{}",
        printed.store
    );
    assert!(printed.redis.starts_with("rediss://"), "{}", printed.redis);
}

/// Starts the script with `args`, plays a game between its two nodes, stops it with SIGTERM
/// and checks that everything it started is gone; what it printed.
async fn a_game_across_two_nodes_then_sigterm(args: &[&str]) -> Printed {
    let (mut script, mut lines) = ClusterScript::start(args);
    let printed = read_printed(&script, &mut lines).await;
    script.dir = Some(printed.dir.clone());
    let postmaster = postmaster(&printed.dir);
    script.postmaster = Some(postmaster);
    assert_eq!(
        printed.nodes.keys().collect::<Vec<_>>(),
        ["node1", "node2"],
        "{printed:?}"
    );
    let (node1, node2) = (printed.nodes["node1"], printed.nodes["node2"]);
    assert_ne!(
        node1.port(),
        node2.port(),
        "each node has a port of its own"
    );

    // Alice on node 1 makes the room; Bob on node 2 sits down in it.
    let mut alice = Client::connect(&format!("ws://{node1}/ws")).await;
    alice.hello("Alice").await;
    let (room, _) = alice
        .create(
            json!({"t":"create","game":{"kind":"gomoku","size":15,"rule":"freestyle"},
            "seat":"black"}),
        )
        .await;
    let mut bob = Client::connect(&format!("ws://{node2}/ws")).await;
    bob.hello("Bob").await;
    bob.send(json!({"t":"join","room":room,"as":"player"}))
        .await;
    let state = bob
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(state["you"], "white");
    alice
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;

    // Every move is acknowledged to its player and reaches the other node's player.
    for (i, mv) in GAME.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut alice, &mut bob)
        } else {
            (&mut bob, &mut alice)
        };
        let moved = mover.play(&room, mv).await;
        assert_eq!(moved["ply"], i + 1, "{moved}");
        let seen = other.saw_move(mv).await;
        assert_eq!(seen["ply"], i + 1, "{seen}");
    }
    for client in [&mut alice, &mut bob] {
        let over = client.expect("over").await;
        assert_eq!(over["result"], "black", "{over}");
        assert_eq!(over["reason"], "five", "{over}");
    }

    // What the script started: its group (itself, the nodes, redis-server) and PostgreSQL.
    script.group = group_members(script.pid);
    assert!(
        script.group.len() >= 4,
        "the script, two nodes and redis-server in its process group: {:?}",
        script.group
    );
    let mut started = script.group.clone();
    started.push(postmaster);
    let ports = [
        node1,
        node2,
        SocketAddr::from(([127, 0, 0, 1], printed.pg_port)),
        SocketAddr::from(([127, 0, 0, 1], printed.redis_port)),
    ];
    for addr in ports {
        assert!(
            listening(addr),
            "{addr} accepts connections while the cluster runs"
        );
    }

    script.signal(Signal::TERM);
    let status = script.wait();
    assert!(
        status.success(),
        "the script ends cleanly on SIGTERM: {status}; its errors:\n{}",
        script.stderr()
    );
    assert!(
        !printed.dir.exists(),
        "the script removed its directory {}",
        printed.dir.display()
    );
    // The processes have ended (a postmaster may finish exiting a moment after pg_ctl saw
    // it go) and their ports are closed.
    let left_behind = || {
        let left: Vec<Proc> = started.iter().copied().filter(|p| !gone(*p)).collect();
        let open: Vec<SocketAddr> = ports.iter().copied().filter(|a| listening(*a)).collect();
        (left, open)
    };
    let all_gone = async {
        while left_behind() != (Vec::new(), Vec::new()) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    if bounded(all_gone).await.is_none() {
        let (left, open) = left_behind();
        panic!("after the script ended, processes {left:?} are still there, ports {open:?} open");
    }
    printed
}
