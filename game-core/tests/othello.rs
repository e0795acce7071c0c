//! Othello rules: perft from the start, passes and endings, the FFO text, and property tests
//! against a naive array-based reference written here.

use game_core::othello::{self, Othello, OthelloMove};
use game_core::{Cell, Color, EndReason, IllegalMoveError, MoveError, Position, Score};
use proptest::prelude::*;

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
// Naive reference: a plain array and the eight directions, no bit tricks.

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Naive {
    /// `board[row][col]`, row 0 the top row.
    board: [[Option<Color>; 8]; 8],
    turn: Color,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

impl Naive {
    fn of(p: &Othello) -> Naive {
        let mut board = [[None; 8]; 8];
        for (row, line) in board.iter_mut().enumerate() {
            for (col, sq) in line.iter_mut().enumerate() {
                *sq = p.get(Cell::new(col as u8, row as u8));
            }
        }
        Naive {
            board,
            turn: p.turn(),
        }
    }

    fn at(&self, col: i32, row: i32) -> Option<Option<Color>> {
        if (0..8).contains(&col) && (0..8).contains(&row) {
            Some(self.board[row as usize][col as usize])
        } else {
            None
        }
    }

    /// The cells `side` would flip by playing the empty cell (col, row).
    fn flips(&self, side: Color, col: i32, row: i32) -> Vec<(i32, i32)> {
        let mut all = Vec::new();
        if self.at(col, row) != Some(None) {
            return all;
        }
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (col + dc, row + dr);
            while self.at(c, r) == Some(Some(side.other())) {
                run.push((c, r));
                c += dc;
                r += dr;
            }
            if self.at(c, r) == Some(Some(side)) {
                all.extend(run);
            }
        }
        all
    }

    fn moves(&self, side: Color) -> Vec<(i32, i32)> {
        let mut moves = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                if !self.flips(side, col, row).is_empty() {
                    moves.push((col, row));
                }
            }
        }
        moves
    }

    fn over(&self) -> bool {
        self.moves(Color::Black).is_empty() && self.moves(Color::White).is_empty()
    }

    fn discs(&self, side: Color) -> u8 {
        self.board
            .iter()
            .flatten()
            .filter(|&&s| s == Some(side))
            .count() as u8
    }

    /// Winner and final score, counting empties by hand.
    fn outcome(&self) -> Option<(Option<Color>, Score)> {
        if !self.over() {
            return None;
        }
        let (b, w) = (self.discs(Color::Black), self.discs(Color::White));
        let e = 64 - b - w;
        Some(if b > w {
            (
                Some(Color::Black),
                Score {
                    black: b + e,
                    white: w,
                },
            )
        } else if w > b {
            (
                Some(Color::White),
                Score {
                    black: b,
                    white: w + e,
                },
            )
        } else {
            (
                None,
                Score {
                    black: 32,
                    white: 32,
                },
            )
        })
    }

    fn play(&mut self, m: OthelloMove) {
        if let OthelloMove::Place(c) = m {
            let (col, row) = (i32::from(c.col), i32::from(c.row));
            for (fc, fr) in self.flips(self.turn, col, row) {
                self.board[fr as usize][fc as usize] = Some(self.turn);
            }
            self.board[row as usize][col as usize] = Some(self.turn);
        }
        self.turn = self.turn.other();
    }

    /// What `is_legal` must answer, derived from the rules as written in the brief.
    fn legality(&self, m: OthelloMove) -> Result<(), IllegalMoveError> {
        if self.over() {
            return Err(IllegalMoveError::GameOver);
        }
        let moves = self.moves(self.turn);
        match m {
            OthelloMove::Pass if moves.is_empty() => Ok(()),
            OthelloMove::Pass => Err(IllegalMoveError::PassNotAllowed),
            OthelloMove::Place(c) => {
                let (col, row) = (i32::from(c.col), i32::from(c.row));
                match self.at(col, row) {
                    None => Err(IllegalMoveError::OutOfBoard(m.to_string())),
                    Some(_) if moves.is_empty() => Err(IllegalMoveError::MustPass),
                    Some(Some(_)) => Err(IllegalMoveError::Occupied(m.to_string())),
                    Some(None) if !moves.contains(&(col, row)) => {
                        Err(IllegalMoveError::NoFlip(m.to_string()))
                    }
                    Some(None) => Ok(()),
                }
            }
        }
    }
}

