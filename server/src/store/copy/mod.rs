//! `kibitz store copy`: a hall's whole store from one backend to another (SQLite to
//! PostgreSQL when a hall outgrows one machine, and back). Every table is read in key order
//! from one snapshot of the source and written in batches, each batch committed with the
//! copy's progress ([`progress`]), so a copy stopped anywhere goes on where it stopped. A
//! target holding a hall already is refused unless the operator asks to replace it. At the end
//! each table is counted and checksummed on both sides; the copy is done only if they agree.

mod postgres_end;
mod progress;
mod rows;
mod sqlite_end;
mod tables;

use std::path::Path;
use std::time::{Duration, Instant};

use postgres_end::PostgresEnd;
pub use rows::Tally;
use rows::{key_text, parse_key, Row};
use sqlite_end::SqliteEnd;
use tables::{Table, TABLES};

use super::StoreError;

/// Rows per batch unless told: one transaction each on the target.
pub const BATCH_ROWS: usize = 5000;

/// How the copy runs.
#[derive(Clone, Debug)]
pub struct CopyOptions {
    /// Rows per batch (at least 1).
    pub batch_rows: usize,
    /// Empty a target that holds a hall (or another copy under way) first.
    pub replace: bool,
}

impl Default for CopyOptions {
    fn default() -> Self {
        CopyOptions {
            batch_rows: BATCH_ROWS,
            replace: false,
        }
    }
}

