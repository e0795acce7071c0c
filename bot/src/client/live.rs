//! The bot's live analyses for the analysis board: each `analyse_live` job searched on a
//! thread of its own, deeper and deeper (one fixed-depth search a depth, on one engine whose
//! table carries each depth's work to the next), one `analysis_line` a depth, until the job's
//! time is up, the position is solved, or the server says stop; then `analysis_done`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use game_core::protocol::{ClientMsg, LiveJob, LiveLine, RatedMove};
use game_core::review::EVAL_WIN;
use game_core::{setup, AnyPosition, Color, GameKind};

use super::analysis::{legal_line, review_eval};
use super::thinking::EngineFactory;
use crate::engine::{Level, SearchLimits, SearchResult, StopFlag};
use crate::puzzles::gomoku::GomokuProver;

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
        proof: None,
    }
}

/// How a Gomoku win proven for the side to move in `in_plies` goes: a VCF when the threat
/// search finds one as short, else a VCT when it finds that; `None` otherwise.
fn proof_kind(position: &AnyPosition, in_plies: u32) -> Option<String> {
    if position.kind() != GameKind::Gomoku {
        return None;
    }
    let mut prover = GomokuProver::new();
    if let Ok(Some(_)) = prover.vcf_plies(position, in_plies) {
        return Some("vcf".into());
    }
    match prover.vct_plies(position, in_plies) {
        Ok(Some(_)) => Some("vct".into()),
        _ => None,
    }
}

/// A flag that stops at `until`, or as soon as `parent` does.
fn stop_at(parent: &StopFlag, until: Instant) -> StopFlag {
    let flag = StopFlag::new();
    let (timer, parent) = (flag.clone(), parent.clone());
    std::thread::spawn(move || {
        while Instant::now() < until && !parent.is_stopped() && !timer.is_stopped() {
            let left = until.saturating_duration_since(Instant::now());
            std::thread::sleep(Duration::from_millis(20).min(left));
        }
        timer.stop();
    });
    flag
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
    let time = Duration::from_millis(job.ms).min(MOST_TIME);
    // The position's own lines take all the time, or the first half when moves are rated.
    let own = if job.rate.is_empty() { time } else { time / 2 };
    let own_stop = stop_at(stop, started + own);
    deepen(job, &position, engine, out, &own_stop, started);
    own_stop.stop();
    if !job.rate.is_empty() {
        let job_stop = stop_at(stop, started + time);
        rate(job, &position, engine, out, &job_stop, started + time);
        job_stop.stop();
    }
}

