//! What went wrong for a client of the load generator, named by a short kind (the server's
//! error code where there is one) and, where a server limit is the cause, the flag to raise.

use game_core::protocol::ErrorCode;
use kibitz_bot::client::error::BotError;
use tokio_tungstenite::tungstenite;

/// Which of the generator's clients met the failure: each role has its own message rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Who {
    Player,
    Spectator,
    /// An idle connection of `--conns`.
    Idle,
}

/// One failure: its kind (a key of the report's `errors`) and a hint for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: String,
    pub hint: Option<&'static str>,
}

impl Failure {
    fn new(kind: impl Into<String>, hint: Option<&'static str>) -> Failure {
        Failure {
            kind: kind.into(),
            hint,
        }
    }

    /// No answer came in time.
    #[must_use]
    pub fn timeout() -> Failure {
        Failure::new(
            "timeout",
            Some("the server did not answer in time: it is overloaded, or a message was lost; run fewer rooms"),
        )
    }
}

const CONNECTIONS_HINT: &str =
    "the server answered HTTP 429 (too many connections from one address): \
     start it with a higher --connections-per-address (KIBITZ_CONNECTIONS_PER_ADDRESS) than the \
     run's connections";
const PLAYER_RATE_HINT: &str =
    "players were refused as over the message rate (rate_limited): start \
     the server with a higher --player-messages (KIBITZ_PLAYER_MESSAGES); a player sends one move \
     every two think times";
const SPECTATOR_RATE_HINT: &str =
    "spectators were refused as over the message rate (rate_limited): \
     start the server with a higher --spectator-messages (KIBITZ_SPECTATOR_MESSAGES)";
const OPEN_FILES_HINT: &str = "too many open files: raise the open-file limit (ulimit -n) of the \
     generator and of the server";
const TOO_SLOW_HINT: &str =
    "the server closed connections that fell behind (1008, too slow to keep \
     up): the generator could not read as fast as the server wrote; raise --outgoing-queue or run \
     fewer rooms";
const REFUSALS_HINT: &str =
    "the server closed connections after too many refused messages (1008): \
     raise the limit behind the refusals, or --max-refusals";
const IDLE_HINT: &str = "the server closed connections as idle (1008): raise --idle-secs";

/// A connection that could not be opened or was refused its `welcome`.
#[must_use]
pub fn connect_failure(error: &BotError, who: Who) -> Failure {
    match error {
        BotError::Connect { source, .. } => match source.as_ref() {
            tungstenite::Error::Http(response) if response.status().as_u16() == 429 => {
                Failure::new("http_429", Some(CONNECTIONS_HINT))
            }
            tungstenite::Error::Http(response) => {
                Failure::new(format!("http_{}", response.status().as_u16()), None)
            }
            tungstenite::Error::Io(io) if io.raw_os_error() == Some(24) => {
                Failure::new("too_many_open_files", Some(OPEN_FILES_HINT))
            }
            _ => Failure::new("connect_failed", None),
        },
        BotError::Refused { code, message } => refusal(*code, message, who),
        BotError::Closed => Failure::new("closed", None),
        BotError::Socket(_) => Failure::new("socket", None),
        BotError::Unreadable { .. } => Failure::new("unreadable", None),
        // Not a connection's error; listed so that the match stays exhaustive.
        BotError::Weights { .. } => Failure::new("other", None),
    }
}

/// An `error` from the server, with its `message`. Only a refusal over the message rate names
/// the message-rate flag: other limits (chat, new players, open rooms, reviews) also answer
/// `rate_limited`, and their message says which.
#[must_use]
pub fn refusal(code: ErrorCode, message: &str, who: Who) -> Failure {
    // The server's own words for a connection over its message rate.
    let over_rate = code == ErrorCode::RateLimited
        && message == kibitz_server::session::error::SessionError::RateLimited.to_string();
    let hint = match who {
        _ if !over_rate => None,
        Who::Spectator => Some(SPECTATOR_RATE_HINT),
        Who::Player | Who::Idle => Some(PLAYER_RATE_HINT),
    };
    Failure::new(code.as_str(), hint)
}

/// The server closed the connection (with the code and reason of its close frame, if any).
#[must_use]
pub fn closed(frame: Option<(u16, &str)>) -> Failure {
    match frame {
        None => Failure::new("closed", None),
        Some((1008, reason)) if reason.contains("too slow") => {
            Failure::new("closed_1008_too_slow", Some(TOO_SLOW_HINT))
        }
        Some((1008, reason)) if reason.contains("refused") => {
            Failure::new("closed_1008_refusals", Some(REFUSALS_HINT))
        }
        Some((1008, reason)) if reason.contains("idle") => {
            Failure::new("closed_1008_idle", Some(IDLE_HINT))
        }
        Some((code, _)) => Failure::new(format!("closed_{code}"), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_limits_and_closes_name_the_flag_to_raise() {
        let over = &kibitz_server::session::error::SessionError::RateLimited.to_string();
        let player = refusal(ErrorCode::RateLimited, over, Who::Player);
        assert_eq!(player.kind, "rate_limited");
        assert!(player.hint.unwrap().contains("--player-messages"));
        let spectator = refusal(ErrorCode::RateLimited, over, Who::Spectator);
        assert!(spectator.hint.unwrap().contains("--spectator-messages"));
        // Another limit's refusal does not send the operator to the message rate.
        let chat = refusal(ErrorCode::RateLimited, "chat is limited; wait", Who::Player);
        assert_eq!((chat.kind.as_str(), chat.hint), ("rate_limited", None));
        assert_eq!(
            refusal(ErrorCode::IllegalMove, "illegal", Who::Player).hint,
            None
        );
        let slow = closed(Some((1008, "too slow to keep up")));
        assert!(slow.hint.unwrap().contains("--outgoing-queue"));
        assert_eq!(
            closed(Some((1001, "server shutting down"))).kind,
            "closed_1001"
        );
    }
}
