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

// ---- turns and moves -------------------------------------------------------------------------

#[test]
fn a_move_is_announced_numbered_and_the_turn_passes() {
    let mut g = started(gomoku());
    let events = play(&mut g, BLACK, "H8", Some("m1"), t0());
    let [Event::Moved { plain, mine }] = &events[..] else {
        panic!("{events:?}");
    };
    let ServerMsg::Moved {
        seq,
        ply,
        mv,
        by,
        to_move,
        id,
        ..
    } = plain
    else {
        panic!("{plain:?}");
    };
    assert_eq!(
        (*seq, *ply, mv.as_str(), *by, *to_move),
        (1, 1, "h8", BLACK, WHITE)
    );
    assert_eq!(*id, None, "everyone's copy has no request id");
    assert!(matches!(mine, Some(ServerMsg::Moved { id: Some(id), .. }) if id == "m1"));
    assert_eq!(g.seq(), 1);
    assert_eq!(g.ply(), 1);
    assert_eq!(g.turn(), WHITE);
    assert_eq!(g.moves()[0].mv, "h8");
    assert_eq!(g.moves()[0].req_id.as_deref(), Some("m1"));
}

#[test]
fn moves_out_of_turn_or_outside_play_are_refused() {
    let mut g = started(gomoku());
    assert_eq!(refused(&mut g, WHITE, "h8"), RoomError::NotYourTurn);

    let waiting = plan(gomoku(), None, &[]).seated([Some(person("Alice")), None]);
    let mut w = RoomGame::new("w".into(), waiting, 8, t0());
    assert_eq!(w.status(), RoomStatus::Waiting);
    assert_eq!(refused(&mut w, BLACK, "h8"), RoomError::NotStarted);
    assert_eq!(RoomError::NotStarted.code(), ErrorCode::NotYourTurn);

    apply(&mut g, |g| g.resign(BLACK, t0()));
    assert_eq!(refused(&mut g, WHITE, "h8"), RoomError::GameOver);
    assert_eq!(g.ply(), 0);
}

#[test]
fn illegal_and_forbidden_moves_change_nothing() {
    let mut g = started(gomoku());
    play(&mut g, BLACK, "h8", None, t0());
    let occupied = refused(&mut g, WHITE, "h8");
    assert_eq!(occupied.code(), ErrorCode::IllegalMove);
    assert_eq!(refused(&mut g, WHITE, "zz").code(), ErrorCode::IllegalMove);

    // Black stones on f8, g8, h6, h7: h8 makes two open threes, forbidden under renju.
    let opening = ["f8", "a1", "g8", "a3", "h6", "a5", "h7", "a7"];
    let mut renju = game_at(
        GameSpec::gomoku(15, GomokuRule::Renju),
        None,
        &opening,
        t0(),
    );
    let forbidden = refused(&mut renju, BLACK, "h8");
    assert_eq!(forbidden.code(), ErrorCode::Forbidden, "{forbidden}");
    assert_eq!((renju.ply(), renju.seq(), renju.turn()), (0, 0, BLACK));
    play(&mut renju, BLACK, "j9", None, t0());
    play(&mut renju, WHITE, "h8", None, t0());
}

#[test]
fn a_proposed_move_changes_nothing_until_committed() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 1_000,
    };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    first_moves(&mut g, start);
    let later = start.later(Duration::from_secs(5));
    let Ok(Played::Move(change)) = g.play(BLACK, "h8", Some("m1"), later) else {
        panic!("h8 is legal");
    };
    assert_eq!(change.record().moves.len(), 1);
    assert_eq!(change.record().seq, 3);
    // Not committed (the store failed): the game is as it was, and the id is still free.
    drop(change);
    assert_eq!((g.ply(), g.seq(), g.turn()), (2, 2, BLACK));
    let clocks = g.clock_state(later.at).expect("timed");
    assert_eq!((clocks.black_ms, clocks.running), (55_000, Some(BLACK)));
    let events = play(&mut g, BLACK, "h8", Some("m1"), later);
    assert!(matches!(&events[..], [Event::Moved { .. }]));
    let clocks = g.clock_state(later.at).expect("timed");
    assert_eq!((clocks.black_ms, clocks.running), (56_000, Some(WHITE)));
}

