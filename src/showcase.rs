//! The showcase: a client inside `kibitz up` that keeps a bot-vs-bot game running, so that
//! a newcomer who opens the page sees a live game at once. When a game ends it starts the
//! next, alternating Gomoku, Othello and Connect Four. It says `hello` as a house client (with
//! the server's bot key), so the rooms it watches do not count it as a spectator.

use std::time::Duration;

use game_core::protocol::{
    BotSeats, ClientMsg, ClockSpec, ErrorCode, ResultKind, RoomStatus, SeatChoice, ServerMsg,
};
use game_core::{GameSpec, GomokuRule};
use kibitz_bot::client::error::BotError;
use kibitz_bot::client::wire::{Connection, Hello};

/// The games the showcase cycles through.
fn games() -> [GameSpec; 3] {
    [
        GameSpec::gomoku(15, GomokuRule::Freestyle),
        GameSpec::Othello,
        GameSpec::connect4(7, 6),
    ]
}

/// Level of both showcase bots: strong, but quick enough to watch.
const LEVEL: u8 = 7;

/// Runs the showcase against `url`, whose bot key is `key`, until the task is dropped;
/// reconnects on errors.
pub async fn run(url: String, key: String) {
    let mut next = 0usize;
    loop {
        if let Err(e) = session(&url, &key, &mut next).await {
            tracing::debug!(error = %e, "showcase connection ended");
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

async fn session(url: &str, key: &str, next: &mut usize) -> Result<(), BotError> {
    let mut connection = Connection::open(url, &Hello::house("Showcase", key)).await?;
    let mut create_at = Some(tokio::time::Instant::now() + Duration::from_secs(1));
    let mut current: Option<String> = None;
    loop {
        let wait = async {
            match create_at {
                Some(t) => tokio::time::sleep_until(t).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            () = wait => {
                create_at = None;
                let game = games()[*next % 3].clone();
                *next += 1;
                connection.send(&ClientMsg::Create {
                    game,
                    seat: SeatChoice::None,
                    clock: Some(ClockSpec::PerMove { move_ms: 4_000 }),
                    opening: Vec::new(),
                    bots: Some(BotSeats { black: Some(LEVEL), white: Some(LEVEL) }),
                    private: false,
                    rated: false,
                }).await?;
            }
            received = connection.recv() => {
                let msg = match received {
                    Ok(Some(received)) => received.msg,
                    Ok(None) => return Ok(()),
                    Err(BotError::Unreadable { .. }) => continue,
                    Err(e) => return Err(e),
                };
                match msg {
                    ServerMsg::Created { room } => {
                        tracing::info!(%room, "showcase game created");
                        current = Some(room);
                    }
                    ServerMsg::Over { room, result, .. }
                        if current.as_deref() == Some(room.as_str()) =>
                    {
                        // Let the audience see the end, then start the next game; an aborted
                        // game (a bot that never moved) has no end to see.
                        connection.send(&ClientMsg::Leave { room }).await?;
                        current = None;
                        let pause = if result.result == ResultKind::Aborted { 2 } else { 6 };
                        create_at = Some(tokio::time::Instant::now() + Duration::from_secs(pause));
                    }
                    ServerMsg::State(s) if current.as_deref() == Some(s.room.as_str())
                        && s.status == RoomStatus::Over =>
                    {
                        connection.send(&ClientMsg::Leave { room: s.room }).await?;
                        current = None;
                        create_at = Some(tokio::time::Instant::now() + Duration::from_secs(2));
                    }
                    ServerMsg::Error { code, .. } => {
                        tracing::debug!(?code, "showcase refused");
                        // No bot free yet (they are still starting): give the room up and
                        // try again soon.
                        if code == ErrorCode::NoBotAvailable {
                            if let Some(room) = current.take() {
                                connection.send(&ClientMsg::Leave { room }).await?;
                            }
                        }
                        if current.is_none() && create_at.is_none() {
                            create_at = Some(tokio::time::Instant::now() + Duration::from_secs(2));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
}
