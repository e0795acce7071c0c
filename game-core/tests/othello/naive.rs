//! A naive reference (a plain array and the eight directions, no bit tricks) and the
//! property tests that hold the rules to it.

use super::*;

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
