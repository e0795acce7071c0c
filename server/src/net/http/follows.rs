//! People a player keeps close (docs/protocol.md "Follows"): the accounts an account follows
//! and the public games they are playing now (read from the store, so every node answers the
//! same), follow and unfollow; and the games between two accounts, with the score (head to
//! head), public like a player's page.

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
use crate::store::{GameLine, Write};

/// Players an account may follow at most.
pub const MAX_FOLLOWS: usize = 500;

/// Games in play of followed players, and games head to head, listed at most.
const GAMES_MAX: usize = 50;

const BODY_MAX_BYTES: usize = 1024;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/follows", get(list).post(follow))
        .route("/api/follows/{player}", delete(unfollow))
        .route("/api/players/{name}/vs/{other}", get(head_to_head))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// The account of the request, or the answer that refuses it.
async fn follower(hub: &SharedHub, headers: &HeaderMap) -> Result<String, Response> {
    match bearer_account(hub, headers).await? {
        Some(player) => Ok(player),
        None => Err(error(
            StatusCode::UNAUTHORIZED,
            "follows are kept for accounts: send an account's token as Authorization: Bearer <token>",
        )),
    }
}

fn name_of(hub: &SharedHub, player: &str) -> Option<String> {
    hub.accounts().of_player(player).map(|a| a.name)
}

async fn list(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    let me = match follower(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let (ids, playing) = match tokio::try_join!(
        hub.store().follows_of(&me),
        hub.store().followed_games(&me, GAMES_MAX)
    ) {
        Ok(both) => both,
        Err(e) => return store_failed(&e),
    };
    let following: Vec<_> = ids
        .iter()
        .map(|id| json!({ "player": id, "name": name_of(&hub, id) }))
        .collect();
    Json(json!({ "following": following, "playing": playing })).into_response()
}

#[derive(Deserialize)]
struct Whom {
    name: String,
}

async fn follow(State(hub): State<SharedHub>, headers: HeaderMap, body: Bytes) -> Response {
    let me = match follower(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let Some(whom) = parse::<Whom>(&body) else {
        return bad_body();
    };
    let Some(other) = hub.accounts().by_name(&whom.name) else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no account is named {:?}", whom.name),
        );
    };
    if other.player == me {
        return error(StatusCode::BAD_REQUEST, "you cannot follow yourself");
    }
    match hub.store().follows_of(&me).await {
        Ok(list) if list.len() >= MAX_FOLLOWS && !list.contains(&other.player) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("at most {MAX_FOLLOWS} players may be followed"),
            )
        }
        Ok(_) => {}
        Err(e) => return store_failed(&e),
    }
    let write = Write::Follow {
        player: me,
        followed: other.player.clone(),
        at_ms: crate::hall_time::unix_ms(),
    };
    match hub.store().write(write).await {
        Ok(()) => (
            StatusCode::CREATED,
            Json(json!({ "player": other.player, "name": other.name })),
        )
            .into_response(),
        Err(e) => store_failed(&e),
    }
}

async fn unfollow(
    State(hub): State<SharedHub>,
    headers: HeaderMap,
    Path(player): Path<String>,
) -> Response {
    let me = match follower(&hub, &headers).await {
        Ok(me) => me,
        Err(resp) => return resp,
    };
    let write = Write::Unfollow {
        player: me,
        followed: player.clone(),
    };
    match hub.store().write(write).await {
        Ok(()) => Json(json!({ "unfollowed": player })).into_response(),
        Err(e) => store_failed(&e),
    }
}

/// `name`'s score against `other` in their finished games: wins, draws, losses.
fn score(player: &str, games: &[GameLine]) -> [u32; 3] {
    use game_core::protocol::ResultKind;
    let mut score = [0; 3];
    for g in games {
        let Some(result) = &g.result else { continue };
        let mine = if g.black_player.as_deref() == Some(player) {
            game_core::Color::Black
        } else {
            game_core::Color::White
        };
        let i = match (result.result, mine) {
            (ResultKind::Black, game_core::Color::Black)
            | (ResultKind::White, game_core::Color::White) => 0,
            (ResultKind::Draw, _) => 1,
            (ResultKind::Aborted, _) => continue,
            _ => 2,
        };
        score[i] += 1;
    }
    score
}

async fn head_to_head(
    State(hub): State<SharedHub>,
    Path((name, other)): Path<(String, String)>,
) -> Response {
    let (Some(a), Some(b)) = (
        hub.accounts().by_name(&name),
        hub.accounts().by_name(&other),
    ) else {
        return error(StatusCode::NOT_FOUND, "no such player");
    };
    let games = match hub
        .store()
        .head_to_head(&a.player, &b.player, GAMES_MAX)
        .await
    {
        Ok(games) => games,
        Err(e) => return store_failed(&e),
    };
    let [wins, draws, losses] = score(&a.player, &games);
    Json(json!({
        "player": { "player": a.player, "name": a.name },
        "other": { "player": b.player, "name": b.name },
        "wins": wins, "draws": draws, "losses": losses,
        "games": games,
    }))
    .into_response()
}
