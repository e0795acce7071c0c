//! The game spec of the protocol (`{"kind":"gomoku","size":15,"rule":"renju"}`) and its
//! validation: a bad size or rule is a typed error, never a panic.

use serde::{Deserialize, Serialize};

use crate::error::SpecError;

/// Gomoku winning rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum GomokuRule {
    /// Five or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly five wins, for both sides; an overline does not.
    Standard,
    /// Black: exactly five, and overline, double-four and double-three are forbidden.
    /// White: five or more.
    Renju,
}

impl GomokuRule {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            GomokuRule::Freestyle => "freestyle",
            GomokuRule::Standard => "standard",
            GomokuRule::Renju => "renju",
        }
    }
}

/// Which game, without its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Gomoku,
    Othello,
    Connect4,
}

impl GameKind {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Gomoku => "gomoku",
            GameKind::Othello => "othello",
            GameKind::Connect4 => "connect4",
        }
    }
}

fn default_size() -> u32 {
    15
}
fn default_cols() -> u32 {
    7
}
fn default_rows() -> u32 {
    6
}

/// A game and its parameters, as the protocol writes it. Numbers are `u32` so that an
/// out-of-range value parses and then fails validation with a clear message.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum GameSpec {
    Gomoku {
        #[serde(default = "default_size")]
        size: u32,
        #[serde(default)]
        rule: GomokuRule,
    },
    Othello,
    Connect4 {
        #[serde(default = "default_cols")]
        cols: u32,
        #[serde(default = "default_rows")]
        rows: u32,
        /// `[column, row]`, 1-based from the bottom left.
        #[serde(default)]
        blocked: Vec<[u32; 2]>,
    },
}

impl GameSpec {
    /// Freestyle 15x15 Gomoku.
    #[must_use]
    pub fn gomoku(size: u32, rule: GomokuRule) -> GameSpec {
        GameSpec::Gomoku { size, rule }
    }

    /// Connect Four without blocked cells.
    #[must_use]
    pub fn connect4(cols: u32, rows: u32) -> GameSpec {
        GameSpec::Connect4 {
            cols,
            rows,
            blocked: Vec::new(),
        }
    }

    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            GameSpec::Gomoku { .. } => GameKind::Gomoku,
            GameSpec::Othello => GameKind::Othello,
            GameSpec::Connect4 { .. } => GameKind::Connect4,
        }
    }

    /// Checks sizes and blocked cells.
    pub fn validate(&self) -> Result<(), SpecError> {
        match self {
            GameSpec::Gomoku { size, .. } => {
                if !(5..=26).contains(size) {
                    return Err(SpecError::GomokuSize(*size));
                }
            }
            GameSpec::Othello => {}
            GameSpec::Connect4 {
                cols,
                rows,
                blocked,
            } => {
                if !(4..=12).contains(cols) || !(4..=12).contains(rows) {
                    return Err(SpecError::Connect4Size(*cols, *rows));
                }
                for (i, &[c, r]) in blocked.iter().enumerate() {
                    if c == 0 || r == 0 || c > *cols || r > *rows {
                        return Err(SpecError::BlockedOffBoard(c, r));
                    }
                    if blocked[..i].contains(&[c, r]) {
                        return Err(SpecError::BlockedTwice(c, r));
                    }
                }
            }
        }
        Ok(())
    }

    /// A short human label: `gomoku 15x15 renju`, `othello`, `connect4 7x6`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            GameSpec::Gomoku { size, rule } => format!("gomoku {size}x{size} {}", rule.as_str()),
            GameSpec::Othello => "othello".to_string(),
            GameSpec::Connect4 {
                cols,
                rows,
                blocked,
            } => {
                if blocked.is_empty() {
                    format!("connect4 {cols}x{rows}")
                } else {
                    format!("connect4 {cols}x{rows} ({} blocked)", blocked.len())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_validation() {
        let g: GameSpec = serde_json::from_str(r#"{"kind":"gomoku"}"#).unwrap();
        assert_eq!(g, GameSpec::gomoku(15, GomokuRule::Freestyle));
        let c: GameSpec = serde_json::from_str(r#"{"kind":"connect4"}"#).unwrap();
        assert_eq!(c, GameSpec::connect4(7, 6));
        assert!(serde_json::from_str::<GameSpec>(r#"{"kind":"chess"}"#).is_err());
        assert!(serde_json::from_str::<GameSpec>(r#"{"kind":"gomoku","rule":"x"}"#).is_err());
        assert_eq!(
            GameSpec::gomoku(27, GomokuRule::Renju).validate(),
            Err(SpecError::GomokuSize(27))
        );
        assert_eq!(
            GameSpec::gomoku(4, GomokuRule::Renju).validate(),
            Err(SpecError::GomokuSize(4))
        );
        assert!(GameSpec::gomoku(5, GomokuRule::Renju).validate().is_ok());
        assert!(GameSpec::gomoku(26, GomokuRule::Renju).validate().is_ok());
        assert_eq!(
            GameSpec::connect4(13, 6).validate(),
            Err(SpecError::Connect4Size(13, 6))
        );
        let bad = GameSpec::Connect4 {
            cols: 7,
            rows: 6,
            blocked: vec![[8, 1]],
        };
        assert_eq!(bad.validate(), Err(SpecError::BlockedOffBoard(8, 1)));
        let twice = GameSpec::Connect4 {
            cols: 7,
            rows: 6,
            blocked: vec![[2, 1], [2, 1]],
        };
        assert_eq!(twice.validate(), Err(SpecError::BlockedTwice(2, 1)));
        // Serialises back to the documented form.
        assert_eq!(
            serde_json::to_string(&GameSpec::Othello).unwrap(),
            r#"{"kind":"othello"}"#
        );
    }
}
