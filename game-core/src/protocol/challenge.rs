//! Challenges between players on the wire: the challenger's colour and the reasons a
//! challenge is declined, each with the words the challenger reads.

use serde::{Deserialize, Serialize};

/// The challenger's colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeColor {
    Black,
    White,
    /// Drawn when the challenge is accepted.
    #[default]
    Random,
}

/// Why a challenge was declined.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    #[default]
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Variant,
}

impl DeclineReason {
    /// What the challenger reads after "\<name\> declined: ".
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            DeclineReason::Generic => "they are not taking challenges now",
            DeclineReason::Later => "not now, perhaps later",
            DeclineReason::TooFast => "this time control is too fast for them",
            DeclineReason::TooSlow => "this time control is too slow for them",
            DeclineReason::TimeControl => "they would rather play another time control",
            DeclineReason::Rated => "they would rather play a rated game",
            DeclineReason::Casual => "they would rather play a casual game",
            DeclineReason::Variant => "they would rather play another game or rule",
        }
    }
}

/// Who challenges: a player's id and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Challenger {
    pub player: String,
    pub name: String,
}

/// Why an open challenge is gone, as the challenged player's connections hear it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// The challenger withdrew it.
    Cancelled,
    /// Nobody answered within its time.
    Expired,
    /// The challenger's connection closed.
    Left,
    /// Answered (from another connection of the challenged player).
    Accepted,
    Declined,
}
