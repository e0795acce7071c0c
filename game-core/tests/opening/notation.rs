//! The notation of choices, and the game spec with and without an opening rule.

use super::*;

#[test]
fn choices_round_trip_through_their_text() {
    let cases = [
        ("h8", OpeningChoice::Place(cell("h8"))),
        ("swap", OpeningChoice::Swap),
        ("stay", OpeningChoice::Stay),
        ("black", OpeningChoice::Color(Color::Black)),
        ("white", OpeningChoice::Color(Color::White)),
        ("declare 8", OpeningChoice::Declare(8)),
        (
            "fifths h8,j9,o15",
            OpeningChoice::Fifths(vec![cell("h8"), cell("j9"), cell("o15")]),
        ),
        ("choose j9", OpeningChoice::Choose(cell("j9"))),
    ];
    for (text, choice) in cases {
        assert_eq!(text.parse::<OpeningChoice>().unwrap(), choice, "{text}");
        assert_eq!(choice.to_string(), text);
    }
    // Other spellings read the same and are written canonically.
    let loose = [
        ("  H8 ", "h8"),
        ("SWAP", "swap"),
        ("Stay\n", "stay"),
        ("declare\t3", "declare 3"),
        ("Fifths H8, j9 ,K10", "fifths h8,j9,k10"),
        ("CHOOSE   J9", "choose j9"),
    ];
    for (text, canonical) in loose {
        let choice: OpeningChoice = text.parse().unwrap();
        assert_eq!(choice.to_string(), canonical, "{text:?}");
    }
}

