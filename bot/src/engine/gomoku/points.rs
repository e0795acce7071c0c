//! What an empty point is worth to a colour: what a stone there would make along its four
//! line patterns, plus a bonus for combinations (four-three, double three, four and open two
//! and the like), and which threats it makes — tabulated for every combination of four
//! patterns, so that the board can keep its sums up to date move by move. Two sets of
//! weights: the hand-set *values* rank the moves, the *worths*, fitted to self-play results,
//! make the evaluation.

use super::pattern::{Pattern, PATTERNS};

/// What one line pattern on a point is worth to the move order, by [`Pattern`] order.
const WEIGHTS: [i32; PATTERNS] = [0, 0, 2, 3, 10, 12, 40, 45, 220, 1000];

/// Bonus for a point that makes two threats at once: a four with a four or an open three
/// wins by force unless the opponent has a faster threat; two open threes win unless
/// defended with a four. Only these two count in the move order.
const BONUSES: [i32; COMBINATIONS] = [400, 150, 0, 0, 0, 0, 0, 0, 0];

/// What one line pattern on a point is worth to the evaluation, by [`Pattern`] order: fitted
/// to self-play games (`examples/gomoku_train.rs`, docs/benchmarks.md "Gomoku evaluation").
/// The move order keeps [`WEIGHTS`], whose small steps between weak shapes rank quiet moves.
const WORTHS: [i32; PATTERNS] = [0, 0, 0, 0, 2, 3, 71, 67, 222, 1000];
/// The evaluation's bonus for each [`combination`], fitted with [`WORTHS`].
const BONUS_WORTHS: [i32; COMBINATIONS] = [1048, 57, 17, 150, 11, 56, 1, 27, 26];

/// The kinds of point that make two shapes at once, strongest first: see [`combination`].
pub const COMBINATIONS: usize = 9;

/// The combination a stone on a point makes with the patterns of two of its lines:
/// 0 a four-three (two fours, a four and an open three, or an open four), 1 a double open
/// three; then by the two strongest lines, 2 four and three, 3 four and open two, 4 open
/// three and three, 5 open three and open two, 6 two threes, 7 three and open two, 8 two open
/// twos (a "three" being a [`Pattern::Block3`], which one stone makes a four). `None` for a
/// point with at most one such line.
#[must_use]
pub fn combination(patterns: &[Pattern; 4]) -> Option<usize> {
    let mut fours = 0;
    let mut threes = 0;
    for &p in patterns {
        if p.is_four() {
            fours += 1 + usize::from(p == Pattern::Flex4);
        } else if p == Pattern::Flex3 {
            threes += 1;
        }
    }
    if fours >= 2 || (fours == 1 && threes >= 1) {
        return Some(0);
    }
    if threes >= 2 {
        return Some(1);
    }
    let mut sorted = *patterns;
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    match (sorted[0], sorted[1]) {
        (Pattern::Block4, Pattern::Block3) => Some(2),
        (Pattern::Block4, Pattern::Flex2) => Some(3),
        (Pattern::Flex3, Pattern::Block3) => Some(4),
        (Pattern::Flex3, Pattern::Flex2) => Some(5),
        (Pattern::Block3, Pattern::Block3) => Some(6),
        (Pattern::Block3, Pattern::Flex2) => Some(7),
        (Pattern::Flex2, Pattern::Flex2) => Some(8),
        _ => None,
    }
}

/// The worth of a point to one colour, given its patterns in the four directions: how the
/// moves are ranked. `renju_black`: the shapes forbidden to black in renju are worth nothing
/// (the exact test is too slow for every point; two "threes" that only look like threes are
/// rare enough).
#[must_use]
pub fn point_value(patterns: &[Pattern; 4], renju_black: bool) -> i32 {
    weigh(patterns, renju_black, &WEIGHTS, &BONUSES)
}

