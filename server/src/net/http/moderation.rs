//! The moderators' tools (docs/protocol.md "Moderation"): an action on a player — warn, mute
//! for a time, ban from rated play, ban, close the account, lift a sanction, rename, hide a
//! chat line — each stored with who took it and why (the audit log) and carried out at once
//! on every node; the log itself; the sanctions in force. Moderators only, named by the
//! operator (`kibitz admin grant-moderator`).

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::accounts::{
    bad_body, bearer_token, error, parse, player_of_token, same_site_json, store_failed,
};
use crate::accounts::players::PlayerRecord;
use crate::hub::SharedHub;
use crate::moderation::sanctions::{self, ACTIONS, KINDS};
use crate::store::StoredAction;

const BODY_MAX_BYTES: usize = 4 * 1024;

/// The longest reason, in characters.
pub const REASON_MAX_CHARS: usize = 500;

/// The longest mute or ban with an end: a year.
const MAX_MINUTES: u64 = 366 * 24 * 60;

/// Log entries one read returns.
const LOG_MAX: usize = 200;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/moderation/actions", post(take_action))
        .route("/api/moderation/log", get(log))
        .route("/api/moderation/sanctions", get(in_force))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// The moderator behind the request, or the answer that refuses it.
async fn moderator(hub: &SharedHub, headers: &HeaderMap) -> Result<PlayerRecord, Response> {
    let token = bearer_token(headers).ok_or_else(|| {
        error(
            StatusCode::UNAUTHORIZED,
            "send your token as Authorization: Bearer <token>",
        )
    })?;
    let me = player_of_token(hub, token).await?;
    match hub.store().is_moderator(&me.id).await {
        Ok(true) => Ok(me),
        Ok(false) => Err(error(
            StatusCode::FORBIDDEN,
            "only moderators act on players",
        )),
        Err(e) => Err(store_failed(&e)),
    }
}

#[derive(Deserialize)]
struct ActionBody {
    action: String,
    /// The player acted on: an account's name, or a player id (a guest's, from a report).
    player: String,
    reason: String,
    /// A mute's or ban's length; absent: for good.
    minutes: Option<u64>,
    /// `lift`: the sanction to end.
    kind: Option<String>,
    /// `rename`: the new name.
    name: Option<String>,
    /// `hide_chat`: the room and the line.
    room: Option<String>,
    text: Option<String>,
    /// The report this action answers (closed by it).
    report: Option<String>,
}

/// Why an action cannot be taken: the status and the sentence of the answer.
type Refused = (StatusCode, String);

fn bad(sentence: impl Into<String>) -> Refused {
    (StatusCode::BAD_REQUEST, sentence.into())
}

