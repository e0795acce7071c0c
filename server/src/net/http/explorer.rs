//! `GET /api/explorer/{variant}?moves=…`: the opening explorer's look-up (see
//! [`crate::explorer`]). The moves lead from the start to the position asked about; the answer
//! lists the moves played from it in the hall's finished games, the most played first, each
//! with its games, their results and the average rating of their rated players.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use game_core::AnyPosition;

use super::accounts::{error, store_failed};
use crate::explorer::{self, ExplorerMove};
use crate::hub::SharedHub;

/// Moves listed at most.
const LINES: usize = 40;

/// The longest `moves` accepted (more than any indexed line needs).
const MOVES_MAX_CHARS: usize = 2048;

pub fn routes() -> Router<SharedHub> {
    Router::new().route("/api/explorer/{variant}", get(look_up))
}

#[derive(Deserialize)]
struct LookUp {
    /// Comma-separated, from the start.
    #[serde(default)]
    moves: String,
    /// `yes`, `no` or absent (either).
    rated: Option<String>,
    bots: Option<String>,
}

#[derive(Serialize)]
struct Line {
    #[serde(rename = "move")]
    mv: String,
    games: i64,
    black: i64,
    draws: i64,
    white: i64,
    /// The average rating of the rated players of these games, if any was rated.
    rating: Option<i64>,
}

impl From<ExplorerMove> for Line {
    fn from(m: ExplorerMove) -> Line {
        Line {
            rating: (m.rated_players > 0)
                .then(|| (m.rating_sum / m.rated_players as f64).round() as i64),
            mv: m.mv,
            games: m.games,
            black: m.outcome.black_wins,
            draws: m.outcome.draws,
            white: m.outcome.white_wins,
        }
    }
}

/// `yes`/`no`/absent as a filter; anything else is an error naming the field.
fn filter(field: &str, value: Option<&str>) -> Result<Option<bool>, String> {
    match value {
        None | Some("" | "any") => Ok(None),
        Some("yes") => Ok(Some(true)),
        Some("no") => Ok(Some(false)),
        Some(other) => Err(format!("{field} is yes, no or any, not {other:?}")),
    }
}

async fn look_up(
    State(hub): State<SharedHub>,
    Path(variant): Path<String>,
    Query(query): Query<LookUp>,
) -> Response {
    let Some(spec) = explorer::spec_of(&variant) else {
        return error(
            StatusCode::NOT_FOUND,
            format!(
                "no explorer for {variant:?}; the explorer keeps {} (a Gomoku one with \
                 @swap2, @soosorv8 or @taraguchi10 for games played from that opening rule)",
                crate::accounts::ratings::KEYS[..5].join(", ")
            ),
        );
    };
    let (rated, bots) = match (
        filter("rated", query.rated.as_deref()),
        filter("bots", query.bots.as_deref()),
    ) {
        (Ok(rated), Ok(bots)) => (rated, bots),
        (Err(e), _) | (_, Err(e)) => return error(StatusCode::BAD_REQUEST, e),
    };
    if query.moves.len() > MOVES_MAX_CHARS {
        return error(StatusCode::BAD_REQUEST, "too many moves");
    }
    let mut pos = match AnyPosition::new(&spec) {
        Ok(pos) => pos,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let mut played = Vec::new();
    for (i, mv) in query.moves.split(',').filter(|m| !m.is_empty()).enumerate() {
        match pos.play_str(mv) {
            Ok(canonical) => played.push(canonical),
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("move {} ({mv:?}): {e}", i + 1),
                )
            }
        }
    }
    let lines = match hub
        .store()
        .explorer(
            &variant,
            &explorer::position_key(&pos),
            explorer::buckets(rated, bots),
            LINES,
        )
        .await
    {
        Ok(moves) => moves,
        Err(e) => return store_failed(&e),
    };
    let next: Vec<Line> = lines.into_iter().map(Line::from).collect();
    Json(json!({
        "variant": variant,
        "moves": played,
        "to_move": pos.turn().as_str(),
        "games": next.iter().map(|l| l.games).sum::<i64>(),
        "depth": explorer::MAX_PLIES,
        "next": next,
    }))
    .into_response()
}
