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
    #[error(
        "too many new players from your address (at most {0} per {1} s); say hello with your token"
    )]
    TooManyNewPlayers(u32, u64),
    #[error("could not store the player")]
    PlayerNotStored,
    #[error("the hall could not count new players just now; try again")]
    NewPlayersUncounted,
    #[error("that name belongs to an account: sign in, or choose another name")]
    NameTaken,
    #[error("that name looks like an account's name: choose another name")]
    NameLooksTaken,
    #[error("{0}")]
    Sanctioned(crate::moderation::in_force::Sanctioned),
}

impl Refusal for SessionError {
    fn code(&self) -> ErrorCode {
        match self {
            SessionError::HelloRequired => ErrorCode::HelloRequired,
            SessionError::RateLimited | SessionError::TooManyNewPlayers(..) => {
                ErrorCode::RateLimited
            }
            SessionError::BadBotKey => ErrorCode::BadBotKey,
            SessionError::BadToken => ErrorCode::BadToken,
            SessionError::NameTaken | SessionError::NameLooksTaken => ErrorCode::NameTaken,
            SessionError::Sanctioned(_) => ErrorCode::Sanctioned,
            SessionError::AlreadyHello
            | SessionError::BinaryFrame
            | SessionError::BadName(_)
            | SessionError::BadBotHello(_)
            | SessionError::PlayerNotStored
            | SessionError::NewPlayersUncounted => ErrorCode::BadRequest,
        }
    }
}
