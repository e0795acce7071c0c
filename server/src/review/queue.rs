//! The review queue: jobs waiting for an analysis worker, the workers (bot connections that
//! offered to analyse, one job each at a time), and the answers of each job in progress.
//! A worker that goes away or runs past its deadline gives its job back to the front of the
//! queue; a job that failed [`MAX_ATTEMPTS`] times is given up, and so is one that waited for a
//! worker longer than the limit. How many jobs one requester (a player, or an address) may
//! have is the hall's count, not the queue's (`Hub::review_counts`): a player whose reviews
//! wait on several nodes has its limit once. All of it under one short lock, never held across
//! an `.await`.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use game_core::protocol::{AnalysisPly, ReviewPly, ServerMsg};
use tokio::time::Instant;

use super::check::check_ply;
use super::error::ReviewError;
use super::input::ReviewInput;
use super::marks::mark_moves;
use crate::net::connection::Conn;

/// Tries of one job (a worker gone, late or wrong each count one) before it is given up.
pub const MAX_ATTEMPTS: u32 = 3;

/// Time a worker is given for a job: a fixed part and a part per position.
const JOB_BASE_TIME: Duration = Duration::from_secs(10);

/// The longest a worker may take over one job, however slow it is allowed to be a position.
const LONGEST_JOB: Duration = Duration::from_secs(24 * 3600);

/// Most positions a review has (a full 26x26 Gomoku board).
const MOST_PLIES: u32 = 26 * 26;

/// The longest a job can live under `limits`: each of its tries waits for a worker, then runs
/// to its deadline. What the hall's count of a requester's reviews holds one for at most,
/// should its end never be told (its node died).
#[must_use]
pub fn longest_life(limits: &QueueLimits) -> Duration {
    let job = JOB_BASE_TIME
        .saturating_add(limits.ply_time.saturating_mul(MOST_PLIES))
        .min(LONGEST_JOB);
    limits.wait.saturating_add(job).saturating_mul(MAX_ATTEMPTS)
}

/// A job sent to a worker: when to look whether it is done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    pub job: String,
    pub attempt: u32,
    pub deadline: Instant,
}

/// A refused answer: why, the jobs sent meanwhile, and the room whose review was given up.
pub type Refused = (ReviewError, Vec<Assignment>, Option<String>);

/// What one answer of a worker led to.
#[derive(Debug)]
pub enum PlyOutcome {
    /// Kept; more positions to come.
    Progress {
        room: String,
        done: usize,
        of: usize,
    },
    /// The last position: the whole review, marked, for the room `room`.
    Done {
        room: String,
        from: u32,
        plies: Vec<ReviewPly>,
        worker: String,
    },
    /// An answer for a job that was taken from this worker (it ran late): ignored.
    Stale,
}

/// Who asked for a review: the player, and the address it asked from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requester {
    pub player: String,
    pub address: Option<IpAddr>,
}

/// The queue's limits (`--review-queue`, `--review-wait-secs`, `--review-ply-ms`).
#[derive(Clone, Copy, Debug)]
pub struct QueueLimits {
    /// Jobs waiting for a worker.
    pub max_waiting: usize,
    /// How long a job may wait for a worker.
    pub wait: Duration,
    /// Time a worker is given per position.
    pub ply_time: Duration,
}

struct Job {
    id: String,
    input: ReviewInput,
    attempts: u32,
    requester: Requester,
    /// Since when it waits for a worker (again, after a failed try).
    queued: Instant,
}

struct Worker {
    conn: Conn,
    name: String,
    busy: Option<Busy>,
}

struct Busy {
    job: Job,
    plies: Vec<ReviewPly>,
}

#[derive(Default)]
struct Inner {
    workers: Vec<Worker>,
    waiting: VecDeque<Job>,
    next_id: u64,
}

/// The shared queue; see the module.
pub struct ReviewQueue {
    inner: Mutex<Inner>,
    limits: QueueLimits,
}