#[test]
fn a_resent_move_id_is_answered_as_the_first_time() {
    let mut g = started(gomoku());
    let first = play(&mut g, BLACK, "h8", Some("m1"), t0());
    let Event::Moved {
        mine: Some(mine), ..
    } = &first[0]
    else {
        panic!("{first:?}");
    };
    match g.play(BLACK, "h8", Some("m1"), t0()) {
        Ok(Played::Again(again)) => assert_eq!(&again, mine),
        other => panic!("{other:?}"),
    }
    // The same id answers even out of turn or with another move: nothing is played.
    assert!(matches!(
        g.play(BLACK, "a1", Some("m1"), t0()),
        Ok(Played::Again(_))
    ));
    assert_eq!(g.ply(), 1);

    // A refused move with an id is remembered too, as the same error.
    let e = g.play(WHITE, "h8", Some("w1"), t0()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::IllegalMove);
    match g.play(WHITE, "a1", Some("w1"), t0()) {
        Ok(Played::Again(ServerMsg::Error {
            code,
            id,
            reference,
            ..
        })) => {
            assert_eq!(code, ErrorCode::IllegalMove);
            assert_eq!(id.as_deref(), Some("w1"));
            assert_eq!(reference.as_deref(), Some("move"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(g.ply(), 1);

    // A move taken back frees its id for a new move.
    apply(&mut g, |g| g.offer_undo(BLACK));
    apply(&mut g, |g| g.answer_undo(WHITE, true, t0()));
    assert_eq!(g.ply(), 0);
    play(&mut g, BLACK, "j10", Some("m1"), t0());
    assert_eq!(g.moves()[0].mv, "j10");
}

#[test]
fn a_restored_room_replays_its_moves_and_keeps_its_answers() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &["a1"], start);
    // White moves first after a one-move opening; both first moves are free.
    play(
        &mut g,
        WHITE,
        "h8",
        Some("w1"),
        start.later(Duration::from_secs(3)),
    );
    play(
        &mut g,
        BLACK,
        "b1",
        None,
        start.later(Duration::from_secs(5)),
    );
    play(
        &mut g,
        WHITE,
        "h9",
        None,
        start.later(Duration::from_secs(8)),
    );
    let stored = g.stored();
    let restart = start.later(Duration::from_secs(100));
    let mut back = RoomGame::restore(stored, 8, restart).expect("replays");
    assert_eq!((back.ply(), back.seq(), back.turn()), (3, 3, BLACK));
    let clocks = back.clock_state(restart.at).expect("timed");
    assert_eq!(
        (clocks.black_ms, clocks.white_ms, clocks.running),
        (60_000, 57_000, Some(BLACK)),
        "the time the server was down is not charged"
    );
    match back.play(WHITE, "h8", Some("w1"), restart) {
        Ok(Played::Again(ServerMsg::Moved { id, ply, .. })) => {
            assert_eq!((id.as_deref(), ply), (Some("w1"), 1));
        }
        other => panic!("{other:?}"),
    }
}

// ---- the end of the game -----------------------------------------------------------------------

#[test]
fn five_in_a_row_ends_the_game_in_the_same_record_as_the_move() {
    let mut g = started(gomoku());
    play_all(&mut g, &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"]);
    let Ok(Played::Move(change)) = g.play(BLACK, "l8", None, t0()) else {
        panic!("l8 is legal");
    };
    let record = change.record();
    assert_eq!(record.moves.len(), 1);
    let Some((RoomStatus::Over, Some(result))) = &record.status else {
        panic!("{record:?}");
    };
    assert_eq!(result.reason, EndReason::Five);
    assert_eq!(record.seq, 10, "the move is 9, its end 10");
    let events = g.commit(change);
    let result = over(&events);
    assert_eq!(result.result, ResultKind::Black);
    assert_eq!(
        result.line,
        Some(["h8", "i8", "j8", "k8", "l8"].map(String::from).to_vec())
    );
    assert_eq!(g.status(), RoomStatus::Over);
    assert_eq!(g.result(), Some(&result));
}

#[test]
fn connect_four_lines_and_full_boards_end_the_game() {
    let mut g = started(GameSpec::connect4(7, 6));
    let events = play_all(&mut g, &["1", "2", "1", "2", "1", "2", "1"]);
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Black, EndReason::Four)
    );
    assert_eq!(
        result.line,
        Some(["a1", "a2", "a3", "a4"].map(String::from).to_vec())
    );

    let mut g = started(GameSpec::connect4(4, 4));
    let fill = [
        "1", "1", "1", "1", "2", "2", "2", "2", "3", "3", "3", "4", "4", "4", "3", "4",
    ];
    let events = play_all(&mut g, &fill);
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Draw, EndReason::Full)
    );
}

