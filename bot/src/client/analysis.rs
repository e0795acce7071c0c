//! The bot as an analysis worker: it searches every position of an `analyze` job for a short
//! time on a thread of its own (its games go on meanwhile) and sends one `analysis` per
//! position, its evaluation put on the protocol's scale: -1000..=1000 from black's view,
//! ±1000 only for a proven win.

use std::time::Duration;

use tokio::sync::mpsc;

use game_core::protocol::{AnalysisPly, AnalyzeJob, ClientMsg};
use game_core::review::{EVAL_WIN, MAX_PV};
use game_core::{AnyPosition, Color, GameKind};

use super::thinking::EngineFactory;
use crate::engine::{Level, Score, SearchLimits, SearchResult, StopFlag};

/// A heuristic evaluation never reaches the value of a proven win.
const HEURISTIC_MAX: f64 = 900.0;

/// The heuristic score, in each engine's units, that reads as a clear advantage (about 460
/// on the review's scale).
fn clear_advantage(kind: GameKind) -> f64 {
    match kind {
        GameKind::Gomoku => 600.0,
        GameKind::Othello => 1000.0,
        GameKind::Connect4 => 100.0,
    }
}

/// A search's score on the review's scale from the side to move's view, whether it is
/// proven, and a proven win's distance.
#[must_use]
pub fn review_eval(kind: GameKind, score: Score) -> (i32, bool, Option<i32>) {
    match score {
        Score::WinIn(n) if n > 0 => (EVAL_WIN, true, Some(n)),
        Score::WinIn(n) => (-EVAL_WIN, true, Some(n)),
        Score::Exact(s) => (s.signum() * EVAL_WIN, true, None),
        Score::Heuristic(h) => {
            let squashed = HEURISTIC_MAX * (f64::from(h) / clear_advantage(kind) * 0.55).tanh();
            (squashed.round() as i32, false, None)
        }
    }
}

/// The engine's line, cut where it stops being legal or the game ends, starting with `best`.
pub fn legal_line(position: &AnyPosition, result: &SearchResult) -> Vec<String> {
    let mut line = position.clone();
    let mut pv = Vec::new();
    for mv in result.pv.iter().take(MAX_PV) {
        if line.is_over() || line.play_str(mv).is_err() {
            break;
        }
        pv.push(mv.clone());
    }
    if pv.first() != Some(&result.best) {
        pv = vec![result.best.clone()];
    }
    pv
}

/// One position's answer, from black's view.
fn answer(ply: u32, position: &AnyPosition, result: &SearchResult) -> AnalysisPly {
    let (eval, proven, win_in) = review_eval(position.kind(), result.score);
    let sign = if position.turn() == Color::Black {
        1
    } else {
        -1
    };
    AnalysisPly {
        ply,
        eval: eval * sign,
        proven,
        win_in: win_in.map(|n| n * sign),
        best: result.best.clone(),
        pv: legal_line(position, result),
    }
}

/// Analyses `job` on a thread, `per_position` a position, sending each answer to `out`;
/// stops early once `stop` is set or `out` is closed (the connection ended).
pub fn start(
    job: AnalyzeJob,
    engines: &EngineFactory,
    per_position: Duration,
    out: mpsc::UnboundedSender<ClientMsg>,
    stop: StopFlag,
) {
    let engine = engines(job.game.kind());
    std::thread::spawn(move || {
        let Some(mut engine) = engine else {
            tracing::warn!(job = %job.job, "no engine for this game");
            return;
        };
        let Ok(mut position) = AnyPosition::with_moves(&job.game, &job.setup) else {
            tracing::warn!(job = %job.job, "the job's set-up is not a position");
            return;
        };
        let mut last_eval = 0;
        for (i, mv) in job.moves.iter().enumerate() {
            let ply = i as u32;
            if stop.is_stopped() {
                return;
            }
            let found = if position.must_pass() {
                None
            } else {
                let limits = SearchLimits::Time(per_position);
                engine.search(&position, limits, Level::MAX, &stop, u64::from(ply))
            };
            let msg = match found {
                Some(result) => answer(ply, &position, &result),
                // A forced pass: nothing to search, the evaluation stands.
                None => AnalysisPly {
                    ply,
                    eval: last_eval,
                    proven: false,
                    win_in: None,
                    best: mv.clone(),
                    pv: vec![mv.clone()],
                },
            };
            // A search cut short by `stop` is not sent: its job was taken back.
            if stop.is_stopped() {
                return;
            }
            last_eval = msg.eval;
            let sent = out.send(ClientMsg::Analysis {
                job: job.job.clone(),
                ply: msg,
            });
            if sent.is_err() || position.play_str(mv).is_err() {
                return;
            }
        }
        tracing::info!(job = %job.job, positions = job.moves.len(), "analysis done");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_map_onto_the_review_scale() {
        assert_eq!(
            review_eval(GameKind::Gomoku, Score::WinIn(5)),
            (1000, true, Some(5))
        );
        assert_eq!(
            review_eval(GameKind::Othello, Score::Exact(-4)),
            (-1000, true, None)
        );
        assert_eq!(
            review_eval(GameKind::Connect4, Score::Exact(0)),
            (0, true, None)
        );
        let (e, proven, _) = review_eval(GameKind::Othello, Score::Heuristic(1_000_000));
        assert!(!proven && e <= 900 && e > 800, "{e}");
        let (small, _, _) = review_eval(GameKind::Othello, Score::Heuristic(-100));
        assert!((-100..0).contains(&small), "{small}");
    }

    /// Starts a Connect Four 7x6 job of `moves` with the registry's engines; the answers come
    /// on the returned channel, which closes when the job's thread ends.
    fn connect4_job(
        moves: &[&str],
        per_position: Duration,
        stop: StopFlag,
    ) -> mpsc::UnboundedReceiver<ClientMsg> {
        let engines: EngineFactory =
            std::sync::Arc::new(|kind| Some(crate::engine::registry::engine_for(kind)));
        let job = AnalyzeJob {
            job: "a1".to_string(),
            game: game_core::GameSpec::connect4(7, 6),
            setup: Vec::new(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        start(job, &engines, per_position, tx, stop);
        rx
    }

    #[test]
    fn a_job_is_answered_position_by_position_from_blacks_view() {
        let moves = ["4", "4", "3", "3", "2", "1", "5"];
        let mut rx = connect4_job(&moves, Duration::from_millis(30), StopFlag::new());
        let mut answers = Vec::new();
        while let Some(ClientMsg::Analysis { ply, .. }) = rx.blocking_recv() {
            answers.push(ply);
        }
        assert_eq!(answers.len(), 7);
        assert!(answers.iter().enumerate().all(|(i, a)| a.ply == i as u32));
        // Before move 7 black (to move) wins at once with 5 or 1... and the solver proves it.
        let last = &answers[6];
        assert!(last.proven && last.eval == 1000, "{last:?}");
        // After 2 and 1, white's 1 did not stop the open three: the position before it is
        // already lost for white.
        assert!(answers[5].eval == 1000, "{:?}", answers[5]);
    }

    #[test]
    fn a_stopped_job_sends_nothing_more() {
        let stop = StopFlag::new();
        stop.stop();
        let mut rx = connect4_job(&["4", "4", "3"], Duration::from_secs(5), stop);
        // The thread ends without an answer, which closes the channel.
        assert!(rx.blocking_recv().is_none());
    }
}
