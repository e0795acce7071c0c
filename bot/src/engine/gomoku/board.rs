//! The engine's board: a padded 1-D array with, for every point, direction and colour, the
//! line key of [`super::pattern`] and the pattern it gives, all updated incrementally.
//!
//! A move touches only the five cells each way along its four lines (forty points): their
//! keys gain one digit, their patterns are looked up again, and the running totals follow —
//! the per-point values of [`super::points`], the learned worths and move-order scores of
//! [`super::learned`], and the sets of points where a colour makes a five, a four, an open
//! four or an open three ([`summary`]). A move ([`moves`]) records what it replaces;
//! unmaking subtracts the same digits and puts the records back, with no lookups, so
//! make/unmake is exact and cheap; [`Board::recount`] ([`checks`]) recomputes everything
//! from scratch for the tests.
//!
//! The padding is five wall cells on every side (one shared between the end of a row and the
//! start of the next), so every key update and line walk needs no coordinate test.

use std::cell::RefCell;

use game_core::gomoku::Gomoku;
use game_core::renju::RenjuBoard;
use game_core::{Cell, Color, GomokuRule};

use super::pattern::{slot, LineKey, Pattern, PatternTable, BLOCKED_DIGIT, OWN_DIGIT, POW3, REACH};
mod checks;
mod moves;
mod summary;
mod zobrist;

use moves::Change;
pub use summary::{PointSet, Summary};
use zobrist::SIDE_KEY;

use super::learned::{Class, Learned};
use super::points;

/// A point: an index into the padded array.
pub type Point = u16;

const EMPTY: u8 = 0;
const WALL: u8 = 3;
const PAD: usize = REACH;

/// Index of a colour in per-colour tables: black 0, white 1.
#[must_use]
pub fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The colour of a side index.
#[must_use]
pub fn color_of(side: usize) -> Color {
    if side == 0 {
        Color::Black
    } else {
        Color::White
    }
}

/// The points within two of `p` (a 5x5 square, `p` among them) in the padded array of row
/// length `stride`: the square whose stones make `p`'s neighbours candidates. The padding keeps
/// every such square inside the array.
fn square(p: usize, stride: usize) -> impl Iterator<Item = usize> {
    let (p, s) = (p as isize, stride as isize);
    (-2..=2).flat_map(move |dr| (-2..=2).map(move |dc| (p + dr * s + dc) as usize))
}

/// The four line directions as steps in the padded array: across, up, up-right, up-left.
fn directions(stride: usize) -> [isize; 4] {
    let s = stride as isize;
    [1, s, s + 1, s - 1]
}

/// Everything the board keeps about one point, side by side: a move updates forty points,
/// and each update then touches one cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Spot {
    /// Per colour and direction, the point's view of the line ([`super::pattern`]).
    keys: [[LineKey; 4]; 2],
    /// Per colour and direction, what a stone of that colour here would make.
    patterns: [[Pattern; 4]; 2],
    /// Per colour, [`points::point_value`] of the patterns (0 on an occupied point).
    values: [i16; 2],
    /// Per colour, the threat flags of the patterns (0 on an occupied point).
    flags: [u8; 2],
    /// EMPTY, black 1, white 2 or WALL.
    cell: u8,
    /// Stones within two points (a 5x5 square): the candidate moves are the empty points
    /// with some. A threat search's stones are not counted ([`Board::threats_only`]).
    near: u8,
}

impl Spot {
    const WALL: Spot = Spot {
        keys: [[0; 4]; 2],
        patterns: [[Pattern::None; 4]; 2],
        values: [0; 2],
        flags: [0; 2],
        cell: WALL,
        near: 0,
    };
}

