//! Renju fouls: boards with every forbidden point black has on them and why, as
//! `renju::forbidden_points` and `renju::forbidden_kind` decide. Hand-written boards show each
//! rule of the RIF definition once (the point named in the case is checked to be what its name
//! says); generated boards are dense random clusters of stones in the centre.

use game_core::gomoku::Gomoku;
use game_core::renju;
use game_core::{AnyPosition, Cell, GomokuRule, Position};
use serde::Serialize;

use crate::shared::{cells, forbidden_word, position_text, Lcg};

#[derive(Serialize)]
pub struct FoulCase {
    name: String,
    size: u8,
    /// The board (the side to move after it is of no account here).
    position: String,
    /// Every point black may not play, `[cell, kind]`, in row-major order from a1.
    forbidden: Vec<[String; 2]>,
}

/// One board a line: name | black | white | the point the name is about | what game-core must
/// say of it (`allowed` for a legal or winning point). Drawn from the RIF definitions as
/// game-core's own renju tests state them.
const HAND_WRITTEN: &str = "
overline: six by filling a gap | d8 e8 f8 h8 i8 |  | g8 | overline
overline: seven | d8 e8 f8 h8 i8 j8 |  | g8 | overline
overline: eight joining two fours | c8 d8 e8 g8 h8 i8 j8 |  | f8 | overline
overline: six against the edge | a1 a2 a3 a4 a6 |  | a5 | overline
overline: six on a diagonal | c3 d4 e5 f6 h8 |  | g7 | overline
overline: on the anti-diagonal | c13 d12 e11 g9 h8 |  | f10 | overline
overline: made with a four | d8 e8 f8 h8 i8 g9 g10 g11 |  | g8 | overline
overline: made with a double four | d8 e8 f8 h8 i8 g9 g10 g11 d5 e6 f7 |  | g8 | overline
five: plain | d8 e8 f8 g8 | a1 | h8 | allowed
five: against the edge | a1 b1 c1 d1 |  | e1 | allowed
five beats an overline made with it | d8 e8 f8 g8 h4 h5 h6 h7 h9 |  | h8 | allowed
five beats a double four made with it | d8 e8 f8 g8 h9 h10 h11 i9 j10 k11 |  | h8 | allowed
five beats a double three made with it | d8 e8 f8 g8 h9 h10 i9 j10 |  | h8 | allowed
4-4 across lines: broken and straight | d8 e8 f8 h9 h10 h11 |  | h8 | double-four
4-4 across lines: two closed fours | e8 f8 g8 h9 h10 h11 | d8 h12 | h8 | double-four
4-4 across lines: two broken fours on the diagonals | d4 e5 f6 f10 g9 j6 |  | h8 | double-four
4-4 in one line: X.XXX.X | e8 g8 i8 k8 |  | h8 | double-four
4-4 in one line: XX.XX.XX | c8 d8 g8 i8 j8 |  | f8 | double-four
4-4 in one line: XXX.X.XXX | b8 c8 d8 h8 i8 j8 |  | f8 | double-four
4-4 in one column: X.XXX.X | h5 h7 h9 h11 |  | h8 | double-four
not 4-4: the row's five-points both make overlines | b8 d8 e8 f8 i8 g9 g10 g11 |  | g8 | allowed
4-3 is allowed | e8 f8 g8 h9 h10 | d8 | h8 | allowed
4-3: X.XXX is a four, not a three | d8 f8 g8 h9 h10 |  | h8 | allowed
3-3: two straight threes | f8 g8 h9 h10 |  | h8 | double-three
3-3: split three XX.X and straight three | e8 f8 h9 h10 |  | h8 | double-three
3-3: two split threes on the diagonals | f6 i9 g9 j6 |  | h8 | double-three
3-3: the move is the lone stone of X.XX | j8 k8 f6 g7 |  | h8 | double-three
3-3: triple three | f8 g8 h9 h10 i9 j10 |  | h8 | double-three
3-3: O.XXX.. is still a three | f8 g8 h9 h10 | d8 | h8 | double-three
3-3 in the corner region | b3 c3 d4 d5 |  | d3 | double-three
not 3-3: X.X.X is no three | f8 j8 h9 h10 |  | h8 | allowed
not 3-3: X..XX is no three | e8 i8 h9 h10 |  | h8 | allowed
not 3-3: three shut by white (OXXX..) | f8 g8 h9 h10 | e8 | h8 | allowed
not 3-3: O.XXX.O is no three | f8 g8 h9 h10 | d8 j8 | h8 | allowed
not 3-3: three against the edge | a8 b8 c9 c10 |  | c8 | allowed
not 3-3: the only open side ends in an overline point | c8 f8 g8 h9 h10 | j8 | h8 | allowed
fake 3-3: the four-point is an overline | f8 g8 h9 h10 i5 i6 i7 i9 i10 | d8 | h8 | allowed
real 3-3: the four-point makes a five | f8 g8 h9 h10 i6 i7 i9 i10 | d8 | h8 | double-three
real 3-3: one of two four-points is forbidden, the other not | f8 g8 h9 h10 i5 i6 i7 i9 i10 |  | h8 | double-three
fake 3-3: the four-point is a double four | f8 g8 h9 h10 i9 i10 i11 j9 k10 l11 | d8 | h8 | allowed
fake 3-3: the four-point is a 4-3-3 | f8 g8 h9 h10 i9 i10 j9 k10 | d8 | h8 | allowed
real 3-3: the four-point's own double three is fake (depth 3) | f8 g8 h9 h10 i9 i10 j9 k10 j12 k13 l14 m15 | d8 i6 | h8 | double-three
";

