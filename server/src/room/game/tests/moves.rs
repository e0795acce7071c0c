//! Turns and moves: numbering, refusals, proposals, resent ids, restores.

use super::*;

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
