//! Connect Four rules: perft and position counts against a naive second implementation and
//! OEIS A212693, blocked cells, the wide bitboard, draws, and the text formats.

use std::collections::{BTreeSet, HashSet};

use game_core::connect4::{
    format_move_string, parse_move_string, BitSet, CellState, Column, ConnectFour, WideBits,
};
use game_core::{Cell, Color, EndReason, IllegalMoveError, Position, SpecError};
use proptest::prelude::*;

/// A deliberately plain Connect Four: a 2D grid, stones dropped by scanning a column from the
/// bottom, fours found by scanning the whole board. Shares no code with the library.
#[derive(Clone)]
struct Naive {
    cols: usize,
    rows: usize,
    /// `grid[col][row]`, row 0 at the bottom.
    grid: [[Square; 12]; 12],
    black_to_move: bool,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Square {
    Empty,
    Blocked,
    Black,
    White,
}

impl Naive {
    fn new(cols: usize, rows: usize, blocked: &[(usize, usize)]) -> Naive {
        let mut grid = [[Square::Empty; 12]; 12];
        for &(c, r) in blocked {
            grid[c][r] = Square::Blocked;
        }
        Naive {
            cols,
            rows,
            grid,
            black_to_move: true,
        }
    }

    fn landing(&self, col: usize) -> Option<usize> {
        (0..self.rows).find(|&r| self.grid[col][r] == Square::Empty)
    }

    fn winner(&self) -> Option<Square> {
        let dirs: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for c in 0..self.cols {
            for r in 0..self.rows {
                let s = self.grid[c][r];
                if s != Square::Black && s != Square::White {
                    continue;
                }
                for (dc, dr) in dirs {
                    let four = (1..4).all(|k| {
                        let (cc, rr) = (c as isize + dc * k, r as isize + dr * k);
                        cc >= 0
                            && rr >= 0
                            && (cc as usize) < self.cols
                            && (rr as usize) < self.rows
                            && self.grid[cc as usize][rr as usize] == s
                    });
                    if four {
                        return Some(s);
                    }
                }
            }
        }
        None
    }

    fn full(&self) -> bool {
        (0..self.cols).all(|c| self.landing(c).is_none())
    }

