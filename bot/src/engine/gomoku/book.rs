//! The opening book of 15x15 freestyle, for the first moves a timed search sees least beyond:
//! white's reply to every three-stone opening whose second and third stones lie in the 5x5
//! square around a black centre stone (75 shapes up to the board's symmetries; the tournament
//! openings are among them), black's second move after any white reply in that square or next
//! to a stone, and white's second move after the book's own reply and a black stone in the
//! square next to a stone. The project searches each position for seconds with its own engine
//! (`bot/examples/gomoku_book.rs`) and embeds the moves.
//!
//! Positions are keyed by their stones in a canonical orientation: of the eight symmetries of
//! the square board, the one whose sorted stone list is smallest. The reply is stored in that
//! orientation and mapped back to the position's own.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use game_core::gomoku::Gomoku;
use game_core::{Cell, Color, GomokuRule, Position};

/// The one board size the book knows.
pub const BOOK_SIZE: u8 = 15;

/// Half the side of the square around the centre that the book's positions start in.
pub const REACH: u8 = 2;

/// The book as the generator last wrote it.
const BOOK_TEXT: &str = include_str!("book.txt");

/// What the book says of a position: the reply, the score it was searched to (centi-stones
/// for the side to move) and the depth reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub reply: Cell,
    pub score: i32,
    pub depth: u32,
}

/// A position's stones, black's then white's, each sorted: the book's key.
pub type Stones = (Vec<Cell>, Vec<Cell>);

/// Book entries by canonical stones, the reply in the canonical orientation.
pub type BookEntries = HashMap<Stones, BookMove>;

/// The embedded book, parsed on first use.
fn entries() -> &'static BookEntries {
    static ENTRIES: OnceLock<BookEntries> = OnceLock::new();
    // The text is the generator's output, checked by a test: a fault there is a build fault,
    // and an empty book only makes the engine think instead.
    ENTRIES.get_or_init(|| parse_book(BOOK_TEXT).unwrap_or_default())
}

/// Number of positions in the embedded book.
#[must_use]
pub fn len() -> usize {
    entries().len()
}

/// The centre of the book's board, where black's first stone is.
#[must_use]
pub fn centre() -> Cell {
    Cell::new(BOOK_SIZE / 2, BOOK_SIZE / 2)
}

/// The cells of the square of side `2 * REACH + 1` around the centre, the centre included.
#[must_use]
pub fn square() -> Vec<Cell> {
    let c = centre();
    (c.col - REACH..=c.col + REACH)
        .flat_map(|col| (c.row - REACH..=c.row + REACH).map(move |row| Cell::new(col, row)))
        .collect()
}

/// The empty cells next to a stone of `stones` (the eight around each).
#[must_use]
pub fn next_to(stones: &Stones) -> BTreeSet<Cell> {
    let all: Vec<Cell> = stones.0.iter().chain(&stones.1).copied().collect();
    let mut out = BTreeSet::new();
    for c in &all {
        for dx in -1i8..=1 {
            for dy in -1i8..=1 {
                let (Some(x), Some(y)) =
                    (c.col.checked_add_signed(dx), c.row.checked_add_signed(dy))
                else {
                    continue;
                };
                if x < BOOK_SIZE && y < BOOK_SIZE {
                    out.insert(Cell::new(x, y));
                }
            }
        }
    }
    out.retain(|c| !all.contains(c));
    out
}

/// The cell `c` under symmetry `s` (0..8) of an `n`x`n` board: a mirror image when `s & 4`,
/// then `s & 3` quarter turns.
#[must_use]
pub fn transform(c: Cell, s: u8, n: u8) -> Cell {
    let m = n - 1;
    let (mut x, mut y) = (c.col, c.row);
    if s & 4 != 0 {
        x = m - x;
    }
    for _ in 0..s & 3 {
        (x, y) = (m - y, x);
    }
    Cell::new(x, y)
}

/// The symmetry that undoes `s`.
#[must_use]
pub fn inverse(s: u8) -> u8 {
    if s & 4 != 0 {
        // A mirror followed by turns is its own inverse.
        s
    } else {
        (4 - (s & 3)) & 3
    }
}

/// `stones` under symmetry `s`, sorted.
fn transformed(stones: &Stones, s: u8, n: u8) -> Stones {
    let map = |cells: &[Cell]| {
        let mut out: Vec<Cell> = cells.iter().map(|&c| transform(c, s, n)).collect();
        out.sort_unstable();
        out
    };
    (map(&stones.0), map(&stones.1))
}