/// Checks the bitboard position against the naive one: moves, flips of every empty square,
/// legality of a probe move and the outcome.
fn check_against_naive(p: &Othello, probe: OthelloMove) {
    let naive = Naive::of(p);
    assert_eq!(naive.turn, p.turn());

    let mut expected: Vec<OthelloMove> = naive
        .moves(p.turn())
        .into_iter()
        .map(|(c, r)| OthelloMove::Place(Cell::new(c as u8, r as u8)))
        .collect();
    if expected.is_empty() && !naive.over() {
        expected.push(OthelloMove::Pass);
    }
    let mut got = p.legal_moves();
    got.sort_by_key(|m| match m {
        OthelloMove::Place(c) => (c.row, c.col),
        OthelloMove::Pass => (9, 9),
    });
    assert_eq!(got, expected, "legal moves of {}", p.to_text());

    for square in 0..64u32 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        if naive.at(col, row) == Some(None) {
            let mask = naive
                .flips(p.turn(), col, row)
                .into_iter()
                .fold(0u64, |m, (c, r)| m | 1 << (r * 8 + c));
            assert_eq!(
                p.flips(square),
                mask,
                "flips of square {square} in {}",
                p.to_text()
            );
        }
    }

    let outcome = p.outcome();
    match naive.outcome() {
        None => assert!(outcome.is_none(), "{} is not over", p.to_text()),
        Some((winner, score)) => {
            let outcome = outcome.expect("game over");
            assert_eq!(outcome.winner, winner);
            assert_eq!(outcome.score, Some(score));
            assert_eq!(outcome.reason, EndReason::Count);
            assert!(outcome.line.is_empty());
        }
    }

    let verdict = naive.legality(probe);
    assert_eq!(p.is_legal(probe), verdict, "{probe} in {}", p.to_text());
    match p.clone().play(probe) {
        Ok(next) => {
            assert!(verdict.is_ok());
            let mut after = naive;
            after.play(probe);
            assert_eq!(Naive::of(&next), after);
            assert_eq!(next.ply(), p.ply() + 1);
        }
        Err(e) => {
            assert_eq!(&e.position, p, "a refused move changes nothing");
            assert_eq!(Err(e.error), verdict);
        }
    }
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

// ---------------------------------------------------------------------------------------------
// Property tests

fn probe_move() -> impl Strategy<Value = OthelloMove> {
    prop_oneof![
        1 => Just(OthelloMove::Pass),
        9 => (0u8..10, 0u8..10).prop_map(|(c, r)| OthelloMove::Place(Cell::new(c, r))),
    ]
}

proptest! {
    #[test]
    fn random_games_agree_with_naive_rules(
        choices in prop::collection::vec(any::<u16>(), 0..70),
        probes in prop::collection::vec(probe_move(), 70),
    ) {
        let mut p = Othello::new();
        for (i, &choice) in choices.iter().enumerate() {
            check_against_naive(&p, probes[i]);
            let moves = p.legal_moves();
            if moves.is_empty() {
                prop_assert!(p.is_over());
                break;
            }
            for &m in &moves {
                prop_assert_eq!(p.is_legal(m), Ok(()));
                prop_assert!(p.clone().play(m).is_ok());
            }
            let m = moves[usize::from(choice) % moves.len()];
            let before = p.clone();
            p.play_unchecked(m);
            prop_assert_eq!(p.ply(), before.ply() + 1);
            prop_assert_eq!(p.turn(), before.turn().other());
            let total = p.count().black + p.count().white;
            let expected = before.count().black + before.count().white
                + u8::from(m != OthelloMove::Pass);
            prop_assert_eq!(total, expected);
            let reread = Othello::from_text(&p.to_text()).unwrap();
            prop_assert_eq!(reread.bitboards(), p.bitboards());
            prop_assert_eq!(reread.turn(), p.turn());
        }
        check_against_naive(&p, probes[69]);
    }

    #[test]
    fn move_text_round_trip(col in 0u8..26, row in 0u8..99, pass in any::<bool>()) {
        let m = if pass { OthelloMove::Pass } else { OthelloMove::Place(Cell::new(col, row)) };
        prop_assert_eq!(m.to_string().parse::<OthelloMove>(), Ok(m));
        prop_assert_eq!(m.to_string().to_uppercase().parse::<OthelloMove>(), Ok(m));
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,80}") {
        let _ = text.parse::<OthelloMove>();
        let _ = Othello::from_text(&text);
        let _ = Othello::new().parse_move(&text);
        let _ = pos(&board(&["a1"], &["b1"], 'O')).parse_move(&text);
    }

    #[test]
    fn board_like_text_never_panics(text in "[XO.\\- ]{60,70}[ \t]?[XOxo.]?.{0,5}") {
        if let Ok(p) = Othello::from_text(&text) {
            prop_assert_eq!(Othello::from_text(&p.to_text()), Ok(p.clone()));
            let _ = p.legal_moves();
            let _ = p.outcome();
            prop_assert!(p.ply() <= 60);
        }
    }
}
