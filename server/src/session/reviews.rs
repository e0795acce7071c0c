//! Reviews as a session sees them: a member's `review` request (the stored review, or a job
//! queued for an analysis worker), a worker's `analysis` answers, and telling the room how its
//! review stands. The rules of it are in `crate::review`. In a cluster, a review asked on a
//! node without a worker is queued on a node with one (the store and the rooms are the
//! hall's: its answers reach the room wherever it is).

use std::time::{SystemTime, UNIX_EPOCH};

use tokio::time::Instant;

use game_core::protocol::{AnalysisPly, Review, ReviewStatus, ServerMsg};

use crate::cluster::BusMsg;
use crate::hub::{ReviewAsked, SharedHub};
use crate::net::connection::Conn;
use crate::refusal::{error_reply, About};
use crate::review::{Assignment, PlyOutcome, Requester, ReviewError, ReviewInput};
use crate::room::error::RoomError;
use crate::room::handle::RoomCmd;
use crate::room::member::MemberLink;
use crate::room::open_rooms::{Makers, NotOpened, OpenLimits};
use crate::room::relay;
use crate::store::Write;

fn review_msg(room: &str, status: ReviewStatus, message: Option<String>) -> ServerMsg {
    ServerMsg::Review {
        room: room.to_string(),
        status,
        message,
        review: None,
    }
}

/// Tells every member of `room` (reloading a room that left memory), and `requester` if it
/// is not one (a connection of another node is taken for one: it asked from the room).
async fn tell_room(hub: &SharedHub, room: &str, msg: ServerMsg, requester: Option<&MemberLink>) {
    if let Some(MemberLink::Local(conn)) = requester {
        if !conn.is_in(room) {
            conn.send(&msg);
        }
    }
    let _ = relay::to_room(hub, room, RoomCmd::Notify(Box::new(msg))).await;
}

/// Starts a deadline watch for each job sent to a worker.
pub fn watch(hub: &SharedHub, sent: Vec<Assignment>) {
    for a in sent {
        let hub = hub.clone();
        tokio::spawn(async move {
            tokio::time::sleep_until(a.deadline).await;
            let (sent, failed) = hub.reviews().expire(&a.job, a.attempt, Instant::now());
            watch(&hub, sent);
            for room in failed {
                gave_up(&hub, &room).await;
            }
        });
    }
}

/// The unit under which the hall counts the review of `room` for its requester.
fn review_unit(room: &str) -> String {
    format!("review:{room}")
}

/// The review of `room` is done, given up or expired: it no longer counts for its requester.
async fn ended(hub: &SharedHub, room: &str) {
    hub.review_counts().closed(&review_unit(room)).await;
}

async fn gave_up(hub: &SharedHub, room: &str) {
    ended(hub, room).await;
    let why = "the analysis workers could not review this game; ask again to retry";
    let msg = review_msg(room, ReviewStatus::Failed, Some(why.to_string()));
    tell_room(hub, room, msg, None).await;
}

/// Gives up the jobs that waited for a worker past the limit, telling their rooms.
pub async fn expire_waiting(hub: &SharedHub) {
    for room in hub.reviews().expire_waiting(Instant::now()) {
        ended(hub, &room).await;
        let why = format!(
            "no analysis worker took this review within {} s; ask again later",
            hub.reviews().wait_limit().as_secs()
        );
        tracing::info!(room, "a review waited too long for a worker");
        let msg = review_msg(&room, ReviewStatus::Failed, Some(why));
        tell_room(hub, &room, msg, None).await;
    }
}

/// Looks for jobs left waiting once the wait limit of one queued now has passed.
fn expire_later(hub: &SharedHub) {
    let hub = hub.clone();
    tokio::spawn(async move {
        tokio::time::sleep(hub.reviews().wait_limit()).await;
        expire_waiting(&hub).await;
    });
}

