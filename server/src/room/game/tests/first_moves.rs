//! First moves and aborts.

use super::*;

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