impl ReviewQueue {
    #[must_use]
    pub fn new(limits: QueueLimits) -> ReviewQueue {
        ReviewQueue {
            inner: Mutex::new(Inner::default()),
            limits,
        }
    }

    /// How long a job may wait for a worker.
    #[must_use]
    pub fn wait_limit(&self) -> Duration {
        self.limits.wait
    }

    #[must_use]
    pub fn limits(&self) -> QueueLimits {
        self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic under the lock leaves plain data behind; go on with it.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Connected workers.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.lock().workers.len()
    }

    /// Whether a review of `room` is waiting or being made.
    #[must_use]
    pub fn is_pending(&self, room: &str) -> bool {
        Self::pending_in(&self.lock(), room)
    }

    fn pending_in(inner: &Inner, room: &str) -> bool {
        inner.waiting.iter().any(|j| j.input.room == room)
            || inner
                .workers
                .iter()
                .any(|w| w.busy.as_ref().is_some_and(|b| b.job.input.room == room))
    }

    /// Queues a review unless one of the room is already pending. Returns the jobs sent.
    pub fn request(
        &self,
        input: ReviewInput,
        requester: Requester,
        now: Instant,
    ) -> Result<Vec<Assignment>, ReviewError> {
        // The pending check and the queueing under one lock: two requests for one room at
        // once make one review.
        let mut inner = self.lock();
        if Self::pending_in(&inner, &input.room) {
            return Ok(Vec::new());
        }
        if inner.waiting.len() >= self.limits.max_waiting {
            return Err(ReviewError::QueueFull(self.limits.max_waiting));
        }
        inner.next_id += 1;
        let id = format!("a{}", inner.next_id);
        inner.waiting.push_back(Job {
            id,
            input,
            attempts: 0,
            requester,
            queued: now,
        });
        Ok(self.hand_out(&mut inner, now))
    }

    /// Takes every job still waiting for a worker out of the queue, oldest first: its room and
    /// who asked (in a cluster, for a node that has workers when this one has none).
    pub fn take_waiting(&self) -> Vec<(String, Requester)> {
        self.lock()
            .waiting
            .drain(..)
            .map(|job| (job.input.room, job.requester))
            .collect()
    }

    /// Gives up the jobs that have waited for a worker for the wait limit; their rooms.
    pub fn expire_waiting(&self, now: Instant) -> Vec<String> {
        let wait = self.limits.wait;
        let mut inner = self.lock();
        let mut expired = Vec::new();
        inner.waiting.retain(|job| {
            let keep = now.saturating_duration_since(job.queued) < wait;
            if !keep {
                expired.push(job.input.room.clone());
            }
            keep
        });
        expired
    }

    /// A worker connected.
    pub fn add_worker(&self, conn: Conn, name: &str, now: Instant) -> Vec<Assignment> {
        let mut inner = self.lock();
        inner.workers.push(Worker {
            conn,
            name: name.to_string(),
            busy: None,
        });
        self.hand_out(&mut inner, now)
    }

    /// The workers' connections and names (live analyses run on them too).
    #[must_use]
    pub fn worker_list(&self) -> Vec<(Conn, String)> {
        self.lock()
            .workers
            .iter()
            .map(|w| (w.conn.clone(), w.name.clone()))
            .collect()
    }

    /// Whether connection `conn_id` is a worker.
    #[must_use]
    pub fn is_worker(&self, conn_id: u64) -> bool {
        self.lock().workers.iter().any(|w| w.conn.id == conn_id)
    }

    /// A worker's connection closed: its job goes back to the front of the queue. Returns
    /// the jobs sent and the rooms whose review was given up.
    pub fn remove_worker(&self, conn_id: u64, now: Instant) -> (Vec<Assignment>, Vec<String>) {
        let mut inner = self.lock();
        let Some(at) = inner.workers.iter().position(|w| w.conn.id == conn_id) else {
            return (Vec::new(), Vec::new());
        };
        let worker = inner.workers.remove(at);
        let failed = worker
            .busy
            .and_then(|busy| Self::give_back(&mut inner, busy.job, now))
            .into_iter()
            .collect();
        (self.hand_out(&mut inner, now), failed)
    }