async fn take_action(State(hub): State<SharedHub>, headers: HeaderMap, body: Bytes) -> Response {
    let me = match moderator(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let Some(body) = parse::<ActionBody>(&body) else {
        return bad_body();
    };
    let player = match resolve(&hub, body.player.trim()).await {
        Ok(player) => player,
        Err(resp) => return resp,
    };
    let action = match checked(&hub, &me, player, body) {
        Ok(action) => action,
        Err((status, sentence)) => return error(status, sentence),
    };
    if let Err(e) = sanctions::act(&hub, action.clone()).await {
        return store_failed(&e);
    }
    tracing::info!(moderator = %me.id, action = %action.action, player = %action.player,
        "a moderator acted");
    (StatusCode::CREATED, Json(action_json(&hub, &action))).into_response()
}

/// The action as it will be stored, or why it cannot be taken.
fn checked(
    hub: &SharedHub,
    me: &PlayerRecord,
    player: String,
    body: ActionBody,
) -> Result<StoredAction, Refused> {
    if !ACTIONS.contains(&body.action.as_str()) {
        return Err(bad(format!("action must be one of {}", ACTIONS.join(", "))));
    }
    let reason = body.reason.trim().to_string();
    if reason.is_empty() || reason.chars().count() > REASON_MAX_CHARS {
        return Err(bad(format!(
            "say why in 1 to {REASON_MAX_CHARS} characters (reason)"
        )));
    }
    if player == me.id {
        return Err(bad("a moderator does not act on themselves"));
    }
    let now = crate::hall_time::unix_ms();
    let until_ms = match (body.action.as_str(), body.minutes) {
        ("mute" | "rated_ban" | "ban", Some(m)) if (1..=MAX_MINUTES).contains(&m) => {
            Some(now + m * 60_000)
        }
        ("mute" | "rated_ban" | "ban", Some(_)) => {
            return Err(bad(format!(
                "minutes must be 1..={MAX_MINUTES} (or absent: for good)"
            )))
        }
        _ => None,
    };
    let detail = detail_of(hub, &body)?;
    let room = body.room.clone().unwrap_or_default();
    Ok(StoredAction {
        id: crate::token::ordered_id(now),
        at_ms: now,
        moderator: me.id.clone(),
        action: body.action,
        player,
        room,
        reason,
        detail,
        until_ms,
        report: body.report.unwrap_or_default(),
    })
}

/// The player a moderator names: an account by name, else a stored player's id.
async fn resolve(hub: &SharedHub, named: &str) -> Result<String, Response> {
    if let Some(account) = hub.accounts().by_name(named) {
        return Ok(account.player);
    }
    match hub.store().stored_players(vec![named.to_string()]).await {
        Ok(found) if !found.is_empty() => Ok(named.to_string()),
        Ok(_) => Err(error(StatusCode::NOT_FOUND, "no such player")),
        Err(e) => Err(store_failed(&e)),
    }
}

/// What the action needs beside the player: the sanction to lift, the new name, the line.
fn detail_of(hub: &SharedHub, body: &ActionBody) -> Result<String, Refused> {
    match body.action.as_str() {
        "lift" => match body.kind.as_deref() {
            Some(kind) if KINDS.contains(&kind) => Ok(kind.to_string()),
            _ => Err(bad(format!("lift names the kind: {}", KINDS.join(", ")))),
        },
        "rename" => {
            let Some(name) = body.name.as_deref() else {
                return Err(bad("rename names the new name (name)"));
            };
            let Ok(name) = crate::accounts::check_name(name.trim()) else {
                return Err(bad("that is not a name an account may have"));
            };
            if hub.accounts().looking_like(&name).is_some() {
                return Err((StatusCode::CONFLICT, "that name is taken".into()));
            }
            if hub.accounts().by_name(&body.player).is_none() {
                return Err(bad(
                    "only an account is renamed; a guest chooses a name anew",
                ));
            }
            Ok(name)
        }
        "hide_chat" => match (body.room.as_deref(), body.text.as_deref()) {
            (Some(room), Some(text)) if !room.is_empty() && !text.is_empty() => {
                Ok(text.to_string())
            }
            _ => Err(bad("hide_chat names the room and the line's text")),
        },
        _ => Ok(String::new()),
    }
}

fn name_of(hub: &SharedHub, player: &str) -> Option<String> {
    hub.accounts().of_player(player).map(|a| a.name)
}

fn action_json(hub: &SharedHub, a: &StoredAction) -> Value {
    json!({
        "id": a.id, "at_ms": a.at_ms, "action": a.action,
        "moderator": a.moderator, "moderator_name": name_of(hub, &a.moderator),
        "player": a.player, "name": name_of(hub, &a.player),
        "room": a.room, "reason": a.reason, "detail": a.detail,
        "until_ms": a.until_ms, "report": a.report,
    })
}

async fn log(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    if let Err(resp) = moderator(&hub, &headers).await {
        return resp;
    }
    match hub.store().moderation_log(LOG_MAX).await {
        Ok(actions) => {
            let listed: Vec<Value> = actions.iter().map(|a| action_json(&hub, a)).collect();
            Json(json!({ "actions": listed })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}

async fn in_force(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    if let Err(resp) = moderator(&hub, &headers).await {
        return resp;
    }
    match hub.store().sanctions(crate::hall_time::unix_ms()).await {
        Ok(list) => {
            let listed: Vec<Value> = list
                .iter()
                .map(|s| {
                    json!({
                        "player": s.player, "name": name_of(&hub, &s.player), "kind": s.kind,
                        "until_ms": s.until_ms, "reason": s.reason,
                        "moderator": s.moderator, "moderator_name": name_of(&hub, &s.moderator),
                        "at_ms": s.at_ms,
                    })
                })
                .collect();
            Json(json!({ "sanctions": listed })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}
