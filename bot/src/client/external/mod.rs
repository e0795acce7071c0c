//! Any engine as the bot's engine: `kibitz bot --engine CMD --protocol pbrain|nboard|analyze`
//! runs a program built outside the project and asks it for every move, as lichess-bot lets
//! any UCI engine play on lichess. The bot keeps the server's side (invitations, clocks,
//! take-backs, chat); the engine only answers positions, each within the time the bot's
//! clock gives the move.
//!
//! - [`pbrain`]: Gomocup brains (Gomoku): `START`, `INFO`, `BOARD … DONE`.
//! - [`nboard`]: Othello engines of the NBoard protocol: `set game` with a GGF record, `go`.
//! - [`lines`]: the project's own `kibitz analyze` line protocol (any game; Connect Four's
//!   usual way in), with the move's time at the head of each line.
//!
//! An engine that does not answer in time, answers an illegal move or dies is killed (and
//! started again for the next move), and the bot's own engine plays that move in the time
//! left, so that a game is never lost to a foreign program's fault.

mod lines;
mod nboard;
mod pbrain;
mod process;

use std::time::{Duration, Instant};

use game_core::{AnyPosition, GameKind};

use crate::engine::{Engine, Level, Score, SearchLimits, SearchRequest, SearchResult};
use process::Process;

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Pbrain,
    Nboard,
    Analyze,
}

impl Protocol {
    /// By its name on the command line.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Protocol> {
        match name {
            "pbrain" => Some(Protocol::Pbrain),
            "nboard" => Some(Protocol::Nboard),
            "analyze" => Some(Protocol::Analyze),
            _ => None,
        }
    }

    /// The games an engine of this protocol plays unless told otherwise.
    #[must_use]
    pub fn default_games(self) -> Vec<GameKind> {
        match self {
            Protocol::Pbrain => vec![GameKind::Gomoku],
            Protocol::Nboard => vec![GameKind::Othello],
            Protocol::Analyze => vec![GameKind::Connect4],
        }
    }

    /// Whether this protocol can carry positions of `kind`.
    #[must_use]
    pub fn plays(self, kind: GameKind) -> bool {
        match self {
            Protocol::Pbrain => kind == GameKind::Gomoku,
            Protocol::Nboard => kind == GameKind::Othello,
            Protocol::Analyze => true,
        }
    }
}

/// What went wrong with an external engine.
#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error("the engine could not be started: {0}")]
    Start(String),
    #[error("the engine closed its pipes")]
    Closed,
    #[error("the engine did not answer in time")]
    Late,
    #[error("the engine refused: {0}")]
    Refused(String),
    #[error("the engine answered {0:?}, which is not a legal move here")]
    Illegal(String),
    #[error("the search was stopped (the room moved on)")]
    Stopped,
    #[error("the engine was still starting when the move's time ran out")]
    Starting,
}

/// Time kept in hand for the bot's own engine when the external one fails: a tenth of the
/// move, between 20 and 500 ms.
fn reserve(budget: Duration) -> Duration {
    (budget / 10).clamp(Duration::from_millis(20), Duration::from_millis(500))
}

/// How long a fresh engine may take to say it is ready, whatever the move's time.
const STARTUP: Duration = Duration::from_secs(10);

/// The time an engine is told it has, of the `time` the bot waits for its answer: an engine
/// that uses all of what it is told still answers in time.
fn engine_share(time: Duration) -> Duration {
    time.mul_f64(0.85)
}

/// One room's external engine: its process (started at the first move), and the bot's own
/// engine for what the protocol cannot carry (opening-rule decisions) and for a move the
/// external engine fails.
pub struct ExternalEngine {
    command: String,
    protocol: Protocol,
    process: Option<Process>,
    /// The depth an NBoard engine is asked for.
    pace: nboard::Pace,
    /// Why the engine refused this room's game (a board size it does not play): the bot's
    /// own engine plays it, without starting the other again at every move.
    refused: Option<String>,
    own: Box<dyn Engine>,
}

