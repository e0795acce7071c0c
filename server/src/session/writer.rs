//! The writer task of a connection: it drains the connection's bounded queue onto the socket
//! and pings; a client whose queue overflows is closed ("too slow to keep up") rather than
//! allowed to slow anyone else down, and no message is silently dropped. Every write is
//! bounded in time: a client that does not read cannot hold the writer, and when a frame (or
//! the close itself) cannot be written in time the writer ends, which ends the reader too and
//! drops the TCP connection.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures::stream::SplitSink;
use futures::SinkExt;
use tokio::sync::{mpsc, oneshot, watch, Notify};
use tokio::task::JoinHandle;
use tokio::time::{timeout, Instant};

use crate::metrics::Metrics;
use crate::net::connection::Out;

/// Close codes of RFC 6455 used by the server.
pub const CLOSE_GOING_AWAY: u16 = 1001;
pub const CLOSE_POLICY: u16 = 1008;
pub const CLOSE_TOO_BIG: u16 = 1009;

/// Most queued frames written before one flush.
const WRITE_BATCH: usize = 32;

/// What the writer needs besides the socket.
pub struct WriterParts {
    pub queue: mpsc::Receiver<Out>,
    /// Notified when the queue overflowed.
    pub overflow: Arc<Notify>,
    /// Fires when the reader is done: the writer sends what is queued and stops, even if a
    /// room or the lobby still holds a clone of the queue's sender.
    pub reader_done: oneshot::Receiver<()>,
    pub ping_every: Duration,
    /// The longest one write (a frame, a ping, the close) may take.
    pub send_timeout: Duration,
    /// The lobby's latest lists, sent when a queued [`Out::Lobby`] comes up.
    pub lobby: watch::Receiver<Arc<str>>,
    /// Set while a lobby frame is queued for this connection (cleared as it is taken).
    pub lobby_queued: Arc<AtomicBool>,
    pub metrics: Metrics,
}

/// The socket and what each write needs.
struct Sink {
    sink: SplitSink<WebSocket, Message>,
    send_timeout: Duration,
    lobby: watch::Receiver<Arc<str>>,
    lobby_queued: Arc<AtomicBool>,
    metrics: Metrics,
}

impl Sink {
    /// Writes one frame within the send timeout; false once the connection is done (closed,
    /// failed, or the client did not take the frame in time).
    async fn write(&mut self, frame: Message) -> bool {
        let closing = matches!(frame, Message::Close(_));
        let sent = matches!(
            timeout(self.send_timeout, self.sink.send(frame)).await,
            Ok(Ok(()))
        );
        sent && !closing
    }

    /// Writes `first` and whatever is already queued behind it (up to [`WRITE_BATCH`] frames),
    /// then flushes once: under load a connection's frames leave in one write instead of one
    /// system call each. The whole batch is bounded by the send timeout. False once the
    /// connection is done.
    async fn send_queued(&mut self, first: Out, queue: &mut mpsc::Receiver<Out>) -> bool {
        let send_timeout = self.send_timeout;
        let written = timeout(send_timeout, async {
            let mut out = first;
            let mut fed = 0;
            loop {
                let frame = self.frame(out);
                let closing = matches!(frame, Message::Close(_));
                self.sink.feed(frame).await?;
                fed += 1;
                let next = if closing || fed >= WRITE_BATCH {
                    None
                } else {
                    queue.try_recv().ok()
                };
                match next {
                    Some(queued) => out = queued,
                    None => {
                        self.sink.flush().await?;
                        return Ok::<bool, axum::Error>(!closing);
                    }
                }
            }
        })
        .await;
        matches!(written, Ok(Ok(true)))
    }

    /// The frame for one queued item.
    fn frame(&mut self, out: Out) -> Message {
        match out {
            Out::Text(text) => {
                self.metrics.message_out();
                Message::Text(text)
            }
            Out::Lobby => {
                // The lists as they are now: a subscriber that reads slowly skips the versions
                // it could not take, instead of queueing every one of them.
                self.lobby_queued.store(false, Ordering::SeqCst);
                let text = self.lobby.borrow().clone();
                self.metrics.message_out();
                Message::Text(Utf8Bytes::from(&*text))
            }
            Out::Close(code, reason) => Message::Close(Some(CloseFrame {
                code,
                reason: Utf8Bytes::from(reason.as_ref()),
            })),
        }
    }
}

/// Starts the writer of `sink`. The task ends when the connection is done; the reader waits on
/// it and ends with it.
pub fn spawn(sink: SplitSink<WebSocket, Message>, parts: WriterParts) -> JoinHandle<()> {
    let WriterParts {
        mut queue,
        overflow,
        mut reader_done,
        ping_every,
        send_timeout,
        lobby,
        lobby_queued,
        metrics,
    } = parts;
    let mut sink = Sink {
        sink,
        send_timeout,
        lobby,
        lobby_queued,
        metrics,
    };
    tokio::spawn(async move {
        let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
        // Made once: it waits for the only overflow the connection can have.
        let overflowed = overflow.notified();
        tokio::pin!(overflowed);
        loop {
            tokio::select! {
                out = queue.recv() => {
                    let Some(out) = out else { break };
                    if !sink.send_queued(out, &mut queue).await {
                        break;
                    }
                }
                _ = &mut reader_done => {
                    while let Ok(out) = queue.try_recv() {
                        if !sink.send_queued(out, &mut queue).await {
                            break;
                        }
                    }
                    break;
                }
                () = &mut overflowed => {
                    let close = Message::Close(Some(CloseFrame {
                        code: CLOSE_POLICY,
                        reason: Utf8Bytes::from_static("too slow to keep up"),
                    }));
                    sink.write(close).await;
                    break;
                }
                _ = ping.tick() => {
                    if !sink.write(Message::Ping(Vec::new().into())).await {
                        break;
                    }
                }
            }
        }
        let _ = timeout(send_timeout, sink.sink.close()).await;
    })
}
