//! The HTTP routes of accounts and ratings (docs/protocol.md "Accounts" and "Ratings"):
//! claiming a name, signing in and out, leaderboards and player pages. Every answer is JSON,
//! an error `{"error": sentence}`. Writes take JSON only and refuse another site's origin, so
//! that no form elsewhere can post here; tokens travel in bodies and the `Authorization`
//! header, never in cookies or addresses. Passwords are never logged, stored or echoed: only
//! their argon2 hashes are kept.

use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::accounts;
use crate::accounts::guard::Throttled;
use crate::accounts::ratings::{self, PROVISIONAL_RD};
use crate::hub::SharedHub;
use crate::net::client_addr::client_ip;
use crate::net::listener::Peer;
use crate::store::{GameLine, StoreError, StoredAccount, Write};
use crate::token;

/// Bodies of these routes are a name, a password and a token: a few hundred bytes.
const BODY_MAX_BYTES: usize = 4 * 1024;

/// Games a player page lists.
const PAGE_GAMES: usize = 20;

/// Lines of a leaderboard.
const LEADERBOARD_LINES: usize = 100;

/// The routes, with their guard.
pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/accounts", post(register))
        .route("/api/session", post(sign_in).delete(sign_out))
        .route("/api/leaderboard/{key}", get(leaderboard))
        .route("/api/players/{name}", get(player_page))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// An error answer: `{"error": sentence}` with `status`.
pub(crate) fn error(status: StatusCode, sentence: impl Into<String>) -> Response {
    (status, Json(json!({ "error": sentence.into() }))).into_response()
}

pub(crate) fn store_failed(e: &StoreError) -> Response {
    tracing::error!(error = %e, "an HTTP request could not reach the store");
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the server could not reach its store; try again",
    )
}

/// Refuses a write that is not JSON (415) or that comes from a page of another site (403):
/// a browser sends a cross-site form as a simple request, which this refuses, and asks before
/// sending cross-site JSON, which the server never allows.
pub(crate) async fn same_site_json(request: Request, next: Next) -> Response {
    if matches!(*request.method(), Method::POST | Method::DELETE) {
        let headers = request.headers();
        if request.method() == Method::POST {
            let json = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(is_json_media_type);
            if !json {
                return error(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "send JSON (Content-Type: application/json)",
                );
            }
        }
        if !same_origin(headers) {
            return error(
                StatusCode::FORBIDDEN,
                "requests from another site are refused",
            );
        }
    }
    next.run(request).await
}

/// Whether a `Content-Type` names JSON: `application/json` exactly (any case), with
/// parameters or not — not `application/jsonx`.
fn is_json_media_type(value: &str) -> bool {
    let media = value.split(';').next().unwrap_or_default().trim();
    media.eq_ignore_ascii_case("application/json")
}

/// Whether the request's `Origin`, if it has one, is this server's own address.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin = origin.to_str().ok();
    match (origin, host) {
        (Some(origin), Some(host)) => origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|o| o.eq_ignore_ascii_case(host)),
        _ => false,
    }
}

/// The body as the JSON object `T`; `None` when it is not one (answer [`bad_body`]).
pub(crate) fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Option<T> {
    serde_json::from_slice(body).ok()
}

/// The answer to a body that is not the JSON object a request names.
pub(crate) fn bad_body() -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "the body must be a JSON object with the fields the request names",
    )
}

