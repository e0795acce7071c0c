//! Live analyses as a session sees them (docs/protocol.md "Analysis board"): an `analyse`
//! request checked into a position (and the moves it rates) and handed to a worker,
//! `analyse_stop`, a worker's `analysis_line`, `analysis_move` and `analysis_done`, and the
//! ends of askers and workers. A node without a worker passes its connections' analyses to one
//! that has (in a cluster), and their stops after them. The rules are in
//! `crate::review::live`.

use game_core::protocol::{ErrorCode, LiveJob, LiveLine, RatedMove, ServerMsg};
use game_core::{setup, AnyPosition, GameSpec};
use thiserror::Error;
use tokio::time::Instant;

use crate::cluster::bus::RemoteAsk;
use crate::cluster::BusMsg;
use crate::hub::SharedHub;
use crate::net::connection::Conn;
use crate::refusal::{error_reply, About, Refusal};
use crate::review::live::{Asked, Route, Started, THINK};
use crate::room::member::MemberLink;

/// Moves an `analyse` may play from its position: more than any board holds.
const MOST_MOVES: usize = 26 * 26;

/// Moves one `analyse` may ask to rate: more than the explorer lists.
const MOST_RATED: usize = 24;

/// The longest request id kept.
const ID_MAX_CHARS: usize = 64;

/// A refused `analyse` or worker line.
#[derive(Debug, Error)]
enum LiveRefusal {
    #[error("{0}")]
    BadGame(String),
    #[error("the position: {0}")]
    BadPosition(String),
    #[error("move {0} ({1:?}): {2}")]
    Illegal(usize, String, String),
    #[error("the game is over in this position: nothing to analyse")]
    Over,
    #[error("the id is 1 to {ID_MAX_CHARS} characters")]
    BadId,
    #[error("rate: {0}")]
    BadRate(String),
    #[error("rate: {0} is not legal here: {1}")]
    IllegalRated(String, String),
    #[error("only an analysis worker sends analysis lines")]
    NotAWorker,
    #[error("bad analysis line: {0}")]
    BadLine(String),
}

impl Refusal for LiveRefusal {
    fn code(&self) -> ErrorCode {
        match self {
            LiveRefusal::BadGame(_) | LiveRefusal::BadPosition(_) => ErrorCode::BadGame,
            LiveRefusal::Illegal(..) | LiveRefusal::IllegalRated(..) | LiveRefusal::BadLine(_) => {
                ErrorCode::IllegalMove
            }
            LiveRefusal::Over | LiveRefusal::BadId | LiveRefusal::BadRate(_) => {
                ErrorCode::BadRequest
            }
            LiveRefusal::NotAWorker => ErrorCode::NotAPlayer,
        }
    }
}

fn status(id: &str, status: &str, message: Option<String>) -> ServerMsg {
    ServerMsg::AnalysisStatus {
        id: id.to_string(),
        status: status.to_string(),
        message,
    }
}

/// The position an `analyse` names: the set-up board or the start, then the moves.
fn position_of(
    game: &GameSpec,
    position: Option<&str>,
    moves: &[String],
) -> Result<AnyPosition, LiveRefusal> {
    if game.opening_rule().is_some() {
        return Err(LiveRefusal::BadGame(
            "analyse the position an opening rule reached, without the rule".into(),
        ));
    }
    let mut pos = match position {
        Some(text) => setup::position_from_text(game, text).map_err(LiveRefusal::BadPosition)?,
        None => AnyPosition::new(game).map_err(|e| LiveRefusal::BadGame(e.to_string()))?,
    };
    if moves.len() > MOST_MOVES {
        return Err(LiveRefusal::BadPosition(format!(
            "more than {MOST_MOVES} moves"
        )));
    }
    for (i, mv) in moves.iter().enumerate() {
        pos.play_str(mv)
            .map_err(|e| LiveRefusal::Illegal(i + 1, mv.clone(), e.to_string()))?;
    }
    if pos.is_over() {
        return Err(LiveRefusal::Over);
    }
    Ok(pos)
}

