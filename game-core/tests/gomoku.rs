//! Gomoku rules as properties: random games of every size and rule never panic, agree with an
//! independent scan of the board, and keep legality, play and notation consistent; parsers
//! survive any input; a full small board is a draw.

use game_core::gomoku::Gomoku;
use game_core::{Cell, Color, EndReason, GomokuRule, IllegalMoveError, Position};
use proptest::prelude::*;

const RULES: [GomokuRule; 3] = [
    GomokuRule::Freestyle,
    GomokuRule::Standard,
    GomokuRule::Renju,
];

/// The winner by brute force: every window of five cells in every direction, with the cells
/// just outside it deciding whether the run is longer than five.
fn scan_winner(pos: &Gomoku) -> Option<Color> {
    let n = i32::from(pos.size());
    let at = |c: i32, r: i32| -> Option<Color> {
        if (0..n).contains(&c) && (0..n).contains(&r) {
            pos.stone(Cell::new(c as u8, r as u8))
        } else {
            None
        }
    };
    let mut winners = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let Some(color) = at(c, r) else { continue };
                if !(1..5).all(|k| at(c + k * dc, r + k * dr) == Some(color)) {
                    continue;
                }
                let longer =
                    at(c - dc, r - dr) == Some(color) || at(c + 5 * dc, r + 5 * dr) == Some(color);
                let exact_only = match pos.rule() {
                    GomokuRule::Freestyle => false,
                    GomokuRule::Standard => true,
                    GomokuRule::Renju => color == Color::Black,
                };
                let wins = !(longer && exact_only);
                if wins && !winners.contains(&color) {
                    winners.push(color);
                }
            }
        }
    }
    assert!(winners.len() <= 1, "both sides have a five: {winners:?}");
    winners.first().copied()
}

/// Checks the outcome against the scan: winner, the reported line, and draws.
fn check_outcome(pos: &Gomoku) {
    let outcome = pos.outcome();
    match scan_winner(pos) {
        Some(color) => {
            let outcome = outcome.expect("a five on the board but no outcome");
            assert_eq!(outcome.winner, Some(color));
            assert_eq!(outcome.reason, EndReason::Five);
            let line = &outcome.line;
            assert!(line.len() >= 5);
            assert!(line.iter().all(|&c| pos.stone(c) == Some(color)));
            let exact = match pos.rule() {
                GomokuRule::Freestyle => false,
                GomokuRule::Standard => true,
                GomokuRule::Renju => color == Color::Black,
            };
            if exact {
                assert_eq!(line.len(), 5);
            }
            // One straight step between neighbours, the same all along.
            let step = |a: Cell, b: Cell| {
                (
                    i32::from(b.col) - i32::from(a.col),
                    i32::from(b.row) - i32::from(a.row),
                )
            };
            let d = step(line[0], line[1]);
            assert!(matches!(d, (1, 0) | (0, 1) | (1, 1) | (1, -1)), "{d:?}");
            assert!(line.windows(2).all(|w| step(w[0], w[1]) == d));
        }
        None => {
            let empties = pos.cells().iter().filter(|s| s.is_none()).count();
            let black_stuck = pos.rule() == GomokuRule::Renju
                && pos.turn() == Color::Black
                && pos.forbidden_points().len() == empties;
            if empties == 0 || black_stuck {
                let outcome = outcome.expect("nothing left to play but no outcome");
                assert_eq!(outcome.winner, None);
                assert_eq!(outcome.reason, EndReason::Full);
                assert!(outcome.line.is_empty());
            } else {
                assert_eq!(outcome, None);
            }
        }
    }
}

