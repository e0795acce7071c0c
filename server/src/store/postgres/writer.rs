//! The PostgreSQL writer: one task owning one connection, which takes every queued write (up
//! to a batch), commits them in one transaction and only then answers each, as the SQLite
//! writer does. Each batch runs whole first; if one of its writes fails, the batch is rolled
//! back and run again with a savepoint per write, so that the failed write fails alone. A
//! batch that cannot be committed (the connection lost) answers every write in it with an
//! error, and the writer reconnects by itself, backing off while the server is away.
//!
//! A connection lost while its COMMIT was under way leaves the outcome unknown: the writer
//! then asks the server, once back, whether that transaction committed (`txid_status`), and
//! answers by what it says, so that no write is refused while in fact stored.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_postgres::{Client, Config, SimpleQueryMessage};

use super::statements::Statements;
use super::{connect, describe_target};
use crate::metrics::Metrics;
use crate::store::error::{postgres_message, StoreError};
use crate::store::job::Job;

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// The first wait before connecting again, doubled after each failure up to `RETRY_MAX`.
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_MAX: Duration = Duration::from_secs(5);

/// How long the writer keeps asking whether a commit whose answer was lost was made before
/// it gives up and answers the batch as failed.
const UNKNOWN_COMMIT_WAIT: Duration = Duration::from_secs(30);

/// The writer's connection and its prepared statements.
pub(super) struct Link {
    client: Client,
    statements: Statements,
}

impl Link {
    pub(super) async fn open(config: &Config) -> Result<Link, tokio_postgres::Error> {
        let client = connect(config).await?;
        let statements = Statements::prepare(&client).await?;
        Ok(Link { client, statements })
    }
}

/// How a batch ended.
enum Outcome {
    /// Committed: the answer of each write (a failed one stored nothing).
    Committed(Vec<Result<(), String>>),
    /// Nothing of the batch was stored.
    Failed(String),
    /// The connection was lost while COMMIT was under way: the transaction `txid` may or may
    /// not have committed; `answers` holds what each write gets if it did.
    Unknown {
        txid: Option<i64>,
        answers: Vec<Result<(), String>>,
        error: String,
    },
}

/// Why a whole-batch attempt stopped.
enum Stop {
    /// Before COMMIT: nothing was stored.
    Before(String),
    /// At COMMIT.
    Commit {
        txid: Option<i64>,
        error: tokio_postgres::Error,
    },
}

/// Begins a transaction and learns its id (in the same round trip), to ask about it later
/// if the answer to its COMMIT is lost.
async fn begin(db: &Client) -> Result<Option<i64>, tokio_postgres::Error> {
    let messages = db.simple_query("BEGIN; SELECT txid_current()").await?;
    Ok(messages.iter().find_map(|m| match m {
        SimpleQueryMessage::Row(row) => row.get(0).and_then(|id| id.parse().ok()),
        _ => None,
    }))
}

/// Ends a transaction that is not to be committed (its connection may already be gone).
async fn roll_back(db: &Client) {
    let _ = db.batch_execute("ROLLBACK").await;
}

/// What a failed COMMIT means: an error the server sent back is a rollback; no answer at all
/// leaves the outcome unknown.
fn after_commit(
    txid: Option<i64>,
    error: tokio_postgres::Error,
    answers: Vec<Result<(), String>>,
) -> Outcome {
    if error.as_db_error().is_some() {
        Outcome::Failed(StoreError::from(error).to_string())
    } else {
        Outcome::Unknown {
            txid,
            answers,
            error: StoreError::from(error).to_string(),
        }
    }
}

/// Runs every write of the batch in one transaction; on the first error nothing is stored.
async fn commit_all(link: &Link, batch: &[Job]) -> Result<(), Stop> {
    let db = &link.client;
    let txid = begin(db)
        .await
        .map_err(|e| Stop::Before(StoreError::from(e).to_string()))?;
    for job in batch {
        if let Err(e) = link.statements.apply(db, &job.write).await {
            roll_back(db).await;
            return Err(Stop::Before(e.to_string()));
        }
    }
    db.batch_execute("COMMIT")
        .await
        .map_err(|error| Stop::Commit { txid, error })
}

