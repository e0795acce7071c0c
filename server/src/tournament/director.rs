//! The director of a running tournament: one task per tournament on this server, which plays
//! it through its rounds. For each round it pairs the players, stores the pairings (each
//! game's room id drawn first, so that a restart finds the rooms it made or makes the missing
//! ones), makes every room with both seats taken — public, rated when the tournament is — and
//! tells the players where to go: a bot gets an invitation to the seat it already holds, a
//! person's connections get `created` and are seated in the room, as a quick pairing does;
//! each connection of theirs that comes later (back from a lost connection, or after a
//! restart) is told once too, until the game ends. Then it watches the rooms: every second it
//! looks at each game not over yet, in memory first and then in the store, which also makes
//! it survive a restart: whatever ended while it was away is read from the rooms as stored.
//! Each result is stored in the document as it comes; when a round is over the next is
//! paired, and after the last the tournament is over. The document is stored after every
//! step; a step whose write failed is written again before anything else is done.
//!
//! In a cluster one node directs a tournament: the one holding its director's lease
//! (`cluster::director_lease`), renewed with the rooms' leases. A director whose lease may be
//! lost does nothing (it may be behind another node's) and stops once it is lost; every two
//! lease times each node looks for running tournaments that no node directs — their
//! director's node died — and takes them over, resuming them as a restart does.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use game_core::protocol::{RoomStatus, ServerMsg};
use game_core::Color;

use super::document::{Entrant, Next, TableGame, Tournament};
use super::pairing::PlayerId;
use super::scoring;
use crate::accounts::players::PlayerRecord;
use crate::cluster::{director_lease, Claim, Lease};
use crate::hub::SharedHub;
use crate::room::error::RoomError;
use crate::room::handle::{Actor, RoomCmd, RoomHandle};
use crate::room::invites::{seated_invite, send_seated_bot};
use crate::room::member::MemberLink;
use crate::room::plan::RoomPlan;
use crate::room::registry::create_room;
use crate::room::relay::{locate, Place};
use crate::store::{StoreError, StoredRoom, StoredSeat, Write};

/// How often the rooms of the current round are looked at.
const POLL: Duration = Duration::from_secs(1);

/// Looks (one a second) at a game whose room can neither be made nor run before the game is
/// given up: recorded aborted, half a point each, so that one broken room (a stored game that
/// no longer replays, limits narrowed since the tournament was made) cannot stall the
/// tournament for ever.
const STUCK_LOOKS: u32 = 300;

/// Room ids are drawn like every room's.
const ROOM_ID_LEN: usize = 8;

/// Starts directing `tournament` (running) on this server, unless it is directed here
/// already or, in a cluster, by another node (or the lease cannot be asked for: the sweep
/// asks again).
pub async fn direct(hub: &SharedHub, tournament: Tournament) {
    if !hub.tournaments().claim(&tournament.id) {
        return;
    }
    let lease = match hub.coord().claim(&director_lease(&tournament.id), 0).await {
        Ok(Claim::Ours(lease)) => lease,
        Ok(Claim::Elsewhere(_)) => {
            hub.tournaments().released(&tournament.id);
            return;
        }
        Err(e) => {
            tracing::warn!(tournament = %tournament.id, error = %e, "claiming a tournament's director failed");
            hub.tournaments().released(&tournament.id);
            return;
        }
    };
    // Its games are tournament games from the first request on (no `abort`), before the
    // director's first look at them.
    if let Some(round) = tournament.current_round() {
        for game in round.games.iter().filter(|g| !g.is_over()) {
            hub.tournaments().game_room(&game.room, &tournament.id);
        }
    }
    let director = Director {
        hub: hub.clone(),
        tournament,
        lease,
        unsaved: false,
        told: HashSet::new(),
        stuck: HashMap::new(),
    };
    tokio::spawn(director.run());
}

/// Directs every running tournament of the store that is not directed yet (the server's
/// start; in a cluster, the sweep's). Returns how many were read; a document that cannot be
/// read is logged and left alone.
pub async fn resume_all(hub: &SharedHub) -> Result<usize, StoreError> {
    let mut resumed = 0;
    for stored in hub.store().running_tournaments().await? {
        if hub.tournaments().is_directed(&stored.id) {
            continue;
        }
        match Tournament::from_stored(&stored) {
            Ok(tournament) => {
                direct(hub, tournament).await;
                resumed += 1;
            }
            Err(e) => {
                tracing::error!(tournament = %stored.id, error = %e, "a tournament's document does not read");
            }
        }
    }
    Ok(resumed)
}

