//! A write queued for a backend's writer, and the wait for its answer: every backend answers
//! a write only once it is committed (or has failed), through the job's own channel.

use tokio::sync::{mpsc, oneshot};

use super::error::StoreError;
use super::records::Write;

/// One queued write and where its answer goes.
pub(super) struct Job {
    pub write: Write,
    pub done: oneshot::Sender<Result<(), String>>,
}

/// Queues `write` for the writer behind `jobs` and waits until it is committed or has failed.
pub(super) async fn submit(jobs: &mpsc::Sender<Job>, write: Write) -> Result<(), StoreError> {
    let (done, wait) = oneshot::channel();
    jobs.send(Job { write, done })
        .await
        .map_err(|_| StoreError::Closed)?;
    match wait.await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(StoreError::Write(e)),
        Err(_) => Err(StoreError::Closed),
    }
}
