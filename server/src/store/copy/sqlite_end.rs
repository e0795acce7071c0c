//! A SQLite store as the copy's source or target. As a source it reads inside one read
//! transaction, so every table comes from one snapshot of the file even while a server
//! writes to it (WAL keeps the snapshot); as a target each batch is one transaction with its
//! progress. The connection moves to a blocking thread for each step (SQLite's calls block).

use std::path::{Path, PathBuf};

use rusqlite::types::{Value, ValueRef};
use rusqlite::{params_from_iter, Connection};

use super::progress::{self, Progress};
use super::rows::{wrong_kind, Field, Row, Tally};
use super::tables::{Kind, Table, TABLES};
use crate::store::sqlite::open_with_schema;
use crate::store::StoreError;

pub(super) struct SqliteEnd {
    conn: Option<Connection>,
    path: PathBuf,
}

impl SqliteEnd {
    /// The store of `dir` to copy from: it must hold a `kibitz.db`. Its snapshot starts here.
    pub async fn source(dir: &Path) -> Result<SqliteEnd, StoreError> {
        let path = dir.join("kibitz.db");
        if !path.is_file() {
            return Err(StoreError::DataDir(
                dir.to_path_buf(),
                "has no kibitz.db to copy".to_string(),
            ));
        }
        let mut end = SqliteEnd::open(path).await?;
        end.run(|conn| {
            conn.execute_batch("BEGIN")?;
            // A read pins the snapshot: a deferred transaction takes it at its first read.
            conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
                r.get::<_, i64>(0)
            })?;
            Ok(())
        })
        .await?;
        Ok(end)
    }

    /// The store of `dir` to copy into, made (with its tables) if it is not there.
    pub async fn target(dir: &Path) -> Result<SqliteEnd, StoreError> {
        if !dir.exists() {
            std::fs::create_dir(dir).map_err(|e| {
                StoreError::DataDir(dir.to_path_buf(), format!("cannot create: {e}"))
            })?;
        }
        SqliteEnd::open(dir.join("kibitz.db")).await
    }

    async fn open(path: PathBuf) -> Result<SqliteEnd, StoreError> {
        let at = path.clone();
        let conn = tokio::task::spawn_blocking(move || open_with_schema(&at))
            .await
            .map_err(|e| StoreError::Write(e.to_string()))??;
        Ok(SqliteEnd {
            conn: Some(conn),
            path,
        })
    }

    /// What the copy's messages and progress call it.
    pub fn identity(&self) -> String {
        let path = std::fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        format!("sqlite:{}", path.display())
    }

    /// Runs `step` on the connection in a blocking thread.
    async fn run<T: Send + 'static>(
        &mut self,
        step: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let mut conn = self.conn.take().ok_or(StoreError::Closed)?;
        let (conn, out) = tokio::task::spawn_blocking(move || {
            let out = step(&mut conn);
            (conn, out)
        })
        .await
        .map_err(|e| StoreError::Write(e.to_string()))?;
        self.conn = Some(conn);
        out
    }

    /// Up to `limit` rows of `table` after the key `after`, in key order.
    pub async fn read_batch(
        &mut self,
        table: &'static Table,
        after: Option<Row>,
        limit: usize,
    ) -> Result<Vec<Row>, StoreError> {
        self.run(move |conn| {
            let keys = table.key_columns().join(", ");
            let (filter, params) = match after {
                Some(key) => {
                    let marks: Vec<String> = (1..=key.len()).map(|i| format!("?{i}")).collect();
                    (
                        format!("WHERE ({keys}) > ({})", marks.join(", ")),
                        key.into_iter().map(to_sql).collect(),
                    )
                }
                None => (String::new(), Vec::new()),
            };
            let sql = format!(
                "SELECT {} FROM {} {filter} ORDER BY {keys} LIMIT {limit}",
                table.column_list(),
                table.name
            );
            let mut stmt = conn.prepare_cached(&sql)?;
            let mut rows = stmt.query(params_from_iter(params))?;
            let mut out = Vec::with_capacity(limit);
            while let Some(row) = rows.next()? {
                out.push(read_row(table, row)?);
            }
            Ok(out)
        })
        .await
    }

    /// Every row of `table` counted and summed.
    pub async fn tally(&mut self, table: &'static Table) -> Result<Tally, StoreError> {
        self.run(move |conn| {
            let sql = format!("SELECT {} FROM {}", table.column_list(), table.name);
            let mut stmt = conn.prepare(&sql)?;
            let mut rows = stmt.query([])?;
            let mut tally = Tally::default();
            while let Some(row) = rows.next()? {
                tally.add(&read_row(table, row)?);
            }
            Ok(tally)
        })
        .await
    }

    /// The copy under way into this store, if one is.
    pub async fn progress(&mut self) -> Result<Option<Progress>, StoreError> {
        self.run(|conn| {
            let exists: bool = conn.query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'store_copy'",
                [],
                |r| r.get(0),
            )?;
            if !exists {
                return Ok(None);
            }
            let mut stmt =
                conn.prepare("SELECT tbl, source, after, copied, done FROM store_copy")?;
            let rows = stmt
                .query_map([], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Progress::from_rows(rows))
        })
        .await
    }

    /// Whether any of the hall's tables holds a row.
    pub async fn holds_rows(&mut self) -> Result<bool, StoreError> {
        self.run(|conn| {
            for table in &TABLES {
                let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", table.name);
                if conn.query_row(&sql, [], |r| r.get::<_, bool>(0))? {
                    return Ok(true);
                }
            }
            Ok(false)
        })
        .await
    }

    /// Empties every table and forgets any copy under way (`--replace`).
    pub async fn clear(&mut self) -> Result<(), StoreError> {
        self.run(|conn| {
            let tx = conn.transaction()?;
            for table in &TABLES {
                tx.execute_batch(&format!("DELETE FROM {}", table.name))?;
            }
            tx.execute_batch(
                "DROP TABLE IF EXISTS store_copy;
                 DELETE FROM sqlite_sequence WHERE name = 'chat';",
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Starts a copy from `source`: the progress table, each table at its start.
    pub async fn begin(&mut self, source: String) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            tx.execute_batch(progress::TABLE_SQL)?;
            for table in &TABLES {
                tx.execute(
                    "INSERT INTO store_copy (tbl, source, after, copied, done)
                     VALUES (?1, ?2, NULL, 0, 0)",
                    (table.name, &source),
                )?;
            }
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Stores `rows` and the table's progress (`after`, `copied` in all) in one transaction.
    pub async fn write_batch(
        &mut self,
        table: &'static Table,
        rows: Vec<Row>,
        after: String,
        copied: u64,
    ) -> Result<(), StoreError> {
        self.run(move |conn| {
            let tx = conn.transaction()?;
            {
                let marks: Vec<String> =
                    (1..=table.columns.len()).map(|i| format!("?{i}")).collect();
                let sql = format!(
                    "INSERT INTO {} ({}) VALUES ({})",
                    table.name,
                    table.column_list(),
                    marks.join(", ")
                );
                let mut stmt = tx.prepare_cached(&sql)?;
                for row in rows {
                    stmt.execute(params_from_iter(row.into_iter().map(to_sql)))?;
                }
            }
            tx.execute(
                "UPDATE store_copy SET after = ?1, copied = ?2 WHERE tbl = ?3",
                (after, copied as i64, table.name),
            )?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    /// Marks `table` copied whole.
    pub async fn finish_table(&mut self, table: &'static Table) -> Result<(), StoreError> {
        self.run(move |conn| {
            conn.execute(
                "UPDATE store_copy SET done = 1 WHERE tbl = ?1",
                [table.name],
            )?;
            Ok(())
        })
        .await
    }

    /// Ends the copy: the progress table goes, and the hall is like any other.
    pub async fn finish(&mut self) -> Result<(), StoreError> {
        self.run(|conn| Ok(conn.execute_batch("DROP TABLE IF EXISTS store_copy")?))
            .await
    }
}

/// A row read as the table's kinds say.
fn read_row(table: &Table, row: &rusqlite::Row<'_>) -> Result<Row, StoreError> {
    let mut out = Vec::with_capacity(table.columns.len());
    for (i, (column, kind)) in table.columns.iter().enumerate() {
        let field = match (row.get_ref(i)?, kind) {
            (ValueRef::Null, _) => Field::Null,
            (ValueRef::Integer(v), Kind::Real) => Field::Real(v as f64),
            (ValueRef::Integer(v), _) => Field::Int(v),
            (ValueRef::Real(v), Kind::Real) => Field::Real(v),
            (ValueRef::Text(t), Kind::Text) => Field::Text(
                String::from_utf8(t.to_vec())
                    .map_err(|_| wrong_kind(table, column, "bytes that are not UTF-8"))?,
            ),
            (ValueRef::Real(_), _) => return Err(wrong_kind(table, column, "a real number")),
            (ValueRef::Text(_), _) => return Err(wrong_kind(table, column, "text")),
            (ValueRef::Blob(_), _) => return Err(wrong_kind(table, column, "a blob")),
        };
        out.push(field);
    }
    Ok(out)
}

fn to_sql(field: Field) -> Value {
    match field {
        Field::Null => Value::Null,
        Field::Int(i) => Value::Integer(i),
        Field::Real(r) => Value::Real(r),
        Field::Text(s) => Value::Text(s),
    }
}
