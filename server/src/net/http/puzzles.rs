//! The puzzle routes (docs/protocol.md "Puzzles"): the sets, the next puzzle near a rating,
//! the day's puzzle, one puzzle, a move of an attempt checked against the proof, hints, the
//! solution, and an attempt's result with the ratings it moves. Answers are JSON, errors
//! `{"error": sentence}`; writes take JSON from this site only. An account is known by its
//! `Authorization: Bearer <token>`; a guest's rating travels with his results.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rand::seq::IndexedRandom;
use serde::Deserialize;
use serde_json::{json, Value};

use game_core::puzzle::{Puzzle, Verdict};

use super::accounts::{bad_body, bearer_account, error, parse, same_site_json, store_failed};
use crate::hub::SharedHub;
use crate::puzzles::rating::{self, PLAYER_START};
use crate::puzzles::set::{self, LineError, VARIANTS};
use crate::store::{PuzzleAttempt, StoredGlicko, Write};

/// A line is at most a puzzle's moves and replies: a few dozen moves.
const BODY_MAX_BYTES: usize = 4 * 1024;

/// The next puzzle is drawn from this many of the closest in rating.
const NEAREST: usize = 12;

pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/puzzles", get(summary))
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/daily", get(daily))
        .route("/api/puzzles/me", get(me))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/move", post(play))
        .route("/api/puzzles/{id}/hint", get(hint))
        .route("/api/puzzles/{id}/solution", get(solution))
        .route("/api/puzzles/{id}/result", post(result))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// The puzzle of `id`: one of the set, or one of the hall's that another node stored since
/// this one last read them.
async fn find(hub: &SharedHub, id: &str) -> Option<Arc<Puzzle>> {
    if let Some(p) = hub.puzzles().set().get(id) {
        return Some(p.clone());
    }
    let hall_like = id.rsplit_once("-h").is_some_and(|(variant, hex)| {
        VARIANTS.contains(&variant) && hex.len() == 12 && hex.bytes().all(|b| b.is_ascii_hexdigit())
    });
    if !hall_like {
        return None;
    }
    crate::session::hall_puzzles::refresh(hub).await;
    hub.puzzles().set().get(id).cloned()
}

fn glicko_json(r: &StoredGlicko) -> Value {
    json!({ "rating": r.rating, "rd": r.rd, "volatility": r.volatility, "plays": r.plays })
}

/// A puzzle as the page sees it: everything but its solution.
fn puzzle_json(p: &Puzzle, rating: &StoredGlicko) -> Value {
    json!({
        "id": p.id, "variant": p.variant, "game": p.game, "moves": p.moves,
        "to_move": p.to_move.as_str(), "themes": p.themes, "length": p.length, "goal": p.goal(),
        "alternatives": p.has_alternatives(), "rating": rating.rating.round(),
        "rd": rating.rd.round(), "plays": rating.plays, "source": p.source,
    })
}

fn not_found(id: &str) -> Response {
    error(StatusCode::NOT_FOUND, format!("no puzzle {id:?}"))
}

/// The stored rating of puzzle `p`, or its starting one.
async fn rating_of(hub: &SharedHub, p: &Puzzle) -> Result<StoredGlicko, Response> {
    match hub.store().puzzle_ratings(&p.variant).await {
        Ok(rows) => Ok(rows
            .into_iter()
            .find(|(id, _)| *id == p.id)
            .map_or_else(|| rating::puzzle_start(p), |(_, r)| r)),
        Err(e) => Err(store_failed(&e)),
    }
}

async fn summary(State(hub): State<SharedHub>) -> Response {
    let mut variants = serde_json::Map::new();
    for (v, count, themes) in hub.puzzles().set().summary() {
        let themes: serde_json::Map<String, Value> =
            themes.into_iter().map(|(t, n)| (t, json!(n))).collect();
        variants.insert(v.into(), json!({ "count": count, "themes": themes }));
    }
    Json(json!({ "variants": variants })).into_response()
}

#[derive(Deserialize)]
struct NextQuery {
    variant: Option<String>,
    theme: Option<String>,
    rating: Option<f64>,
    after: Option<String>,
}

