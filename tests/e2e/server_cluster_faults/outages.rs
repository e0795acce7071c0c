//! Outages: Redis down for 15 s and restarted empty, PostgreSQL crashed and restarted; no
//! move taken while away, and the players back within a lease and a second of the return.

use super::*;

/// How long Redis stays down in the outage test.
const REDIS_DOWN: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_down_for_15_s_takes_no_move_then_the_players_are_back_within_a_lease() {
    let hall = Hall::new();
    let redis = &hall.redis;
    let back = outage_round(&hall, REDIS_DOWN, || redis.stop(), || redis.restart()).await;
    println!(
        "{{\"fault\":\"redis down {} s\",\"back_ms\":{}}}",
        REDIS_DOWN.as_secs(),
        back.as_millis()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_after_a_crash_the_players_are_back_within_a_lease() {
    // A server of the hall's own: the other tests of this binary go on meanwhile.
    let hall = Hall::with_own_postgres();
    let pg = &*hall.pg;
    let back = outage_round(&hall, Duration::ZERO, || pg.crash(), || pg.restart()).await;
    println!(
        "{{\"fault\":\"postgres restarted (-m immediate)\",\"back_ms\":{}}}",
        back.as_millis()
    );
}

/// One outage: a room owned by node A, black on A, white and a spectator on B, its opening
/// played; `down` takes a server away for `held` and `up` brings it back. A move asked for
/// while the server is away (from two leases into the outage) is not taken; once it is back,
/// black's move is taken within a lease and a second, white and the spectator hear it, white
/// answers, and the checker finds one history, stored, that nobody saw go back. Returns how
/// long after `up` black's move was taken.
async fn outage_round(
    hall: &Hall,
    held: Duration,
    down: impl FnOnce(),
    up: impl FnOnce(),
) -> Duration {
    let a = hall.node("A", &[]).await;
    let b = hall.node("B", &[]).await;
    let mut maker = Recorded::connect(&a.url(), "Maker", None).await;
    let mut black = Recorded::connect(&a.url(), "Black", None).await;
    let mut white = Recorded::connect(&b.url(), "White", None).await;
    let mut watcher = Recorded::connect(&b.url(), "Watcher", None).await;
    let room = game_with_opening(&mut maker, &mut black, &mut white).await;
    watcher.join(&room, "spectator").await;

    down();
    let stopped = tokio::time::Instant::now();
    if held > 2 * LEASE {
        tokio::time::sleep(2 * LEASE).await;
        black.send(json!({"t":"move","room":room,"move":"k1","id":"k1"}));
        let left = held.saturating_sub(stopped.elapsed());
        let answer = black
            .wait_up_to(left, |v| {
                (v["t"] == "moved" || v["t"] == "error") && v["id"] == "k1"
            })
            .await;
        assert!(
            answer.as_ref().is_none_or(|v| v["t"] == "error"),
            "a move taken while the server was away: {answer:?}"
        );
        tokio::time::sleep_until(stopped + held).await;
    }
    up();
    let restored = tokio::time::Instant::now();
    let moved = black
        .move_until_acked(
            &room,
            "k1",
            "k1",
            Duration::from_millis(500),
            Duration::from_secs(30),
        )
        .await
        .expect("black's move taken once the server is back");
    let back = restored.elapsed();
    assert_eq!(moved["ply"], 11);
    white.wait_for(tells_ply(&room, 11)).await;
    watcher.wait_for(tells_ply(&room, 11)).await;
    let answered = white
        .move_until_acked(
            &room,
            "k15",
            "k15",
            Duration::from_millis(500),
            Duration::from_secs(10),
        )
        .await
        .expect("white's answer taken");
    assert_eq!(answered["ply"], 12);
    black.wait_for(tells_ply(&room, 12)).await;
    one_history_stored(hall, &[&room], &[&black, &white, &watcher]);
    assert!(
        back <= LEASE + Duration::from_secs(1),
        "black's move taken {back:?} after the server came back"
    );
    drop((a, b, maker));
    back
}
