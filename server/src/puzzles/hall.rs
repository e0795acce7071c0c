//! Puzzles from the hall's own games: each position where a review of a finished public game
//! marks a missed forced win is a candidate; one not known already (up to the board's
//! symmetries) waits here for one of the node's analysis workers, which proves it as the
//! generator proves its own (`prove_puzzle`, answered by `puzzle_proof`). One candidate a
//! worker at a time; a worker that leaves or runs past [`PROOF_TIME`] gives it to another,
//! [`MAX_TRIES`] times at most. At most [`MAX_WAITING`] wait. All under one short lock.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use game_core::protocol::RoomStatus;
use game_core::puzzle::{symmetry_key, PuzzleJob, PuzzleSource};
use game_core::review::{Review, ReviewMark};
use game_core::{AnyPosition, GameSpec};
use tokio::time::Instant;

use super::set::VARIANTS;
use crate::net::connection::Conn;
use crate::review::ReviewInput;
use crate::store::StoredRoom;

/// Candidates waiting for a worker, at most.
pub const MAX_WAITING: usize = 256;

/// A worker's time to prove one candidate.
pub const PROOF_TIME: Duration = Duration::from_secs(60);

/// Workers a candidate is given to, at most.
pub const MAX_TRIES: u32 = 2;

/// A position to prove.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub variant: String,
    pub game: GameSpec,
    pub moves: Vec<String>,
    pub key: String,
    pub source: PuzzleSource,
}

/// The variant whose puzzles are of `game`, if any.
#[must_use]
pub fn variant_of(game: &GameSpec) -> Option<&'static str> {
    let specs = [
        GameSpec::gomoku(15, game_core::GomokuRule::Freestyle),
        GameSpec::gomoku(15, game_core::GomokuRule::Renju),
        GameSpec::Othello,
        GameSpec::connect4(7, 6),
    ];
    VARIANTS
        .iter()
        .zip(specs)
        .find(|(_, spec)| spec == game)
        .map(|(v, _)| *v)
}

/// The candidates a review of `stored` gives: its missed wins, if the game is public and of a
/// variant with puzzles (an opening rule's stones become the first moves).
#[must_use]
pub fn candidates(stored: &StoredRoom, review: &Review) -> Vec<Candidate> {
    if stored.head.private || stored.status != RoomStatus::Over {
        return Vec::new();
    }
    let Ok(input) = ReviewInput::from_room(stored) else {
        return Vec::new();
    };
    let Some(variant) = variant_of(&input.game) else {
        return Vec::new();
    };
    review
        .plies
        .iter()
        .enumerate()
        .filter(|(_, p)| p.mark == Some(ReviewMark::MissedWin))
        .filter_map(|(i, _)| {
            let pos: &AnyPosition = input.positions.get(i)?;
            let mut moves = input.setup.clone();
            moves.extend_from_slice(&input.moves[..i]);
            Some(Candidate {
                variant: variant.to_string(),
                game: input.game.clone(),
                moves,
                key: symmetry_key(pos),
                source: PuzzleSource {
                    room: stored.head.id.clone(),
                    ply: review.from + i as u32,
                },
            })
        })
        .collect()
}

struct Running {
    candidate: Candidate,
    worker: Conn,
    tries: u32,
    deadline: Instant,
}

#[derive(Default)]
struct Inner {
    next: u64,
    waiting: VecDeque<(Candidate, u32)>,
    running: HashMap<String, Running>,
}

impl Inner {
    fn has(&self, key: &str) -> bool {
        self.waiting.iter().any(|(c, _)| c.key == key)
            || self.running.values().any(|r| r.candidate.key == key)
    }
}

/// This node's candidates and the proofs under way.
#[derive(Default)]
pub struct HallProofs {
    inner: Mutex<Inner>,
}

impl HallProofs {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a candidate; false when it is dropped (the queue is full). One whose position
    /// waits or runs already is taken as queued.
    pub fn offer(&self, c: Candidate) -> bool {
        let mut inner = self.lock();
        if inner.has(&c.key) {
            return true;
        }
        if inner.waiting.len() >= MAX_WAITING {
            return false;
        }
        inner.waiting.push_back((c, 0));
        true
    }

    /// Hands waiting candidates to the workers that prove none now: the jobs to send.
    pub fn assign(&self, workers: &[(Conn, String)], now: Instant) -> Vec<(Conn, PuzzleJob)> {
        let mut inner = self.lock();
        let mut sent = Vec::new();
        for (worker, _) in workers {
            if inner.running.values().any(|r| r.worker.id == worker.id) {
                continue;
            }
            let Some((candidate, tries)) = inner.waiting.pop_front() else {
                break;
            };
            inner.next += 1;
            let job = format!("p{}", inner.next);
            sent.push((
                worker.clone(),
                PuzzleJob {
                    job: job.clone(),
                    variant: candidate.variant.clone(),
                    game: candidate.game.clone(),
                    moves: candidate.moves.clone(),
                },
            ));
            let running = Running {
                candidate,
                worker: worker.clone(),
                tries: tries + 1,
                deadline: now + PROOF_TIME,
            };
            inner.running.insert(job, running);
        }
        sent
    }

    /// A worker's answer to `job`: the candidate it was for, if the job is this worker's.
    pub fn answered(&self, worker_id: u64, job: &str) -> Option<Candidate> {
        let mut inner = self.lock();
        if inner.running.get(job)?.worker.id != worker_id {
            return None;
        }
        inner.running.remove(job).map(|r| r.candidate)
    }