/// A Gomoku board for searching: make/unmake with incremental patterns and Zobrist hashing.
#[derive(Clone, Debug)]
pub struct Board {
    size: usize,
    stride: usize,
    rule: GomokuRule,
    dirs: [isize; 4],
    /// Cells each side of a point that its keys hold: five under an exact-five rule (the
    /// fifth tells an overline), four in freestyle, where nothing further changes a pattern.
    reach: isize,
    spots: Vec<Spot>,
    /// Per point and colour, the learned worths as mover and as waiting (0 on an occupied
    /// point): beside the spots rather than in them, which fill a 32-byte line already.
    worths: Vec<[[i16; 2]; 2]>,
    /// Per point and colour, the move order's scores as attacker and as defender.
    orders: Vec<[[i16; 2]; 2]>,
    /// While a threat search runs ([`Board::threats_only`]): moves update the patterns, the
    /// threat sets and the move order, not the values and worths the evaluation sums.
    threats_only: bool,
    /// The moves made before the threat search began (see [`Board::threat_candidates`]); read
    /// only while one runs.
    threats_from: usize,
    /// Whether the move order is the learned one ([`Board::with_learned_order`]) or the
    /// hand-set values'.
    learned_order: bool,
    learned: &'static Learned,
    /// Per colour, the class of its learned weights.
    classes: [Class; 2],
    points_table: &'static points::PointTable,
    summary: [Summary; 2],
    /// The empty points with a stone within two: where the move generator looks. As they
    /// were before a threat search while it runs ([`Board::threat_candidates`]).
    candidates: PointSet,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    stones: usize,
    /// Passes in force (see [`Board::pass`]).
    passes: usize,
    /// Moves made with `make`, whether each made a five, and where its changes start in
    /// `changes`.
    history: Vec<(Point, bool, usize)>,
    /// The changes of the moves in `history`, oldest first.
    changes: Vec<Change>,
    /// The renju referee's view, for the exact forbidden-point test; a `RefCell` because its
    /// test tries stones on it.
    renju: RefCell<RenjuBoard>,
    tables: [&'static PatternTable; 2],
    /// The real points in row-major order from a1.
    points: Vec<Point>,
}

impl Board {
    /// An empty board (`size` 5..=26 as game-core checks).
    #[must_use]
    pub fn new(size: u8, rule: GomokuRule) -> Board {
        let n = usize::from(size);
        let stride = n + PAD;
        let len = (n + 2 * PAD + 1) * stride;
        let exact_black = rule != GomokuRule::Freestyle;
        let exact_white = rule == GomokuRule::Standard;
        let zobrist = zobrist::point_keys(len, n);
        let mut spots = vec![Spot::WALL; len];
        let mut points = Vec::with_capacity(n * n);
        for row in 0..n {
            for col in 0..n {
                let p = (row + PAD) * stride + col + PAD;
                spots[p].cell = EMPTY;
                points.push(p as Point);
            }
        }
        let mut board = Board {
            size: n,
            stride,
            rule,
            dirs: directions(stride),
            reach: if rule == GomokuRule::Freestyle { 4 } else { 5 },
            worths: vec![[[0; 2]; 2]; len],
            orders: vec![[[0; 2]; 2]; len],
            learned_order: false,
            threats_only: false,
            threats_from: 0,
            learned: Learned::shared(),
            classes: [Color::Black, Color::White].map(|c| Class::of(rule, c)),
            spots,
            points_table: points::PointTable::shared(),
            summary: [Summary::new(len), Summary::new(len)],
            candidates: PointSet::new(len),
            zobrist,
            hash: 0,
            stones: 0,
            passes: 0,
            history: Vec::new(),
            changes: Vec::new(),
            renju: RefCell::new(RenjuBoard::new(size)),
            tables: [
                PatternTable::shared(exact_black),
                PatternTable::shared(exact_white),
            ],
            points,
        };
        board.rebuild();
        board
    }

    /// The engine board of a game-core position.
    #[must_use]
    pub fn from_position(pos: &Gomoku) -> Board {
        Board::from_position_ordered(pos, false)
    }

    /// [`Board::from_position`], with the learned move order when `learned_order`: set first.
    #[must_use]
    pub fn from_position_ordered(pos: &Gomoku, learned_order: bool) -> Board {
        let mut board = Board::new(pos.size(), pos.rule());
        if learned_order {
            board = board.with_learned_order();
        }
        for (cell, color) in pos.stones() {
            let p = board.point(cell);
            board.put::<false>(p, color);
        }
        board.history.clear();
        board.changes.clear();
        board
    }

    /// Recomputes keys, patterns and summaries from the stones.
    fn rebuild(&mut self) {
        let len = self.spots.len();
        for q in 0..len {
            for v in 0..2 {
                for d in 0..4 {
                    self.spots[q].keys[v][d] = self.fresh_key(q, v, d);
                }
            }
            self.spots[q].values = [0; 2];
            self.spots[q].flags = [0; 2];
            self.worths[q] = [[0; 2]; 2];
            self.orders[q] = [[0; 2]; 2];
        }
        self.summary = [Summary::new(len), Summary::new(len)];
        self.candidates = PointSet::new(len);
        for i in 0..self.points.len() {
            let p = self.points[i];
            if self.spots[usize::from(p)].cell == EMPTY {
                self.attach(p);
                self.candidates
                    .assign(p, self.spots[usize::from(p)].near > 0);
            }
        }
    }

    /// Counts again, for every point, the stones within two of it.
    fn count_near(&mut self) {
        for spot in &mut self.spots {
            spot.near = 0;
        }
        for i in 0..self.points.len() {
            let p = usize::from(self.points[i]);
            if self.spots[p].cell != EMPTY {
                for q in square(p, self.stride) {
                    self.spots[q].near += 1;
                }
            }
        }
    }

