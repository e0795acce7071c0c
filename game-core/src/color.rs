//! The two seats of every game: black moves first, white second.

use serde::{Deserialize, Serialize};

/// A side. In all three games black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Index for arrays indexed by side: black 0, white 1.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The protocol name, `"black"` or `"white"`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The side that moves at a given ply (0-based) when nobody passes.
    #[must_use]
    pub fn from_ply(ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