    /// `None` while the game goes on; `Some(None)` for a draw.
    fn result(&self) -> Option<Option<Color>> {
        match self.winner() {
            Some(Square::Black) => Some(Some(Color::Black)),
            Some(_) => Some(Some(Color::White)),
            None if self.full() => Some(None),
            None => None,
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.result().is_some() {
            return Vec::new();
        }
        (0..self.cols)
            .filter(|&c| self.landing(c).is_some())
            .collect()
    }

    fn play(&mut self, col: usize) {
        let r = self.landing(col).expect("naive: column full");
        self.grid[col][r] = if self.black_to_move {
            Square::Black
        } else {
            Square::White
        };
        self.black_to_move = !self.black_to_move;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|c| {
                let mut next = self.clone();
                next.play(c);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Perft through the `Position` trait only (legal_moves / play_unchecked).
fn trait_perft<P: Position>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            trait_perft(&next, depth - 1)
        })
        .sum()
}

fn play_all(pos: ConnectFour, moves: &str) -> ConnectFour {
    let cols = parse_move_string(moves, pos.cols()).unwrap();
    cols.into_iter()
        .fold(pos, |p, m| p.play(m).map_err(|e| e.error).unwrap())
}

fn cells(names: &[&str]) -> Vec<Cell> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}

/// Games of n plies on 7x6; a won position has no moves. No game ends before ply 7, so the
/// first six are powers of 7 and the seventh misses only the seven ways to overfill a column.
const PERFT_7X6: [(u32, u64); 8] = [
    (1, 7),
    (2, 49),
    (3, 343),
    (4, 2_401),
    (5, 16_807),
    (6, 117_649),
    (7, 823_536),
    (8, 5_673_234),
];

#[test]
fn perft_7x6_agrees_with_naive() {
    let pos = ConnectFour::new(7, 6, &[]).unwrap();
    let naive = Naive::new(7, 6, &[]);
    for (depth, expected) in PERFT_7X6 {
        assert_eq!(pos.perft(depth), expected, "library perft({depth})");
        if depth <= 6 {
            assert_eq!(trait_perft(&pos, depth), expected, "trait perft({depth})");
        }
        assert_eq!(naive.perft(depth), expected, "naive perft({depth})");
    }
}

#[test]
fn perft_with_blocked_cells_agrees_with_naive() {
    let blocked = [(3, 0), (3, 1), (0, 5), (5, 2)];
    let cells: Vec<Cell> = blocked
        .iter()
        .map(|&(c, r)| Cell::new(c as u8, r as u8))
        .collect();
    let pos = ConnectFour::new(6, 6, &cells).unwrap();
    let naive = Naive::new(6, 6, &blocked);
    for depth in 1..=7 {
        assert_eq!(pos.perft(depth), naive.perft(depth), "perft({depth})");
    }
}

/// Boards that fit a `u64`, a `u128` and only the wide bitboard, each with blocked cells and
/// stones already on it so that wins come within the perft depth.
#[test]
fn perft_on_every_bitboard_width_agrees_with_naive() {
    for (cols, rows, depth) in [(7u8, 7u8, 5u32), (10, 10, 4), (12, 12, 4)] {
        let blocked = [(1, 0), (cols as usize - 2, 3), (cols as usize / 2, 1)];
        let cells: Vec<Cell> = blocked
            .iter()
            .map(|&(c, r)| Cell::new(c as u8, r as u8))
            .collect();
        let mut pos = ConnectFour::new(cols, rows, &cells).unwrap();
        let mut naive = Naive::new(usize::from(cols), usize::from(rows), &blocked);
        // A fixed pseudo-random opening of 12 plies that stops short of any win.
        let mut seed = 12345u32;
        while pos.ply() < 12 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let moves = pos.legal_moves();
            let m = moves[(seed >> 16) as usize % moves.len()];
            let mut next = pos.clone();
            next.play_unchecked(m);
            if next.outcome().is_none() {
                pos = next;
                naive.play(usize::from(m.0));
            }
        }
        for d in 1..=depth {
            let expected = naive.perft(d);
            assert_eq!(pos.perft(d), expected, "{cols}x{rows} perft({d})");
            assert_eq!(
                trait_perft(&pos, d),
                expected,
                "{cols}x{rows} trait perft({d})"
            );
        }
    }
}

/// OEIS A212693: distinct positions after n plies of legal play on 7x6.
#[test]
fn distinct_positions_match_a212693() {
    const A212693: [usize; 8] = [1, 7, 49, 238, 1120, 4263, 16422, 54859];
    let mut layer: HashSet<ConnectFour> = HashSet::from([ConnectFour::new(7, 6, &[]).unwrap()]);
    for (ply, &expected) in A212693.iter().enumerate() {
        assert_eq!(layer.len(), expected, "positions at ply {ply}");
        // Won positions are reached (and counted) but have no moves, so they do not expand.
        layer = layer
            .iter()
            .flat_map(|p| {
                p.legal_moves().into_iter().map(move |m| {
                    let mut next = p.clone();
                    next.play_unchecked(m);
                    next
                })
            })
            .collect();
    }
}

#[test]
fn vertical_and_horizontal_wins_report_the_line() {
    let pos = play_all(ConnectFour::new(7, 6, &[]).unwrap(), "4455667");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.reason, EndReason::Four);
    assert_eq!(outcome.line, cells(&["d1", "e1", "f1", "g1"]));
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.is_legal(Column(0)), Err(IllegalMoveError::GameOver));

    let pos = play_all(ConnectFour::new(7, 6, &[]).unwrap(), "121212");
    assert_eq!(pos.outcome(), None);
    let pos = play_all(ConnectFour::new(7, 6, &[]).unwrap(), "1212121");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.line, cells(&["a1", "a2", "a3", "a4"]));
}

#[test]
fn five_in_a_row_reports_the_whole_run() {
    // Black fills the middle last: X X _ X X on the bottom row.
    let pos = play_all(ConnectFour::new(7, 6, &[]).unwrap(), "1122445");
    assert_eq!(pos.outcome(), None);
    let pos = play_all(pos, "53");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.line, cells(&["a1", "b1", "c1", "d1", "e1"]));
}