/// Seven moves after which white's `c1` leaves black without a move.
const BEFORE_A_PASS: [&str; 7] = ["d3", "c3", "b3", "b2", "f5", "a3", "a1"];

#[test]
fn othello_passes_are_played_by_the_server_and_numbered() {
    let mut g = game_at(GameSpec::Othello, None, &BEFORE_A_PASS, t0());
    assert_eq!(g.turn(), WHITE);
    let events = play(&mut g, WHITE, "c1", None, t0());
    let msgs = messages(&events);
    let [ServerMsg::Moved { seq: 1, ply: 1, .. }, ServerMsg::Moved {
        seq: 2,
        ply: 2,
        mv,
        by: BLACK,
        to_move: WHITE,
        ..
    }] = &msgs[..]
    else {
        panic!("{msgs:?}");
    };
    assert_eq!(mv, "pass");
    assert_eq!(g.turn(), WHITE);
    assert_eq!(g.ply(), 2);
    assert_eq!(g.status(), RoomStatus::Playing);
}

#[test]
fn othello_ends_with_the_score() {
    let mut g = started(GameSpec::Othello);
    let events = play_all(
        &mut g,
        &["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"],
    );
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Black, EndReason::Count)
    );
    let score = result.score.expect("a score");
    assert_eq!((score.black, score.white), (64, 0));
}

#[test]
fn resigning_loses() {
    let mut g = started(gomoku());
    play(&mut g, BLACK, "h8", None, t0());
    let events = apply(&mut g, |g| g.resign(BLACK, t0()));
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::White, EndReason::Resign)
    );
    assert_eq!(g.resign(WHITE, t0()).unwrap_err(), RoomError::GameOver);
}

#[test]
fn the_flag_falls_on_a_fischer_clock() {
    let clock = ClockSpec::Fischer {
        initial_ms: 10_000,
        increment_ms: 1_000,
    };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    assert_eq!(
        g.flag_deadline(),
        None,
        "no clock runs before the first moves"
    );
    first_moves(&mut g, start);
    assert_eq!(g.flag_deadline(), Some(start.at + Duration::from_secs(10)));
    let t1 = start.later(Duration::from_secs(4));
    play(&mut g, BLACK, "h8", None, t1);
    // White's ten seconds run from t1.
    assert!(g
        .flag_fall(t1.later(Duration::from_millis(9_999)))
        .is_none());
    let late = t1.later(Duration::from_secs(10));
    assert_eq!(
        g.play(WHITE, "a1", None, late).unwrap_err(),
        RoomError::TimeRanOut
    );
    let change = g.flag_fall(late).expect("the flag fell");
    // A failed write leaves it to the next timer tick: the same end is proposed again.
    drop(change);
    assert_eq!(g.status(), RoomStatus::Playing);
    let events = apply(&mut g, |g| g.flag_fall(late).ok_or(RoomError::GameOver));
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Black, EndReason::Timeout)
    );
    let clocks = g.clock_state(late.at).expect("timed");
    assert_eq!(
        (clocks.black_ms, clocks.white_ms, clocks.running),
        (7_000, 0, None)
    );
    assert_eq!(g.flag_deadline(), None);
}

