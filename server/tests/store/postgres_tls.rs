//! TLS to PostgreSQL (the test server speaks it with a test CA's certificate for 127.0.0.1,
//! and every other test of this suite connects with `sslmode=verify-full`): the store's
//! connections are encrypted; a certificate from another CA, or one for another host name
//! under `verify-full`, is refused with a clear error; `verify-ca` checks the chain alone and
//! `require` without a CA encrypts without checking, as libpq does.

use super::*;
use kibitz_test_harness::test_ca;

/// The database's name in a URL of the shared server.
fn name_of(url: &str) -> &str {
    let path = url.split('?').next().unwrap_or(url);
    path.rsplit('/').next().expect("a database name")
}

#[tokio::test]
async fn postgres_the_stores_connections_are_tls_checked_against_the_ca() {
    let pg = PgServer::shared();
    let url = pg.database();
    let store = open_postgres_with_room(&url, "r1", RoomStatus::Waiting).await;
    assert_eq!(read(&store, "r1").await.head.id, "r1");
    let connections = |ssl: bool| {
        pg.psql(
            &url,
            &format!(
                "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
                 WHERE a.datname = current_database() AND a.application_name LIKE 'kibitz%'
                 AND s.ssl = {ssl}"
            ),
        )
    };
    assert_ne!(connections(true), "0", "the store's connections use TLS");
    assert_eq!(connections(false), "0", "none of them is plain");
}

#[tokio::test]
async fn postgres_a_certificate_of_another_ca_or_host_is_refused() {
    let pg = PgServer::shared();
    let url = pg.database();
    let name = name_of(&url);
    let port = pg.port();
    let other = tempfile::tempdir().unwrap();
    let stranger = test_ca::make(other.path(), "other");
    let at =
        |host: &str, options: String| format!("postgres://postgres@{host}:{port}/{name}?{options}");
    let open = |url: String| async move { Store::open_postgres(&url, Metrics::new()).await };
    let ca = pg.ca_file().display().to_string();

    let e = open(at(
        "127.0.0.1",
        format!("sslmode=verify-full&sslrootcert={}", stranger.ca.display()),
    ))
    .await
    .err()
    .expect("another CA's trust refuses the server")
    .to_string();
    assert!(
        e.contains("cannot reach PostgreSQL") && e.contains("certificate"),
        "{e}"
    );
    // The certificate names 127.0.0.1, not localhost: the name is checked under verify-full.
    let e = open(at(
        "localhost",
        format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .await
    .err()
    .expect("a certificate for another name is refused")
    .to_string();
    assert!(e.contains("certificate"), "{e}");
    // verify-ca checks the chain alone; require without a CA checks nothing (but encrypts).
    open(at(
        "localhost",
        format!("sslmode=verify-ca&sslrootcert={ca}"),
    ))
    .await
    .expect("verify-ca takes the CA's certificate under any name");
    open(at("localhost", "sslmode=require".to_string()))
        .await
        .expect("require encrypts without checking");
    let e = open(at(
        "127.0.0.1",
        "sslmode=require&sslrootcert=/nowhere/ca.pem".to_string(),
    ))
    .await
    .err()
    .expect("a CA file that is not there is an error")
    .to_string();
    assert!(e.contains("sslrootcert /nowhere/ca.pem"), "{e}");
}
