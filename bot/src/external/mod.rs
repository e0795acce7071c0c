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
}

/// Time kept in hand for the bot's own engine when the external one fails: a tenth of the
/// move, between 20 and 500 ms.
fn reserve(budget: Duration) -> Duration {
    (budget / 10).clamp(Duration::from_millis(20), Duration::from_millis(500))
}

/// How long a fresh engine may take to say it is ready, whatever the move's time.
const STARTUP: Duration = Duration::from_secs(10);

/// One room's external engine: its process (started at the first move), and the bot's own
/// engine for what the protocol cannot carry (opening-rule decisions) and for a move the
/// external engine fails.
pub struct ExternalEngine {
    command: String,
    protocol: Protocol,
    process: Option<Process>,
    /// The depth an NBoard engine is asked for.
    pace: nboard::Pace,
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
        let process = match &mut self.process {
            Some(p) => p,
            None => {
                let mut fresh = Process::start(&self.command)?;
                let ready_by = Instant::now() + STARTUP;
                match self.protocol {
                    Protocol::Pbrain => pbrain::hello(&mut fresh, position, ready_by)?,
                    Protocol::Nboard => nboard::hello(&mut fresh, ready_by)?,
                    Protocol::Analyze => {}
                }
                self.pace.restarted();
                self.process.insert(fresh)
            }
        };
        let answer = match self.protocol {
            Protocol::Pbrain => pbrain::best_move(process, position, request.limits, answer_by),
            Protocol::Nboard => {
                nboard::best_move(process, position, &mut self.pace, request.level, answer_by)
            }
            Protocol::Analyze => lines::best_move(process, position, answer_by),
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
                tracing::warn!(error = %e, command = %self.command, "external engine failed a move; the bot's own engine plays it");
                // Started afresh for the next move, so that a late answer is not read as the
                // answer to another position; an NBoard engine, which reads its late answer
                // first, goes on.
                if !self.pace.owed {
                    self.process = None;
                }
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

/// The result of a move the engine chose: the engines' protocols report no common score.
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
