//! The two players of an opening, named by the part they play, since colours change hands.

use serde::{Deserialize, Serialize};

/// A player of an opening, by part rather than colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The player who starts the opening (the tentative black).
    First,
    /// The other player (the tentative white).
    Second,
}

impl Role {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Role {
        match self {
            Role::First => Role::Second,
            Role::Second => Role::First,
        }
    }

    /// `"first"` or `"second"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Role::First => "first",
            Role::Second => "second",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
