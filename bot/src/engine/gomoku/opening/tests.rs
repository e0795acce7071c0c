//! The bot's opening decisions: legal at every step of every rule, as either player, and
//! led by the judgement of the position.

use game_core::opening::{Opening, OpeningPhase, Role};
use game_core::{GameSpec, GomokuRule, OpeningRule, Position};

use super::{decide, declaration};
use crate::engine::gomoku::GomokuEngine;
use crate::engine::{Level, SearchLimits, SearchRequest, StopFlag};

fn request(level: u8, seed: u64) -> SearchRequest {
    SearchRequest {
        limits: SearchLimits::Depth(2),
        level: Level::new(level),
        stop: StopFlag::new(),
        seed,
    }
}

fn spec(rule: OpeningRule) -> GameSpec {
    let board = if rule == OpeningRule::Swap2 {
        GomokuRule::Freestyle
    } else {
        GomokuRule::Renju
    };
    GameSpec::gomoku_with_opening(15, board, rule)
}

/// Plays a whole opening with the bot deciding for both players; returns the choices.
fn bot_against_itself(rule: OpeningRule, seed: u64) -> Opening {
    let mut engine = GomokuEngine::with_tt_bits(12);
    let mut opening = Opening::new(&spec(rule)).expect("a valid spec");
    for step in 0..40 {
        let Some(role) = opening.to_act() else {
            return opening;
        };
        let result = decide(&mut engine, &opening, &request(6, seed + step)).expect("a decision");
        opening
            .apply_str(role, &result.best)
            .unwrap_or_else(|e| panic!("{rule} step {step}: {} refused: {e}", result.best));
    }
    panic!("{rule}: the opening did not end");
}

#[test]
fn every_rule_is_played_to_its_end_with_legal_choices() {
    for rule in OpeningRule::ALL {
        for seed in 0..3 {
            let opening = bot_against_itself(rule, seed);
            assert!(opening.is_over());
            assert!(
                opening.position().ply() >= 3,
                "{rule}: {:?}",
                opening.choices()
            );
            assert!(opening.position().outcome().is_none());
        }
    }
}

#[test]
fn a_soosorv_declaration_is_played_through_its_offers() {
    // With the 5th moves declared by hand, black must offer them and white choose.
    let mut engine = GomokuEngine::with_tt_bits(12);
    let mut opening = Opening::new(&spec(OpeningRule::Soosorv8)).expect("spec");
    for (role, text) in [
        (Role::First, "h8"),
        (Role::First, "i9"),
        (Role::First, "j10"),
        (Role::Second, "stay"),
        (Role::Second, "g7"),
        (Role::Second, "declare 4"),
        (Role::First, "stay"),
    ] {
        opening.apply_str(role, text).expect("a legal choice");
    }
    let offer = decide(&mut engine, &opening, &request(6, 1)).expect("an offer");
    assert!(offer.best.starts_with("fifths "), "{}", offer.best);
    opening
        .apply_str(Role::First, &offer.best)
        .expect("a legal offer");
    assert_eq!(opening.proposals().len(), 4);
    let choice = decide(&mut engine, &opening, &request(6, 1)).expect("a choice");
    assert!(choice.best.starts_with("choose "), "{}", choice.best);
    opening
        .apply_str(Role::Second, &choice.best)
        .expect("a legal choice");
    assert!(opening.is_over());
}

#[test]
fn the_second_player_takes_the_colour_the_judgement_favours() {
    let mut engine = GomokuEngine::with_tt_bits(12);
    // Three black stones in a row would be an open three: here two in a row and white far
    // off is already clearly black's, so white swaps.
    let mut opening = Opening::new(&spec(OpeningRule::Swap2)).expect("spec");
    for cell in ["h8", "a1", "i8"] {
        opening.apply_str(Role::First, cell).expect("a stone");
    }
    assert_eq!(opening.phase(), OpeningPhase::Swap2);
    let swap = decide(&mut engine, &opening, &request(8, 0)).expect("a decision");
    assert_eq!(swap.best, "swap", "{swap:?}");
    // White next to black's stones is fine for white: not a swap.
    let mut opening = Opening::new(&spec(OpeningRule::Swap2)).expect("spec");
    for cell in ["h8", "i9", "a1"] {
        opening.apply_str(Role::First, cell).expect("a stone");
    }
    let decision = decide(&mut engine, &opening, &request(8, 0)).expect("a decision");
    assert_ne!(decision.best, "swap", "{decision:?}");
}

#[test]
fn white_chooses_the_offered_fifth_worst_for_black() {
    let mut engine = GomokuEngine::with_tt_bits(12);
    let mut opening = Opening::new(&spec(OpeningRule::Soosorv8)).expect("spec");
    for (role, text) in [
        (Role::First, "h8"),
        (Role::First, "i8"),
        (Role::First, "h9"),
        (Role::Second, "stay"),
        (Role::Second, "k12"),
        (Role::Second, "declare 2"),
        (Role::First, "stay"),
        // j8 makes black an open three; a15 is thrown away.
        (Role::First, "fifths j8,a15"),
    ] {
        opening.apply_str(role, text).expect("a legal choice");
    }
    let choice = decide(&mut engine, &opening, &request(8, 0)).expect("a choice");
    assert_eq!(choice.best, "choose a15");
}

#[test]
fn declarations_grow_as_white_s_position_worsens() {
    assert_eq!(declaration(0, 8), 2);
    assert_eq!(declaration(150, 8), 1);
    assert_eq!(declaration(-250, 8), 4);
    assert_eq!(declaration(-5_000, 8), 8);
}
