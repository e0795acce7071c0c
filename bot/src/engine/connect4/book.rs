//! The opening book of the standard 7x6 board: the exact score and a best column of every
//! position the full-strength bot can meet on its turn in the first plies, whichever side it
//! plays. The project makes it with its own solver (`bot/examples/connect4_book.rs`, which
//! walks the bot's strategy tree: its book move where it is to move, every reply where the
//! opponent is) and embeds it in the binary, so early moves are exact at once, where a solve
//! from the empty board takes minutes.
//!
//! Positions are keyed by the solver's key ([`Board::key`]) of the position or of its mirror
//! image, whichever is smaller: a position and its mirror have the same score, with mirrored
//! best columns, so one entry serves both.

use std::collections::HashMap;
use std::sync::OnceLock;

use game_core::connect4::ConnectFour;
use game_core::Position;

use super::bitboard::{Board, Geometry};

/// Columns and rows of the one board the book knows.
pub const BOOK_COLS: u8 = 7;
pub const BOOK_ROWS: u8 = 6;

/// The book as the generator last wrote it.
const BOOK_TEXT: &str = include_str!("book.txt");

/// What the book says of a position: a column that keeps its exact score (0-based, in the
/// position's own orientation) and that score (the solver's convention).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub column: u32,
    pub score: i32,
}

/// Book entries by canonical key, the column in the canonical orientation.
pub type BookEntries = HashMap<u64, BookMove>;

/// The embedded book, parsed on first use.
fn entries() -> &'static BookEntries {
    static ENTRIES: OnceLock<BookEntries> = OnceLock::new();
    // The text is the generator's output, checked by a test: a fault there is a build fault,
    // and an empty book only makes the bot think instead.
    ENTRIES.get_or_init(|| parse_book(BOOK_TEXT).unwrap_or_default())
}

/// Number of positions in the embedded book.
#[must_use]
pub fn len() -> usize {
    entries().len()
}

/// The book's move for `position`, if it is on the standard empty-celled 7x6 board and in
/// the book.
#[must_use]
pub fn probe(position: &ConnectFour) -> Option<BookMove> {
    if position.cols() != BOOK_COLS
        || position.rows() != BOOK_ROWS
        || position.blocked_bits() != Default::default()
        || position.is_over()
    {
        return None;
    }
    let g: Geometry<u64> = Geometry::of(position);
    let board: Board<u64> = Board::of(position);
    lookup(entries(), &board, &g)
}

/// The entry of `board` in `entries`, turned to `board`'s orientation.
#[must_use]
pub fn lookup(entries: &BookEntries, board: &Board<u64>, g: &Geometry<u64>) -> Option<BookMove> {
    let (key, mirrored) = canonical_key(board, g);
    let found = *entries.get(&key)?;
    Some(BookMove {
        column: if mirrored {
            g.cols - 1 - found.column
        } else {
            found.column
        },
        score: found.score,
    })
}

/// The smaller of the keys of `board` and of its mirror image, and whether it is the mirror's.
#[must_use]
pub fn canonical_key(board: &Board<u64>, g: &Geometry<u64>) -> (u64, bool) {
    let key = board.key(g);
    let mirror = mirror_columns(key, g.cols, g.stride());
    if mirror < key {
        (mirror, true)
    } else {
        (key, false)
    }
}

/// `bits` with its columns in the opposite order (column `c` becomes `cols - 1 - c`).
#[must_use]
pub fn mirror_columns(bits: u64, cols: u32, stride: u32) -> u64 {
    let column = (1u64 << stride) - 1;
    (0..cols).fold(0, |out, c| {
        let bits_of_c = (bits >> (c * stride)) & column;
        out | (bits_of_c << ((cols - 1 - c) * stride))
    })
}

/// The position a key stands for (keys give their stones back: see [`Board::key`]).
#[must_use]
pub fn board_of_key(key: u64, g: &Geometry<u64>) -> Board<u64> {
    let stride = g.stride();
    let (mut current, mut stones) = (0u64, 0u64);
    for c in 0..g.cols {
        let column = (key >> (c * stride)) & ((1u64 << stride) - 1);
        // The highest bit of the column marks its next free cell; the stones lie under it.
        let below = if column == 0 {
            0
        } else {
            (1u64 << (63 - column.leading_zeros())) - 1
        };
        stones |= below << (c * stride);
        current |= (column & below) << (c * stride);
    }
    Board {
        current,
        stones,
        moves: stones.count_ones(),
    }
}

