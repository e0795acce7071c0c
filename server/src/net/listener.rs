//! The accept loop, and the sockets it hands to HTTP. Every socket must send a whole request
//! head within the handshake time of opening (and of its previous request), or it is closed;
//! one address may hold only so many sockets that are not WebSockets; and once the open
//! sockets come within a reserve of the process's open-file limit, a new socket takes the
//! place of the oldest one still in its handshake — or, when there is none (or too many are
//! still closing), is answered `503` (`/healthz` still `200`) and closed. Accept errors are logged at most once per
//! interval, and the loop pauses after one instead of spinning.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::connect_info::Connected;
use axum::serve::IncomingStream;
use futures::task::AtomicWaker;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::{sleep_until, timeout, Instant, Sleep};

use crate::config::Limits;
use crate::metrics::Metrics;
use crate::net::client_addr::is_trusted;
use crate::net::gate::{Admission, ConnectionGate};

/// Accept errors are logged at most this often.
const ERROR_LOG_EVERY: Duration = Duration::from_secs(10);
/// After an accept error (out of files, say), the loop waits this long before the next try.
const ERROR_PAUSE: Duration = Duration::from_millis(100);
/// Sockets answered 503 at once when the server is full, taken from the reserve.
const SHED_AT_ONCE: usize = 16;
/// Evicted sockets close when their task next runs; past the capacity, at most this many may
/// still be open while new sockets take their places. Taken from the reserve too.
const EVICTING_AT_ONCE: usize = 16;
/// With that many still closing, the accept loop waits this long at most for one to close
/// (the next sockets wait in the kernel's queue meanwhile, holding no file of ours).
const EVICTION_WAIT: Duration = Duration::from_secs(1);
/// How long a socket answered 503 has to send its request line.
const SHED_READ: Duration = Duration::from_secs(1);

const HANDSHAKE: u8 = 0;
const UPGRADED: u8 = 1;
const EVICTED: u8 = 2;

/// Why a socket was closed before it became a WebSocket or finished its request.
#[derive(Copy, Clone, Debug)]
pub enum Shed {
    /// No whole request head within the handshake time.
    Timeout,
    /// The oldest handshake, closed to make room for a new socket near the open-file limit.
    Evicted,
    /// Its address already had the most sockets that are not WebSockets.
    Address,
    /// The server was full and nothing could make room.
    Full,
}

impl Shed {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Shed::Timeout => "timeout",
            Shed::Evicted => "evicted",
            Shed::Address => "address",
            Shed::Full => "full",
        }
    }
}

/// One socket as the accept loop and HTTP see it.
#[derive(Debug)]
pub struct SocketState {
    id: u64,
    phase: AtomicU8,
    /// When the handshake time runs out, in milliseconds after the registry's epoch.
    deadline_ms: AtomicU64,
    /// Wakes the socket's task when it is evicted.
    waker: AtomicWaker,
    /// Its place among the address's sockets that are not WebSockets.
    pending: Mutex<Option<Admission>>,
}

/// The open sockets of the server.
pub struct Sockets {
    epoch: Instant,
    handshake_timeout: Duration,
    /// Most sockets open at once (the open-file limit less the reserve), if known.
    capacity: Option<usize>,
    per_address: ConnectionGate,
    /// Reverse proxies: their sockets carry many clients, and are not held to the handshakes
    /// per address.
    trusted_proxies: Vec<ipnet::IpNet>,
    open: AtomicUsize,
    next_id: AtomicU64,
    /// Sockets still in their handshake (or plain HTTP), oldest first.
    pending: Mutex<BTreeMap<u64, Arc<SocketState>>>,
    shedding: AtomicUsize,
    /// Notified whenever a socket closes.
    closes: Notify,
    metrics: Metrics,
}

impl Sockets {
    /// The registry under `limits`; its capacity comes from the process's open-file limit.
    #[must_use]
    pub fn new(limits: &Limits, metrics: Metrics) -> Sockets {
        let capacity = open_file_limit().map(|max| max.saturating_sub(limits.fd_reserve).max(1));
        Sockets {
            epoch: Instant::now(),
            handshake_timeout: limits.handshake_timeout,
            capacity,
            per_address: ConnectionGate::new(limits.handshakes_per_address),
            trusted_proxies: limits.trusted_proxies.0.clone(),
            open: AtomicUsize::new(0),
            next_id: AtomicU64::new(1),
            pending: Mutex::new(BTreeMap::new()),
            shedding: AtomicUsize::new(0),
            closes: Notify::new(),
            metrics,
        }
    }