#[test]
fn syntax_errors_are_not_choices() {
    let bad = [
        ("", "empty choice"),
        ("   ", "empty choice"),
        ("swap now", "this choice takes no argument"),
        ("black h8", "this choice takes no argument"),
        ("declare", "declare takes a number"),
        ("declare x", "declare takes a number"),
        ("declare -1", "declare takes a number"),
        ("declare 07", "a number has no leading zero"),
        ("declare 300", "the number is too large"),
        ("fifths", "fifths takes a list of cells"),
        ("fifths h8,,j9", "empty move"),
        ("fifths h8 j9", "expected a row number after the letter"),
        ("choose", "choose takes a cell"),
        ("choose 8h", "expected a column letter a-z"),
        (
            "pass",
            "expected a cell, swap, stay, black, white, declare N, fifths or choose",
        ),
        (
            "8h",
            "expected a cell, swap, stay, black, white, declare N, fifths or choose",
        ),
        ("h8 i9", "unknown choice"),
    ];
    for (text, reason) in bad {
        let error = text.parse::<OpeningChoice>().unwrap_err();
        assert_eq!(error, ParseChoiceError::new(text, reason), "{text:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The spec
// ---------------------------------------------------------------------------------------------

#[test]
fn specs_without_an_opening_rule_read_and_write_as_before() {
    let plain: GameSpec =
        serde_json::from_str(r#"{"kind":"gomoku","size":15,"rule":"renju"}"#).unwrap();
    assert_eq!(plain, GameSpec::gomoku(15, GomokuRule::Renju));
    assert_eq!(plain.opening_rule(), None);
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        r#"{"kind":"gomoku","size":15,"rule":"renju"}"#
    );
    let null: GameSpec = serde_json::from_str(r#"{"kind":"gomoku","opening_rule":null}"#).unwrap();
    assert_eq!(null, GameSpec::gomoku(15, GomokuRule::Freestyle));
    assert_eq!(plain.label(), "gomoku 15x15 renju");
    assert!(AnyPosition::new(&plain).is_ok());
}

#[test]
fn specs_with_an_opening_rule_round_trip() {
    let cases = [
        (
            r#"{"kind":"gomoku","size":15,"rule":"freestyle","opening_rule":"swap2"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, SWAP2),
        ),
        (
            r#"{"kind":"gomoku","size":20,"rule":"standard","opening_rule":"swap2"}"#,
            GameSpec::gomoku_with_opening(20, GomokuRule::Standard, SWAP2),
        ),
        (
            r#"{"kind":"gomoku","size":15,"rule":"renju","opening_rule":"soosorv8"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Renju, SOOSORV),
        ),
        (
            r#"{"kind":"gomoku","size":15,"rule":"renju","opening_rule":"taraguchi10"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Renju, TARAGUCHI),
        ),
    ];
    for (json, spec) in cases {
        let read: GameSpec = serde_json::from_str(json).unwrap();
        assert_eq!(read, spec);
        assert_eq!(serde_json::to_string(&spec).unwrap(), json);
        assert!(spec.validate().is_ok(), "{json}");
        assert!(Opening::new(&spec).is_ok(), "{json}");
        // A plain position is refused: the game starts with its opening.
        assert!(matches!(
            AnyPosition::new(&spec),
            Err(SpecError::OpeningRuleNotRun(_))
        ));
    }
    assert_eq!(
        GameSpec::gomoku_with_opening(15, GomokuRule::Renju, SOOSORV).label(),
        "gomoku 15x15 renju soosorv8"
    );
    assert!(serde_json::from_str::<GameSpec>(r#"{"kind":"gomoku","opening_rule":"pro"}"#).is_err());
}

#[test]
fn an_opening_rule_must_belong_to_its_game() {
    let cases = [
        (15, GomokuRule::Renju, SWAP2),
        (13, GomokuRule::Freestyle, SWAP2),
        (15, GomokuRule::Freestyle, SOOSORV),
        (19, GomokuRule::Renju, SOOSORV),
        (15, GomokuRule::Standard, TARAGUCHI),
        (14, GomokuRule::Renju, TARAGUCHI),
    ]
    .map(|(size, rule, opening)| {
        let needs = match opening {
            OpeningRule::Swap2 => "freestyle or standard gomoku on 15x15 or larger",
            OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => "renju on 15x15",
        };
        let error = SpecError::OpeningRuleMismatch {
            opening: opening.as_str(),
            needs,
        };
        (GameSpec::gomoku_with_opening(size, rule, opening), error)
    });
    for (spec, error) in cases {
        assert_eq!(spec.validate(), Err(error.clone()), "{}", spec.label());
        assert_eq!(Opening::new(&spec), Err(error));
    }
    // The size is checked first, as before.
    assert_eq!(
        GameSpec::gomoku_with_opening(27, GomokuRule::Freestyle, SWAP2).validate(),
        Err(SpecError::GomokuSize(27))
    );
    assert_eq!(
        Opening::new(&GameSpec::gomoku(15, GomokuRule::Renju)),
        Err(SpecError::NoOpeningRule)
    );
    assert_eq!(
        Opening::new(&GameSpec::Othello),
        Err(SpecError::NoOpeningRule)
    );
}

#[test]
fn a_replay_names_the_choice_that_fails() {
    let error = Opening::replay(&spec(TARAGUCHI), &["h8", "stay", "h10"]).unwrap_err();
    assert_eq!(
        error,
        ReplayError::Choice {
            index: 2,
            error: ChoiceError::Illegal(OpeningError::OutsideArea {
                cell: cell("h10"),
                area: Area::Central(3)
            })
        }
    );
    let over = Opening::replay(&spec(SWAP2), &["h8", "i9", "j8", "stay", "k9"]).unwrap_err();
    assert!(matches!(
        over,
        ReplayError::Choice {
            index: 4,
            error: ChoiceError::Illegal(OpeningError::Over)
        }
    ));
    let bad_spec = GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, SOOSORV);
    assert!(matches!(
        Opening::replay::<&str>(&bad_spec, &[]),
        Err(ReplayError::Spec(_))
    ));
}

#[test]
fn the_view_is_what_a_client_draws() {
    let opening = opened(
        SOOSORV,
        "h8; h9; j10; swap; k12; declare 3; stay; fifths a1,b2,o15",
    );
    let json = serde_json::to_string(&opening.view()).unwrap();
    assert_eq!(
        json,
        r#"{"rule":"soosorv8","phase":"choose","to_act":"first","black":"second","legal":[{"kind":"choose_fifth"}],"declared":3,"proposals":["a1","b2","o15"]}"#
    );
    let start = serde_json::to_string(&opened(TARAGUCHI, TARAGUCHI_AT_FIFTH).view()).unwrap();
    assert_eq!(
        start,
        r#"{"rule":"taraguchi10","phase":"fifth","to_act":"first","black":"first","legal":[{"kind":"place","color":"black","count":1,"area":{"central":9}},{"kind":"propose_fifths","n":10,"area":"board"}]}"#
    );
    let over = opened(SWAP2, "h8; i9; j8; swap").view();
    assert_eq!(over.to_act, None);
    assert!(over.legal.is_empty());
    let back: game_core::opening::OpeningView = serde_json::from_str(&json).unwrap();
    assert_eq!(back, opening.view());
}