#[test]
fn stone_skips_a_blocked_cell_in_the_middle() {
    let pos = ConnectFour::new(7, 6, &[Cell::new(3, 2)]).unwrap();
    let pos = play_all(pos, "444");
    assert_eq!(
        pos.cell(Cell::new(3, 1)),
        Some(CellState::Stone(Color::White))
    );
    assert_eq!(pos.cell(Cell::new(3, 2)), Some(CellState::Blocked));
    assert_eq!(
        pos.cell(Cell::new(3, 3)),
        Some(CellState::Stone(Color::Black))
    );
    assert_eq!(pos.cell(Cell::new(3, 4)), Some(CellState::Empty));
    assert_eq!(pos.cell(Cell::new(7, 0)), None);
    assert_eq!(pos.ply(), 3);
    assert_eq!(pos.turn(), Color::White);
}

#[test]
fn stone_skips_blocked_cells_at_the_bottom_and_stacked() {
    let pos = ConnectFour::new(5, 5, &[Cell::new(0, 0), Cell::new(1, 1), Cell::new(1, 2)]).unwrap();
    assert_eq!(pos.landing_row(Column(0)), Some(1));
    assert_eq!(pos.landing_row(Column(1)), Some(0));
    let pos = play_all(pos, "122");
    assert_eq!(
        pos.cell(Cell::new(0, 1)),
        Some(CellState::Stone(Color::Black))
    );
    assert_eq!(
        pos.cell(Cell::new(1, 0)),
        Some(CellState::Stone(Color::White))
    );
    assert_eq!(
        pos.cell(Cell::new(1, 3)),
        Some(CellState::Stone(Color::Black))
    );
    assert_eq!(pos.blocked(), cells(&["a1", "b2", "b3"]));
}

#[test]
fn column_with_a_blocked_top_is_full_one_cell_earlier() {
    let pos = ConnectFour::new(7, 6, &[Cell::new(0, 5)]).unwrap();
    let pos = play_all(pos, "11111");
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.landing_row(Column(0)), None);
    assert!(!pos.legal_moves().contains(&Column(0)));
    let err = pos.clone().play(Column(0)).unwrap_err();
    assert_eq!(err.error, IllegalMoveError::ColumnFull("1".into()));
    assert_eq!(err.position, pos);
    assert_eq!(
        pos.is_legal(Column(7)),
        Err(IllegalMoveError::OutOfBoard("8".into()))
    );
}

#[test]
fn a_line_through_a_blocked_cell_is_no_win() {
    // Black's fourth stone makes X X X # X on the bottom row.
    let pos = ConnectFour::new(7, 6, &[Cell::new(3, 0)]).unwrap();
    let pos = play_all(pos, "1727375");
    assert_eq!(
        pos.to_board_text(),
        "......./......./......./......O/......O/XXX#X.O"
    );
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.legal_moves().len(), 7);

    // Black's fourth stone makes X X # X X up column 7.
    let pos = ConnectFour::new(7, 6, &[Cell::new(6, 2)]).unwrap();
    let pos = play_all(pos, "7171717");
    assert_eq!(
        pos.to_board_text(),
        "......./......X/......X/O.....#/O.....X/O.....X"
    );
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.turn(), Color::White);
}