/// In a cluster, every two lease times, takes over the running tournaments that no node
/// directs (their director's node died, or the whole cluster was stopped): two nodes that
/// look at once race for the lease, and one wins. Until shutdown.
pub async fn direct_undirected(hub: SharedHub) {
    let mut shutdown = hub.shutdown().clone();
    loop {
        tokio::select! {
            () = tokio::time::sleep(hub.coord().lease_time() * 2) => {}
            _ = shutdown.changed() => return,
        }
        if let Err(e) = resume_all(&hub).await {
            tracing::warn!(error = %e, "listing running tournaments failed");
        }
    }
}

/// How a game's room is found.
enum Seen {
    /// Not stored: it is still to be made.
    Missing,
    /// Being played (or the store could not be asked: looked at again next time).
    Unfinished,
    Over(Box<StoredRoom>),
}

struct Director {
    hub: SharedHub,
    tournament: Tournament,
    /// This node's lease of the director (alone, always its own).
    lease: Lease,
    /// The document in memory differs from the stored one (a write failed).
    unsaved: bool,
    /// The connections told of their game in a room, by room, connection and seat (a bot
    /// entered at two levels holds both seats of their game, each told).
    told: HashSet<(String, u64, Color)>,
    /// Looks in a row at which a game's room could neither be made nor run, by room.
    stuck: HashMap<String, u32>,
}

impl Director {
    async fn run(mut self) {
        let mut shutdown = self.hub.shutdown().clone();
        let lost = self.lease.lost.clone();
        tracing::info!(tournament = %self.tournament.id, "directing the tournament");
        loop {
            if *shutdown.borrow() {
                break;
            }
            // A director that may have lost its lease does nothing: another node may direct
            // the tournament now, from a document this one has not seen.
            if self.sure_of_lease() && self.step().await {
                break;
            }
            tokio::select! {
                () = tokio::time::sleep(POLL) => {}
                () = lost.notified() => {
                    tracing::warn!(tournament = %self.tournament.id, "another node directs the tournament now");
                    break;
                }
                _ = shutdown.changed() => break,
            }
        }
        let name = director_lease(&self.tournament.id);
        self.hub.coord().release(&name, self.lease.fence);
        self.hub.tournaments().released(&self.tournament.id);
    }

    /// Whether this node surely directs the tournament: it surely holds the director's
    /// lease (`Coordination::holds`; alone, always).
    fn sure_of_lease(&self) -> bool {
        let name = director_lease(&self.tournament.id);
        self.hub.coord().holds(&name, self.lease.fence)
    }

    /// One look: results in, rounds paired and started, the end. True when there is nothing
    /// left to direct.
    async fn step(&mut self) -> bool {
        if self.unsaved && !self.save().await {
            return false;
        }
        loop {
            match self.tournament.next() {
                Next::Nothing => return true,
                Next::Watch => {
                    self.watch().await;
                    if self.tournament.next() == Next::Watch || self.unsaved {
                        return false;
                    }
                }
                Next::Pair => {
                    let paired = self
                        .tournament
                        .pair_next_round(|| crate::token::random_id(ROOM_ID_LEN));
                    match paired {
                        Ok(true) => {
                            self.told.clear();
                            let round = self.tournament.pairings.len();
                            tracing::info!(tournament = %self.tournament.id, round, "round paired");
                        }
                        Ok(false) => {}
                        Err(e) => {
                            // Cannot happen (every player is in the seeding list once); ending
                            // the tournament beats pairing it wrong again every second.
                            tracing::error!(tournament = %self.tournament.id, error = %e,
                                            "the round could not be paired: the tournament ends");
                            self.tournament.finish(now_ms());
                        }
                    }
                    // The pairings, their rooms' ids included, are stored before any room is
                    // made: a restart then makes the same rooms, never a second set.
                    if !self.save().await {
                        return false;
                    }
                }
                Next::Finish => {
                    self.tournament.finish(now_ms());
                    let saved = self.save().await;
                    tracing::info!(tournament = %self.tournament.id, "tournament over");
                    return saved;
                }
            }
        }
    }

