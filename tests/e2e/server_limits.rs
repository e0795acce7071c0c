//! Limits set in the server's config, over real sockets: connections per address (HTTP 429 at
//! the upgrade, the place given back when a connection ends), counted by the client's address
//! that a trusted proxy names (and nobody else), a frame size other than the default, and a
//! bot's own message rate beside a player's; and every limit's flag and variable in the
//! operators' table.

use crate::support::*;
use futures::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::{self, Message};

/// Sends `n` joins of an unknown room and collects the error code of each answer.
async fn codes_of_unknown_joins(c: &mut Client, n: usize) -> Vec<String> {
    for _ in 0..n {
        c.send(json!({"t":"join","room":"nowhere","as":"spectator"}))
            .await;
    }
    let mut codes = Vec::new();
    while codes.len() < n {
        codes.push(c.expect_error().await);
    }
    codes
}

#[tokio::test]
async fn connections_past_the_limit_per_address_get_429_until_one_closes() {
    let server = TestServer::start_with(|c| c.limits.connections_per_address = 2).await;
    let a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let refused = match tokio_tungstenite::connect_async(server.url()).await {
        Err(tungstenite::Error::Http(response)) => response,
        Err(e) => panic!("expected HTTP 429, got {e}"),
        Ok(_) => panic!("a third connection from one address was accepted"),
    };
    assert_eq!(refused.status().as_u16(), 429);
    let body = String::from_utf8_lossy(refused.body().as_deref().unwrap_or_default()).to_string();
    assert!(body.contains("too many connections"), "{body}");
    assert!(body.contains("at most 2"), "{body}");
    let metrics = server.metrics().await;
    assert!(
        metrics.contains("kibitz_connections_refused_total 1"),
        "{metrics}"
    );

    // The connections already open are not affected.
    b.send(json!({"t":"lobby"})).await;
    b.expect("lobby").await;

    // Once a connection has ended, its place is free again.
    a.close().await;
    let ws = within("a place to be given back", async {
        loop {
            match tokio_tungstenite::connect_async(server.url()).await {
                Ok((ws, _)) => break ws,
                Err(tungstenite::Error::Http(r)) if r.status().as_u16() == 429 => {
                    tokio::task::yield_now().await;
                }
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await;
    let mut c = Client {
        ws,
        player: String::new(),
        token: String::new(),
        backlog: Vec::new(),
    };
    let welcome = c.hello("Carol").await;
    assert_eq!(welcome["name"], "Carol");
}

/// Opens a WebSocket to `server` with the `header` a reverse proxy would add; the status of a
/// refusal, or 101.
async fn upgrade_with(server: &TestServer, header: (&'static str, &str)) -> (u16, Option<Client>) {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = server.url().into_client_request().unwrap();
    request
        .headers_mut()
        .insert(header.0, header.1.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => (
            101,
            Some(Client {
                ws,
                player: String::new(),
                token: String::new(),
                backlog: Vec::new(),
            }),
        ),
        Err(tungstenite::Error::Http(response)) => (response.status().as_u16(), None),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_trusted_proxy_names_the_client_that_the_limits_count_and_nobody_else_does() {
    // Behind a proxy on this host: one connection per client.
    let server = TestServer::start_with(|c| {
        c.limits.connections_per_address = 1;
        c.limits.trusted_proxies =
            kibitz_server::config::ProxyNets(vec!["127.0.0.0/8".parse().unwrap()]);
    })
    .await;
    let xff = "X-Forwarded-For";
    let (status, first) = upgrade_with(&server, (xff, "203.0.113.7")).await;
    assert_eq!(status, 101);
    let (status, _) = upgrade_with(&server, (xff, "203.0.113.7")).await;
    assert_eq!(status, 429, "the same client again");
    let (status, other) = upgrade_with(&server, ("Forwarded", "for=\"198.51.100.9:4711\"")).await;
    assert_eq!(status, 101, "another client, by RFC 7239's header");
    // A client cannot dodge the limit by writing its own header in front of the proxy's.
    let (status, _) = upgrade_with(&server, (xff, "1.2.3.4, 203.0.113.7")).await;
    assert_eq!(status, 429);
    let mut first = first.unwrap();
    first.hello("Ann").await;
    drop(other);

    // Without trusted proxies the header is anyone's to write, and is not read.
    let plain = TestServer::start_with(|c| c.limits.connections_per_address = 1).await;
    let (status, _held) = upgrade_with(&plain, (xff, "203.0.113.7")).await;
    assert_eq!(status, 101);
    let (status, _) = upgrade_with(&plain, (xff, "203.0.113.8")).await;
    assert_eq!(status, 429, "both are 127.0.0.1's");
}

#[tokio::test]
async fn a_smaller_frame_limit_closes_with_1009_naming_it() {
    let server = TestServer::start_with(|c| c.limits.max_frame_bytes = 1000).await;
    let mut a = server.client("Alice").await;
    let pad = "x".repeat(1000 - 40);
    a.send_raw(&format!(r#"{{"t":"dance","pad":"{pad}"}}"#))
        .await;
    assert_eq!(a.expect_error().await, "unknown_type");
    a.send_raw(&"y".repeat(1001)).await;
    let reason = loop {
        match within("a close frame", a.ws.next()).await {
            Some(Ok(Message::Close(Some(frame)))) => {
                assert_eq!(u16::from(frame.code), 1009);
                break frame.reason.to_string();
            }
            Some(Ok(_)) => {}
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(reason, "frame larger than 1000 bytes");
}

#[tokio::test]
async fn bots_have_their_own_message_rate() {
    let server = TestServer::start_with(|c| {
        c.limits.player_msgs_per_window = 5;
        c.limits.spectator_msgs_per_window = 5;
        c.limits.bot_msgs_per_window = 40;
    })
    .await;
    let mut bot = server.bot("Kibot", &["gomoku"], 4).await;
    let codes = codes_of_unknown_joins(&mut bot, 30).await;
    assert!(codes.iter().all(|c| c == "no_such_room"), "{codes:?}");

    let mut person = server.client("Alice").await;
    let codes = codes_of_unknown_joins(&mut person, 10).await;
    let limited = codes.iter().filter(|c| *c == "rate_limited").count();
    // The hello took one of the five.
    assert_eq!(limited, 6, "{codes:?}");
}

/// Each limit is written once, in `kibitz_server::Limits` (flag, variable, default, help); the
/// operators' table must name every one of them.
#[test]
fn every_limit_is_in_the_operations_table() {
    use clap::Args;
    let command = kibitz_server::Limits::augment_args(clap::Command::new("limits"));
    let docs = include_str!("../../docs/operations.md");
    let mut missing = Vec::new();
    for arg in command.get_arguments() {
        let long = arg.get_long().expect("every limit has a flag");
        let env = arg.get_env().expect("every limit has a variable");
        for name in [
            format!("`--{long}`"),
            format!("`{}`", env.to_string_lossy()),
        ] {
            if !docs.contains(&name) {
                missing.push(name);
            }
        }
        assert!(
            arg.get_default_values().len() == 1,
            "--{long} has a default"
        );
    }
    assert!(command.get_arguments().count() >= 40);
    assert!(missing.is_empty(), "not in docs/operations.md: {missing:?}");
}
