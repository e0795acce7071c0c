//! The copy's progress, kept in the target in a table of its own (`store_copy`) and written in
//! the same transaction as each batch, so that a copy stopped anywhere (a crash, kill -9, a
//! lost connection) goes on from its last committed batch. The table is dropped once the copy
//! is verified: a hall holding it is a copy under way.

use std::collections::HashMap;

/// The table, in SQL both backends read.
pub(super) const TABLE_SQL: &str = "CREATE TABLE IF NOT EXISTS store_copy (
  tbl TEXT PRIMARY KEY, source TEXT NOT NULL, after TEXT, copied BIGINT NOT NULL,
  done BOOLEAN NOT NULL)";

/// How far one table has come.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct TableProgress {
    /// The key of the last row copied (JSON), none before the first batch.
    pub after: Option<String>,
    pub copied: u64,
    pub done: bool,
}

/// A copy under way into a target: what it copies from, and each table's progress.
#[derive(Clone, Debug, Default)]
pub(super) struct Progress {
    pub source: String,
    pub tables: HashMap<String, TableProgress>,
}

impl Progress {
    /// Builds it from the table's rows: (table, source, after, copied, done).
    pub fn from_rows(rows: Vec<(String, String, Option<String>, i64, bool)>) -> Option<Progress> {
        let mut progress: Option<Progress> = None;
        for (table, source, after, copied, done) in rows {
            let p = progress.get_or_insert_with(|| Progress {
                source,
                tables: HashMap::new(),
            });
            p.tables.insert(
                table,
                TableProgress {
                    after,
                    copied: u64::try_from(copied).unwrap_or(0),
                    done,
                },
            );
        }
        progress
    }
}