    /// Looks at every game of the current round not over yet: makes its room if it is
    /// missing, tells its players' new connections where it is, and records its result once
    /// it is over.
    async fn watch(&mut self) {
        let pending: Vec<TableGame> = self
            .tournament
            .current_round()
            .map(|r| r.games.iter().filter(|g| !g.is_over()).cloned().collect())
            .unwrap_or_default();
        let mut recorded = false;
        for game in pending {
            self.hub
                .tournaments()
                .game_room(&game.room, &self.tournament.id);
            match self.seen(&game.room).await {
                // A bot whose every place is taken would only decline the game and lose it:
                // the room waits for a free place (looked at again each second).
                Seen::Missing => match self.full_bot(&game) {
                    Some(bot) => recorded |= self.tournament.mark_waiting(&game.room, Some(&bot)),
                    None => recorded |= self.make_missing(&game).await,
                },
                // A room stored but not in memory (its reload at start failed, say, or its
                // node died) is claimed and loaded here, unless another node runs it: then
                // the players, who may be connected anywhere, hear of it from that node.
                Seen::Unfinished => match locate(&self.hub, &game.room, true).await {
                    Ok(Place::Here(handle)) => {
                        self.stuck.remove(&game.room);
                        self.tell(&game, &handle).await;
                    }
                    Ok(Place::There(_)) => self.tell_other_nodes(&game),
                    // The coordination is out of reach: nothing says the room is broken.
                    Err(RoomError::Unreachable) => self.tell_other_nodes(&game),
                    Ok(Place::Nowhere) | Err(_) => recorded |= self.still_stuck(&game),
                },
                Seen::Over(stored) => {
                    self.hub.tournaments().game_over(&game.room);
                    if let Some((result, points)) = scoring::score(&game, &stored) {
                        recorded |= self.tournament.record(&game.room, result, points);
                    }
                }
            }
        }
        if recorded {
            self.save().await;
        }
    }

    /// Makes the missing room of `game`; true when the tournament changed (it no longer waits
    /// for a bot, or the game was given up).
    async fn make_missing(&mut self, game: &TableGame) -> bool {
        match self.make_room(game).await {
            Ok(()) => {
                self.stuck.remove(&game.room);
                self.tournament.mark_waiting(&game.room, None)
            }
            Err(e) => {
                tracing::warn!(tournament = %self.tournament.id, room = %game.room,
                               error = %e, "a tournament room could not be made yet");
                self.still_stuck(game)
            }
        }
    }

    /// A bot of `game` connected here with no free place, if any.
    fn full_bot(&self, game: &TableGame) -> Option<PlayerId> {
        [&game.black, &game.white]
            .into_iter()
            .find(|p| {
                self.tournament
                    .entrant(p)
                    .is_some_and(|e| e.bot && self.hub.bots().is_full(e.account()))
            })
            .cloned()
    }

    /// Counts one more look at which `game` could not be played; past [`STUCK_LOOKS`] in a
    /// row it is given up (true: recorded).
    fn still_stuck(&mut self, game: &TableGame) -> bool {
        let looks = self.stuck.entry(game.room.clone()).or_default();
        *looks += 1;
        if *looks < STUCK_LOOKS {
            return false;
        }
        tracing::error!(tournament = %self.tournament.id, room = %game.room,
                        "a tournament game could not be played: recorded aborted, half a point each");
        self.stuck.remove(&game.room);
        self.hub.tournaments().game_over(&game.room);
        self.tournament
            .record(&game.room, game_core::protocol::ResultKind::Aborted, 1)
    }

    /// Where the room of a game stands: a live room's own flag first (no store read while it
    /// is played), then the store.
    async fn seen(&self, room: &str) -> Seen {
        if self.hub.room(room).is_some_and(|h| h.is_unfinished()) {
            return Seen::Unfinished;
        }
        match self.hub.store().read_room(room).await {
            Ok(None) => Seen::Missing,
            Ok(Some(stored)) if stored.status == RoomStatus::Over => Seen::Over(Box::new(stored)),
            Ok(Some(_)) => Seen::Unfinished,
            Err(e) => {
                tracing::warn!(room = %room, error = %e, "reading a tournament room failed");
                Seen::Unfinished
            }
        }
    }

