//! The tables a hall's store holds, as the copy sees them: each column's kind (the one type
//! both backends agree on) and the primary key the copy walks in order. The PostgreSQL store's
//! own bookkeeping (`schema_version`, `commits`) is not the hall's data and is not copied.

/// A column's kind: what SQLite's loose types and PostgreSQL's strict ones both hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Text,
    /// `BIGINT` in PostgreSQL, `INTEGER` in SQLite.
    Int,
    /// `SMALLINT` in PostgreSQL (a bot's level).
    Small,
    /// `BOOLEAN` in PostgreSQL, 0 or 1 in SQLite.
    Bool,
    /// `DOUBLE PRECISION` in PostgreSQL, `REAL` in SQLite.
    Real,
}

/// One table: its columns in order, and how many of the first columns are its primary key.
#[derive(Debug)]
pub(super) struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    pub key_len: usize,
}

impl Table {
    /// The column names, each quoted (`by`, `key`, `before` and `after` are SQL words).
    pub fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The primary key's columns, quoted.
    pub fn key_columns(&self) -> Vec<String> {
        self.columns[..self.key_len]
            .iter()
            .map(|(name, _)| format!("\"{name}\""))
            .collect()
    }
}

use Kind::{Bool, Int, Real, Small, Text};

/// Every table of a hall, parents before the rows that name them (nothing enforces it, but a
/// half-copied hall then reads sensibly).
pub(super) const TABLES: [Table; 24] = [
    Table {
        name: "players",
        columns: &[
            ("id", Text),
            ("name", Text),
            ("token_hash", Text),
            ("bot", Bool),
            ("last_seen_ms", Int),
        ],
        key_len: 1,
    },
    Table {
        name: "accounts",
        columns: &[
            ("player", Text),
            ("name", Text),
            ("name_key", Text),
            ("password_hash", Text),
            ("bot", Bool),
            ("created_ms", Int),
        ],
        key_len: 1,
    },
    Table {
        name: "tokens",
        columns: &[("token_hash", Text), ("player", Text), ("made_ms", Int)],
        key_len: 1,
    },
    Table {
        name: "ratings",
        columns: &[
            ("player", Text),
            ("key", Text),
            ("rating", Real),
            ("rd", Real),
            ("volatility", Real),
            ("games", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "rooms",
        columns: &[
            ("id", Text),
            ("game", Text),
            ("clock", Text),
            ("opening", Text),
            ("private", Bool),
            ("created_ms", Int),
            ("creator", Text),
            ("status", Text),
            ("result", Text),
            ("seq", Int),
            ("next", Text),
            ("rematch_asks", Int),
            ("fence", Int),
            ("rated", Bool),
            ("unrated", Text),
        ],
        key_len: 1,
    },
    Table {
        name: "seats",
        columns: &[
            ("room", Text),
            ("color", Text),
            ("player", Text),
            ("name", Text),
            ("bot", Bool),
            ("level", Small),
        ],
        key_len: 2,
    },
    Table {
        name: "moves",
        columns: &[
            ("room", Text),
            ("ply", Int),
            ("mv", Text),
            ("by", Text),
            ("black_ms", Int),
            ("white_ms", Int),
            ("at_ms", Int),
            ("req_id", Text),
            ("seq", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "chat",
        columns: &[
            ("id", Int),
            ("room", Text),
            ("player", Text),
            ("name", Text),
            ("text", Text),
            ("seat", Text),
            ("bot", Bool),
            ("at_ms", Int),
        ],
        key_len: 1,
    },
    Table {
        name: "rating_changes",
        columns: &[
            ("room", Text),
            ("color", Text),
            ("player", Text),
            ("name", Text),
            ("opponent", Text),
            ("key", Text),
            ("before", Real),
            ("after", Real),
            ("rd", Real),
            ("at_ms", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "reviews",
        columns: &[("room", Text), ("review", Text), ("made_ms", Int)],
        key_len: 1,
    },
    Table {
        name: "explorer",
        columns: &[
            ("variant", Text),
            ("position", Text),
            ("mv", Text),
            ("bucket", Int),
            ("games", Int),
            ("black_wins", Int),
            ("draws", Int),
            ("white_wins", Int),
            ("rated_players", Int),
            ("rating_sum", Real),
        ],
        key_len: 4,
    },
    Table {
        name: "explorer_games",
        columns: &[("room", Text)],
        key_len: 1,
    },
    Table {
        name: "tournaments",
        columns: &[
            ("id", Text),
            ("status", Text),
            ("created_ms", Int),
            ("doc", Text),
        ],
        key_len: 1,
    },
    Table {
        name: "puzzle_ratings",
        columns: &[
            ("puzzle", Text),
            ("variant", Text),
            ("rating", Real),
            ("rd", Real),
            ("volatility", Real),
            ("plays", Int),
        ],
        key_len: 1,
    },
    Table {
        name: "puzzle_players",
        columns: &[
            ("player", Text),
            ("variant", Text),
            ("rating", Real),
            ("rd", Real),
            ("volatility", Real),
            ("plays", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "puzzle_attempts",
        columns: &[
            ("player", Text),
            ("puzzle", Text),
            ("variant", Text),
            ("solved", Bool),
            ("at_ms", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "hall_puzzles",
        columns: &[
            ("id", Text),
            ("variant", Text),
            ("made_ms", Int),
            ("puzzle", Text),
        ],
        key_len: 1,
    },
    Table {
        name: "blocks",
        columns: &[("player", Text), ("blocked", Text), ("at_ms", Int)],
        key_len: 2,
    },
    Table {
        name: "moderators",
        columns: &[("player", Text), ("granted_ms", Int)],
        key_len: 1,
    },
    Table {
        name: "reports",
        columns: &[
            ("id", Text),
            ("at_ms", Int),
            ("reporter", Text),
            ("kind", Text),
            ("player", Text),
            ("room", Text),
            ("reason", Text),
            ("note", Text),
            ("context", Text),
            ("status", Text),
        ],
        key_len: 1,
    },
    Table {
        name: "sanctions",
        columns: &[
            ("player", Text),
            ("kind", Text),
            ("until_ms", Int),
            ("reason", Text),
            ("moderator", Text),
            ("at_ms", Int),
        ],
        key_len: 2,
    },
    Table {
        name: "moderation_log",
        columns: &[
            ("id", Text),
            ("at_ms", Int),
            ("moderator", Text),
            ("action", Text),
            ("player", Text),
            ("room", Text),
            ("reason", Text),
            ("detail", Text),
            ("until_ms", Int),
            ("report", Text),
        ],
        key_len: 1,
    },
    Table {
        name: "hidden_chat",
        columns: &[
            ("room", Text),
            ("player", Text),
            ("text", Text),
            ("at_ms", Int),
        ],
        key_len: 3,
    },
    Table {
        name: "follows",
        columns: &[("player", Text), ("followed", Text), ("at_ms", Int)],
        key_len: 2,
    },
];

/// The table named `name`.
#[cfg(test)]
pub(super) fn table(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|t| t.name == name)
}
