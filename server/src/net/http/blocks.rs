//! The routes of an account's blocks (docs/protocol.md "Blocks"): the list, a block and an
//! unblock. JSON in and out, an error `{"error": sentence}`, the account named by
//! `Authorization: Bearer <token>`, writes from this site only (the guard of "Accounts").

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use super::accounts::{bad_body, bearer_account, error, parse, same_site_json, store_failed};
use crate::hub::SharedHub;
use crate::moderation::blocks::{self, MAX_BLOCKS};

/// A body names one player: a few dozen bytes.
const BODY_MAX_BYTES: usize = 1024;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/blocks", get(list).post(block))
        .route("/api/blocks/{player}", delete(unblock))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// The account of the request, or the answer that refuses it.
async fn blocker(hub: &SharedHub, headers: &HeaderMap) -> Result<String, Response> {
    match bearer_account(hub, headers).await? {
        Some(player) => Ok(player),
        None => Err(error(
            StatusCode::UNAUTHORIZED,
            "blocks are kept for accounts: send an account's token as Authorization: Bearer <token>",
        )),
    }
}

async fn list(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    let me = match blocker(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    match hub.store().blocks_of(&me).await {
        Ok(ids) => {
            let listed: Vec<_> = ids
                .iter()
                .map(|id| {
                    let name = hub.accounts().of_player(id).map(|a| a.name);
                    json!({ "player": id, "name": name })
                })
                .collect();
            Json(json!({ "blocked": listed })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}

/// Whom to block: a player's id, or an account's name.
#[derive(Deserialize)]
struct Whom {
    player: Option<String>,
    name: Option<String>,
}

async fn block(State(hub): State<SharedHub>, headers: HeaderMap, body: Bytes) -> Response {
    let me = match blocker(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let Some(whom) = parse::<Whom>(&body) else {
        return bad_body();
    };
    let other = match (whom.player, whom.name) {
        (Some(id), None) if !id.is_empty() && id.len() <= 64 => id,
        (None, Some(name)) => match hub.accounts().by_name(&name) {
            Some(a) => a.player,
            None => {
                return error(
                    StatusCode::NOT_FOUND,
                    format!("no account is named {name:?}"),
                )
            }
        },
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "name one player: {\"player\": id} or {\"name\": account name}",
            )
        }
    };
    if other == me {
        return error(StatusCode::BAD_REQUEST, "you cannot block yourself");
    }
    match hub.store().blocks_of(&me).await {
        Ok(list) if list.len() >= MAX_BLOCKS && !list.contains(&other) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("at most {MAX_BLOCKS} players may be blocked"),
            )
        }
        Ok(_) => {}
        Err(e) => return store_failed(&e),
    }
    match blocks::change(&hub, &me, &other, true).await {
        Ok(()) => (StatusCode::CREATED, Json(json!({ "blocked": other }))).into_response(),
        Err(e) => store_failed(&e),
    }
}

async fn unblock(
    State(hub): State<SharedHub>,
    headers: HeaderMap,
    Path(player): Path<String>,
) -> Response {
    let me = match blocker(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    match blocks::change(&hub, &me, &player, false).await {
        Ok(()) => Json(json!({ "unblocked": player })).into_response(),
        Err(e) => store_failed(&e),
    }
}
