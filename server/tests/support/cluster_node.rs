//! A node of a cluster on a test's own Redis, for the coordination's contract suites.

use std::time::Duration;

use kibitz_server::cluster::{Cluster, ClusterSettings};
use kibitz_server::metrics::Metrics;

use kibitz_test_harness::redis::{ca_file, RedisServer};

/// A node of a cluster on `redis`, named `id`, with leases of 5 s.
pub async fn cluster_node(redis: &RedisServer, id: &str) -> Cluster {
    let settings = ClusterSettings {
        redis_url: redis.url(),
        redis_ca: Some(ca_file()),
        node_id: id.to_string(),
        lease: Duration::from_secs(5),
    };
    let (cluster, _inbox) = Cluster::open(&settings, Metrics::new())
        .await
        .expect("join the cluster");
    cluster
}
