//! The protocol's WebSocket client of the bot crate (`kibitz_bot::client::wire`) against a real
//! server: welcome and resume by token, a refused hello, messages both ways with their
//! arrival time, a frame that is not a server message, and the server's close.

use std::time::Instant;

use crate::support::*;
use futures::{SinkExt, StreamExt};
use game_core::protocol::{BotHello, ClientMsg, ErrorCode, SeatChoice, ServerMsg};
use game_core::{GameKind, GameSpec};
use kibitz_bot::client::error::BotError;
use kibitz_bot::client::wire::{Connection, Hello};

#[tokio::test]
async fn welcomes_resumes_by_token_and_refuses_a_stale_one() {
    let server = TestServer::start().await;
    let (_first, welcome) = within(
        "the welcome",
        Connection::open_welcomed(&server.url(), &Hello::player("Ann")),
    )
    .await
    .expect("welcomed");
    assert_eq!(welcome.name, "Ann");
    let again = Hello {
        token: Some(welcome.token.clone()),
        ..Hello::player("Ann")
    };
    let (_second, resumed) = within(
        "the resumed welcome",
        Connection::open_welcomed(&server.url(), &again),
    )
    .await
    .expect("resumed");
    assert_eq!(
        resumed.player, welcome.player,
        "the token resumes the identity"
    );

    let stale = Hello {
        token: Some("not-a-token".into()),
        ..Hello::player("Ann")
    };
    match within(
        "the refusal",
        Connection::open_welcomed(&server.url(), &stale),
    )
    .await
    {
        Err(BotError::Refused { code, .. }) => assert_eq!(code, ErrorCode::BadToken),
        other => panic!(
            "expected a bad_token refusal, got {other:?}",
            other = other.map(|(_, w)| w)
        ),
    }
    let bot = Hello {
        bot: Some(BotHello {
            key: "wrong-key".into(),
            games: vec![GameKind::Othello],
            capacity: 1,
            analysis: false,
        }),
        ..Hello::player("Fake")
    };
    let refused = within(
        "the bot refusal",
        Connection::open_welcomed(&server.url(), &bot),
    )
    .await;
    assert!(
        matches!(refused, Err(BotError::Refused { .. })),
        "{:?}",
        refused.map(|(_, w)| w)
    );
}

#[tokio::test]
async fn sends_and_receives_messages_stamped_on_arrival_until_the_server_closes() {
    let server = TestServer::start().await;
    let (mut connection, _) = Connection::open_welcomed(&server.url(), &Hello::player("Bo"))
        .await
        .expect("welcomed");
    let sent = Instant::now();
    connection
        .send(&ClientMsg::Create {
            rated: false,
            game: GameSpec::Othello,
            seat: SeatChoice::Black,
            clock: None,
            opening: Vec::new(),
            bots: None,
            private: true,
        })
        .await
        .expect("sent");
    let created = loop {
        let received = within("an answer", connection.recv())
            .await
            .expect("readable")
            .expect("open");
        if let ServerMsg::Created { room } = received.msg {
            assert!(received.at >= sent, "stamped when it arrived");
            break room;
        }
    };
    assert!(!created.is_empty());

    server.stop().await;
    let closed = within("the close", async {
        loop {
            match connection.recv().await {
                Ok(Some(_)) => continue,
                other => return other.map(|r| r.map(|r| r.msg)),
            }
        }
    })
    .await;
    assert!(matches!(closed, Ok(None)), "a clean close: {closed:?}");
    assert_eq!(
        connection.closed_with(),
        Some((1001, "server shutting down")),
        "the close frame is kept"
    );
}

/// A server that is not Kibitz: it reads the hello, sends a frame no Kibitz server sends,
/// then a `welcome`.
#[tokio::test]
async fn an_unreadable_frame_is_an_error_the_connection_survives() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let peer = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        let hello = ws.next().await.unwrap().unwrap();
        assert!(
            hello.to_text().unwrap().contains(r#""t":"hello""#),
            "{hello:?}"
        );
        for text in [
            r#"{"t":"no_such_message"}"#,
            r#"{"t":"welcome","player":"p9","name":"Cy","token":"tk","protocol":1}"#,
        ] {
            ws.send(tokio_tungstenite::tungstenite::Message::Text(text.into()))
                .await
                .unwrap();
        }
        // Keep the socket open until the client has read both.
        let _ = ws.next().await;
    });
    let mut connection = Connection::open(&url, &Hello::player("Cy"))
        .await
        .expect("open");
    match within("the odd frame", connection.recv()).await {
        Err(BotError::Unreadable { text, .. }) => assert!(text.contains("no_such_message")),
        other => panic!(
            "expected an unreadable frame, got {:?}",
            other.map(|r| r.map(|r| r.msg))
        ),
    }
    let next = within("the welcome", connection.recv())
        .await
        .expect("readable");
    assert!(matches!(
        next.map(|r| r.msg),
        Some(ServerMsg::Welcome { .. })
    ));
    drop(connection);
    within("the peer to finish", peer).await.unwrap();
}