#[test]
fn wide_bitboard_wins_across_word_boundaries() {
    // Blocked cells lift columns 9-12 of a 12x12 board to row 12: a row-12 four there uses
    // bits 115, 128, 141, 154, across the boundary of the second and third words.
    let mut blocked = Vec::new();
    for col in 8..12 {
        for row in 0..11 {
            blocked.push(Cell::new(col, row));
        }
    }
    let pos = ConnectFour::new(12, 12, &blocked).unwrap();
    let pos = play_all(pos, "9,1,10,2,11,3");
    assert_eq!(pos.outcome(), None);
    let pos = play_all(pos, "12");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.line, cells(&["i12", "j12", "k12", "l12"]));

    // An up-right diagonal d1 e2 f3 g4 on bits 39, 53, 67, 81, across bit 64.
    let lift = cells(&["e1", "f1", "f2", "g1", "g2", "g3"]);
    let pos = ConnectFour::new(12, 12, &lift).unwrap();
    let pos = play_all(pos, "4,1,5,1,6,1,7");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.line, cells(&["d1", "e2", "f3", "g4"]));

    // A down-right diagonal for white, from the top-left corner of the 12x12 board.
    let mut lift = Vec::new();
    for (col, height) in [(0u8, 11u8), (1, 10), (2, 9), (3, 8)] {
        lift.extend((0..height).map(|row| Cell::new(col, row)));
    }
    let pos = ConnectFour::new(12, 12, &lift).unwrap();
    let pos = play_all(pos, "12,1,12,2,11,3,11,4");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.line, cells(&["a12", "b11", "c10", "d9"]));
}

#[test]
fn ten_by_eleven_with_a_blocked_cell() {
    let pos = ConnectFour::new(10, 11, &[Cell::new(9, 0)]).unwrap();
    assert_eq!(pos.blocked(), cells(&["j1"]));
    let pos = play_all(pos, "10,1,10,2,10,1");
    assert_eq!(pos.outcome(), None);
    let pos = play_all(pos, "10");
    let outcome = pos.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.line, cells(&["j2", "j3", "j4", "j5"]));
    assert_eq!(pos.ply(), 7);
}

/// Depth-first search for a sequence that fills the board with no four.
fn find_draw(pos: &ConnectFour) -> Option<ConnectFour> {
    match pos.outcome() {
        Some(o) if o.winner.is_none() => return Some(pos.clone()),
        Some(_) => return None,
        None => {}
    }
    pos.legal_moves().into_iter().find_map(|m| {
        let mut next = pos.clone();
        next.play_unchecked(m);
        find_draw(&next)
    })
}

#[test]
fn full_board_without_four_is_a_draw() {
    for blocked in [vec![], cells(&["b2", "d4"])] {
        let start = ConnectFour::new(4, 4, &blocked).unwrap();
        let drawn = find_draw(&start).expect("4x4 has drawn fillings");
        let outcome = drawn.outcome().unwrap();
        assert_eq!(outcome.winner, None);
        assert_eq!(outcome.reason, EndReason::Full);
        assert!(outcome.line.is_empty());
        assert_eq!(drawn.ply(), 16 - blocked.len());
        assert!(drawn.legal_moves().is_empty());
        assert_eq!(drawn.is_legal(Column(0)), Err(IllegalMoveError::GameOver));
    }
    let all_blocked = ConnectFour::from_board_text("####/####/####/####").unwrap();
    assert_eq!(all_blocked.outcome().unwrap().reason, EndReason::Full);
}

#[test]
fn spec_errors() {
    assert_eq!(
        ConnectFour::new(3, 6, &[]),
        Err(SpecError::Connect4Size(3, 6))
    );
    assert_eq!(
        ConnectFour::new(7, 13, &[]),
        Err(SpecError::Connect4Size(7, 13))
    );
    assert_eq!(
        ConnectFour::new(7, 6, &[Cell::new(7, 0)]),
        Err(SpecError::BlockedOffBoard(8, 1))
    );
    assert_eq!(
        ConnectFour::new(7, 6, &[Cell::new(0, 6)]),
        Err(SpecError::BlockedOffBoard(1, 7))
    );
    assert_eq!(
        ConnectFour::new(7, 6, &[Cell::new(1, 1), Cell::new(1, 1)]),
        Err(SpecError::BlockedTwice(2, 2))
    );
}