    /// Job `job` at try `attempt` reached its deadline: if it is still at that try, its
    /// worker loses it and it goes back to the queue.
    pub fn expire(&self, job: &str, attempt: u32, now: Instant) -> (Vec<Assignment>, Vec<String>) {
        let mut inner = self.lock();
        let late = inner.workers.iter_mut().find(|w| {
            w.busy
                .as_ref()
                .is_some_and(|b| b.job.id == job && b.job.attempts == attempt)
        });
        let Some(busy) = late.and_then(|w| w.busy.take()) else {
            return (Vec::new(), Vec::new());
        };
        tracing::warn!(job, room = %busy.job.input.room, "analysis worker too slow; job taken back");
        let failed = Self::give_back(&mut inner, busy.job, now)
            .into_iter()
            .collect();
        (self.hand_out(&mut inner, now), failed)
    }

    /// One answer of worker `conn_id`. A wrong answer frees the worker and gives the job to
    /// the queue again (or up, after [`MAX_ATTEMPTS`]); the error says what was wrong and the
    /// second value names a room whose review was given up.
    pub fn answer(
        &self,
        conn_id: u64,
        job: &str,
        answer: &AnalysisPly,
        now: Instant,
    ) -> Result<(PlyOutcome, Vec<Assignment>), Refused> {
        let mut inner = self.lock();
        let issued = job
            .strip_prefix('a')
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|n| n >= 1 && n <= inner.next_id);
        let Some(worker) = inner.workers.iter_mut().find(|w| w.conn.id == conn_id) else {
            return Err((ReviewError::NotAWorker, Vec::new(), None));
        };
        let mine = worker.busy.as_ref().is_some_and(|b| b.job.id == job);
        if !mine {
            if issued {
                return Ok((PlyOutcome::Stale, Vec::new()));
            }
            return Err((ReviewError::NotYourJob(job.to_string()), Vec::new(), None));
        }
        let Some(busy) = worker.busy.as_mut() else {
            return Err((ReviewError::NotYourJob(job.to_string()), Vec::new(), None));
        };
        let expected = busy.plies.len();
        let checked = if answer.ply as usize != expected {
            Err(ReviewError::OutOfOrder {
                got: answer.ply,
                expected: expected as u32,
            })
        } else {
            check_ply(&busy.job.input.positions[expected], answer).map_err(|why| {
                ReviewError::BadAnalysis {
                    ply: answer.ply,
                    why,
                }
            })
        };
        let (best, pv) = match checked {
            Ok(ok) => ok,
            Err(why) => {
                let Some(busy) = worker.busy.take() else {
                    return Err((why, Vec::new(), None));
                };
                let failed = Self::give_back(&mut inner, busy.job, now);
                let sent = self.hand_out(&mut inner, now);
                return Err((why, sent, failed));
            }
        };
        busy.plies.push(ReviewPly {
            eval: answer.eval,
            proven: answer.proven,
            win_in: answer.win_in,
            best,
            pv,
            played: busy.job.input.moves[expected].clone(),
            mark: None,
        });
        let of = busy.job.input.moves.len();
        if busy.plies.len() < of {
            let room = busy.job.input.room.clone();
            return Ok((
                PlyOutcome::Progress {
                    room,
                    done: expected + 1,
                    of,
                },
                Vec::new(),
            ));
        }
        let worker_name = worker.name.clone();
        let Some(busy) = worker.busy.take() else {
            return Err((ReviewError::NotYourJob(job.to_string()), Vec::new(), None));
        };
        let mut plies = busy.plies;
        let input = busy.job.input;
        mark_moves(&mut plies, &input.movers(), input.end);
        let sent = self.hand_out(&mut inner, now);
        Ok((
            PlyOutcome::Done {
                room: input.room,
                from: input.from,
                plies,
                worker: worker_name,
            },
            sent,
        ))
    }

    /// Puts a job back at the front of the queue under a new id, or gives it up after its
    /// last try (returning its room). The new id makes whatever the last try's worker still
    /// sends stale, even when the job goes back to that same worker.
    fn give_back(inner: &mut Inner, mut job: Job, now: Instant) -> Option<String> {
        job.attempts += 1;
        if job.attempts >= MAX_ATTEMPTS {
            return Some(job.input.room);
        }
        inner.next_id += 1;
        job.id = format!("a{}", inner.next_id);
        job.queued = now;
        inner.waiting.push_front(job);
        None
    }

    /// Sends waiting jobs to idle workers.
    fn hand_out(&self, inner: &mut Inner, now: Instant) -> Vec<Assignment> {
        let mut sent = Vec::new();
        let Inner {
            workers, waiting, ..
        } = inner;
        for worker in workers.iter_mut().filter(|w| w.busy.is_none()) {
            let Some(job) = waiting.pop_front() else {
                break;
            };
            let plies = job.input.moves.len() as u32;
            worker
                .conn
                .send(&ServerMsg::Analyze(Box::new(job.input.job(&job.id))));
            sent.push(Assignment {
                job: job.id.clone(),
                attempt: job.attempts,
                // Bounded: `--review-ply-ms` is the operator's and may be huge.
                deadline: now
                    + JOB_BASE_TIME
                        .saturating_add(self.limits.ply_time.saturating_mul(plies))
                        .min(LONGEST_JOB),
            });
            worker.busy = Some(Busy {
                job,
                plies: Vec::new(),
            });
        }
        sent
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use game_core::protocol::{GameResult, ResultKind, RoomStatus};
    use game_core::{EndReason, GameSpec};
    use tokio::sync::{mpsc, Notify};

    use super::*;
    use crate::net::connection::Out;
    use crate::store::{StoredMove, StoredRoom, StoredRoomHead};

    fn finished(room: &str, moves: &[&str]) -> ReviewInput {
        let stored = StoredRoom {
            rating: None,
            head: StoredRoomHead {
                rated: false,
                id: room.to_string(),
                game: GameSpec::connect4(7, 6),
                clock: None,
                opening: Vec::new(),
                private: false,
                created_ms: 0,
                creator: None,
            },
            status: RoomStatus::Over,
            result: Some(GameResult {
                result: ResultKind::Black,
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
                        game_core::Color::Black
                    } else {
                        game_core::Color::White
                    },
                    black_ms: None,
                    white_ms: None,
                    at_ms: 0,
                    req_id: None,
                    seq: 0,
                })
                .collect(),
            fence: 0,
        };
        ReviewInput::from_room(&stored).expect("a finished game")
    }

    fn conn(id: u64) -> (Conn, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(16);
        (Conn::new(id, tx, Arc::new(Notify::new())), rx)
    }

    fn limits(max_waiting: usize) -> QueueLimits {
        QueueLimits {
            max_waiting,
            wait: Duration::from_secs(60),
            ply_time: Duration::from_secs(1),
        }
    }

    fn by(player: &str) -> Requester {
        Requester {
            player: player.to_string(),
            address: None,
        }
    }

    #[test]
    fn jobs_left_waiting_expire() {
        let queue = ReviewQueue::new(limits(10));
        let now = Instant::now();
        let home = Some(IpAddr::from([10, 0, 0, 1]));
        let guest = |player: &str| Requester {
            player: player.to_string(),
            address: home,
        };
        for (room, who) in [("r1", "p1"), ("r2", "p1"), ("r3", "p2"), ("r5", "p3")] {
            queue
                .request(finished(room, &["4"]), guest(who), now)
                .unwrap();
        }
        // Past the wait limit, the jobs nobody took are given up, the room told.
        let later = now + Duration::from_secs(59);
        queue
            .request(finished("r4", &["4"]), by("p5"), later)
            .unwrap();
        let mut expired = queue.expire_waiting(now + Duration::from_secs(60));
        expired.sort();
        assert_eq!(expired, ["r1", "r2", "r3", "r5"]);
        assert!(queue.is_pending("r4"));
        // Their requesters may ask again.
        queue
            .request(finished("r1", &["4"]), guest("p1"), later)
            .unwrap();
    }

    fn answer(ply: u32, best: &str) -> AnalysisPly {
        AnalysisPly {
            ply,
            eval: 0,
            proven: false,
            win_in: None,
            best: best.to_string(),
            pv: vec![best.to_string()],
        }
    }

    #[test]
    fn jobs_wait_for_workers_and_come_back_when_they_fail() {
        let queue = ReviewQueue::new(limits(2));
        let now = Instant::now();
        assert!(queue
            .request(finished("r1", &["4", "3"]), by("p1"), now)
            .unwrap()
            .is_empty());
        // Once a room: asking again while it is pending queues nothing.
        assert!(queue
            .request(finished("r1", &["4", "3"]), by("p2"), now)
            .unwrap()
            .is_empty());
        queue
            .request(finished("r2", &["4"]), by("p2"), now)
            .unwrap();
        let full = queue
            .request(finished("r3", &["4"]), by("p3"), now)
            .unwrap_err();
        assert_eq!(full, ReviewError::QueueFull(2));

        let (w1, _rx1) = conn(1);
        let sent = queue.add_worker(w1, "W1", now);
        assert_eq!(sent.len(), 1);
        assert_eq!(
            sent[0].deadline,
            now + JOB_BASE_TIME + Duration::from_secs(2)
        );
        let job = sent[0].job.clone();
        // A wrong answer: refused, the job back at the front, for the same worker.
        let (why, again, failed) = queue.answer(1, &job, &answer(0, "9"), now).unwrap_err();
        assert!(
            matches!(why, ReviewError::BadAnalysis { ply: 0, .. }),
            "{why:?}"
        );
        assert_eq!((again.len(), failed), (1, None));
        let retry = again[0].job.clone();
        assert_ne!(retry, job, "each try has an id of its own");
        // What the worker still sends for the first try is stale: it costs the new try nothing.
        let stale = queue.answer(1, &job, &answer(0, "4"), now).unwrap();
        assert!(matches!(stale.0, PlyOutcome::Stale));
        // Late: taken back at its deadline; the answers of the old try are ignored.
        let (again, failed) = queue.expire(&retry, again[0].attempt, again[0].deadline);
        assert_eq!((again.len(), failed.len()), (1, 0));
        for (old, attempt) in [(&job, 0), (&retry, 1)] {
            let (failed_again, _) = queue.expire(old, attempt, now);
            assert!(
                failed_again.is_empty(),
                "an old try's deadline changes nothing"
            );
        }
        // The third failure gives the job up.
        let (sent, failed) = queue.remove_worker(1, now);
        assert_eq!(failed, ["r1"]);
        assert!(sent.is_empty(), "no worker left");
        assert!(!queue.is_pending("r1"));
        assert!(queue.is_pending("r2"));

        let (w2, _rx2) = conn(2);
        let sent = queue.add_worker(w2, "W2", now);
        let job = sent[0].job.clone();
        let (done, _) = queue.answer(2, &job, &answer(0, "4"), now).unwrap();
        let PlyOutcome::Done {
            room,
            plies,
            worker,
            ..
        } = done
        else {
            panic!("one position: done");
        };
        assert_eq!(
            (room.as_str(), worker.as_str(), plies.len()),
            ("r2", "W2", 1)
        );
        let stale = queue.answer(2, &job, &answer(1, "4"), now).unwrap();
        assert!(matches!(stale.0, PlyOutcome::Stale));
        let (why, _, _) = queue.answer(7, &job, &answer(0, "4"), now).unwrap_err();
        assert_eq!(why, ReviewError::NotAWorker);
    }
}