impl ExternalEngine {
    #[must_use]
    pub fn new(command: &str, protocol: Protocol, own: Box<dyn Engine>) -> ExternalEngine {
        ExternalEngine {
            command: command.to_string(),
            protocol,
            process: None,
            pace: nboard::Pace::default(),
            refused: None,
            own,
        }
    }

    /// Asks the engine for a move of `position` by `answer_by`.
    fn ask(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
        answer_by: Instant,
    ) -> Result<String, ExternalError> {
        if let Some(why) = &self.refused {
            return Err(ExternalError::Refused(why.clone()));
        }
        let stop = &request.stop;
        let process = match &mut self.process {
            Some(p) => p,
            None => {
                let mut fresh = Process::start(&self.command)?;
                let ready_by = Instant::now() + STARTUP;
                let ready = match self.protocol {
                    Protocol::Pbrain => pbrain::hello(&mut fresh, position, ready_by, stop),
                    Protocol::Nboard => nboard::hello(&mut fresh, ready_by, stop),
                    Protocol::Analyze => Ok(()),
                };
                if let Err(ExternalError::Refused(why)) = &ready {
                    self.refused = Some(why.clone());
                }
                ready?;
                self.pace.restarted();
                let fresh = self.process.insert(fresh);
                // Ready, but the move's time went to its start: the engine plays the next.
                if Instant::now() >= answer_by {
                    return Err(ExternalError::Starting);
                }
                fresh
            }
        };
        let answer = match self.protocol {
            Protocol::Pbrain => {
                pbrain::best_move(process, position, request.limits, answer_by, stop)
            }
            Protocol::Nboard => nboard::best_move(
                process,
                position,
                &mut self.pace,
                request.level,
                answer_by,
                stop,
            ),
            Protocol::Analyze => lines::best_move(process, position, answer_by, stop),
        }?;
        position
            .check_str(&answer)
            .ok()
            .filter(|m| position.legal_moves().contains(m))
            .ok_or(ExternalError::Illegal(answer))
    }
}

impl Engine for ExternalEngine {
    fn search_with(
        &mut self,
        position: &AnyPosition,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        if position.is_over() {
            return None;
        }
        let started = Instant::now();
        // A forced pass needs no engine.
        if position.must_pass() {
            return Some(played(position.legal_moves().pop()?, started));
        }
        let budget = request
            .limits
            .deadline(started)
            .map_or_else(|| self.think_time(request.level), |d| d - started);
        let answer_by = started + budget.saturating_sub(reserve(budget));
        match self.ask(position, request, answer_by) {
            Ok(best) => Some(played(best, started)),
            Err(e) => {
                // Kept: a fresh engine that took the move's time to start, and an NBoard
                // engine still thinking (its answer is read and dropped before the next
                // position). Any other engine is started afresh for the next move, so that
                // a late answer is never read as the answer to another position.
                let keep = matches!(e, ExternalError::Starting)
                    || (self.pace.owed
                        && matches!(e, ExternalError::Late | ExternalError::Stopped));
                if !keep {
                    self.process = None;
                }
                if matches!(e, ExternalError::Stopped) {
                    return None;
                }
                tracing::warn!(error = %e, command = %self.command, "external engine failed a move; the bot's own engine plays it");
                let left = (started + budget).saturating_duration_since(Instant::now());
                let own = SearchRequest {
                    limits: SearchLimits::Time(left.max(Duration::from_millis(10))),
                    ..request.clone()
                };
                self.own.search_with(position, &own)
            }
        }
    }

    fn decide_opening(
        &mut self,
        opening: &game_core::opening::Opening,
        request: &SearchRequest,
    ) -> Option<SearchResult> {
        self.own.decide_opening(opening, request)
    }

    fn think_time(&self, level: Level) -> Duration {
        self.own.think_time(level)
    }
}

/// The result of a move the engine chose: the engines' protocols report no common score, so
/// it says it searched nothing (depth and nodes 0, not exact), which the bot reads as "no
/// score" (it neither agrees to draws nor comments on it).
fn played(best: String, started: Instant) -> SearchResult {
    SearchResult {
        pv: vec![best.clone()],
        best,
        score: Score::Heuristic(0),
        exact: false,
        depth: 0,
        nodes: 0,
        ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}
