//! A PostgreSQL store as the copy's source or target. As a source it reads in one
//! `REPEATABLE READ` transaction (one snapshot for every table) through a cursor per table;
//! as a target each batch is one binary `COPY` and the progress, in one transaction.

use futures::{pin_mut, TryStreamExt};
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Row as PgRow};

use super::progress::{self, Progress};
use super::rows::{Field, Row, Tally};
use super::tables::{Kind, Table, TABLES};
use crate::store::postgres::open_migrated;
use crate::store::StoreError;

pub(super) struct PostgresEnd {
    client: Client,
    target: String,
    /// The table whose cursor is open (a source reads one table at a time).
    cursor: Option<&'static str>,
}

/// A value ready for the driver, of the column's type.
type Param = Box<dyn ToSql + Sync + Send>;

impl PostgresEnd {
    /// The database at `url`, its schema made or migrated.
    pub async fn open(url: &str) -> Result<PostgresEnd, StoreError> {
        let (client, target) = open_migrated(url).await?;
        Ok(PostgresEnd {
            client,
            target,
            cursor: None,
        })
    }

    /// The database at `url` to copy from; its snapshot starts here.
    pub async fn source(url: &str) -> Result<PostgresEnd, StoreError> {
        let end = PostgresEnd::open(url).await?;
        end.client
            .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT 1")
            .await?;
        Ok(end)
    }

    pub fn identity(&self) -> String {
        format!("postgres:{}", self.target)
    }

    /// Up to `limit` rows of `table` after the key `after`, in key order. A table's first
    /// call opens its cursor (from `after`), the next ones read on from it.
    pub async fn read_batch(
        &mut self,
        table: &'static Table,
        after: Option<Row>,
        limit: usize,
    ) -> Result<Vec<Row>, StoreError> {
        if self.cursor != Some(table.name) {
            if self.cursor.take().is_some() {
                self.client.batch_execute("CLOSE copy_rows").await?;
            }
            let keys = table.key_columns().join(", ");
            let (filter, params): (String, Vec<Param>) = match after {
                Some(key) => {
                    let marks: Vec<String> = (1..=key.len()).map(|i| format!("${i}")).collect();
                    let params = key
                        .into_iter()
                        .zip(table.columns)
                        .map(|(f, (_, k))| param(f, *k))
                        .collect();
                    (format!("WHERE ({keys}) > ({})", marks.join(", ")), params)
                }
                None => (String::new(), Vec::new()),
            };
            let sql = format!(
                "DECLARE copy_rows NO SCROLL CURSOR FOR SELECT {} FROM {} {filter} ORDER BY {keys}",
                table.column_list(),
                table.name
            );
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            self.client.execute(&sql, &refs).await?;
            self.cursor = Some(table.name);
        }
        let rows = self
            .client
            .query(&format!("FETCH {limit} FROM copy_rows"), &[])
            .await?;
        rows.iter().map(|r| read_row(table, r)).collect()
    }

    /// Every row of `table` counted and summed.
    pub async fn tally(&mut self, table: &'static Table) -> Result<Tally, StoreError> {
        let sql = format!("SELECT {} FROM {}", table.column_list(), table.name);
        let rows = self
            .client
            .query_raw(&sql, std::iter::empty::<i32>())
            .await?;
        pin_mut!(rows);
        let mut tally = Tally::default();
        while let Some(row) = rows.try_next().await? {
            tally.add(&read_row(table, &row)?);
        }
        Ok(tally)
    }

