//! The labelled positions: renju's forbidden points drawn from the RIF definitions, and the
//! overline rules of the three Gomoku variants.

use game_core::renju::Forbidden;
use game_core::{Color, GomokuRule};

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Expect {
    /// Black may play the point and it wins nothing.
    Legal,
    Forbid(Forbidden),
    /// The mover makes a winning five (for black in renju: a five beats any forbidden shape).
    Wins,
    /// The mover's stone lands and the game goes on.
    NoWin,
}
pub(crate) use Expect::{Forbid, Legal, NoWin, Wins};
pub(crate) const OVERLINE: Expect = Forbid(Forbidden::Overline);
pub(crate) const DOUBLE_FOUR: Expect = Forbid(Forbidden::DoubleFour);
pub(crate) const DOUBLE_THREE: Expect = Forbid(Forbidden::DoubleThree);

pub(crate) struct Case {
    pub(crate) label: &'static str,
    pub(crate) rule: GomokuRule,
    pub(crate) black: &'static str,
    pub(crate) white: &'static str,
    pub(crate) mover: Color,
    pub(crate) point: &'static str,
    pub(crate) expect: Expect,
}

pub(crate) const fn renju(
    label: &'static str,
    black: &'static str,
    white: &'static str,
    point: &'static str,
    expect: Expect,
) -> Case {
    Case {
        label,
        rule: GomokuRule::Renju,
        black,
        white,
        mover: Color::Black,
        point,
        expect,
    }
}