fn throttled(t: Throttled) -> Response {
    let wait = match t {
        Throttled::Unavailable => {
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server could not check sign-in attempts; try again",
            );
        }
        // Whole seconds, rounded up: an early retry would only be refused again.
        Throttled::Address(d) | Throttled::Name(d) => {
            (d.as_secs() + u64::from(d.subsec_nanos() > 0)).max(1)
        }
    };
    let mut response = error(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many sign-in attempts; try again in {wait} s"),
    );
    if let Ok(value) = wait.to_string().parse() {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

/// The player whose token this is (this server's memory, then the store: a token made by a
/// sign-in, or by another node), or the 401 or 503 to answer.
pub(crate) async fn player_of_token(
    hub: &SharedHub,
    token: &str,
) -> Result<crate::accounts::players::PlayerRecord, Response> {
    let hash = token::token_hash(token);
    if let Some(p) = hub.players().by_token(&hash) {
        return Ok(p);
    }
    match hub.store().player_by_token(&hash).await {
        Ok(Some(p)) => Ok(crate::accounts::players::PlayerRecord {
            id: p.id,
            name: p.name,
            bot: p.bot,
            account: false,
        }),
        Ok(None) => Err(error(
            StatusCode::UNAUTHORIZED,
            "unknown token: reload the page",
        )),
        Err(e) => Err(store_failed(&e)),
    }
}

#[derive(Deserialize)]
struct RegisterBody {
    token: String,
    name: String,
    password: String,
}

/// `POST /api/accounts`: the player behind `token` claims `name`.
async fn register(
    State(hub): State<SharedHub>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let client = client_ip(
        &hub.config().limits.trusted_proxies.0,
        peer.addr.ip(),
        &headers,
    );
    let Some(body) = parse::<RegisterBody>(&body) else {
        return bad_body();
    };
    let checked = accounts::check_name(body.name.trim())
        .and_then(|name| accounts::check_password(&body.password).map(|()| name));
    let name = match checked {
        Ok(name) => name,
        Err(e) => return error(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let name = name.as_str();
    // Each claim costs a password hash: counted with the address's sign-in attempts (not
    // against the name: claims of a name must not lock its owner out).
    let limits = hub.config().limits.signin();
    if let Err(t) = hub.signin().admit_address(&limits, client).await {
        return throttled(t);
    }
    let player = match player_of_token(&hub, &body.token).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    if player.bot {
        return error(
            StatusCode::FORBIDDEN,
            "a bot's account is made by its hello",
        );
    }
    if hub.accounts().of_player(&player.id).is_some() {
        return error(StatusCode::CONFLICT, "this player already has an account");
    }
    // Unique by look as well as by letters: a name whose confusable skeleton (Unicode TR39) is
    // an account's would pass for that account (`rnike` for `mike`). The hall's accounts are
    // in every node's memory (`Hub::account_made`); the store keeps names unique by case.
    if let Some(other) = hub.accounts().looking_like(name) {
        let why = if crate::store::name_key(&other.name) == crate::store::name_key(name) {
            format!("the name {name} is taken")
        } else {
            format!(
                "the name {name} looks like {}'s: choose another name",
                other.name
            )
        };
        return error(StatusCode::CONFLICT, why);
    }
    let password_hash = match accounts::hash_password(body.password).await {
        Ok(h) => h,
        Err(e) => {
            tracing::error!(error = %e, "hashing a password failed");
            return error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the password could not be hashed",
            );
        }
    };
    let account = StoredAccount {
        player: player.id.clone(),
        name: name.to_string(),
        password_hash: Some(password_hash),
        bot: false,
        created_ms: crate::room::change::Moment::now().unix_ms,
    };
    match hub.store().write(Write::NewAccount(account.clone())).await {
        Ok(()) => {}
        Err(StoreError::NameTaken(_)) => {
            return error(StatusCode::CONFLICT, format!("the name {name} is taken"));
        }
        Err(StoreError::HasAccount) => {
            return error(StatusCode::CONFLICT, "this player already has an account");
        }
        Err(e) => return store_failed(&e),
    }
    hub.account_made(&account);
    hub.players().claimed(&player.id, name);
    tracing::info!(player = %player.id, name = %name, "account made");
    (
        StatusCode::CREATED,
        Json(json!({ "player": player.id, "name": name })),
    )
        .into_response()
}

#[derive(Deserialize)]
struct SignInBody {
    name: String,
    password: String,
}

/// `POST /api/session`: a new token for the account, for this browser.
async fn sign_in(
    State(hub): State<SharedHub>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let client = client_ip(
        &hub.config().limits.trusted_proxies.0,
        peer.addr.ip(),
        &headers,
    );
    let Some(body) = parse::<SignInBody>(&body) else {
        return bad_body();
    };
    let limits = hub.config().limits.signin();
    let Ok(name) = accounts::check_name(body.name.trim()) else {
        // No account has such a name: the same answer after the same work, and nothing kept
        // of a name an attacker chose.
        if let Err(t) = hub.signin().admit_address(&limits, client).await {
            return throttled(t);
        }
        accounts::verify_password(None, body.password).await;
        return error(StatusCode::UNAUTHORIZED, "wrong name or password");
    };
    let name = name.as_str();
    if let Err(t) = hub.signin().attempt(&limits, client, name).await {
        return throttled(t);
    }
    let account = match hub.store().account_by_name(name).await {
        Ok(a) => a,
        Err(e) => return store_failed(&e),
    };
    // A bot has no password: it never signs in here. An unknown name is checked against a
    // decoy hash, so the answer takes as long as for a known one.
    let hash = account.as_ref().and_then(|a| a.password_hash.clone());
    let ok = accounts::verify_password(hash, body.password).await;
    // The failure was counted with the attempt.
    let Some(account) = account.filter(|_| ok) else {
        return error(StatusCode::UNAUTHORIZED, "wrong name or password");
    };
    hub.signin().succeeded(name).await;
    if let Err(why) = crate::moderation::sanctions::may_enter(&hub, &account.player) {
        return error(StatusCode::FORBIDDEN, why.to_string());
    }
    let token = token::new_token();
    let write = Write::Token {
        token_hash: token::token_hash(&token),
        player: account.player.clone(),
    };
    if let Err(e) = hub.store().write(write).await {
        return store_failed(&e);
    }
    tracing::info!(player = %account.player, "signed in");
    Json(json!({ "player": account.player, "name": account.name, "token": token })).into_response()
}

/// `DELETE /api/session`: forgets the bearer token (this browser signs out).
async fn sign_out(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let Some(bearer) = bearer.map(str::trim).filter(|t| !t.is_empty()) else {
        return error(
            StatusCode::UNAUTHORIZED,
            "send the token as Authorization: Bearer <token>",
        );
    };
    let hash = token::token_hash(bearer);
    let write = Write::DropToken {
        token_hash: hash.clone(),
        replacement: token::token_hash(&token::new_token()),
    };
    if let Err(e) = hub.store().write(write).await {
        return store_failed(&e);
    }
    hub.players().forget_token(&hash);
    hub.coord().token_dropped(&hash);
    StatusCode::NO_CONTENT.into_response()
}

#[derive(Deserialize)]
struct BoardQuery {
    #[serde(default)]
    bots: bool,
}

#[derive(Serialize)]
struct BoardLine {
    name: String,
    rating: i64,
    rd: i64,
    games: u64,
    provisional: bool,
}

/// `GET /api/leaderboard/{key}[?bots=true]`.
async fn leaderboard(
    State(hub): State<SharedHub>,
    Path(key): Path<String>,
    Query(query): Query<BoardQuery>,
) -> Response {
    if !ratings::KEYS.contains(&key.as_str()) {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "no rating {key:?}; ratings are {}",
                ratings::KEYS.join(", ")
            ),
        );
    }
    let rows = match hub
        .store()
        .leaderboard(&key, query.bots, LEADERBOARD_LINES)
        .await
    {
        Ok(rows) => rows,
        Err(e) => return store_failed(&e),
    };
    let players: Vec<BoardLine> = rows
        .into_iter()
        .map(|r| BoardLine {
            name: r.name,
            rating: r.rating.round() as i64,
            rd: r.rd.round() as i64,
            games: r.games,
            provisional: r.rd > PROVISIONAL_RD,
        })
        .collect();
    Json(json!({ "key": key, "bots": query.bots, "players": players })).into_response()
}