/// The position's lines, one a depth, until `stop`, a solved position or a depth that does
/// not deepen.
fn deepen(
    job: &LiveJob,
    position: &AnyPosition,
    engine: &mut dyn crate::engine::Engine,
    out: &mpsc::UnboundedSender<ClientMsg>,
    stop: &StopFlag,
    started: Instant,
) {
    let (mut nodes, mut reached) = (0, 0);
    for depth in 1..=MAX_DEPTH {
        let Some(result) = engine.search(
            position,
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
        let mut line = line_of(position, result.depth.max(depth), &result, ms);
        line.nodes = nodes;
        let solved = line.proven;
        if let (true, Some(n)) = (solved, line.win_in) {
            let mover_wins = (n > 0) == (position.turn() == Color::Black);
            if mover_wins {
                line.proof = proof_kind(position, n.unsigned_abs());
            }
        }
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

/// Each rated move's value: the position after it searched deeper and deeper for an equal
/// share of the time left, the deepest finished depth answered.
fn rate(
    job: &LiveJob,
    position: &AnyPosition,
    engine: &mut dyn crate::engine::Engine,
    out: &mpsc::UnboundedSender<ClientMsg>,
    stop: &StopFlag,
    deadline: Instant,
) {
    for (i, mv) in job.rate.iter().enumerate() {
        if stop.is_stopped() {
            return;
        }
        let mut child = position.clone();
        let Ok(canonical) = child.play_str(mv) else {
            continue;
        };
        let share =
            deadline.saturating_duration_since(Instant::now()) / (job.rate.len() - i) as u32;
        let rated = rate_one(&child, canonical, engine, stop, Instant::now() + share);
        if let Some(rated) = rated {
            let msg = ClientMsg::AnalysisMove {
                job: job.job.clone(),
                rated,
            };
            if out.send(msg).is_err() {
                return;
            }
        }
    }
}

/// One rated move: `child` is the position after it.
fn rate_one(
    child: &AnyPosition,
    mv: String,
    engine: &mut dyn crate::engine::Engine,
    stop: &StopFlag,
    until: Instant,
) -> Option<RatedMove> {
    if let Some(outcome) = child.outcome() {
        let sign = match outcome.winner {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => 0,
        };
        return Some(RatedMove {
            mv,
            depth: 0,
            eval: sign * EVAL_WIN,
            proven: true,
            win_in: (sign != 0).then_some(sign),
        });
    }
    let share = stop_at(stop, until);
    let mut best = None;
    for depth in 1..=MAX_DEPTH {
        // The first depth is always finished (it is quick), unless the job is stopped.
        let flag = if depth == 1 { stop } else { &share };
        let Some(result) = engine.search(child, SearchLimits::Depth(depth), Level::MAX, flag, 1)
        else {
            break;
        };
        if flag.is_stopped() {
            break;
        }
        let line = line_of(child, result.depth.max(depth), &result, 0);
        let solved = line.proven;
        best = Some(line);
        if solved {
            break;
        }
    }
    share.stop();
    best.map(|line| RatedMove {
        mv,
        depth: line.depth,
        eval: line.eval,
        proven: line.proven,
        // Counted from the position before the move: the move itself is one ply more.
        win_in: line.win_in.map(|n| n + n.signum()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameSpec;

    #[test]
    fn a_job_streams_deeper_lines_then_says_done() {
        let engines: EngineFactory =
            std::sync::Arc::new(|kind| Some(crate::engine::registry::engine_for(kind)));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut jobs = LiveJobs::default();
        jobs.start(
            LiveJob {
                job: "l1".into(),
                game: GameSpec::Othello,
                position: None,
                moves: vec!["f5".into()],
                ms: 400,
                rate: vec![],
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
            std::sync::Arc::new(|kind| Some(crate::engine::registry::engine_for(kind)));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut jobs = LiveJobs::default();
        jobs.start(
            LiveJob {
                job: "l2".into(),
                game: GameSpec::connect4(7, 6),
                position: None,
                moves: vec![],
                ms: 30_000,
                rate: vec![],
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

    #[test]
    fn rated_moves_each_get_a_value_after_the_lines() {
        let engines: EngineFactory =
            std::sync::Arc::new(|kind| Some(crate::engine::registry::engine_for(kind)));
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut jobs = LiveJobs::default();
        // Black has three in column 1: "1" wins at once, "4" lets white block.
        jobs.start(
            LiveJob {
                job: "l3".into(),
                game: GameSpec::connect4(7, 6),
                position: None,
                moves: ["1", "2", "1", "2", "1", "7"].map(String::from).to_vec(),
                ms: 600,
                rate: vec!["1".into(), "4".into()],
            },
            &engines,
            tx,
        );
        let (mut lines, mut rated) = (0, Vec::new());
        while let Some(msg) = rx.blocking_recv() {
            match msg {
                ClientMsg::AnalysisLine { .. } => {
                    assert!(rated.is_empty(), "lines come before the rated moves");
                    lines += 1;
                }
                ClientMsg::AnalysisMove { job, rated: r } => {
                    assert_eq!(job, "l3");
                    rated.push(r);
                }
                ClientMsg::AnalysisDone { .. } => break,
                other => panic!("{other:?}"),
            }
        }
        assert!(lines >= 1);
        assert_eq!(rated.len(), 2, "{rated:?}");
        assert_eq!((rated[0].mv.as_str(), rated[0].eval), ("1", EVAL_WIN));
        assert_eq!(rated[0].win_in, Some(1));
        assert!(rated[0].proven);
        assert_eq!(rated[1].mv, "4");
        assert!(rated[1].eval < EVAL_WIN, "{:?}", rated[1]);
    }

    #[test]
    fn a_gomoku_win_says_whether_it_is_a_vcf() {
        let text = include_str!("../../../server/puzzles/gomoku-freestyle.jsonl");
        let line = |theme: &str| {
            text.lines()
                .map(|l| serde_json::from_str::<game_core::puzzle::Puzzle>(l).unwrap())
                .find(|p| p.themes.iter().any(|t| t == theme))
                .unwrap()
        };
        for (theme, kind) in [("vcf", "vcf"), ("vct", "vct")] {
            let p = line(theme);
            let pos = AnyPosition::with_moves(&p.game, &p.moves).unwrap();
            let plies = 2 * p.length - 1;
            assert_eq!(proof_kind(&pos, plies).as_deref(), Some(kind), "{}", p.id);
        }
        let othello = AnyPosition::new(&GameSpec::Othello).unwrap();
        assert_eq!(proof_kind(&othello, 3), None);
    }
}