/// The canonical stones of `stones` on an `n`x`n` board and the symmetry that gives them.
#[must_use]
pub fn canonical(stones: &Stones, n: u8) -> (Stones, u8) {
    (0..8)
        .map(|s| (transformed(stones, s, n), s))
        .min()
        .expect("eight symmetries")
}

/// A position's stones, black's then white's.
#[must_use]
pub fn stones_of(position: &Gomoku) -> Stones {
    let mut stones: Stones = (Vec::new(), Vec::new());
    for (cell, color) in position.stones() {
        match color {
            Color::Black => stones.0.push(cell),
            Color::White => stones.1.push(cell),
        }
    }
    stones.0.sort_unstable();
    stones.1.sort_unstable();
    stones
}

/// The book's move for `position`, in its own orientation, if it is a 15x15 freestyle
/// position in the book.
#[must_use]
pub fn probe(position: &Gomoku) -> Option<BookMove> {
    if position.size() != BOOK_SIZE
        || position.rule() != GomokuRule::Freestyle
        || position.outcome().is_some()
    {
        return None;
    }
    let (key, s) = canonical(&stones_of(position), BOOK_SIZE);
    let found = entries().get(&key)?;
    let reply = transform(found.reply, inverse(s), BOOK_SIZE);
    // A book that does not fit its position is a generator fault: think instead.
    (position.stone(reply).is_none()).then_some(BookMove { reply, ..*found })
}

/// One line of the book: black's stones, `/`, white's stones, `->`, the reply, the score
/// and the depth, in the canonical orientation.
#[must_use]
pub fn book_line(key: &Stones, m: &BookMove) -> String {
    let text = |cells: &[Cell]| {
        cells
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{} / {} -> {} {} {}",
        text(&key.0),
        text(&key.1),
        m.reply,
        m.score,
        m.depth
    )
}

