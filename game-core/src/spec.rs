//! The game spec of the protocol (`{"kind":"gomoku","size":15,"rule":"renju"}`) and its
//! validation: a bad size, rule or opening rule is a typed error, never a panic.

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

/// The opening rules of tournament Gomoku and Renju, played by [`crate::opening::Opening`]
/// before the ordinary game. Absent from a spec, the game starts on the empty board with black
/// to move, as it always has.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningRule {
    /// Gomoku (freestyle or standard, boards 15..=26): three stones, then stay, swap, or two
    /// more stones and the choice of colour goes back.
    Swap2,
    /// Renju 15x15: one of the 26 openings, a swap, the 4th move with up to eight 5th moves
    /// declared, a swap, the 5th moves offered and one chosen.
    Soosorv8,
    /// Renju 15x15: a swap after each of the first four moves, each in a growing central
    /// square; then one 5th move (and a last swap) or ten 5th moves offered.
    Taraguchi10,
}

impl OpeningRule {
    /// Every opening rule, in the order of the enum.
    pub const ALL: [OpeningRule; 3] = [
        OpeningRule::Swap2,
        OpeningRule::Soosorv8,
        OpeningRule::Taraguchi10,
    ];

    /// The protocol name: `swap2`, `soosorv8`, `taraguchi10`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Soosorv8 => "soosorv8",
            OpeningRule::Taraguchi10 => "taraguchi10",
        }
    }

    /// Checks that the rule belongs to the game: swap2 to freestyle or standard Gomoku on
    /// boards of 15 and more (the boards of the Gomoku World Championship and of Gomocup; on
    /// smaller boards the balance the rule is made for means nothing), the two RIF rules to
    /// renju on 15x15, the only board their central squares are defined on.
    pub fn check(self, size: u32, rule: GomokuRule) -> Result<(), SpecError> {
        let fits = match self {
            OpeningRule::Swap2 => rule != GomokuRule::Renju && size >= 15,
            OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => {
                rule == GomokuRule::Renju && size == 15
            }
        };
        if fits {
            return Ok(());
        }
        Err(SpecError::OpeningRuleMismatch {
            opening: self.as_str(),
            needs: match self {
                OpeningRule::Swap2 => "freestyle or standard gomoku on 15x15 or larger",
                OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => "renju on 15x15",
            },
        })
    }
}

impl std::fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
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
        /// Absent (and left out of the output) for a game without an opening rule, so specs
        /// written before opening rules existed read and write exactly as they did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        opening_rule: Option<OpeningRule>,
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
    /// Gomoku without an opening rule.
    #[must_use]
    pub fn gomoku(size: u32, rule: GomokuRule) -> GameSpec {
        GameSpec::Gomoku {
            size,
            rule,
            opening_rule: None,
        }
    }

    /// Gomoku played from an opening rule.
    #[must_use]
    pub fn gomoku_with_opening(size: u32, rule: GomokuRule, opening: OpeningRule) -> GameSpec {
        GameSpec::Gomoku {
            size,
            rule,
            opening_rule: Some(opening),
        }
    }

    /// The opening rule, if the game has one.
    #[must_use]
    pub fn opening_rule(&self) -> Option<OpeningRule> {
        match self {
            GameSpec::Gomoku { opening_rule, .. } => *opening_rule,
            GameSpec::Othello | GameSpec::Connect4 { .. } => None,
        }
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

    /// Checks sizes, blocked cells and that an opening rule belongs to its game.
    pub fn validate(&self) -> Result<(), SpecError> {
        match self {
            GameSpec::Gomoku {
                size,
                rule,
                opening_rule,
            } => {
                if !(5..=26).contains(size) {
                    return Err(SpecError::GomokuSize(*size));
                }
                if let Some(opening) = opening_rule {
                    opening.check(*size, *rule)?;
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

    /// A short human label: `gomoku 15x15 renju`, `gomoku 15x15 renju soosorv8`, `othello`,
    /// `connect4 7x6`.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            GameSpec::Gomoku {
                size,
                rule,
                opening_rule,
            } => match opening_rule {
                None => format!("gomoku {size}x{size} {}", rule.as_str()),
                Some(opening) => format!("gomoku {size}x{size} {} {opening}", rule.as_str()),
            },
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