async fn next(
    State(hub): State<SharedHub>,
    headers: HeaderMap,
    Query(q): Query<NextQuery>,
) -> Response {
    let variant = match q.variant.as_deref().filter(|v| !v.is_empty()) {
        Some(v) if VARIANTS.contains(&v) => v.to_string(),
        Some(v) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("no puzzles for {v:?}; there are {}", VARIANTS.join(", ")),
            )
        }
        None => (*VARIANTS.choose(&mut rand::rng()).expect("variants")).to_string(),
    };
    let theme = q.theme.as_deref().filter(|t| !t.is_empty());
    let set = hub.puzzles().set();
    let list = set.of_variant(&variant, theme);
    if list.is_empty() {
        return error(
            StatusCode::NOT_FOUND,
            format!("no {variant} puzzle has the theme {theme:?}"),
        );
    }
    let player = match bearer_account(&hub, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let (target, tried) = match &player {
        None => (q.rating.unwrap_or(PLAYER_START.rating), Vec::new()),
        Some(id) => match (
            hub.store().puzzle_player(id).await,
            hub.store().puzzles_tried(id, &variant).await,
        ) {
            (Ok(ratings), Ok(tried)) => {
                let own = ratings
                    .into_iter()
                    .find(|(v, _)| *v == variant)
                    .map(|(_, r)| r.rating);
                (q.rating.or(own).unwrap_or(PLAYER_START.rating), tried)
            }
            (Err(e), _) | (_, Err(e)) => return store_failed(&e),
        },
    };
    let stored = match hub.store().puzzle_ratings(&variant).await {
        Ok(rows) => rows,
        Err(e) => return store_failed(&e),
    };
    let rating = |p: &Puzzle| {
        stored
            .iter()
            .find(|(id, _)| *id == p.id)
            .map_or_else(|| rating::puzzle_start(p), |(_, r)| *r)
    };
    let fresh: Vec<&&std::sync::Arc<Puzzle>> = list
        .iter()
        .filter(|p| Some(&p.id) != q.after.as_ref() && !tried.contains(&p.id))
        .collect();
    let pool: Vec<&&std::sync::Arc<Puzzle>> = if fresh.is_empty() {
        list.iter().collect()
    } else {
        fresh
    };
    let mut by_distance: Vec<(f64, &Puzzle)> = pool
        .into_iter()
        .map(|p| ((rating(p).rating - target).abs(), p.as_ref()))
        .collect();
    by_distance.sort_by(|a, b| a.0.total_cmp(&b.0));
    by_distance.truncate(NEAREST);
    let (_, chosen) = by_distance
        .choose(&mut rand::rng())
        .expect("a puzzle in the pool");
    Json(puzzle_json(chosen, &rating(chosen))).into_response()
}

