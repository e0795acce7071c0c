//! The PostgreSQL writer: one task owning one connection, which takes every queued write (up
//! to a batch), commits them in one transaction and only then answers each, as the SQLite
//! writer does. Each batch runs whole first; if one of its writes fails, the batch is rolled
//! back and run again with a savepoint per write, so that the failed write fails alone. A
//! batch that cannot be committed (the connection lost) answers every write in it with an
//! error, and the writer reconnects by itself, backing off while the server is away.
//!
//! A connection lost while its COMMIT was under way leaves the outcome unknown: the writer
//! then asks the server, once back, whether that transaction committed, and answers by what
//! it says, so that no write is refused while in fact stored. Each batch's transaction writes
//! a marker of its own, a random id, to `commits`: the marker is there if and only if it
//! committed (a transaction id would not do: after a crash the server may give it out again).
//!
//! The server may not notice a lost connection for a while, and its backend would then sit
//! "idle in transaction", holding the batch's row locks and keys, and the batch's transaction
//! "in progress". So the writer's session limits that idle time and how long a statement waits
//! for a lock, probes its client (keepalives), and records which backend serves it: once
//! connected again, the writer ends the lost connection's backend itself.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_postgres::error::Severity;
use tokio_postgres::Client;

use super::statements::Statements;
use super::{connect, describe_target, Dial, APPLICATION_NAME};
use super::{KEEPALIVE_IDLE, KEEPALIVE_INTERVAL, KEEPALIVE_RETRIES};
use crate::metrics::Metrics;
use crate::store::error::{postgres_message, StoreError};
use crate::store::job::{failed_alone, note_failed_alone, Job};

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// The first wait before connecting again, doubled after each failure up to `RETRY_MAX`.
const RETRY_FIRST: Duration = Duration::from_millis(100);
const RETRY_MAX: Duration = Duration::from_secs(5);

/// A connection that lived this long before it was lost is reconnected at once; one lost
/// sooner (a server that takes connections and then drops them) keeps the backoff growing.
const STABLE_LINK: Duration = Duration::from_secs(5);

/// Every this many committed batches, the markers older than `MARKERS_KEPT` are removed (a
/// marker is only asked about within `UNKNOWN_COMMIT_WAIT` of its commit).
const PRUNE_EVERY: u64 = 1024;
const MARKERS_KEPT: Duration = Duration::from_secs(3600);

/// The writer's `application_name` when the URL names none.
pub(super) const WRITER_APPLICATION_NAME: &str = "kibitz-writer";

/// How long the writer's backend may sit in a transaction with no statement coming (a
/// connection lost unnoticed) before the server ends it, rolling the transaction back.
const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(10);

/// How long a write waits for a row lock (one held by a lost connection's backend not yet
/// ended) before it fails, rather than holding up every write behind it.
const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// How long the writer keeps asking whether a commit whose answer was lost was made before
/// it gives up and answers the batch as failed.
const UNKNOWN_COMMIT_WAIT: Duration = Duration::from_secs(30);

/// The server process serving a connection: its id and start time (an id alone may be given
/// to another process later).
#[derive(Clone, Debug)]
struct Backend {
    pid: i32,
    started: String,
}

/// The writer's connection, its prepared statements and its backend.
pub(super) struct Link {
    client: Client,
    statements: Statements,
    backend: Backend,
    opened: Instant,
}

impl Link {
    pub(super) async fn open(dial: &Dial) -> Result<Link, tokio_postgres::Error> {
        let mut config = dial.clone();
        if config.config.get_application_name() == Some(APPLICATION_NAME) {
            config.config.application_name(WRITER_APPLICATION_NAME);
        }
        let client = connect(&config).await?;
        client
            .batch_execute(&format!(
                "SET idle_in_transaction_session_timeout = {}; SET lock_timeout = {}; \
                 SET tcp_keepalives_idle = {}; SET tcp_keepalives_interval = {}; \
                 SET tcp_keepalives_count = {}",
                IDLE_IN_TRANSACTION.as_millis(),
                LOCK_TIMEOUT.as_millis(),
                KEEPALIVE_IDLE.as_secs(),
                KEEPALIVE_INTERVAL.as_secs(),
                KEEPALIVE_RETRIES
            ))
            .await?;
        let row = client
            .query_one(
                "SELECT pid, backend_start::text FROM pg_stat_activity \
                 WHERE pid = pg_backend_pid()",
                &[],
            )
            .await?;
        let backend = Backend {
            pid: row.try_get(0)?,
            started: row.try_get(1)?,
        };
        let statements = Statements::prepare(&client).await?;
        Ok(Link {
            client,
            statements,
            backend,
            opened: Instant::now(),
        })
    }
}

