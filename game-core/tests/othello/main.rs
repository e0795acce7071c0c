//! Othello rules: perft from the start, passes and endings, the FFO text, and property tests
//! against a naive array-based reference written here.

use game_core::othello::{self, Othello, OthelloMove};
use game_core::{Cell, Color, EndReason, IllegalMoveError, MoveError, Position, Score};
use proptest::prelude::*;

mod naive;

const START_TEXT: &str = "---------------------------OX------XO--------------------------- X";

fn cell(text: &str) -> Cell {
    text.parse().unwrap()
}

fn place(text: &str) -> OthelloMove {
    OthelloMove::Place(cell(text))
}

fn pos(text: &str) -> Othello {
    Othello::from_text(text).unwrap()
}

/// A board text from the squares of each colour, everything else empty.
fn board(black: &[&str], white: &[&str], turn: char) -> String {
    let mut squares = ['-'; 64];
    for (list, c) in [(black, 'X'), (white, 'O')] {
        for name in list {
            let cell = cell(name);
            squares[usize::from(cell.row) * 8 + usize::from(cell.col)] = c;
        }
    }
    let mut text: String = squares.iter().collect();
    text.push(' ');
    text.push(turn);
    text
}

// ---------------------------------------------------------------------------------------------
// Perft

/// Perft through the `Position` trait, to check it against the fast bitboard one.
fn slow_perft(p: &Othello, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.legal_moves();
    if moves.is_empty() {
        return 1;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut next = p.clone();
            next.play_unchecked(m);
            slow_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn perft_from_the_start() {
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284];
    let start = Othello::new();
    for (depth, &count) in (1..).zip(expected.iter()) {
        assert_eq!(start.perft(depth), count, "perft({depth})");
    }
    for (depth, &count) in (1..=6).zip(expected.iter()) {
        assert_eq!(slow_perft(&start, depth), count, "slow perft({depth})");
    }
}

#[test]
fn free_functions_match_methods() {
    let p = Othello::new();
    let (mover, opponent) = p.mover_bitboards();
    assert_eq!(p.bitboards(), (mover, opponent));
    assert_eq!(othello::legal_mask(mover, opponent), p.legal_mask());
    assert_eq!(othello::perft(mover, opponent, 5), 1396);
    // f5 flips e5 only.
    assert_eq!(othello::flips(mover, opponent, 37), 1 << 36);
    assert_eq!(othello::flips(mover, opponent, 64), 0);
    assert_eq!(othello::flips(mover, opponent, u32::MAX), 0);
}

// ---------------------------------------------------------------------------------------------
// Start position and move errors

#[test]
fn start_position() {
    let p = Othello::new();
    assert_eq!(p, Othello::default());
    assert_eq!(p.to_text(), START_TEXT);
    assert_eq!(pos(START_TEXT), p);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.ply(), 0);
    assert_eq!(p.count(), Score { black: 2, white: 2 });
    assert_eq!(p.get(cell("d4")), Some(Color::White));
    assert_eq!(p.get(cell("e5")), Some(Color::White));
    assert_eq!(p.get(cell("d5")), Some(Color::Black));
    assert_eq!(p.get(cell("e4")), Some(Color::Black));
    assert_eq!(p.get(cell("a1")), None);
    assert_eq!(p.get(cell("i1")), None);
    assert_eq!(
        p.legal_moves(),
        vec![place("d3"), place("c4"), place("f5"), place("e6")]
    );
    assert!(p.outcome().is_none());

    let next = p.play(place("f5")).unwrap();
    assert_eq!(next.get(cell("e5")), Some(Color::Black));
    assert_eq!(next.count(), Score { black: 4, white: 1 });
    assert_eq!(next.turn(), Color::White);
    assert_eq!(next.ply(), 1);
}

