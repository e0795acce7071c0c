//! Line patterns: what a stone placed on an empty point makes along one of its four lines,
//! looked up in a table built once per five rule.
//!
//! A point's view of a line is the five cells on each side of it, each one of *empty*, *own*
//! or *blocked* (an opponent stone or the edge): a base-3 number of ten digits, the
//! [`LineKey`]. The board keeps one key per point, direction and colour up to date as stones
//! come and go, so a move costs forty key updates and table lookups, never a line scan.
//!
//! Five cells a side is what an exact-five rule needs: a five through the point spans at most
//! four cells on a side, and the fifth one says whether it would be an overline.
//!
//! The classes are defined from the top down, counting only shapes that hold the point itself:
//! - [`Pattern::Five`]: the stone makes five (or more, where overlines win);
//! - [`Pattern::Flex4`]: the stone makes two or more distinct five-points (an open four, or
//!   two fours on one line) — the opponent cannot stop both;
//! - [`Pattern::Block4`]: exactly one five-point (a simple four);
//! - [`Pattern::Flex3`]: one more own stone can make a `Flex4` (an open three);
//! - [`Pattern::Block3`]: one more stone can make a `Block4`;
//! - `Flex2`, `Block2`, `Flex1` likewise one step further down; [`Pattern::None`] when the
//!   line has no room for a five through the point;
//! - [`Pattern::Overline`]: under an exact-five rule, the stone makes six or more.

use std::sync::OnceLock;

/// What one stone makes along one line, weakest first (overline lowest: it is worth nothing
/// where it does not win, and forbidden for black in renju).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Pattern {
    Overline,
    #[default]
    None,
    Flex1,
    Block2,
    Flex2,
    Block3,
    Flex3,
    Block4,
    Flex4,
    Five,
}

/// Number of pattern classes, for count tables.
pub const PATTERNS: usize = 10;

impl Pattern {
    /// Every class, in order.
    pub const ALL: [Pattern; PATTERNS] = [
        Pattern::Overline,
        Pattern::None,
        Pattern::Flex1,
        Pattern::Block2,
        Pattern::Flex2,
        Pattern::Block3,
        Pattern::Flex3,
        Pattern::Block4,
        Pattern::Flex4,
        Pattern::Five,
    ];

    /// A four of either kind: the stone leaves at least one five-point.
    #[must_use]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::Block4 | Pattern::Flex4)
    }
}

/// A point's view of one line: ten base-3 digits, cells at offsets -5..=-1 then 1..=5.
pub type LineKey = u16;

/// Digit values of a line key.
pub const EMPTY_DIGIT: u16 = 0;
pub const OWN_DIGIT: u16 = 1;
pub const BLOCKED_DIGIT: u16 = 2;

/// Cells on each side of the point that a key holds.
pub const REACH: usize = 5;
/// Number of distinct keys, 3^10.
pub const KEYS: usize = 59_049;

/// Weight of each digit of a key.
pub const POW3: [u16; 2 * REACH] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// The digit (slot) of a key that holds the cell at `offset` (±1..=±5) from the point.
#[must_use]
pub fn slot(offset: i32) -> usize {
    if offset < 0 {
        (offset + REACH as i32) as usize
    } else {
        (offset + REACH as i32 - 1) as usize
    }
}

/// The table of one five rule: `patterns[key]` is what a stone placed on the point makes.
pub struct PatternTable {
    patterns: Vec<Pattern>,
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PatternTable")
    }
}

impl PatternTable {
    /// The pattern a stone on a point with this line view makes.
    #[must_use]
    pub fn get(&self, key: LineKey) -> Pattern {
        self.patterns[usize::from(key)]
    }

    fn build(exact_five: bool) -> PatternTable {
        let mut memo = vec![None; KEYS];
        for key in 0..KEYS {
            classify(key, exact_five, &mut memo);
        }
        PatternTable {
            patterns: memo.into_iter().map(Option::unwrap_or_default).collect(),
        }
    }

    /// The shared table for "five or more wins" (`exact_five == false`) or "exactly five wins".
    #[must_use]
    pub fn shared(exact_five: bool) -> &'static PatternTable {
        static FIVE_OR_MORE: OnceLock<PatternTable> = OnceLock::new();
        static EXACT_FIVE: OnceLock<PatternTable> = OnceLock::new();
        if exact_five {
            EXACT_FIVE.get_or_init(|| PatternTable::build(true))
        } else {
            FIVE_OR_MORE.get_or_init(|| PatternTable::build(false))
        }
    }
}

fn digits(key: usize) -> [u16; 2 * REACH] {
    let mut d = [0; 2 * REACH];
    let mut k = key;
    for digit in &mut d {
        *digit = (k % 3) as u16;
        k /= 3;
    }
    d
}