/// Ends `old`'s backend if it is still there (a lost connection's, perhaps idle in its
/// transaction); whether one was ended.
async fn terminate(db: &Client, old: &Backend) -> Result<bool, tokio_postgres::Error> {
    let ended = db
        .query_opt(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE pid = $1 AND backend_start::text = $2",
            &[&old.pid, &old.started],
        )
        .await?;
    Ok(ended.is_some())
}

/// How a batch ended.
enum Outcome {
    /// Committed: the answer of each write (a failed one stored nothing).
    Committed(Vec<Result<(), StoreError>>),
    /// Nothing of the batch was stored.
    Failed(String),
    /// The connection was lost while COMMIT was under way: the transaction marked `batch` may
    /// or may not have committed; `answers` holds what each write gets if it did.
    Unknown {
        batch: String,
        answers: Vec<Result<(), StoreError>>,
        error: String,
    },
}

/// Why a whole-batch attempt stopped.
enum Stop {
    /// Before COMMIT: nothing was stored.
    Before(String),
    /// At COMMIT.
    Commit {
        batch: String,
        error: tokio_postgres::Error,
    },
}

/// Begins a transaction and writes its marker (in the same round trip), to ask about it
/// later if the answer to its COMMIT is lost; the marker's id.
async fn begin(db: &Client) -> Result<String, tokio_postgres::Error> {
    let batch = format!("{:032x}", rand::random::<u128>());
    // The id is this function's own hex digits: nothing to quote.
    let sql = format!("BEGIN; INSERT INTO commits (id) VALUES ('{batch}')");
    if let Err(e) = db.batch_execute(&sql).await {
        // BEGIN may have run: the next batch must not start inside an aborted transaction.
        roll_back(db).await;
        return Err(e);
    }
    Ok(batch)
}

/// Whether the marker `batch` is stored.
async fn marked(db: &Client, batch: &str) -> Result<bool, tokio_postgres::Error> {
    db.query_one(
        "SELECT EXISTS (SELECT 1 FROM commits WHERE id = $1)",
        &[&batch],
    )
    .await?
    .try_get(0)
}

/// Whether the batch marked `batch`, begun on the backend `old`, committed; `None` while that
/// backend still runs (it is told to end: ask again).
async fn committed(
    db: &Client,
    batch: &str,
    old: Option<&Backend>,
) -> Result<Option<bool>, tokio_postgres::Error> {
    if marked(db, batch).await? {
        return Ok(Some(true));
    }
    if let Some(old) = old {
        if terminate(db, old).await? {
            return Ok(None);
        }
    }
    // Its backend is gone, so its transaction has ended: committed (a moment ago, perhaps)
    // if and only if its marker is there.
    Ok(Some(marked(db, batch).await?))
}

/// Ends a transaction that is not to be committed (its connection may already be gone).
async fn roll_back(db: &Client) {
    let _ = db.batch_execute("ROLLBACK").await;
}

/// Whether an error at COMMIT says the transaction was rolled back: an ordinary error the
/// server sent back does; no answer, or the session itself ending (FATAL or PANIC, an
/// operator's intervention, a connection exception), leaves it unknown.
fn rolled_back(error: &tokio_postgres::Error) -> bool {
    error.as_db_error().is_some_and(|db| {
        let class = db.code().code().get(..2).unwrap_or_default();
        let ends_session = matches!(
            db.parsed_severity(),
            Some(Severity::Fatal | Severity::Panic)
        ) || matches!(db.severity(), "FATAL" | "PANIC");
        !ends_session && class != "57" && class != "08"
    })
}

/// What a failed COMMIT means: a rollback, or an outcome to settle.
fn after_commit(
    batch: String,
    error: tokio_postgres::Error,
    answers: Vec<Result<(), StoreError>>,
) -> Outcome {
    if rolled_back(&error) {
        Outcome::Failed(StoreError::from(error).to_string())
    } else {
        Outcome::Unknown {
            batch,
            answers,
            error: StoreError::from(error).to_string(),
        }
    }
}

