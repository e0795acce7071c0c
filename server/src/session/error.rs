//! Why a session refuses a message before any room sees it.

use game_core::protocol::ErrorCode;
use thiserror::Error;

use crate::refusal::Refusal;

/// A refused message of the connection itself: frames, rate, identity.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SessionError {
    #[error("say hello first")]
    HelloRequired,
    #[error("already said hello on this connection")]
    AlreadyHello,
    #[error("binary frames are not accepted; send JSON text")]
    BinaryFrame,
    #[error("too many messages; slow down")]
    RateLimited,
    #[error("a name is 1 to {0} printable characters")]
    BadName(usize),
    #[error("wrong bot key")]
    BadBotKey,
    #[error("a bot names its games and a capacity of 1..={0}")]
    BadBotHello(u32),
    #[error("unknown token")]
    BadToken,
    #[error("could not store the player")]
    PlayerNotStored,
}

impl Refusal for SessionError {
    fn code(&self) -> ErrorCode {
        match self {
            SessionError::HelloRequired => ErrorCode::HelloRequired,
            SessionError::RateLimited => ErrorCode::RateLimited,
            SessionError::BadBotKey => ErrorCode::BadBotKey,
            SessionError::BadToken => ErrorCode::BadToken,
            SessionError::AlreadyHello
            | SessionError::BinaryFrame
            | SessionError::BadName(_)
            | SessionError::BadBotHello(_)
            | SessionError::PlayerNotStored => ErrorCode::BadRequest,
        }
    }
}