#[test]
fn move_errors() {
    let p = Othello::new();
    let illegal = |text: &str| match p.parse_move(text) {
        Err(MoveError::Illegal(e)) => e,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(illegal("d4"), IllegalMoveError::Occupied("d4".into()));
    assert_eq!(illegal("a1"), IllegalMoveError::NoFlip("a1".into()));
    assert_eq!(illegal("i3"), IllegalMoveError::OutOfBoard("i3".into()));
    assert_eq!(illegal("a9"), IllegalMoveError::OutOfBoard("a9".into()));
    assert_eq!(illegal("pass"), IllegalMoveError::PassNotAllowed);
    assert_eq!(p.parse_move(" F5 "), Ok(place("f5")));
    for bad in ["", "f", "5f", "f0", "pas", "f5 e6", "ä1"] {
        assert!(
            matches!(p.parse_move(bad), Err(MoveError::Parse(_))),
            "{bad:?} is not a move"
        );
    }
    // An off-board cell given to play_unchecked changes nothing on the board.
    let mut q = p.clone();
    q.play_unchecked(OthelloMove::Place(Cell::new(200, 200)));
    assert_eq!(q.bitboards(), p.bitboards());
}

#[test]
fn move_text() {
    assert_eq!("f5".parse(), Ok(place("f5")));
    assert_eq!("PASS".parse(), Ok(OthelloMove::Pass));
    assert_eq!(place("f5").to_string(), "f5");
    assert_eq!(OthelloMove::Pass.to_string(), "pass");
    assert!("".parse::<OthelloMove>().is_err());
    assert!("passe".parse::<OthelloMove>().is_err());
}

// ---------------------------------------------------------------------------------------------
// Passes and endings

#[test]
fn forced_pass() {
    // White has no move; black can play c1.
    let p = pos(&board(&["a1"], &["b1"], 'O'));
    assert_eq!(p.legal_moves(), vec![OthelloMove::Pass]);
    assert_eq!(p.is_legal(place("c1")), Err(IllegalMoveError::MustPass));
    assert_eq!(p.is_legal(place("b1")), Err(IllegalMoveError::MustPass));
    assert_eq!(
        p.is_legal(place("i1")),
        Err(IllegalMoveError::OutOfBoard("i1".into()))
    );
    assert!(p.outcome().is_none());
    let refused = p.clone().play(place("c1")).unwrap_err();
    assert_eq!(refused.position, p);

    let passed = p.play(OthelloMove::Pass).unwrap();
    assert_eq!(passed.turn(), Color::Black);
    assert_eq!(passed.ply(), 1);
    assert_eq!(passed.legal_moves(), vec![place("c1")]);

    // Black takes b1 and white is wiped out: 3 discs plus 61 empties.
    let end = passed.play(place("c1")).unwrap();
    assert_eq!(end.count(), Score { black: 3, white: 0 });
    assert!(end.legal_moves().is_empty());
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.reason, EndReason::Count);
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 64,
            white: 0
        })
    );
    assert_eq!(
        end.is_legal(OthelloMove::Pass),
        Err(IllegalMoveError::GameOver)
    );
    assert_eq!(end.is_legal(place("d1")), Err(IllegalMoveError::GameOver));
    assert_eq!(end.ply(), 2);
}

#[test]
fn wipe_out_from_the_start() {
    // One of the shortest games: white has no disc after nine moves.
    let mut p = Othello::new();
    for m in ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"] {
        assert!(!p.is_over(), "over before {m}");
        p = p.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(
        p.count(),
        Score {
            black: 13,
            white: 0
        }
    );
    assert_eq!(p.ply(), 9);
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 64,
            white: 0
        })
    );
    assert!(p.legal_moves().is_empty());
}

#[test]
fn double_pass_ending_with_empties() {
    // Nobody can flank anything, yet 61 squares are empty.
    let p = pos(&board(&["a1", "b1"], &["h8"], 'X'));
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.is_legal(OthelloMove::Pass),
        Err(IllegalMoveError::GameOver)
    );
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 63,
            white: 1
        })
    );

    let p = pos(&board(&["a1"], &["h8", "g8"], 'O'));
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 1,
            white: 63
        })
    );
}

