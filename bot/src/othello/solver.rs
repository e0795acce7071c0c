//! The exact endgame solver: the final disc difference for the side to move with perfect
//! play from both sides, empties to the winner (the FFO convention, so always even).
//!
//! # Contract
//! `solve_window(mover, opponent, alpha, beta)` with `-65 <= alpha < beta <= 65` returns,
//! for the true value `v`: exactly `v` if `alpha < v < beta`; a value `<= alpha` that is
//! `>= v` if `v <= alpha`; a value `>= beta` that is `<= v` if `v >= beta` (fail-soft).
//! `None` means the search was stopped (stop flag or deadline) and nothing is known.
//!
//! # Structure
//! Its own tight loops, not the shared search: the value of an endgame node is cheap to
//! bound and its children are many, so the tricks differ by depth.
//! - `deep` (more than [`DEEP_EMPTIES`] empties): transposition table (the shared
//!   [`TranspositionTable`], bounds in disc differences, depth = empties), a stability cutoff
//!   (the opponent's stable discs cap our result), fastest-first ordering (moves that leave
//!   the opponent the fewest replies first, corners and odd regions favoured) and
//!   principal-variation search with null windows.
//! - `shallow` (5 to [`DEEP_EMPTIES`] empties): plain alpha-beta, moves in odd quadrants
//!   first (parity), no table.
//! - `last2` .. `last4` and [`last1`]: no move generation; each empty square is tried
//!   directly, and the last move is scored by counting its flips without making it
//!   ([`last_flip_count`]).

use std::time::Instant;

use game_core::othello::{flips, legal_mask};

use super::board::{after_move, final_score, position_key, CORNERS, PASS, QUADRANTS};
use super::last_flip::last_flip_count;
use super::stability::stable_discs;
use crate::engine::StopFlag;
use crate::tt::{Bound, Entry, TranspositionTable};

/// Nodes with more empties than this use the table and fastest-first ordering: below it the
/// table and the ordering cost more than the nodes they save (measured on FFO #40: 6 and 7
/// take the same time, 8 and up are slower).
pub const DEEP_EMPTIES: u32 = 6;
/// Beyond any disc difference.
const INFINITY: i32 = 65;
/// The stability cutoff needs a high alpha to have a chance; below it the stable discs are
/// not counted.
const STABILITY_MIN_ALPHA: i32 = 8;

/// An exact solver with its own table; keep one per game to reuse what it learnt.
pub struct Solver {
    tt: TranspositionTable,
    /// Nodes visited since the solver was made (callers take differences).
    pub nodes: u64,
    deadline: Option<Instant>,
    stop: StopFlag,
    aborted: bool,
    /// [`DEEP_EMPTIES`], lowered by the tests to exercise the deep code on small positions.
    deep_empties: u32,
}

/// The exact result of a root position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move.
    pub score: i32,
    /// The best move ([`PASS`] when the side to move must pass).
    pub best: u8,
    /// A best line, starting with `best`.
    pub pv: Vec<u8>,
}

impl Solver {
    /// A solver with a table of `2^tt_bits` entries.
    #[must_use]
    pub fn new(tt_bits: u32) -> Solver {
        Solver {
            tt: TranspositionTable::new(tt_bits),
            nodes: 0,
            deadline: None,
            stop: StopFlag::new(),
            aborted: false,
            deep_empties: DEEP_EMPTIES,
        }
    }

    /// Forgets the table (a deterministic search starts from nothing).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Where to stop: the stop flag and an optional deadline, checked every few thousand
    /// nodes.
    pub fn set_limits(&mut self, stop: &StopFlag, deadline: Option<Instant>) {
        self.stop = stop.clone();
        self.deadline = deadline;
    }

    /// The value within `(alpha, beta)` as the module contract says, or `None` if stopped.
    pub fn solve_window(
        &mut self,
        mover: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.aborted = self.stop.is_stopped();
        if self.aborted {
            return None;
        }
        let value = self.search(mover, opponent, alpha, beta);
        (!self.aborted).then_some(value)
    }

