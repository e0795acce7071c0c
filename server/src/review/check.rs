//! A worker's answer for one position, checked against the position before it is kept: a
//! worker is a client like any other, and nothing it says is trusted.

use game_core::protocol::AnalysisPly;
use game_core::review::{EVAL_WIN, MAX_PV};
use game_core::AnyPosition;

/// The answer's best move and line in canonical notation, or why it is refused.
pub fn check_ply(
    position: &AnyPosition,
    answer: &AnalysisPly,
) -> Result<(String, Vec<String>), String> {
    if !(-EVAL_WIN..=EVAL_WIN).contains(&answer.eval) {
        return Err(format!(
            "eval {} is outside -{EVAL_WIN}..={EVAL_WIN}",
            answer.eval
        ));
    }
    if let Some(n) = answer.win_in {
        let sign_agrees = (n > 0 && answer.eval > 0) || (n < 0 && answer.eval < 0);
        if !answer.proven || !sign_agrees || n.unsigned_abs() > 1000 {
            return Err(format!("win_in {n} needs a proven eval of the same sign"));
        }
    }
    if answer.pv.len() > MAX_PV {
        return Err(format!(
            "a line of {} moves; at most {MAX_PV}",
            answer.pv.len()
        ));
    }
    let best = position
        .check_str(&answer.best)
        .map_err(|e| format!("best move {:?}: {e}", answer.best))?;
    let mut line = position.clone();
    let mut pv = Vec::with_capacity(answer.pv.len());
    for (i, mv) in answer.pv.iter().enumerate() {
        if line.is_over() {
            return Err(format!(
                "the line goes on after the game ends, at move {}",
                i + 1
            ));
        }
        let played = line
            .play_str(mv)
            .map_err(|e| format!("line move {} {mv:?}: {e}", i + 1))?;
        pv.push(played);
    }
    if pv.first().is_some_and(|first| *first != best) {
        return Err("the line does not start with the best move".to_string());
    }
    Ok((best, pv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameSpec;

    fn answer(best: &str, pv: &[&str], eval: i32) -> AnalysisPly {
        AnalysisPly {
            ply: 0,
            eval,
            proven: false,
            win_in: None,
            best: best.to_string(),
            pv: pv.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_legal_answer_comes_back_canonical() {
        let pos = AnyPosition::new(&GameSpec::Othello).unwrap();
        let (best, pv) = check_ply(&pos, &answer("F5", &["f5", "F6"], 10)).unwrap();
        assert_eq!(best, "f5");
        assert_eq!(pv, ["f5", "f6"]);
    }

    #[test]
    fn illegal_moves_lines_and_evals_are_refused() {
        let c4 = AnyPosition::new(&GameSpec::connect4(7, 6)).unwrap();
        assert!(check_ply(&c4, &answer("9", &[], 0))
            .unwrap_err()
            .contains("best move"));
        assert!(check_ply(&c4, &answer("4", &["3"], 0))
            .unwrap_err()
            .contains("start"));
        assert!(check_ply(&c4, &answer("4", &["4"], 5000))
            .unwrap_err()
            .contains("eval"));
        let full = ["4", "4", "4", "4", "4", "4", "4"];
        assert!(check_ply(&c4, &answer("4", &full, 0))
            .unwrap_err()
            .contains("line move 7"));
        let mut won = answer("4", &[], 1000);
        won.win_in = Some(-3);
        won.proven = true;
        assert!(check_ply(&c4, &won).unwrap_err().contains("win_in"));
        let long = ["4"; 13];
        assert!(check_ply(&c4, &answer("4", &long, 0))
            .unwrap_err()
            .contains("at most"));
    }
}