/// The moves to rate, each legal in `pos`, in canonical notation, none twice.
fn rated_moves(pos: &AnyPosition, rate: &[String]) -> Result<Vec<String>, LiveRefusal> {
    if rate.len() > MOST_RATED {
        return Err(LiveRefusal::BadRate(format!("at most {MOST_RATED} moves")));
    }
    let mut out: Vec<String> = Vec::with_capacity(rate.len());
    for mv in rate {
        let canonical = pos
            .check_str(mv)
            .map_err(|e| LiveRefusal::IllegalRated(mv.clone(), e.to_string()))?;
        if out.contains(&canonical) {
            return Err(LiveRefusal::BadRate(format!("{canonical} is named twice")));
        }
        out.push(canonical);
    }
    Ok(out)
}

/// A request of the analysis that a session knows.
pub struct Ask<'a> {
    pub id: &'a str,
    pub game: &'a GameSpec,
    pub position: Option<&'a str>,
    pub moves: &'a [String],
    pub rate: &'a [String],
}

/// `analyse`: checks the position, starts it on a worker (stopping the connection's last one)
/// and says how it stands. A connection of this node, which has no worker, has it run by a
/// node that has (in a cluster); `link` is a connection of another node when that node
/// passed it here.
pub fn ask(hub: &SharedHub, link: &MemberLink, player: &str, ask: &Ask<'_>, about: About<'_>) {
    let refuse = |why: &LiveRefusal| link.send(&error_reply(hub.metrics(), why, about));
    if ask.id.is_empty() || ask.id.chars().count() > ID_MAX_CHARS {
        return refuse(&LiveRefusal::BadId);
    }
    let position = match position_of(ask.game, ask.position, ask.moves) {
        Ok(p) => p,
        Err(why) => return refuse(&why),
    };
    let rate = match rated_moves(&position, ask.rate) {
        Ok(rate) => rate,
        Err(why) => return refuse(&why),
    };
    let workers = hub.reviews().worker_list();
    if let MemberLink::Local(conn) = link {
        if workers.is_empty() && pass_elsewhere(hub, conn, player, ask) {
            return;
        }
        // Run here now: one it had on another node stops there.
        if let Some(node) = hub.live().back_here(conn.id) {
            hub.coord()
                .send(&node, &BusMsg::AnalyseStop { conn: conn.id });
        }
    }
    let asked = Asked {
        ask_id: ask.id.to_string(),
        position,
        rate: rate.clone(),
    };
    let (replaced, started) =
        hub.live()
            .start(link.clone(), player, asked, &workers, Instant::now());
    if let Some((old, old_worker)) = replaced {
        old_worker.send(&ServerMsg::AnalyseStop { job: old });
    }
    match started {
        Ok(Started { job, worker }) => {
            worker.send(&ServerMsg::AnalyseLive(Box::new(LiveJob {
                job,
                game: ask.game.clone(),
                position: ask.position.map(str::to_string),
                moves: ask.moves.to_vec(),
                ms: THINK.as_millis() as u64,
                rate,
            })));
            link.send(&status(ask.id, "running", None));
        }
        Err(why) => link.send(&status(ask.id, "failed", Some(why.to_string()))),
    }
}

/// Passes `conn`'s analysis to another node with workers (only in a cluster): false when
/// there is none, or the bus does not take it.
fn pass_elsewhere(hub: &SharedHub, conn: &Conn, player: &str, ask: &Ask<'_>) -> bool {
    let coord = hub.coord();
    let Some(node) = coord.node_with_workers() else {
        return false;
    };
    if let Some(old) = hub.live().sent_elsewhere(conn.id, &node) {
        coord.send(&old, &BusMsg::AnalyseStop { conn: conn.id });
    }
    let msg = BusMsg::Analyse {
        node: coord.node().to_string(),
        conn: conn.id,
        player: player.to_string(),
        ask: Box::new(RemoteAsk {
            id: ask.id.to_string(),
            game: ask.game.clone(),
            position: ask.position.map(str::to_string),
            moves: ask.moves.to_vec(),
            rate: ask.rate.to_vec(),
        }),
    };
    if coord.send(&node, &msg) {
        tracing::debug!(
            node,
            "a live analysis passed to a node with analysis workers"
        );
        return true;
    }
    hub.live().back_here(conn.id);
    false
}