/// Runs the batch with a savepoint per write: a write that fails is rolled back alone and
/// answered with its error. A failure the transaction cannot go on from (the connection lost)
/// fails the whole batch.
async fn commit_one_by_one(link: &Link, batch: &[Job]) -> Outcome {
    let db = &link.client;
    let txid = match begin(db).await {
        Ok(txid) => txid,
        Err(e) => return Outcome::Failed(StoreError::from(e).to_string()),
    };
    let mut answers = Vec::with_capacity(batch.len());
    for job in batch {
        let step = match db.batch_execute("SAVEPOINT job").await {
            Ok(()) => match link.statements.apply(db, &job.write).await {
                Ok(()) => db
                    .batch_execute("RELEASE SAVEPOINT job")
                    .await
                    .map(|()| Ok(())),
                Err(e) => db
                    .batch_execute("ROLLBACK TO SAVEPOINT job")
                    .await
                    .map(|()| Err(e.to_string())),
            },
            Err(e) => Err(e),
        };
        match step {
            Ok(answer) => answers.push(answer),
            Err(e) => {
                roll_back(db).await;
                return Outcome::Failed(format!(
                    "the transaction was rolled back: {}",
                    StoreError::from(e)
                ));
            }
        }
    }
    match db.batch_execute("COMMIT").await {
        Ok(()) => Outcome::Committed(answers),
        Err(error) => after_commit(txid, error, answers),
    }
}

/// Commits the batch: whole if every write succeeds (the usual case: no savepoint per
/// write), else write by write.
async fn commit_batch(link: &Link, batch: &[Job]) -> Outcome {
    match commit_all(link, batch).await {
        Ok(()) => return Outcome::Committed(batch.iter().map(|_| Ok(())).collect()),
        Err(Stop::Commit { txid, error }) => {
            return after_commit(txid, error, batch.iter().map(|_| Ok(())).collect())
        }
        Err(Stop::Before(e)) if link.client.is_closed() => return Outcome::Failed(e),
        Err(Stop::Before(_)) => {}
    }
    commit_one_by_one(link, batch).await
}

/// The writer task's state: its connection, when it may try to connect again, and why the
/// last try failed.
struct Writer {
    config: Config,
    link: Option<Link>,
    metrics: Metrics,
    retry_at: Instant,
    retry_in: Duration,
    last_error: String,
}

impl Writer {
    /// Forgets a connection that has closed; the next try to connect is due at once.
    fn drop_closed_link(&mut self) {
        if self.link.as_ref().is_some_and(|l| l.client.is_closed()) {
            tracing::warn!(store = %describe_target(&self.config), "PostgreSQL connection lost");
            self.link = None;
            self.retry_at = Instant::now();
            self.retry_in = RETRY_FIRST;
        }
    }

    /// Tries to connect; on failure, the next try waits longer (up to `RETRY_MAX`).
    async fn reconnect(&mut self) {
        match Link::open(&self.config).await {
            Ok(link) => {
                tracing::info!(store = %describe_target(&self.config), "PostgreSQL connected");
                self.link = Some(link);
                self.retry_in = RETRY_FIRST;
            }
            Err(e) => {
                self.last_error = postgres_message(&e);
                tracing::warn!(store = %describe_target(&self.config), error = %self.last_error,
                               "cannot connect to PostgreSQL");
                self.retry_at = Instant::now() + self.retry_in;
                self.retry_in = (self.retry_in * 2).min(RETRY_MAX);
            }
        }
    }