/// What the copy tells as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The copy starts, or goes on from an earlier run stopped part way (`resumed`).
    Started {
        from: &'a str,
        to: &'a str,
        resumed: bool,
    },
    /// A batch of `table` is committed; `copied` rows of it are in the target.
    Batch { table: &'static str, copied: u64 },
    /// Every row of `table` is in the target.
    TableCopied { table: &'static str, copied: u64 },
}

/// One table's outcome: rows copied by this run, and both sides' tallies.
#[derive(Clone, Debug)]
pub struct TableReport {
    pub table: &'static str,
    pub copied_now: u64,
    pub source: Tally,
    pub target: Tally,
}

/// What a finished copy did.
#[derive(Clone, Debug)]
pub struct CopyReport {
    pub tables: Vec<TableReport>,
    pub resumed: bool,
    /// Rows this run wrote.
    pub copied_now: u64,
    pub took: Duration,
}

/// A store the copy reads or writes: a data directory, or a `postgres://` URL.
enum End {
    Sqlite(SqliteEnd),
    Postgres(PostgresEnd),
}

fn is_postgres(place: &str) -> bool {
    place.starts_with("postgres://") || place.starts_with("postgresql://")
}

/// Calls the same method on either backend.
macro_rules! on_end {
    ($end:expr, $e:ident => $call:expr) => {
        match $end {
            End::Sqlite($e) => $call,
            End::Postgres($e) => $call,
        }
    };
}

impl End {
    async fn source(place: &str) -> Result<End, StoreError> {
        Ok(if is_postgres(place) {
            End::Postgres(PostgresEnd::source(place).await?)
        } else {
            End::Sqlite(SqliteEnd::source(Path::new(place)).await?)
        })
    }

    async fn target(place: &str) -> Result<End, StoreError> {
        Ok(if is_postgres(place) {
            End::Postgres(PostgresEnd::open(place).await?)
        } else {
            End::Sqlite(SqliteEnd::target(Path::new(place)).await?)
        })
    }

    fn identity(&self) -> String {
        on_end!(self, e => e.identity())
    }

    async fn read_batch(
        &mut self,
        table: &'static Table,
        after: Option<Row>,
        limit: usize,
    ) -> Result<Vec<Row>, StoreError> {
        on_end!(self, e => e.read_batch(table, after, limit).await)
    }

    async fn tally(&mut self, table: &'static Table) -> Result<Tally, StoreError> {
        on_end!(self, e => e.tally(table).await)
    }
}

/// Copies the store at `from` to the store at `to` (each a data directory or a PostgreSQL
/// URL), telling `on_event` as it goes.
pub async fn copy(
    from: &str,
    to: &str,
    options: &CopyOptions,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<CopyReport, StoreError> {
    let started = Instant::now();
    let mut source = End::source(from).await?;
    let mut target = End::target(to).await?;
    let (source_id, target_id) = (source.identity(), target.identity());
    if source_id == target_id {
        return Err(StoreError::Copy(format!(
            "{source_id} is both the source and the target"
        )));
    }
    let progress = prepare_target(&mut target, &source_id, options.replace).await?;
    let resumed = progress.is_some();
    on_event(Event::Started {
        from: &source_id,
        to: &target_id,
        resumed,
    });
    let progress = progress.unwrap_or_default();
    let batch_rows = options.batch_rows.max(1);
    let mut copied_now = Vec::new();
    for table in &TABLES {
        let at = progress.tables.get(table.name).cloned().unwrap_or_default();
        let mut now = 0;
        if !at.done {
            let after = at
                .after
                .as_deref()
                .map(|k| parse_key(table, k))
                .transpose()?;
            now = copy_table(
                &mut source,
                &mut target,
                table,
                after,
                at.copied,
                batch_rows,
                on_event,
            )
            .await?;
        }
        copied_now.push(now);
    }
    let tables = verify(&mut source, &mut target, &copied_now).await?;
    on_end!(&mut target, e => e.finish().await)?;
    Ok(CopyReport {
        copied_now: copied_now.iter().sum(),
        tables,
        resumed,
        took: started.elapsed(),
    })
}

/// Readies the target: the copy under way to go on with, if any; a hall already there is
/// refused unless `replace`, which empties it.
async fn prepare_target(
    target: &mut End,
    source_id: &str,
    replace: bool,
) -> Result<Option<progress::Progress>, StoreError> {
    if replace {
        on_end!(target, e => e.clear().await)?;
    }
    let under_way = on_end!(target, e => e.progress().await)?;
    match under_way {
        Some(p) if p.source == source_id => return Ok(Some(p)),
        Some(p) => {
            return Err(StoreError::Copy(format!(
                "the target holds a copy from {} under way; --replace starts over from {source_id}",
                p.source
            )))
        }
        None => {}
    }
    if on_end!(target, e => e.holds_rows().await)? {
        return Err(StoreError::Copy(
            "the target holds a hall already; --replace empties it first".to_string(),
        ));
    }
    on_end!(target, e => e.begin(source_id.to_string()).await)?;
    Ok(None)
}

/// Copies `table` from the key `after` on (`copied` rows are in the target already); returns
/// the rows this run copied.
async fn copy_table(
    source: &mut End,
    target: &mut End,
    table: &'static Table,
    mut after: Option<Row>,
    mut copied: u64,
    batch_rows: usize,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<u64, StoreError> {
    let mut now = 0;
    loop {
        let rows = source.read_batch(table, after.take(), batch_rows).await?;
        let Some(last) = rows.last() else { break };
        let key = key_text(table, last);
        after = Some(last[..table.key_len].to_vec());
        let n = rows.len() as u64;
        on_end!(target, e => e.write_batch(table, rows, key, copied + n).await)?;
        copied += n;
        now += n;
        on_event(Event::Batch {
            table: table.name,
            copied,
        });
        if n < batch_rows as u64 {
            break;
        }
    }
    on_end!(target, e => e.finish_table(table).await)?;
    on_event(Event::TableCopied {
        table: table.name,
        copied,
    });
    Ok(now)
}

/// Counts and checksums every table on both sides; any difference is an error naming it.
async fn verify(
    source: &mut End,
    target: &mut End,
    copied_now: &[u64],
) -> Result<Vec<TableReport>, StoreError> {
    let mut reports = Vec::new();
    let mut differ = Vec::new();
    for (table, now) in TABLES.iter().zip(copied_now) {
        let s = source.tally(table).await?;
        let t = target.tally(table).await?;
        if s != t {
            differ.push(format!(
                "{}: {} rows ({}) in the source, {} ({}) in the target",
                table.name,
                s.rows,
                s.checksum(),
                t.rows,
                t.checksum()
            ));
        }
        reports.push(TableReport {
            table: table.name,
            copied_now: *now,
            source: s,
            target: t,
        });
    }
    if differ.is_empty() {
        Ok(reports)
    } else {
        Err(StoreError::Copy(format!(
            "the copy differs from its source (was the source written to between runs?): {}; \
             --replace copies it again whole",
            differ.join("; ")
        )))
    }
}