    /// Sockets open now (WebSockets included).
    #[must_use]
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Most sockets open at once, if the open-file limit is known.
    #[must_use]
    pub fn capacity(&self) -> Option<usize> {
        self.capacity
    }

    fn ms_after_epoch(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.epoch).as_millis() as u64
    }

    fn pending_map(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<SocketState>>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A request arrived on `socket`: it has the handshake time again to be answered and to
    /// send its next one.
    pub fn request_started(&self, socket: &SocketState) {
        let deadline = self.ms_after_epoch(Instant::now() + self.handshake_timeout);
        socket.deadline_ms.store(deadline, Ordering::SeqCst);
    }

    /// `socket` became a WebSocket: no handshake time any more, and it leaves its address's
    /// count of sockets that are not WebSockets (it counts among its WebSockets instead).
    pub fn upgraded(&self, socket: &SocketState) {
        if socket
            .phase
            .compare_exchange(HANDSHAKE, UPGRADED, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            self.pending_map().remove(&socket.id);
            socket
                .pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
        }
    }

    /// Closes the oldest socket still in its handshake; false when there is none.
    fn evict_oldest(&self) -> bool {
        loop {
            let Some((_, socket)) = self.pending_map().pop_first() else {
                return false;
            };
            if socket
                .phase
                .compare_exchange(HANDSHAKE, EVICTED, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                self.metrics.socket_shed(Shed::Evicted.as_str());
                socket.waker.wake();
                return true;
            }
        }
    }

    fn closed(&self, socket: &SocketState) {
        self.open.fetch_sub(1, Ordering::SeqCst);
        self.metrics.sockets(self.open());
        self.pending_map().remove(&socket.id);
        self.closes.notify_waiters();
    }

    /// Whether a new socket may come in: below the capacity, or by taking the place of the
    /// oldest handshake. With too many evicted sockets still closing, waits (bounded) for them.
    async fn make_room(&self) -> bool {
        let Some(cap) = self.capacity else {
            return true;
        };
        let waited_until = Instant::now() + EVICTION_WAIT;
        loop {
            let closed = self.closes.notified();
            let open = self.open();
            if open < cap {
                return true;
            }
            if open < cap + EVICTING_AT_ONCE {
                return self.evict_oldest();
            }
            if timeout(
                waited_until.saturating_duration_since(Instant::now()),
                closed,
            )
            .await
            .is_err()
            {
                return false;
            }
        }
    }
}

/// The process's limit of open files (the soft one), where the system says it.
fn open_file_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// The server's listener: TCP accept with the rules above.
pub struct GuardedListener {
    tcp: TcpListener,
    sockets: Arc<Sockets>,
    last_error_log: Option<Instant>,
    errors_unlogged: u64,
}

impl GuardedListener {
    #[must_use]
    pub fn new(tcp: TcpListener, sockets: Arc<Sockets>) -> GuardedListener {
        GuardedListener {
            tcp,
            sockets,
            last_error_log: None,
            errors_unlogged: 0,
        }
    }

    /// Logs an accept error, at most once per interval (with how many were not logged).
    fn log_error(&mut self, e: &io::Error) {
        let now = Instant::now();
        if self
            .last_error_log
            .is_some_and(|t| now.saturating_duration_since(t) < ERROR_LOG_EVERY)
        {
            self.errors_unlogged += 1;
            return;
        }
        tracing::error!(error = %e, unlogged = self.errors_unlogged, "accept error");
        self.last_error_log = Some(now);
        self.errors_unlogged = 0;
    }

    /// Takes a socket in, or sheds it; `None` when it was shed.
    async fn admit(&self, tcp: TcpStream, peer: SocketAddr) -> Option<GuardedStream> {
        let sockets = &self.sockets;
        let place = if is_trusted(&sockets.trusted_proxies, peer.ip()) {
            None
        } else {
            let Some(place) = sockets.per_address.admit(peer.ip()) else {
                sockets.metrics.socket_shed(Shed::Address.as_str());
                refuse_at_once(&tcp, peer.ip(), sockets.per_address.max());
                return None;
            };
            Some(place)
        };
        if !sockets.make_room().await {
            sockets.metrics.socket_shed(Shed::Full.as_str());
            shed(tcp, sockets);
            return None;
        }
        let _ = tcp.set_nodelay(true);
        let id = sockets.next_id.fetch_add(1, Ordering::Relaxed);
        let deadline = Instant::now() + sockets.handshake_timeout;
        let state = Arc::new(SocketState {
            id,
            phase: AtomicU8::new(HANDSHAKE),
            deadline_ms: AtomicU64::new(sockets.ms_after_epoch(deadline)),
            waker: AtomicWaker::new(),
            pending: Mutex::new(place),
        });
        sockets.pending_map().insert(id, Arc::clone(&state));
        sockets.open.fetch_add(1, Ordering::SeqCst);
        sockets.metrics.sockets(sockets.open());
        Some(GuardedStream {
            tcp,
            state,
            sockets: Arc::clone(sockets),
            sleep: Some(Box::pin(sleep_until(deadline))),
            deadline,
        })
    }
}