    /// Gives back the candidates of a worker that left, and of jobs past their time, to the
    /// front of the queue (those tried [`MAX_TRIES`] times are dropped).
    pub fn take_back(&self, gone_worker: Option<u64>, now: Instant) {
        let mut inner = self.lock();
        let back: Vec<String> = inner
            .running
            .iter()
            .filter(|(_, r)| Some(r.worker.id) == gone_worker || r.deadline <= now)
            .map(|(job, _)| job.clone())
            .collect();
        for job in back {
            if let Some(r) = inner.running.remove(&job) {
                if r.tries < MAX_TRIES {
                    inner.waiting.push_front((r.candidate, r.tries));
                }
            }
        }
    }

    /// Candidates waiting and running (for tests and metrics).
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.waiting.len(), inner.running.len())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use game_core::protocol::{GameResult, ResultKind};
    use game_core::review::ReviewPly;
    use game_core::{Color, EndReason};
    use tokio::sync::{mpsc, Notify};

    use super::*;
    use crate::net::connection::Out;
    use crate::store::{StoredMove, StoredRoomHead};

    fn conn(id: u64) -> (Conn, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(16);
        (Conn::new(id, tx, Arc::new(Notify::new())), rx)
    }

    fn candidate(key: &str) -> Candidate {
        Candidate {
            variant: "connect4".into(),
            game: GameSpec::connect4(7, 6),
            moves: vec!["4".into()],
            key: key.into(),
            source: PuzzleSource {
                room: "r".into(),
                ply: 1,
            },
        }
    }

    fn stored(game: GameSpec, private: bool, moves: &[&str]) -> StoredRoom {
        StoredRoom {
            rating: None,
            head: StoredRoomHead {
                rated: false,
                id: "r1".into(),
                game,
                clock: None,
                opening: Vec::new(),
                private,
                created_ms: 0,
                creator: None,
            },
            status: RoomStatus::Over,
            result: Some(GameResult {
                result: ResultKind::White,
                reason: EndReason::Resign,
                line: None,
                score: None,
            }),
            seq: 0,
            black: None,
            white: None,
            moves: moves
                .iter()
                .enumerate()
                .map(|(ply, mv)| StoredMove {
                    ply,
                    mv: mv.to_string(),
                    by: if ply % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    black_ms: None,
                    white_ms: None,
                    at_ms: 0,
                    req_id: None,
                    seq: 0,
                })
                .collect(),
            fence: 0,
        }
    }

    fn review(marks: &[Option<ReviewMark>]) -> Review {
        let plies = marks
            .iter()
            .map(|&mark| ReviewPly {
                eval: 0,
                proven: false,
                win_in: None,
                best: "1".into(),
                pv: vec![],
                played: "1".into(),
                mark,
            })
            .collect();
        Review {
            from: 0,
            plies,
            by: "Kibot".into(),
            made_ms: 0,
        }
    }

    #[test]
    fn a_public_games_missed_wins_are_candidates() {
        let moves = ["1", "2", "1", "2", "1", "3"];
        let missed = Some(ReviewMark::MissedWin);
        let marks = [None, None, None, None, missed, None];
        let c4 = stored(GameSpec::connect4(7, 6), false, &moves);
        let found = candidates(&c4, &review(&marks));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].moves, ["1", "2", "1", "2"]);
        assert_eq!(found[0].source.ply, 4);
        assert_eq!(found[0].variant, "connect4");
        let pos = AnyPosition::with_moves(&GameSpec::connect4(7, 6), &found[0].moves).unwrap();
        assert_eq!(found[0].key, symmetry_key(&pos));
        // A private room, and a board no puzzle is of, give none.
        let private = stored(GameSpec::connect4(7, 6), true, &moves);
        assert!(candidates(&private, &review(&marks)).is_empty());
        let wide = stored(GameSpec::connect4(8, 6), false, &moves);
        assert!(candidates(&wide, &review(&marks)).is_empty());
    }

    #[test]
    fn one_candidate_a_worker_given_back_when_late_or_gone() {
        let proofs = HallProofs::default();
        let now = Instant::now();
        assert!(proofs.offer(candidate("a")));
        assert!(
            proofs.offer(candidate("a")),
            "a known position is taken as queued"
        );
        assert!(proofs.offer(candidate("b")));
        assert_eq!(proofs.counts(), (2, 0));
        let (w1, _r1) = conn(1);
        let (w2, _r2) = conn(2);
        let workers = vec![(w1.clone(), "one".to_string()), (w2, "two".to_string())];
        let sent = proofs.assign(&workers, now);
        assert_eq!(sent.len(), 2);
        assert!(
            proofs.assign(&workers, now).is_empty(),
            "one at a time a worker"
        );
        let (job1, job2) = (sent[0].1.job.clone(), sent[1].1.job.clone());
        assert_eq!(proofs.answered(2, &job1), None, "not the other worker's");
        assert_eq!(proofs.answered(1, &job1).map(|c| c.key), Some("a".into()));
        // Worker 2 leaves: its candidate waits again, and goes to worker 1.
        proofs.take_back(Some(2), now);
        assert_eq!(proofs.counts(), (1, 0));
        let again = proofs.assign(&workers[..1], now);
        assert_eq!(again.len(), 1);
        assert_ne!(again[0].1.job, job2);
        // Late a second time: dropped.
        proofs.take_back(None, now + PROOF_TIME);
        assert_eq!(proofs.counts(), (0, 0));
    }

    #[test]
    fn the_queue_is_bounded() {
        let proofs = HallProofs::default();
        for i in 0..MAX_WAITING {
            assert!(proofs.offer(candidate(&i.to_string())));
        }
        assert!(!proofs.offer(candidate("one more")));
    }
}
