//! The HTTP routes of tournaments (docs/protocol.md, "Tournaments"): making one, joining and
//! leaving it while it is open, starting it, and reading one or the list. Every answer is
//! JSON, an error `{"error": sentence}`; writes take JSON only and refuse another site's
//! origin (the guard of the accounts' routes). Players are accounts, named by their token in
//! the body; an open tournament's document is read, changed and written back only if nobody
//! changed it meanwhile (on any node: the store checks), and once started only its director
//! writes it.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::time::Instant;

use game_core::protocol::{ClockSpec, BOT_LEVELS};
use game_core::{GameKind, GameSpec};

use crate::accounts::ratings::RATED_BOT_LEVEL;
use crate::hub::SharedHub;
use crate::net::http::accounts::{
    bad_body, error, parse, player_of_token, same_site_json, store_failed,
};
use crate::room::plan::RoomPlan;
use crate::store::{StoreError, Write};
use crate::tournament::director;
use crate::tournament::document::{Entrant, Kind, NewTournament, Tournament, TournamentError};
use crate::tournament::registry::MAKING_RATE;
use crate::tournament::view::{list_line, view};

/// A body is a token, a name, a game, a clock and a few bot names: well under this.
const BODY_MAX_BYTES: usize = 4 * 1024;

/// Tournaments the list shows, newest first.
const LIST_LENGTH: usize = 50;

/// Tournament ids are 10 characters; a longer one is not looked up.
const ID_LEN: usize = 10;

/// The routes, with their guard.
pub fn routes() -> Router<SharedHub> {
    Router::new()
        .route("/api/tournaments", get(list).post(make))
        .route("/api/tournaments/{id}", get(show))
        .route("/api/tournaments/{id}/join", post(join))
        .route("/api/tournaments/{id}/leave", post(leave))
        .route("/api/tournaments/{id}/start", post(start))
        .layer(DefaultBodyLimit::max(BODY_MAX_BYTES))
        .layer(middleware::from_fn(same_site_json))
}

/// A tournament's refusal, with its status: a bad request 400, a state that does not allow
/// it 409, someone who may not 403.
fn refused(e: &TournamentError) -> Response {
    let status = match e {
        TournamentError::BadName
        | TournamentError::BadKind
        | TournamentError::BadRounds
        | TournamentError::RoundsOfRoundRobin => StatusCode::BAD_REQUEST,
        TournamentError::NotOpen
        | TournamentError::Full(_)
        | TournamentError::NotAPlayer
        | TournamentError::TooFewPlayers => StatusCode::CONFLICT,
        TournamentError::NotCreator => StatusCode::FORBIDDEN,
    };
    error(status, e.to_string())
}

fn bad_request(sentence: impl Into<String>) -> Response {
    error(StatusCode::BAD_REQUEST, sentence)
}

fn now_ms() -> u64 {
    crate::room::change::Moment::now().unix_ms
}

/// The account behind `token`, as a tournament's player: a guest is refused (403).
async fn entrant_of(hub: &SharedHub, token: &str) -> Result<Entrant, Response> {
    let player = player_of_token(hub, token).await?;
    let mut account = hub.accounts().of_player(&player.id);
    if account.is_none() && hub.coord().accounts_made_elsewhere() {
        // Another node may have made it.
        match hub.store().account_of(&player.id).await {
            Ok(Some(stored)) => {
                hub.accounts().insert(&stored);
                account = hub.accounts().of_player(&player.id);
            }
            Ok(None) => {}
            Err(e) => return Err(store_failed(&e)),
        }
    }
    match account {
        Some(a) => Ok(Entrant {
            player: player.id,
            name: a.name,
            bot: a.bot,
            level: None,
            account: None,
        }),
        None => Err(error(
            StatusCode::FORBIDDEN,
            "tournaments are for accounts: claim a name first (POST /api/accounts)",
        )),
    }
}

