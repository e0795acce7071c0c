//! How a refused request is answered. Every cause of refusal (`RoomError`, `SessionError`)
//! names its wire code; [`About::error`] turns one into the `error` message, echoing what the
//! client needs to match it to its request, and [`error_reply`] also counts it.

use std::fmt::Display;

use game_core::protocol::{ErrorCode, ServerMsg};

use crate::metrics::Metrics;

/// A cause of refusal: its message is its `Display`.
pub trait Refusal: Display {
    /// The `code` of the `error` reply.
    fn code(&self) -> ErrorCode;
}

/// What a refused request was: echoed in the `error` so the client can match it.
#[derive(Copy, Clone, Debug, Default)]
pub struct About<'a> {
    /// The `t` of the request.
    pub reference: Option<&'a str>,
    pub room: Option<&'a str>,
    /// The request id of a `move`.
    pub id: Option<&'a str>,
}

impl<'a> About<'a> {
    /// A request of type `reference` about `room`.
    #[must_use]
    pub fn room(reference: &'a str, room: &'a str) -> About<'a> {
        About {
            reference: Some(reference),
            room: Some(room),
            id: None,
        }
    }

    /// The same with the request id of a `move`.
    #[must_use]
    pub fn with_id(self, id: Option<&'a str>) -> About<'a> {
        About { id, ..self }
    }

    /// The `error` message for `why`.
    #[must_use]
    pub fn error(&self, why: &dyn Refusal) -> ServerMsg {
        ServerMsg::Error {
            code: why.code(),
            message: why.to_string(),
            reference: self.reference.map(str::to_string),
            room: self.room.map(str::to_string),
            id: self.id.map(str::to_string),
        }
    }
}

/// The `error` answering a refused request, counted by code in the metrics.
pub fn error_reply(metrics: &Metrics, why: &dyn Refusal, about: About<'_>) -> ServerMsg {
    metrics.error(why.code().as_str());
    about.error(why)
}
