//! One connection of a load room: sends, and receives with a bound, until its room ends; any
//! failure is counted with its kind and ends the room, so that its other clients stop too.

use std::sync::Arc;
use std::time::Duration;

use game_core::protocol::{ClientMsg, ServerMsg};
use kibitz_bot::client::error::BotError;
use kibitz_bot::client::wire::{Connection, Hello, Received};

use super::failure::{self, Failure, Who};
use super::room::LoadRoom;
use super::tally::Tally;

/// Why a client stopped before its work was done.
#[derive(Debug)]
pub enum Halt {
    /// Its room ended (the run is over, or another client of the room failed).
    RoomEnded,
    /// It failed; the failure is counted and the room ended.
    Failed,
}

/// Opens a connection for a player or spectator named `name` and waits for its `welcome`;
/// a failure is counted.
pub async fn open(
    url: &str,
    name: &str,
    who: Who,
    tally: &Tally,
    wait: Duration,
) -> Option<Connection> {
    let hello = Hello::player(name);
    match tokio::time::timeout(wait, Connection::open_welcomed(url, &hello)).await {
        Ok(Ok((connection, _))) => {
            tally.connection_opened();
            Some(connection)
        }
        Ok(Err(e)) => {
            tally.connection_failed(failure::connect_failure(&e, who));
            None
        }
        Err(_) => {
            tally.connection_failed(Failure::timeout());
            None
        }
    }
}

/// A connection at work in a load room.
pub struct LoadClient {
    pub connection: Connection,
    pub who: Who,
    pub room: Arc<LoadRoom>,
    pub tally: Arc<Tally>,
    /// The longest wait for the next message.
    pub wait: Duration,
}

impl LoadClient {
    /// Counts the failure and ends the room.
    pub fn fail(&self, failure: Failure) -> Halt {
        self.tally.failure(failure);
        self.room.end();
        Halt::Failed
    }

    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), Halt> {
        match self.connection.send(msg).await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.fail(self.socket_failure(&e))),
        }
    }

    /// The next message; an `error` from the server is a failure.
    pub async fn next(&mut self) -> Result<Received, Halt> {
        let received = tokio::select! {
            biased;
            received = tokio::time::timeout(self.wait, self.connection.recv()) => received,
            () = self.room.ended() => return Err(Halt::RoomEnded),
        };
        match received {
            Ok(Ok(Some(received))) => match &received.msg {
                ServerMsg::Error { code, message, .. } => {
                    Err(self.fail(failure::refusal(*code, message, self.who)))
                }
                _ => Ok(received),
            },
            Ok(Ok(None)) => Err(self.fail(failure::closed(self.connection.closed_with()))),
            Ok(Err(e)) => Err(self.fail(self.socket_failure(&e))),
            Err(_) => Err(self.fail(Failure::timeout())),
        }
    }

    /// The next message that `wanted` accepts, the others skipped.
    pub async fn expect(&mut self, wanted: impl Fn(&ServerMsg) -> bool) -> Result<Received, Halt> {
        loop {
            let received = self.next().await?;
            if wanted(&received.msg) {
                return Ok(received);
            }
        }
    }

    fn socket_failure(&self, error: &BotError) -> Failure {
        match error {
            BotError::Unreadable { .. } => Failure {
                kind: "unreadable".into(),
                hint: None,
            },
            _ => failure::closed(self.connection.closed_with()),
        }
    }
}
