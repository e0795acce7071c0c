//! The engine's Connect Four board: two bitboards (the side to move's stones and all stones)
//! over game-core's [`BitSet`] layout, with the threat arithmetic the solver and the
//! evaluation share (winning cells, non-losing moves, position keys).
//!
//! Blocked cells are kept in the [`Geometry`], never in the stones: they are never a player's
//! stone, so they break lines for free, and `stones | blocked` is what
//! [`Layout::free_cells`] needs to find the cell a stone lands on.

use game_core::connect4::{has_four, BitSet, ConnectFour, Layout, WideBits, MAX_SIZE};
use game_core::Position;

/// A bitboard type the engine can run on: `u64` when the board with its sentinel row fits in
/// 64 bits (7x6 does), `u128`, or game-core's 192-bit [`WideBits`] for the largest boards.
pub trait Bits: BitSet + Send + 'static {
    /// A 64-bit digest of the set: the value itself for `u64` (so keys of boards that fit
    /// stay unique), a mix of the words otherwise.
    fn digest(self) -> u64;
}

impl Bits for u64 {
    #[inline]
    fn digest(self) -> u64 {
        self
    }
}

impl Bits for u128 {
    #[inline]
    fn digest(self) -> u64 {
        mix64(self as u64) ^ mix64((self >> 64) as u64).rotate_left(23)
    }
}

impl Bits for WideBits {
    #[inline]
    fn digest(self) -> u64 {
        let [a, b, c] = self.0;
        mix64(a) ^ mix64(b).rotate_left(21) ^ mix64(c).rotate_left(42)
    }
}

/// SplitMix64's finaliser: a bijection on `u64` that spreads every input bit over the output.
#[inline]
#[must_use]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Number of bits a board needs in the column-major layout (rows plus a sentinel per column).
#[must_use]
pub fn bits_needed(cols: u8, rows: u8) -> u32 {
    u32::from(cols) * (u32::from(rows) + 1)
}

/// Everything about a board that does not change during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry<B> {
    pub cols: u32,
    pub rows: u32,
    pub layout: Layout<B>,
    pub blocked: B,
    /// Cells that can hold a stone: the game is a draw when that many stones are down.
    pub playable: u32,
    /// The cells of each column.
    pub columns: [B; MAX_SIZE as usize],
    /// Columns from the centre outwards, the usual tie-break of move ordering.
    pub center_order: [u8; MAX_SIZE as usize],
}

impl<B: Bits> Geometry<B> {
    /// The geometry of `position`, whose board must fit in `B`.
    #[must_use]
    pub fn of(position: &ConnectFour) -> Geometry<B> {
        let layout: Layout<B> = position.layout();
        let cols = u32::from(position.cols());
        let rows = u32::from(position.rows());
        let blocked = B::from_wide(position.blocked_bits());
        let column = B::bit(rows).wrapping_sub(B::bit(0));
        let mut columns = [B::ZERO; MAX_SIZE as usize];
        for (c, mask) in columns.iter_mut().enumerate().take(cols as usize) {
            *mask = column << (c as u32 * layout.stride);
        }
        let mut order: Vec<u8> = (0..cols as u8).collect();
        // By distance from the centre, the left one first on ties.
        order.sort_by_key(|&c| ((i32::from(c) * 2 + 1 - cols as i32).abs(), c));
        let mut center_order = [0; MAX_SIZE as usize];
        center_order[..order.len()].copy_from_slice(&order);
        Geometry {
            cols,
            rows,
            layout,
            blocked,
            playable: cols * rows - blocked.count_ones(),
            columns,
            center_order,
        }
    }

    #[inline]
    #[must_use]
    pub fn stride(&self) -> u32 {
        self.layout.stride
    }

    /// The column of a bit of the board.
    #[inline]
    #[must_use]
    pub fn column_of(&self, bit: u32) -> u32 {
        bit / self.layout.stride
    }

    /// Columns from the centre outwards.
    #[must_use]
    pub fn center_columns(&self) -> &[u8] {
        &self.center_order[..self.cols as usize]
    }

    /// The cells that would let a player who fills them give the opponent `threats`: for
    /// every threat, the cell the stone before it in its column takes. That is the cell just
    /// below, unless blocked cells sit in between, in which case it is the first unblocked
    /// cell under them.
    #[inline]
    #[must_use]
    pub fn cells_under(&self, threats: B) -> B {
        let mut under = threats >> 1;
        if !self.blocked.is_zero() {
            loop {
                let more = (under & self.blocked) >> 1;
                if (more & !under).is_zero() {
                    break;
                }
                under |= more;
            }
        }
        under
    }
}