fn game_strategy() -> impl Strategy<Value = (u8, GomokuRule, Vec<usize>)> {
    (5u8..=19, 0usize..3).prop_flat_map(|(size, rule)| {
        let cells = usize::from(size) * usize::from(size);
        (
            Just(size),
            Just(RULES[rule]),
            proptest::collection::vec(any::<usize>(), 0..=cells),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_games_stay_consistent((size, rule, choices) in game_strategy()) {
        let mut pos = Gomoku::new(size, rule).unwrap();
        let all: Vec<Cell> = (0..size)
            .flat_map(|r| (0..size).map(move |c| Cell::new(c, r)))
            .collect();
        for (ply, &choice) in choices.iter().enumerate() {
            prop_assert_eq!(pos.ply(), ply);
            prop_assert_eq!(pos.turn(), Color::from_ply(ply));
            check_outcome(&pos);
            let legal = pos.legal_moves();
            prop_assert_eq!(legal.is_empty(), pos.is_over());

            // Legality agrees with the list: on every cell of small boards, on a sample of
            // big ones, and off the board.
            let sample: Vec<Cell> = if size <= 9 {
                all.clone()
            } else {
                (0..8).map(|k| all[choice.wrapping_add(k * 7919) % all.len()]).collect()
            };
            for &c in &sample {
                let verdict = pos.is_legal(c);
                prop_assert_eq!(verdict.is_ok(), legal.contains(&c), "{} {:?}", c, verdict);
                if let Err(error) = verdict {
                    let failed = pos.clone().play(c).unwrap_err();
                    prop_assert_eq!(&failed.position, &pos);
                    prop_assert_eq!(failed.error, error);
                }
            }
            let off = Cell::new(size, choice as u8 % size);
            let failed = pos.clone().play(off).unwrap_err();
            prop_assert_eq!(&failed.position, &pos);
            if !pos.is_over() {
                prop_assert_eq!(failed.error, IllegalMoveError::OutOfBoard(off.to_string()));
            }

            if legal.is_empty() {
                break;
            }
            // Every legal move plays (all of them on small boards).
            let tried: Vec<Cell> = if size <= 7 { legal.clone() } else { vec![legal[0], legal[legal.len() - 1]] };
            for &m in &tried {
                let next = pos.clone().play(m).unwrap();
                prop_assert_eq!(next.stone(m), Some(pos.turn()));
            }

            let m = legal[choice % legal.len()];
            let text = m.to_string();
            prop_assert_eq!(text.parse::<Cell>(), Ok(m));
            prop_assert_eq!(pos.parse_move(&text), Ok(m));
            prop_assert_eq!(pos.parse_move(&text.to_uppercase()), Ok(m));
            let mover = pos.turn();
            pos = pos.play(m).unwrap();
            prop_assert_eq!(pos.stone(m), Some(mover));
        }
        check_outcome(&pos);
    }

    #[test]
    fn cell_notation_round_trips(col in 0u8..26, row in 0u8..99) {
        let cell = Cell::new(col, row);
        prop_assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
    }

    #[test]
    fn move_parsers_survive_any_string(text in any::<String>(), size in 5u8..=26) {
        parse_anything(&text, size);
    }

    #[test]
    fn move_parsers_survive_any_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..8), size in 5u8..=26) {
        parse_anything(&String::from_utf8_lossy(&bytes), size);
    }

    #[test]
    fn move_parsers_survive_near_misses(text in "[ a-zA-Z0-9+-]{0,5}", size in 5u8..=26) {
        parse_anything(&text, size);
    }
}

fn parse_anything(text: &str, size: u8) {
    if let Ok(cell) = text.parse::<Cell>() {
        // Whatever parses prints as a cell that parses back to itself.
        assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
    }
    for rule in RULES {
        let pos = Gomoku::new(size, rule).unwrap();
        if let Ok(m) = pos.parse_move(text) {
            assert!(m.col < size && m.row < size);
        }
    }
}

/// A 5x5 colouring with 13 black and 12 white stones and no five in any line:
///
/// ```text
/// 5  X X O O X
/// 4  O O X X O
/// 3  X X O O X
/// 2  O O X X O
/// 1  X X O O X
///    a b c d e
/// ```
const DRAWN_5X5: [&str; 5] = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];

/// Plays the target colouring in an order where every black move is legal (renju can forbid
/// some), by depth-first search over the remaining cells of the side to move.
fn fill(pos: &Gomoku, black: &mut Vec<Cell>, white: &mut Vec<Cell>) -> Option<Gomoku> {
    if black.is_empty() && white.is_empty() {
        return Some(pos.clone());
    }
    let mine = if pos.turn() == Color::Black {
        black.clone()
    } else {
        white.clone()
    };
    for m in mine {
        let Ok(next) = pos.clone().play(m) else {
            continue;
        };
        let list = if pos.turn() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        list.retain(|&c| c != m);
        if let Some(done) = fill(&next, black, white) {
            return Some(done);
        }
        let list = if pos.turn() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        list.push(m);
    }
    None
}

#[test]
fn full_5x5_board_is_a_draw_under_every_rule() {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (r, line) in DRAWN_5X5.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            let cell = Cell::new(c as u8, r as u8);
            match ch {
                'X' => black.push(cell),
                _ => white.push(cell),
            }
        }
    }
    assert_eq!((black.len(), white.len()), (13, 12));
    for rule in RULES {
        let start = Gomoku::new(5, rule).unwrap();
        let full = fill(&start, &mut black.clone(), &mut white.clone())
            .unwrap_or_else(|| panic!("no legal order for {rule:?}"));
        assert_eq!(full.ply(), 25);
        let outcome = full.outcome().unwrap();
        assert_eq!(outcome.winner, None);
        assert_eq!(outcome.reason, EndReason::Full);
        assert!(outcome.line.is_empty());
        assert!(full.legal_moves().is_empty());
        assert_eq!(
            full.is_legal(Cell::new(0, 0)),
            Err(IllegalMoveError::GameOver)
        );
    }
}

#[test]
fn errors_for_off_board_occupied_and_finished_games() {
    let pos = Gomoku::new(15, GomokuRule::Standard).unwrap();
    assert_eq!(
        pos.is_legal(Cell::new(15, 0)),
        Err(IllegalMoveError::OutOfBoard("p1".into()))
    );
    let pos = pos.play("h8".parse().unwrap()).unwrap();
    assert_eq!(
        pos.is_legal("h8".parse().unwrap()),
        Err(IllegalMoveError::Occupied("h8".into()))
    );
    let moves: Vec<Cell> = "h8 a1 h9 a2 h10 a3 h11 a4 h12"
        .split(' ')
        .map(|m| m.parse().unwrap())
        .collect();
    let won = Gomoku::from_moves(15, GomokuRule::Standard, &moves).unwrap();
    let outcome = won.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    let line: Vec<String> = outcome.line.iter().map(ToString::to_string).collect();
    assert_eq!(line, ["h8", "h9", "h10", "h11", "h12"]);
    assert_eq!(
        won.is_legal(Cell::new(20, 20)),
        Err(IllegalMoveError::GameOver)
    );
    assert!(won.legal_moves().is_empty());
}

#[test]
fn opening_moves_are_checked() {
    let bad = ["h8", "h8"].map(|m| m.parse::<Cell>().unwrap());
    let err = Gomoku::from_moves(15, GomokuRule::Renju, &bad).unwrap_err();
    assert!(matches!(
        err,
        game_core::SpecError::Opening { index: 1, .. }
    ));
}
