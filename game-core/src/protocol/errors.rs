//! Errors on the wire: the `code` of an `error` reply, and the one parser of client messages,
//! which turns anything unexpected into a reply rather than a closed connection.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use super::{ClientMsg, ServerMsg, CLIENT_TYPES};

/// The `code` of an `error` reply: exactly the codes of the contract.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    BadJson,
    UnknownType,
    BadRequest,
    HelloRequired,
    BadToken,
    BadBotKey,
    NoSuchRoom,
    RoomFull,
    NotAPlayer,
    NotYourTurn,
    IllegalMove,
    Forbidden,
    GameOver,
    NoBotAvailable,
    BadGame,
    RateLimited,
    TooLong,
    NameTaken,
    AccountNeeded,
    /// A moderator's sanction stops this (a mute, a ban); the message says which, why and
    /// until when.
    Sanctioned,
}

impl ErrorCode {
    /// Every code, in the order of the contract.
    pub const ALL: [ErrorCode; 20] = [
        ErrorCode::BadJson,
        ErrorCode::UnknownType,
        ErrorCode::BadRequest,
        ErrorCode::HelloRequired,
        ErrorCode::BadToken,
        ErrorCode::BadBotKey,
        ErrorCode::NoSuchRoom,
        ErrorCode::RoomFull,
        ErrorCode::NotAPlayer,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::Forbidden,
        ErrorCode::GameOver,
        ErrorCode::NoBotAvailable,
        ErrorCode::BadGame,
        ErrorCode::RateLimited,
        ErrorCode::TooLong,
        ErrorCode::NameTaken,
        ErrorCode::AccountNeeded,
        ErrorCode::Sanctioned,
    ];

    /// The wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::BadRequest => "bad_request",
            ErrorCode::HelloRequired => "hello_required",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::BadBotKey => "bad_bot_key",
            ErrorCode::NoSuchRoom => "no_such_room",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NoBotAvailable => "no_bot_available",
            ErrorCode::BadGame => "bad_game",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::TooLong => "too_long",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::AccountNeeded => "account_needed",
            ErrorCode::Sanctioned => "sanctioned",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A client frame that is not a valid [`ClientMsg`], with what could still be read of it so
/// the `error` reply can point at the request.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{code}: {message}")]
pub struct ParseError {
    /// `bad_json`, `unknown_type` or `bad_request`.
    pub code: ErrorCode,
    /// A short human explanation.
    pub message: String,
    /// The `t` of the frame, when it was a string.
    pub reference: Option<String>,
    /// The `room` of the frame, when it was a string.
    pub room: Option<String>,
    /// The `id` of the frame, when it was a string.
    pub id: Option<String>,
}

impl ParseError {
    /// The `error` reply to send back.
    #[must_use]
    pub fn to_server_msg(&self) -> ServerMsg {
        ServerMsg::Error {
            code: self.code,
            message: self.message.clone(),
            reference: self.reference.clone(),
            room: self.room.clone(),
            id: self.id.clone(),
        }
    }
}

/// Longest human message built from serde's text or from echoed input, so a huge frame does
/// not come back as a huge error.
const MAX_MESSAGE_CHARS: usize = 160;

fn short(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE_CHARS {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
        s.push('…');
        s
    }
}

/// The one entry point for client frames.
///
/// - Not JSON, or JSON that is not an object (`[1]`, `"x"`, `3`, `null`): `bad_json`, since a
///   frame must be one JSON object.
/// - No `t`, a `t` that is not a string, or an unknown `t`: `unknown_type`.
/// - A known `t` with a missing field or a value of the wrong type or range: `bad_request`.
///
/// Unknown fields are ignored (except inside `create.bots`, whose keys must be seats).
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let fail = |code, message: String| ParseError {
        code,
        message,
        reference: None,
        room: None,
        id: None,
    };
    // Nearly every frame is well formed: read it straight into its message, and only when that
    // fails go through a JSON value to say what is wrong (and echo its room and id).
    if let Ok(msg) = serde_json::from_str::<ClientMsg>(text) {
        return Ok(msg);
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| fail(ErrorCode::BadJson, short(&format!("invalid JSON: {e}"))))?;
    let Value::Object(ref object) = value else {
        return Err(fail(
            ErrorCode::BadJson,
            "a frame must be one JSON object".to_string(),
        ));
    };
    let string_field = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_string);
    let mut error = fail(ErrorCode::UnknownType, String::new());
    error.room = string_field("room");
    error.id = string_field("id");
    let Some(t) = object.get("t") else {
        error.message = "missing message type \"t\"".to_string();
        return Err(error);
    };
    let Some(t) = t.as_str() else {
        error.message = "message type \"t\" must be a string".to_string();
        return Err(error);
    };
    if !CLIENT_TYPES.contains(&t) {
        // Echo only a bounded prefix of a type we do not know: it can be any string.
        error.reference = Some(t.chars().take(32).collect());
        error.message = short(&format!("unknown message type {t:?}"));
        return Err(error);
    }
    let t = t.to_string();
    error.reference = Some(t.clone());
    serde_json::from_value(value).map_err(|e| {
        error.code = ErrorCode::BadRequest;
        error.message = short(&format!("bad {t}: {e}"));
        error
    })
}
