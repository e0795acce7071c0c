//! Every refusal with its error, and the position unchanged.

use super::*;

#[derive(Debug)]
enum Refused {
    Syntax,
    Illegal(OpeningError),
}

struct Refusal {
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    /// `None`: the player whose decision it is.
    by: Option<Role>,
    choice: &'static str,
    expect: Refused,
}

const fn refuse(
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    choice: &'static str,
    expect: OpeningError,
) -> Refusal {
    Refusal {
        label,
        rule,
        script,
        by: None,
        choice,
        expect: Refused::Illegal(expect),
    }
}

fn not_now(choice: &'static str, expected: &str) -> OpeningError {
    OpeningError::NotNow {
        choice,
        expected: expected.to_string(),
    }
}

fn refusals() -> Vec<Refusal> {
    use OpeningError as E;
    let outside = |c: &str, side: u8| E::OutsideArea {
        cell: cell(c),
        area: Area::Central(side),
    };
    vec![
        Refusal {
            label: "the second player cannot place the first stones",
            rule: SWAP2,
            script: "h8",
            by: Some(Role::Second),
            choice: "i9",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::First,
            }),
        },
        Refusal {
            label: "the first player cannot answer swap2's choice",
            rule: SWAP2,
            script: "h8; i9; j8",
            by: Some(Role::First),
            choice: "swap",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::Second,
            }),
        },
        Refusal {
            label: "the second player cannot pick the colour",
            rule: SWAP2,
            script: "h8; i9; j8; a1; o15",
            by: Some(Role::Second),
            choice: "black",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::First,
            }),
        },
        refuse(
            "nothing after the opening",
            SWAP2,
            "h8; i9; j8; stay",
            "k10",
            E::Over,
        ),
        Refusal {
            label: "not even by the other player",
            rule: TARAGUCHI,
            script: "h8; stay; i9; stay; j7; stay; e5; stay; l12; stay",
            by: Some(Role::Second),
            choice: "swap",
            expect: Refused::Illegal(E::Over),
        },
        refuse(
            "an occupied cell",
            SWAP2,
            "h8",
            "h8",
            E::Illegal(IllegalMoveError::Occupied("h8".into())),
        ),
        refuse(
            "a cell off the board",
            SWAP2,
            "",
            "p1",
            E::Illegal(IllegalMoveError::OutOfBoard("p1".into())),
        ),
        refuse(
            "swap while stones are due",
            SWAP2,
            "h8",
            "swap",
            not_now("swap", "a white stone anywhere"),
        ),
        refuse(
            "a colour before the two more stones",
            SWAP2,
            "h8; i9; j8",
            "white",
            not_now("a colour", "stay, or swap, or a white stone anywhere"),
        ),
        refuse(
            "a stone instead of a colour",
            SWAP2,
            "h8; i9; j8; a1; o15",
            "k10",
            not_now("a stone", "black or white"),
        ),
        refuse(
            "fifths in swap2",
            SWAP2,
            "h8; i9; j8",
            "fifths a1,a2",
            not_now("fifths", "stay, or swap, or a white stone anywhere"),
        ),
        refuse(
            "soosorv: the first move off the centre",
            SOOSORV,
            "",
            "h9",
            outside("h9", 1),
        ),
        refuse(
            "soosorv: the 2nd move outside 3x3",
            SOOSORV,
            "h8",
            "j10",
            outside("j10", 3),
        ),
        refuse(
            "soosorv: the 3rd move outside 5x5",
            SOOSORV,
            "h8; h9",
            "k11",
            outside("k11", 5),
        ),
        refuse(
            "soosorv: a stone instead of a swap decision",
            SOOSORV,
            "h8; h9; j10",
            "k12",
            not_now("a stone", "swap, or stay"),
        ),
        refuse(
            "soosorv: a declaration before the 4th move",
            SOOSORV,
            "h8; h9; j10; stay",
            "declare 3",
            not_now("declare", "a white stone anywhere"),
        ),
        refuse(
            "soosorv: a stone instead of the declaration",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "a1",
            not_now("a stone", "declare 1..=8"),
        ),
        refuse(
            "soosorv: declare 9",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "declare 9",
            E::DeclareRange { got: 9, max: 8 },
        ),
        refuse(
            "soosorv: declare 0",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "declare 0",
            E::DeclareRange { got: 0, max: 8 },
        ),
        refuse(
            "soosorv: a single stone when three are declared",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "a1",
            not_now("a stone", "fifths: 3 cells anywhere"),
        ),
        refuse(
            "soosorv: too few 5th moves",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2",
            E::WrongCount {
                expected: 3,
                got: 2,
            },
        ),
        refuse(
            "soosorv: too many 5th moves",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2,c3,d4",
            E::WrongCount {
                expected: 3,
                got: 4,
            },
        ),
        refuse(
            "soosorv: a 5th move offered twice",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2,a1",
            E::Repeated(cell("a1")),
        ),
        refuse(
            "soosorv: a 5th move on a stone",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,j10,b2",
            E::Illegal(IllegalMoveError::Occupied("j10".into())),
        ),
        refuse(
            "soosorv: symmetrical 5th moves across column h",
            SOOSORV,
            "h8; h9; h10; stay; h7; declare 3; stay",
            "fifths g6,a1,i6",
            E::Symmetrical(cell("g6"), cell("i6")),
        ),
        refuse(
            "soosorv: symmetrical 5th moves across the diagonal",
            SOOSORV,
            "h8; i9; j10; stay; g7; declare 2; stay",
            "fifths h12,l8",
            E::Symmetrical(cell("h12"), cell("l8")),
        ),
        refuse(
            "soosorv: choose a cell not offered",
            SOOSORV,
            "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15",
            "choose c3",
            E::NotOffered(cell("c3")),
        ),
        refuse(
            "soosorv: a stone instead of a choice",
            SOOSORV,
            "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15",
            "a1",
            not_now("a stone", "choose one of the offered 5th moves"),
        ),
        refuse(
            "soosorv: choose before any offer",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "choose a1",
            not_now("choose", "fifths: 3 cells anywhere"),
        ),
        refuse(
            "taraguchi: the 2nd move outside 3x3",
            TARAGUCHI,
            "h8; stay",
            "h10",
            outside("h10", 3),
        ),
        refuse(
            "taraguchi: the 4th move outside 7x7",
            TARAGUCHI,
            "h8; stay; i9; stay; j7; stay",
            "l12",
            outside("l12", 7),
        ),
        refuse(
            "taraguchi: a single 5th outside 9x9",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "m13",
            outside("m13", 9),
        ),
        refuse(
            "taraguchi: a stone before the swap decision",
            TARAGUCHI,
            "h8",
            "h9",
            not_now("a stone", "swap, or stay"),
        ),
        refuse(
            "taraguchi: no declaration",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "declare 3",
            not_now(
                "declare",
                "a black stone in the central 9x9 square, or fifths: 10 cells anywhere",
            ),
        ),
        refuse(
            "taraguchi: five 5th moves are not ten",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "fifths a1,a2,a3,a4,a5",
            E::WrongCount {
                expected: 10,
                got: 5,
            },
        ),
        refuse(
            "taraguchi: symmetrical 5th moves",
            TARAGUCHI,
            COLUMN_H,
            "fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,o9",
            E::Symmetrical(cell("a9"), cell("o9")),
        ),
        Refusal {
            label: "taraguchi: the black player cannot choose among the offers",
            rule: TARAGUCHI,
            script: "h8; stay; i9; stay; j7; stay; e5; stay; fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,a10",
            by: Some(Role::First),
            choice: "choose a1",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::Second,
            }),
        },
        Refusal {
            label: "a word that is no choice is a syntax error",
            rule: SWAP2,
            script: "",
            by: None,
            choice: "pass",
            expect: Refused::Syntax,
        },
    ]
}