/// The empty cells (of `empty`) that would complete four in a row for `stones`. The sentinel
/// bit above every column keeps shifts of up to three steps from joining cells across a
/// column edge, as in [`has_four`].
#[inline]
#[must_use]
pub fn winning_cells<B: BitSet>(stones: B, stride: u32, empty: B) -> B {
    let mut cells = (stones << 1) & (stones << 2) & (stones << 3);
    for d in [stride, stride + 1, stride - 1] {
        let below = (stones << d) & (stones << (2 * d));
        cells |= below & (stones << (3 * d));
        cells |= below & (stones >> d);
        let above = (stones >> d) & (stones >> (2 * d));
        cells |= above & (stones << d);
        cells |= above & (stones >> (3 * d));
    }
    cells & empty
}

/// A position as the engine sees it: the side to move's stones and all stones. Cheap to
/// copy, so the solver plays moves on copies instead of undoing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board<B> {
    /// The stones of the side to move.
    pub current: B,
    /// The stones of both sides (no blocked cells).
    pub stones: B,
    /// Stones on the board.
    pub moves: u32,
}

impl<B: Bits> Board<B> {
    /// The engine's view of `position` (which must fit in `B`).
    #[must_use]
    pub fn of(position: &ConnectFour) -> Board<B> {
        let to_move = position.turn();
        let current = B::from_wide(position.stones(to_move));
        let other = B::from_wide(position.stones(to_move.other()));
        Board {
            current,
            stones: current | other,
            moves: (current | other).count_ones(),
        }
    }

    #[inline]
    #[must_use]
    pub fn occupied(&self, g: &Geometry<B>) -> B {
        self.stones | g.blocked
    }

    #[inline]
    #[must_use]
    pub fn opponent(&self) -> B {
        self.stones ^ self.current
    }

    #[inline]
    #[must_use]
    pub fn empty(&self, g: &Geometry<B>) -> B {
        g.layout.board & !self.occupied(g)
    }

    #[inline]
    #[must_use]
    pub fn empties(&self, g: &Geometry<B>) -> u32 {
        g.playable - self.moves
    }

    /// The cell each open column's next stone takes.
    #[inline]
    #[must_use]
    pub fn possible(&self, g: &Geometry<B>) -> B {
        g.layout.free_cells(self.occupied(g))
    }

    /// Plays a stone on `cell`, one of [`Board::possible`].
    #[inline]
    pub fn play(&mut self, cell: B) {
        self.current ^= self.stones;
        self.stones |= cell;
        self.moves += 1;
    }

    /// The cell a stone in `col` takes, if the column is open.
    #[inline]
    #[must_use]
    pub fn landing(&self, g: &Geometry<B>, col: u32) -> Option<B> {
        let cell = self.possible(g) & *g.columns.get(col as usize)?;
        (!cell.is_zero()).then_some(cell)
    }

    /// A key unique to the position on its board: the side to move's stones plus, in every
    /// column, the bit of the next free cell (the sentinel when the column is full). The
    /// stones below that bit are exactly the column's stones, so the key gives them back.
    #[inline]
    #[must_use]
    pub fn key(&self, g: &Geometry<B>) -> B {
        let occupied = self.occupied(g);
        self.current | (occupied.wrapping_add(g.layout.bottom) & !occupied)
    }

    /// Empty cells where the side to move would make four.
    #[inline]
    #[must_use]
    pub fn winning_cells(&self, g: &Geometry<B>) -> B {
        winning_cells(self.current, g.stride(), self.empty(g))
    }

    /// Empty cells where the opponent would make four.
    #[inline]
    #[must_use]
    pub fn opponent_winning_cells(&self, g: &Geometry<B>) -> B {
        winning_cells(self.opponent(), g.stride(), self.empty(g))
    }

    /// Whether the side to move can make four with its next stone.
    #[inline]
    #[must_use]
    pub fn can_win_next(&self, g: &Geometry<B>) -> bool {
        !(self.winning_cells(g) & self.possible(g)).is_zero()
    }

    /// Whether the side that just moved has four in a row.
    #[inline]
    #[must_use]
    pub fn last_mover_won(&self, g: &Geometry<B>) -> bool {
        has_four(self.opponent(), g.stride())
    }

    /// The moves that do not lose at once, for a side to move that cannot win at once: the
    /// one block if the opponent threatens to win (none if it threatens twice), and never a
    /// stone right under an opponent's winning cell.
    #[inline]
    #[must_use]
    pub fn non_losing_moves(&self, g: &Geometry<B>) -> B {
        let possible = self.possible(g);
        let threats = self.opponent_winning_cells(g);
        let forced = possible & threats;
        let mut moves = possible;
        if !forced.is_zero() {
            if forced.count_ones() > 1 {
                return B::ZERO;
            }
            moves = forced;
        }
        moves & !g.cells_under(threats)
    }

