//! Players' reports and the moderators' list of them (docs/protocol.md "Reports"): a player —
//! a guest too — reports a player, a game or a chat line with a reason; the server stores it
//! with what surrounds it (the reported name, the game's moves, the chat lines around the
//! line) so that a moderator sees it as it was. Reads are for moderators only.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Query, State};
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
use crate::store::{StoredChat, StoredReport, StoredRoom, Write};

const BODY_MAX_BYTES: usize = 4 * 1024;

/// The longest note a reporter may add, in characters.
pub const NOTE_MAX_CHARS: usize = 500;

/// Reports one player may make an hour.
pub const REPORTS_PER_HOUR: u64 = 10;

/// Chat lines kept on each side of a reported line (or the last lines of a reported game).
const CHAT_AROUND: usize = 10;

/// What may be reported, and why.
const KINDS: [&str; 3] = ["player", "game", "chat"];
const REASONS: [&str; 5] = ["abuse", "cheating", "spam", "offensive_name", "other"];

/// Open reports a moderator sees at once.
const LIST_MAX: usize = 200;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/reports", post(report))
        .route("/api/moderation/reports", get(list))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// The player behind the request's bearer token (a guest's too).
async fn bearer_player(hub: &SharedHub, headers: &HeaderMap) -> Result<PlayerRecord, Response> {
    let token = bearer_token(headers).ok_or_else(|| {
        error(
            StatusCode::UNAUTHORIZED,
            "send your token as Authorization: Bearer <token>",
        )
    })?;
    player_of_token(hub, token).await
}

#[derive(Deserialize)]
struct ReportBody {
    kind: String,
    player: Option<String>,
    room: Option<String>,
    /// The reported chat line's text (kind `chat`).
    text: Option<String>,
    reason: String,
    #[serde(default)]
    note: String,
}

fn bad(sentence: impl Into<String>) -> Response {
    error(StatusCode::BAD_REQUEST, sentence)
}

fn chat_json(lines: &[StoredChat]) -> Vec<Value> {
    lines
        .iter()
        .map(|c| json!({ "player": c.player, "name": c.name, "text": c.text, "at_ms": c.at_ms }))
        .collect()
}

/// The context of a report in a room: the game, and the chat around the line (or its end).
fn room_context(room: &StoredRoom, chat: &[StoredChat], line: Option<usize>) -> Value {
    let (from, to) = match line {
        Some(i) => (
            i.saturating_sub(CHAT_AROUND),
            (i + CHAT_AROUND + 1).min(chat.len()),
        ),
        None => (chat.len().saturating_sub(2 * CHAT_AROUND), chat.len()),
    };
    json!({
        "game": room.head.game,
        "moves": room.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>(),
        "black": room.black.as_ref().map(|s| s.name.clone()),
        "white": room.white.as_ref().map(|s| s.name.clone()),
        "status": room.status,
        "chat": chat_json(&chat[from..to]),
        "line": line.map(|i| i - from),
    })
}

async fn report(State(hub): State<SharedHub>, headers: HeaderMap, body: Bytes) -> Response {
    let me = match bearer_player(&hub, &headers).await {
        Ok(p) => p,
        Err(resp) => return resp,
    };
    let Some(body) = parse::<ReportBody>(&body) else {
        return bad_body();
    };
    if !KINDS.contains(&body.kind.as_str()) {
        return bad(format!("kind is one of {}", KINDS.join(", ")));
    }
    if !REASONS.contains(&body.reason.as_str()) {
        return bad(format!("reason is one of {}", REASONS.join(", ")));
    }
    if body.note.chars().count() > NOTE_MAX_CHARS {
        return bad(format!("a note is at most {NOTE_MAX_CHARS} characters"));
    }
    let now = crate::room::change::Moment::now().unix_ms;
    match hub
        .store()
        .reports_since(&me.id, now.saturating_sub(3_600_000))
        .await
    {
        Ok(n) if n >= REPORTS_PER_HOUR => {
            return error(
                StatusCode::TOO_MANY_REQUESTS,
                format!("at most {REPORTS_PER_HOUR} reports an hour"),
            )
        }
        Ok(_) => {}
        Err(e) => return store_failed(&e),
    }
    let (player, room, context) = match context_of(&hub, &body).await {
        Ok(found) => found,
        Err(resp) => return resp,
    };
    if player == me.id {
        return bad("you cannot report yourself");
    }
    let stored = StoredReport {
        id: crate::token::ordered_id(now),
        at_ms: now,
        reporter: me.id,
        kind: body.kind,
        player,
        room,
        reason: body.reason,
        note: body.note,
        context: context.to_string(),
        status: "open".into(),
    };
    let id = stored.id.clone();
    let reported = stored.player.clone();
    let at_ms = stored.at_ms;
    match hub.store().write(Write::Report(Box::new(stored))).await {
        Ok(()) => {
            if !reported.is_empty() {
                tokio::spawn(time_out_if_reported_often(hub.clone(), reported, at_ms));
            }
            (StatusCode::CREATED, Json(json!({ "report": id }))).into_response()
        }
        Err(e) => store_failed(&e),
    }
}