/// The stored tournament `id`, or the 404 (or 503) to answer.
async fn load(hub: &SharedHub, id: &str) -> Result<Tournament, Response> {
    load_stored(hub, id).await.map(|(t, _)| t)
}

/// The stored tournament `id` with its document as stored (what an edit is made from).
async fn load_stored(hub: &SharedHub, id: &str) -> Result<(Tournament, String), Response> {
    let not_found = || error(StatusCode::NOT_FOUND, "no such tournament");
    if id.is_empty() || id.len() > ID_LEN {
        return Err(not_found());
    }
    match hub.store().read_tournament(id).await {
        Ok(Some(stored)) => match Tournament::from_stored(&stored) {
            Ok(t) => Ok((t, stored.doc)),
            Err(e) => {
                tracing::error!(tournament = %id, error = %e, "a tournament's document does not read");
                Err(error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the tournament's record cannot be read",
                ))
            }
        },
        Ok(None) => Err(not_found()),
        Err(e) => Err(store_failed(&e)),
    }
}

/// A tournament as the store keeps it; `None` (logged) when it does not serialise.
fn stored(t: &Tournament) -> Option<crate::store::StoredTournament> {
    t.stored()
        .inspect_err(|e| {
            tracing::error!(tournament = %t.id, error = %e, "a tournament does not serialise");
        })
        .ok()
}

/// The answer to a tournament that does not serialise.
fn not_stored() -> Response {
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the tournament could not be stored",
    )
}

/// Stores a new tournament's document, or the 503 to answer.
async fn save(hub: &SharedHub, t: &Tournament) -> Result<(), Response> {
    hub.store()
        .write(Write::Tournament(stored(t).ok_or_else(not_stored)?))
        .await
        .map_err(|e| store_failed(&e))
}

#[derive(Deserialize)]
struct MakeBody {
    token: String,
    name: String,
    kind: String,
    /// Read here rather than by serde, so that a bad one gets its own clear answer.
    #[serde(default)]
    game: Option<Value>,
    #[serde(default)]
    clock: Option<Value>,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    bots: Vec<BotPick>,
}

/// A connected bot named as a first player: by name (it plays at its best), or by name and
/// level.
#[derive(Deserialize)]
#[serde(untagged)]
enum BotPick {
    Name(String),
    AtLevel { name: String, level: u8 },
}

impl BotPick {
    fn name(&self) -> &str {
        match self {
            BotPick::Name(name) | BotPick::AtLevel { name, .. } => name.trim(),
        }
    }

    fn level(&self) -> Option<u8> {
        match self {
            BotPick::Name(_) => None,
            BotPick::AtLevel { level, .. } => Some(*level),
        }
    }
}

/// The entrant of a bot named in a new tournament, or the sentence of a 400: connected, able
/// to play the game, an account, at a level it has (a rated tournament's at the rated level),
/// and not named twice at one level. A bot named again at another level is an entrant of its
/// own (`<account>#<level>`), played by the same bot: it plays itself when the two meet.
fn bot_entrant(
    hub: &SharedHub,
    pick: &BotPick,
    kind: GameKind,
    rated: bool,
    entered: &Tournament,
) -> Result<Entrant, String> {
    let name = pick.name();
    let Some((bot, bot_name)) = hub.bots().online_playing(name, kind) else {
        return Err(format!(
            "no bot named {name:?} is connected that plays {}",
            kind.as_str()
        ));
    };
    if hub.accounts().of_player(&bot).is_none() {
        return Err(format!(
            "the bot {bot_name} has no account: it cannot play in tournaments"
        ));
    }
    let level = pick.level();
    if let Some(level) = level {
        if !BOT_LEVELS.contains(&level) {
            return Err(format!(
                "bot levels are {}..={}",
                BOT_LEVELS.start(),
                BOT_LEVELS.end()
            ));
        }
        if rated && level != RATED_BOT_LEVEL {
            return Err(format!(
                "a bot plays rated games at level {RATED_BOT_LEVEL} only"
            ));
        }
    }
    let same_bot: Vec<&Entrant> = entered
        .players
        .iter()
        .filter(|e| e.account() == bot)
        .collect();
    let wanted = level.unwrap_or(RATED_BOT_LEVEL);
    if same_bot.iter().any(|e| e.bot_level() == wanted) {
        return Err(format!(
            "{bot_name} is named twice at level {wanted}: name another level to enter it again"
        ));
    }
    // The first entry of a bot is its account, at the level asked for (none: its best);
    // another level is a player of its own, its level written out.
    let (player, account, level) = if same_bot.is_empty() {
        (bot, None, level)
    } else {
        (format!("{bot}#{wanted}"), Some(bot), Some(wanted))
    };
    Ok(Entrant {
        player,
        name: bot_name,
        bot: true,
        level,
        account,
    })
}

