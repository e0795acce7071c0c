//! A room whose lease may be lost hands over: another node owns it now, or this node cannot
//! be sure it does not (it was paused, or Redis or the store out of its reach, past the
//! margin of its lease). The copy here stops at once, answering nothing more from its game,
//! which may be behind the owner's; what is queued for it goes on to wherever the room is
//! now, and this node's members of it join it again there.

use tokio::sync::mpsc;

use super::actor::RoomActor;
use crate::room::handle::RoomCmd;

impl RoomActor {
    /// Whether this copy may answer: while this node surely holds the room's lease under its
    /// fence (`Coordination::holds`; alone, always). A room reloaded at a lone node's start
    /// holds none, and nobody else may take it.
    pub(super) fn sure_of_lease(&self) -> bool {
        self.lease
            .as_ref()
            .is_none_or(|lease| self.hub.coord().holds(self.game.id(), lease.fence))
    }

    /// Stops this copy of the room: it leaves the hub, what is queued for it (and `first`,
    /// taken from the queue already) goes to the room wherever it is now — but for the
    /// players' requests, answered "try again" — and this node's members join it again there.
    /// The caller ends the task, which gives the lease back if it is still this node's.
    pub(super) async fn hand_over(
        &mut self,
        rx: &mut mpsc::Receiver<RoomCmd>,
        first: Option<RoomCmd>,
    ) {
        tracing::warn!(room = %self.game.id(), "the lease may be lost; the room stops here");
        self.leave_hub();
        // The lease is given back now, before the members join again: a claim of the room on
        // this node (nobody else took it: Redis was out of reach a moment) then takes a fresh
        // fence rather than finding its own old lease.
        super::actor::release(&self.hub, self.game.id(), self.lease.take().as_ref());
        // This node's connections in the room join it again at its owner. The new owner's
        // "moved" word does not do it when it arrives before the loss is found (Redis lost
        // its data, say): it re-joins them to this copy, which is in memory still, and they
        // would hear no more moves.
        super::relay::rejoin(&self.hub, self.game.id().to_string());
        rx.close();
        let mut queued = Vec::new();
        let mut next = first;
        loop {
            let cmd = match next.take() {
                Some(cmd) => cmd,
                None => match rx.recv().await {
                    Some(cmd) => cmd,
                    None => break,
                },
            };
            match cmd {
                // Made against this copy, which may be behind the owner's game: sent on, a
                // move could be played turns later than it was made for. Its sender hears
                // "try again" and decides afresh.
                RoomCmd::Act {
                    who,
                    action,
                    reference,
                    ..
                } => self.try_again(&who, &action, reference),
                cmd => queued.push(cmd),
            }
        }
        let (hub, id) = (self.hub.clone(), self.game.id().to_string());
        tokio::spawn(async move {
            for cmd in queued {
                let _ = super::relay::to_room(&hub, &id, cmd).await;
            }
        });
    }
}
