//! Two players who stay connected and never send `leave` play 100 games. Every finished room
//! leaves memory once it has been quiet for the finished-room time (`kibitz_rooms{status="over"}`
//! back to 0, this process's memory within the stated bound), yet each game is still readable,
//! and a rematch still works: asked before the room left memory or after, the players who
//! stayed on its page hear it (the room is reloaded from the store with its rematch asks, and
//! takes its members back). The same against the real `kibitz serve` process: every 25 games
//! it holds at most those 25 finished rooms and lets them all go while the players stay, and
//! its resident memory stays within the stated bound over the 100 games.

use std::time::Duration;

use crate::support::serve::ServeProcess;
use crate::support::*;
use serde_json::json;
use tokio::time::advance;

const GAMES: usize = 100;

/// The test process may grow by at most this much over the games, once their rooms left.
const RSS_GROWTH_KIB: u64 = 32 * 1024;

/// `kibitz serve` may grow by at most this much over the games (it starts near 10 MiB).
const SERVE_RSS_GROWTH_KIB: u64 = 32 * 1024;

/// Games between two looks at `kibitz serve`'s finished rooms: each time it must hold at most
/// these, and let them all go while the players stay.
const SERVE_ROUND: usize = 25;

#[tokio::test(start_paused = true)]
async fn finished_rooms_leave_memory_while_their_players_stay_and_can_still_rematch() {
    let _frozen = freeze_time();
    let server = TestServer::start_with(|c| {
        no_idle(c);
        c.limits.player_msgs_per_window = 100_000;
    })
    .await;
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let rss_before = rss_kib(std::process::id());
    let mut rooms = Vec::new();
    for _ in 0..GAMES {
        rooms.push(quick_game(&mut a, &mut b).await);
    }
    assert_eq!(
        metric(&server, r#"kibitz_rooms{status="over"}"#).await,
        GAMES as f64
    );
    // Alice asks for a rematch in the last game before it leaves memory.
    let last = rooms[GAMES - 1].clone();
    a.send(json!({"t":"rematch","room":last})).await;
    b.expect_where(|v| v["t"] == "chat" && v["text"] == "Alice offers a rematch")
        .await;

    advance(Duration::from_secs(60)).await;
    wait_metric(&server, r#"kibitz_rooms{status="over"}"#, |v| v == 0.0).await;
    let growth = rss_kib(std::process::id()).saturating_sub(rss_before);
    assert!(growth < RSS_GROWTH_KIB, "grew by {growth} KiB");

    // Every game is still readable.
    for room in [&rooms[0], &last] {
        let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
        assert_eq!(status, 200);
        assert!(body.contains(r#""reason":"four""#), "{body}");
    }
    // Bob accepts in the room reloaded from the store: Alice, who stayed, hears it too.
    b.send(json!({"t":"rematch","room":last})).await;
    let next = b.expect("rematch").await["next"].clone();
    assert_eq!(a.expect("rematch").await["next"], next);
    let next = next.as_str().unwrap().to_string();
    let st = a.join(&next, "player").await;
    assert_eq!(
        (&st["status"], &st["you"]),
        (&json!("playing"), &json!("white"))
    );
    // Bob comes too, so that the new game does not end by abandonment (and become a finished
    // room in memory) while the clock moves on below.
    assert_eq!(b.join(&next, "player").await["you"], "black");

    // An earlier game, retired with nobody asking: a rematch asked now reaches the other
    // player, still on that page.
    let first = rooms[0].clone();
    b.send(json!({"t":"rematch","room":first})).await;
    a.expect_where(|v| {
        v["t"] == "chat" && v["room"] == first && v["text"] == "Bob offers a rematch"
    })
    .await;
    a.send(json!({"t":"rematch","room":first})).await;
    let again = a
        .expect_where(|v| v["t"] == "rematch" && v["room"] == first)
        .await;
    assert_eq!(
        b.expect_where(|v| v["t"] == "rematch" && v["room"] == first)
            .await["next"],
        again["next"]
    );
    // Asking once more gives the same room, whether the room is in memory or not.
    advance(Duration::from_secs(60)).await;
    wait_metric(&server, r#"kibitz_rooms{status="over"}"#, |v| v == 0.0).await;
    a.send(json!({"t":"rematch","room":first})).await;
    let once_more = a
        .expect_where(|v| v["t"] == "rematch" && v["room"] == first)
        .await;
    assert_eq!(once_more["next"], again["next"]);
}

/// A `/metrics` value of a server at `addr`.
async fn metric_at(addr: std::net::SocketAddr, name: &str) -> f64 {
    let (status, body) = http_get(addr, "/metrics").await;
    assert_eq!(status, 200);
    metric_in(&body, name)
}

#[tokio::test]
async fn kibitz_serve_holds_few_finished_rooms_and_bounded_memory_while_players_stay() {
    let data = tempfile::tempdir().unwrap();
    let server = ServeProcess::start(
        data.path(),
        &["--finished-room-secs", "1", "--player-messages", "100000"],
    )
    .await;
    let mut a = Client::connect(&server.url()).await;
    a.hello("Alice").await;
    let mut b = Client::connect(&server.url()).await;
    b.hello("Bob").await;
    let rss_start = server.rss_kib();
    let mut rss_peak = rss_start;
    let mut rooms = Vec::new();
    for game in 0..GAMES {
        rooms.push(quick_game(&mut a, &mut b).await);
        rss_peak = rss_peak.max(server.rss_kib());
        if game % SERVE_ROUND == SERVE_ROUND - 1 {
            let over = metric_at(server.addr, r#"kibitz_rooms{status="over"}"#).await;
            assert!(
                over <= SERVE_ROUND as f64,
                "{over} finished rooms in memory"
            );
            // Both players are still connected, in every room they played in; the rooms
            // leave memory all the same.
            assert_eq!(metric_at(server.addr, "kibitz_connections").await, 2.0);
            within("the finished rooms to leave memory", async {
                let mut poll = tokio::time::interval(Duration::from_millis(100));
                while metric_at(server.addr, r#"kibitz_rooms{status="over"}"#).await > 0.0 {
                    poll.tick().await;
                }
            })
            .await;
            rss_peak = rss_peak.max(server.rss_kib());
        }
    }
    let growth = rss_peak.saturating_sub(rss_start);
    assert!(
        growth < SERVE_RSS_GROWTH_KIB,
        "kibitz serve grew by {growth} KiB over {GAMES} games"
    );
    // The games are still readable, and the players still play.
    let (status, body) = http_get(server.addr, &format!("/api/games/{}", rooms[0])).await;
    assert_eq!(status, 200);
    assert!(body.contains(r#""reason":"four""#), "{body}");
    let (room, _) = a
        .create(json!({"t":"create","game":{"kind":"connect4"},"seat":"black"}))
        .await;
    b.join(&room, "player").await;
    a.play(&room, "4").await;
    b.saw_move("4").await;
}
