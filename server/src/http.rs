//! The HTTP side of the one port: `/ws` (the protocol), `/` and the web client's files,
//! `/healthz`, `/metrics`, and finished games as JSON, SGF and PSQ under `/api/games/{room}`.

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use game_core::record::GameRecord;

use crate::hub::SharedHub;
use crate::store::{StoredChat, StoredRoom};

/// The router of the server.
pub fn router(hub: SharedHub) -> Router {
    Router::new()
        .route("/ws", get(ws))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/api/games/{room}", get(game_json))
        .route("/api/games/{room}/sgf", get(game_sgf))
        .route("/api/games/{room}/psq", get(game_psq))
        .fallback(get(crate::web::static_file))
        .with_state(hub)
}

async fn ws(upgrade: WebSocketUpgrade, State(hub): State<SharedHub>) -> Response {
    // Frames above the protocol's 8 KiB still arrive (up to 1 MiB) so the session can close
    // them with 1009 and a reason instead of a bare transport error; only a frame beyond that
    // ends the connection at the transport.
    upgrade
        .max_message_size(1024 * 1024)
        .max_frame_size(1024 * 1024)
        .on_upgrade(move |socket| crate::session::serve(socket, hub))
}

async fn metrics(State(hub): State<SharedHub>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        hub.metrics.render(),
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
    match hub.store.read_room(room).await {
        Ok(Some(r)) => Ok(r),
        Ok(None) => Err((StatusCode::NOT_FOUND, "no such game\n").into_response()),
        Err(e) => {
            tracing::error!(error = %e, "reading a game failed");
            Err((StatusCode::INTERNAL_SERVER_ERROR, "store error\n").into_response())
        }
    }
}

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
}

async fn game_json(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let chat = hub.store.read_chat(&room).await.unwrap_or_default();
    let move_string = record_of(&stored).move_string();
    Json(GameJson {
        room: stored,
        chat,
        move_string,
    })
    .into_response()
}

async fn game_sgf(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match record_of(&stored).to_sgf() {
        Ok(text) => (
            [
                (header::CONTENT_TYPE, "application/x-go-sgf".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"kibitz-{room}.sgf\""),
                ),
            ],
            text,
        )
            .into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("{e}\n")).into_response(),
    }
}

async fn game_psq(Path(room): Path<String>, State(hub): State<SharedHub>) -> Response {
    let stored = match load(&hub, &room).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    match record_of(&stored).to_psq() {
        Ok(text) => (
            [
                (
                    header::CONTENT_TYPE,
                    "text/plain; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"kibitz-{room}.psq\""),
                ),
            ],
            text,
        )
            .into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, format!("{e}\n")).into_response(),
    }
}
