//! The contract of the hall's coordination, run against both of its implementations: in
//! this process (one node) and in a real Redis (a cluster), as the store's suite runs
//! against SQLite and PostgreSQL. Here: the sign-in guard — an address's attempts per
//! window (refused with the time left), a name locked after repeated failures (longer at
//! each further one, the same for names that exist and names that do not), a success that
//! clears the name, and counts that two nodes share; the new players an address may make in a
//! window, and the open rooms and the reviews asked of a player and of an address, counted
//! for the hall.

#[path = "support/cluster_node.rs"]
mod cluster_node;

use std::net::IpAddr;
use std::time::Duration;

use cluster_node::cluster_node;
use kibitz_server::accounts::guard::{SignInGuard, SignInLimits, Throttled};
use kibitz_server::accounts::new_players::{NewPlayers, NotAdmitted};
use kibitz_server::cluster::{review_tally, Cluster, ClusterSettings, OPEN_ROOMS};
use kibitz_server::metrics::Metrics;
use kibitz_server::rate_limit::Rate;
use kibitz_server::room::open_rooms::{Makers, NotOpened, OpenLimits, OpenRooms};
use kibitz_test_harness::redis::RedisServer;

fn limits() -> SignInLimits {
    SignInLimits {
        per_address: Rate::new(10, Duration::from_secs(60)),
        failures_before_lock: 3,
        lock_first: Duration::from_secs(30),
        lock_max: Duration::from_secs(600),
    }
}

/// A node of a cluster on `redis`, named `id`.
async fn node(redis: &RedisServer, id: &str) -> Cluster {
    cluster_node(redis, id).await
}

/// A wait as the guard answers it, to the second: Redis counts in milliseconds from its own
/// clock, this process from its own.
fn secs(t: Result<(), Throttled>) -> Result<(), (&'static str, u64)> {
    t.map_err(|t| match t {
        Throttled::Address(d) => ("address", d.as_millis().div_ceil(1000) as u64),
        Throttled::Name(d) => ("name", d.as_millis().div_ceil(1000) as u64),
        Throttled::Unavailable => ("unavailable", 0),
    })
}

/// The guard's rules, whichever guard: `a` and `b` are two nodes of one hall (the same
/// guard twice on one node).
async fn names_lock_and_addresses_are_limited(a: &SignInGuard, b: &SignInGuard) {
    let l = limits();
    let ip = IpAddr::from([10, 0, 0, 1]);
    // Three attempts, none answered yet, over both nodes: each already counts.
    for (guard, name) in [(a, "alice"), (b, "alice"), (a, "ALICE")] {
        assert_eq!(secs(guard.attempt(&l, ip, name).await), Ok(()));
    }
    assert_eq!(secs(b.attempt(&l, ip, "Alice").await), Err(("name", 30)));
    // A name no account has locks the same way, and another name is not locked.
    for guard in [a, b, a] {
        assert_eq!(secs(guard.attempt(&l, ip, "nobody").await), Ok(()));
    }
    assert_eq!(secs(a.attempt(&l, ip, "Nobody").await), Err(("name", 30)));
    assert_eq!(secs(b.attempt(&l, ip, "bob").await), Ok(()));
    // A success clears the name, on any node.
    b.succeeded("alice").await;
    assert_eq!(secs(a.attempt(&l, ip, "alice").await), Ok(()));
    // The address has had 8 attempts that counted (the locked ones did not), and has 10:
    // a claim of a name and one more attempt, then it waits for what is left of its window.
    assert_eq!(secs(b.admit_address(&l, ip).await), Ok(()));
    assert_eq!(secs(a.attempt(&l, ip, "carol").await), Ok(()));
    let refused = secs(b.attempt(&l, ip, "dave").await);
    assert!(matches!(refused, Err(("address", 59..=60))), "{refused:?}");
    assert!(matches!(
        secs(a.admit_address(&l, ip).await),
        Err(("address", _))
    ));
    // Another address is not held back.
    let other = IpAddr::from([10, 0, 0, 2]);
    assert_eq!(secs(b.attempt(&l, other, "erin").await), Ok(()));
}