    /// The key of point `q`, colour `v`, direction `d`, read off the cells.
    fn fresh_key(&self, q: usize, v: usize, d: usize) -> LineKey {
        let own = v as u8 + 1;
        let mut key = 0;
        for offset in -self.reach..=self.reach {
            if offset == 0 {
                continue;
            }
            let at = q as isize + offset * self.dirs[d];
            let cell = usize::try_from(at)
                .ok()
                .and_then(|i| self.spots.get(i))
                .map_or(WALL, |s| s.cell);
            let digit = if cell == EMPTY {
                0
            } else if cell == own {
                OWN_DIGIT
            } else {
                BLOCKED_DIGIT
            };
            key += digit * POW3[slot(offset as i32)];
        }
        key
    }

    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }
    #[must_use]
    pub fn rule(&self) -> GomokuRule {
        self.rule
    }
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Stones on the board.
    #[must_use]
    pub fn stones(&self) -> usize {
        self.stones
    }
    /// The side to move (0 black, 1 white): black moves when the stones (and passes) are even.
    #[must_use]
    pub fn turn(&self) -> usize {
        (self.stones + self.passes) % 2
    }

    /// Gives the move to the other side without a stone (to ask what the opponent threatens).
    pub fn pass(&mut self) {
        self.passes += 1;
        self.hash ^= SIDE_KEY;
    }

    /// Takes back a [`Board::pass`].
    pub fn unpass(&mut self) {
        if self.passes > 0 {
            self.passes -= 1;
            self.hash ^= SIDE_KEY;
        }
    }
    /// The real points, row-major from a1.
    #[must_use]
    pub fn points(&self) -> &[Point] {
        &self.points
    }
    /// Line direction steps.
    #[must_use]
    pub fn dirs(&self) -> [isize; 4] {
        self.dirs
    }

    /// The point of a cell (which must be on the board).
    #[must_use]
    pub fn point(&self, cell: Cell) -> Point {
        ((usize::from(cell.row) + PAD) * self.stride + usize::from(cell.col) + PAD) as Point
    }

    /// The cell of a real point.
    #[must_use]
    pub fn cell(&self, p: Point) -> Cell {
        let p = usize::from(p);
        Cell::new((p % self.stride - PAD) as u8, (p / self.stride - PAD) as u8)
    }

    /// The cell of `p` if it is a real point (not padding).
    #[must_use]
    pub fn cell_checked(&self, p: isize) -> Option<Cell> {
        let i = usize::try_from(p).ok()?;
        (self.spots.get(i).is_some_and(|s| s.cell != WALL)).then(|| self.cell(i as Point))
    }

    /// Row-major index `row * size + col` (the move code).
    #[must_use]
    pub fn code(&self, p: Point) -> u32 {
        let c = self.cell(p);
        u32::from(c.row) * self.size as u32 + u32::from(c.col)
    }

    #[must_use]
    pub fn is_empty(&self, p: Point) -> bool {
        self.spots[usize::from(p)].cell == EMPTY
    }

    /// The stone on a point: Some(0) black, Some(1) white.
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<usize> {
        match self.spots[usize::from(p)].cell {
            1 => Some(0),
            2 => Some(1),
            _ => None,
        }
    }

    /// Stones within two points of `p` (a threat search's own not counted while it runs).
    #[must_use]
    pub fn near(&self, p: Point) -> u8 {
        self.spots[usize::from(p)].near
    }

    /// The empty points with a stone within two points. A threat search's moves
    /// ([`Board::threats_only`]) leave them as they were: it reads
    /// [`Board::threat_candidates`].
    #[must_use]
    pub fn candidates(&self) -> &PointSet {
        &self.candidates
    }

    /// The candidates during a threat search ([`Board::threats_only`], whose moves leave
    /// [`Board::candidates`] as they were): those of the position it started from that are
    /// still empty, and the empty points within two of the stones it put, in increasing
    /// order, in place of `out`'s. Outside one, the candidates.
    pub fn threat_candidates(&self, out: &mut Vec<Point>) {
        out.clear();
        out.extend(self.candidates.iter().filter(|&p| self.is_empty(p)));
        if !self.threats_only {
            return;
        }
        for &(p, _, _) in &self.history[self.threats_from..] {
            let empty =
                square(usize::from(p), self.stride).filter(|&q| self.spots[q].cell == EMPTY);
            out.extend(empty.map(|q| q as Point));
        }
        out.sort_unstable();
        out.dedup();
    }

    /// What colour `v` makes on `p` in each direction.
    #[must_use]
    pub fn patterns(&self, p: Point, v: usize) -> &[Pattern; 4] {
        &self.spots[usize::from(p)].patterns[v]
    }

