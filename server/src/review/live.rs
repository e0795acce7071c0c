//! Live analyses for the analysis board: a connection asks for a position, one of this node's
//! analysis workers (the review queue's) searches it deeper and deeper, and each depth's line,
//! checked against the position like a review's answer, goes back to the asker — a connection
//! of this node, or of another node that has no worker (its frames go over the bus). One analysis a
//! connection (a new one replaces it), [`PER_PLAYER`] a player, [`PER_WORKER`] a worker; the
//! worker is told how long to think ([`THINK`]). All of it under one short lock.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use game_core::protocol::{AnalysisPly, LiveLine, RatedMove};
use game_core::AnyPosition;
use tokio::time::Instant;

use super::check::check_ply;
use crate::net::connection::Conn;
use crate::room::member::MemberLink;

/// Live analyses one player may have at once (over all his connections).
pub const PER_PLAYER: usize = 2;

/// Live analyses one worker runs at once.
pub const PER_WORKER: usize = 4;

/// How long a worker searches one position.
pub const THINK: Duration = Duration::from_secs(10);

/// Past its time by this much, an analysis no worker ended is dropped.
const GRACE: Duration = Duration::from_secs(5);

/// Why an analysis cannot start.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiveError {
    #[error("no analysis worker is connected: the engine cannot look at this position now")]
    NoWorker,
    #[error("every analysis worker is busy; try again in a few seconds")]
    Busy,
    #[error("at most {PER_PLAYER} analyses of one player run at once")]
    TooMany,
}

struct Live {
    asker: MemberLink,
    player: String,
    asked: Asked,
    worker: Conn,
    worker_name: String,
    ends: Instant,
}

/// What an asker asked for: its request's id, the position, and the moves to rate (checked,
/// canonical).
pub struct Asked {
    pub ask_id: String,
    pub position: AnyPosition,
    pub rate: Vec<String>,
}

/// A started analysis: its job and its worker.
pub struct Started {
    pub job: String,
    pub worker: Conn,
}

/// What is needed to send a line to its asker.
pub struct Route {
    pub asker: MemberLink,
    pub ask_id: String,
    pub by: String,
}

#[derive(Default)]
struct Inner {
    next: u64,
    jobs: HashMap<String, Live>,
    /// This node's connections whose analysis runs on another node (this one had no worker),
    /// and that node: where a stop goes.
    elsewhere: HashMap<u64, String>,
}

/// This node's live analyses.
#[derive(Default)]
pub struct LiveAnalyses {
    inner: Mutex<Inner>,
}

impl LiveAnalyses {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Starts `asker`'s analysis of `position` on the least busy of `workers`; with the
    /// analysis it replaced, started or not (its job and worker, to be told to stop).
    pub fn start(
        &self,
        asker: MemberLink,
        player: &str,
        asked: Asked,
        workers: &[(Conn, String)],
        now: Instant,
    ) -> (Option<(String, Conn)>, Result<Started, LiveError>) {
        let mut inner = self.lock();
        inner
            .jobs
            .retain(|_, l| l.ends + GRACE > now && !l.asker.is_closed());
        let replaced = take_of(&mut inner, asker.id());
        let started = Self::start_in(&mut inner, asker, player, asked, workers, now);
        (replaced, started)
    }

    fn start_in(
        inner: &mut Inner,
        asker: MemberLink,
        player: &str,
        asked: Asked,
        workers: &[(Conn, String)],
        now: Instant,
    ) -> Result<Started, LiveError> {
        if workers.is_empty() {
            return Err(LiveError::NoWorker);
        }
        if inner.jobs.values().filter(|l| l.player == player).count() >= PER_PLAYER {
            return Err(LiveError::TooMany);
        }
        let load = |w: &Conn| inner.jobs.values().filter(|l| l.worker.id == w.id).count();
        let (worker, name) = workers
            .iter()
            .filter(|(w, _)| load(w) < PER_WORKER)
            .min_by_key(|(w, _)| load(w))
            .ok_or(LiveError::Busy)?;
        inner.next += 1;
        let job = format!("l{}", inner.next);
        inner.jobs.insert(
            job.clone(),
            Live {
                asker,
                player: player.to_string(),
                asked,
                worker: worker.clone(),
                worker_name: name.clone(),
                ends: now + THINK,
            },
        );
        Ok(Started {
            job,
            worker: worker.clone(),
        })
    }

    /// Connection `asker_id` of this node has its analysis run by `node` now; the node that
    /// ran its last one, if another (to be told to stop it).
    pub fn sent_elsewhere(&self, asker_id: u64, node: &str) -> Option<String> {
        let mut inner = self.lock();
        inner
            .elsewhere
            .insert(asker_id, node.to_string())
            .filter(|old| old != node)
    }

