//! The end of the game: lines, full boards, passes, scores, resignation, flags, absence.

use super::*;

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
