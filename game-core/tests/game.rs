//! `Game`: one list of steps for an opening rule's choices and the moves after them — who
//! acts, what a step did, refusals that change nothing — and the records of such games as
//! stones on the board.

use game_core::game::Game;
use game_core::opening::{OpeningPhase, Role};
use game_core::record::GameRecord;
use game_core::{Color, GameSpec, GomokuRule, OpeningRule, SpecError, StepError};

fn swap2() -> GameSpec {
    GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, OpeningRule::Swap2)
}

#[test]
fn the_opening_comes_first_then_the_moves() {
    let mut game = Game::new(&swap2()).expect("a valid spec");
    assert!(game.in_opening());
    for cell in ["h8", "j9", "i7"] {
        let step = game.play(cell).expect("a stone");
        assert_eq!((step.by, step.swapped), (Color::Black, false));
    }
    assert_eq!(game.to_act(), Color::White, "the second player decides");
    let refused = game.play("black").expect_err("not now");
    assert!(matches!(refused, StepError::Choice(_)), "{refused:?}");
    assert_eq!(game.position().ply(), 3, "a refused step changes nothing");
    let step = game.play("SWAP").expect("a swap");
    assert_eq!(
        (step.text.as_str(), step.by, step.swapped),
        ("swap", Color::White, true)
    );
    assert!(!game.in_opening());
    assert_eq!(game.opening_steps(), 4);
    assert_eq!(game.role_of(Color::Black), Role::Second);
    assert_eq!(game.to_act(), Color::White);
    let step = game.play("a1").expect("the 4th move");
    assert_eq!((step.text.as_str(), step.by), ("a1", Color::White));
    assert!(matches!(game.play("swap"), Err(StepError::Move(_))));
    assert_eq!(game.opening_view().expect("kept").phase, OpeningPhase::Over);
}

#[test]
fn a_replay_names_the_step_that_fails() {
    let steps = ["h8", "i9", "j10", "stay", "h8"];
    let (index, _) = Game::new(&swap2())
        .unwrap()
        .replay(&steps)
        .expect_err("h8 twice");
    assert_eq!(index, 4);
    let plain = Game::with_setup(&GameSpec::gomoku(15, GomokuRule::Freestyle), &["h8"]).unwrap();
    assert_eq!((plain.position().ply(), plain.to_act()), (1, Color::White));
    assert_eq!(plain.role_of(Color::Black), Role::First);
    assert_eq!(
        Game::with_setup(&swap2(), &["h8"]).expect_err("set-up moves"),
        SpecError::SetupWithOpeningRule("swap2")
    );
}

#[test]
fn a_record_from_an_opening_rule_is_written_as_its_stones() {
    let spec = GameSpec::gomoku_with_opening(15, GomokuRule::Renju, OpeningRule::Soosorv8);
    let moves: Vec<String> = [
        "h8",
        "i9",
        "j10",
        "swap",
        "g7",
        "declare 2",
        "stay",
        "fifths k5,e12",
        "choose e12",
        "a1",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let record = GameRecord {
        spec,
        moves,
        black: None,
        white: None,
        result: None,
    }
    .on_board();
    assert_eq!(record.spec, GameSpec::gomoku(15, GomokuRule::Renju));
    assert_eq!(record.moves, ["h8", "i9", "j10", "g7", "e12", "a1"]);
    let sgf = record.to_sgf().expect("the stones replay");
    assert_eq!(
        (sgf.matches(";B[").count(), sgf.matches(";W[").count()),
        (3, 3),
        "{sgf}"
    );
    assert_eq!(record.move_string(), "h8i9j10g7e12a1");
}