    /// The connection, connecting first if one is due; an error while the server is away.
    async fn link(&mut self) -> Result<&Link, String> {
        self.drop_closed_link();
        if self.link.is_none() && Instant::now() >= self.retry_at {
            self.reconnect().await;
        }
        self.link.as_ref().ok_or_else(|| {
            StoreError::Unreachable(describe_target(&self.config), self.last_error.clone())
                .to_string()
        })
    }

    /// Asks the server, reconnecting as needed, whether the transaction `txid` committed.
    async fn settle(
        &mut self,
        txid: Option<i64>,
        answers: Vec<Result<(), String>>,
        error: String,
    ) -> Outcome {
        let unknown = format!("the connection was lost while committing ({error})");
        let Some(txid) = txid else {
            return Outcome::Failed(unknown);
        };
        tracing::warn!(txid, error = %error, "a commit's answer was lost: asking whether it was made");
        let deadline = Instant::now() + UNKNOWN_COMMIT_WAIT;
        loop {
            if let Ok(link) = self.link().await {
                match link
                    .client
                    .query_one("SELECT txid_status($1)", &[&txid])
                    .await
                    .and_then(|row| row.try_get::<_, Option<String>>(0))
                {
                    Ok(Some(status)) if status == "committed" => {
                        return Outcome::Committed(answers)
                    }
                    Ok(Some(status)) if status == "aborted" => return Outcome::Failed(unknown),
                    // Still in progress: its old connection has not ended yet.
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(e) => {
                        tracing::warn!(error = %postgres_message(&e), "cannot ask about a commit")
                    }
                }
            }
            if Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep_until(self.retry_at.max(Instant::now() + RETRY_FIRST)).await;
        }
        tracing::error!(txid, "whether a batch of writes was committed is unknown");
        Outcome::Failed(format!("{unknown}; whether it was stored is unknown"))
    }

    /// Commits the batch and answers each write.
    async fn run_batch(&mut self, batch: &mut Vec<Job>) {
        let started = std::time::Instant::now();
        let outcome = match self.link().await {
            Ok(link) => commit_batch(link, batch).await,
            Err(e) => Outcome::Failed(e),
        };
        let outcome = match outcome {
            Outcome::Unknown {
                txid,
                answers,
                error,
            } => {
                self.drop_closed_link();
                self.settle(txid, answers, error).await
            }
            known => known,
        };
        self.drop_closed_link();
        self.metrics.store_write(started.elapsed(), batch.len());
        match outcome {
            Outcome::Committed(answers) => {
                for (job, answer) in batch.drain(..).zip(answers) {
                    if let Err(e) = &answer {
                        self.metrics.store_failed();
                        tracing::error!(error = %e, "store write failed");
                    }
                    let _ = job.done.send(answer);
                }
            }
            Outcome::Failed(e) | Outcome::Unknown { error: e, .. } => {
                tracing::error!(error = %e, "store commit failed");
                for job in batch.drain(..) {
                    self.metrics.store_failed();
                    let _ = job.done.send(Err(e.clone()));
                }
            }
        }
    }
}

/// The writer task: takes every queued write (up to a batch), commits them together, then
/// answers; while the server is away it tries to connect again on its own, backing off.
pub(super) async fn run(
    config: Config,
    link: Link,
    mut jobs: mpsc::Receiver<Job>,
    metrics: Metrics,
) {
    let mut writer = Writer {
        config,
        link: Some(link),
        metrics,
        retry_at: Instant::now(),
        retry_in: RETRY_FIRST,
        last_error: String::new(),
    };
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    loop {
        writer.drop_closed_link();
        let away = writer.link.is_none();
        let retry_at = writer.retry_at;
        tokio::select! {
            taken = jobs.recv_many(&mut batch, MAX_BATCH) => {
                if taken == 0 {
                    break;
                }
                writer.run_batch(&mut batch).await;
            }
            () = tokio::time::sleep_until(retry_at), if away => writer.reconnect().await,
        }
    }
}
