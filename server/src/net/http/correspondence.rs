//! A player's correspondence games (docs/protocol.md "Correspondence"): the games of days per
//! move they sit in, theirs to move first with the time left, read from the store so that
//! every node answers the same; and, on a server started with `--test-clock`, the route that
//! moves the hall's clock ahead so that a test sees days pass.

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
use crate::hub::SharedHub;
use crate::room::change::Moment;
use crate::room::game::RoomGame;
use crate::room::handle::RoomCmd;
use crate::store::StoredRoom;

const BODY_MAX_BYTES: usize = 1024;

/// The most the hall's clock moves in one request: a month.
const MAX_ADVANCE_MS: u64 = 31 * game_core::protocol::DAY_MS;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/correspondence", get(my_games))
        .route("/api/test/clock", post(advance_clock))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

async fn my_games(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    let Some(token) = bearer_token(&headers) else {
        return error(
            StatusCode::UNAUTHORIZED,
            "send your token as Authorization: Bearer <token>",
        );
    };
    let me = match player_of_token(&hub, token).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let rooms = match hub.store().unfinished_of(&me.id).await {
        Ok(rooms) => rooms,
        Err(e) => return store_failed(&e),
    };
    let now = Moment::now();
    let mut games: Vec<(bool, u64, Value)> = rooms
        .into_iter()
        .filter(|r| r.head.clock.is_some_and(|c| c.is_correspondence()))
        .filter_map(|r| game_entry(&hub, r, &me.id, now))
        .collect();
    // Theirs to move first, the least time left first; then the others the same way.
    games.sort_by_key(|(yours, left, _)| (!*yours, *left));
    let games: Vec<Value> = games.into_iter().map(|(_, _, v)| v).collect();
    Json(json!({ "games": games, "now_ms": now.unix_ms })).into_response()
}

/// One game as the list shows it: whether it is `player`'s turn, and the time the side to
/// move has left (for its first move: before the game is aborted).
fn game_entry(
    hub: &SharedHub,
    stored: StoredRoom,
    player: &str,
    now: Moment,
) -> Option<(bool, u64, Value)> {
    let id = stored.head.id.clone();
    let mut game = match RoomGame::restore(stored, 0, now) {
        Ok(game) => game,
        Err(e) => {
            tracing::warn!(room = %id, error = %e, "a correspondence game did not replay");
            return None;
        }
    };
    game.set_first_move_limit(hub.config().limits.first_move);
    let you = game.seat_of(player)?;
    let state = game.state(Some(you), [false, false], 0, now.at);
    let clock = state.clock.as_ref()?;
    let left_ms = clock.abort_ms.unwrap_or(match state.to_move {
        game_core::Color::Black => clock.black_ms,
        game_core::Color::White => clock.white_ms,
    });
    let vacation_ms = match state.to_move {
        game_core::Color::Black => clock.black_vacation_ms,
        game_core::Color::White => clock.white_vacation_ms,
    };
    let yours = state.status == game_core::protocol::RoomStatus::Playing && state.to_move == you;
    let opponent = game
        .seat(you.other())
        .map(|s| json!({ "name": s.name, "bot": s.bot }));
    let entry = json!({
        "room": id,
        "game": state.game,
        "control": state.control,
        "status": state.status,
        "you": you,
        "to_move": state.to_move,
        "your_turn": yours,
        "opponent": opponent,
        "moves": state.moves.len(),
        "left_ms": left_ms,
        "first_move": clock.abort_ms.is_some(),
        "vacation_ms": vacation_ms,
        "deadline_ms": now.unix_ms.saturating_add(left_ms),
        "rated": state.rated,
    });
    Some((yours, left_ms, entry))
}

#[derive(Deserialize)]
struct AdvanceBody {
    advance_ms: u64,
}

/// Moves the hall's clock ahead (`--test-clock` only): every room of this node in memory is
/// charged the time, and rooms reloaded later count it from their stored moves.
async fn advance_clock(State(hub): State<SharedHub>, body: Bytes) -> Response {
    if !hub.config().limits.test_clock {
        return error(
            StatusCode::NOT_FOUND,
            "the hall's clock is the system's: start the server with --test-clock to move it",
        );
    }
    let Some(body) = parse::<AdvanceBody>(&body) else {
        return bad_body();
    };
    if body.advance_ms > MAX_ADVANCE_MS {
        return error(
            StatusCode::BAD_REQUEST,
            format!("advance_ms must be 0..={MAX_ADVANCE_MS}"),
        );
    }
    let ahead_ms = crate::hall_time::advance(body.advance_ms);
    for room in hub.live_rooms() {
        let _ = room
            .tx
            .send(RoomCmd::ClockAdvanced {
                ms: body.advance_ms,
            })
            .await;
    }
    tracing::warn!(
        advance_ms = body.advance_ms,
        ahead_ms,
        "the hall's clock moved ahead"
    );
    Json(json!({ "ahead_ms": ahead_ms })).into_response()
}