    /// The line key of `p` for colour `v` in direction `d`.
    #[must_use]
    pub fn key(&self, p: Point, v: usize, d: usize) -> LineKey {
        self.spots[usize::from(p)].keys[v][d]
    }

    /// The pattern table of colour `v`.
    #[must_use]
    pub fn table(&self, v: usize) -> &'static PatternTable {
        self.tables[v]
    }

    /// The value of empty point `p` for colour `v` ([`points::point_value`]): how moves
    /// are ranked.
    #[must_use]
    pub fn value(&self, p: Point, v: usize) -> i32 {
        i32::from(self.spots[usize::from(p)].values[v])
    }

    /// The move order's score of empty point `p` for colour `v` in `role`
    /// ([`super::learned::ATTACK`] when `v` would play there, `DEFEND` when the other would).
    #[must_use]
    pub fn order(&self, p: Point, v: usize, role: usize) -> i32 {
        i32::from(self.orders[usize::from(p)][v][role])
    }

    /// The same board with the learned move order (full strength's) instead of the
    /// hand-set values'.
    #[must_use]
    pub fn with_learned_order(mut self) -> Board {
        // A rebuild keeps no record of moves made before it.
        debug_assert!(self.history.is_empty());
        self.learned_order = true;
        self.rebuild();
        self
    }

    /// Runs `search` with moves that keep only what a threat search reads: the patterns, the
    /// threat sets and the move order. The values and worths that only the evaluation reads,
    /// and the candidates with their counts of stones near (which only the quiet threats
    /// read, through [`Board::threat_candidates`]), are left as they were before `search`,
    /// which must take back every move it makes (its changes are put back in the same mode):
    /// about a tenth of a threat search's time for the values and worths
    /// (docs/benchmarks-log/gomoku-learned-2.md, "A lighter board for the threat search, and
    /// the forced move's time"), a tenth more for the candidates ("The candidates left
    /// behind").
    pub fn threats_only<R>(&mut self, search: impl FnOnce(&mut Board) -> R) -> R {
        let (was, moves) = (self.threats_only, self.history.len());
        // Nested, the candidates are still those of the outer search's start.
        if !was {
            self.threats_from = moves;
        }
        self.threats_only = true;
        let result = search(self);
        debug_assert_eq!(
            self.history.len(),
            moves,
            "a threat search left a move made"
        );
        self.threats_only = was;
        result
    }

    /// The learned worth of empty point `p` for colour `v` in `role` ([`super::learned`]):
    /// what the evaluation counts.
    #[must_use]
    pub fn worth(&self, p: Point, v: usize, role: usize) -> i32 {
        i32::from(self.worths[usize::from(p)][v][role])
    }

    #[must_use]
    pub fn summary(&self, v: usize) -> &Summary {
        &self.summary[v]
    }

    /// Whether the last move made a five.
    #[must_use]
    pub fn last_made_five(&self) -> bool {
        self.history.last().is_some_and(|&(_, five, _)| five)
    }

    /// The move made `back` moves before the last with [`Board::make`] (0: the last).
    #[must_use]
    pub fn recent_move(&self, back: usize) -> Option<Point> {
        self.history.iter().rev().nth(back).map(|&(p, _, _)| p)
    }

    /// The distance between two points in king moves.
    #[must_use]
    pub fn distance(&self, a: Point, b: Point) -> usize {
        let (a, b) = (self.cell(a), self.cell(b));
        usize::from(a.col.abs_diff(b.col).max(a.row.abs_diff(b.row)))
    }

    /// Whether black on the empty point `p` is forbidden (renju only). Most points are
    /// cleared by their patterns alone: a forbidden point needs an overline, an open four
    /// (which may be two fours on one line) or two lines holding a three or a four, and no
    /// five. The rest go to game-core's exact recursive test.
    #[must_use]
    pub fn is_forbidden(&self, p: Point) -> bool {
        if self.rule != GomokuRule::Renju || !self.is_empty(p) {
            return false;
        }
        let pats = &self.spots[usize::from(p)].patterns[0];
        if pats.contains(&Pattern::Five) {
            return false;
        }
        let strong = pats.iter().filter(|&&x| x >= Pattern::Flex3).count();
        if strong < 2 && !pats.contains(&Pattern::Overline) && !pats.contains(&Pattern::Flex4) {
            return false;
        }
        let cell = self.cell(p);
        self.renju.borrow_mut().forbidden(cell).is_some()
    }

    /// Whether colour `v` may play the point: empty and, for black in renju, not forbidden.
    #[must_use]
    pub fn is_legal(&self, p: Point, v: usize) -> bool {
        self.is_empty(p) && !(v == 0 && self.is_forbidden(p))
    }
}
