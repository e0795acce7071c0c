//! The WebSocket client of the Kibitz protocol, shared by every program that talks to a
//! server as a client: the bot, the showcase of `kibitz up` and the load generator.
//!
//! A [`Connection`] opens `ws://…/ws`, says `hello` ([`Hello`]: a name, the token that
//! resumes an identity, a bot's key), sends [`ClientMsg`]s and receives [`ServerMsg`]s, each
//! parsed once by `game_core::protocol::parse_server` and stamped with the time its frame
//! arrived. The server's pings are answered by the socket itself while the connection is
//! read (the pong goes out with the next read or write), so a client only has to keep
//! reading. On the hot path — the load generator times moves with it — a message costs its
//! serialisation or its parse and nothing more.

use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use game_core::protocol::{parse_server, BotHello, ClientMsg, HouseHello, ServerMsg};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::client::error::BotError;

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Who a client says it is in `hello`.
#[derive(Clone, Debug)]
pub struct Hello {
    pub name: String,
    /// The token of an earlier `welcome`, to come back as the same player.
    pub token: Option<String>,
    /// A bot's key, games and capacity; `None` for a person.
    pub bot: Option<BotHello>,
    /// The server's key, for the server's own clients (the showcase), which rooms do not
    /// count as spectators; `None` for everyone else.
    pub house: Option<HouseHello>,
}

impl Hello {
    /// A new player with this name.
    #[must_use]
    pub fn player(name: impl Into<String>) -> Hello {
        Hello {
            name: name.into(),
            token: None,
            bot: None,
            house: None,
        }
    }

    /// A client of the server itself (the showcase), proved by the server's bot `key`.
    #[must_use]
    pub fn house(name: impl Into<String>, key: impl Into<String>) -> Hello {
        Hello {
            house: Some(HouseHello { key: key.into() }),
            ..Hello::player(name)
        }
    }

    /// The `hello` message.
    #[must_use]
    pub fn message(&self) -> ClientMsg {
        ClientMsg::Hello {
            name: self.name.clone(),
            token: self.token.clone(),
            bot: self.bot.clone(),
            house: self.house.clone(),
        }
    }
}

/// What the server's `welcome` said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    /// The player id.
    pub player: String,
    pub name: String,
    /// The secret that resumes this identity in a later `hello`.
    pub token: String,
}

impl Welcome {
    /// The `welcome` in `msg`, if it is one.
    #[must_use]
    pub fn of(msg: &ServerMsg) -> Option<Welcome> {
        match msg {
            ServerMsg::Welcome {
                player,
                name,
                token,
                ..
            } => Some(Welcome {
                player: player.clone(),
                name: name.clone(),
                token: token.clone(),
            }),
            _ => None,
        }
    }
}

/// A message from the server and the moment its frame was read, before it was parsed.
#[derive(Debug)]
pub struct Received {
    pub msg: ServerMsg,
    pub at: Instant,
}

/// One open connection to a Kibitz server.
pub struct Connection {
    socket: Socket,
    /// The code and reason of the close frame the server sent, once one came.
    closed_with: Option<(u16, String)>,
}

impl Connection {
    /// Opens the WebSocket at `url` (`ws://host:port/ws`) and says `hello`. Every message
    /// the server sends, `welcome` first, comes through [`Connection::recv`].
    pub async fn open(url: &str, hello: &Hello) -> Result<Connection, BotError> {
        // Small frames that should leave at once: no Nagle delay. Small buffers: a bot or a
        // load generator holds many connections, and the transport's default read buffer
        // (128 KiB, zeroed on every read) would cost each of them far more than its frames.
        let config = WebSocketConfig::default()
            .read_buffer_size(4 * 1024)
            .write_buffer_size(4 * 1024);
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .map_err(|e| BotError::Connect {
                url: url.to_string(),
                source: Box::new(e),
            })?;
        let mut connection = Connection {
            socket,
            closed_with: None,
        };
        connection.send(&hello.message()).await?;
        Ok(connection)
    }