/// An analysis another node passed here (see [`pass_elsewhere`]).
pub fn asked_from(hub: &SharedHub, link: &MemberLink, player: &str, ask: &RemoteAsk) {
    let ask = Ask {
        id: &ask.id,
        game: &ask.game,
        position: ask.position.as_deref(),
        moves: &ask.moves,
        rate: &ask.rate,
    };
    let about = About {
        reference: Some("analyse"),
        ..About::default()
    };
    self::ask(hub, link, player, &ask, about);
}

/// The analysis of connection `asker_id` (of this node or another) ends here: its worker is
/// told.
pub fn stop_here(hub: &SharedHub, asker_id: u64) {
    if let Some((job, worker)) = hub.live().stop(asker_id) {
        worker.send(&ServerMsg::AnalyseStop { job });
    }
}

/// `analyse_stop`, or the asker's connection ended: its worker is told, on this node or the
/// one that runs it.
pub fn stop(hub: &SharedHub, asker: &Conn) {
    stop_here(hub, asker.id);
    if let Some(node) = hub.live().back_here(asker.id) {
        hub.coord()
            .send(&node, &BusMsg::AnalyseStop { conn: asker.id });
    }
}

/// A worker's `analysis_line`: checked, and passed on to its asker.
pub fn line(hub: &SharedHub, conn: &Conn, job: &str, line: &LiveLine, about: About<'_>) {
    let refuse = |why: &LiveRefusal| conn.send(&error_reply(hub.metrics(), why, about));
    if !hub.reviews().is_worker(conn.id) {
        return refuse(&LiveRefusal::NotAWorker);
    }
    match hub.live().line(conn.id, job, line) {
        Ok(Some((Route { asker, ask_id, by }, line))) => {
            asker.send(&ServerMsg::AnalysisLine {
                id: ask_id,
                by,
                line,
            });
        }
        Ok(None) => {}
        Err(why) => refuse(&LiveRefusal::BadLine(why)),
    }
}

/// A worker's `analysis_move`: checked, and passed on to its asker.
pub fn rated(hub: &SharedHub, conn: &Conn, job: &str, rated: &RatedMove, about: About<'_>) {
    let refuse = |why: &LiveRefusal| conn.send(&error_reply(hub.metrics(), why, about));
    if !hub.reviews().is_worker(conn.id) {
        return refuse(&LiveRefusal::NotAWorker);
    }
    match hub.live().rated(conn.id, job, rated) {
        Ok(Some((Route { asker, ask_id, by }, rated))) => {
            asker.send(&ServerMsg::AnalysisMove {
                id: ask_id,
                by,
                rated,
            });
        }
        Ok(None) => {}
        Err(why) => refuse(&LiveRefusal::BadLine(why)),
    }
}

/// A worker's `analysis_done`.
pub fn done(hub: &SharedHub, conn: &Conn, job: &str) {
    if let Some(route) = hub.live().done(conn.id, job) {
        route.asker.send(&status(&route.ask_id, "done", None));
    }
}

/// A connection ended: its own analysis stops; if it was a worker, its askers are told.
pub fn conn_closed(hub: &SharedHub, conn: &Conn) {
    stop(hub, conn);
    for route in hub.live().worker_gone(conn.id) {
        let message = format!("{} left before the analysis ended; ask again", route.by);
        route
            .asker
            .send(&status(&route.ask_id, "failed", Some(message)));
    }
}