async fn daily(State(hub): State<SharedHub>) -> Response {
    let now = crate::room::change::Moment::now().unix_ms;
    let day = now / 86_400_000;
    let set = hub.puzzles().set();
    let Some(p) = set.daily(day) else {
        return error(StatusCode::NOT_FOUND, "no puzzles are shipped");
    };
    match rating_of(&hub, p).await {
        Ok(r) => {
            let mut v = puzzle_json(p, &r);
            v["date"] = json!(date_of(day));
            Json(v).into_response()
        }
        Err(resp) => resp,
    }
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (the civil calendar, Howard Hinnant's way).
fn date_of(day: u64) -> String {
    let z = day as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

async fn one(State(hub): State<SharedHub>, Path(id): Path<String>) -> Response {
    let Some(p) = find(&hub, &id).await else {
        return not_found(&id);
    };
    let p = &p;
    match rating_of(&hub, p).await {
        Ok(r) => Json(puzzle_json(p, &r)).into_response(),
        Err(resp) => resp,
    }
}

async fn me(State(hub): State<SharedHub>, headers: HeaderMap) -> Response {
    let player = match bearer_account(&hub, &headers).await {
        Ok(Some(p)) => p,
        Ok(None) => {
            return error(
                StatusCode::UNAUTHORIZED,
                "puzzle ratings are kept for accounts: send an account's token as Authorization: Bearer <token>",
            )
        }
        Err(r) => return r,
    };
    match hub.store().puzzle_player(&player).await {
        Ok(rows) => {
            let ratings: serde_json::Map<String, Value> = rows
                .iter()
                .map(|(v, r)| (v.clone(), glicko_json(r)))
                .collect();
            Json(json!({ "ratings": ratings })).into_response()
        }
        Err(e) => store_failed(&e),
    }
}

#[derive(Deserialize)]
struct LineBody {
    line: Vec<String>,
}

fn line_error(e: &LineError) -> Response {
    error(StatusCode::BAD_REQUEST, e.to_string())
}

async fn play(State(hub): State<SharedHub>, Path(id): Path<String>, body: Bytes) -> Response {
    let Some(p) = find(&hub, &id).await else {
        return not_found(&id);
    };
    let p = &p;
    let Some(LineBody { line }) = parse(&body) else {
        return bad_body();
    };
    let canonical = match set::replay(p, &line) {
        Ok((c, _)) => c,
        Err(e) => return line_error(&e),
    };
    match p.proof.walk(&canonical) {
        Ok(Verdict::Correct { reply, solved }) => {
            Json(json!({ "correct": true, "reply": reply, "solved": solved })).into_response()
        }
        Ok(Verdict::Wrong) => {
            let mv = canonical.last().map_or("", String::as_str);
            let left = p.length - (canonical.len() / 2) as u32;
            let moves = if left == 1 { "move" } else { "moves" };
            let message = if p.variant == "othello" {
                format!("{mv} does not keep the win")
            } else {
                format!("{mv} does not win within {left} {moves}")
            };
            Json(json!({ "correct": false, "message": message })).into_response()
        }
        Err(e) => line_error(&LineError::Walk(e)),
    }
}

#[derive(Deserialize)]
struct HintQuery {
    #[serde(default)]
    line: String,
    level: Option<u8>,
}

async fn hint(
    State(hub): State<SharedHub>,
    Path(id): Path<String>,
    Query(q): Query<HintQuery>,
) -> Response {
    let Some(p) = find(&hub, &id).await else {
        return not_found(&id);
    };
    let p = &p;
    let line: Vec<String> = q
        .line
        .split(',')
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect();
    let standing = match set::standing(p, &line) {
        Ok(s) => s,
        Err(e) => return line_error(&e),
    };
    let Some(mv) = set::hinted_move(p, &standing, line.len()) else {
        return error(
            StatusCode::BAD_REQUEST,
            "the puzzle is solved: no move is left to hint",
        );
    };
    match q.level.unwrap_or(1) {
        1 => Json(json!({ "area": set::hint_area(p, &standing.position, &mv) })).into_response(),
        2 => Json(json!({ "move": mv })).into_response(),
        other => error(
            StatusCode::BAD_REQUEST,
            format!("level is 1 (the area) or 2 (the move), not {other}"),
        ),
    }
}

async fn solution(State(hub): State<SharedHub>, Path(id): Path<String>) -> Response {
    match find(&hub, &id).await {
        Some(p) => Json(json!({ "line": p.line })).into_response(),
        None => not_found(&id),
    }
}

#[derive(Deserialize)]
struct ResultBody {
    line: Vec<String>,
    solved: bool,
    #[serde(default)]
    hinted: bool,
    guest: Option<GuestRating>,
}

#[derive(Deserialize)]
struct GuestRating {
    rating: f64,
    rd: f64,
    volatility: f64,
}

async fn result(
    State(hub): State<SharedHub>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let Some(p) = find(&hub, &id).await else {
        return not_found(&id);
    };
    let p = &p;
    let Some(body) = parse::<ResultBody>(&body) else {
        return bad_body();
    };
    if body.solved {
        let canonical = match set::replay(p, &body.line) {
            Ok((c, _)) => c,
            Err(e) => return line_error(&e),
        };
        if !matches!(
            p.proof.walk(&canonical),
            Ok(Verdict::Correct { solved: true, .. })
        ) {
            return error(
                StatusCode::BAD_REQUEST,
                "the line does not solve the puzzle",
            );
        }
    }
    let won = body.solved && !body.hinted;
    let puzzle_before = match rating_of(&hub, p).await {
        Ok(r) => r,
        Err(resp) => return resp,
    };
    let player = match bearer_account(&hub, &headers).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let answer =
        |rated: bool, before: &StoredGlicko, after: &StoredGlicko, puzzle: &StoredGlicko| {
            let mut player = glicko_json(after);
            player["change"] = json!(after.rating - before.rating);
            Json(json!({
                "solved": won, "rated": rated, "player": player,
                "puzzle": { "rating": puzzle.rating, "rd": puzzle.rd },
            }))
            .into_response()
        };
    let Some(player) = player else {
        let Some(g) = body.guest else {
            return error(
                StatusCode::BAD_REQUEST,
                "a guest sends his rating as guest: {rating, rd, volatility}",
            );
        };
        let before = StoredGlicko {
            rating: g.rating,
            rd: g.rd,
            volatility: g.volatility,
            plays: 0,
        };
        if !rating::plausible(&before) {
            return error(
                StatusCode::BAD_REQUEST,
                "the guest's rating is not a Glicko-2 rating",
            );
        }
        let (after, _) = rating::attempt(&before, &puzzle_before, won);
        return answer(true, &before, &after, &puzzle_before);
    };
    let (ratings, tried) = match (
        hub.store().puzzle_player(&player).await,
        hub.store().puzzles_tried(&player, &p.variant).await,
    ) {
        (Ok(r), Ok(t)) => (r, t),
        (Err(e), _) | (_, Err(e)) => return store_failed(&e),
    };
    let before = ratings
        .into_iter()
        .find(|(v, _)| *v == p.variant)
        .map_or(PLAYER_START, |(_, r)| r);
    if tried.contains(&p.id) {
        return answer(false, &before, &before, &puzzle_before);
    }
    let (after, puzzle_after) = rating::attempt(&before, &puzzle_before, won);
    let write = Write::PuzzleAttempt(PuzzleAttempt {
        player,
        puzzle: p.id.clone(),
        variant: p.variant.clone(),
        solved: won,
        at_ms: crate::room::change::Moment::now().unix_ms,
        player_after: after,
        puzzle_after,
    });
    match hub.store().write(write).await {
        Ok(()) => answer(true, &before, &after, &puzzle_after),
        Err(e) => store_failed(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::date_of;

    #[test]
    fn days_are_dated_by_the_civil_calendar() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(20_427), "2025-12-05");
        assert_eq!(date_of(11_016), "2000-02-29");
    }
}
