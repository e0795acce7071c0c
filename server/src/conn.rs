//! The sending half of a client connection as the rest of the server sees it: a bounded queue
//! of frames, and a way to drop a client that cannot keep up instead of slowing anyone else.

use std::sync::Arc;

use tokio::sync::{mpsc, Notify};

use game_core::protocol::ServerMsg;

/// One outgoing frame.
#[derive(Debug)]
pub enum Out {
    /// A JSON text frame, serialised once and shared between recipients.
    Text(Arc<str>),
    /// Close the connection with this code and reason.
    Close(u16, &'static str),
}

/// Cheap-clone handle to a connection's outgoing queue.
#[derive(Clone, Debug)]
pub struct Conn {
    pub id: u64,
    tx: mpsc::Sender<Out>,
    /// Notified when the queue overflowed: the writer then closes the socket.
    overflow: Arc<Notify>,
}

impl Conn {
    #[must_use]
    pub fn new(id: u64, tx: mpsc::Sender<Out>, overflow: Arc<Notify>) -> Conn {
        Conn { id, tx, overflow }
    }

    /// Queues a frame; a full queue marks the client as too slow (it will be disconnected).
    pub fn send_text(&self, text: Arc<str>) {
        match self.tx.try_send(Out::Text(text)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => self.overflow.notify_one(),
            Err(mpsc::error::TrySendError::Closed(_)) => {}
        }
    }

    /// Serialises and queues one message.
    pub fn send(&self, msg: &ServerMsg) {
        self.send_text(Arc::from(msg.to_json()));
    }

    /// Queues a close frame behind what is already queued.
    pub async fn close(&self, code: u16, reason: &'static str) {
        let _ = self.tx.send(Out::Close(code, reason)).await;
    }

    /// True once the connection's writer is gone.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