#[test]
fn the_flag_falls_on_a_per_move_clock() {
    let clock = ClockSpec::PerMove { move_ms: 5_000 };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    first_moves(&mut g, start);
    let t1 = start.later(Duration::from_millis(4_900));
    play(&mut g, BLACK, "h8", None, t1);
    let clocks = g.clock_state(t1.at).expect("timed");
    assert_eq!((clocks.black_ms, clocks.white_ms), (5_000, 5_000));
    assert!(g
        .flag_fall(t1.later(Duration::from_millis(4_999)))
        .is_none());
    let events = apply(&mut g, |g| {
        g.flag_fall(t1.later(Duration::from_secs(5)))
            .ok_or(RoomError::GameOver)
    });
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Black, EndReason::Timeout)
    );
}

#[test]
fn a_player_away_too_long_loses_and_an_empty_waiting_room_closes() {
    let mut g = started(gomoku());
    first_moves(&mut g, t0());
    let events = apply(&mut g, |g| {
        g.abandon(WHITE, false, t0()).ok_or(RoomError::GameOver)
    });
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Black, EndReason::Abandoned)
    );
    assert!(g.abandon(BLACK, false, t0()).is_none(), "over already");

    let waiting = plan(gomoku(), None, &[]).seated([Some(person("Alice")), None]);
    let mut w = RoomGame::new("w".into(), waiting, 8, t0());
    let change = w
        .abandon(BLACK, false, t0())
        .expect("a waiting room closes");
    assert_eq!(change.record().status, Some((RoomStatus::Over, None)));
    let events = w.commit(change);
    assert_eq!(events, vec![Event::States]);
    assert_eq!((w.status(), w.result()), (RoomStatus::Over, None));
}

// ---- offers ---------------------------------------------------------------------------------------

#[test]
fn undo_offered_accepted_and_declined() {
    let mut g = started(gomoku());
    assert_eq!(
        g.offer_undo(BLACK).unwrap_err(),
        RoomError::NothingToTakeBack
    );
    assert_eq!(
        g.answer_undo(WHITE, true, t0()).unwrap_err(),
        RoomError::NoUndoToAnswer
    );
    play_all(&mut g, &["h8", "a1"]);
    let events = apply(&mut g, |g| g.offer_undo(BLACK));
    assert!(matches!(
        &messages(&events)[..],
        [ServerMsg::UndoOffer {
            seq: 3,
            by: BLACK,
            ..
        }]
    ));
    assert_eq!(g.offer_undo(BLACK).unwrap_err(), RoomError::UndoPending);
    assert_eq!(
        g.answer_undo(BLACK, true, t0()).unwrap_err(),
        RoomError::OwnUndo
    );

    // Declined: a line from the room, and the game goes on as it was.
    let events = apply(&mut g, |g| g.answer_undo(WHITE, false, t0()));
    assert_eq!(said(&events), "Bob declines the take-back");
    assert_eq!((g.ply(), g.seq()), (2, 4));
    assert_eq!(
        g.answer_undo(WHITE, true, t0()).unwrap_err(),
        RoomError::NoUndoToAnswer
    );

    // Accepted: black's move and white's reply after it are both taken back.
    apply(&mut g, |g| g.offer_undo(BLACK));
    let change = g.answer_undo(WHITE, true, t0()).expect("accepted");
    assert_eq!(change.record().truncate, Some(0));
    let events = g.commit(change);
    assert!(matches!(
        &messages(&events)[..],
        [ServerMsg::Undone { seq: 6, ply: 0, .. }]
    ));
    assert_eq!((g.ply(), g.turn(), g.offers().undo), (0, BLACK, None));
}