/// Memoised classification: a key with one more own stone is classified first, so the
/// recursion is at most ten deep and every key is computed once.
fn classify(key: usize, exact_five: bool, memo: &mut [Option<Pattern>]) -> Pattern {
    if let Some(p) = memo[key] {
        return p;
    }
    let d = digits(key);
    // Own stones in a row on each side of the point, which is own too.
    let back = (0..REACH).rev().take_while(|&s| d[s] == OWN_DIGIT).count();
    let forward = (REACH..2 * REACH)
        .take_while(|&s| d[s] == OWN_DIGIT)
        .count();
    let run = back + forward + 1;
    let pattern = if run >= 5 {
        if exact_five && run > 5 {
            Pattern::Overline
        } else {
            Pattern::Five
        }
    } else {
        let mut fives = 0;
        let mut best = Pattern::Overline;
        for s in 0..2 * REACH {
            if d[s] == EMPTY_DIGIT {
                let next = classify(key + usize::from(POW3[s]), exact_five, memo);
                if next == Pattern::Five {
                    fives += 1;
                }
                best = best.max(next);
            }
        }
        match (fives, best) {
            (2.., _) => Pattern::Flex4,
            (1, _) => Pattern::Block4,
            (_, Pattern::Flex4) => Pattern::Flex3,
            (_, Pattern::Block4) => Pattern::Block3,
            (_, Pattern::Flex3) => Pattern::Flex2,
            (_, Pattern::Block3) => Pattern::Block2,
            (_, Pattern::Flex2) => Pattern::Flex1,
            _ => Pattern::None,
        }
    };
    memo[key] = Some(pattern);
    pattern
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The key of a line drawn as text: `x` own, `o` blocked, `.` empty, `*` the point; up to
    /// five cells each side, missing ones blocked (the edge).
    pub(crate) fn key_of(line: &str) -> LineKey {
        let center = line.find('*').expect("a point");
        let cells: Vec<char> = line.chars().collect();
        let mut key = 0;
        for offset in -(REACH as i32)..=REACH as i32 {
            if offset == 0 {
                continue;
            }
            let at = center as i32 + offset;
            let digit = match (at >= 0).then(|| cells.get(at as usize)).flatten() {
                Some('x') => OWN_DIGIT,
                Some('.') => EMPTY_DIGIT,
                _ => BLOCKED_DIGIT,
            };
            key += digit * POW3[slot(offset)];
        }
        key
    }

    fn free(line: &str) -> Pattern {
        PatternTable::shared(false).get(key_of(line))
    }

    fn exact(line: &str) -> Pattern {
        PatternTable::shared(true).get(key_of(line))
    }

    #[test]
    fn classifies_the_common_shapes() {
        assert_eq!(free(".....xx*xx....."), Pattern::Five);
        assert_eq!(free("....xxx*xx....."), Pattern::Five);
        assert_eq!(exact("....xxx*xx....."), Pattern::Overline);
        assert_eq!(exact("....oxx*xxo...."), Pattern::Five);
        assert_eq!(free("......x*xx....."), Pattern::Flex4);
        assert_eq!(free(".....ox*xx....."), Pattern::Block4);
        assert_eq!(free(".....x.*xx....."), Pattern::Block4);
        // Two fours on one line: two five-points the opponent cannot both take.
        assert_eq!(free("....x.x*x.x...."), Pattern::Flex4);
        assert_eq!(free(".......*xx....."), Pattern::Flex3);
        assert_eq!(free(".....x.*x......"), Pattern::Flex3);
        assert_eq!(free("......o*xx....."), Pattern::Block3);
        assert_eq!(free("......o*xx.o..."), Pattern::None);
        assert_eq!(free(".......*x......"), Pattern::Flex2);
        assert_eq!(free("......o*x......"), Pattern::Block2);
        assert_eq!(free(".......*......."), Pattern::Flex1);
        assert_eq!(free("...o...*...o..."), Pattern::Flex1);
        assert_eq!(free("....o..*.o....."), Pattern::None);
        // Exact five: a five-point next to an own stone past it is not one.
        assert_eq!(free("......x*x.x...."), Pattern::Block4);
        assert_eq!(exact("....x.x*x.x...."), Pattern::Flex4);
        assert_eq!(exact(".....xx*x.x...."), Pattern::Block4);
        assert_eq!(free(".....xx*x.x...."), Pattern::Flex4);
    }

    #[test]
    fn slots_cover_both_sides() {
        let slots: Vec<usize> = (-5..=5).filter(|&o| o != 0).map(slot).collect();
        assert_eq!(slots, (0..10).collect::<Vec<_>>());
    }
}
