//! Clients that stop reading, over real sockets with a small receive buffer: a spectator in
//! busy rooms and a lobby subscriber. Each is dropped — its socket closed by the server, the
//! connection gauge back down, the rooms' `crowd` without it — and the server's memory and
//! open files (this process's, the server runs in it) stay within the stated bounds.

use std::time::Duration;

use crate::support::*;
use serde_json::json;

/// The test process may grow by at most this much while a stuck client is being dropped.
const RSS_GROWTH_KIB: u64 = 64 * 1024;

/// Open files the test process may hold beyond those it had before the stuck client came.
const FD_SLACK: usize = 16;

fn quick_drop(c: &mut kibitz_server::Config) {
    c.limits.send_timeout = Duration::from_secs(1);
    c.limits.outgoing_queue = 64;
    c.limits.player_msgs_per_window = 1_000_000;
    c.limits.spectator_msgs_per_window = 1_000_000;
    c.limits.chat_lines_per_window = 1_000_000;
    // Long lines fill the socket buffers sooner.
    c.limits.chat_max_chars = 4000;
}

#[tokio::test]
async fn a_spectator_that_stops_reading_is_dropped_and_leaves_its_rooms() {
    let server = TestServer::start_with(quick_drop).await;
    let pid = std::process::id();
    let mut pairs = Vec::new();
    for _ in 0..3 {
        pairs.push(seated_pair(&server, json!({"kind":"gomoku","size":15}), json!(null)).await);
    }
    let fds_before = open_fds(pid);
    let rss_before = rss_kib(pid);

    let mut stuck = Client::connect_with_receive_buffer(server.addr, 4096).await;
    stuck.hello("Stuck").await;
    for (_, _, room) in &pairs {
        stuck.join(room, "spectator").await;
    }
    for (a, _, room) in &mut pairs {
        a.expect_where(|v| v["t"] == "crowd" && v["room"] == *room && v["spectators"] == 1)
            .await;
    }
    wait_metric(&server, "kibitz_connections", |v| v == 7.0).await;

    // The rooms get busy; the stuck spectator reads nothing from here on.
    let line = "x".repeat(3900);
    let mut n = 0u64;
    within("the stuck spectator to be dropped", async {
        loop {
            for (a, b, room) in &mut pairs {
                n += 1;
                a.send(json!({"t":"chat","room":room,"text":format!("{n} {line}")}))
                    .await;
                for p in [&mut *a, &mut *b] {
                    p.expect("chat").await;
                }
            }
            if n.is_multiple_of(60) && metric(&server, "kibitz_connections").await == 6.0 {
                return;
            }
        }
    })
    .await;

    // Its rooms learn it: each counts no spectator any more.
    for (a, _, room) in &mut pairs {
        a.expect_where(|v| v["t"] == "crowd" && v["room"] == *room && v["spectators"] == 0)
            .await;
    }
    // The server closed the socket: what was in flight drains, then the stream ends.
    stuck.until_dropped().await;
    let rss_growth = rss_kib(pid).saturating_sub(rss_before);
    assert!(rss_growth < RSS_GROWTH_KIB, "grew by {rss_growth} KiB");
    drop(stuck);
    within("the stuck socket's file to be closed", async {
        while open_fds(pid) > fds_before + FD_SLACK {
            tokio::task::yield_now().await;
        }
    })
    .await;
    // The players go on as before.
    let (a, b, room) = &mut pairs[0];
    a.play(room, "h8").await;
    b.saw_move("h8").await;
}

#[tokio::test]
async fn a_lobby_subscriber_that_never_reads_is_dropped_with_bounded_memory() {
    let server = TestServer::start_with(|c| {
        quick_drop(c);
        c.lobby_interval = Duration::from_millis(2);
        c.crowd_interval = Duration::from_millis(1);
    })
    .await;
    let pid = std::process::id();
    // Enough open rooms for a full lobby list.
    let mut hosts = Vec::new();
    for h in 0..5 {
        let mut host = server.client(&format!("Host{h}")).await;
        for _ in 0..10 {
            host.create(json!({"t":"create","game":{"kind":"gomoku","size":19},"seat":"black"}))
                .await;
        }
        hosts.push(host);
    }
    let (_a, _b, live) = seated_pair(&server, json!({"kind":"othello"}), json!(null)).await;
    let rss_before = rss_kib(pid);
    let mut stuck = Client::connect_with_receive_buffer(server.addr, 4096).await;
    stuck.hello("Stuck").await;
    stuck.send(json!({"t":"lobby"})).await;
    wait_metric(&server, "kibitz_connections", |v| v == 8.0).await;

    // The lobby changes all the time: a watcher comes and goes in the live game.
    let mut watcher = server.client("Watcher").await;
    watcher.no_delay();
    let mut peak = 0;
    within("the stuck subscriber to be dropped", async {
        for i in 0.. {
            watcher.join(&live, "spectator").await;
            watcher.send(json!({"t":"leave","room":live})).await;
            peak = peak.max(rss_kib(pid));
            if i % 20 == 0 && metric(&server, "kibitz_connections").await == 8.0 {
                return;
            }
        }
    })
    .await;
    stuck.until_dropped().await;
    let growth = peak.saturating_sub(rss_before);
    assert!(growth < RSS_GROWTH_KIB, "grew by {growth} KiB");
}
