//! The rules of play of a room on a frozen clock: plain instants advanced by durations, no
//! runtime, no store. Each change is committed by hand, as the room's task does once stored.

use std::time::Duration;

use game_core::protocol::{ClockSpec, ErrorCode, GameResult, ResultKind, RoomStatus, ServerMsg};
use game_core::{Color, EndReason, GameSpec, GomokuRule};
use tokio::time::Instant;

use super::{Played, RematchStep, RoomGame};
use crate::accounts::players::PlayerRecord;
use crate::refusal::Refusal;
use crate::room::change::{Change, Event, Moment};
use crate::room::error::RoomError;
use crate::room::plan::RoomPlan;
use crate::store::StoredSeat;

pub(super) const BLACK: Color = Color::Black;
pub(super) const WHITE: Color = Color::White;

pub(super) fn t0() -> Moment {
    Moment {
        at: Instant::now(),
        unix_ms: 1_700_000_000_000,
    }
}

pub(super) fn person(name: &str) -> StoredSeat {
    StoredSeat {
        player: name.to_lowercase(),
        name: name.to_string(),
        bot: false,
        level: None,
    }
}

pub(super) fn bot(name: &str) -> StoredSeat {
    StoredSeat {
        bot: true,
        level: Some(5),
        ..person(name)
    }
}

fn record(seat: &StoredSeat) -> PlayerRecord {
    PlayerRecord {
        id: seat.player.clone(),
        name: seat.name.clone(),
        bot: seat.bot,
        account: false,
    }
}

fn gomoku() -> GameSpec {
    GameSpec::gomoku(15, GomokuRule::Freestyle)
}

pub(super) fn plan(game: GameSpec, clock: Option<ClockSpec>, opening: &[&str]) -> RoomPlan {
    let opening = opening.iter().map(ToString::to_string).collect();
    RoomPlan::new(game, clock, opening, 100).expect("a valid plan")
}

/// Alice (black) against Bob (white), started at `now`.
pub(super) fn game_at(
    game: GameSpec,
    clock: Option<ClockSpec>,
    opening: &[&str],
    now: Moment,
) -> RoomGame {
    let plan = plan(game, clock, opening).seated([Some(person("Alice")), Some(person("Bob"))]);
    RoomGame::new("room1".into(), plan, 8, now)
}

fn started(game: GameSpec) -> RoomGame {
    game_at(game, None, &[], t0())
}

/// Both sides' first moves (free), far from the centre, at `now`: from then on the clocks
/// run, black's first.
fn first_moves(g: &mut RoomGame, now: Moment) {
    play(g, BLACK, "a1", None, now);
    play(g, WHITE, "a15", None, now);
}

/// How long a side has for its first move, in these tests.
const FIRST_MOVE: Duration = Duration::from_secs(30);

/// Plays a move that must be accepted, commits it, returns its events.
pub(super) fn play(
    g: &mut RoomGame,
    seat: Color,
    mv: &str,
    id: Option<&str>,
    now: Moment,
) -> Vec<Event> {
    match g.play(seat, mv, id, now) {
        Ok(Played::Move(change)) => g.commit(change),
        other => panic!("{mv} by {seat:?} was not played: {other:?}"),
    }
}

/// Plays moves alternately from the side to move.
pub(super) fn play_all(g: &mut RoomGame, moves: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for mv in moves {
        let seat = g.turn();
        events = play(g, seat, mv, None, t0());
    }
    events
}

pub(super) fn refused(g: &mut RoomGame, seat: Color, mv: &str) -> RoomError {
    match g.play(seat, mv, None, t0()) {
        Err(e) => e,
        Ok(other) => panic!("{mv} by {seat:?} was accepted: {other:?}"),
    }
}

/// Proposes a change that must be accepted, commits it, returns its events.
pub(super) fn apply(
    g: &mut RoomGame,
    propose: impl FnOnce(&RoomGame) -> Result<Change, RoomError>,
) -> Vec<Event> {
    let change = propose(g).expect("an accepted request");
    g.commit(change)
}

fn over(events: &[Event]) -> GameResult {
    events
        .iter()
        .find_map(|e| match e {
            Event::All(ServerMsg::Over { result, .. }) => Some(result.clone()),
            _ => None,
        })
        .expect("an over event")
}

pub(super) fn messages(events: &[Event]) -> Vec<ServerMsg> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::All(m) | Event::Spectators(m) => Some(m.clone()),
            Event::Moved { plain, .. } => Some(plain.clone()),
            Event::States | Event::SeatsSwapped => None,
        })
        .collect()
}

fn said(events: &[Event]) -> String {
    match &messages(events)[..] {
        [ServerMsg::Chat {
            name, text, from, ..
        }] if name == "kibitz" && from.is_empty() => text.clone(),
        other => panic!("expected one line of the room, got {other:?}"),
    }
}

/// Seven moves after which white's `c1` leaves black without a move.
const BEFORE_A_PASS: [&str; 7] = ["d3", "c3", "b3", "b2", "f5", "a3", "a1"];

mod endings;
mod first_moves;
mod moves;
mod offers;
mod seats;
