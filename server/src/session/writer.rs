//! The writer task of a connection: it drains the connection's bounded queue onto the socket
//! and pings; a client whose queue overflows is closed ("too slow to keep up") rather than
//! allowed to slow anyone else down, and no message is silently dropped.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures::stream::SplitSink;
use futures::SinkExt;
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::conn::Out;
use crate::metrics::Metrics;

/// Close codes of RFC 6455 used by the server.
pub const CLOSE_GOING_AWAY: u16 = 1001;
pub const CLOSE_POLICY: u16 = 1008;
pub const CLOSE_TOO_BIG: u16 = 1009;

/// What the writer needs besides the socket.
pub struct WriterParts {
    pub queue: mpsc::Receiver<Out>,
    /// Notified when the queue overflowed.
    pub overflow: Arc<Notify>,
    /// Fires when the reader is done: the writer sends what is queued and stops, even if a
    /// room or the lobby still holds a clone of the queue's sender.
    pub reader_done: oneshot::Receiver<()>,
    pub ping_every: Duration,
    pub metrics: Metrics,
}

/// Sends one queued frame; false once the connection is done (closed, or the send failed).
async fn send(sink: &mut SplitSink<WebSocket, Message>, out: Out, metrics: &Metrics) -> bool {
    let frame = match out {
        Out::Text(text) => {
            metrics.message_out();
            Message::Text(Utf8Bytes::from(&*text))
        }
        Out::Close(code, reason) => Message::Close(Some(CloseFrame {
            code,
            reason: Utf8Bytes::from(reason.as_ref()),
        })),
    };
    let closing = matches!(frame, Message::Close(_));
    sink.send(frame).await.is_ok() && !closing
}

/// Starts the writer of `sink`.
pub fn spawn(mut sink: SplitSink<WebSocket, Message>, parts: WriterParts) -> JoinHandle<()> {
    let WriterParts {
        mut queue,
        overflow,
        mut reader_done,
        ping_every,
        metrics,
    } = parts;
    tokio::spawn(async move {
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        loop {
            tokio::select! {
                out = queue.recv() => {
                    let Some(out) = out else { break };
                    if !send(&mut sink, out, &metrics).await {
                        break;
                    }
                }
                _ = &mut reader_done => {
                    while let Ok(out) = queue.try_recv() {
                        if !send(&mut sink, out, &metrics).await {
                            break;
                        }
                    }
                    break;
                }
                () = overflow.notified() => {
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: CLOSE_POLICY,
                            reason: Utf8Bytes::from_static("too slow to keep up"),
                        })))
                        .await;
                    break;
                }
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Vec::new().into())).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = sink.close().await;
    })
}
