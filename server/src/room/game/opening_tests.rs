//! A room played from an opening rule — swap2, Soosõrv-8, Taraguchi-10 — on a frozen clock:
//! who acts, the seats that change hands with the colours, the clocks, take-backs, a restart
//! and the rematch.

use std::time::Duration;

use game_core::opening::{OpeningPhase, Role};
use game_core::protocol::{ClockSpec, ErrorCode, RoomStatus, ServerMsg};
use game_core::{Color, GameSpec, GomokuRule, OpeningRule};

use super::tests::{
    apply, game_at, messages, person, plan, play, play_all, refused, t0, BLACK, WHITE,
};
use super::{Played, RematchStep, RoomGame};
use crate::refusal::Refusal;
use crate::room::change::Event;
use crate::room::error::RoomError;
use crate::room::plan::RoomPlan;

fn swap2() -> GameSpec {
    GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, OpeningRule::Swap2)
}

fn renju(rule: OpeningRule) -> GameSpec {
    GameSpec::gomoku_with_opening(15, GomokuRule::Renju, rule)
}

/// Alice (black, the first player) against Bob, untimed.
fn alice_and_bob(spec: GameSpec) -> RoomGame {
    game_at(spec, None, &[], t0())
}

fn seated(g: &RoomGame, color: Color) -> String {
    g.seat(color).map(|s| s.name.clone()).unwrap_or_default()
}

fn phase(g: &RoomGame) -> OpeningPhase {
    let state = g.state(None, [true, true], 0, t0().at);
    state.opening_state.expect("an opening rule").phase
}

/// The `moved` of a step: its text, by and to_move.
fn moved(events: &[Event]) -> (String, Color, Color) {
    messages(events)
        .into_iter()
        .find_map(|m| match m {
            ServerMsg::Moved {
                mv, by, to_move, ..
            } => Some((mv, by, to_move)),
            _ => None,
        })
        .expect("a moved event")
}

#[test]
fn swap2_with_a_swap_moves_the_players_between_the_seats() {
    let mut g = alice_and_bob(swap2());
    assert_eq!((g.turn(), phase(&g)), (BLACK, OpeningPhase::Place));
    // The first player places three stones: black, white, black, all of them as black.
    for (cell, next) in [("h8", BLACK), ("j9", BLACK), ("i7", WHITE)] {
        let events = play(&mut g, BLACK, cell, None, t0());
        assert_eq!(moved(&events), (cell.to_string(), BLACK, next));
    }
    assert_eq!(phase(&g), OpeningPhase::Swap2);
    assert_eq!(
        refused(&mut g, BLACK, "swap"),
        RoomError::NotYourTurn,
        "the second player decides"
    );
    let bad = refused(&mut g, WHITE, "black");
    assert!(matches!(bad, RoomError::Choice(_)), "{bad:?}");
    assert_eq!(bad.code(), ErrorCode::IllegalMove);
    assert_eq!(g.ply(), 3, "a refused choice changes nothing");

    let events = play(&mut g, WHITE, "SWAP", Some("s1"), t0());
    assert_eq!(moved(&events), ("swap".to_string(), WHITE, WHITE));
    assert!(events.contains(&Event::SeatsSwapped));
    assert!(events.contains(&Event::States));
    assert_eq!(
        (seated(&g, BLACK), seated(&g, WHITE)),
        ("Bob".into(), "Alice".into())
    );
    assert_eq!(g.seat_of("bob"), Some(BLACK));
    assert!(!g.in_opening());
    let state = g.state(Some(WHITE), [true, true], 0, t0().at);
    let view = state.opening_state.expect("kept once over");
    assert_eq!(
        (view.phase, view.black, view.to_act),
        (OpeningPhase::Over, Role::Second, None)
    );
    assert_eq!(state.moves, ["h8", "j9", "i7", "swap"]);
    assert_eq!(state.to_move, WHITE);
    // The game proper: Alice, now white, plays the 4th stone.
    assert_eq!(refused(&mut g, BLACK, "a1"), RoomError::NotYourTurn);
    play(&mut g, WHITE, "a1", None, t0());
    assert_eq!(g.turn(), BLACK);
}

#[test]
fn swap2_with_two_more_stones_ends_with_the_first_player_choosing_a_colour() {
    let mut g = alice_and_bob(swap2());
    play_all(&mut g, &["h8", "j9", "i7"]);
    // Bob, white, places the 4th (white) and 5th (black) stones.
    play(&mut g, WHITE, "k10", None, t0());
    assert_eq!(phase(&g), OpeningPhase::Place);
    let events = play(&mut g, WHITE, "g6", None, t0());
    assert_eq!(moved(&events).2, BLACK, "the first player chooses next");
    assert_eq!(phase(&g), OpeningPhase::Color);
    let events = play(&mut g, BLACK, "white", None, t0());
    assert!(events.contains(&Event::SeatsSwapped));
    assert_eq!(
        (seated(&g, BLACK), seated(&g, WHITE)),
        ("Bob".into(), "Alice".into())
    );
    // White, now Alice, plays the 6th move.
    assert_eq!(g.turn(), WHITE);
    play(&mut g, WHITE, "a1", None, t0());

    // Choosing black keeps the seats.
    let mut g = alice_and_bob(swap2());
    play_all(&mut g, &["h8", "j9", "i7", "k10", "g6"]);
    let events = play(&mut g, BLACK, "black", None, t0());
    assert!(!events.contains(&Event::SeatsSwapped));
    assert!(
        events.contains(&Event::States),
        "every decision brings a fresh state"
    );
    assert_eq!(seated(&g, BLACK), "Alice");
    assert_eq!(g.turn(), WHITE);
}