/// Each failure past the limit doubles the lock, up to the longest. Short locks, so that
/// the test waits for each to pass (asking again until it is let through).
async fn each_further_failure_doubles_the_lock(guard: &SignInGuard) {
    let l = SignInLimits {
        per_address: Rate::new(1000, Duration::from_secs(60)),
        failures_before_lock: 3,
        lock_first: Duration::from_millis(200),
        lock_max: Duration::from_millis(800),
    };
    let ip = IpAddr::from([10, 0, 1, 1]);
    for _ in 0..3 {
        assert_eq!(guard.attempt(&l, ip, "frank").await, Ok(()));
    }
    let mut locks = Vec::new();
    for _ in 0..4 {
        let answer = guard.attempt(&l, ip, "frank").await;
        let Err(Throttled::Name(lock)) = answer else {
            panic!("frank is locked, not {answer:?} (after {locks:?})");
        };
        locks.push(lock);
        // Let through once the lock is over: one more failure.
        loop {
            match guard.attempt(&l, ip, "frank").await {
                Ok(()) => break,
                Err(Throttled::Name(_)) => tokio::time::sleep(Duration::from_millis(10)).await,
                Err(other) => panic!("{other:?}"),
            }
        }
    }
    for (lock, longest) in locks.iter().zip([200, 400, 800, 800]) {
        let longest = Duration::from_millis(longest);
        assert!(*lock <= longest && *lock > longest / 2, "{locks:?}");
    }
}

#[tokio::test]
async fn the_guard_in_this_process() {
    let guard = SignInGuard::local();
    names_lock_and_addresses_are_limited(&guard, &guard).await;
    each_further_failure_doubles_the_lock(&guard).await;
}

#[tokio::test]
async fn the_guard_in_redis_shared_by_two_nodes() {
    let redis = RedisServer::start();
    let (a, b) = (node(&redis, "A").await, node(&redis, "B").await);
    let (a, b) = (SignInGuard::Shared(a), SignInGuard::Shared(b));
    names_lock_and_addresses_are_limited(&a, &b).await;
    each_further_failure_doubles_the_lock(&a).await;
    // Redis out of reach: nothing is tried.
    redis.stop();
    let l = limits();
    let ip = IpAddr::from([10, 0, 2, 1]);
    assert_eq!(
        a.attempt(&l, ip, "grace").await,
        Err(Throttled::Unavailable)
    );
}

/// New players per address, whichever count: `a` and `b` are two nodes of one hall (the
/// same count twice on one node). Past the budget an address waits for what is left of its
/// window; another address has its own.
async fn an_address_makes_its_new_players_once_for_the_hall(a: &NewPlayers, b: &NewPlayers) {
    let rate = Rate::new(3, Duration::from_secs(60));
    let (ip, other) = (IpAddr::from([10, 0, 3, 1]), IpAddr::from([10, 0, 3, 2]));
    for count in [a, b, a] {
        assert_eq!(count.admit(rate, ip).await, Ok(()));
    }
    for count in [b, a] {
        let refused = count.admit(rate, ip).await;
        assert!(
            matches!(refused, Err(NotAdmitted::Spent(left)) if (59_000..=60_000).contains(&left.as_millis())),
            "{refused:?}"
        );
    }
    assert_eq!(b.admit(rate, other).await, Ok(()));
}

#[tokio::test]
async fn new_players_counted_in_this_process() {
    let count = NewPlayers::local();
    an_address_makes_its_new_players_once_for_the_hall(&count, &count).await;
}

#[tokio::test]
async fn new_players_counted_in_redis_shared_by_two_nodes() {
    let redis = RedisServer::start();
    let (a, b) = (node(&redis, "A").await, node(&redis, "B").await);
    let (a, b) = (NewPlayers::Shared(a), NewPlayers::Shared(b));
    an_address_makes_its_new_players_once_for_the_hall(&a, &b).await;
    // Redis out of reach: no new player is made.
    redis.stop();
    let ip = IpAddr::from([10, 0, 3, 3]);
    let rate = Rate::new(3, Duration::from_secs(60));
    assert_eq!(a.admit(rate, ip).await, Err(NotAdmitted::Unavailable));
}

