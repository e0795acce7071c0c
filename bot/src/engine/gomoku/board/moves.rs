//! Make and unmake: a move's incremental update of the keys, patterns and summaries of the
//! forty points along its lines, each change recorded so that unmaking puts it back.

use game_core::{Color, GomokuRule};

use super::super::pattern::{slot, Pattern, BLOCKED_DIGIT, OWN_DIGIT, POW3};
use super::super::points;
use super::zobrist::SIDE_KEY;
use super::{color_of, side, square, Board, Point, EMPTY};

/// What a move changed at one empty point for one colour: put back as it was on unmake, so
/// that taking a stone back costs no pattern or point-table lookups.
#[derive(Clone, Copy, Debug)]
pub(super) struct Change {
    point: Point,
    side: u8,
    /// The direction whose pattern changed; [`DETACHED`] for the point the stone went on,
    /// whose patterns stay as they were (nothing updates an occupied point's).
    dir: u8,
    pattern: Pattern,
    value: i16,
    worth: [i16; 2],
    order: [i16; 2],
    flags: u8,
}

/// [`Change::dir`] of the point a stone went on.
const DETACHED: u8 = u8::MAX;

impl Board {
    /// Plays the side to move on the empty point `p`.
    pub fn make(&mut self, p: Point) {
        let v = self.turn();
        let five = self.spots[usize::from(p)].patterns[v].contains(&Pattern::Five);
        let mark = self.changes.len();
        // One test a move rather than one a change: the mode is fixed for the whole of a
        // threat search, whose moves are all taken back inside it.
        if self.threats_only {
            self.put::<true>(p, color_of(v));
        } else {
            self.put::<false>(p, color_of(v));
        }
        self.history.push((p, five, mark));
    }

    /// Takes back the last move made with [`Board::make`].
    pub fn unmake(&mut self) {
        // The candidates a threat search reads are rebuilt from its own moves.
        debug_assert!(
            !self.threats_only || self.history.len() > self.threats_from,
            "a threat search took back a move made before it"
        );
        if let Some((p, _, mark)) = self.history.pop() {
            if self.threats_only {
                self.take::<true>(p, mark);
            } else {
                self.take::<false>(p, mark);
            }
        }
    }

    /// Puts a stone on the empty point `p`; `THREATS`: under [`Board::threats_only`].
    pub(super) fn put<const THREATS: bool>(&mut self, p: Point, color: Color) {
        let v = side(color);
        let pi = usize::from(p);
        self.detach::<THREATS>(p);
        self.spots[pi].cell = v as u8 + 1;
        self.hash ^= self.zobrist[pi][v] ^ SIDE_KEY;
        self.stones += 1;
        if self.rule == GomokuRule::Renju {
            self.renju.borrow_mut().set(self.cell(p), Some(color));
        }
        // A threat search reads no candidates but through [`Board::threat_candidates`],
        // which adds the squares around its own stones: the counts stay as they were.
        if !THREATS {
            self.candidates.assign(p, false);
            self.update_near(pi, true);
        }
        self.update_lines::<THREATS>(pi, v, true);
    }

    /// Removes the stone on `p`, put there by the move whose changes start at `mark`.
    fn take<const THREATS: bool>(&mut self, p: Point, mark: usize) {
        let pi = usize::from(p);
        let v = usize::from(self.spots[pi].cell) - 1;
        self.spots[pi].cell = EMPTY;
        self.hash ^= self.zobrist[pi][v] ^ SIDE_KEY;
        self.stones -= 1;
        if self.rule == GomokuRule::Renju {
            self.renju.borrow_mut().set(self.cell(p), None);
        }
        if !THREATS {
            self.update_near(pi, false);
            self.candidates.assign(p, self.spots[pi].near > 0);
        }
        self.update_lines::<THREATS>(pi, v, false);
        self.restore::<THREATS>(mark);
    }

    /// Puts back, newest first, what the changes from `mark` on replaced.
    fn restore<const THREATS: bool>(&mut self, mark: usize) {
        while self.changes.len() > mark {
            let Some(c) = self.changes.pop() else { break };
            let v = usize::from(c.side);
            if c.dir != DETACHED {
                self.spots[usize::from(c.point)].patterns[v][usize::from(c.dir)] = c.pattern;
            }
            if THREATS {
                self.set_threat_summary(c.point, v, c.order, c.flags);
            } else {
                self.set_summary(c.point, v, c.value, c.worth, c.order, c.flags);
            }
        }
    }

    /// Records what colour `v`'s summary of the empty point `p` (and its pattern in direction
    /// `dir`) is before a move changes it.
    fn record(&mut self, p: Point, v: usize, dir: u8) {
        let pi = usize::from(p);
        let spot = &self.spots[pi];
        self.changes.push(Change {
            point: p,
            side: v as u8,
            dir,
            pattern: if dir == DETACHED {
                Pattern::None
            } else {
                spot.patterns[v][usize::from(dir)]
            },
            value: spot.values[v],
            worth: self.worths[pi][v],
            order: self.orders[pi][v],
            flags: spot.flags[v],
        });
    }