/// Runs every write of the batch in one transaction; on the first error nothing is stored.
async fn commit_all(link: &Link, batch: &[Job]) -> Result<(), Stop> {
    let db = &link.client;
    let marker = begin(db)
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
        .map_err(|error| Stop::Commit {
            batch: marker,
            error,
        })
}

/// Runs the batch with a savepoint per write: a write that fails is rolled back alone and
/// answered with its error. A failure the transaction cannot go on from (the connection lost)
/// fails the whole batch.
async fn commit_one_by_one(link: &Link, batch: &[Job]) -> Outcome {
    let db = &link.client;
    let marker = match begin(db).await {
        Ok(marker) => marker,
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
                // A refusal (a room not stored, a fence not the room's) fails only its write.
                Err(e) => db
                    .batch_execute("ROLLBACK TO SAVEPOINT job")
                    .await
                    .map(|()| Err(failed_alone(e))),
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
        Err(error) => after_commit(marker, error, answers),
    }
}

/// Commits the batch: whole if every write succeeds (the usual case: no savepoint per
/// write), else write by write.
async fn commit_batch(link: &Link, batch: &[Job]) -> Outcome {
    match commit_all(link, batch).await {
        Ok(()) => return Outcome::Committed(batch.iter().map(|_| Ok(())).collect()),
        Err(Stop::Commit {
            batch: marker,
            error,
        }) => return after_commit(marker, error, batch.iter().map(|_| Ok(())).collect()),
        Err(Stop::Before(e)) if link.client.is_closed() => return Outcome::Failed(e),
        Err(Stop::Before(_)) => {}
    }
    commit_one_by_one(link, batch).await
}

/// The writer task's state: its connection, when it may try to connect again, and why the
/// last try failed.
struct Writer {
    config: Dial,
    link: Option<Link>,
    metrics: Metrics,
    retry_at: Instant,
    retry_in: Duration,
    last_error: String,
    /// The backend of the connection last lost, to end once connected again.
    lost: Option<Backend>,
    /// Batches committed, to prune markers every `PRUNE_EVERY`.
    batches: u64,
}

impl Writer {
    /// Forgets a connection that has closed.
    fn drop_closed_link(&mut self) {
        if self.link.as_ref().is_some_and(|l| l.client.is_closed()) {
            tracing::warn!(store = %describe_target(&self.config.config), "PostgreSQL connection lost");
            self.forget_link();
        }
    }

    /// Drops the connection (closing it), remembering its backend. The next try to connect is
    /// due at once if it had lived a while, else after a growing wait.
    fn forget_link(&mut self) {
        let Some(link) = self.link.take() else {
            return;
        };
        self.lost = Some(link.backend);
        if link.opened.elapsed() >= STABLE_LINK {
            self.retry_at = Instant::now();
            self.retry_in = RETRY_FIRST;
        } else {
            self.retry_at = Instant::now() + self.retry_in;
            self.retry_in = (self.retry_in * 2).min(RETRY_MAX);
        }
    }