#[test]
fn move_strings() {
    assert_eq!(
        parse_move_string("4453 -2", 7).unwrap(),
        vec![Column(3), Column(3), Column(4), Column(2)]
    );
    assert_eq!(parse_move_string("", 7).unwrap(), vec![]);
    assert_eq!(
        parse_move_string("10,3,4", 10).unwrap(),
        vec![Column(9), Column(2), Column(3)]
    );
    assert!(parse_move_string("48", 7).is_err(), "column 8 of 7");
    assert!(parse_move_string("40", 7).is_err());
    assert!(parse_move_string("4,5", 7).is_err());
    assert!(parse_move_string("11,3", 10).is_err());
    assert!(parse_move_string("1,,3", 10).is_err());
    assert_eq!(
        format_move_string(&[Column(9), Column(0)], 12),
        "10,1".to_string()
    );
    assert_eq!(format_move_string(&[Column(3), Column(0)], 7), "41");
    assert_eq!("4".parse::<Column>().unwrap(), Column(3));
    assert_eq!("12".parse::<Column>().unwrap(), Column(11));
    for bad in ["", "0", "04", "-1", "+1", " 4", "a", "100"] {
        assert!(bad.parse::<Column>().is_err(), "{bad:?}");
    }
    assert_eq!(Column(11).to_string(), "12");
}

#[test]
fn board_text() {
    let text = "......./......./...#.../...X...";
    let pos = ConnectFour::from_board_text(text).unwrap();
    assert_eq!((pos.cols(), pos.rows()), (7, 4));
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.ply(), 1);
    assert_eq!(pos.to_board_text(), text);
    assert_eq!(pos.blocked(), cells(&["d2"]));
    // The next stone in column 4 skips the blocked cell.
    let pos = pos.play(Column(3)).unwrap();
    assert_eq!(pos.to_board_text(), "......./...O.../...#.../...X...");

    // White with one stone more: black to move.
    let pos = ConnectFour::from_board_text("..../..../..../OX.O").unwrap();
    assert_eq!(pos.turn(), Color::Black);

    let errors = [
        "",
        "..../..../....",
        "..../..../..../...",
        "..../..../..../...Z",
        "..../..../X.../....",
        "..../..../..../XX..",
        "..../..../..../OOO.",
        "............./..../..../....",
        // Black to move (equal counts) but black already has four.
        "X.../X..O/X..O/X.OO",
    ];
    for text in errors {
        assert!(ConnectFour::from_board_text(text).is_err(), "{text:?}");
    }
    // A stone resting on a blocked cell is not floating.
    assert!(ConnectFour::from_board_text("..../..../X.../#O..").is_ok());
}