/// What a point counts in the evaluation: [`point_value`] with the fitted [`WORTHS`] and
/// [`BONUS_WORTHS`].
#[must_use]
pub fn point_worth(patterns: &[Pattern; 4], renju_black: bool) -> i32 {
    weigh(patterns, renju_black, &WORTHS, &BONUS_WORTHS)
}

fn weigh(
    patterns: &[Pattern; 4],
    renju_black: bool,
    weights: &[i32; PATTERNS],
    bonuses: &[i32; COMBINATIONS],
) -> i32 {
    let value: i32 = patterns.iter().map(|&p| weights[p as usize]).sum();
    if patterns.contains(&Pattern::Five) {
        return value;
    }
    let combination = combination(patterns);
    if renju_black && (matches!(combination, Some(0 | 1)) || patterns.contains(&Pattern::Overline))
    {
        return 0;
    }
    value + combination.map_or(0, |c| bonuses[c])
}

/// A point's four patterns as one number, `Σ pattern · 10^direction`: the index of the
/// precomputed [`PointTable`].
#[must_use]
pub fn combo_index(patterns: &[Pattern; 4]) -> u16 {
    patterns
        .iter()
        .rev()
        .fold(0, |acc, &p| acc * PATTERNS as u16 + p as u16)
}

/// Membership flags of a point: which threat sets of the board it belongs to.
pub const MAKES_FIVE: u8 = 1;
pub const MAKES_FOUR: u8 = 2;
pub const MAKES_FLEX4: u8 = 4;
pub const MAKES_FLEX3: u8 = 8;
pub const MAKES_FOUR_THREE: u8 = 16;

/// Whether a point with these patterns makes two fours, or a four and an open three.
#[must_use]
pub fn is_four_three(patterns: &[Pattern; 4]) -> bool {
    let fours: usize = patterns
        .iter()
        .map(|&p| usize::from(p.is_four()) + usize::from(p == Pattern::Flex4))
        .sum();
    let threes = patterns.iter().filter(|&&p| p == Pattern::Flex3).count();
    fours >= 2 || (fours == 1 && threes >= 1)
}

/// What the [`PointTable`] holds for one combination of four patterns.
#[derive(Clone, Copy, Debug, Default)]
pub struct PointEntry {
    /// [`point_value`], for every colour but black in renju (0) and for black in renju (1).
    pub value: [i16; 2],
    /// The point's shape ([`super::learned::shape_of`]): the index of its learned worths.
    pub shape: u16,
    /// The threat flags (`MAKES_*`).
    pub flags: u8,
}

/// [`point_value`] and the threat flags for every combination of four patterns, so a move's
/// forty pattern changes cost a lookup each.
pub struct PointTable {
    entries: Vec<PointEntry>,
}

impl std::fmt::Debug for PointTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PointTable")
    }
}

