//! `kibitz loadtest` as a real process: against a real `kibitz serve` process with its limits
//! raised it plays, times every move to the opponent and to the spectators, and reads the
//! server's memory and CPU from /proc; against the default limits it names each refusal and
//! the flag to raise; with no URL it runs its own server. Speeds are never asserted.

use std::path::Path;
use std::time::Duration;

use crate::support::bots::{spawn_listening, Guard};
use serde_json::Value;

/// A `kibitz serve` child with these extra flags, its URL and its pid.
async fn serve(data: &Path, flags: &[&str]) -> (Guard, String, u32) {
    let mut args = vec!["serve", "--bind", "127.0.0.1:0"];
    args.extend_from_slice(flags);
    let (guard, addr) = spawn_listening(&args, data).await;
    let pid = u32::try_from(guard.pid()).expect("a pid");
    (guard, format!("ws://{addr}/ws"), pid)
}

/// Runs `kibitz loadtest ARGS --json FILE`; its exit success, the report and its pid.
async fn loadtest(args: &[&str]) -> (bool, Value, u32) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("report.json");
    let run = tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .arg("loadtest")
        .args(args)
        .arg("--json")
        .arg(&json)
        .env("RUST_LOG", "error")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start loadtest");
    let pid = run.id().expect("a running loadtest");
    let run = run.wait_with_output();
    // A bound, not a pace: the runs below last about two seconds.
    let output = tokio::time::timeout(Duration::from_secs(120), run)
        .await
        .expect("loadtest ended")
        .expect("run loadtest");
    let text = std::fs::read_to_string(&json).unwrap_or_else(|e| {
        panic!(
            "no report ({e}); stdout {} stderr {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(
        summary.contains("moves/s") || summary.contains("idle connections"),
        "{summary}"
    );
    (
        output.status.success(),
        serde_json::from_str(&text).expect("JSON report"),
        pid,
    )
}

#[tokio::test]
async fn against_a_serve_process_every_move_is_timed_and_the_server_is_measured() {
    let data = tempfile::tempdir().unwrap();
    let (_server, url, pid) = serve(
        data.path(),
        &[
            "--player-messages",
            "100000",
            "--spectator-messages",
            "100000",
            "--connections-per-address",
            "1000",
        ],
    )
    .await;
    let pid_text = pid.to_string();
    let (ok, report, _) = loadtest(&[
        "--url",
        &url,
        "--rooms",
        "2",
        "--spectators",
        "1",
        "--think-ms",
        "10",
        "--duration",
        "2",
        "--server-pid",
        &pid_text,
        "--conns",
        "10",
    ])
    .await;
    assert!(ok, "{report:#}");
    assert_eq!(report["errors"], serde_json::json!({}), "{report:#}");
    assert_eq!(report["in_process"], false);
    assert_eq!(report["server_pid"], pid);
    assert_eq!(report["connections"]["opened"], 6);
    assert_eq!(report["connections"]["failed"], 0);
    assert_eq!(report["rooms_playing"], 2);
    assert!(report["moves"].as_u64().unwrap() > 0, "{report:#}");
    assert!(report["moves_per_s"].as_f64().unwrap() > 0.0);
    for latency in ["to_opponent", "to_last_spectator"] {
        let l = &report["latency"][latency];
        assert!(l["count"].as_u64().unwrap() > 0, "{latency}: {l}");
        assert!(l["p50_ms"].as_f64().unwrap() > 0.0, "{latency}: {l}");
        assert!(
            l["p99_ms"].as_f64() >= l["p50_ms"].as_f64(),
            "{latency}: {l}"
        );
        assert!(
            l["max_ms"].as_f64() >= l["p99_ms"].as_f64(),
            "{latency}: {l}"
        );
    }
    let server = &report["server"];
    assert!(server["rss_start_kib"].as_u64().unwrap() > 0, "{server}");
    assert!(server["rss_peak_kib"].as_u64().unwrap() > 0, "{server}");
    assert!(server["hwm_kib"].as_u64().unwrap() > 0, "{server}");
    assert!(
        server["cpu_s"].as_f64().unwrap() > 0.0,
        "the server worked: {server}"
    );
    let idle = &report["idle"];
    assert_eq!(idle["opened"], 10, "{idle}");
    assert_eq!(idle["failed"], 0, "{idle}");
    assert!(idle["rss_before_kib"].as_u64().unwrap() > 0, "{idle}");
    assert!(idle["rss_held_kib"].as_u64().unwrap() > 0, "{idle}");
    assert!(idle["bytes_per_connection"].is_number(), "{idle}");
}

#[tokio::test]
async fn a_server_with_a_low_message_rate_refuses_players_and_the_report_says_which_flag() {
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(data.path(), &["--player-messages", "5"]).await;
    let (ok, report, _) = loadtest(&[
        "--url",
        &url,
        "--rooms",
        "1",
        "--spectators",
        "0",
        "--think-ms",
        "0",
        "--duration",
        "2",
    ])
    .await;
    assert!(!ok, "a run with errors fails");
    assert!(
        report["errors"]["rate_limited"].as_u64().unwrap() >= 1,
        "{report:#}"
    );
    let hints = report["hints"].to_string();
    assert!(hints.contains("--player-messages"), "{hints}");
    assert!(
        report["server"].is_null(),
        "no --server-pid, no server figures"
    );
}

#[tokio::test]
async fn too_many_connections_from_one_address_are_reported_as_http_429() {
    let data = tempfile::tempdir().unwrap();
    let (_server, url, _) = serve(data.path(), &["--connections-per-address", "2"]).await;
    let (ok, report, _) = loadtest(&[
        "--url",
        &url,
        "--rooms",
        "1",
        "--spectators",
        "1",
        "--think-ms",
        "0",
        "--duration",
        "1",
    ])
    .await;
    assert!(!ok, "a run with errors fails");
    assert_eq!(report["errors"]["http_429"], 1, "{report:#}");
    assert_eq!(report["connections"]["failed"], 1);
    assert_eq!(report["rooms_playing"], 0);
    let hints = report["hints"].to_string();
    assert!(hints.contains("--connections-per-address"), "{hints}");
}

#[tokio::test]
async fn without_a_url_it_runs_its_own_server_and_keeps_the_old_flags() {
    // More clients than one address may make new players, open handshakes or rooms by
    // default: the server in the process raises those limits, as an operator would.
    let (ok, report, generator) = loadtest(&[
        "--pairs",
        "40",
        "--spectators",
        "1",
        "--think-ms",
        "5",
        "--seconds",
        "1",
    ])
    .await;
    assert!(ok, "{report:#}");
    assert_eq!(report["errors"], serde_json::json!({}), "{report:#}");
    assert_eq!(report["rooms_playing"], 40, "{report:#}");
    assert_eq!(report["in_process"], true);
    assert_eq!(
        report["server_pid"], generator,
        "the server is the generator's process"
    );
    assert!(report["moves"].as_u64().unwrap() > 0, "{report:#}");
    assert!(
        report["server"]["rss_peak_kib"].as_u64().unwrap() > 0,
        "{report:#}"
    );
}
