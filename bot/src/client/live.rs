//! The bot's live analyses for the analysis board: each `analyse_live` job searched on a
//! thread of its own, deeper and deeper (one fixed-depth search a depth, on one engine whose
//! table carries each depth's work to the next), one `analysis_line` a depth, until the job's
//! time is up, the position is solved, or the server says stop; then `analysis_done`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use game_core::protocol::{ClientMsg, LiveJob, LiveLine};
use game_core::{setup, AnyPosition, Color};

use super::analysis::{legal_line, review_eval};
use super::thinking::EngineFactory;
use crate::engine::{Level, SearchLimits, SearchResult, StopFlag};

/// The deepest a live analysis goes (a search that stops deepening ends it sooner).
const MAX_DEPTH: u32 = 60;

/// The longest a job may ask to think.
const MOST_TIME: Duration = Duration::from_secs(60);

/// The running jobs' stop flags, by job.
#[derive(Default)]
pub struct LiveJobs {
    running: HashMap<String, StopFlag>,
}

impl LiveJobs {
    /// Starts `job` on a thread; its lines go to `out`.
    pub fn start(
        &mut self,
        job: LiveJob,
        engines: &EngineFactory,
        out: mpsc::UnboundedSender<ClientMsg>,
    ) {
        self.running.retain(|_, stop| !stop.is_stopped());
        let stop = StopFlag::new();
        self.running.insert(job.job.clone(), stop.clone());
        let engine = engines(job.game.kind());
        std::thread::spawn(move || {
            if let Some(mut engine) = engine {
                run(&job, &mut *engine, &out, &stop);
            }
            stop.stop();
            let _ = out.send(ClientMsg::AnalysisDone { job: job.job });
        });
    }

    /// The server took `job` back.
    pub fn stop(&mut self, job: &str) {
        if let Some(stop) = self.running.remove(job) {
            stop.stop();
        }
    }

    /// Stops them all (the connection ended).
    pub fn stop_all(&mut self) {
        for (_, stop) in self.running.drain() {
            stop.stop();
        }
    }
}

/// The job's position: the set-up board or the start, then its moves.
fn position_of(job: &LiveJob) -> Result<AnyPosition, String> {
    let mut pos = match &job.position {
        Some(text) => setup::position_from_text(&job.game, text)?,
        None => AnyPosition::new(&job.game).map_err(|e| e.to_string())?,
    };
    for mv in &job.moves {
        pos.play_str(mv).map_err(|e| e.to_string())?;
    }
    Ok(pos)
}

/// A depth's result on the protocol's scale, from black's view.
#[must_use]
pub fn line_of(position: &AnyPosition, depth: u32, result: &SearchResult, ms: u64) -> LiveLine {
    let (eval, proven, win_in) = review_eval(position.kind(), result.score);
    let sign = if position.turn() == Color::Black {
        1
    } else {
        -1
    };
    LiveLine {
        depth,
        eval: eval * sign,
        proven,
        win_in: win_in.map(|n| n * sign),
        best: result.best.clone(),
        pv: legal_line(position, result),
        nodes: result.nodes,
        ms,
    }
}

fn run(
    job: &LiveJob,
    engine: &mut dyn crate::engine::Engine,
    out: &mpsc::UnboundedSender<ClientMsg>,
    stop: &StopFlag,
) {
    let Ok(position) = position_of(job) else {
        tracing::warn!(job = %job.job, "a live analysis of a position that does not stand");
        return;
    };
    if position.is_over() || position.must_pass() {
        return;
    }
    let started = Instant::now();
    let deadline = started + Duration::from_millis(job.ms).min(MOST_TIME);
    // The clock's own thread stops the search at the deadline, mid-depth if need be.
    let timer = stop.clone();
    std::thread::spawn(move || {
        while Instant::now() < deadline && !timer.is_stopped() {
            std::thread::sleep(
                Duration::from_millis(20).min(deadline.saturating_duration_since(Instant::now())),
            );
        }
        timer.stop();
    });
    let (mut nodes, mut reached) = (0, 0);
    for depth in 1..=MAX_DEPTH {
        let Some(result) = engine.search(
            &position,
            SearchLimits::Depth(depth),
            Level::MAX,
            stop,
            u64::from(depth),
        ) else {
            return;
        };
        // A depth cut short by the clock or the server is not a depth reached.
        if stop.is_stopped() {
            return;
        }
        nodes += result.nodes;
        let ms = started.elapsed().as_millis() as u64;
        let mut line = line_of(&position, result.depth.max(depth), &result, ms);
        line.nodes = nodes;
        let solved = line.proven;
        let deepened = result.depth > reached;
        reached = reached.max(result.depth);
        if out
            .send(ClientMsg::AnalysisLine {
                job: job.job.clone(),
                line,
            })
            .is_err()
            || solved
            || !deepened
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameSpec;

    #[test]
    fn a_job_streams_deeper_lines_then_says_done() {
        let engines: EngineFactory =
            std::sync::Arc::new(|kind| Some(crate::registry::engine_for(kind)));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut jobs = LiveJobs::default();
        jobs.start(
            LiveJob {
                job: "l1".into(),
                game: GameSpec::Othello,
                position: None,
                moves: vec!["f5".into()],
                ms: 400,
            },
            &engines,
            tx,
        );
        let mut depths = Vec::new();
        loop {
            match rx.blocking_recv() {
                Some(ClientMsg::AnalysisLine { job, line }) => {
                    assert_eq!(job, "l1");
                    assert!(["d6", "f6", "f4"].contains(&line.best.as_str()), "{line:?}");
                    depths.push(line.depth);
                }
                Some(ClientMsg::AnalysisDone { job }) => {
                    assert_eq!(job, "l1");
                    break;
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(
            depths.len() >= 3 && depths.windows(2).all(|w| w[0] < w[1]),
            "{depths:?}"
        );
    }

    #[test]
    fn a_stopped_job_ends_with_done() {
        let engines: EngineFactory =
            std::sync::Arc::new(|kind| Some(crate::registry::engine_for(kind)));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut jobs = LiveJobs::default();
        jobs.start(
            LiveJob {
                job: "l2".into(),
                game: GameSpec::connect4(7, 6),
                position: None,
                moves: vec![],
                ms: 30_000,
            },
            &engines,
            tx,
        );
        jobs.stop("l2");
        // The empty board's first depths may have been sent; then done, and nothing after it.
        let mut done = false;
        while let Some(msg) = rx.blocking_recv() {
            assert!(!done, "nothing after done: {msg:?}");
            done |= matches!(msg, ClientMsg::AnalysisDone { ref job } if job == "l2");
        }
        assert!(done);
    }
}
