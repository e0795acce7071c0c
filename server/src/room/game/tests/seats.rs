//! Seats, chat and rematches.

use super::*;

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