#[derive(Serialize)]
struct PageRating {
    key: String,
    rating: i64,
    rd: i64,
    games: u64,
    provisional: bool,
}

#[derive(Serialize)]
struct PagePoint {
    key: String,
    at_ms: u64,
    rating: i64,
    room: String,
}

#[derive(Serialize)]
struct Page {
    player: String,
    name: String,
    bot: bool,
    ratings: Vec<PageRating>,
    history: Vec<PagePoint>,
    games: Vec<GameLine>,
}

/// `GET /api/players/{name}`: an account's ratings, rating history and newest games.
async fn player_page(State(hub): State<SharedHub>, Path(name): Path<String>) -> Response {
    let page = match hub.store().player_page(&name, PAGE_GAMES).await {
        Ok(Some(page)) => page,
        Ok(None) => return error(StatusCode::NOT_FOUND, "no such player"),
        Err(e) => return store_failed(&e),
    };
    Json(Page {
        player: page.player,
        name: page.name,
        bot: page.bot,
        ratings: page
            .ratings
            .into_iter()
            .map(|r| PageRating {
                provisional: r.rd > PROVISIONAL_RD,
                key: r.key,
                rating: r.rating.round() as i64,
                rd: r.rd.round() as i64,
                games: r.games,
            })
            .collect(),
        history: page
            .history
            .into_iter()
            .map(|p| PagePoint {
                key: p.key,
                at_ms: p.at_ms,
                rating: p.rating.round() as i64,
                room: p.room,
            })
            .collect(),
        games: page.games,
    })
    .into_response()
}

/// The token of `Authorization: Bearer <token>`, if the request has one (the scheme is
/// case-insensitive, RFC 9110, 11.1).
pub(crate) fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .filter(|t| !t.is_empty())
}

/// The account behind the request's bearer token: `None` for no token or a guest's.
pub(crate) async fn bearer_account(
    hub: &SharedHub,
    headers: &HeaderMap,
) -> Result<Option<String>, Response> {
    let Some(token) = bearer_token(headers) else {
        return Ok(None);
    };
    let player = player_of_token(hub, token).await?;
    if hub.accounts().of_player(&player.id).is_some() {
        return Ok(Some(player.id));
    }
    match hub.store().account_of(&player.id).await {
        Ok(found) => Ok(found.map(|a| a.player)),
        Err(e) => Err(store_failed(&e)),
    }
}