    fn update_near(&mut self, pi: usize, add: bool) {
        for q in square(pi, self.stride) {
            let spot = &mut self.spots[q];
            if add {
                spot.near += 1;
                if spot.near == 1 && spot.cell == EMPTY {
                    self.candidates.assign(q as Point, true);
                }
            } else {
                spot.near -= 1;
                if spot.near == 0 {
                    self.candidates.assign(q as Point, false);
                }
            }
        }
    }

    /// Adds or removes colour `v`'s stone on `pi` in the keys of the forty points around it.
    /// Adding looks up again the patterns of the empty ones (recording what changes);
    /// removing leaves them to [`Board::restore`].
    fn update_lines<const THREATS: bool>(&mut self, pi: usize, v: usize, add: bool) {
        let tables = self.tables;
        for d in 0..4 {
            let step = self.dirs[d];
            for k in 1..=self.reach {
                for (q, offset) in [(pi as isize - k * step, k), (pi as isize + k * step, -k)] {
                    let q = q as usize;
                    let w = POW3[slot(offset as i32)];
                    let spot = &mut self.spots[q];
                    if !add {
                        spot.keys[v][d] -= OWN_DIGIT * w;
                        spot.keys[1 - v][d] -= BLOCKED_DIGIT * w;
                        continue;
                    }
                    spot.keys[v][d] += OWN_DIGIT * w;
                    spot.keys[1 - v][d] += BLOCKED_DIGIT * w;
                    if spot.cell != EMPTY {
                        continue;
                    }
                    let keys = [spot.keys[0][d], spot.keys[1][d]];
                    for c in 0..2 {
                        let new = tables[c].get(keys[c]);
                        if new != self.spots[q].patterns[c][d] {
                            self.record(q as Point, c, d as u8);
                            self.spots[q].patterns[c][d] = new;
                            self.summarise::<THREATS>(q as Point, c);
                        }
                    }
                }
            }
        }
    }

    /// Takes the empty point `p` out of the summaries (a stone goes there).
    fn detach<const THREATS: bool>(&mut self, p: Point) {
        for v in 0..2 {
            self.record(p, v, DETACHED);
            if THREATS {
                self.set_threat_summary(p, v, [0; 2], 0);
            } else {
                self.set_summary(p, v, 0, [0; 2], [0; 2], 0);
            }
        }
    }

    /// Puts the (now empty) point `p` into the summaries, its patterns read off its keys.
    pub(super) fn attach(&mut self, p: Point) {
        let pi = usize::from(p);
        for v in 0..2 {
            for d in 0..4 {
                self.spots[pi].patterns[v][d] = self.tables[v].get(self.spots[pi].keys[v][d]);
            }
            self.summarise::<false>(p, v);
        }
    }

    /// Recomputes the value and threat-set memberships of the empty point `p` for colour `v`.
    fn summarise<const THREATS: bool>(&mut self, p: Point, v: usize) {
        let pi = usize::from(p);
        let index = points::combo_index(&self.spots[pi].patterns[v]);
        let renju_black = v == 0 && self.rule == GomokuRule::Renju;
        let e = self.points_table.entry(index);
        let value = e.value[usize::from(renju_black)];
        let order = if self.learned_order {
            self.learned.order(self.classes[v], e.shape)
        } else {
            [value * 5 / 4, value]
        };
        if THREATS {
            self.set_threat_summary(p, v, order, e.flags);
            return;
        }
        let worth = self.learned.worth(self.classes[v], e.shape);
        self.set_summary(p, v, value, worth, order, e.flags);
    }

    /// Sets colour `v`'s value, worth, move-order score and threat flags of `p`, the running
    /// totals and the threat sets with them.
    fn set_summary(
        &mut self,
        p: Point,
        v: usize,
        value: i16,
        worth: [i16; 2],
        order: [i16; 2],
        flags: u8,
    ) {
        let pi = usize::from(p);
        let old = std::mem::replace(&mut self.spots[pi].values[v], value);
        self.summary[v].total += i32::from(value) - i32::from(old);
        let old = std::mem::replace(&mut self.worths[pi][v], worth);
        for role in 0..2 {
            self.summary[v].worth_totals[role] += i32::from(worth[role]) - i32::from(old[role]);
        }
        self.set_threat_summary(p, v, order, flags);
    }

    /// The move-order score and the threat flags of `p`: all that [`Board::threats_only`]
    /// keeps of [`Board::set_summary`].
    fn set_threat_summary(&mut self, p: Point, v: usize, order: [i16; 2], flags: u8) {
        self.orders[usize::from(p)][v] = order;
        self.set_flags(p, v, flags);
    }

    // Inlined: called at every change, mostly to find nothing changed (4% of a search).
    #[inline(always)]
    fn set_flags(&mut self, p: Point, v: usize, flags: u8) {
        let pi = usize::from(p);
        let changed = self.spots[pi].flags[v] ^ flags;
        if changed == 0 {
            return;
        }
        self.spots[pi].flags[v] = flags;
        let s = &mut self.summary[v];
        for (bit, set) in [
            (points::MAKES_FIVE, &mut s.fives),
            (points::MAKES_FOUR, &mut s.fours),
            (points::MAKES_FLEX4, &mut s.flex4s),
            (points::MAKES_FLEX3, &mut s.threes),
            (points::MAKES_FOUR_THREE, &mut s.four_threes),
        ] {
            if changed & bit != 0 {
                set.assign(p, flags & bit != 0);
            }
        }
    }
}