/// The game and clock of a new tournament, checked as a room's are; the sentence of a 400
/// when they are not fine.
fn game_and_clock(
    game: Option<Value>,
    clock: Option<Value>,
    rated: bool,
) -> Result<(GameSpec, ClockSpec), String> {
    let game = game
        .filter(|g| !g.is_null())
        .ok_or("name the game, as a room's: {\"kind\":\"gomoku\",\"size\":15}")?;
    let game: GameSpec = serde_json::from_value(game).map_err(|e| format!("bad game: {e}"))?;
    let clock = clock.filter(|c| !c.is_null()).ok_or(
        "a tournament needs a clock, as a room's: \
         {\"initial_ms\":300000,\"increment_ms\":2000} or {\"move_ms\":10000}",
    )?;
    let clock: ClockSpec = serde_json::from_value(clock).map_err(|e| format!("bad clock: {e}"))?;
    let plan = RoomPlan::new(game.clone(), Some(clock), Vec::new(), 0)
        .map_err(|e| format!("bad game or clock: {e}"))?;
    if rated {
        plan.rated()
            .map_err(|e| format!("a rated tournament needs a rated game: {e}"))?;
    }
    Ok((game, clock))
}

/// `POST /api/tournaments`: an account makes a tournament, with the connected bots it names
/// as its first players.
async fn make(State(hub): State<SharedHub>, body: Bytes) -> Response {
    let Some(body) = parse::<MakeBody>(&body) else {
        return bad_body();
    };
    let creator = match entrant_of(&hub, &body.token).await {
        Ok(e) => e,
        Err(r) => return r,
    };
    let Some(kind) = Kind::parse(body.kind.trim()) else {
        return refused(&TournamentError::BadKind);
    };
    let (game, clock) = match game_and_clock(body.game, body.clock, body.rated) {
        Ok(gc) => gc,
        Err(sentence) => return bad_request(sentence),
    };
    let asked = NewTournament {
        name: body.name,
        kind,
        game: game.clone(),
        clock,
        rounds: body.rounds,
        rated: body.rated,
    };
    let id = crate::token::random_id(ID_LEN);
    let mut tournament = match Tournament::new(id, asked, &creator, now_ms()) {
        Ok(t) => t,
        Err(e) => return refused(&e),
    };
    for pick in &body.bots {
        let entrant = match bot_entrant(&hub, pick, game.kind(), body.rated, &tournament) {
            Ok(entrant) => entrant,
            Err(sentence) => return bad_request(sentence),
        };
        if let Err(e) = tournament.join(entrant) {
            return refused(&e);
        }
    }
    if !hub
        .tournaments()
        .admit_making(&creator.player, MAKING_RATE, Instant::now())
    {
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "at most {} tournaments an hour; try again later",
                MAKING_RATE.max
            ),
        );
    }
    if let Err(r) = save(&hub, &tournament).await {
        return r;
    }
    tracing::info!(tournament = %tournament.id, creator = %creator.player, "tournament made");
    (StatusCode::CREATED, Json(view(&tournament))).into_response()
}