#[test]
fn every_refusal_names_its_cause_and_changes_nothing() {
    for case in refusals() {
        let mut opening = opened(case.rule, case.script);
        let before = opening.clone();
        let by = case.by.or(opening.to_act()).unwrap_or(Role::First);
        let result = opening.apply_str(by, case.choice);
        match (&case.expect, result) {
            (Refused::Syntax, Err(ChoiceError::Parse(_))) => {}
            (Refused::Illegal(expected), Err(ChoiceError::Illegal(error))) => {
                assert_eq!(&error, expected, "{}", case.label);
                // The checked question gives the same answer without applying.
                let choice: OpeningChoice = case.choice.parse().unwrap();
                assert_eq!(opening.is_legal(by, &choice), Err(error), "{}", case.label);
            }
            (expected, result) => panic!("{}: expected {expected:?}, got {result:?}", case.label),
        }
        assert_eq!(opening, before, "{}: changed", case.label);
    }
}

#[test]
fn refusals_read_well() {
    let mut opening = opened(SOOSORV, "h8; h9; h10; stay; h7; declare 2; stay");
    let error = opening.apply_str(Role::First, "fifths g6,i6").unwrap_err();
    assert_eq!(error.to_string(), "the 5th moves g6 and i6 are symmetrical");
    let error = opening.apply_str(Role::Second, "fifths a1,b1").unwrap_err();
    assert_eq!(error.to_string(), "it is the first player's decision");
    let error = opened(TARAGUCHI, "h8; stay")
        .apply_str(Role::Second, "j10")
        .unwrap_err();
    assert_eq!(error.to_string(), "j10 is outside the central 3x3 square");
    let error = opened(TARAGUCHI, "")
        .apply_str(Role::First, "swap")
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "swap is not a choice now; expected a black stone in the centre"
    );
}
