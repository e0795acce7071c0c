//! The bot's `prove_puzzle` jobs: a position of a game played in the hall, in which a review
//! found a missed forced win, proven on a thread of its own as the puzzle generator proves its
//! candidates ([`crate::puzzles::prove_position`]), then answered with `puzzle_proof`.

use tokio::sync::mpsc;

use game_core::protocol::{ClientMsg, PuzzleJob};

/// The largest answer sent: under the server's default frame limit (8 KiB) with room to
/// spare. A bigger proof is answered as none, with why.
const MOST_ANSWER_BYTES: usize = 7 * 1024 + 512;

/// Proves `job` on a thread; the answer goes to `out`.
pub fn start(job: PuzzleJob, out: mpsc::UnboundedSender<ClientMsg>) {
    std::thread::spawn(move || {
        let _ = out.send(answer(&job));
    });
}

/// The answer to `job`: the puzzle, or none and why.
#[must_use]
pub fn answer(job: &PuzzleJob) -> ClientMsg {
    let refused = |reason: String| ClientMsg::PuzzleProof {
        job: job.job.clone(),
        puzzle: None,
        reason: Some(reason),
    };
    match crate::puzzles::prove_position(&job.variant, &job.game, &job.moves) {
        Ok(puzzle) => {
            let msg = ClientMsg::PuzzleProof {
                job: job.job.clone(),
                puzzle: Some(Box::new(puzzle)),
                reason: None,
            };
            if msg.to_json().len() > MOST_ANSWER_BYTES {
                refused("the proof is too big to send".into())
            } else {
                msg
            }
        }
        Err(reason) => refused(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::GameSpec;

    fn job(moves: &[&str]) -> PuzzleJob {
        PuzzleJob {
            job: "p1".into(),
            variant: "connect4".into(),
            game: GameSpec::connect4(7, 6),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn a_position_with_no_puzzle_is_answered_with_why() {
        match answer(&job(&["4", "4"])) {
            ClientMsg::PuzzleProof {
                job,
                puzzle: None,
                reason: Some(why),
            } => {
                assert_eq!(job, "p1");
                assert!(!why.is_empty());
            }
            other => panic!("{other:?}"),
        }
        let mut othello = job(&[]);
        othello.variant = "othello".into();
        assert!(matches!(
            answer(&othello),
            ClientMsg::PuzzleProof { puzzle: None, reason: Some(ref r), .. } if r.contains("another board")
        ));
    }
}