    /// The copy under way into this database, if one is.
    pub async fn progress(&mut self) -> Result<Option<Progress>, StoreError> {
        let exists: bool = self
            .client
            .query_one("SELECT to_regclass('store_copy') IS NOT NULL", &[])
            .await?
            .get(0);
        if !exists {
            return Ok(None);
        }
        let rows = self
            .client
            .query(
                "SELECT tbl, source, after, copied, done FROM store_copy",
                &[],
            )
            .await?;
        let rows = rows
            .iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get(4)?,
                ))
            })
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
        Ok(Progress::from_rows(rows))
    }

    /// Whether any of the hall's tables holds a row.
    pub async fn holds_rows(&mut self) -> Result<bool, StoreError> {
        for table in &TABLES {
            let sql = format!("SELECT EXISTS (SELECT 1 FROM {})", table.name);
            if self.client.query_one(&sql, &[]).await?.get::<_, bool>(0) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Empties every table and forgets any copy under way (`--replace`).
    pub async fn clear(&mut self) -> Result<(), StoreError> {
        let names: Vec<&str> = TABLES.iter().map(|t| t.name).collect();
        self.client
            .batch_execute(&format!(
                "BEGIN; TRUNCATE {} RESTART IDENTITY; DROP TABLE IF EXISTS store_copy; COMMIT",
                names.join(", ")
            ))
            .await?;
        Ok(())
    }

    /// Starts a copy from `source`: the progress table, each table at its start.
    pub async fn begin(&mut self, source: String) -> Result<(), StoreError> {
        let tx = self.client.transaction().await?;
        tx.batch_execute(progress::TABLE_SQL).await?;
        for table in &TABLES {
            tx.execute(
                "INSERT INTO store_copy (tbl, source, after, copied, done)
                 VALUES ($1, $2, NULL, 0, false)",
                &[&table.name, &source],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Stores `rows` (one binary `COPY`) and the table's progress in one transaction.
    pub async fn write_batch(
        &mut self,
        table: &'static Table,
        rows: Vec<Row>,
        after: String,
        copied: u64,
    ) -> Result<(), StoreError> {
        let types: Vec<Type> = table.columns.iter().map(|(_, k)| pg_type(*k)).collect();
        let tx = self.client.transaction().await?;
        let sink = tx
            .copy_in(&format!(
                "COPY {} ({}) FROM STDIN BINARY",
                table.name,
                table.column_list()
            ))
            .await?;
        let writer = BinaryCopyInWriter::new(sink, &types);
        pin_mut!(writer);
        for row in rows {
            let params: Vec<Param> = row
                .into_iter()
                .zip(table.columns)
                .map(|(f, (_, k))| param(f, *k))
                .collect();
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| p.as_ref() as _).collect();
            writer.as_mut().write(&refs).await?;
        }
        writer.finish().await?;
        tx.execute(
            "UPDATE store_copy SET after = $1, copied = $2 WHERE tbl = $3",
            &[&after, &(copied as i64), &table.name],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Marks `table` copied whole; the chat's numbering goes on after its last copied line.
    pub async fn finish_table(&mut self, table: &'static Table) -> Result<(), StoreError> {
        let tx = self.client.transaction().await?;
        if table.name == "chat" {
            tx.batch_execute(
                "SELECT setval(pg_get_serial_sequence('chat', 'id'), coalesce(max(id), 0) + 1, false)
                 FROM chat",
            )
            .await?;
        }
        tx.execute(
            "UPDATE store_copy SET done = true WHERE tbl = $1",
            &[&table.name],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends the copy: the progress table goes, and the hall is like any other.
    pub async fn finish(&mut self) -> Result<(), StoreError> {
        self.client
            .batch_execute("DROP TABLE IF EXISTS store_copy")
            .await?;
        Ok(())
    }
}

fn pg_type(kind: Kind) -> Type {
    match kind {
        Kind::Text => Type::TEXT,
        Kind::Int => Type::INT8,
        Kind::Small => Type::INT2,
        Kind::Bool => Type::BOOL,
        Kind::Real => Type::FLOAT8,
    }
}

/// `field` as the driver's value for a column of `kind` (a null of that type when null).
fn param(field: Field, kind: Kind) -> Param {
    match (kind, field) {
        (Kind::Text, Field::Text(s)) => Box::new(Some(s)),
        (Kind::Text, _) => Box::new(None::<String>),
        (Kind::Int, Field::Int(i)) => Box::new(Some(i)),
        (Kind::Int, _) => Box::new(None::<i64>),
        (Kind::Small, Field::Int(i)) => Box::new(i16::try_from(i).ok()),
        (Kind::Small, _) => Box::new(None::<i16>),
        (Kind::Bool, Field::Int(i)) => Box::new(Some(i != 0)),
        (Kind::Bool, _) => Box::new(None::<bool>),
        (Kind::Real, Field::Real(r)) => Box::new(Some(r)),
        (Kind::Real, Field::Int(i)) => Box::new(Some(i as f64)),
        (Kind::Real, _) => Box::new(None::<f64>),
    }
}

/// A row read as the table's kinds say.
fn read_row(table: &Table, row: &PgRow) -> Result<Row, StoreError> {
    let mut out = Vec::with_capacity(table.columns.len());
    for (i, (_, kind)) in table.columns.iter().enumerate() {
        let field = match kind {
            Kind::Text => row.try_get::<_, Option<String>>(i)?.map(Field::Text),
            Kind::Int => row.try_get::<_, Option<i64>>(i)?.map(Field::Int),
            Kind::Small => row
                .try_get::<_, Option<i16>>(i)?
                .map(|v| Field::Int(v.into())),
            Kind::Bool => row
                .try_get::<_, Option<bool>>(i)?
                .map(|v| Field::Int(v.into())),
            Kind::Real => row.try_get::<_, Option<f64>>(i)?.map(Field::Real),
        };
        out.push(field.unwrap_or(Field::Null));
    }
    Ok(out)
}