#[test]
fn undo_skips_the_passes_of_the_server() {
    let mut g = game_at(GameSpec::Othello, None, &BEFORE_A_PASS, t0());
    play(&mut g, WHITE, "c1", None, t0());
    // Black has only passed: it has nothing of its own to take back.
    assert_eq!(
        g.offer_undo(BLACK).unwrap_err(),
        RoomError::NothingToTakeBack
    );
    apply(&mut g, |g| g.offer_undo(WHITE));
    apply(&mut g, |g| g.answer_undo(BLACK, true, t0()));
    assert_eq!(
        (g.ply(), g.turn()),
        (0, WHITE),
        "the move and the pass after it went"
    );
}

#[test]
fn after_an_accepted_undo_the_side_to_move_clock_runs() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    first_moves(&mut g, start);
    play(
        &mut g,
        BLACK,
        "h8",
        None,
        start.later(Duration::from_secs(10)),
    );
    apply(&mut g, |g| g.offer_undo(BLACK));
    let t2 = start.later(Duration::from_secs(15));
    apply(&mut g, |g| g.answer_undo(WHITE, true, t2));
    let clocks = g
        .clock_state(t2.later(Duration::from_secs(1)).at)
        .expect("timed");
    assert_eq!(
        (clocks.black_ms, clocks.white_ms, clocks.running),
        (49_000, 55_000, Some(BLACK)),
        "time spent before the undo stays spent"
    );
}

#[test]
fn draw_offered_accepted_declined_and_cancelled_by_a_move() {
    let mut g = started(gomoku());
    assert_eq!(
        g.answer_draw(WHITE, true, t0()).unwrap_err(),
        RoomError::NoDrawToAnswer
    );
    let events = apply(&mut g, |g| g.offer_draw(BLACK, t0()));
    assert!(matches!(
        &messages(&events)[..],
        [ServerMsg::DrawOffer {
            seq: 1,
            by: BLACK,
            ..
        }]
    ));
    assert_eq!(
        g.offer_draw(BLACK, t0()).unwrap_err(),
        RoomError::DrawPending
    );
    assert_eq!(
        g.answer_draw(BLACK, true, t0()).unwrap_err(),
        RoomError::NoDrawToAnswer
    );
    let events = apply(&mut g, |g| g.answer_draw(WHITE, false, t0()));
    assert_eq!(said(&events), "Bob declines the draw");
    assert_eq!(g.offers().draw, None);

    apply(&mut g, |g| g.offer_draw(WHITE, t0()));
    play(&mut g, BLACK, "h8", None, t0());
    assert_eq!(g.offers().draw, None, "a move cancels the offer");

    apply(&mut g, |g| g.offer_draw(WHITE, t0()));
    let events = apply(&mut g, |g| g.answer_draw(BLACK, true, t0()));
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Draw, EndReason::Agreement)
    );
}

#[test]
fn a_draw_offer_against_a_pending_one_agrees() {
    let mut g = started(gomoku());
    apply(&mut g, |g| g.offer_draw(BLACK, t0()));
    let result = over(&apply(&mut g, |g| g.offer_draw(WHITE, t0())));
    assert_eq!(result.reason, EndReason::Agreement);
}

// ---- first moves and aborts ---------------------------------------------------------------

