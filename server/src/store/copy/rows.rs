//! A row as the copy carries it between backends, its primary key as the copy's progress
//! records it, and the per-table tally (count and checksum) both sides are compared by.

use sha2::{Digest, Sha256};

use super::tables::{Kind, Table};
use crate::store::StoreError;

/// One value, in the form both backends agree on: booleans and small integers are `Int`.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Field {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

pub(super) type Row = Vec<Field>;

/// The key of `row` (its first `table.key_len` fields) as the JSON text the progress keeps.
pub(super) fn key_text(table: &Table, row: &Row) -> String {
    let key: Vec<serde_json::Value> = row[..table.key_len]
        .iter()
        .map(|f| match f {
            Field::Int(i) => serde_json::Value::from(*i),
            Field::Text(s) => serde_json::Value::from(s.as_str()),
            Field::Real(r) => serde_json::Value::from(*r),
            Field::Null => serde_json::Value::Null,
        })
        .collect();
    serde_json::Value::Array(key).to_string()
}

/// A key read back from the progress: one field per key column, of its kind.
pub(super) fn parse_key(table: &Table, text: &str) -> Result<Row, StoreError> {
    let bad = || {
        StoreError::Schema(format!(
            "the copy's progress for {} is unreadable",
            table.name
        ))
    };
    let values: Vec<serde_json::Value> = serde_json::from_str(text).map_err(|_| bad())?;
    if values.len() != table.key_len {
        return Err(bad());
    }
    values
        .iter()
        .zip(table.columns)
        .map(|(v, (_, kind))| match kind {
            Kind::Text => v.as_str().map(|s| Field::Text(s.to_string())),
            _ => v.as_i64().map(Field::Int),
        })
        .collect::<Option<Row>>()
        .ok_or_else(bad)
}

/// A table's rows counted and summed: the checksum is the sum of each row's SHA-256 (its first
/// 16 bytes, wrapping), so it does not depend on the order rows are read in, and a row
/// missing, added or changed on either side changes it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub rows: u64,
    pub sum: u128,
}

impl Tally {
    pub(super) fn add(&mut self, row: &Row) {
        let mut hash = Sha256::new();
        for field in row {
            match field {
                Field::Null => hash.update([0]),
                Field::Int(i) => {
                    hash.update([1]);
                    hash.update(i.to_le_bytes());
                }
                Field::Real(r) => {
                    hash.update([2]);
                    hash.update(r.to_bits().to_le_bytes());
                }
                Field::Text(s) => {
                    hash.update([3]);
                    hash.update((s.len() as u64).to_le_bytes());
                    hash.update(s.as_bytes());
                }
            }
        }
        let digest = hash.finalize();
        let mut first = [0u8; 16];
        first.copy_from_slice(&digest[..16]);
        self.rows += 1;
        self.sum = self.sum.wrapping_add(u128::from_le_bytes(first));
    }

    /// The checksum as 32 hex digits.
    pub fn checksum(&self) -> String {
        format!("{:032x}", self.sum)
    }
}

/// The error for a value of the wrong kind in `table.column` (a hand-edited SQLite file).
pub(super) fn wrong_kind(table: &Table, column: &str, found: &str) -> StoreError {
    StoreError::Schema(format!(
        "{}.{column} holds {found}, where the hall keeps {:?}",
        table.name,
        table
            .columns
            .iter()
            .find(|(name, _)| *name == column)
            .map(|(_, kind)| *kind)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::copy::tables::table;

    #[test]
    fn a_tally_is_the_same_in_any_order_and_sees_any_change() {
        let rows = [
            vec![Field::Text("a".into()), Field::Int(1), Field::Null],
            vec![
                Field::Text("b".into()),
                Field::Real(1.5),
                Field::Text(String::new()),
            ],
        ];
        let (mut forward, mut backward) = (Tally::default(), Tally::default());
        rows.iter().for_each(|r| forward.add(r));
        rows.iter().rev().for_each(|r| backward.add(r));
        assert_eq!(forward, backward);
        assert_eq!(forward.rows, 2);
        let mut changed = Tally::default();
        changed.add(&rows[0]);
        changed.add(&vec![
            Field::Text("b".into()),
            Field::Real(1.5),
            Field::Null,
        ]);
        assert_ne!(changed.sum, forward.sum);
        // A null is not an empty text.
        assert_eq!(forward.checksum().len(), 32);
    }

    #[test]
    fn a_key_goes_through_the_progress_and_back() {
        let moves = table("moves").unwrap();
        let row = vec![
            Field::Text("r1".into()),
            Field::Int(7),
            Field::Text("h8".into()),
        ];
        let text = key_text(moves, &row);
        assert_eq!(text, r#"["r1",7]"#);
        assert_eq!(parse_key(moves, &text).unwrap(), row[..2].to_vec());
        assert!(parse_key(moves, r#"["r1"]"#).is_err());
        assert!(parse_key(moves, "not json").is_err());
    }
}