    /// [`Connection::open`], then waits for the `welcome`; an `error` instead is
    /// [`BotError::Refused`].
    pub async fn open_welcomed(
        url: &str,
        hello: &Hello,
    ) -> Result<(Connection, Welcome), BotError> {
        let mut connection = Connection::open(url, hello).await?;
        loop {
            let Some(received) = connection.recv().await? else {
                return Err(BotError::Closed);
            };
            if let ServerMsg::Error { code, message, .. } = received.msg {
                return Err(BotError::Refused { code, message });
            }
            if let Some(welcome) = Welcome::of(&received.msg) {
                return Ok((connection, welcome));
            }
        }
    }

    /// Sends one message (and flushes it).
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), BotError> {
        self.socket
            .send(Message::Text(msg.to_json().into()))
            .await?;
        Ok(())
    }

    /// The code and reason of the server's close frame, after [`Connection::recv`] returned
    /// `None` for it (`None` when the connection ended without one).
    #[must_use]
    pub fn closed_with(&self) -> Option<(u16, &str)> {
        self.closed_with
            .as_ref()
            .map(|(code, reason)| (*code, reason.as_str()))
    }

    /// The next message from the server; `None` once the server has closed the connection.
    /// A frame that does not parse is [`BotError::Unreadable`], after which the connection
    /// can still be read. Cancel-safe: a `select!` that drops this future loses no message.
    pub async fn recv(&mut self) -> Result<Option<Received>, BotError> {
        loop {
            let text = match self.socket.next().await {
                Some(Ok(Message::Close(frame))) => {
                    self.closed_with = frame.map(|f| (u16::from(f.code), f.reason.to_string()));
                    return Ok(None);
                }
                None => return Ok(None),
                Some(Err(e)) => return Err(e.into()),
                Some(Ok(Message::Text(text))) => text,
                // Pings are answered by the socket; nothing else is part of the protocol.
                Some(Ok(_)) => continue,
            };
            let at = Instant::now();
            return match parse_server(&text) {
                Ok(msg) => Ok(Some(Received { msg, at })),
                Err(source) => Err(BotError::Unreadable {
                    text: text.to_string(),
                    source,
                }),
            };
        }
    }
}

/// Pauses between attempts to reconnect: doubling from the first up to a ceiling, each with
/// up to the first pause of jitter, so that many clients do not all come back at once.
#[derive(Clone, Debug)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    #[must_use]
    pub fn new(first: Duration, max: Duration) -> Backoff {
        Backoff {
            first,
            max,
            next: first,
        }
    }

    /// Starts again from the first pause (the server was there: it is likely back soon).
    pub fn reset(&mut self) {
        self.next = self.first;
    }

    /// The pause before the next attempt; the one after it is twice as long.
    pub fn next_pause(&mut self) -> Duration {
        let jitter_ms = rand::random::<u64>() % self.first.as_millis().max(1) as u64;
        let pause = self.next + Duration::from_millis(jitter_ms);
        self.next = (self.next * 2).min(self.max);
        pause
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_ceiling_and_resets() {
        let first = Duration::from_millis(250);
        let mut backoff = Backoff::new(first, Duration::from_secs(1));
        let pauses: Vec<Duration> = (0..4).map(|_| backoff.next_pause()).collect();
        for (pause, base) in pauses.iter().zip([250, 500, 1000, 1000]) {
            let base = Duration::from_millis(base);
            assert!(*pause >= base && *pause < base + first, "{pause:?}");
        }
        backoff.reset();
        assert!(backoff.next_pause() < first * 2);
    }

    #[test]
    fn hello_and_welcome_read_the_protocol_messages() {
        let hello = Hello::player("Ann").message();
        assert!(hello.to_json().contains(r#""name":"Ann""#), "{hello:?}");
        let welcome = parse_server(
            r#"{"t":"welcome","player":"p1","name":"Ann","token":"s3cret","protocol":1}"#,
        )
        .unwrap();
        assert_eq!(
            Welcome::of(&welcome),
            Some(Welcome {
                player: "p1".into(),
                name: "Ann".into(),
                token: "s3cret".into()
            })
        );
    }
}