#[test]
fn each_side_s_clock_starts_with_its_own_first_move() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 2_000,
    };
    let cases = [
        (gomoku(), ["h8", "a1", "j10"]),
        (GameSpec::Othello, ["f5", "d6", "c3"]),
        (GameSpec::connect4(7, 6), ["4", "4", "3"]),
    ];
    for (game, [first, second, third]) in cases {
        let start = t0();
        let mut g = game_at(game.clone(), Some(clock), &[], start);
        let readings = |g: &RoomGame, at: Moment| {
            let c = g.clock_state(at.at).expect("timed");
            (c.black_ms, c.white_ms, c.running)
        };
        // The clocks count down the time left for a first move still awaited.
        let abort_ms = |g: &RoomGame, at: Moment| g.clock_state(at.at).and_then(|c| c.abort_ms);
        // Before black's first move nothing runs, however long it takes.
        let t1 = start.later(Duration::from_secs(20));
        assert_eq!(readings(&g, t1), (60_000, 60_000, None), "{game:?}");
        assert_eq!(abort_ms(&g, t1), Some(10_000));
        assert_eq!(g.flag_deadline(), None);
        assert_eq!(
            g.first_move_deadline(FIRST_MOVE),
            Some(start.at + FIRST_MOVE)
        );
        assert!(g.abortable());
        // Black's first move is free (no increment either); white's first is awaited.
        let events = play(&mut g, BLACK, first, None, t1);
        let Event::Moved {
            plain: ServerMsg::Moved { clock, .. },
            ..
        } = &events[0]
        else {
            panic!("{events:?}");
        };
        assert_eq!(clock.as_ref().and_then(|c| c.running), None);
        assert_eq!(clock.as_ref().and_then(|c| c.abort_ms), Some(30_000));
        let t2 = t1.later(Duration::from_secs(25));
        assert_eq!(readings(&g, t2), (60_000, 60_000, None), "{game:?}");
        assert_eq!(abort_ms(&g, t2), Some(5_000));
        assert_eq!(g.first_move_deadline(FIRST_MOVE), Some(t1.at + FIRST_MOVE));
        assert!(g.abortable());
        // White's first move: from move three on, the clocks run as usual.
        play(&mut g, WHITE, second, None, t2);
        assert!(!g.abortable());
        assert_eq!(g.first_move_deadline(FIRST_MOVE), None);
        let t3 = t2.later(Duration::from_secs(4));
        assert_eq!(readings(&g, t3), (56_000, 60_000, Some(BLACK)), "{game:?}");
        assert_eq!(abort_ms(&g, t3), None);
        play(&mut g, BLACK, third, None, t3);
        assert_eq!(readings(&g, t3), (58_000, 60_000, Some(WHITE)), "{game:?}");
    }
}

#[test]
fn an_untimed_game_has_no_first_move_deadline() {
    let g = started(gomoku());
    assert!(g.abortable());
    assert_eq!(g.first_move_deadline(FIRST_MOVE), None);
    let late = t0().later(Duration::from_secs(3_600));
    assert!(g.first_move_lapse(FIRST_MOVE, late).is_none());
}

#[test]
fn either_player_aborts_until_both_have_moved() {
    let aborted = (ResultKind::Aborted, EndReason::Aborted);
    for (moves, seat) in [(&[][..], BLACK), (&[][..], WHITE), (&["h8"][..], BLACK)] {
        let mut g = started(gomoku());
        play_all(&mut g, moves);
        let change = g.abort(t0()).expect("abortable");
        // Stored as a finished game without a winner.
        let (status, result) = change.record().status.clone().expect("a status");
        assert_eq!(status, RoomStatus::Over);
        let result = result.expect("a result");
        assert_eq!(
            (result.result, result.reason),
            aborted,
            "{moves:?} {seat:?}"
        );
        assert_eq!(result.result.winner(), None);
        let events = g.commit(change);
        assert_eq!(over(&events).result, ResultKind::Aborted);
        assert_eq!(g.status(), RoomStatus::Over);
        assert_eq!(g.abort(t0()).unwrap_err(), RoomError::GameOver);
    }
    let mut g = started(gomoku());
    play_all(&mut g, &["h8", "a1"]);
    let e = g.abort(t0()).unwrap_err();
    assert_eq!(
        (e.clone(), e.code()),
        (RoomError::TooLateToAbort, ErrorCode::BadRequest)
    );
    assert_eq!(g.status(), RoomStatus::Playing);
    // A take-back to before a side's first move makes the game abortable again.
    apply(&mut g, |g| g.offer_undo(WHITE));
    apply(&mut g, |g| g.answer_undo(BLACK, true, t0()));
    assert!(g.abortable());
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game() {
    let clock = ClockSpec::PerMove { move_ms: 10_000 };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    let almost = start.later(FIRST_MOVE - Duration::from_millis(1));
    assert!(g.first_move_lapse(FIRST_MOVE, almost).is_none());
    // Black moves just in time; white's own time for its first move starts then.
    play(&mut g, BLACK, "h8", None, almost);
    let lapse = almost.later(FIRST_MOVE);
    assert!(g
        .first_move_lapse(
            FIRST_MOVE,
            almost.later(FIRST_MOVE - Duration::from_millis(1))
        )
        .is_none());
    let change = g
        .first_move_lapse(FIRST_MOVE, lapse)
        .expect("white's time is up");
    // A failed write leaves it to the next timer tick: nothing changed meanwhile.
    drop(change);
    assert_eq!(g.status(), RoomStatus::Playing);
    let events = apply(&mut g, |g| {
        g.first_move_lapse(FIRST_MOVE, lapse)
            .ok_or(RoomError::GameOver)
    });
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::Aborted, EndReason::Aborted)
    );
    assert_eq!(g.first_move_deadline(FIRST_MOVE), None);
    assert_eq!(g.clock_state(lapse.at).and_then(|c| c.running), None);
}