#[test]
fn soosorv8_runs_declaration_offers_and_choice() {
    let mut g = alice_and_bob(renju(OpeningRule::Soosorv8));
    let refusal = refused(&mut g, BLACK, "a1");
    assert!(
        matches!(refusal, RoomError::Choice(_)),
        "the 1st move goes on the centre"
    );
    play_all(&mut g, &["h8", "i9", "j10", "stay", "g7"]);
    assert_eq!(phase(&g), OpeningPhase::Declare);
    // White (Bob) declares; black (Alice) may swap.
    play(&mut g, WHITE, "declare 2", None, t0());
    assert_eq!((phase(&g), g.turn()), (OpeningPhase::Swap, BLACK));
    play(&mut g, BLACK, "stay", None, t0());
    assert_eq!(phase(&g), OpeningPhase::Fifth);
    let too_few = refused(&mut g, BLACK, "fifths k5");
    assert!(matches!(too_few, RoomError::Choice(_)), "{too_few:?}");
    play(&mut g, BLACK, "fifths k5, e12", None, t0());
    let state = g.state(None, [true, true], 0, t0().at);
    let view = state.opening_state.expect("an opening rule");
    assert_eq!(
        (view.phase, view.proposals.clone()),
        (
            OpeningPhase::Choose,
            vec!["k5".to_string(), "e12".to_string()]
        )
    );
    assert_eq!(g.turn(), WHITE);
    play(&mut g, WHITE, "choose e12", None, t0());
    assert!(!g.in_opening());
    assert_eq!(g.turn(), WHITE, "white plays the 6th move");
    play(&mut g, WHITE, "a1", None, t0());
    assert_eq!(
        g.moves().iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(),
        [
            "h8",
            "i9",
            "j10",
            "stay",
            "g7",
            "declare 2",
            "stay",
            "fifths k5,e12",
            "choose e12",
            "a1"
        ]
    );
}

#[test]
fn taraguchi10_swaps_after_each_stone() {
    let mut g = alice_and_bob(renju(OpeningRule::Taraguchi10));
    play_all(&mut g, &["h8", "stay", "i9", "swap"]);
    // After the swap following the 2nd move, Bob holds black and places the 3rd stone.
    assert_eq!((seated(&g, BLACK), g.turn()), ("Bob".into(), BLACK));
    play_all(&mut g, &["j7", "stay", "e5", "stay", "l12", "stay"]);
    assert!(!g.in_opening());
    assert_eq!(g.turn(), WHITE);
    assert_eq!(seated(&g, WHITE), "Alice");
}

#[test]
fn opening_decisions_cannot_be_taken_back() {
    let mut g = alice_and_bob(swap2());
    play_all(&mut g, &["h8", "j9", "i7"]);
    let refusal = g.offer_undo(BLACK).expect_err("in the opening");
    assert_eq!(refusal, RoomError::UndoInOpening);
    assert_eq!(refusal.code(), ErrorCode::BadRequest);
    play(&mut g, WHITE, "stay", None, t0());
    // Bob plays the 4th move as white: a take-back of it would be fine, one of his opening
    // decision is not.
    assert_eq!(
        g.offer_undo(WHITE).expect_err("the decision"),
        RoomError::UndoInOpening
    );
    play(&mut g, WHITE, "a1", None, t0());
    play(&mut g, BLACK, "a2", None, t0());
    apply(&mut g, |g| g.offer_undo(WHITE));
    apply(&mut g, |g| g.answer_undo(BLACK, true, t0()));
    assert_eq!(g.ply(), 4);
    assert_eq!(g.turn(), WHITE);
    play(&mut g, WHITE, "b1", None, t0());
}