fn foul_case(name: String, size: u8, black: &[Cell], white: &[Cell]) -> FoulCase {
    let pos = Gomoku::from_stones(size, GomokuRule::Renju, black, white).expect("a board");
    let forbidden = renju::forbidden_points(size, pos.cells())
        .into_iter()
        .map(|cell| {
            let kind = renju::forbidden_kind(size, pos.cells(), cell).expect("a forbidden point");
            [cell.to_string(), forbidden_word(kind).to_string()]
        })
        .collect();
    FoulCase {
        name,
        size,
        position: position_text(&AnyPosition::Gomoku(pos)),
        forbidden,
    }
}

fn hand_written() -> Vec<FoulCase> {
    HAND_WRITTEN
        .lines()
        .filter(|line| !line.is_empty())
        .map(|line| {
            let [name, black, white, point, expected] = line
                .split(" | ")
                .collect::<Vec<_>>()
                .try_into()
                .unwrap_or_else(|_| panic!("{line}: five fields"));
            let (black, white) = (cells(black), cells(white));
            let pos = Gomoku::from_stones(15, GomokuRule::Renju, &black, &white).expect(name);
            let point: Cell = point.parse().expect(name);
            let said = pos.forbidden_kind(point).map_or("allowed", forbidden_word);
            assert_eq!(said, expected, "{name}");
            foul_case(format!("{name} ({point})"), 15, &black, &white)
        })
        .collect()
}

/// Random boards: a few broken black lines (where overlines and fours come from) among 10 to
/// 30 scattered stones, black more often than white, in the central 9x9 of a 15x15 board or
/// on the whole of a 9x9 one. Boards that already hold a five are dropped: no game reaches
/// them.
fn generated() -> Vec<FoulCase> {
    const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut rng = Lcg::new(0x5EED_0001);
    let mut out = Vec::new();
    while out.len() < 120 {
        let (size, lo, span) = if out.len() % 10 == 9 {
            (9, 0, 9)
        } else {
            (15, 3, 9)
        };
        let mut stones: Vec<(Cell, bool)> = Vec::new();
        let put = |stones: &mut Vec<(Cell, bool)>, col: i32, row: i32, black: bool| {
            let on = 0..i32::from(size);
            if on.contains(&col) && on.contains(&row) {
                let cell = Cell::new(col as u8, row as u8);
                if stones.iter().all(|&(c, _)| c != cell) {
                    stones.push((cell, black));
                }
            }
        };
        for _ in 0..1 + rng.below(3) {
            let (dc, dr) = *rng.pick(&DIRECTIONS);
            let (col, row) = ((lo + rng.below(span)) as i32, (lo + rng.below(span)) as i32);
            for k in 0..3 + rng.below(5) as i32 {
                if rng.chance(80) {
                    put(&mut stones, col + k * dc, row + k * dr, true);
                }
            }
        }
        for _ in 0..10 + rng.below(21) {
            let (col, row) = ((lo + rng.below(span)) as i32, (lo + rng.below(span)) as i32);
            let black = rng.chance(60);
            put(&mut stones, col, row, black);
        }
        let black: Vec<Cell> = stones.iter().filter(|s| s.1).map(|s| s.0).collect();
        let white: Vec<Cell> = stones.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let pos = Gomoku::from_stones(size, GomokuRule::Renju, &black, &white).expect("a board");
        if pos.outcome().is_some() {
            continue;
        }
        let name = format!("random board {} ({size}x{size})", out.len() + 1);
        out.push(foul_case(name, size, &black, &white));
    }
    out
}

pub fn cases() -> Vec<FoulCase> {
    let mut all = hand_written();
    all.extend(generated());
    // Every kind of foul is in the generated boards too, not only in the hand-written ones.
    for kind in ["overline", "double-four", "double-three"] {
        let n = all
            .iter()
            .filter(|c| c.name.starts_with("random"))
            .flat_map(|c| &c.forbidden)
            .filter(|[_, k]| k == kind)
            .count();
        assert!(n >= 3, "the random boards hold only {n} {kind} points");
    }
    all
}