impl PointTable {
    /// The shared table.
    #[must_use]
    pub fn shared() -> &'static PointTable {
        static TABLE: std::sync::OnceLock<PointTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            let combos = PATTERNS.pow(4);
            let mut entries = Vec::with_capacity(combos);
            for index in 0..combos {
                let pats: [Pattern; 4] =
                    std::array::from_fn(|d| Pattern::ALL[index / 10usize.pow(d as u32) % 10]);
                // Values stay far inside i16: at most four fives and a bonus.
                let value = [false, true].map(|renju| point_value(&pats, renju) as i16);
                let shape = super::learned::shape_of(&pats);
                let mut f = 0;
                for p in pats {
                    f |= match p {
                        Pattern::Five => MAKES_FIVE,
                        Pattern::Flex4 => MAKES_FOUR | MAKES_FLEX4,
                        Pattern::Block4 => MAKES_FOUR,
                        Pattern::Flex3 => MAKES_FLEX3,
                        _ => 0,
                    };
                }
                if is_four_three(&pats) {
                    f |= MAKES_FOUR_THREE;
                }
                entries.push(PointEntry {
                    value,
                    shape,
                    flags: f,
                });
            }
            PointTable { entries }
        })
    }

    /// The entry of a combination ([`combo_index`]).
    #[must_use]
    pub fn entry(&self, index: u16) -> PointEntry {
        self.entries[usize::from(index)]
    }

    /// The value of a combination; `renju_black` as for [`point_value`].
    #[must_use]
    pub fn value(&self, index: u16, renju_black: bool) -> i32 {
        i32::from(self.entry(index).value[usize::from(renju_black)])
    }

    /// The threat flags of a combination.
    #[must_use]
    pub fn flags(&self, index: u16) -> u8 {
        self.entry(index).flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_worth_more_than_their_parts() {
        use Pattern::*;
        let three = point_value(&[Flex3, None, None, None], false);
        let four = point_value(&[Block4, None, None, None], false);
        let four_three = point_value(&[Block4, Flex3, None, None], false);
        let double_three = point_value(&[Flex3, Flex3, None, None], false);
        assert!(four_three > three + four + 300);
        assert!(double_three > 2 * three + 100);
        // Forbidden for black in renju: worth nothing there.
        assert_eq!(point_value(&[Flex3, Flex3, None, None], true), 0);
        assert_eq!(point_value(&[Overline, Flex3, None, None], true), 0);
        assert!(point_value(&[Five, Flex3, Flex3, None], true) >= 1000);
        let pats = [Block4, None, Flex3, Five];
        let index = combo_index(&pats);
        let table = PointTable::shared();
        assert_eq!(table.value(index, false), point_value(&pats, false));
        assert_eq!(
            table.flags(index),
            MAKES_FIVE | MAKES_FOUR | MAKES_FLEX3 | MAKES_FOUR_THREE
        );
        // A four and an open three, two fours, an open four: each wins next move.
        assert!(is_four_three(&[Block4, Flex3, None, None]));
        assert!(is_four_three(&[Block4, None, Block4, None]));
        assert!(is_four_three(&[Flex4, None, None, None]));
        assert!(!is_four_three(&[Block4, Block3, Flex2, None]));
        assert!(!is_four_three(&[Flex3, Flex3, None, None]));
    }

    #[test]
    fn combinations_are_told_by_their_two_strongest_lines() {
        use Pattern::*;
        assert_eq!(combination(&[Block4, Flex3, None, None]), Some(0));
        assert_eq!(combination(&[Flex4, None, None, None]), Some(0));
        assert_eq!(combination(&[Flex3, Flex1, Flex3, None]), Some(1));
        assert_eq!(combination(&[Block3, Block4, Flex2, None]), Some(2));
        assert_eq!(combination(&[None, Flex2, Block4, Block2]), Some(3));
        assert_eq!(combination(&[Block3, Flex3, Block3, None]), Some(4));
        assert_eq!(combination(&[Flex2, Block2, Flex3, Flex1]), Some(5));
        assert_eq!(combination(&[Block3, Block3, Block2, None]), Some(6));
        assert_eq!(combination(&[Block3, Flex2, Flex2, None]), Some(7));
        assert_eq!(combination(&[Flex2, Flex2, Block2, None]), Some(8));
        assert_eq!(combination(&[Flex3, Block2, Flex1, None]), Option::None);
        assert_eq!(combination(&[Flex2, Block2, Block2, Flex1]), Option::None);
        // The evaluation's worth: a combination is worth more than its lines alone, and
        // black's forbidden shapes in renju nothing.
        let table = PointTable::shared();
        for pats in [[Block4, Flex3, None, None], [Block4, Flex2, None, None]] {
            let lines: i32 = pats
                .iter()
                .map(|&p| point_worth(&[p, None, None, None], false))
                .sum();
            assert!(point_worth(&pats, false) > lines, "{pats:?}");
            let index = combo_index(&pats);
            assert_eq!(
                table.entry(index).shape,
                super::super::learned::shape_of(&pats)
            );
        }
        assert_eq!(point_worth(&[Flex3, Flex3, None, None], true), 0);
    }
}