/// A player several players reported within the hour is muted for a while by the hall
/// itself, before any moderator reads the reports.
async fn time_out_if_reported_often(hub: SharedHub, player: String, at_ms: u64) {
    use crate::moderation::chat_guard::{self, REPORTS_FOR_TIMEOUT, REPORT_WINDOW_MS};
    let since = at_ms.saturating_sub(REPORT_WINDOW_MS);
    match hub.store().reporters_of(&player, since).await {
        Ok(n) if n >= REPORTS_FOR_TIMEOUT => {
            let reason = format!("reported by {n} players within the hour");
            chat_guard::time_out(hub, player, &reason).await;
        }
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "counting a player's reports failed"),
    }
}

/// The reported player, the room and the context of a report, or why it cannot be made.
async fn context_of(
    hub: &SharedHub,
    body: &ReportBody,
) -> Result<(String, String, Value), Response> {
    let room_id = body.room.clone().unwrap_or_default();
    if body.kind == "player" {
        let player = body.player.clone().filter(|p| !p.is_empty());
        let player = player.ok_or_else(|| bad("a player report names the player"))?;
        let name = hub.accounts().of_player(&player).map(|a| a.name);
        return Ok((player, room_id, json!({ "name": name })));
    }
    if room_id.is_empty() {
        return Err(bad("a game or chat report names the room"));
    }
    let room = match hub.store().read_room(&room_id).await {
        Ok(Some(room)) => room,
        Ok(None) => return Err(error(StatusCode::NOT_FOUND, format!("no room {room_id:?}"))),
        Err(e) => return Err(store_failed(&e)),
    };
    let chat = hub
        .store()
        .read_chat(&room_id)
        .await
        .map_err(|e| store_failed(&e))?;
    let (player, line) = if body.kind == "chat" {
        let (Some(player), Some(text)) = (&body.player, &body.text) else {
            return Err(bad("a chat report names the line's player and text"));
        };
        let line = chat
            .iter()
            .rposition(|c| c.player == *player && c.text == *text)
            .ok_or_else(|| bad("no such line in the room's chat"))?;
        (player.clone(), Some(line))
    } else {
        (body.player.clone().unwrap_or_default(), None)
    };
    Ok((player, room_id, room_context(&room, &chat, line)))
}

#[derive(Deserialize)]
struct ListQuery {
    status: Option<String>,
}

async fn list(
    State(hub): State<SharedHub>,
    headers: HeaderMap,
    Query(q): Query<ListQuery>,
) -> Response {
    let me = match bearer_player(&hub, &headers).await {
        Ok(p) => p,
        Err(resp) => return resp,
    };
    match hub.store().is_moderator(&me.id).await {
        Ok(true) => {}
        Ok(false) => return error(StatusCode::FORBIDDEN, "only moderators see reports"),
        Err(e) => return store_failed(&e),
    }
    let status = q.status.unwrap_or_else(|| "open".into());
    match hub.store().reports(&status, LIST_MAX).await {
        Ok(reports) => {
            let listed: Vec<Value> = reports
                .into_iter()
                .map(|r| {
                    let context: Value = serde_json::from_str(&r.context).unwrap_or(Value::Null);
                    json!({
                        "id": r.id, "at_ms": r.at_ms, "reporter": r.reporter, "kind": r.kind,
                        "player": r.player, "room": r.room, "reason": r.reason, "note": r.note,
                        "status": r.status, "context": context,
                    })
                })
                .collect();
            Json(json!({ "reports": listed })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}