#[derive(Deserialize)]
struct TokenBody {
    token: String,
}

/// Tries of one edit that another edit (on this node or another) overtook each time.
const EDIT_TRIES: usize = 16;

/// Reads the token of a body, then changes the tournament `id` with `change` and stores it;
/// answers the tournament as it is after. The store takes the edit only if the document is
/// still the one it was made from (`Write::TournamentEdit`), so that two edits at once, on
/// one node or two, never lose one another: the one overtaken is made again from the new
/// document. Edits on this node also wait for each other (fewer retries).
async fn edit(
    hub: &SharedHub,
    id: &str,
    body: &Bytes,
    change: impl Fn(&mut Tournament, &Entrant, u64) -> Result<bool, TournamentError>,
) -> Result<Tournament, Response> {
    let body: TokenBody = parse(body).ok_or_else(bad_body)?;
    let me = entrant_of(hub, &body.token).await?;
    let _edit = hub.tournaments().edit().await;
    for _ in 0..EDIT_TRIES {
        let (mut tournament, before) = load_stored(hub, id).await?;
        let changed = change(&mut tournament, &me, now_ms()).map_err(|e| refused(&e))?;
        if !changed {
            return Ok(tournament);
        }
        let after = stored(&tournament).ok_or_else(not_stored)?;
        match hub
            .store()
            .write(Write::TournamentEdit { before, after })
            .await
        {
            Ok(()) => return Ok(tournament),
            Err(StoreError::Edited(_)) => {
                // Another node's edit came first: made again from what it left.
                tokio::task::yield_now().await;
            }
            Err(e) => return Err(store_failed(&e)),
        }
    }
    Err(error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the tournament is being changed by many at once; try again",
    ))
}

/// `POST /api/tournaments/{id}/join`.
async fn join(State(hub): State<SharedHub>, Path(id): Path<String>, body: Bytes) -> Response {
    let joined = edit(&hub, &id, &body, |t, me, _| t.join(me.clone())).await;
    match joined {
        Ok(t) => Json(view(&t)).into_response(),
        Err(r) => r,
    }
}

/// `POST /api/tournaments/{id}/leave`.
async fn leave(State(hub): State<SharedHub>, Path(id): Path<String>, body: Bytes) -> Response {
    let left = edit(&hub, &id, &body, |t, me, _| {
        t.leave(&me.player).map(|()| true)
    })
    .await;
    match left {
        Ok(t) => Json(view(&t)).into_response(),
        Err(r) => r,
    }
}

/// `POST /api/tournaments/{id}/start`: the creator starts it; its director takes over.
async fn start(State(hub): State<SharedHub>, Path(id): Path<String>, body: Bytes) -> Response {
    let started = edit(&hub, &id, &body, |t, me, now| {
        t.start(&me.player, now).map(|()| true)
    })
    .await;
    match started {
        Ok(t) => {
            tracing::info!(tournament = %t.id, players = t.players.len(), "tournament started");
            director::direct(&hub, t.clone()).await;
            Json(view(&t)).into_response()
        }
        Err(r) => r,
    }
}

/// `GET /api/tournaments/{id}`: the tournament with its standings.
async fn show(State(hub): State<SharedHub>, Path(id): Path<String>) -> Response {
    match load(&hub, &id).await {
        Ok(t) => Json(view(&t)).into_response(),
        Err(r) => r,
    }
}

/// `GET /api/tournaments`: the newest tournaments, newest first.
async fn list(State(hub): State<SharedHub>) -> Response {
    let stored = match hub.store().list_tournaments(LIST_LENGTH).await {
        Ok(s) => s,
        Err(e) => return store_failed(&e),
    };
    let lines: Vec<_> = stored
        .iter()
        .filter_map(|s| Tournament::from_stored(s).ok())
        .map(|t| list_line(&t))
        .collect();
    Json(json!({ "tournaments": lines })).into_response()
}