#[test]
fn a_player_away_before_the_first_moves_aborts_rather_than_loses() {
    let mut g = started(gomoku());
    play(&mut g, BLACK, "h8", None, t0());
    let events = apply(&mut g, |g| {
        g.abandon(WHITE, false, t0()).ok_or(RoomError::GameOver)
    });
    assert_eq!(over(&events).result, ResultKind::Aborted);
    // In a tournament game the side that left loses even then.
    let mut g = started(gomoku());
    play(&mut g, BLACK, "h8", None, t0());
    let events = apply(&mut g, |g| {
        g.abandon(BLACK, true, t0()).ok_or(RoomError::GameOver)
    });
    let result = over(&events);
    assert_eq!(
        (result.result, result.reason),
        (ResultKind::White, EndReason::Abandoned)
    );
}

#[test]
fn a_restored_game_waits_for_a_first_move_from_the_restart() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let start = t0();
    let mut g = game_at(gomoku(), Some(clock), &[], start);
    play(
        &mut g,
        BLACK,
        "h8",
        Some("b1"),
        start.later(Duration::from_secs(3)),
    );
    let restart = start.later(Duration::from_secs(100));
    let mut back = RoomGame::restore(g.stored(), 8, restart).expect("replays");
    let clocks = back.clock_state(restart.at).expect("timed");
    assert_eq!(
        (clocks.black_ms, clocks.white_ms, clocks.running),
        (60_000, 60_000, None)
    );
    assert_eq!(
        back.first_move_deadline(FIRST_MOVE),
        Some(restart.at + FIRST_MOVE)
    );
    // The resent first move is answered as before: white's clock did not run after it.
    match back.play(BLACK, "h8", Some("b1"), restart) {
        Ok(Played::Again(ServerMsg::Moved { clock, .. })) => {
            assert_eq!(clock.and_then(|c| c.running), None);
        }
        other => panic!("{other:?}"),
    }
}

// ---- seats, chat, rematch ----------------------------------------------------------------------------

#[test]
fn the_game_starts_when_the_second_seat_is_taken() {
    let clock = ClockSpec::PerMove { move_ms: 5_000 };
    let waiting = plan(gomoku(), Some(clock), &[]).seated([None, Some(person("Bob"))]);
    let mut g = RoomGame::new("w".into(), waiting, 8, t0());
    assert_eq!(
        g.free_seat([true, false]).unwrap_err(),
        RoomError::SeatsTaken
    );
    let seat = g.free_seat([false, false]).expect("black is free");
    assert_eq!(seat, BLACK);
    assert_eq!(
        g.take_seat(WHITE, person("Carol"), t0()).unwrap_err(),
        RoomError::SeatsTaken
    );
    let change = g.take_seat(BLACK, person("Alice"), t0()).expect("free");
    assert_eq!(change.record().status, Some((RoomStatus::Playing, None)));
    assert_eq!(g.commit(change), vec![Event::States]);
    assert_eq!(g.status(), RoomStatus::Playing);
    assert_eq!(g.seat_of("alice"), Some(BLACK));
    assert_eq!(
        g.clock_state(t0().at).and_then(|c| c.running),
        None,
        "black's clock waits for black's first move"
    );
    assert!(g.first_move_deadline(FIRST_MOVE).is_some());
    assert_eq!(
        g.free_seat([false, false]).unwrap_err(),
        RoomError::SeatsTaken
    );
}

