//! Offers: take-backs and draws.

use super::*;

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