#[test]
fn the_clock_runs_for_whoever_decides_and_a_swap_takes_the_times_along() {
    let clock = ClockSpec::Fischer {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let start = t0();
    let at = |s: u64| start.later(Duration::from_secs(s));
    let mut g = game_at(swap2(), Some(clock), &[], start);
    play(&mut g, BLACK, "h8", None, at(5)); // the first decision is free
    play(&mut g, BLACK, "j9", None, at(7)); // 2 s
    play(&mut g, BLACK, "i7", None, at(10)); // 3 s
    let c = g.clock_state(at(10).at).expect("timed");
    assert_eq!((c.black_ms, c.white_ms, c.running), (55_000, 60_000, None));
    // Bob's first decision is free too; he swaps, and takes his full time to black.
    play(&mut g, WHITE, "swap", None, at(20));
    let c = g.clock_state(at(20).at).expect("timed");
    assert_eq!(
        (c.black_ms, c.white_ms, c.running),
        (60_000, 55_000, Some(WHITE))
    );
    play(&mut g, WHITE, "a1", None, at(24));
    let c = g.clock_state(at(24).at).expect("timed");
    assert_eq!(
        (c.black_ms, c.white_ms, c.running),
        (60_000, 51_000, Some(BLACK))
    );
    assert!(!g.abortable(), "both players have acted");
}

#[test]
fn a_restored_room_replays_the_opening_with_its_seats_and_answers() {
    let mut g = alice_and_bob(renju(OpeningRule::Taraguchi10));
    play(&mut g, BLACK, "h8", Some("a1"), t0());
    play(&mut g, WHITE, "swap", Some("b1"), t0());
    // Bob holds black now; the 2nd stone is white's, so Alice's.
    assert_eq!((seated(&g, WHITE), g.turn()), ("Alice".into(), WHITE));
    play(&mut g, WHITE, "i9", Some("a2"), t0());
    let stored = g.stored();
    let mut back = RoomGame::restore(stored, 8, t0()).expect("replays");
    assert_eq!(
        (back.ply(), back.turn(), back.in_opening()),
        (3, BLACK, true)
    );
    assert_eq!(seated(&back, BLACK), "Bob");
    assert_eq!(phase(&back), OpeningPhase::Swap);
    // Alice's resend of her first stone, made as black before the swap, is answered again.
    match back.play(WHITE, "h8", Some("a1"), t0()) {
        Ok(Played::Again(ServerMsg::Moved { mv, ply, .. })) => {
            assert_eq!((mv.as_str(), ply), ("h8", 1))
        }
        other => panic!("{other:?}"),
    }
    play(&mut back, BLACK, "stay", None, t0());
    assert_eq!(back.turn(), BLACK);
}

#[test]
fn a_rematch_hands_the_opening_to_the_other_player() {
    let mut g = alice_and_bob(swap2());
    play_all(&mut g, &["h8", "j9", "i7", "swap"]);
    assert_eq!(seated(&g, BLACK), "Bob");
    apply(&mut g, |g| g.resign(WHITE, t0()));
    assert_eq!(g.status(), RoomStatus::Over);
    let Ok(RematchStep::Asked(change)) = g.ask_rematch(WHITE) else {
        panic!("the first ask");
    };
    g.commit(change);
    let Ok(RematchStep::Create(plan)) = g.ask_rematch(BLACK) else {
        panic!("both asked");
    };
    // Alice opened this game; Bob opens the next, as black.
    assert_eq!(plan.seats, [Some(person("Bob")), Some(person("Alice"))]);
    assert!(plan.start.in_opening());
}

#[test]
fn a_room_with_an_opening_rule_takes_only_what_the_rule_supports() {
    let setup = RoomPlan::new(swap2(), None, vec!["h8".into()], 10).expect_err("set-up moves");
    assert_eq!(setup.code(), ErrorCode::BadGame);
    assert!(setup.to_string().contains("empty board"), "{setup}");
    let renju_on_gomoku =
        GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, OpeningRule::Soosorv8);
    let wrong = RoomPlan::new(renju_on_gomoku, None, vec![], 10).expect_err("a mismatch");
    assert_eq!(wrong.code(), ErrorCode::BadGame);
    assert!(wrong.to_string().contains("renju on 15x15"), "{wrong}");
    let small = GameSpec::gomoku_with_opening(13, GomokuRule::Freestyle, OpeningRule::Swap2);
    assert!(RoomPlan::new(small, None, vec![], 10).is_err());
    let fine = plan(renju(OpeningRule::Taraguchi10), None, &[]);
    assert!(fine.start.in_opening());
}

#[test]
fn the_last_stone_skips_the_choices_that_place_none() {
    let mut g = alice_and_bob(swap2());
    assert_eq!(g.last_stone(), None);
    play_all(&mut g, &["h8", "j9", "i7", "k10", "g6"]);
    play(&mut g, BLACK, "white", None, t0());
    assert_eq!(
        g.last_stone().as_deref(),
        Some("g6"),
        "a colour places nothing"
    );

    let mut g = alice_and_bob(renju(OpeningRule::Soosorv8));
    play_all(&mut g, &["h8", "i9", "j10", "stay", "g7"]);
    assert_eq!(g.last_stone().as_deref(), Some("g7"));
    play(&mut g, WHITE, "declare 2", None, t0());
    play(&mut g, BLACK, "stay", None, t0());
    play(&mut g, BLACK, "fifths k5, e12", None, t0());
    assert_eq!(
        g.last_stone().as_deref(),
        Some("g7"),
        "offered 5th moves are no stones"
    );
    play(&mut g, WHITE, "choose e12", None, t0());
    assert_eq!(g.last_stone().as_deref(), Some("e12"));
    play(&mut g, WHITE, "a1", None, t0());
    assert_eq!(g.last_stone().as_deref(), Some("a1"));
}
