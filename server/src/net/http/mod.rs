//! The HTTP side of the one port: `/ws` (the protocol, at most so many connections per client
//! address), `/` and the web client's files, `/healthz`, `/metrics`, finished games as JSON,
//! SGF and PSQ under `/api/games/{room}`, read through the store's interface, and the routes
//! of accounts and tournaments under `/api/`. Every request gives its socket the handshake
//! time again (`crate::net::listener`); an upgrade ends it.

pub mod accounts;
pub mod assets;
pub mod blocks;
pub mod correspondence;
pub mod explorer;
pub mod follows;
pub mod moderation;
pub mod puzzles;
pub mod reports;
pub mod tournaments;
pub mod web;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use game_core::record::GameRecord;

use crate::hub::SharedHub;
use crate::net::client_addr::client_ip;
use crate::net::listener::Peer;
use crate::store::{StoredChat, StoredRoom};

/// Frames up to this size reach the session even above the protocol's limit, so that it can
/// close them with 1009 and a reason instead of a bare transport error; only a frame beyond
/// it ends the connection at the transport.
const TRANSPORT_MAX_BYTES: usize = 1024 * 1024;

/// What the WebSocket reads into at a time. The transport's default (128 KiB) is allocated for
/// every connection and zeroed on every read, although the protocol's frames are a few hundred
/// bytes: it made most of an idle connection's cost and much of a busy server's time. A larger
/// frame still arrives whole; the buffer grows for it.
const READ_BUFFER_BYTES: usize = 1024;

/// How much outgoing data is gathered before it is written. The session flushes after each
/// message anyway, so a large gathering buffer would only hold memory.
const WRITE_BUFFER_BYTES: usize = 4 * 1024;

/// The router of the server. It needs the peer of each connection: serve it on a
/// [`crate::net::listener::GuardedListener`] with `into_make_service_with_connect_info::<Peer>()`.
pub fn router(hub: SharedHub) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/api/games/{room}", get(game_json))
        .route("/api/games/{room}/sgf", get(game_sgf))
        .route("/api/games/{room}/psq", get(game_psq))
        .merge(crate::net::http::accounts::routes())
        .merge(crate::net::http::tournaments::routes())
        .merge(crate::net::http::explorer::routes())
        .merge(crate::net::http::puzzles::routes())
        .merge(crate::net::http::blocks::routes())
        .merge(crate::net::http::reports::routes())
        .merge(crate::net::http::correspondence::routes())
        .merge(crate::net::http::moderation::routes())
        .merge(crate::net::http::follows::routes())
        .fallback(get(crate::net::http::web::static_file))
        .layer(middleware::from_fn_with_state(hub.clone(), request_started))
        .with_state(hub)
}

/// A request arrived: its socket has the handshake time again, for the answer and the next
/// request.
async fn request_started(State(hub): State<SharedHub>, request: Request, next: Next) -> Response {
    if let Some(ConnectInfo(peer)) = request.extensions().get::<ConnectInfo<Peer>>() {
        hub.sockets().request_started(&peer.socket);
    }
    next.run(request).await
}

async fn ws(
    upgrade: WebSocketUpgrade,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
    State(hub): State<SharedHub>,
) -> Response {
    let client = client_ip(
        &hub.config().limits.trusted_proxies.0,
        peer.addr.ip(),
        &headers,
    );
    let Some(admission) = hub.gate().admit(client) else {
        let max = hub.config().limits.connections_per_address;
        hub.metrics().connection_refused();
        let body = format!(
            "too many connections from your address (at most {max} at once); close one and try again\n"
        );
        return (StatusCode::TOO_MANY_REQUESTS, body).into_response();
    };
    // From here the session's own rules (idle time, send timeout) hold the socket.
    hub.sockets().upgraded(&peer.socket);
    let max = TRANSPORT_MAX_BYTES.max(hub.config().limits.max_frame_bytes);
    upgrade
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .max_message_size(max)
        .max_frame_size(max)
        .on_upgrade(move |socket| crate::session::reader::serve(socket, hub, admission))
}

/// The metrics, to a scraper that shows the token when the server has one (401 otherwise,
/// with the scheme to use). The series say how busy the hall is, not who plays in it; the token
/// is for a node whose port is reachable from outside its machine.
async fn metrics(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    if let Some(token) = hub.config().metrics_token.as_deref() {
        let shown = accounts::bearer_token(&headers);
        if !shown.is_some_and(|s| crate::token::constant_time_eq(s.as_bytes(), token.as_bytes())) {
            return (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, "Bearer realm=\"metrics\"")],
                "the metrics need the token: Authorization: Bearer TOKEN\n",
            )
                .into_response();
        }
    }
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        hub.metrics().render(),
    )
        .into_response()
}

#[derive(Serialize)]
struct GameJson {
    #[serde(flatten)]
    room: StoredRoom,
    chat: Vec<StoredChat>,
    /// The move string of the engine contract.
    move_string: String,
}

async fn load(hub: &SharedHub, room: &str) -> Result<StoredRoom, Response> {
    match hub.store().read_room(room).await {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err((StatusCode::NOT_FOUND, "no such game\n").into_response()),
        Err(e) => {
            tracing::error!(error = %e, "reading a game failed");
            Err((StatusCode::INTERNAL_SERVER_ERROR, "store error\n").into_response())
        }
    }
}

/// The room's record for the exports: its stones on the board (see [`GameRecord::on_board`]).
fn record_of(room: &StoredRoom) -> GameRecord {
    let mut moves = room.head.opening.clone();
    moves.extend(room.moves.iter().map(|m| m.mv.clone()));
    GameRecord {
        spec: room.head.game.clone(),
        moves,
        black: room.black.as_ref().map(|s| s.name.clone()),
        white: room.white.as_ref().map(|s| s.name.clone()),
        result: room.result.clone(),
    }
    .on_board()
}

async fn game_json(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let chat = hub.store().read_chat(&room).await.unwrap_or_default();
    let move_string = record_of(&stored).move_string();
    Json(GameJson {
        room: stored,
        chat,
        move_string,
    })
    .into_response()
}

/// A record file as a download.
fn attachment(room: &str, extension: &str, content_type: &str, text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"kibitz-{room}.{extension}\""),
            ),
        ],
        text,
    )
        .into_response()
}

async fn game_sgf(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match record_of(&stored).to_sgf() {
        Ok(text) => attachment(&room, "sgf", "application/x-go-sgf", text),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("{e}\n")).into_response(),
    }
}

async fn game_psq(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match record_of(&stored).to_psq() {
        Ok(text) => attachment(&room, "psq", "text/plain; charset=utf-8", text),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("{e}\n")).into_response(),
    }
}