    /// Makes the room of `game` with both seats taken, and tells both players.
    async fn make_room(&mut self, game: &TableGame) -> Result<(), RoomError> {
        let t = &self.tournament;
        let (Some(black), Some(white)) = (t.entrant(&game.black), t.entrant(&game.white)) else {
            // Cannot happen: the pairings name players of the tournament.
            return Err(RoomError::NotStored("the room"));
        };
        let plan = RoomPlan::new(t.game.clone(), Some(t.clock), Vec::new(), 0)?.with_id(&game.room);
        // A rated tournament's game has a rating (checked when the tournament was made).
        let plan = if t.rated {
            plan.clone().rated().unwrap_or(plan)
        } else {
            plan
        };
        let seats = [Some(seat(black)), Some(seat(white))];
        let handle = create_room(&self.hub, plan.seated(seats)).await?;
        for (color, player) in [(Color::Black, &game.black), (Color::White, &game.white)] {
            let Some(bot) = self.tournament.entrant(player).filter(|e| e.bot) else {
                continue;
            };
            // The bot already sits there; the invitation tells it where to go, and counts
            // the game against its capacity.
            let t = &self.tournament;
            send_seated_bot(
                &self.hub,
                &handle.id,
                &t.game,
                Some(t.clock),
                color,
                &seat(bot),
            );
            for link in self.hub.bots().links(bot.account()) {
                self.told.insert((handle.id.clone(), link.id(), color));
            }
        }
        self.tell(game, &handle).await;
        Ok(())
    }

    /// Tells each connection of the game's players that has not heard of it yet where their
    /// game is: a bot's gets an invitation to the seat it holds (it answers by joining; in a
    /// room it already sits in, with a fresh `state`), a person's `created`, and it is seated
    /// in the room as a quick pairing does. So a player who connects after the room was made
    /// — back from a lost connection, or after the server's restart — finds their game too.
    /// A connection already in the room is left alone.
    async fn tell(&mut self, game: &TableGame, handle: &RoomHandle) {
        self.tell_other_nodes(game);
        let t = &self.tournament;
        for (color, player) in [(Color::Black, &game.black), (Color::White, &game.white)] {
            let Some(entrant) = t.entrant(player) else {
                continue;
            };
            let links = if entrant.bot {
                self.hub.bots().links(entrant.account())
            } else {
                self.hub.links().of(entrant.account())
            };
            for link in links {
                let member = matches!(&link, MemberLink::Local(conn) if conn.is_in(&game.room));
                if member || !self.told.insert((game.room.clone(), link.id(), color)) {
                    continue;
                }
                if entrant.bot {
                    link.send(&seated_invite(
                        &game.room,
                        &t.game,
                        Some(t.clock),
                        color,
                        &seat(entrant),
                    ));
                    continue;
                }
                link.send(&ServerMsg::Created {
                    room: game.room.clone(),
                });
                let who = Actor {
                    link,
                    player: PlayerRecord {
                        id: entrant.account().to_string(),
                        name: entrant.name.clone(),
                        bot: false,
                        account: true,
                    },
                };
                let join = RoomCmd::Join {
                    who,
                    as_player: true,
                };
                let _ = handle.tx.send(join).await;
            }
        }
    }

    /// In a cluster, tells every other node of `game` (`tournament::elsewhere`): the people
    /// who play it may be connected there. Sent at each look, so that a connection made later,
    /// or a node that missed a word, hears it within a second.
    fn tell_other_nodes(&self, game: &TableGame) {
        let t = &self.tournament;
        let players = [&game.black, &game.white]
            .into_iter()
            .filter_map(|p| t.entrant(p))
            .filter(|e| !e.bot)
            .map(|e| (e.account().to_string(), e.name.clone()))
            .collect();
        self.hub
            .coord()
            .send_everyone(&crate::cluster::BusMsg::TournamentGame {
                tournament: t.id.clone(),
                room: game.room.clone(),
                players,
            });
    }

    /// Stores the document; false (and it is written again at the next step) when it could
    /// not be.
    async fn save(&mut self) -> bool {
        let write = match self.tournament.stored() {
            Ok(stored) => Write::Tournament(stored),
            Err(e) => {
                tracing::error!(tournament = %self.tournament.id, error = %e, "a tournament does not serialise");
                self.unsaved = true;
                return false;
            }
        };
        match self.hub.store().write(write).await {
            Ok(()) => {
                self.unsaved = false;
                true
            }
            Err(e) => {
                tracing::warn!(tournament = %self.tournament.id, error = %e, "storing a tournament failed");
                self.unsaved = true;
                false
            }
        }
    }
}

/// A player's seat in a tournament room (a bot plays at the level it was entered at, else at
/// its best).
fn seat(entrant: &Entrant) -> StoredSeat {
    StoredSeat {
        player: entrant.account().to_string(),
        name: entrant.name.clone(),
        bot: entrant.bot,
        level: entrant.bot.then(|| entrant.bot_level()),
    }
}

fn now_ms() -> u64 {
    crate::room::change::Moment::now().unix_ms
}