#[test]
fn leaving_a_waiting_room_frees_the_seat_and_the_last_one_closes_it() {
    let waiting = plan(gomoku(), None, &[]).seated([Some(person("Alice")), None]);
    let mut g = RoomGame::new("w".into(), waiting, 8, t0());
    let change = g.leave_seat(BLACK, true).expect("seated");
    assert_eq!(change.record().status, None, "a bot is still invited");
    let change = g.leave_seat(BLACK, false).expect("seated");
    assert_eq!(change.record().status, Some((RoomStatus::Over, None)));
    g.commit(change);
    assert_eq!(g.seat(BLACK), None);
    assert_eq!(g.status(), RoomStatus::Over);
    assert_eq!(
        g.free_seat([false, false]).unwrap_err(),
        RoomError::SeatsClosed
    );
}

#[test]
fn player_chat_takes_a_number_and_spectator_chat_does_not() {
    let mut g = started(gomoku());
    let events = g.commit(g.chat(&record(&person("Alice")), "gl hf".into(), t0()));
    assert!(matches!(
        &events[..],
        [Event::All(ServerMsg::Chat {
            seq: 1,
            seat: Some(BLACK),
            ..
        })]
    ));
    let change = g.chat(&record(&person("Sam")), "who wins?".into(), t0());
    assert_eq!(change.record().chat.as_ref().map(|c| c.seat), Some(None));
    let events = g.commit(change);
    assert!(matches!(
        &events[..],
        [Event::Spectators(ServerMsg::Chat {
            seq: 1,
            seat: None,
            ..
        })]
    ));
    assert_eq!(g.seq(), 1);
}

#[test]
fn a_rematch_needs_both_players() {
    let mut g = started(gomoku());
    assert_eq!(
        g.ask_rematch(BLACK).unwrap_err(),
        RoomError::RematchTooEarly
    );
    apply(&mut g, |g| g.resign(WHITE, t0()));
    let Ok(RematchStep::Asked(change)) = g.ask_rematch(BLACK) else {
        panic!("the first ask is announced");
    };
    assert_eq!(said(&g.commit(change)), "Alice offers a rematch");
    assert!(matches!(
        g.ask_rematch(BLACK),
        Ok(RematchStep::AlreadyAsked)
    ));
    let Ok(RematchStep::Create(plan)) = g.ask_rematch(WHITE) else {
        panic!("both asked");
    };
    assert_eq!(plan.seats, [Some(person("Bob")), Some(person("Alice"))]);
    assert_eq!(plan.game, gomoku());
    let events = g.commit(g.rematch_made("next1"));
    assert!(matches!(
        &messages(&events)[..],
        [ServerMsg::Rematch { next, .. }] if next == "next1"
    ));
    let seq = g.seq();
    match g.ask_rematch(BLACK) {
        Ok(RematchStep::Made(ServerMsg::Rematch { next, seq: s, .. })) => {
            assert_eq!((next.as_str(), s), ("next1", seq));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bot_agrees_to_a_rematch_at_once_from_the_same_opening() {
    let opening = ["h8", "h9"];
    let p = plan(gomoku(), None, &opening).seated([Some(person("Alice")), Some(bot("Kibot"))]);
    let mut g = RoomGame::new("r".into(), p, 8, t0());
    apply(&mut g, |g| g.resign(BLACK, t0()));
    let Ok(RematchStep::Create(plan)) = g.ask_rematch(BLACK) else {
        panic!("a bot always agrees");
    };
    assert_eq!(plan.seats, [Some(bot("Kibot")), Some(person("Alice"))]);
    assert_eq!(plan.opening, ["h8", "h9"]);
    assert_eq!(
        plan.start.position().ply(),
        2,
        "the start position is not replayed again"
    );
}
