//! Puzzles from the hall's games as the sessions see them (docs/protocol.md "Puzzles from the
//! hall's games"): a stored review's missed wins queued as candidates, handed to the workers
//! as `prove_puzzle`, a worker's `puzzle_proof` checked by the rules and stored, and the hall's
//! puzzles read back from the store by every node. The queue's rules are in
//! `crate::puzzles::hall`.

use game_core::protocol::{ErrorCode, ServerMsg};
use game_core::puzzle::{hall_id, Puzzle};
use game_core::review::Review;
use thiserror::Error;
use tokio::time::Instant;

use crate::hub::SharedHub;
use crate::net::connection::Conn;
use crate::puzzles::hall::{candidates, Candidate};
use crate::refusal::{error_reply, About, Refusal};
use crate::store::Write;

/// A refused `puzzle_proof`.
#[derive(Debug, Error)]
enum ProofRefusal {
    #[error("only an analysis worker sends puzzle proofs")]
    NotAWorker,
    #[error("the puzzle is not of the position asked: {0}")]
    OtherPosition(&'static str),
    #[error("the puzzle does not stand: {0}")]
    Unsound(String),
}

impl Refusal for ProofRefusal {
    fn code(&self) -> ErrorCode {
        match self {
            ProofRefusal::NotAWorker => ErrorCode::NotAPlayer,
            ProofRefusal::OtherPosition(_) | ProofRefusal::Unsound(_) => ErrorCode::IllegalMove,
        }
    }
}

/// A review of `room` was stored: its missed wins not known as puzzles become candidates.
pub async fn reviewed(hub: &SharedHub, room: &str, review: &Review) {
    let stored = match hub.store().read_room(room).await {
        Ok(Some(stored)) => stored,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(room, error = %e, "reading a reviewed room for puzzles failed");
            return;
        }
    };
    for c in candidates(&stored, review) {
        if hub.puzzles().knows(&c.key) {
            continue;
        }
        if !hub.hall_proofs().offer(c) {
            hub.metrics().puzzle_candidate("dropped");
        }
    }
    hand_out(hub);
}

/// Gives waiting candidates to the workers that prove none now.
pub fn hand_out(hub: &SharedHub) {
    let workers = hub.reviews().worker_list();
    for (worker, job) in hub.hall_proofs().assign(&workers, Instant::now()) {
        worker.send(&ServerMsg::ProvePuzzle(Box::new(job)));
    }
}

/// A worker left: its candidate goes to another.
pub fn worker_left(hub: &SharedHub, conn_id: u64) {
    hub.hall_proofs().take_back(Some(conn_id), Instant::now());
    hand_out(hub);
}

/// The periodic sweep: late proofs given to other workers, and the hall's puzzles other nodes
/// stored read in.
pub async fn sweep(hub: &SharedHub) {
    hub.hall_proofs().take_back(None, Instant::now());
    hand_out(hub);
    refresh(hub).await;
}

/// Reads the hall's puzzles stored since the last read (by any node) into this node's set.
pub async fn refresh(hub: &SharedHub) {
    match hub
        .store()
        .hall_puzzles_since(hub.puzzles().read_from_ms())
        .await
    {
        Ok(rows) => {
            hub.puzzles().add(rows);
        }
        Err(e) => tracing::warn!(error = %e, "reading the hall's puzzles failed"),
    }
}

/// The puzzle a worker made of `c`, checked: the same position, and sound by the rules.
fn checked(c: &Candidate, mut p: Puzzle) -> Result<Puzzle, ProofRefusal> {
    if p.variant != c.variant {
        return Err(ProofRefusal::OtherPosition("another variant"));
    }
    if p.game != c.game || p.moves != c.moves {
        return Err(ProofRefusal::OtherPosition("other moves"));
    }
    p.check().map_err(ProofRefusal::Unsound)?;
    p.id = hall_id(&c.variant, &c.key);
    p.source = Some(c.source.clone());
    Ok(p)
}

/// A worker's `puzzle_proof`: checked, stored and served; a wrong one refused.
pub async fn proof(
    hub: &SharedHub,
    conn: &Conn,
    job: &str,
    puzzle: Option<Box<Puzzle>>,
    reason: Option<&str>,
    about: About<'_>,
) {
    if !hub.reviews().is_worker(conn.id) {
        conn.send(&error_reply(
            hub.metrics(),
            &ProofRefusal::NotAWorker,
            about,
        ));
        return;
    }
    // A job taken back from this worker (it was late) is answered by another.
    let Some(candidate) = hub.hall_proofs().answered(conn.id, job) else {
        return;
    };
    hand_out(hub);
    let Some(puzzle) = puzzle else {
        tracing::debug!(job, reason, "no puzzle in a missed win");
        hub.metrics().puzzle_candidate("none");
        return;
    };
    let puzzle = match checked(&candidate, *puzzle) {
        Ok(p) => p,
        Err(why) => {
            tracing::warn!(job, error = %why, "a puzzle proof refused");
            hub.metrics().puzzle_candidate("refused");
            conn.send(&error_reply(hub.metrics(), &why, about));
            return;
        }
    };
    let id = puzzle.id.clone();
    match hub.store().write(Write::HallPuzzle(Box::new(puzzle))).await {
        Ok(()) => {
            tracing::info!(id, room = %candidate.source.room, "a puzzle made from a hall game");
            hub.metrics().puzzle_candidate("made");
            refresh(hub).await;
        }
        Err(e) => tracing::warn!(id, error = %e, "storing a hall puzzle failed"),
    }
}
