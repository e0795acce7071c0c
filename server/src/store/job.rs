//! A write queued for a backend's writer, and the wait for its answer: every backend answers
//! a write only once it is committed (or has failed), through the job's own channel.

use tokio::sync::{mpsc, oneshot};

use super::error::StoreError;
use super::records::Write;
use crate::metrics::Metrics;

/// One queued write and where its answer goes.
pub(super) struct Job {
    pub write: Write,
    pub done: oneshot::Sender<Result<(), StoreError>>,
}

/// How a write that failed alone is answered: a refusal by the store's rules (a room not
/// stored, a fencing token not the room's) as itself, so that its writer can act on it; any
/// other failure as the backend's message.
pub(super) fn failed_alone(error: StoreError) -> StoreError {
    match error {
        StoreError::NoSuchRoom(_)
        | StoreError::Fenced { .. }
        | StoreError::NameTaken(_)
        | StoreError::HasAccount
        | StoreError::Edited(_) => error,
        other => StoreError::Write(other.to_string()),
    }
}

/// Counts and logs a write that failed alone. One fenced off is logged as news, not as an
/// error: its room has another owner, whose writes go on.
pub(super) fn note_failed_alone(metrics: &Metrics, error: &StoreError) {
    if matches!(
        error,
        StoreError::NameTaken(_) | StoreError::HasAccount | StoreError::Edited(_)
    ) {
        // A refusal its writer acts on, not a failure of the store.
        tracing::info!(error = %error, "account refused");
        return;
    }
    metrics.store_failed();
    if matches!(error, StoreError::Fenced { .. }) {
        tracing::info!(error = %error, "store write fenced off");
    } else {
        tracing::error!(error = %error, "store write failed");
    }
}

/// Queues `write` for the writer behind `jobs` and waits until it is committed or has failed.
pub(super) async fn submit(jobs: &mpsc::Sender<Job>, write: Write) -> Result<(), StoreError> {
    let (done, wait) = oneshot::channel();
    jobs.send(Job { write, done })
        .await
        .map_err(|_| StoreError::Closed)?;
    wait.await.unwrap_or(Err(StoreError::Closed))
}