    /// Connection `asker_id` of this node no longer has an analysis on another node: the
    /// node that had it.
    pub fn back_here(&self, asker_id: u64) -> Option<String> {
        self.lock().elsewhere.remove(&asker_id)
    }

    /// Ends the analysis of connection `asker_id` (it asked to stop, or left): its job and
    /// worker, to be told.
    pub fn stop(&self, asker_id: u64) -> Option<(String, Conn)> {
        take_of(&mut self.lock(), asker_id)
    }

    /// A worker's line for `job`, checked against the job's position: where it goes, or
    /// `Ok(None)` for a job that is no longer (stopped, replaced: a late line is dropped).
    pub fn line(
        &self,
        worker_id: u64,
        job: &str,
        line: &LiveLine,
    ) -> Result<Option<(Route, LiveLine)>, String> {
        let inner = self.lock();
        let Some(live) = inner.jobs.get(job) else {
            return Ok(None);
        };
        if live.worker.id != worker_id {
            return Err(format!("job {job} is not this worker's"));
        }
        let as_ply = AnalysisPly {
            ply: 0,
            eval: line.eval,
            proven: line.proven,
            win_in: line.win_in,
            best: line.best.clone(),
            pv: line.pv.clone(),
        };
        let (best, pv) = check_ply(&live.asked.position, &as_ply)?;
        check_proof(&live.asked.position, line)?;
        let checked = LiveLine {
            best,
            pv,
            ..line.clone()
        };
        Ok(Some((route(live), checked)))
    }

    /// A worker's value of a rated move of `job`: checked (a move the job rates, a value on
    /// the scale), and where it goes; `Ok(None)` for a job that is no longer.
    pub fn rated(
        &self,
        worker_id: u64,
        job: &str,
        rated: &RatedMove,
    ) -> Result<Option<(Route, RatedMove)>, String> {
        let inner = self.lock();
        let Some(live) = inner.jobs.get(job) else {
            return Ok(None);
        };
        if live.worker.id != worker_id {
            return Err(format!("job {job} is not this worker's"));
        }
        let mv = live
            .asked
            .position
            .check_str(&rated.mv)
            .map_err(|e| format!("move {:?}: {e}", rated.mv))?;
        if !live.asked.rate.contains(&mv) {
            return Err(format!("move {mv} is not one the job rates"));
        }
        let as_ply = AnalysisPly {
            ply: 0,
            eval: rated.eval,
            proven: rated.proven,
            win_in: rated.win_in,
            best: mv.clone(),
            pv: Vec::new(),
        };
        check_ply(&live.asked.position, &as_ply)?;
        Ok(Some((
            route(live),
            RatedMove {
                mv,
                ..rated.clone()
            },
        )))
    }

    /// A worker has finished `job`: where to say so.
    pub fn done(&self, worker_id: u64, job: &str) -> Option<Route> {
        let mut inner = self.lock();
        if inner
            .jobs
            .get(job)
            .is_some_and(|l| l.worker.id == worker_id)
        {
            return inner.jobs.remove(job).map(|l| route(&l));
        }
        None
    }

    /// A worker left: the analyses it ran, whose askers are told.
    pub fn worker_gone(&self, worker_id: u64) -> Vec<Route> {
        let mut inner = self.lock();
        let gone: Vec<String> = inner
            .jobs
            .iter()
            .filter(|(_, l)| l.worker.id == worker_id)
            .map(|(job, _)| job.clone())
            .collect();
        gone.iter()
            .filter_map(|job| inner.jobs.remove(job))
            .map(|l| route(&l))
            .collect()
    }

    /// Analyses under way (for tests and metrics).
    #[must_use]
    pub fn running(&self) -> usize {
        self.lock().jobs.len()
    }
}

/// A line's `proof`: none, or `vcf`/`vct` on a Gomoku win proven for the side to move.
fn check_proof(position: &AnyPosition, line: &LiveLine) -> Result<(), String> {
    let Some(kind) = &line.proof else {
        return Ok(());
    };
    let mover_wins = line
        .win_in
        .is_some_and(|n| (n > 0) == (position.turn() == game_core::Color::Black));
    if !["vcf", "vct"].contains(&kind.as_str())
        || position.kind() != game_core::GameKind::Gomoku
        || !line.proven
        || !mover_wins
    {
        return Err(format!(
            "proof {kind:?} is for a Gomoku win proven for the side to move (vcf or vct)"
        ));
    }
    Ok(())
}

fn route(l: &Live) -> Route {
    Route {
        asker: l.asker.clone(),
        ask_id: l.asked.ask_id.clone(),
        by: l.worker_name.clone(),
    }
}

fn take_of(inner: &mut Inner, asker_id: u64) -> Option<(String, Conn)> {
    let job = inner
        .jobs
        .iter()
        .find(|(_, l)| l.asker.id() == asker_id)
        .map(|(job, _)| job.clone())?;
    inner.jobs.remove(&job).map(|l| (job, l.worker))
}