/// `review`: the stored review, or where it stands; with `ask`, a job for the queue.
pub async fn request(
    hub: &SharedHub,
    conn: &MemberLink,
    requester: Requester,
    room: &str,
    ask: bool,
    reference: &str,
) {
    let refuse = |why: &dyn crate::refusal::Refusal| {
        conn.send(&error_reply(
            hub.metrics(),
            why,
            About::room(reference, room),
        ));
    };
    match hub.store().read_review(room).await {
        Ok(Some(review)) => {
            conn.send(&ServerMsg::Review {
                room: room.to_string(),
                status: ReviewStatus::Done,
                message: None,
                review: Some(Box::new(review)),
            });
            return;
        }
        Ok(None) => {}
        Err(e) => {
            tracing::warn!(room, error = %e, "reading a review failed");
            return refuse(&ReviewError::NotStored);
        }
    }
    if hub.reviews().is_pending(room) {
        conn.send(&review_msg(room, ReviewStatus::Pending, None));
        return;
    }
    if !ask {
        conn.send(&review_msg(room, ReviewStatus::None, None));
        return;
    }
    if hub.reviews().workers() == 0 && ask_elsewhere(hub, conn, &requester, room) {
        return;
    }
    let stored = match hub.store().read_room(room).await {
        Ok(Some(stored)) => stored,
        Ok(None) | Err(_) => return refuse(&RoomError::NoSuchRoom(room.to_string())),
    };
    let input = match ReviewInput::from_room(&stored) {
        Ok(input) => input,
        Err(why) => return refuse(&why),
    };
    // The hall's count first: a requester whose reviews wait on several nodes has its limit
    // once. A review of this room counted already (handed over from a node without workers)
    // counts once.
    let unit = review_unit(room);
    let makers = Makers {
        player: Some(requester.player.clone()),
        address: requester.address,
    };
    let limits = OpenLimits {
        per_player: hub.config().limits.review_per_player,
        per_address: hub.config().limits.review_per_address,
    };
    if let Err(e) = hub.review_counts().open(&unit, &makers, limits).await {
        return refuse(&match e {
            NotOpened::Player(n) => ReviewError::TooManyOfYours(n),
            NotOpened::Address(n) => ReviewError::TooManyFromAddress(n),
            NotOpened::Unavailable => ReviewError::Uncounted,
        });
    }
    match hub.reviews().request(input, requester, Instant::now()) {
        Ok(sent) => {
            watch(hub, sent);
            expire_later(hub);
        }
        Err(why) => {
            hub.review_counts().closed(&unit).await;
            return refuse(&why);
        }
    }
    let message = (hub.reviews().workers() == 0)
        .then(|| "no analysis worker is connected; the review starts when one is".to_string());
    tell_room(
        hub,
        room,
        review_msg(room, ReviewStatus::Pending, message),
        Some(conn),
    )
    .await;
}

/// Passes a review this node has no worker for to another node that has one (only in a
/// cluster); false when there is none (or the bus does not take it): it waits here for a
/// worker.
fn ask_elsewhere(hub: &SharedHub, conn: &MemberLink, requester: &Requester, room: &str) -> bool {
    let MemberLink::Local(local) = conn else {
        return false;
    };
    let coord = hub.coord();
    let Some(node) = coord.node_with_workers() else {
        return false;
    };
    tracing::debug!(room, node, "review passed to a node with analysis workers");
    coord.send(
        &node,
        &BusMsg::Review {
            room: room.to_string(),
            node: coord.node().to_string(),
            conn: local.id,
            player: requester.player.clone(),
            address: requester.address,
        },
    )
}

/// Queues the reviews other nodes ask this node's workers for, until the server stops.
pub async fn serve_asked(hub: SharedHub, mut asked: tokio::sync::mpsc::Receiver<ReviewAsked>) {
    while let Some(a) = asked.recv().await {
        let requester = Requester {
            player: a.player,
            address: a.address,
        };
        request(&hub, &a.link, requester, &a.room, true, "review").await;
    }
}

