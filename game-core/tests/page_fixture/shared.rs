//! What every section of the fixture uses: a seeded random number generator, positions as the
//! page's analysis board writes them, and the words of results and forbidden shapes.

use game_core::renju::Forbidden;
use game_core::{AnyPosition, Cell, Color, GameSpec, GomokuRule, Outcome};

/// A 64-bit linear congruential generator (Knuth's MMIX constants): tiny, seeded, and the
/// same on every platform, so the generated cases never change by themselves.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    fn next_u32(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // The high bits of an LCG are the random ones.
        (self.0 >> 32) as u32
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.next_u32() as usize % n
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A position as the page's analysis board writes it (`positionText`): the cells row by row
/// from the top as drawn, `X` black, `O` white, `-` empty, `#` blocked, a space and the side
/// to move. game-core's setup module reads the same text.
pub fn position_text(pos: &AnyPosition) -> String {
    let cells: String = pos
        .board_text()
        .chars()
        .map(|c| match c {
            'x' => 'X',
            'o' => 'O',
            '#' => '#',
            _ => '-',
        })
        .collect();
    let side = if pos.turn() == Color::Black { 'X' } else { 'O' };
    format!("{cells} {side}")
}

/// `black`, `white`, `draw` for a finished game; None while it goes on.
pub fn winner_word(outcome: Option<&Outcome>) -> Option<&'static str> {
    outcome.map(|o| o.winner.map_or("draw", Color::as_str))
}

/// The winning line of a finished game, in notation; empty otherwise.
pub fn line_words(outcome: Option<&Outcome>) -> Vec<String> {
    outcome.map_or_else(Vec::new, |o| {
        o.line.iter().map(ToString::to_string).collect()
    })
}

/// A forbidden shape as the page names it.
pub fn forbidden_word(kind: Forbidden) -> &'static str {
    match kind {
        Forbidden::Overline => "overline",
        Forbidden::DoubleFour => "double-four",
        Forbidden::DoubleThree => "double-three",
    }
}

/// Cells from a space-separated list (`"h8 i9"`).
pub fn cells(list: &str) -> Vec<Cell> {
    list.split_whitespace()
        .map(|m| m.parse().expect(m))
        .collect()
}

/// Moves that put `black` and `white` on the board in turn, black first: black has as many
/// stones as white or one more.
pub fn in_turn(black: &str, white: &str) -> Vec<String> {
    let (black, white) = (cells(black), cells(white));
    assert!(
        black.len() == white.len() || black.len() == white.len() + 1,
        "{black:?} / {white:?}: the counts do not alternate"
    );
    let mut moves = Vec::new();
    for (i, b) in black.iter().enumerate() {
        moves.push(b.to_string());
        if let Some(w) = white.get(i) {
            moves.push(w.to_string());
        }
    }
    moves
}

pub fn gomoku_spec(size: u32, rule: GomokuRule) -> GameSpec {
    GameSpec::gomoku(size, rule)
}

/// The position after `moves` from the start of `spec`, or from the set-up `setup`; panics
/// with the case's name on a move game-core refuses (a hand-written case is wrong then).
pub fn play(name: &str, spec: &GameSpec, setup: Option<&str>, moves: &[String]) -> AnyPosition {
    let mut pos = match setup {
        Some(text) => game_core::setup::position_from_text(spec, text)
            .unwrap_or_else(|e| panic!("{name}: set-up refused: {e}")),
        None => AnyPosition::new(spec).expect(name),
    };
    for m in moves {
        pos.play_str(m)
            .unwrap_or_else(|e| panic!("{name}: move {m} refused: {e}"));
    }
    pos
}