    /// Tries to connect; on failure, the next try waits longer (up to `RETRY_MAX`). Once
    /// connected, ends the lost connection's backend if the server has not yet.
    async fn reconnect(&mut self) {
        match Link::open(&self.config).await {
            Ok(link) => {
                tracing::info!(store = %describe_target(&self.config.config), "PostgreSQL connected");
                if let Some(old) = self.lost.take() {
                    match terminate(&link.client, &old).await {
                        Ok(true) => tracing::warn!(
                            pid = old.pid,
                            "ended the lost PostgreSQL connection's backend"
                        ),
                        Ok(false) => {}
                        Err(e) => tracing::warn!(pid = old.pid, error = %postgres_message(&e),
                            "cannot end the lost PostgreSQL connection's backend"),
                    }
                }
                self.link = Some(link);
            }
            Err(e) => {
                self.last_error = postgres_message(&e);
                tracing::warn!(store = %describe_target(&self.config.config), error = %self.last_error,
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
            StoreError::Unreachable(
                describe_target(&self.config.config),
                self.last_error.clone(),
            )
            .to_string()
        })
    }

    /// Asks the server, reconnecting as needed, whether the batch marked `batch`, begun on
    /// the backend `old`, committed.
    async fn settle(
        &mut self,
        jobs: &mut mpsc::Receiver<Job>,
        batch: String,
        old: Option<Backend>,
        answers: Vec<Result<(), StoreError>>,
        error: String,
    ) -> Outcome {
        let unknown = format!("the connection was lost while committing ({error})");
        tracing::warn!(batch, error = %error, "a commit's answer was lost: asking whether it was made");
        let deadline = Instant::now() + UNKNOWN_COMMIT_WAIT;
        loop {
            if let Ok(link) = self.link().await {
                match committed(&link.client, &batch, old.as_ref()).await {
                    Ok(Some(true)) => return Outcome::Committed(answers),
                    Ok(Some(false)) => return Outcome::Failed(unknown),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %postgres_message(&e), "cannot ask about a commit")
                    }
                }
            }
            if Instant::now() >= deadline {
                break;
            }
            let wake = self.retry_at.max(Instant::now() + RETRY_FIRST);
            self.refuse_until(jobs, wake).await;
        }
        tracing::error!(batch, "whether a batch of writes was committed is unknown");
        Outcome::Failed(format!("{unknown}; whether it was stored is unknown"))
    }

    /// Waits until `wake`, answering every write that arrives meanwhile with a refusal: the
    /// server is out of reach, and a write must not wait behind a batch whose fate is still
    /// being asked about (its caller is told at once, and nothing of it is stored).
    async fn refuse_until(&mut self, jobs: &mut mpsc::Receiver<Job>, wake: Instant) {
        loop {
            tokio::select! {
                () = tokio::time::sleep_until(wake) => return,
                job = jobs.recv() => {
                    let Some(job) = job else {
                        tokio::time::sleep_until(wake).await;
                        return;
                    };
                    self.metrics.store_failed();
                    let why = StoreError::Unreachable(
                        describe_target(&self.config.config),
                        format!("{} (an earlier commit's outcome is being settled)", self.last_error),
                    );
                    let _ = job.done.send(Err(why));
                }
            }
        }
    }

    /// Now and then, removes the markers of batches long settled.
    async fn prune_markers(&mut self) {
        self.batches += 1;
        if !self.batches.is_multiple_of(PRUNE_EVERY) {
            return;
        }
        if let Some(link) = &self.link {
            let prune = format!(
                "DELETE FROM commits WHERE made < now() - interval '{} seconds'",
                MARKERS_KEPT.as_secs()
            );
            if let Err(e) = link.client.batch_execute(&prune).await {
                tracing::warn!(error = %postgres_message(&e), "cannot remove old commit markers");
            }
        }
    }

    /// Commits the batch and answers each write.
    async fn run_batch(&mut self, jobs: &mut mpsc::Receiver<Job>, batch: &mut Vec<Job>) {
        let started = std::time::Instant::now();
        let outcome = match self.link().await {
            Ok(link) => commit_batch(link, batch).await,
            Err(e) => Outcome::Failed(e),
        };
        let outcome = match outcome {
            Outcome::Unknown {
                batch,
                answers,
                error,
            } => {
                // The connection is not to be used again, even if it has not closed yet.
                let old = self.link.as_ref().map(|l| l.backend.clone());
                self.forget_link();
                self.settle(jobs, batch, old, answers, error).await
            }
            known => known,
        };
        self.drop_closed_link();
        if matches!(outcome, Outcome::Committed(_)) {
            self.prune_markers().await;
        }
        self.metrics.store_write(started.elapsed(), batch.len());
        match outcome {
            Outcome::Committed(answers) => {
                for (job, answer) in batch.drain(..).zip(answers) {
                    if let Err(e) = &answer {
                        note_failed_alone(&self.metrics, e);
                    }
                    let _ = job.done.send(answer);
                }
            }
            Outcome::Failed(e) | Outcome::Unknown { error: e, .. } => {
                tracing::error!(error = %e, "store commit failed");
                for job in batch.drain(..) {
                    self.metrics.store_failed();
                    let _ = job.done.send(Err(StoreError::Write(e.clone())));
                }
            }
        }
    }
}

/// The writer task: takes every queued write (up to a batch), commits them together, then
/// answers; while the server is away it tries to connect again on its own, backing off.
pub(super) async fn run(config: Dial, link: Link, mut jobs: mpsc::Receiver<Job>, metrics: Metrics) {
    let mut writer = Writer {
        config,
        link: Some(link),
        metrics,
        retry_at: Instant::now(),
        retry_in: RETRY_FIRST,
        last_error: String::new(),
        lost: None,
        batches: 0,
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
                writer.run_batch(&mut jobs, &mut batch).await;
            }
            () = tokio::time::sleep_until(retry_at), if away => writer.reconnect().await,
        }
    }
}
