//! The read loop of a connection: every frame passes the frame rules (size, text only, rate,
//! refusals) before it is parsed, in one place, and handed to the session; the loop races the
//! socket against shutdown, idleness and the writer (a writer that gave up on a client that
//! does not read ends the connection), and ends the connection cleanly.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures::StreamExt;
use tokio::sync::{mpsc, oneshot, Notify};
use tokio::time::{timeout, Instant};

use game_core::protocol::{parse_client, ErrorCode};

use super::dispatch::Session;
use super::error::SessionError;
use super::frames::{too_big_reason, FrameGate};
use super::writer::{self, WriterParts, CLOSE_GOING_AWAY, CLOSE_POLICY, CLOSE_TOO_BIG};
use crate::hub::SharedHub;
use crate::net::connection::{Conn, Out};
use crate::net::gate::Admission;
use crate::refusal::About;

/// How long the server waits for a client to answer its close frame.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

/// How long a closing connection may take to flush its last frames.
const WRITER_GRACE: Duration = Duration::from_secs(5);

/// The reader's side of a connection.
struct Reader {
    hub: SharedHub,
    conn: Conn,
    session: Session,
    gate: FrameGate,
    /// The server has queued a close frame for this connection.
    closing: bool,
}

/// Serves one upgraded WebSocket until it closes or the server shuts down. `admission` holds
/// the connection's place among those of its address until it ends.
pub async fn serve(socket: WebSocket, hub: SharedHub, admission: Admission) {
    let (sink, mut stream) = socket.split();
    let (tx, queue) = mpsc::channel::<Out>(hub.config().limits.outgoing_queue);
    let overflow = Arc::new(Notify::new());
    let conn = Conn::new(hub.next_conn_id(), tx, overflow.clone());
    let lobby_queued = conn.lobby_flag();
    hub.metrics().connection_opened();
    hub.session_started();
    let (reader_done, reader_done_rx) = oneshot::channel::<()>();
    let mut writer = writer::spawn(
        sink,
        WriterParts {
            queue,
            overflow,
            reader_done: reader_done_rx,
            ping_every: hub.config().limits.ping_interval,
            send_timeout: hub.config().limits.send_timeout,
            lobby: hub.lobby().latest(),
            lobby_queued,
            metrics: hub.metrics().clone(),
        },
    );

    let mut reader = Reader {
        hub: hub.clone(),
        session: Session::new(hub.clone(), conn.clone(), admission.address()),
        conn,
        gate: FrameGate::default(),
        closing: false,
    };
    let mut shutdown = hub.shutdown().clone();
    let shutting_down = shutdown.changed();
    tokio::pin!(shutting_down);
    // One idle timer for the connection's life, moved on only when it fires: a fresh timer
    // for every frame would cost a timer-wheel insertion and removal per message.
    let idle = hub.config().limits.idle_timeout;
    let mut last_frame = Instant::now();
    let idle_timer = tokio::time::sleep_until(last_frame + idle);
    tokio::pin!(idle_timer);
    let mut writer_ended = false;
    loop {
        tokio::select! {
            _ = &mut writer => {
                // The client stopped taking frames (or the socket failed): nothing more can
                // reach it, so the connection ends here and its rooms learn it.
                writer_ended = true;
                break;
            }
            () = &mut idle_timer => {
                let quiet_until = last_frame + idle;
                if Instant::now() >= quiet_until {
                    reader.close(CLOSE_POLICY, "idle for too long").await;
                    break;
                }
                idle_timer.as_mut().reset(quiet_until);
            }
            frame = stream.next() => {
                last_frame = Instant::now();
                let frame = match frame {
                    None | Some(Err(_)) => break,
                    Some(Ok(frame)) => frame,
                };
                if !reader.on_frame(frame).await {
                    break;
                }
            }
            _ = &mut shutting_down => {
                reader.close(CLOSE_GOING_AWAY, "server shutting down").await;
                break;
            }
        }
    }
    let Reader {
        mut session,
        conn,
        closing,
        ..
    } = reader;
    // Boxed for the same reason as a message's handling: it runs once, at the end.
    Box::pin(session.finish()).await;
    drop(session);
    drop(conn);
    let _ = reader_done.send(());
    if closing && !writer_ended {
        // Complete the closing handshake: read until the client's close answers ours, so
        // that frames still in flight from the client do not reset the connection and
        // lose our close frame on the way.
        let _ = timeout(CLOSE_GRACE, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    // A client that does not read cannot hold the writer (and shutdown) forever.
    if !writer_ended {
        let _ = timeout(WRITER_GRACE, writer).await;
    }
    drop(stream);
    drop(admission);
    hub.metrics().connection_closed();
    hub.session_ended();
}

impl Reader {
    /// Closes after whatever is queued, so it goes through the same queue.
    async fn close(&mut self, code: u16, reason: impl Into<std::borrow::Cow<'static, str>>) {
        self.closing = true;
        self.conn.close(code, reason).await;
    }

    /// A refusal counts against the connection; past the limit it is closed. Returns whether
    /// to go on.
    async fn refused(&mut self, why: &SessionError) -> bool {
        self.session.refuse(why, About::default());
        if self
            .gate
            .bear_refusal(&self.hub.config().limits, Instant::now())
        {
            return true;
        }
        self.close(CLOSE_POLICY, "too many refused messages").await;
        false
    }

    /// One frame; returns whether to go on reading.
    async fn on_frame(&mut self, frame: Message) -> bool {
        match frame {
            Message::Text(text) => self.on_text(text.as_str()).await,
            Message::Binary(_) => self.refused(&SessionError::BinaryFrame).await,
            Message::Ping(_) | Message::Pong(_) => true,
            Message::Close(_) => false,
        }
    }

    async fn on_text(&mut self, text: &str) -> bool {
        let limits = &self.hub.config().limits;
        self.hub.metrics().message_in();
        let received = Instant::now();
        if text.len() > limits.max_frame_bytes {
            self.hub.metrics().error(ErrorCode::TooLong.as_str());
            let reason = too_big_reason(limits.max_frame_bytes);
            self.close(CLOSE_TOO_BIG, reason).await;
            return false;
        }
        if !self.gate.admit(limits, self.session.role(), received) {
            return self.refused(&SessionError::RateLimited).await;
        }
        match parse_client(text) {
            // Boxed: handling a message (creating a room, joining one, ...) takes a few KB of
            // state, which an idle connection would otherwise hold all its life inside its
            // reader. The box lives only while a message is in flight.
            Ok(msg) => Box::pin(self.session.on_message(msg, received)).await,
            Err(e) => {
                self.hub.metrics().error(e.code.as_str());
                self.conn.send(&e.to_server_msg());
            }
        }
        true
    }
}