    /// How many winning cells the side to move has after playing `cell`: the solver's move
    /// ordering (moves that make threats first).
    #[inline]
    #[must_use]
    pub fn threats_after(&self, g: &Geometry<B>, cell: B) -> u32 {
        let empty = g.layout.board & !(self.occupied(g) | cell);
        winning_cells(self.current | cell, g.stride(), empty).count_ones()
    }
}

/// The 0-based column of a one-cell bitboard.
#[inline]
#[must_use]
pub fn column_of_cell<B: Bits>(g: &Geometry<B>, cell: B) -> u32 {
    g.column_of(cell.trailing_zeros())
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::connect4::{parse_move_string, Column};
    use game_core::Cell;
    use proptest::prelude::*;

    fn position(cols: u8, rows: u8, blocked: &[Cell], moves: &str) -> ConnectFour {
        let mut p = ConnectFour::new(cols, rows, blocked).unwrap();
        for m in parse_move_string(moves, cols).unwrap() {
            p = p.play(m).unwrap();
        }
        p
    }

    #[test]
    fn centre_order_and_keys() {
        let p = position(7, 6, &[], "");
        let g: Geometry<u64> = Geometry::of(&p);
        assert_eq!(g.center_columns(), &[3, 2, 4, 1, 5, 0, 6]);
        let g8: Geometry<u64> = Geometry::of(&position(8, 6, &[], ""));
        assert_eq!(g8.center_columns(), &[3, 4, 2, 5, 1, 6, 0, 7]);
        // Same stones reached by different orders: same key; different stones: different.
        let a = Board::<u64>::of(&position(7, 6, &[], "4455"));
        let b = Board::<u64>::of(&position(7, 6, &[], "5544"));
        let c = Board::<u64>::of(&position(7, 6, &[], "4554"));
        assert_eq!(a.key(&g), b.key(&g));
        assert_ne!(a.key(&g), c.key(&g));
    }

    #[test]
    fn blocked_cells_shift_threat_exposure() {
        // Column 1 has a blocked cell on row 2: the stone before a threat on row 3 is on row 1.
        let blocked = [Cell::new(0, 1)];
        let p = position(5, 4, &blocked, "");
        let g: Geometry<u64> = Geometry::of(&p);
        let row3 = B64::bit(2);
        assert_eq!(g.cells_under(row3), B64::bit(1) | B64::bit(0));
        let board = Board::<u64>::of(&p);
        assert_eq!(board.possible(&g) & g.columns[0], B64::bit(0));
    }

    type B64 = u64;

    fn random_game(cols: u8, rows: u8, blocked: &[Cell], picks: &[u8]) -> Vec<ConnectFour> {
        let mut p = ConnectFour::new(cols, rows, blocked).unwrap();
        let mut line = vec![p.clone()];
        for &pick in picks {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.play(moves[usize::from(pick) % moves.len()]).unwrap();
            line.push(p.clone());
        }
        line
    }

    fn agrees_with_game_core<B: Bits>(line: &[ConnectFour]) {
        let g: Geometry<B> = Geometry::of(&line[0]);
        for p in line {
            let board: Board<B> = Board::of(p);
            let over = p.is_over();
            let won = p.outcome().is_some_and(|o| o.winner.is_some());
            assert_eq!(board.last_mover_won(&g), won, "{}", p.to_board_text());
            assert_eq!(
                board.moves == g.playable,
                p.ply() == usize::from(p.cols()) * usize::from(p.rows()) - p.blocked().len()
            );
            if over {
                continue;
            }
            for col in 0..p.cols() {
                let legal = p.is_legal(Column(col)).is_ok();
                let landing = board.landing(&g, u32::from(col));
                assert_eq!(landing.is_some(), legal);
                if let Some(cell) = landing {
                    let next = p.clone().play(Column(col)).unwrap();
                    let mut after = board;
                    after.play(cell);
                    assert_eq!(after, Board::of(&next));
                    let wins = !(board.winning_cells(&g) & cell).is_zero();
                    assert_eq!(wins, next.outcome().is_some_and(|o| o.winner.is_some()));
                }
            }
        }
    }

    proptest! {
        #[test]
        fn moves_and_wins_agree_with_game_core(
            cols in 4u8..=12, rows in 4u8..=12,
            blocked in proptest::collection::vec((0u8..12, 0u8..12), 0..4),
            picks in proptest::collection::vec(0u8..12, 0..80),
        ) {
            let mut cells: Vec<Cell> = blocked.iter().map(|&(c, r)| Cell::new(c % cols, r % rows)).collect();
            cells.sort();
            cells.dedup();
            let line = random_game(cols, rows, &cells, &picks);
            agrees_with_game_core::<WideBits>(&line);
            if bits_needed(cols, rows) <= 128 {
                agrees_with_game_core::<u128>(&line);
            }
            if bits_needed(cols, rows) <= 64 {
                agrees_with_game_core::<u64>(&line);
            }
        }
    }
}
