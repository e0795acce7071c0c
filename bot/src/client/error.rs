//! What can go wrong for the bot crate — its protocol client and the data files its engines
//! read: the one error enum of its causes.

use game_core::protocol::ErrorCode;
use tokio_tungstenite::tungstenite;

/// Why a connection to a Kibitz server failed, or a message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The WebSocket could not be opened.
    #[error("cannot connect to {url}: {source}")]
    Connect {
        url: String,
        #[source]
        source: Box<tungstenite::Error>,
    },
    /// The open connection failed while sending or receiving.
    #[error("connection failed: {0}")]
    Socket(#[source] Box<tungstenite::Error>),
    /// The server closed the connection while an answer was awaited.
    #[error("the server closed the connection")]
    Closed,
    /// A frame that is not a server message of this protocol; the connection stays usable.
    #[error("unreadable server message {text:?}: {source}")]
    Unreadable {
        text: String,
        #[source]
        source: serde_json::Error,
    },
    /// The server answered with an error where a `welcome` was awaited.
    #[error("the server refused: {code:?}: {message}")]
    Refused { code: ErrorCode, message: String },
    /// An Othello weights file that cannot be used: damaged, or made for other patterns.
    #[error("unusable Othello weights: {reason}")]
    Weights { reason: String },
}

impl From<tungstenite::Error> for BotError {
    fn from(e: tungstenite::Error) -> BotError {
        BotError::Socket(Box::new(e))
    }
}