// Diagrams show the line through the tested point `*` (15x15 board, columns a..o, row 1 at the
// bottom). `X` black, `O` white, `.` empty, `|` the board edge. Unless a diagram says otherwise
// the tested point is h8 and the lines not drawn are empty.
pub(crate) const RENJU_CASES: &[Case] = &[
    // --- overlines --------------------------------------------------------------------------
    // row 8: . X X X * X X .   (d..i)
    renju(
        "overline: six by filling a gap",
        "d8 e8 f8 h8 i8",
        "",
        "g8",
        OVERLINE,
    ),
    // row 8: . X X X * X X X .
    renju("overline: seven", "d8 e8 f8 h8 i8 j8", "", "g8", OVERLINE),
    // row 8: . X X X * X X X X .   (c..j)
    renju(
        "overline: eight joining two fours",
        "c8 d8 e8 g8 h8 i8 j8",
        "",
        "f8",
        OVERLINE,
    ),
    // column a: |X X X X * X .
    renju(
        "overline: six against the edge",
        "a1 a2 a3 a4 a6",
        "",
        "a5",
        OVERLINE,
    ),
    // diagonal c3..h8: X X X X * X
    renju(
        "overline: six on a diagonal",
        "c3 d4 e5 f6 h8",
        "",
        "g7",
        OVERLINE,
    ),
    // row 8 overline at g8, and column g8..g11 a four: still an overline
    renju(
        "overline: made together with a four",
        "d8 e8 f8 h8 i8 g9 g10 g11",
        "",
        "g8",
        OVERLINE,
    ),
    // row overline, column four g8..g11, diagonal four d5..g8: the overline is reported
    renju(
        "overline: made together with a double four",
        "d8 e8 f8 h8 i8 g9 g10 g11 d5 e6 f7",
        "",
        "g8",
        OVERLINE,
    ),
    // --- fives win, whatever else they make ---------------------------------------------------
    // row 8: . X X X X * .
    renju("five: plain", "d8 e8 f8 g8", "a1", "h8", Wins),
    // row 1: |X X X X * .
    renju("five: against the edge", "a1 b1 c1 d1", "", "e1", Wins),
    // row 8 five d..h; column h4..h9 an overline
    renju(
        "five beats an overline made with it",
        "d8 e8 f8 g8 h4 h5 h6 h7 h9",
        "",
        "h8",
        Wins,
    ),
    // row 8 five; column h8..h11 and diagonal h8..k11 fours
    renju(
        "five beats a double four made with it",
        "d8 e8 f8 g8 h9 h10 h11 i9 j10 k11",
        "",
        "h8",
        Wins,
    ),
    // row 8 five; column h8..h10 and diagonal h8..j10 threes
    renju(
        "five beats a double three made with it",
        "d8 e8 f8 g8 h9 h10 i9 j10",
        "",
        "h8",
        Wins,
    ),
    // --- double fours -------------------------------------------------------------------------
    // row 8: . X X X . * .  (four, five-point g8); column h8..h11 a straight four
    renju(
        "4-4 across lines: broken four and straight four",
        "d8 e8 f8 h9 h10 h11",
        "",
        "h8",
        DOUBLE_FOUR,
    ),
    // row 8: O X X X * .  ; column: O above h11, h7 empty: two closed fours
    renju(
        "4-4 across lines: two closed fours",
        "e8 f8 g8 h9 h10 h11",
        "d8 h12",
        "h8",
        DOUBLE_FOUR,
    ),
    // diagonal d4 e5 f6 . * (five-point g7); anti-diagonal f10 g9 * . j6 (five-point i7)
    renju(
        "4-4 across lines: two broken fours on the diagonals",
        "d4 e5 f6 f10 g9 j6",
        "",
        "h8",
        DOUBLE_FOUR,
    ),
    // row 8: . X . X * X . X .   (e g h i k): five-points f8 and j8
    renju(
        "4-4 in one line: X.XXX.X",
        "e8 g8 i8 k8",
        "",
        "h8",
        DOUBLE_FOUR,
    ),
    // row 8: . X X . * X . X X .  (c d f g i j): five-points e8 and h8
    renju(
        "4-4 in one line: XX.XX.XX",
        "c8 d8 g8 i8 j8",
        "",
        "f8",
        DOUBLE_FOUR,
    ),
    // row 8: . X X X . * . X X X .  (b c d f h i j): five-points e8 and g8
    renju(
        "4-4 in one line: XXX.X.XXX",
        "b8 c8 d8 h8 i8 j8",
        "",
        "f8",
        DOUBLE_FOUR,
    ),
    // row 8: . X . X X * . X .  (b d e f g i): c8 and h8 would both make six, so no four;
    // column g8..g11 is the only four
    renju(
        "not 4-4: the row's five-points both make overlines",
        "b8 d8 e8 f8 i8 g9 g10 g11",
        "",
        "g8",
        Legal,
    ),
    // --- four-three is allowed ----------------------------------------------------------------
    // row 8: O X X X * .  ; column: . * X X .
    renju("4-3 is allowed", "e8 f8 g8 h9 h10", "d8", "h8", Legal),
    // row 8: . X . X X * .  is a four (five-point e8), not a three; column three
    renju(
        "4-3: X.XXX is a four, not a three",
        "d8 f8 g8 h9 h10",
        "",
        "h8",
        Legal,
    ),
    // --- double threes ------------------------------------------------------------------------
    // row 8: . . X X * . .  ; column: . * X X .
    renju(
        "3-3: two straight threes",
        "f8 g8 h9 h10",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // row 8: . X X . * .  ; column three
    renju(
        "3-3: split three XX.X and straight three",
        "e8 f8 h9 h10",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // diagonal: . X . * X .  (f6, i9); anti-diagonal: . X * . X .  (g9, j6)
    renju(
        "3-3: two split threes on the diagonals",
        "f6 i9 g9 j6",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // row 8: . * . X X .  (the move is the lone stone); diagonal f6 g7 *
    renju(
        "3-3: the move is the lone stone of X.XX",
        "j8 k8 f6 g7",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // row, column and diagonal threes
    renju(
        "3-3: triple three",
        "f8 g8 h9 h10 i9 j10",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // row 8: O . X X * . .  : only i8 gives a straight four, e8 would leave it shut by O
    renju(
        "3-3: O.XXX.. is still a three",
        "f8 g8 h9 h10",
        "d8",
        "h8",
        DOUBLE_THREE,
    ),
    // --- shapes that are not threes ----------------------------------------------------------
    // row 8: . X . * . X .  : one more stone makes XXX.X or X.XXX, never a straight four
    renju(
        "not 3-3: X.X.X is no three",
        "f8 j8 h9 h10",
        "",
        "h8",
        Legal,
    ),
    // row 8: . X . . * X .  : two gaps
    renju(
        "not 3-3: X..XX is no three",
        "e8 i8 h9 h10",
        "",
        "h8",
        Legal,
    ),
    // row 8: O X X * . .  : blocked at one end, it can only become a closed four
    renju(
        "not 3-3: three shut by white (OXXX..)",
        "f8 g8 h9 h10",
        "e8",
        "h8",
        Legal,
    ),
    // row 8: O . X X * . O  : either four it can make is shut at one end
    renju(
        "not 3-3: O.XXX.O is no three",
        "f8 g8 h9 h10",
        "d8 j8",
        "h8",
        Legal,
    ),
    // row 8: |X X * . .  ; column c8..c10 a three
    renju(
        "not 3-3: three against the edge",
        "a8 b8 c9 c10",
        "",
        "c8",
        Legal,
    ),
    // row 8: X . . X X * . O  : e8 makes XXXX whose end d8 would give six; i8's four is
    // shut by O
    renju(
        "not 3-3: the only open side ends in an overline point",
        "c8 f8 g8 h9 h10",
        "j8",
        "h8",
        Legal,
    ),
    // --- threes whose four-point is itself forbidden (recursive) ------------------------------
    // row 8: O . X X * . .  needs i8; column i: i5 i6 i7 . i9 i10, so i8 is an overline.
    // Column h8..h10 is a real three, but one three is not a double three.
    renju(
        "fake 3-3: the four-point is an overline",
        "f8 g8 h9 h10 i5 i6 i7 i9 i10",
        "d8",
        "h8",
        Legal,
    ),
    // as above without i5: i8 now makes a five in column i, which is never forbidden
    renju(
        "real 3-3: the four-point makes a five",
        "f8 g8 h9 h10 i6 i7 i9 i10",
        "d8",
        "h8",
        DOUBLE_THREE,
    ),
    // as the overline case but with e8 open: i8 is forbidden, e8 is not, so it is a three
    renju(
        "real 3-3: one of two four-points is forbidden, the other is not",
        "f8 g8 h9 h10 i5 i6 i7 i9 i10",
        "",
        "h8",
        DOUBLE_THREE,
    ),
    // row needs i8; with h8 on, i8 makes a straight four in the row, in column i8..i11 and
    // on diagonal i8..l11: a double four, so the row is no three
    renju(
        "fake 3-3: the four-point is a double four",
        "f8 g8 h9 h10 i9 i10 i11 j9 k10 l11",
        "d8",
        "h8",
        Legal,
    ),
    // row needs i8; i8 makes a four (row) and threes in column i (i8 i9 i10, via i11) and on
    // the diagonal (i8 j9 k10, via l11): a 4-3-3, forbidden as a double three
    renju(
        "fake 3-3: the four-point is a 4-3-3",
        "f8 g8 h9 h10 i9 i10 j9 k10",
        "d8",
        "h8",
        Legal,
    ),
    // As the 4-3-3 case, but i8's column three is fake: i7 is shut by O i6, and i11 would
    // make six on the diagonal h10 i11 j12 k13 l14 m15. So i8 is only a 4-3 (its diagonal
    // three is real through l11, h7 being a double four), i8 is allowed, the row is a real
    // three, and h8 is a double three again. Three levels of recursion.
    renju(
        "real 3-3: the four-point's own double three is fake (depth 3)",
        "f8 g8 h9 h10 i9 i10 j9 k10 j12 k13 l14 m15",
        "d8 i6",
        "h8",
        DOUBLE_THREE,
    ),
];

pub(crate) const fn variant(
    label: &'static str,
    rule: GomokuRule,
    black: &'static str,
    white: &'static str,
    mover: Color,
    point: &'static str,
    expect: Expect,
) -> Case {
    Case {
        label,
        rule,
        black,
        white,
        mover,
        point,
        expect,
    }
}

pub(crate) const SIX_BLACK: &str = "d8 e8 f8 h8 i8";
pub(crate) const SOME_WHITE: &str = "a1 a3 a5 a7 a9";
pub(crate) const OVERLINE_CASES: &[Case] = &[
    variant(
        "freestyle: a black six wins",
        GomokuRule::Freestyle,
        SIX_BLACK,
        SOME_WHITE,
        Color::Black,
        "g8",
        Wins,
    ),
    variant(
        "freestyle: a white seven wins",
        GomokuRule::Freestyle,
        SOME_WHITE,
        "d8 e8 f8 h8 i8 j8",
        Color::White,
        "g8",
        Wins,
    ),
    variant(
        "standard: a black six is no win",
        GomokuRule::Standard,
        SIX_BLACK,
        SOME_WHITE,
        Color::Black,
        "g8",
        NoWin,
    ),
    variant(
        "standard: a white six is no win",
        GomokuRule::Standard,
        SOME_WHITE,
        SIX_BLACK,
        Color::White,
        "g8",
        NoWin,
    ),
    variant(
        "standard: exactly five wins",
        GomokuRule::Standard,
        "d8 e8 f8 g8",
        SOME_WHITE,
        Color::Black,
        "h8",
        Wins,
    ),
    variant(
        "standard: a five made with a six elsewhere wins",
        GomokuRule::Standard,
        "d8 e8 f8 g8 h4 h5 h6 h7 h9",
        SOME_WHITE,
        Color::Black,
        "h8",
        Wins,
    ),
    variant(
        "renju: a white six wins",
        GomokuRule::Renju,
        SOME_WHITE,
        SIX_BLACK,
        Color::White,
        "g8",
        Wins,
    ),
];
