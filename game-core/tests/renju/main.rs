//! Renju forbidden points against labelled positions drawn from the RIF definitions, overline
//! rules of the three Gomoku variants, and a cross-check of the fast line-walk checker against
//! a brute-force one that follows the definitions word by word.

use std::collections::BTreeMap;

use game_core::gomoku::Gomoku;
use game_core::renju::{self, Forbidden};
use game_core::{Cell, Color, GomokuRule, Position};
use proptest::prelude::*;

mod brute;
mod cases;

use cases::*;

fn cells(list: &str) -> Vec<Cell> {
    list.split_whitespace()
        .map(|m| m.parse().expect(m))
        .collect()
}

fn check(case: &Case) {
    let label = case.label;
    let black = cells(case.black);
    let white = cells(case.white);
    let point: Cell = case.point.parse().unwrap();
    let pos = Gomoku::from_stones(15, case.rule, &black, &white).expect(label);
    assert_eq!(pos.stone(point), None, "{label}: point occupied");
    assert_eq!(pos.outcome(), None, "{label}: game already over");

    let kind = if case.mover == Color::Black {
        pos.forbidden_kind(point)
    } else {
        None
    };
    let expected_kind = match case.expect {
        Forbid(k) => Some(k),
        _ => None,
    };
    assert_eq!(kind, expected_kind, "{label}");
    // The free functions and the scan of every point agree with the single-point check.
    if case.rule == GomokuRule::Renju {
        assert_eq!(
            renju::forbidden_kind(15, pos.cells(), point),
            expected_kind,
            "{label}"
        );
        assert_eq!(
            pos.forbidden_points().contains(&point),
            expected_kind.is_some(),
            "{label}"
        );
    }
    if kind.is_some() {
        return;
    }

    let (mut black, mut white) = (black, white);
    match case.mover {
        Color::Black => black.push(point),
        Color::White => white.push(point),
    }
    let after = Gomoku::from_stones(15, case.rule, &black, &white).unwrap();
    let outcome = after.outcome();
    match case.expect {
        Wins => {
            let outcome = outcome.unwrap_or_else(|| panic!("{label}: no win"));
            assert_eq!(outcome.winner, Some(case.mover), "{label}");
            assert!(outcome.line.contains(&point), "{label}: {:?}", outcome.line);
            assert!(outcome.line.len() >= 5, "{label}");
        }
        Legal | NoWin => assert_eq!(outcome, None, "{label}"),
        Forbid(_) => unreachable!(),
    }
}

#[test]
fn renju_forbidden_point_table() {
    assert!(RENJU_CASES.len() >= 30);
    for case in RENJU_CASES {
        check(case);
    }
}

#[test]
fn overline_rules_of_the_three_variants() {
    for case in OVERLINE_CASES {
        check(case);
    }
}

#[test]
fn forbidden_points_only_under_renju() {
    let black = cells("f8 g8 h9 h10");
    for rule in [GomokuRule::Freestyle, GomokuRule::Standard] {
        let pos = Gomoku::from_stones(15, rule, &black, &[]).unwrap();
        assert_eq!(pos.forbidden_points(), Vec::<Cell>::new());
        assert_eq!(pos.forbidden_kind("h8".parse().unwrap()), None);
    }
    let pos = Gomoku::from_stones(15, GomokuRule::Renju, &black, &[]).unwrap();
    assert!(pos.forbidden_points().contains(&"h8".parse().unwrap()));
}

#[test]
fn a_forbidden_move_is_refused_and_changes_nothing() {
    // Black to move (4 black, 4 white) with h8 a double three.
    let pos = Gomoku::from_stones(
        15,
        GomokuRule::Renju,
        &cells("f8 g8 h9 h10"),
        &cells("a1 a3 o1 o3"),
    )
    .unwrap();
    assert_eq!(pos.turn(), Color::Black);
    let err = pos.clone().play("h8".parse().unwrap()).unwrap_err();
    assert_eq!(err.position, pos);
    assert_eq!(
        err.error,
        game_core::IllegalMoveError::Forbidden("h8".into(), Forbidden::DoubleThree)
    );
    assert!(!pos.legal_moves().contains(&"h8".parse().unwrap()));
}
