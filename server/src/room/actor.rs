//! The task of one room, the room's only writer. It owns the room's queue and timers, asks the
//! rules ([`RoomGame`]) what each request changes, stores the change, and only once it is
//! stored commits it and tells the members. Around the rules it keeps who is present, the chat
//! limits, the bot invitations and the lobby's summary of the room. Here: the loop, retiring,
//! seats and presence; its timers in `timers.rs`, rooms are made in `registry.rs`, the players' requests carried
//! out in `requests.rs`, and a room whose lease may be lost hands over in `handover.rs`.

use std::sync::atomic::Ordering;

use game_core::protocol::RoomStatus;
use game_core::Color;
use tokio::sync::mpsc;
use tokio::time::{sleep_until, Duration, Instant};

use super::change::{Change, Event, Moment};
use super::chat::ChatGate;
use super::error::RoomError;
use super::game::RoomGame;
use super::invites::Invitations;
use super::members::Members;
use crate::cluster::Lease;
use crate::hub::SharedHub;
use crate::lobby::feed::RoomSummary;
use crate::refusal::{error_reply, About};
use crate::room::handle::{Actor, RoomCmd, RoomHandle};
use crate::room::member::MemberLink;
use crate::room::parked::ParkedMember;
use crate::store::{StoreError, StoredSeat, Write};

/// How long a timed ending (flag fall, abandonment) whose write failed waits for its next try.
const ENDING_RETRY: Duration = Duration::from_secs(1);

/// What a room's task starts from (see `registry::spawn_room`).
pub(super) struct Task {
    pub(super) handle: RoomHandle,
    pub(super) game: RoomGame,
    pub(super) members: Members,
    pub(super) waiting_until: Option<Instant>,
    pub(super) quiet_since: Option<Instant>,
    pub(super) lease: Option<Lease>,
}

/// The state of a room's task; its requests are handled in `requests.rs`.
pub(super) struct RoomActor {
    pub(super) hub: SharedHub,
    /// This task's own handle, to leave the hub only if it is still the registered one.
    pub(super) handle: RoomHandle,
    pub(super) game: RoomGame,
    pub(super) members: Members,
    pub(super) invites: Invitations,
    pub(super) chat: ChatGate,
    pub(super) crowd_due: Option<Instant>,
    /// After a failed write of a timed ending, endings wait until then to try again.
    pub(super) retry_endings_at: Option<Instant>,
    /// While the room waits for its players: when it closes if nobody has started it.
    pub(super) waiting_until: Option<Instant>,
    /// Once the game is over: since when nothing has happened in the room.
    pub(super) quiet_since: Option<Instant>,
    /// In a cluster: this node's lease of the room, whose fence every write carries.
    pub(super) lease: Option<Lease>,
    /// In a cluster: the summary last shared with the other nodes' lobbies, and when.
    shared: std::cell::RefCell<Option<RoomSummary>>,
    shared_at: std::cell::Cell<Option<Instant>>,
}

/// Gives a room's lease back, if it has one.
pub(super) fn release(hub: &SharedHub, id: &str, lease: Option<&Lease>) {
    if let Some(lease) = lease {
        hub.coord().release(id, lease.fence);
    }
}

impl RoomActor {
    /// Starts the task of a room registered in the hub.
    pub(super) fn start(hub: &SharedHub, task: Task, rx: mpsc::Receiver<RoomCmd>) {
        let actor = RoomActor {
            hub: hub.clone(),
            handle: task.handle,
            game: task.game,
            members: task.members,
            invites: Invitations::default(),
            chat: ChatGate::default(),
            crowd_due: None,
            retry_endings_at: None,
            waiting_until: task.waiting_until,
            quiet_since: task.quiet_since,
            lease: task.lease,
            shared: std::cell::RefCell::default(),
            shared_at: std::cell::Cell::default(),
        };
        tokio::spawn(actor.run(rx));
    }