/// Tells the other nodes how many workers this node has now.
fn workers_changed(hub: &SharedHub) {
    let count = u32::try_from(hub.reviews().workers()).unwrap_or(u32::MAX);
    hub.coord().workers_here(count);
}

/// A worker connected (after its `welcome`).
pub fn worker_joined(hub: &SharedHub, conn: &Conn, name: &str) {
    let sent = hub.reviews().add_worker(conn.clone(), name, Instant::now());
    watch(hub, sent);
    workers_changed(hub);
    super::hall_puzzles::hand_out(hub);
}

/// A worker's connection closed.
pub async fn worker_left(hub: &SharedHub, conn_id: u64) {
    let (sent, failed) = hub.reviews().remove_worker(conn_id, Instant::now());
    watch(hub, sent);
    workers_changed(hub);
    for room in failed {
        gave_up(hub, &room).await;
    }
    hand_over_waiting(hub).await;
}

/// When this node has no worker and another has some (only in a cluster), the reviews waiting here
/// go there, as one asked here now would (its last worker left, or another node's worker
/// came). Nobody's connection here waits for the answer: the room hears it, wherever it is.
/// One the bus does not take is given up, with a message to its room.
pub async fn hand_over_waiting(hub: &SharedHub) {
    let coord = hub.coord();
    if hub.reviews().workers() > 0 {
        return;
    }
    let Some(node) = coord.node_with_workers() else {
        return;
    };
    for (room, requester) in hub.reviews().take_waiting() {
        tracing::info!(
            room,
            node,
            "a waiting review passed to a node with analysis workers"
        );
        let sent = coord.send(
            &node,
            &BusMsg::Review {
                room: room.clone(),
                node: coord.node().to_string(),
                conn: 0,
                player: requester.player,
                address: requester.address,
            },
        );
        if !sent {
            gave_up(hub, &room).await;
        }
    }
}

/// `analysis` from a worker: kept, refused, or the last one, which stores the review and
/// sends it to the room.
pub async fn answer(hub: &SharedHub, conn: &Conn, job: &str, ply: &AnalysisPly, reference: &str) {
    match hub.reviews().answer(conn.id, job, ply, Instant::now()) {
        Ok((outcome, sent)) => {
            watch(hub, sent);
            if let PlyOutcome::Done {
                room,
                from,
                plies,
                worker,
            } = outcome
            {
                finish(hub, &room, from, plies, worker).await;
            }
        }
        Err((why, sent, failed)) => {
            tracing::warn!(job, error = %why, "analysis refused");
            let about = About {
                reference: Some(reference),
                ..About::default()
            };
            conn.send(&error_reply(hub.metrics(), &why, about));
            watch(hub, sent);
            if let Some(room) = failed {
                gave_up(hub, &room).await;
            }
        }
    }
}

async fn finish(
    hub: &SharedHub,
    room: &str,
    from: u32,
    plies: Vec<game_core::protocol::ReviewPly>,
    worker: String,
) {
    let made_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let review = Review {
        from,
        plies,
        by: worker,
        made_ms,
    };
    let write = Write::Review {
        room: room.to_string(),
        review: Box::new(review.clone()),
    };
    ended(hub, room).await;
    let msg = match hub.store().write(write).await {
        Ok(()) => {
            super::hall_puzzles::reviewed(hub, room, &review).await;
            ServerMsg::Review {
                room: room.to_string(),
                status: ReviewStatus::Done,
                message: None,
                review: Some(Box::new(review)),
            }
        }
        Err(e) => {
            tracing::warn!(room, error = %e, "storing a review failed");
            review_msg(
                room,
                ReviewStatus::Failed,
                Some(ReviewError::NotStored.to_string()),
            )
        }
    };
    tell_room(hub, room, msg, None).await;
}