/// Parses the generator's text: `#` comments and [`book_line`]s.
///
/// # Errors
/// The first malformed line, by number.
pub fn parse_book(text: &str) -> Result<BookEntries, String> {
    let mut entries = BookEntries::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("book line {}: {what}: {line:?}", i + 1);
        let (stones, answer) = line.split_once("->").ok_or_else(|| bad("no ->"))?;
        let (black, white) = stones.split_once('/').ok_or_else(|| bad("no /"))?;
        let cells = |text: &str| -> Result<Vec<Cell>, String> {
            let mut cells = text
                .split_whitespace()
                .map(|c| c.parse::<Cell>().map_err(|e| bad(&e.to_string())))
                .collect::<Result<Vec<_>, _>>()?;
            cells.sort_unstable();
            Ok(cells)
        };
        let mut answer = answer.split_whitespace();
        let mut field = |what: &str| answer.next().ok_or_else(|| bad(what));
        let reply: Cell = field("no reply")?.parse().map_err(|_| bad("bad reply"))?;
        let score: i32 = field("no score")?.parse().map_err(|_| bad("bad score"))?;
        let depth: u32 = field("no depth")?.parse().map_err(|_| bad("bad depth"))?;
        let key = (cells(black)?, cells(white)?);
        if key != canonical(&key, BOOK_SIZE).0 {
            return Err(bad("stones not in the canonical orientation"));
        }
        entries.insert(
            key,
            BookMove {
                reply,
                score,
                depth,
            },
        );
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(moves: &str) -> Vec<Cell> {
        moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    fn position(moves: &str) -> Gomoku {
        Gomoku::from_moves(BOOK_SIZE, GomokuRule::Freestyle, &cells(moves)).unwrap()
    }

    #[test]
    fn the_symmetries_are_a_group_and_their_inverses_undo_them() {
        let c = Cell::new(3, 9);
        let mut images: Vec<Cell> = (0..8).map(|s| transform(c, s, 15)).collect();
        for s in 0..8 {
            assert_eq!(transform(transform(c, s, 15), inverse(s), 15), c, "{s}");
        }
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), 8);
        // The centre stays.
        assert_eq!(transform(Cell::new(7, 7), 5, 15), Cell::new(7, 7));
    }

    /// The moves of a line of `scripts/gomoku_openings.txt`, or `None` for a comment.
    fn opening_moves(line: &str) -> Option<&str> {
        let moves = line.split('#').next().unwrap().trim();
        (!moves.is_empty()).then_some(moves)
    }

    /// The book's move for `moves` in every orientation: it lies on an empty cell, and turned
    /// back it is the plain position's, or its image under a symmetry of the position itself.
    fn probe_every_orientation(moves: &str) -> BookMove {
        let plain_pos = position(moves);
        let plain = probe(&plain_pos).unwrap_or_else(|| panic!("{moves} not in the book"));
        let plain_stones = stones_of(&plain_pos);
        for s in 0..8 {
            let turned: Vec<String> = moves
                .split_whitespace()
                .map(|m| transform(m.parse().unwrap(), s, 15).to_string())
                .collect();
            let pos = position(&turned.join(" "));
            let m = probe(&pos).unwrap_or_else(|| panic!("{turned:?} not in the book"));
            assert!(pos.stone(m.reply).is_none(), "{moves} turned {s}");
            let back = transform(m.reply, inverse(s), 15);
            assert!(
                (0..8).any(|t| transformed(&plain_stones, t, 15) == plain_stones
                    && transform(plain.reply, t, 15) == back),
                "{moves} turned {s}"
            );
        }
        plain
    }

    #[test]
    fn the_embedded_book_holds_the_first_and_second_moves_of_both_sides() {
        let book = parse_book(BOOK_TEXT).unwrap();
        assert_eq!(len(), book.len());
        let mut by_stones = [0usize; 6];
        for (key, m) in &book {
            // Three stones (white to move), four (black to move) or five (white to move).
            let (b, w) = (key.0.len(), key.1.len());
            assert!(matches!((b, w), (2, 1) | (2, 2) | (3, 2)), "{key:?}");
            by_stones[b + w] += 1;
            assert!(!key.0.contains(&m.reply) && !key.1.contains(&m.reply));
        }
        // The generator's three lists: the opening shapes, black's second moves after a white
        // reply in the square or next to a stone, white's after the book's reply and a black
        // stone in the square next to a stone.
        assert_eq!(by_stones[3..], [75, 1102, 805]);
    }

    #[test]
    fn the_book_answers_every_tournament_opening_and_the_second_moves_after_it() {
        let openings = include_str!("../../../../scripts/gomoku_openings.txt");
        let mut seen = 0;
        for moves in openings.lines().filter_map(opening_moves) {
            let first = probe_every_orientation(moves);
            // Black's second move, after each white reply in the square or next to a stone.
            let stones = stones_of(&position(moves));
            let taken = |c: &Cell| stones.0.contains(c) || stones.1.contains(c);
            let mut replies = next_to(&stones);
            replies.extend(square());
            for reply in replies.into_iter().filter(|c| !taken(c)) {
                let after = format!("{moves} {reply}");
                assert_eq!(position(&after).turn(), Color::Black);
                probe_every_orientation(&after);
            }
            // White's second move, after the book's reply and a black stone in the square
            // next to a stone.
            let after_reply = format!("{moves} {}", first.reply);
            let stones = stones_of(&position(&after_reply));
            let near = next_to(&stones);
            for black in square().into_iter().filter(|c| near.contains(c)) {
                let after = format!("{after_reply} {black}");
                assert_eq!(position(&after).turn(), Color::White);
                probe_every_orientation(&after);
            }
            // A black stone far from the others is left to the search. (One in the square
            // next to no stone may still be in the book: the same five stones can come from
            // another opening and reply.)
            assert!(probe(&position(&format!("{after_reply} a1"))).is_none());
            seen += 1;
        }
        assert_eq!(seen, 40);
        // Not in the book: other sizes, other rules, a reply far from every stone, six stones.
        assert!(probe(&position("h8 g9")).is_none());
        assert!(probe(&position("h8 g9 i6 a1")).is_none());
        assert!(probe(&position("h8 g9 i6 f8 g8 h9")).is_none());
        let renju = Gomoku::from_moves(15, GomokuRule::Renju, &cells("h8 g9 i6")).unwrap();
        assert!(probe(&renju).is_none());
        let small = Gomoku::from_moves(13, GomokuRule::Freestyle, &cells("g7 f8 h5")).unwrap();
        assert!(probe(&small).is_none());
    }

    #[test]
    fn a_book_line_reads_back_and_a_bad_one_is_refused() {
        let key = canonical(&stones_of(&position("h8 g9 i6")), 15).0;
        let m = BookMove {
            reply: Cell::new(6, 7),
            score: -120,
            depth: 17,
        };
        let text = book_line(&key, &m);
        let parsed = parse_book(&format!("# comment\n{text}\n")).unwrap();
        assert_eq!(parsed.get(&key), Some(&m));
        assert!(parse_book("h8 / g9 -> g8 1").is_err());
        assert!(parse_book("h8 / g9 g8 1 2").is_err());
        // Not canonical: an image of a canonical key that differs from it.
        let other = (1..8)
            .map(|t| transformed(&key, t, 15))
            .find(|k| *k != key)
            .unwrap();
        assert!(parse_book(&book_line(&other, &m)).is_err());
    }
}