    /// Serves the room's queue and timers until shutdown, or until the game is over and
    /// nobody is left to watch it or nothing has happened in it for a while.
    async fn run(mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        if let Some(change) = self.game.start_if_full(Moment::now()) {
            self.store_and_commit(change, None).await;
        }
        // Reloaded while waiting, nobody is in it yet: it waits a grace period for them.
        self.members.note_attendance(&self.game, Instant::now());
        self.publish();
        let mut shutdown = self.hub.shutdown().clone();
        let lost = self.lease.as_ref().map(|l| l.lost.clone());
        'serve: loop {
            let deadline = self.next_deadline();
            tokio::select! {
                () = async {
                    match &lost {
                        Some(lost) => lost.notified().await,
                        None => std::future::pending().await,
                    }
                } => {
                    self.hand_over(&mut rx, None).await;
                    break;
                }
                cmd = rx.recv() => match cmd {
                    // Nothing is answered, reads included, unless this node surely still
                    // holds the room: after a pause the queue may hold requests that another
                    // node's copy has answered since, from a game that went on there.
                    Some(cmd) if self.sure_of_lease() => {
                        self.handle(cmd).await;
                        if self.game.status() == RoomStatus::Waiting {
                            self.members.note_attendance(&self.game, Instant::now());
                        }
                    }
                    Some(cmd) => {
                        self.hand_over(&mut rx, Some(cmd)).await;
                        break;
                    }
                    None => break,
                },
                () = async {
                    match deadline {
                        Some(d) => sleep_until(d).await,
                        None => std::future::pending().await,
                    }
                } => {
                    if self.sure_of_lease() {
                        self.on_timer().await;
                    } else {
                        self.hand_over(&mut rx, None).await;
                        break;
                    }
                }
                _ = shutdown.changed() => break,
            }
            while self.may_retire() {
                // Finished, and unwatched or quiet: the store has it, a later request reloads
                // it, and members still connected are parked for that reload.
                match self.retire(rx).await {
                    Some(fresh) => rx = fresh,
                    None => break 'serve,
                }
            }
        }
        self.leave_hub();
        release(&self.hub, self.game.id(), self.lease.as_ref());
        self.handle.unfinished.store(false, Ordering::Relaxed);
        self.hub
            .metrics()
            .room_status(Some(self.game.status()), None);
        self.hub.lobby().gone(self.game.id());
        self.hub
            .coord()
            .send_everyone(&crate::cluster::BusMsg::LobbyGone {
                node: self.hub.coord().node().to_string(),
                room: self.game.id().to_string(),
            });
    }

    /// Whether the game is over and nobody watches, or nothing has happened for a while.
    fn may_retire(&self) -> bool {
        if self.game.status() != RoomStatus::Over {
            return false;
        }
        let idle = self.hub.config().limits.finished_room_idle;
        self.members.is_empty() || self.quiet_since.is_some_and(|t| t + idle <= Instant::now())
    }

    /// Unregisters this task, unless another has taken the room's place.
    pub(super) fn leave_hub(&self) {
        self.hub.unregister_room(self.game.id(), &self.handle.tx);
    }

    /// Leaves the hub without dropping a request that is already queued: the queue is closed
    /// and drained, and if anything was in it the room registers again with a fresh queue
    /// (or hands the requests to a task that reloaded the room meanwhile) and answers them.
    /// Returns the fresh queue to go on with, or `None` to stop.
    async fn retire(&mut self, mut rx: mpsc::Receiver<RoomCmd>) -> Option<mpsc::Receiver<RoomCmd>> {
        // Parked before the room leaves the hub, so that a reload that follows finds them.
        let parked = self
            .members
            .links()
            .map(|(link, player)| ParkedMember {
                link: link.clone(),
                player: player.to_string(),
            })
            .collect();
        self.hub.parked().park(self.game.id(), parked);
        self.leave_hub();
        rx.close();
        let mut queued = Vec::new();
        while let Some(cmd) = rx.recv().await {
            queued.push(cmd);
        }
        if queued.is_empty() {
            return None;
        }
        let (tx, fresh) = mpsc::channel(self.hub.config().limits.room_queue);
        let handle = RoomHandle {
            tx,
            ..self.handle.clone()
        };
        let successor = self.hub.register_room(&handle);
        match successor {
            None => {
                // Still here with the same members: nobody is parked.
                let _ = self.hub.parked().take(self.game.id());
                self.handle = handle;
                for cmd in queued {
                    self.handle(cmd).await;
                }
                Some(fresh)
            }
            Some(successor) => {
                for cmd in queued {
                    let _ = successor.tx.send(cmd).await;
                }
                None
            }
        }
    }

    // ---- storing, committing, telling ----------------------------------------------------------

    /// The fence this room's writes carry (0 on one node: unchecked).
    pub(super) fn fence(&self) -> u64 {
        self.lease.as_ref().map_or(0, |l| l.fence)
    }

    /// Whether this node may still write for the room: while its leases are surely its own
    /// (alone always; in a cluster, Redis answered lately).
    pub(super) fn may_write(&self) -> bool {
        self.hub.coord().leases_fresh()
    }

    /// Stores a change's record; false (logged) when the write failed.
    async fn store(&mut self, change: &Change) -> bool {
        if !self.may_write() {
            tracing::warn!(room = %self.game.id(), "Redis out of reach: the room refuses writes");
            return false;
        }
        let mut record = change.record().clone();
        record.fence = self.fence();
        match self.hub.store().write(Write::Room(record)).await {
            Ok(()) => true,
            Err(e) => {
                if matches!(e, StoreError::Fenced { .. }) {
                    self.fenced();
                }
                tracing::error!(room = %self.game.id(), error = %e, "store write failed");
                false
            }
        }
    }

    /// The store holds a newer fence: another node owns the room. This task stops at its next
    /// turn of the loop, writing and telling nothing more.
    pub(super) fn fenced(&mut self) {
        if let Some(lease) = &self.lease {
            lease.lost.notify_one();
        }
    }

    /// Commits a stored change and tells the room; `mover` hears its own move with its id.
    pub(super) fn commit(&mut self, change: Change, mover: Option<&MemberLink>) {
        let before = self.game.status();
        let lobby = change.moves_the_lobby();
        let events = self.game.commit(change);
        self.status_changed(before);
        let blocks = self.hub.blocks();
        for event in events {
            match event {
                Event::All(msg) => match chat_sender(&msg) {
                    Some(from) => self
                        .members
                        .send_chat(&msg, None, |member| !blocks.has_blocked(member, from)),
                    None => self.members.send_all(&msg),
                },
                Event::Moved { plain, mine } => {
                    self.members.send_move(&plain, mine.as_ref().zip(mover))
                }
                Event::Spectators(msg) => match chat_sender(&msg) {
                    Some(from) => self.members.send_chat(&msg, Some(&self.game), |member| {
                        !blocks.has_blocked(member, from)
                    }),
                    None => self.members.send_spectators(&msg, &self.game),
                },
                Event::States => self.members.send_states(&self.game, Instant::now()),
                Event::SeatsSwapped => self.members.swap_seats(),
            }
        }
        if lobby {
            self.publish();
        }
    }

    /// Stores a change and, once stored, commits it. False when the write failed: nothing
    /// changed and nothing was told.
    async fn store_and_commit(&mut self, change: Change, mover: Option<&MemberLink>) -> bool {
        if !self.store(&change).await {
            return false;
        }
        let ended = self.game.status() != RoomStatus::Over
            && change
                .record()
                .status
                .as_ref()
                .is_some_and(|(s, _)| *s == RoomStatus::Over);
        self.commit(change, mover);
        if ended && self.game.head().rated {
            self.announce_rating().await;
        }
        true
    }

    /// Tells the room what its end did to the ratings: the store settled it with the end
    /// (see `store::sqlite::accounts`); a room over without a result has none to tell.
    async fn announce_rating(&mut self) {
        match self.hub.store().read_room(self.game.id()).await {
            Ok(Some(stored)) => {
                if let Some(outcome) = stored.rating {
                    let msg = self.game.rated(outcome);
                    self.members.send_all(&msg);
                }
            }
            Ok(None) => {}
            Err(e) => {
                tracing::error!(room = %self.game.id(), error = %e, "reading the rating failed");
            }
        }
    }

    /// Stores and commits what a request changes; `what` names it if the write fails.
    pub(super) async fn carry_out(
        &mut self,
        change: Change,
        mover: Option<&MemberLink>,
        what: &'static str,
    ) -> Result<(), RoomError> {
        if self.store_and_commit(change, mover).await {
            Ok(())
        } else {
            Err(RoomError::NotStored(what))
        }
    }

    /// Carries out what the rules answered a request: a change is stored and committed, a
    /// refusal handed back.
    pub(super) async fn settle(
        &mut self,
        proposal: Result<Change, RoomError>,
        what: &'static str,
    ) -> Result<(), RoomError> {
        self.carry_out(proposal?, None, what).await
    }

    /// An ending decided by a timer. If it cannot be stored, nothing is announced and the
    /// timer tries again a little later.
    pub(super) async fn timed_ending(&mut self, change: Change) {
        if !self.store_and_commit(change, None).await {
            self.retry_endings_at = Some(Instant::now() + ENDING_RETRY);
        }
    }

    /// What follows a new status: presence, counters, bots.
    fn status_changed(&mut self, before: RoomStatus) {
        let after = self.game.status();
        if before == after {
            return;
        }
        self.hub.metrics().room_status(Some(before), Some(after));
        self.waiting_until = None;
        match after {
            RoomStatus::Playing => {
                let now = Instant::now();
                let online = self.members.seats_online(&self.game);
                for seat in [Color::Black, Color::White] {
                    if !online[seat.index()] {
                        self.members.away(seat, now);
                    }
                }
            }
            RoomStatus::Over => {
                self.quiet_since = Some(Instant::now());
                self.handle.unfinished.store(false, Ordering::Relaxed);
                self.hub.open_rooms().closed_soon(self.game.id());
                self.members.clear_away();
                self.invites.withdraw_all(&self.hub, self.game.id());
                for seat in [Color::Black, Color::White] {
                    if let Some(s) = self.game.seat(seat).filter(|s| s.bot) {
                        self.hub.bots().release(&s.player);
                    }
                }
            }
            RoomStatus::Waiting => {}
        }
    }

    /// The one answer to a refused request.
    pub(super) fn refuse(
        &self,
        to: &MemberLink,
        reference: &str,
        id: Option<&str>,
        why: &RoomError,
    ) {
        let about = About::room(reference, self.game.id()).with_id(id);
        to.send(&error_reply(self.hub.metrics(), why, about));
    }

    fn summary(&self) -> RoomSummary {
        let head = self.game.head();
        RoomSummary {
            room: head.id.clone(),
            game: head.game.clone(),
            clock: head.clock,
            seats: self.game.seat_infos(self.members.seats_online(&self.game)),
            status: self.game.status(),
            private: head.private,
            spectators: self.members.spectators(&self.game),
            ply: self.game.ply() as u32,
            created: head.created_ms,
            reserved: self.invites.reserved(),
            board: self.game.position().board_text(),
            last: self.game.last_stone(),
        }
    }

    pub(super) fn publish(&self) {
        let summary = self.summary();
        // Every node's lobby lists the room. A change that is only a move is shared at most
        // once a lobby board interval: the lobbies redraw small boards no faster.
        if !self.hub.coord().shares_lobby() {
            self.hub.lobby().room(summary);
            return;
        }
        let now = Instant::now();
        let due = self
            .shared_at
            .get()
            .is_none_or(|t| now >= t + self.hub.config().lobby_board_interval);
        if due
            || !self
                .shared
                .borrow()
                .as_ref()
                .is_some_and(|s| s.only_moved(&summary))
        {
            self.shared_at.set(Some(now));
            *self.shared.borrow_mut() = Some(summary.clone());
            self.hub
                .coord()
                .send_everyone(&crate::cluster::BusMsg::LobbyRoom {
                    node: self.hub.coord().node().to_string(),
                    summary: Box::new(summary.clone()),
                });
        }
        self.hub.lobby().room(summary);
    }

    pub(super) fn crowd_changed(&mut self) {
        if self.crowd_due.is_none() {
            self.crowd_due = Some(Instant::now() + self.hub.config().crowd_interval);
        }
    }

    // ---- commands ----------------------------------------------------------------------------------

    async fn handle(&mut self, cmd: RoomCmd) {
        if self.quiet_since.is_some() {
            self.quiet_since = Some(Instant::now());
        }
        if self.game.tournament().is_none() {
            // A tournament's game: its players are told which, while the room lasts.
            if let Some(id) = self.hub.tournaments().tournament_of(self.game.id()) {
                self.game.note_tournament(id);
            }
        }
        // Every frame this copy of the room sends says so: should another node take the room
        // over, the members' nodes drop what this copy still sends.
        match cmd.of_room(self.game.id(), self.fence()) {
            RoomCmd::Join { who, as_player } => self.join(who, as_player).await,
            RoomCmd::Leave { who } => self.leave(who).await,
            RoomCmd::Gone { conn_id } => self.gone(conn_id),
            RoomCmd::Act {
                who,
                action,
                reference,
                received,
            } => self.act(who, action, reference, received).await,
            RoomCmd::Decline { bot } => {
                if let Some(seat) = self.invites.seat_of(&bot) {
                    self.invites.failed(&self.hub, &self.game, seat);
                    self.publish();
                }
            }
            RoomCmd::InviteSeat {
                seat,
                level,
                prefer,
                requester,
            } => {
                let free = self.game.status() == RoomStatus::Waiting
                    && self.game.seat(seat).is_none()
                    && !self.invites.reserved()[seat.index()];
                if free {
                    if let Some(bot) = prefer {
                        self.invites.prefer(seat, bot);
                    }
                    self.invites
                        .ask(&self.hub, &self.game, seat, level, requester);
                    self.publish();
                }
            }
            RoomCmd::Notify(msg) => self.members.send_all(&msg),
            RoomCmd::Prune => self.prune_closed(),
            RoomCmd::ClockAdvanced { ms } => self.game.charge_clock(ms),
        }
    }

    /// Drops members whose connection closed without a `Gone` reaching the room.
    pub(super) fn prune_closed(&mut self) {
        for conn_id in self.members.closed() {
            self.gone(conn_id);
        }
    }

    async fn join(&mut self, who: Actor, as_player: bool) {
        self.prune_closed();
        let player = who.player.id.clone();
        // Its blocks hide chat from it here, whichever node it is on.
        if who.player.account {
            crate::moderation::blocks::ensure(&self.hub, &player).await;
        }
        let seated = self.game.seat_of(&player);
        if as_player && seated.is_none() {
            if let Err(e) = self.take_seat(&who).await {
                self.refuse(&who.link, "join", None, &e);
            }
            return;
        }
        let was_online = self.members.online(&player);
        if let Some(seat) = seated {
            self.members.back(seat);
        }
        self.members.add(self.game.id(), who.link.clone(), &player);
        self.members
            .send_state(&who.link, &player, &self.game, Instant::now());
        if seated.is_none() || !was_online {
            self.crowd_changed();
        }
    }

    /// A player takes a seat: the one its bot invitation names, or the first free one.
    async fn take_seat(&mut self, who: &Actor) -> Result<(), RoomError> {
        if self.game.head().rated && !who.player.account {
            return Err(RoomError::AccountNeeded);
        }
        if self.game.head().rated {
            crate::moderation::sanctions::may_play_rated(&self.hub, &who.player.id)
                .map_err(RoomError::Sanctioned)?;
        }
        let seat = match self.invites.seat_of(&who.player.id) {
            Some(seat) => seat,
            None => self.game.free_seat(self.invites.reserved())?,
        };
        // A bot in a rated room plays at full strength: invited at that level (a bot that
        // sits down uninvited would play at a lesser one).
        if self.game.head().rated
            && who.player.bot
            && self.invites.level(seat) != Some(crate::accounts::ratings::RATED_BOT_LEVEL)
        {
            return Err(RoomError::RatedBotLevel);
        }
        let sitter = StoredSeat {
            player: who.player.id.clone(),
            name: who.player.name.clone(),
            bot: who.player.bot,
            level: self.invites.level(seat),
        };
        let change = self.game.take_seat(seat, sitter, Moment::now())?;
        if !self.store(&change).await {
            return Err(RoomError::NotStored("the seat"));
        }
        let invited = self.invites.joined(&self.hub, self.game.id(), seat);
        if !invited && who.player.bot {
            // A bot that sits down uninvited is busy with this game all the same.
            self.hub.bots().hold(&who.player.id, &who.player.name);
        }
        self.members
            .add(self.game.id(), who.link.clone(), &who.player.id);
        self.commit(change, None);
        Ok(())
    }

    async fn leave(&mut self, who: Actor) {
        self.members.remove(self.game.id(), who.link.id());
        if let Some(seat) = self.game.seat_of(&who.player.id) {
            if !self.members.online(&who.player.id) {
                match self.game.status() {
                    // Before the game starts, leaving gives the seat up.
                    RoomStatus::Waiting => {
                        if let Some(change) = self.game.leave_seat(seat, self.invites.any()) {
                            self.store_and_commit(change, None).await;
                        }
                    }
                    RoomStatus::Playing => self.members.away(seat, Instant::now()),
                    RoomStatus::Over => {}
                }
            }
        }
        self.crowd_changed();
    }

    fn gone(&mut self, conn_id: u64) {
        let Some(player) = self.members.remove(self.game.id(), conn_id) else {
            return;
        };
        if let Some(seat) = self.game.seat_of(&player) {
            if self.game.status() != RoomStatus::Over && !self.members.online(&player) {
                self.members.away(seat, Instant::now());
            }
        }
        self.crowd_changed();
    }
}

/// The player who said a chat line (not the room's own voice), for blocks to hide it.
fn chat_sender(msg: &game_core::protocol::ServerMsg) -> Option<&str> {
    match msg {
        game_core::protocol::ServerMsg::Chat { from, .. } if !from.is_empty() => Some(from),
        _ => None,
    }
}