/// Open rooms, whichever count: `a` and `b` are two nodes of one hall (the same count twice
/// on one node). A player and an address each have their limit over the whole hall; a room
/// counts once however often it is counted, and stops counting when it closes on any node.
async fn open_rooms_count_once_for_the_hall(a: &OpenRooms, b: &OpenRooms) {
    let limits = OpenLimits {
        per_player: 2,
        per_address: 3,
    };
    let (ip, elsewhere) = (IpAddr::from([10, 0, 4, 1]), IpAddr::from([10, 0, 4, 2]));
    let maker = |player: &str, address: Option<IpAddr>| Makers {
        player: Some(player.to_string()),
        address,
    };
    assert_eq!(
        a.open("r1", &maker("alice", Some(ip)), limits).await,
        Ok(())
    );
    assert_eq!(
        b.open("r2", &maker("alice", Some(ip)), limits).await,
        Ok(())
    );
    assert_eq!(
        a.open("r3", &maker("alice", Some(elsewhere)), limits).await,
        Err(NotOpened::Player(2))
    );
    // Counted again (a room taken over by another node), it still counts once.
    b.opened("r1", &maker("alice", None)).await;
    assert_eq!(b.open("r4", &maker("bob", Some(ip)), limits).await, Ok(()));
    assert_eq!(
        a.open("r5", &maker("carol", Some(ip)), limits).await,
        Err(NotOpened::Address(3))
    );
    // Over on either node, a room frees its player's count and its address's.
    b.closed("r1").await;
    a.closed("no-such-room").await;
    assert_eq!(
        a.open("r5", &maker("carol", Some(ip)), limits).await,
        Ok(())
    );
    assert_eq!(
        b.open("r6", &maker("alice", Some(elsewhere)), limits).await,
        Ok(())
    );
    // A rematch counts whatever the limits: alice has three now, and is refused a fourth.
    a.opened("r7", &maker("alice", None)).await;
    a.closed("r6").await;
    assert_eq!(
        b.open("r8", &maker("alice", Some(elsewhere)), limits).await,
        Err(NotOpened::Player(2))
    );
}

#[tokio::test]
async fn open_rooms_counted_in_this_process() {
    let count = OpenRooms::local();
    open_rooms_count_once_for_the_hall(&count, &count).await;
    let reviews = OpenRooms::local();
    open_rooms_count_once_for_the_hall(&reviews, &reviews).await;
}

#[tokio::test]
async fn open_rooms_counted_in_redis_shared_by_two_nodes() {
    let redis = RedisServer::start();
    let (a, b) = (node(&redis, "A").await, node(&redis, "B").await);
    let reviews = review_tally(Duration::from_secs(600));
    let (ra, rb) = (
        OpenRooms::Shared(a.clone(), reviews),
        OpenRooms::Shared(b.clone(), reviews),
    );
    let (a, b) = (
        OpenRooms::Shared(a, OPEN_ROOMS),
        OpenRooms::Shared(b, OPEN_ROOMS),
    );
    open_rooms_count_once_for_the_hall(&a, &b).await;
    // The reviews asked are counted by the same rules, apart from the open rooms.
    open_rooms_count_once_for_the_hall(&ra, &rb).await;
    // Redis out of reach: no room is opened.
    redis.stop();
    let alice = Makers {
        player: Some("alice2".to_string()),
        address: None,
    };
    let limits = OpenLimits {
        per_player: 2,
        per_address: 3,
    };
    assert_eq!(
        a.open("r9", &alice, limits).await,
        Err(NotOpened::Unavailable)
    );
}

/// A node reaches Redis over TLS, checked against the CA it names: another CA, or none (the
/// system's, which do not know the test CA), is refused with a clear error, and a CA file
/// with a plain `redis://` URL is a mistake said at start.
#[tokio::test]
async fn nodes_reach_redis_over_checked_tls() {
    let redis = RedisServer::start();
    let _a = node(&redis, "A").await;
    let (tls, plain) = redis.clients_by_port();
    assert!(
        tls >= 2,
        "the node's connections are on the TLS port ({tls})"
    );
    assert_eq!(plain, 1, "only the question's own redis-cli is plain");
    let other = tempfile::tempdir().expect("a temporary directory");
    let stranger = kibitz_test_harness::test_ca::make(other.path(), "other");
    let refused = |url: String, ca: Option<std::path::PathBuf>| async move {
        let settings = ClusterSettings {
            redis_url: url,
            redis_ca: ca,
            node_id: "B".to_string(),
            lease: Duration::from_secs(5),
        };
        match Cluster::open(&settings, Metrics::new()).await {
            Ok(_) => panic!("the node joined"),
            Err(e) => e.to_string(),
        }
    };
    let e = refused(redis.url(), Some(stranger.ca)).await;
    assert!(e.contains("certificate"), "{e}");
    let e = refused(redis.url(), None).await;
    assert!(e.contains("certificate"), "{e}");
    let e = refused(
        redis.plain_url(),
        Some(kibitz_test_harness::redis::ca_file()),
    )
    .await;
    assert!(e.contains("rediss://"), "{e}");
}
