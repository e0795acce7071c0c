//! The contract of the hall's coordination for rooms and pairing, run against both of its
//! implementations (in this process for one node, in a real Redis for a cluster), as
//! `coordination.rs` does for the hall's counts: a node's claim of a lease is its own and held
//! under a fence no lower than the store's, a room is never another node's on one node, and
//! the quick-pairing book pairs the first live seeker, keeps one seek per player, forgets a
//! withdrawn one and takes one back first in line.

#[path = "support/cluster_node.rs"]
mod cluster_node;

use std::sync::Arc;
use std::time::Duration;

use cluster_node::cluster_node;
use kibitz_server::accounts::players::PlayerRecord;
use kibitz_server::cluster::{Claim, Coordination, SeekEntry};
use kibitz_server::metrics::Metrics;
use kibitz_server::net::connection::Conn;
use kibitz_server::store::Store;
use kibitz_test_harness::redis::RedisServer;
use tokio::sync::{mpsc, Notify};

/// A node of a cluster on `redis`, named `id`.
async fn node(redis: &RedisServer, id: &str) -> Coordination {
    Coordination::Shared(cluster_node(redis, id).await)
}

/// Renews `coord`'s leases over a store in `dir` until the test ends (the returned sender is
/// dropped), and waits for the first renewal: a node is sure of its leases only once its
/// store and its coordination have both answered.
async fn renewing(coord: &Coordination, dir: &std::path::Path) -> tokio::sync::watch::Sender<bool> {
    let store = Store::open_sqlite(dir, Metrics::new()).expect("store");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(coord.clone().renew_leases(store, stopped));
    for _ in 0..250 {
        if coord.leases_fresh() {
            return stop;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the leases were never renewed");
}

/// A lease claimed by `a` is `a`'s, under a fence at least the store's, and held; on a
/// cluster, `b` (another node) finds it taken and `a` the owner. A lease given back is free
/// again.
async fn leases_are_held(a: &Coordination, b: Option<&Coordination>) {
    let Ok(Claim::Ours(lease)) = a.claim("room1", 7).await else {
        panic!("a free lease is claimed");
    };
    assert!(
        lease.fence >= 7,
        "fence {} under the store's 7",
        lease.fence
    );
    assert!(a.holds("room1", lease.fence));
    assert!(a.leases_fresh());
    let owner = a.owner("room1").await.expect("owner");
    assert!(owner.as_deref().is_none_or(|n| n == a.node()), "{owner:?}");
    if let Some(b) = b {
        match b.claim("room1", 0).await {
            Ok(Claim::Elsewhere(node)) => assert_eq!(node, a.node()),
            other => panic!("a held lease claimed again elsewhere: {other:?}"),
        }
        assert_eq!(
            b.owner("room1").await.expect("owner"),
            Some(a.node().into())
        );
        assert!(!b.holds("room1", lease.fence));
    }
    a.release("room1", lease.fence);
    // Alone nothing is ever unowned; in a cluster a lease given back is, once Redis has it.
    let other = b.unwrap_or(a);
    for _ in 0..100 {
        if let Ok(Claim::Ours(_)) = other.claim("room1", lease.fence).await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("a lease given back was not free again");
}

/// A connection of this node, registered with the coordination, and what keeps it open.
fn conn(
    coord: &Coordination,
    id: u64,
) -> (Conn, mpsc::Receiver<kibitz_server::net::connection::Out>) {
    let (tx, rx) = mpsc::channel(16);
    let conn = Conn::new(id, tx, Arc::new(Notify::new()));
    coord.conn_opened(&conn);
    (conn, rx)
}

fn entry(coord: &Coordination, conn: &Conn, player: &str) -> SeekEntry {
    SeekEntry {
        seek: format!("seek-{player}-{}", conn.id),
        node: coord.node().to_string(),
        conn: conn.id,
        house: false,
        player: PlayerRecord {
            id: player.to_string(),
            name: player.to_string(),
            bot: false,
            account: false,
        },
    }
}

/// The book's rules, whichever book: `a` and `b` are two nodes of one hall (the same node
/// twice alone).
async fn seekers_pair_in_order(a: &Coordination, b: &Coordination) {
    let (spec, other_spec) = ("gomoku-15", "othello-8");
    let first_id = a.first_conn_id();
    let (c1, _k1) = conn(a, first_id);
    let (c2, _k2) = conn(a, first_id + 1);
    let (c3, _k3) = conn(b, b.first_conn_id() + 2);
    let (c4, _k4) = conn(b, b.first_conn_id() + 3);
    let (e1, e2) = (entry(a, &c1, "p1"), entry(a, &c2, "p2"));
    let (e3, e4) = (entry(b, &c3, "p3"), entry(b, &c4, "p4"));
    // The first waits; a seeker of another game waits beside it.
    assert_eq!(a.seek(spec, &e1).await.expect("seek"), None);
    assert_eq!(a.seek(other_spec, &e2).await.expect("seek"), None);
    let mut counts = b.seek_counts().await.expect("counts");
    counts.sort();
    assert_eq!(counts, vec![(spec.into(), 1), (other_spec.into(), 1)]);
    // The next seeker of the same game, on either node, is paired with the first.
    assert_eq!(b.seek(spec, &e3).await.expect("seek"), Some(e1.clone()));
    assert_eq!(
        a.seek_counts().await.expect("counts"),
        vec![(other_spec.into(), 1)]
    );
    // A pairing that fails puts the seeker back, first in line.
    a.put_back(spec, &e1).await;
    assert_eq!(b.seek(spec, &e4).await.expect("seek"), Some(e1.clone()));
    // A player has one seek: seeking another game withdraws the first.
    let e2_again = SeekEntry {
        seek: "seek-p2-again".into(),
        ..e2.clone()
    };
    assert_eq!(a.seek(spec, &e2_again).await.expect("seek"), None);
    assert_eq!(
        b.seek_counts().await.expect("counts"),
        vec![(spec.into(), 1)]
    );
    // A withdrawn seek is gone.
    a.unseek(c2.id).await;
    assert_eq!(b.seek_counts().await.expect("counts"), Vec::new());
}

#[tokio::test]
async fn leases_in_this_process() {
    let alone = Coordination::alone();
    let dir = tempfile::tempdir().expect("tempdir");
    let _renewing = renewing(&alone, dir.path()).await;
    leases_are_held(&alone, None).await;
}

#[tokio::test]
async fn leases_in_redis_shared_by_two_nodes() {
    let redis = RedisServer::start();
    let (a, b) = (node(&redis, "A").await, node(&redis, "B").await);
    let dir = tempfile::tempdir().expect("tempdir");
    let _renewing = renewing(&a, dir.path()).await;
    leases_are_held(&a, Some(&b)).await;
}

#[tokio::test]
async fn the_pairing_book_in_this_process() {
    let alone = Coordination::alone();
    seekers_pair_in_order(&alone, &alone).await;
}

#[tokio::test]
async fn the_pairing_book_in_redis_shared_by_two_nodes() {
    let redis = RedisServer::start();
    let (a, b) = (node(&redis, "A").await, node(&redis, "B").await);
    seekers_pair_in_order(&a, &b).await;
}
