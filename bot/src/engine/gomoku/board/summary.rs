//! The sets and sums the board keeps of its empty points: [`PointSet`], a set of points as
//! bits, and per colour a [`Summary`] — the running totals of the points' values and
//! learned worths and the sets of points where a stone makes each threat.

use super::Point;

/// A set of points, one bit each, with its size kept so that emptiness is one comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PointSet {
    words: Vec<u64>,
    len: usize,
}

impl PointSet {
    pub(super) fn new(points: usize) -> PointSet {
        PointSet {
            words: vec![0; points.div_ceil(64)],
            len: 0,
        }
    }

    pub(super) fn assign(&mut self, p: Point, on: bool) {
        let (word, bit) = (usize::from(p) / 64, p % 64);
        let was = self.words[word] >> bit & 1 == 1;
        if on && !was {
            self.words[word] |= 1 << bit;
            self.len += 1;
        } else if !on && was {
            self.words[word] &= !(1 << bit);
            self.len -= 1;
        }
    }

    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        self.words[usize::from(p) / 64] >> (p % 64) & 1 == 1
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The points in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64) as Point + bit as Point
                })
            })
        })
    }

    /// The first two points, in increasing order.
    #[must_use]
    pub fn first_two(&self) -> (Option<Point>, Option<Point>) {
        let mut it = self.iter();
        let first = it.next();
        (first, it.next())
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }
}

/// Per-colour summaries of the empty points, kept in step with the patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Sum of [`super::super::points::point_value`] over the empty points: the hand-set evaluation.
    pub total: i32,
    /// Sums of the learned worths ([`super::super::learned`]) over the empty points, as the colour
    /// to move and as the colour waiting: the learned evaluation.
    pub worth_totals: [i32; 2],
    /// Points where a stone makes five.
    pub fives: PointSet,
    /// Points where a stone makes a four (simple or open) in some direction.
    pub fours: PointSet,
    /// Points where a stone makes an open four.
    pub flex4s: PointSet,
    /// Points where a stone makes an open three.
    pub threes: PointSet,
    /// Points where a stone makes two fours, or a four and an open three: a win next move
    /// unless the opponent has fours of his own.
    pub four_threes: PointSet,
}

impl Summary {
    pub(super) fn new(points: usize) -> Summary {
        Summary {
            total: 0,
            worth_totals: [0; 2],
            fives: PointSet::new(points),
            fours: PointSet::new(points),
            flex4s: PointSet::new(points),
            threes: PointSet::new(points),
            four_threes: PointSet::new(points),
        }
    }
}