/// One line of the book file: `key column score`, the key in hex, the column 1-based.
#[must_use]
pub fn format_entry(key: u64, entry: BookMove) -> String {
    format!("{key:x} {} {}", entry.column + 1, entry.score)
}

/// Reads a book file: lines of `key column score`; blank lines and lines starting with `#`
/// are skipped.
pub fn parse_book(text: &str) -> Result<BookEntries, String> {
    let mut entries = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("book line {}: expected `key column score`: {line}", n + 1);
        let mut words = line.split_whitespace();
        let (Some(key), Some(column), Some(score), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(bad());
        };
        let key = u64::from_str_radix(key, 16).map_err(|_| bad())?;
        let column: u32 = column.parse().map_err(|_| bad())?;
        let score: i32 = score.parse().map_err(|_| bad())?;
        if !(1..=u32::from(BOOK_COLS)).contains(&column) {
            return Err(bad());
        }
        entries.insert(
            key,
            BookMove {
                column: column - 1,
                score,
            },
        );
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::connect4::solver::Solver;
    use game_core::connect4::Column;
    use game_core::AnyPosition;

    fn position(moves: &str) -> ConnectFour {
        let options = super::super::BoardOptions::default();
        match super::super::parse_position(moves, &options) {
            Ok(AnyPosition::Connect4(p)) => p,
            other => panic!("not a Connect Four position: {other:?}"),
        }
    }

    #[test]
    fn the_embedded_book_parses_and_is_not_empty() {
        let parsed = parse_book(BOOK_TEXT).expect("the embedded book parses");
        assert!(parsed.len() > 200, "only {} positions", parsed.len());
        assert_eq!(len(), parsed.len());
    }

    #[test]
    fn keys_mirror_and_give_their_position_back() {
        let p = position("4453");
        let q = position("4435");
        let g: Geometry<u64> = Geometry::of(&p);
        let (a, b) = (Board::of(&p), Board::of(&q));
        let key = a.key(&g);
        assert_eq!(
            mirror_columns(mirror_columns(key, 7, g.stride()), 7, g.stride()),
            key
        );
        assert_eq!(mirror_columns(key, 7, g.stride()), b.key(&g));
        assert_eq!(canonical_key(&a, &g).0, canonical_key(&b, &g).0);
        assert_eq!(board_of_key(key, &g), a);
        assert_eq!(board_of_key(b.key(&g), &g), b);
    }

    #[test]
    fn the_first_move_is_the_centre_and_a_win() {
        let m = probe(&position("")).expect("the empty board is in the book");
        assert_eq!(
            m,
            BookMove {
                column: 3,
                score: 1
            }
        );
    }

    /// Walks the bot's strategy tree: the book's move where the bot is to move (first player
    /// when `bot_parity` is 0), every reply otherwise, through positions of up to `last`
    /// stones. Returns the book's answers met on the way, with the stones of each position
    /// (a score of `i32::MAX` where the bot wins at once, which the book leaves out).
    fn strategy_tree(bot_parity: usize, last: usize) -> Vec<(usize, BookMove)> {
        fn walk(p: ConnectFour, bot_parity: usize, last: usize, met: &mut Vec<(usize, BookMove)>) {
            if p.ply() > last || p.is_over() {
                return;
            }
            if p.ply() % 2 == bot_parity {
                let g: Geometry<u64> = Geometry::of(&p);
                if Board::<u64>::of(&p).can_win_next(&g) {
                    // The engine takes a win on the board before it opens the book.
                    met.push((
                        p.ply(),
                        BookMove {
                            column: 0,
                            score: i32::MAX,
                        },
                    ));
                    return;
                }
                let m = probe(&p).unwrap_or_else(|| panic!("not in the book: {p:?}"));
                met.push((p.ply(), m));
                let after = p
                    .play(Column(m.column as u8))
                    .expect("the book's column is legal");
                walk(after, bot_parity, last, met);
            } else {
                for reply in 0..7u8 {
                    if let Ok(next) = p.clone().play(Column(reply)) {
                        walk(next, bot_parity, last, met);
                    }
                }
            }
        }
        let mut met = Vec::new();
        walk(position(""), bot_parity, last, &mut met);
        met
    }

    /// As first player the bot finds every position of its tree in the book, and each book
    /// move wins; as second player, too, the tree is whole.
    #[test]
    fn the_strategy_trees_are_whole_and_the_first_player_wins() {
        // Lines where the opponent let a four through end early: fewer than 1 + 7 + … + 7^4.
        let first = strategy_tree(0, 8);
        assert!(first.iter().filter(|(stones, _)| *stones == 8).count() > 1000);
        assert!(first.iter().all(|(_, m)| m.score > 0));
        let second = strategy_tree(1, 7);
        assert!(second.iter().filter(|(stones, _)| *stones == 7).count() > 1000);
        // The second player's first answers: a loss against the centre, a draw against the
        // columns beside it, a win against the others (the known values of the 7x6 board).
        let firsts: Vec<i32> = second
            .iter()
            .filter(|(stones, _)| *stones == 1)
            .map(|(_, m)| m.score.signum())
            .collect();
        assert_eq!(firsts, [1, 1, 0, -1, 0, 1, 1]);
    }

    /// The value for the bot (to move in `p`) as the book and the rules know it: a loss if
    /// the opponent has just made four, a draw on a full board, a win if the bot makes four
    /// now, else the book's score; `None` past the book.
    fn known_value(p: &ConnectFour) -> Option<i32> {
        let g: Geometry<u64> = Geometry::of(p);
        let b: Board<u64> = Board::of(p);
        let (playable, n) = (g.playable as i32, b.moves as i32);
        if b.last_mover_won(&g) {
            Some(-(playable + 2 - n) / 2)
        } else if n == playable {
            Some(0)
        } else if b.can_win_next(&g) {
            Some((playable + 1 - n) / 2)
        } else {
            probe(p).map(|m| m.score)
        }
    }

    /// Every entry of both trees whose next book positions are in the book too is the
    /// minimax of them: its score is the worst, over the opponent's replies, of the value
    /// after its column and that reply. A wrong score or a column that loses a point fails.
    #[test]
    fn entries_are_the_minimax_of_the_entries_after_them() {
        let mut checked = 0;
        for (bot_parity, last) in [(0, 8), (1, 7)] {
            let mut stack = vec![position("")];
            while let Some(p) = stack.pop() {
                if p.ply() > last || p.is_over() {
                    continue;
                }
                if p.ply() % 2 != bot_parity {
                    stack.extend((0..7u8).filter_map(|r| p.clone().play(Column(r)).ok()));
                    continue;
                }
                let Some(m) = probe(&p) else { continue };
                let after = p
                    .clone()
                    .play(Column(m.column as u8))
                    .expect("a legal column");
                let replies: Vec<ConnectFour> = (0..7u8)
                    .filter_map(|r| after.clone().play(Column(r)).ok())
                    .collect();
                if p.ply() + 2 <= last {
                    let values: Option<Vec<i32>> = replies.iter().map(known_value).collect();
                    let values = values.unwrap_or_else(|| panic!("a reply leaves the book: {p:?}"));
                    assert_eq!(values.iter().min().copied(), Some(m.score), "{p:?}");
                    checked += 1;
                }
                stack.extend(replies);
            }
        }
        assert!(checked > 500, "only {checked} entries checked");
    }

    /// The deepest entries, whose next positions are past the book, against the solver.
    #[test]
    fn deep_entries_agree_with_the_solver() {
        let g: Geometry<u64> = Geometry::of(&position(""));
        let mut deepest: Vec<(u64, BookMove)> = entries().iter().map(|(&k, &m)| (k, m)).collect();
        deepest.sort_by_key(|&(k, _)| (std::cmp::Reverse(board_of_key(k, &g).moves), k));
        let mut solver: Solver<u64> = Solver::new(g.clone(), 22);
        for &(key, m) in deepest.iter().take(2) {
            let board = board_of_key(key, &g);
            assert_eq!(solver.solve(&board), Some(m.score), "{key:x}");
            let mut child = board;
            child.play(board.landing(&g, m.column).expect("an open column"));
            assert_eq!(
                solver.solve(&child),
                Some(-m.score),
                "{key:x}: the column keeps the score"
            );
        }
    }
}