/// Black 40, white 20 and 4 empties in the a1-b2 corner that no line from white can reach.
fn forty_twenty_four() -> String {
    let empty = ["a1", "b1", "a2", "b2"];
    // Every ray from the empty corner runs along rows 1-2, columns a-b, a3, or one of three
    // diagonals; white takes all the other squares.
    let reached = [
        "c3", "d4", "e5", "f6", "g7", "h8", "c4", "d5", "e6", "f7", "g8", "d3", "e4", "f5", "g6",
        "h7",
    ];
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for row in 0..8u8 {
        for col in 0..8u8 {
            let name = Cell::new(col, row).to_string();
            if empty.contains(&name.as_str()) {
                continue;
            }
            if row >= 2 && col >= 2 && !reached.contains(&name.as_str()) {
                white.push(name);
            } else {
                black.push(name);
            }
        }
    }
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    board(&black, &white, 'O')
}

#[test]
fn empties_go_to_the_winner() {
    let p = pos(&forty_twenty_four());
    assert_eq!(
        p.count(),
        Score {
            black: 40,
            white: 20
        }
    );
    assert!(p.legal_moves().is_empty());
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 44,
            white: 20
        })
    );
}

#[test]
fn draws() {
    // Equal discs with empties: the empties are split equally.
    let p = pos(&board(&["a1"], &["h8"], 'X'));
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 32,
            white: 32
        })
    );

    // A full board, rows alternating.
    let text: String = (0..8)
        .map(|row| if row % 2 == 0 { "XXXXXXXX" } else { "OOOOOOOO" })
        .collect::<String>()
        + " O";
    let p = pos(&text);
    assert_eq!(
        p.count(),
        Score {
            black: 32,
            white: 32
        }
    );
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 32,
            white: 32
        })
    );

    // A full board won 33-31.
    let p = pos(&(text[..8].to_string() + "X" + &text[9..]));
    let outcome = p.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(
        outcome.score,
        Some(Score {
            black: 33,
            white: 31
        })
    );
}

// ---------------------------------------------------------------------------------------------
// FFO text

#[test]
fn text_round_trip_and_ply() {
    let mut p = Othello::new();
    for m in ["f5", "d6", "c3", "d3", "c4"] {
        p = p.play(m.parse().unwrap()).unwrap();
    }
    let text = p.to_text();
    assert_eq!(text.len(), 66);
    let q = pos(&text);
    assert_eq!(q, p);
    assert_eq!(q.ply(), 5, "ply is discs - 4");
    assert_eq!(q.to_text(), text);
}

#[test]
fn test_suite_line_format() {
    // Our own position in the layout of the FFO suite lines: dots for empties allowed, the
    // side to move followed by a semicolon and the scored moves.
    let line = "--XXXXX--OOOXX-O-OOOOXOOOOOOXOXXOOOOOXXXOO.OOOOXX--.OOOOX--OOOO- X; G8:+10; B2:+8;";
    let p = pos(line);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.get(cell("c1")), Some(Color::Black));
    assert_eq!(p.get(cell("b2")), Some(Color::White));
    assert_eq!(p.get(cell("c6")), None);
    assert_eq!(
        p.count(),
        Score {
            black: 17,
            white: 34
        }
    );
    assert_eq!(p.to_text(), line[..66].replace('.', "-"));
    assert!(pos(&(line[..65].to_string() + "O")).turn() == Color::White);
    assert!(pos(&format!("{}\tX\r\n", &START_TEXT[..64])).turn() == Color::Black);
}

#[test]
fn bad_text() {
    let start = &START_TEXT[..64];
    let cases = [
        String::new(),
        "X".to_string(),
        start[..63].to_string() + " X",
        start.to_string(),
        start.to_string() + "X",
        start.to_string() + " ",
        start.to_string() + " x",
        start.to_string() + " B",
        start.replacen('-', "x", 1) + " X",
        start.replacen('-', "é", 1) + " X",
        start.replacen('-', "0", 1) + " X",
    ];
    for text in &cases {
        match Othello::from_text(text) {
            Err(game_core::SpecError::PositionText(reason)) => assert!(!reason.is_empty()),
            other => panic!("{text:?} gave {other:?}"),
        }
    }
}

#[test]
fn bitboards_round_trip() {
    let p = pos(&forty_twenty_four());
    let (black, white) = p.bitboards();
    assert_eq!(Othello::from_bitboards(black, white, Color::White), Ok(p));
    assert!(Othello::from_bitboards(1, 3, Color::Black).is_err());
}
