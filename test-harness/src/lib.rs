//! The test harness shared by the server crate's tests and the end-to-end tests: real
//! servers for tests to run against, each started from Debian's binaries in a temporary
//! directory and gone with the test binary that started it.
//!
//! - [`postgres`]: a PostgreSQL server, a database per test, over checked TLS.
//! - [`redis`]: a Redis server that can be stopped and started again (an outage), over TLS.
//! - [`test_ca`]: a certificate authority of a test's own, for the TLS of both.

pub mod postgres;
pub mod redis;
pub mod test_ca;

/// A loopback port that was free a moment ago.
#[must_use]
pub fn free_port() -> u16 {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    probe.local_addr().expect("the probe's address").port()
}