    /// The exact value of the position, its best move and a best line; `None` if stopped or
    /// if the game is over.
    pub fn solve(&mut self, mover: u64, opponent: u64) -> Option<Solution> {
        if super::board::game_over(mover, opponent) {
            return None;
        }
        self.aborted = self.stop.is_stopped();
        let legal = legal_mask(mover, opponent);
        if legal == 0 {
            let score = -self.solve_window(opponent, mover, -INFINITY, INFINITY)?;
            let mut pv = vec![PASS];
            pv.extend(self.principal_variation(opponent, mover));
            return Some(Solution {
                score,
                best: PASS,
                pv,
            });
        }
        let moves = self.ordered_moves(mover, opponent, legal, self.tt_move(mover, opponent));
        // PVS: the first move with the full window, the others only tested against it.
        let mut alpha = -INFINITY;
        let mut best = moves[0].0;
        for (i, &(square, _)) in moves.iter().enumerate() {
            let (next_mover, next_opponent) = after_move(mover, opponent, square);
            self.nodes += 1;
            let score = if i == 0 {
                -self.search(next_mover, next_opponent, -INFINITY, INFINITY)
            } else {
                let probe = -self.search(next_mover, next_opponent, -alpha - 1, -alpha);
                if probe > alpha && !self.aborted {
                    -self.search(next_mover, next_opponent, -INFINITY, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                return None;
            }
            if i == 0 || score > alpha {
                alpha = score;
                best = square;
            }
        }
        let key = position_key(mover, opponent);
        self.store(key, mover | opponent, alpha, (-INFINITY, INFINITY), best);
        let (next_mover, next_opponent) = after_move(mover, opponent, best);
        let mut pv = vec![best];
        pv.extend(self.principal_variation(next_mover, next_opponent));
        Some(Solution {
            score: alpha,
            best,
            pv,
        })
    }

    /// Follows the best moves from a solved position: the table's up high, exact re-solves
    /// of each move near the end (cheap there), until the game is over.
    fn principal_variation(&mut self, mut mover: u64, mut opponent: u64) -> Vec<u8> {
        let mut pv = Vec::new();
        while !super::board::game_over(mover, opponent) && !self.aborted {
            let legal = legal_mask(mover, opponent);
            let best = if legal == 0 {
                PASS
            } else if 64 - (mover | opponent).count_ones() > 12 {
                match self.tt_move(mover, opponent) {
                    Some(square) if legal & (1u64 << square) != 0 => square,
                    _ => break,
                }
            } else {
                let mut best = (i32::MIN, PASS);
                let mut rest = legal;
                while rest != 0 {
                    let square = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let (m, o) = after_move(mover, opponent, square);
                    let score = -self.search(m, o, -INFINITY, INFINITY);
                    if score > best.0 {
                        best = (score, square);
                    }
                }
                best.1
            };
            pv.push(best);
            (mover, opponent) = after_move(mover, opponent, best);
        }
        pv
    }

    fn tt_move(&self, mover: u64, opponent: u64) -> Option<u8> {
        self.tt
            .probe(position_key(mover, opponent))
            .and_then(|e| u8::try_from(e.best).ok())
            .filter(|&sq| sq < PASS)
    }

    /// Dispatches on the number of empty squares.
    #[inline]
    fn search(&mut self, mover: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(mover | opponent);
        match empty.count_ones() {
            0 => {
                self.nodes += 1;
                final_score(mover, opponent)
            }
            1 => last1(
                &mut self.nodes,
                mover,
                opponent,
                empty.trailing_zeros() as usize,
            ),
            2..=4 => self.last_few(mover, opponent, alpha, beta, empty, false),
            n if n <= self.deep_empties => self.shallow(mover, opponent, alpha, beta, empty, false),
            _ => self.deep(mover, opponent, alpha, beta),
        }
    }

    /// 2 to 4 empties: each empty square tried in parity order, no move generation.
    fn last_few(
        &mut self,
        mover: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INFINITY;
        let odd = odd_quadrants(empty);
        for group in [empty & odd, empty & !odd] {
            let mut rest = group;
            while rest != 0 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                // A move must touch an opponent disc: a cheap test that skips most of the
                // squares that flip nothing.
                if opponent & NEIGHBOURS[square as usize] == 0 {
                    continue;
                }
                let flipped = flips(mover, opponent, square);
                if flipped == 0 {
                    continue;
                }
                let bit = 1u64 << square;
                let next_mover = opponent & !flipped;
                let next_opponent = mover | flipped | bit;
                let left = empty & !bit;
                let score = if left & (left - 1) == 0 {
                    -last1(
                        &mut self.nodes,
                        next_mover,
                        next_opponent,
                        left.trailing_zeros() as usize,
                    )
                } else {
                    -self.last_few(next_mover, next_opponent, -beta, -alpha, left, false)
                };
                if score > best {
                    best = score;
                    if score >= beta {
                        return score;
                    }
                    alpha = alpha.max(score);
                }
            }
        }
        if best == -INFINITY {
            // No move: pass, or the game is over if the opponent just passed too.
            if passed {
                return final_score(mover, opponent);
            }
            return -self.last_few(opponent, mover, -beta, -alpha, empty, true);
        }
        best
    }

    /// A few empties: alpha-beta with parity ordering over the legal moves.
    fn shallow(
        &mut self,
        mover: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        empty: u64,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let legal = legal_mask(mover, opponent);
        if legal == 0 {
            if passed {
                return final_score(mover, opponent);
            }
            return -self.shallow(opponent, mover, -beta, -alpha, empty, true);
        }
        let odd = odd_quadrants(empty);
        let mut best = -INFINITY;
        // Odd regions first, corners before the rest inside each.
        for group in [
            legal & odd & CORNERS,
            legal & odd & !CORNERS,
            legal & !odd & CORNERS,
            legal & !odd & !CORNERS,
        ] {
            let mut rest = group;
            while rest != 0 {
                let square = rest.trailing_zeros();
                rest &= rest - 1;
                let flipped = flips(mover, opponent, square);
                let bit = 1u64 << square;
                let next_mover = opponent & !flipped;
                let next_opponent = mover | flipped | bit;
                let left = empty & !bit;
                let score = if left.count_ones() <= 4 {
                    -self.last_few(next_mover, next_opponent, -beta, -alpha, left, false)
                } else {
                    -self.shallow(next_mover, next_opponent, -beta, -alpha, left, false)
                };
                if score > best {
                    best = score;
                    if score >= beta {
                        return score;
                    }
                    alpha = alpha.max(score);
                }
            }
        }
        best
    }

    /// Many empties: table, stability cutoff, fastest-first ordering, PVS.
    fn deep(&mut self, mover: u64, opponent: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.stop.is_stopped() {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        // The opponent's stable discs stay theirs: we cannot end above 64 - 2 * stable.
        if alpha >= STABILITY_MIN_ALPHA {
            let ceiling = 64 - 2 * stable_discs(opponent, mover).count_ones() as i32;
            if ceiling <= alpha {
                return ceiling;
            }
            beta = beta.min(ceiling);
        }
        let key = position_key(mover, opponent);
        let mut tt_best = None;
        if let Some(e) = self.tt.probe(key) {
            tt_best = u8::try_from(e.best).ok().filter(|&sq| sq < PASS);
            let score = e.score;
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                Bound::Lower => alpha = alpha.max(score),
                Bound::Upper => beta = beta.min(score),
            }
            if alpha >= beta {
                return score;
            }
        }
        let legal = legal_mask(mover, opponent);
        if legal == 0 {
            if legal_mask(opponent, mover) == 0 {
                return final_score(mover, opponent);
            }
            return -self.deep_or_less(opponent, mover, -beta, -alpha);
        }
        let original_alpha = alpha;
        let moves = self.ordered_moves(mover, opponent, legal, tt_best);
        let mut best = -INFINITY;
        let mut best_square = moves[0].0;
        for (i, &(square, _)) in moves.iter().enumerate() {
            let (next_mover, next_opponent) = after_move(mover, opponent, square);
            let score = if i == 0 {
                -self.deep_or_less(next_mover, next_opponent, -beta, -alpha)
            } else {
                let probe = -self.deep_or_less(next_mover, next_opponent, -alpha - 1, -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.deep_or_less(next_mover, next_opponent, -beta, -alpha)
                } else {
                    probe
                }
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_square = square;
                if score >= beta {
                    break;
                }
                alpha = alpha.max(score);
            }
        }
        self.store(
            key,
            mover | opponent,
            best,
            (original_alpha, beta),
            best_square,
        );
        best
    }

    /// The child of a deep node: deep again, or the shallow code once few empties remain.
    #[inline]
    fn deep_or_less(&mut self, mover: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(mover | opponent);
        if empty.count_ones() > self.deep_empties {
            self.deep(mover, opponent, alpha, beta)
        } else {
            self.search(mover, opponent, alpha, beta)
        }
    }

    /// Stores `score` as searched with the window `(alpha, beta)`.
    fn store(&mut self, key: u64, occupied: u64, score: i32, window: (i32, i32), best: u8) {
        let (alpha, beta) = window;
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let empties = 64 - occupied.count_ones();
        self.tt.store(
            key,
            Entry {
                key,
                score,
                depth: empties as i16,
                bound,
                best: u32::from(best),
            },
        );
    }

    /// The legal moves, best-looking first: the table's move, then fastest-first (fewest
    /// opponent replies, corners counted double), odd regions and corners favoured.
    fn ordered_moves(
        &mut self,
        mover: u64,
        opponent: u64,
        legal: u64,
        tt_best: Option<u8>,
    ) -> MoveList {
        let odd = odd_quadrants(!(mover | opponent));
        let mut list = MoveList::default();
        let mut rest = legal;
        while rest != 0 {
            let square = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let bit = 1u64 << square;
            let value = if Some(square) == tt_best {
                i32::MAX
            } else {
                let (next_mover, next_opponent) = after_move(mover, opponent, square);
                let replies = legal_mask(next_mover, next_opponent);
                let mut value = -16 * (replies.count_ones() as i32)
                    - 16 * ((replies & CORNERS).count_ones() as i32);
                if bit & CORNERS != 0 {
                    value += 8;
                }
                if bit & odd != 0 {
                    value += 4;
                }
                if next_mover == 0 {
                    value = i32::MAX - 1;
                }
                value
            };
            list.push(square, value);
        }
        list.sort();
        list
    }
}

/// The score of the last move on `square` (the only empty square) for `mover`, passes and
/// the end included, without making the move.
#[inline]
fn last1(nodes: &mut u64, mover: u64, opponent: u64, square: usize) -> i32 {
    *nodes += 1;
    let discs = mover.count_ones() as i32;
    let flipped = last_flip_count(mover, square);
    if flipped > 0 {
        // Mover ends with discs + 1 + flipped of 64.
        return 2 * (discs + 1 + flipped) - 64;
    }
    let their_flips = last_flip_count(opponent, square);
    if their_flips > 0 {
        let theirs = 64 - 1 - discs;
        return -(2 * (theirs + 1 + their_flips) - 64);
    }
    // Nobody can fill it: 63 discs, no draw possible, the empty square goes to the winner.
    let diff = 2 * discs - 63;
    if diff > 0 {
        diff + 1
    } else {
        diff - 1
    }
}

/// The squares around each square.
static NEIGHBOURS: [u64; 64] = neighbour_masks();

const fn neighbour_masks() -> [u64; 64] {
    let mut masks = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    masks[sq] |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    masks
}

/// The quadrants holding an odd number of empty squares.
#[inline]
fn odd_quadrants(empty: u64) -> u64 {
    let mut odd = 0;
    for quadrant in QUADRANTS {
        if (empty & quadrant).count_ones() & 1 == 1 {
            odd |= quadrant;
        }
    }
    odd
}

/// The moves of a node with an ordering value each, on the stack (no position has 40
/// legal moves).
struct MoveList {
    moves: [(u8, i32); 40],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [(0, 0); 40],
            len: 0,
        }
    }
}

impl MoveList {
    fn push(&mut self, square: u8, value: i32) {
        if self.len < self.moves.len() {
            self.moves[self.len] = (square, value);
            self.len += 1;
        }
    }
    fn sort(&mut self) {
        // Insertion sort, best first: short lists.
        for i in 1..self.len {
            let item = self.moves[i];
            let mut j = i;
            while j > 0 && self.moves[j - 1].1 < item.1 {
                self.moves[j] = self.moves[j - 1];
                j -= 1;
            }
            self.moves[j] = item;
        }
    }
    fn iter(&self) -> std::slice::Iter<'_, (u8, i32)> {
        self.moves[..self.len].iter()
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = (u8, i32);
    fn index(&self, i: usize) -> &(u8, i32) {
        &self.moves[..self.len][i]
    }
}

#[cfg(test)]
mod tests;