/// Random board: size, blocked cells (any set), and move choices.
fn arb_game() -> impl Strategy<Value = (u8, u8, Vec<Cell>, Vec<(u8, u8)>)> {
    (4u8..=12, 4u8..=12).prop_flat_map(|(cols, rows)| {
        let blocked = prop::collection::btree_set((0..cols, 0..rows), 0..20).prop_map(
            |s: BTreeSet<(u8, u8)>| s.into_iter().map(|(c, r)| Cell::new(c, r)).collect(),
        );
        let moves = prop::collection::vec((any::<u8>(), 0..cols + 3), 0..160);
        (Just(cols), Just(rows), blocked, moves)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_games_agree_with_naive((cols, rows, blocked, choices) in arb_game()) {
        let mut pos = ConnectFour::new(cols, rows, &blocked).unwrap();
        let naive_blocked: Vec<(usize, usize)> =
            blocked.iter().map(|c| (usize::from(c.col), usize::from(c.row))).collect();
        let mut naive = Naive::new(usize::from(cols), usize::from(rows), &naive_blocked);
        let mut played = Vec::new();
        for (pick, probe) in choices {
            // A column that is not legal fails and changes nothing.
            let probe = Column(probe);
            let legal = pos.legal_moves();
            if !legal.contains(&probe) {
                prop_assert!(pos.is_legal(probe).is_err());
                let err = pos.clone().play(probe).unwrap_err();
                prop_assert_eq!(&err.position, &pos);
            }
            let naive_moves: Vec<Column> =
                naive.moves().into_iter().map(|c| Column(c as u8)).collect();
            prop_assert_eq!(&legal, &naive_moves);
            if legal.is_empty() {
                break;
            }
            let m = legal[usize::from(pick) % legal.len()];
            prop_assert!(pos.is_legal(m).is_ok());
            pos = pos.play(m).map_err(|e| e.error).unwrap();
            naive.play(usize::from(m.0));
            played.push(m);
            prop_assert_eq!(pos.ply(), played.len());
            prop_assert_eq!(pos.turn(), Color::from_ply(played.len()));

            let outcome = pos.outcome();
            prop_assert_eq!(outcome.as_ref().map(|o| o.winner), naive.result());
            if let Some(o) = outcome {
                if let Some(winner) = o.winner {
                    prop_assert_eq!(o.reason, EndReason::Four);
                    prop_assert!(o.line.len() >= 4);
                    prop_assert!(o.line.contains(&last_cell(&pos, m)));
                    for c in &o.line {
                        prop_assert_eq!(pos.cell(*c), Some(CellState::Stone(winner)));
                    }
                } else {
                    prop_assert_eq!(o.reason, EndReason::Full);
                }
            }
        }
        prop_assert_eq!(pos.perft(2), trait_perft(&pos, 2));
        // Text formats round-trip on whatever position the game reached.
        let text = pos.to_board_text();
        prop_assert_eq!(ConnectFour::from_board_text(&text).unwrap(), pos.clone());
        let moves = format_move_string(&played, cols);
        prop_assert_eq!(parse_move_string(&moves, cols).unwrap(), played.clone());
        let mut replay = ConnectFour::new(cols, rows, &blocked).unwrap();
        for m in &played {
            replay.play_unchecked(*m);
        }
        prop_assert_eq!(replay, pos);
    }

    /// The wide bitboard computes what `u128` does on values that fit (and shifts left past
    /// bit 127 into its third word).
    #[test]
    fn wide_bits_agree_with_u128(a in any::<u128>(), b in any::<u128>(), n in 0u32..200) {
        let wide = |x: u128| WideBits([x as u64, (x >> 64) as u64, 0]);
        let low = |w: WideBits| u128::from(w.0[0]) | (u128::from(w.0[1]) << 64);
        let (wa, wb) = (wide(a), wide(b));
        prop_assert_eq!(low(wa >> n), a.checked_shr(n).unwrap_or(0));
        prop_assert_eq!(low(wa << n), a.checked_shl(n).unwrap_or(0));
        if n <= 64 {
            // Nothing reaches past bit 191, so the round trip is exact.
            prop_assert_eq!((wa << n) >> n, wa);
        }
        prop_assert_eq!((wa << 64) << n, wa << (n + 64));
        let sum = wa.wrapping_add(wb);
        prop_assert_eq!(low(sum), a.wrapping_add(b));
        prop_assert_eq!(sum.0[2], u64::from(a.checked_add(b).is_none()));
        prop_assert_eq!(low(wa.wrapping_sub(wb)), a.wrapping_sub(b));
        prop_assert_eq!(sum.wrapping_sub(wb), wa);
        prop_assert_eq!(wa.count_ones(), a.count_ones());
        prop_assert_eq!(wa.trailing_zeros().min(128), a.trailing_zeros());
        prop_assert_eq!(wa.has(n), n < 128 && (a >> n) & 1 == 1);
        prop_assert_eq!(<u128 as BitSet>::from_wide(wa), a);
        prop_assert_eq!(low(!wa), !a);
    }

    #[test]
    fn column_round_trip(c in 0u8..99) {
        prop_assert_eq!(Column(c).to_string().parse::<Column>().unwrap(), Column(c));
    }

    #[test]
    fn parsers_never_panic(s in "\\PC*", t in "[0-9,. XO#/]{0,60}", cols in 0u8..20) {
        for text in [&s, &t] {
            let _ = text.parse::<Column>();
            let _ = parse_move_string(text, cols);
            if let Ok(pos) = ConnectFour::from_board_text(text) {
                prop_assert_eq!(ConnectFour::from_board_text(&pos.to_board_text()).unwrap(), pos);
            }
            let pos = ConnectFour::new(7, 6, &[]).unwrap();
            let _ = pos.parse_move(text);
        }
    }
}

/// The highest stone of the column just played.
fn last_cell(pos: &ConnectFour, m: Column) -> Cell {
    (0..pos.rows())
        .rev()
        .map(|r| Cell::new(m.0, r))
        .find(|&c| matches!(pos.cell(c), Some(CellState::Stone(_))))
        .unwrap()
}