/// Answers a socket over its address's limit with 429, if the answer fits in the socket's
/// buffer now (it always does on a fresh socket), and closes it.
fn refuse_at_once(tcp: &TcpStream, address: IpAddr, max: usize) {
    let body = format!(
        "too many connections from your address {address} (at most {max} not yet WebSockets)\n"
    );
    let response = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tcp.try_write(response.as_bytes());
}

/// The server is full: a few sockets at once are read briefly and answered (`/healthz` 200,
/// anything else 503); beyond those, a socket is closed at once.
fn shed(mut tcp: TcpStream, sockets: &Arc<Sockets>) {
    if sockets.shedding.fetch_add(1, Ordering::SeqCst) >= SHED_AT_ONCE {
        sockets.shedding.fetch_sub(1, Ordering::SeqCst);
        return;
    }
    let sockets = Arc::clone(sockets);
    tokio::spawn(async move {
        let mut head = [0u8; 512];
        let read = timeout(SHED_READ, tcp.read(&mut head)).await;
        let health = matches!(read, Ok(Ok(n)) if head[..n].starts_with(b"GET /healthz "));
        let (status, body) = if health {
            ("200 OK", "ok")
        } else {
            (
                "503 Service Unavailable",
                "the server is full; try again shortly\n",
            )
        };
        let response = format!(
            "HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n\
             content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = timeout(SHED_READ, tcp.write_all(response.as_bytes())).await;
        drop(tcp);
        sockets.shedding.fetch_sub(1, Ordering::SeqCst);
    });
}

impl axum::serve::Listener for GuardedListener {
    type Io = GuardedStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (GuardedStream, SocketAddr) {
        loop {
            match self.tcp.accept().await {
                Ok((tcp, peer)) => {
                    if let Some(stream) = self.admit(tcp, peer).await {
                        return (stream, peer);
                    }
                }
                // The client gave up before we took it: nothing to report.
                Err(e) if is_connection_error(&e) => {}
                Err(e) => {
                    self.log_error(&e);
                    tokio::time::sleep(ERROR_PAUSE).await;
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A socket taken in: TCP, with the handshake time enforced on every read and write until it
/// becomes a WebSocket.
pub struct GuardedStream {
    tcp: TcpStream,
    state: Arc<SocketState>,
    sockets: Arc<Sockets>,
    /// The handshake timer; dropped once the socket is a WebSocket, which it stays.
    sleep: Option<Pin<Box<Sleep>>>,
    deadline: Instant,
}

impl GuardedStream {
    /// An error once the socket's handshake time ran out or it was evicted.
    fn check(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        // Upgraded is final: from then on every read and write passes without a look.
        let sleep = self.sleep.as_mut()?;
        match self.state.phase.load(Ordering::SeqCst) {
            UPGRADED => {
                self.sleep = None;
                None
            }
            EVICTED => Some(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "closed to make room",
            )),
            _ => {
                self.state.waker.register(cx.waker());
                let ms = self.state.deadline_ms.load(Ordering::SeqCst);
                let deadline = self.sockets.epoch + Duration::from_millis(ms);
                if deadline != self.deadline {
                    self.deadline = deadline;
                    sleep.as_mut().reset(deadline);
                }
                if sleep.as_mut().poll(cx).is_ready() {
                    self.sockets.metrics.socket_shed(Shed::Timeout.as_str());
                    // Counted once: the socket is closed after this error.
                    self.state.phase.store(EVICTED, Ordering::SeqCst);
                    return Some(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "no request within the handshake time",
                    ));
                }
                None
            }
        }
    }
}

impl Drop for GuardedStream {
    fn drop(&mut self) {
        self.sockets.closed(&self.state);
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(e) = this.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(e) = this.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(e) = this.check(cx) {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut this.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}

/// Who is on the other end of a request: its address, and its socket (to end the socket's
/// handshake time when it becomes a WebSocket).
#[derive(Clone, Debug)]
pub struct Peer {
    pub addr: SocketAddr,
    pub socket: Arc<SocketState>,
}

impl Connected<IncomingStream<'_, GuardedListener>> for Peer {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> Self {
        Peer {
            addr: *stream.remote_addr(),
            socket: Arc::clone(&stream.io().state),
        }
    }
}
