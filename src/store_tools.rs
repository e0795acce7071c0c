//! `kibitz store …`: what the operator's store commands print around the library's work.

use std::path::Path;
use std::time::{Duration, Instant};

use kibitz_server::store::copy::{self, CopyOptions, Event};

/// How often a table's progress is printed while it is copied.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// `kibitz store backup`.
pub fn backup(data: &Path, file: &Path) -> anyhow::Result<()> {
    let copied = kibitz_server::store::sqlite::backup::backup(data, file)?;
    println!(
        "copied {} to {}: {} pages, {} bytes in {} ms",
        data.join("kibitz.db").display(),
        file.display(),
        copied.pages,
        copied.bytes,
        copied.took.as_millis()
    );
    Ok(())
}

/// `kibitz store copy`: progress on standard error, the verified tables on standard output.
pub async fn store_copy(from: &str, to: &str, batch: usize, replace: bool) -> anyhow::Result<()> {
    let options = CopyOptions {
        batch_rows: batch,
        replace,
    };
    let mut last_print: Option<Instant> = None;
    let mut on_event = |event: Event<'_>| match event {
        Event::Started { from, to, resumed } => {
            let how = if resumed {
                "going on with the copy"
            } else {
                "copying"
            };
            eprintln!("{how} from {from} to {to}");
        }
        Event::Batch { table, copied } => {
            if last_print.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                eprintln!("  {table}: {copied} rows");
                last_print = Some(Instant::now());
            }
        }
        Event::TableCopied { table, copied } => {
            eprintln!("  {table}: {copied} rows, all");
            last_print = None;
        }
    };
    let report = copy::copy(from, to, &options, &mut on_event).await?;
    println!(
        "{:<16} {:>10} {:>10}  checksum (both sides)",
        "table", "rows", "this run"
    );
    for t in &report.tables {
        println!(
            "{:<16} {:>10} {:>10}  {}",
            t.table,
            t.target.rows,
            t.copied_now,
            t.target.checksum()
        );
    }
    let secs = report.took.as_secs_f64();
    let rate = if secs > 0.0 {
        report.copied_now as f64 / secs
    } else {
        0.0
    };
    println!(
        "copied {} rows in {:.1} s ({:.0} rows/s){}; counts and checksums match",
        report.copied_now,
        secs,
        rate,
        if report.resumed {
            ", going on from an earlier run"
        } else {
            ""
        }
    );
    Ok(())
}
