//! The Gomoku engine as a brain of the Gomocup (Piskvork) protocol on standard input and
//! output, so it runs in the existing tournament managers and against other brains.
//!
//! Commands: START, RESTART, BEGIN, TURN, TAKEBACK, BOARD … DONE, INFO (timeout_turn,
//! timeout_match, time_left, max_memory, which sizes the engine's tables, and rule as the
//! bitmask 1 = exactly five, 4 = renju), END, ABOUT, SWAP2BOARD … DONE (the swap2 opening,
//! [`swap2`]), and the extensions YXBOARD (a board without a reply move) and YXSHOWFORBID
//! (black's forbidden points). Before each move it
//! sends a `MESSAGE` line with the search's depth, score, nodes, speed and principal
//! variation, as brains do for the managers to show. Coordinates are the protocol's `x,y`
//! from 0, `y` counting rows from the top. The brain answers `OK`, `ERROR message` or
//! `UNKNOWN` as the protocol says, and never spends more than `timeout_turn` (less a safety
//! margin) on a move.

use std::io::{BufRead, Write};
use std::time::Duration;

use game_core::gomoku::Gomoku;
use game_core::{AnyPosition, Cell, GomokuRule, Position};

use crate::engine::{
    longest_move_time, move_time, Engine, Level, Score, SearchLimits, SearchResult, StopFlag,
};

mod swap2;

/// A block of stones the manager sends, ended by `DONE`, and what it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// `BOARD`: the position, then a move.
    Board,
    /// Yixin's `YXBOARD`: the position only.
    YxBoard,
    /// `SWAP2BOARD`: an opening, a colour or a move by the swap2 rule.
    Swap2,
}

/// Time kept in hand on every move for the pipes and the manager's own bookkeeping: a fixed
/// part for a process the machine may pause, and a share of the turn for longer turns.
fn margin(turn: Duration) -> Duration {
    (Duration::from_millis(15) + turn / 40).min(turn / 5)
}

/// The brain's state between commands.
struct Brain<E> {
    make_engine: E,
    engine: Option<Box<dyn Engine>>,
    size: u8,
    rule: GomokuRule,
    /// Stones in play order: (cell, own?).
    stones: Vec<(Cell, bool)>,
    timeout_turn: Duration,
    time_left: Option<Duration>,
    /// The block being read, until its `DONE`.
    board_block: Option<Block>,
    seed: u64,
    /// The manager's memory limit in bytes (`INFO max_memory`; none: 0, no limit).
    max_memory: Option<u64>,
}

impl<E> Brain<E> {
    /// A brain before `START`: a 5 s turn and no match clock until the manager says.
    fn new(make_engine: E) -> Brain<E> {
        Brain {
            make_engine,
            engine: None,
            size: 0,
            rule: GomokuRule::Freestyle,
            stones: Vec::new(),
            timeout_turn: Duration::from_secs(5),
            time_left: None,
            board_block: None,
            seed: 0,
            max_memory: None,
        }
    }
}

fn parse_xy(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split(',').map(str::trim);
    let x = parts.next()?.parse().ok()?;
    let y = parts.next()?.parse().ok()?;
    Some((x, y))
}

impl<E: FnMut(Option<u64>) -> Box<dyn Engine>> Brain<E> {
    fn cell(&self, x: u32, y: u32) -> Option<Cell> {
        let n = u32::from(self.size);
        (self.size > 0 && x < n && y < n).then(|| Cell::new(x as u8, (n - 1 - y) as u8))
    }

    fn xy(&self, c: Cell) -> String {
        format!("{},{}", c.col, u32::from(self.size) - 1 - u32::from(c.row))
    }

    /// The position: black stones are those of the side that moved first.
    fn position(&self) -> Result<Gomoku, String> {
        let own = self.stones.iter().filter(|(_, o)| *o).count();
        let theirs = self.stones.len() - own;
        // Black moved first, so black has as many stones as white or one more: with equal
        // counts the brain, asked to move, is black.
        let own_is_black = own >= theirs;
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for &(c, o) in &self.stones {
            if o == own_is_black {
                black.push(c);
            } else {
                white.push(c);
            }
        }
        Gomoku::from_stones(self.size, self.rule, &black, &white).map_err(|e| e.to_string())
    }

    /// Searches the position and plays the move; returns the lines to print: a `MESSAGE`
    /// with what the search found (depth, score, nodes, speed, principal variation), as
    /// tournament managers show it, then the move.
    fn think(&mut self) -> Result<Vec<String>, String> {
        let pos = self.position()?;
        if pos.is_over() {
            return Err("the game is over".to_string());
        }
        let own = self.stones.iter().filter(|(_, o)| *o).count();
        let theirs = self.stones.len() - own;
        if own > theirs {
            return Err("it is not my turn".to_string());
        }
        let (limits, seed) = (self.limits(), self.next_seed());
        let result = search(self.engine().as_mut(), &pos, limits, seed);
        let message = result.as_ref().map(message);
        let best = result
            .and_then(|r| r.best.parse::<Cell>().ok())
            .filter(|c| pos.is_legal(*c).is_ok())
            .or_else(|| pos.legal_moves().first().copied())
            .ok_or_else(|| "no legal move".to_string())?;
        self.stones.push((best, true));
        Ok(message.into_iter().chain([self.xy(best)]).collect())
    }

    /// The time this move usually takes and the most it may take: the turn less the margin;
    /// under a match clock, a slice of what is left that a search unsure of its move may
    /// lengthen ([`move_time`], [`longest_move_time`]), both within the turn.
    fn times(&self) -> (Duration, Duration) {
        let turn = self.timeout_turn.saturating_sub(margin(self.timeout_turn));
        let least = Duration::from_millis(10);
        let Some(left) = self.time_left else {
            return (turn.max(least), turn.max(least));
        };
        let left = left.saturating_sub(margin(left));
        let usual = move_time(left, Duration::ZERO).min(turn).max(least);
        let most = longest_move_time(left, Duration::ZERO).min(turn).max(usual);
        (usual, most)
    }

    /// A move's search limits, from [`Brain::times`].
    fn limits(&self) -> SearchLimits {
        match self.times() {
            (usual, most) if most > usual => SearchLimits::Range { usual, most },
            (usual, _) => SearchLimits::Time(usual),
        }
    }

    /// The time of a swap2 decision: a move's usual time.
    fn budget(&self) -> Duration {
        self.times().0
    }

    /// A new seed for the next search, so that repeated positions need not repeat a move.
    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(1);
        self.seed
    }

    /// The engine, made within the manager's memory limit the first time it is needed.
    fn engine(&mut self) -> &mut Box<dyn Engine> {
        let (make_engine, max_memory) = (&mut self.make_engine, self.max_memory);
        self.engine.get_or_insert_with(|| make_engine(max_memory))
    }

    /// The answer to a `SWAP2BOARD` block: three stones on an empty board; with three or
    /// five stones, `SWAP` or white's move (see [`swap2`]).
    fn swap2_answer(&mut self) -> Result<Vec<String>, String> {
        let (budget, seed, size, rule) = (self.budget(), self.next_seed(), self.size, self.rule);
        let answer = match self.stones.len() {
            0 => swap2::open(self.engine().as_mut(), size, rule, budget, seed)?,
            3 | 5 => {
                let pos = self.position()?;
                swap2::choose(self.engine().as_mut(), &pos, budget, seed)?
            }
            n => return Err(format!("a swap2 board has 0, 3 or 5 stones, not {n}")),
        };
        Ok(match answer {
            swap2::Answer::Open(stones) => {
                vec![stones.map(|c| self.xy(c)).join(" ")]
            }
            swap2::Answer::Swap => vec!["SWAP".to_string()],
            swap2::Answer::Move(c, result) => {
                self.stones.push((c, true));
                vec![message(&result), self.xy(c)]
            }
        })
    }

    /// Handles one line; returns the lines to print and whether to stop.
    fn line(&mut self, line: &str) -> (Vec<String>, bool) {
        let line = line.trim();
        if line.is_empty() {
            return (Vec::new(), false);
        }
        if let Some(block) = self.board_block {
            if line.eq_ignore_ascii_case("DONE") {
                self.board_block = None;
                return match block {
                    Block::Board => (self.reply(), false),
                    Block::YxBoard => (Vec::new(), false),
                    Block::Swap2 => (or_error(self.swap2_answer()), false),
                };
            }
            let mut parts = line.split(',').map(str::trim);
            let parsed = (|| {
                let x: u32 = parts.next()?.parse().ok()?;
                let y: u32 = parts.next()?.parse().ok()?;
                let field: u32 = parts.next()?.parse().ok()?;
                Some((x, y, field))
            })();
            return match parsed.and_then(|(x, y, f)| Some((self.cell(x, y)?, f))) {
                Some((c, 1)) => {
                    self.stones.push((c, true));
                    (Vec::new(), false)
                }
                Some((c, 2)) => {
                    self.stones.push((c, false));
                    (Vec::new(), false)
                }
                _ => (vec![format!("ERROR bad board line {line:?}")], false),
            };
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_uppercase(), r.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        let out = match command.as_str() {
            "START" => match rest.parse::<u8>() {
                Ok(n) if (5..=26).contains(&n) => {
                    self.size = n;
                    self.stones.clear();
                    self.engine = None;
                    "OK".to_string()
                }
                _ => format!("ERROR unsupported size {rest:?} (5 to 26)"),
            },
            "RECTSTART" => "ERROR only square boards are supported".to_string(),
            "RESTART" => {
                self.stones.clear();
                self.engine = None;
                "OK".to_string()
            }
            "BEGIN" => {
                if self.size == 0 {
                    "ERROR START first".to_string()
                } else {
                    self.stones.clear();
                    return (self.reply(), false);
                }
            }
            "TURN" => match parse_xy(rest).and_then(|(x, y)| self.cell(x, y)) {
                Some(c) if self.stones.iter().all(|(s, _)| *s != c) => {
                    self.stones.push((c, false));
                    return (self.reply(), false);
                }
                Some(_) => format!("ERROR {rest} is occupied"),
                None => format!("ERROR bad move {rest:?}"),
            },
            "TAKEBACK" => match parse_xy(rest).and_then(|(x, y)| self.cell(x, y)) {
                Some(c) => match self.stones.iter().rposition(|(s, _)| *s == c) {
                    Some(i) => {
                        self.stones.remove(i);
                        "OK".to_string()
                    }
                    None => format!("ERROR no stone at {rest}"),
                },
                None => format!("ERROR bad move {rest:?}"),
            },
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                if self.size == 0 {
                    "ERROR START first".to_string()
                } else {
                    self.stones.clear();
                    self.board_block = Some(match command.as_str() {
                        "BOARD" => Block::Board,
                        "YXBOARD" => Block::YxBoard,
                        _ => Block::Swap2,
                    });
                    return (Vec::new(), false);
                }
            }
            "INFO" => {
                self.info(rest);
                return (Vec::new(), false);
            }
            "YXSHOWFORBID" => {
                let mut text = String::from("FORBID ");
                if let Ok(pos) = self.position() {
                    for c in pos.forbidden_points() {
                        let y = u32::from(self.size) - 1 - u32::from(c.row);
                        text.push_str(&format!("{:02}{:02}", c.col, y));
                    }
                }
                text.push('.');
                text
            }
            "END" => return (Vec::new(), true),
            // Only keys with a value: some managers read an empty one as shifting the next key.
            "ABOUT" => r#"name="Kibitz", version="0.1", author="Kibitz developers""#.to_string(),
            _ => "UNKNOWN".to_string(),
        };
        (vec![out], false)
    }

    /// [`Brain::think`]'s lines, or its error as the protocol's `ERROR` line.
    fn reply(&mut self) -> Vec<String> {
        or_error(self.think())
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let number = value.trim().parse::<i64>().ok();
        match (key.to_ascii_lowercase().as_str(), number) {
            // 0 asks for moves as fast as possible: the shortest search.
            ("timeout_turn", Some(ms)) if ms >= 0 => {
                self.timeout_turn = Duration::from_millis(ms as u64)
            }
            ("time_left", Some(ms)) if ms >= 0 => {
                self.time_left = Some(Duration::from_millis(ms as u64))
            }
            ("rule", Some(bits)) => {
                self.rule = if bits & 4 != 0 {
                    GomokuRule::Renju
                } else if bits & 1 != 0 {
                    GomokuRule::Standard
                } else {
                    GomokuRule::Freestyle
                };
                self.engine = None;
            }
            ("max_memory", Some(bytes)) if bytes >= 0 => {
                let limit = u64::try_from(bytes).ok().filter(|&b| b > 0);
                if limit != self.max_memory {
                    // The engine's tables are sized when it is made.
                    self.max_memory = limit;
                    self.engine = None;
                }
            }
            // timeout_match, game_type, folder, evaluate: nothing to do.
            _ => {}
        }
    }
}

/// An answer's lines, or its error as the protocol's `ERROR` line.
fn or_error(answer: Result<Vec<String>, String>) -> Vec<String> {
    answer.unwrap_or_else(|e| vec![format!("ERROR {e}")])
}

/// The engine's search of `pos` at full strength within `budget`: the swap2 answers'.
fn timed_search(
    engine: &mut dyn Engine,
    pos: &Gomoku,
    budget: Duration,
    seed: u64,
) -> Option<SearchResult> {
    search(engine, pos, SearchLimits::Time(budget), seed)
}

/// The engine's search of `pos` at full strength within `limits`: every move's.
fn search(
    engine: &mut dyn Engine,
    pos: &Gomoku,
    limits: SearchLimits,
    seed: u64,
) -> Option<SearchResult> {
    let position = AnyPosition::Gomoku(pos.clone());
    engine.search(&position, limits, Level::MAX, &StopFlag::new(), seed)
}

/// Thousands as `K`, millions as `M`, as brains print speeds.
fn count_text(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{}K", n / 1000),
        _ => format!("{}M", n / 1_000_000),
    }
}

/// The `MESSAGE` line of a search: depth, score, nodes, speed, time and principal variation.
/// A move from the opening book searched nothing now: its line names the book and no depth
/// (the book's own depth, reached offline, would read as this move's search).
fn message(r: &SearchResult) -> String {
    let score = match r.score {
        Score::WinIn(n) if n > 0 => format!("win in {n}"),
        Score::WinIn(n) => format!("loss in {}", -n),
        Score::Heuristic(s) | Score::Exact(s) => s.to_string(),
    };
    if r.is_book_move() {
        return format!(
            "MESSAGE book move ev {score} nodes 0 time {} ms pv {}",
            r.ms,
            r.pv.join(" ")
        );
    }
    let nps = r.nodes * 1000 / r.ms.max(1);
    format!(
        "MESSAGE depth {} ev {score} nodes {} nps {} time {} ms pv {}",
        r.depth,
        count_text(r.nodes),
        count_text(nps),
        r.ms,
        r.pv.join(" ")
    )
}

/// Runs the brain on `input`/`output` until END or end of input. `make_engine` builds the
/// Gomoku engine (a new one per game) within the manager's memory limit in bytes, if any.
pub fn run<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    make_engine: impl FnMut(Option<u64>) -> Box<dyn Engine>,
) -> std::io::Result<()> {
    let mut brain = Brain::new(make_engine);
    for line in input.lines() {
        let (replies, stop) = brain.line(&line?);
        for r in replies {
            writeln!(output, "{r}")?;
        }
        output.flush()?;
        if stop {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gomoku::GomokuEngine;

    #[test]
    fn the_engine_is_made_within_the_managers_memory_limit() {
        let input = "START 15\nINFO timeout_turn 50\nINFO max_memory 83886080\nBEGIN\n\
                     INFO max_memory 0\nTURN 7,8\nINFO max_memory 0\nTURN 9,9\nEND\n";
        let mut limits = Vec::new();
        let mut output = Vec::new();
        run(input.as_bytes(), &mut output, |max_memory| {
            limits.push(max_memory);
            Box::new(GomokuEngine::with_tt_bits(12))
        })
        .unwrap();
        // Made for the first move, made again when the limit changed, and kept after the
        // same limit came again.
        assert_eq!(limits, vec![Some(83_886_080), None]);
        let text = String::from_utf8(output).unwrap();
        let moves = text
            .lines()
            .filter(|l| l.contains(',') && !l.starts_with("MESSAGE"));
        assert_eq!(moves.count(), 3, "{text}");
    }

    #[test]
    fn about_has_no_empty_keys_and_a_book_move_no_depth() {
        let mut output = Vec::new();
        run("ABOUT\nEND\n".as_bytes(), &mut output, |_| {
            Box::new(GomokuEngine::with_tt_bits(12))
        })
        .unwrap();
        let about = String::from_utf8(output).unwrap();
        assert!(
            about.starts_with("name=\"Kibitz\"") && !about.contains("\"\""),
            "{about}"
        );
        let book = SearchResult {
            best: "h8".into(),
            score: Score::Heuristic(35),
            exact: false,
            depth: 22,
            nodes: 0,
            ms: 1,
            pv: vec!["h8".into()],
        };
        let line = message(&book);
        assert!(
            line.starts_with("MESSAGE book move ev 35") && !line.contains("depth"),
            "{line}"
        );
        let searched = SearchResult {
            nodes: 5000,
            ..book
        };
        assert!(message(&searched).starts_with("MESSAGE depth 22 ev 35 nodes 5000"));
    }

    #[test]
    fn a_match_clock_gives_a_usual_and_a_longest_move_within_the_turn() {
        let mut brain = Brain::new(|_: Option<u64>| -> Box<dyn Engine> {
            Box::new(GomokuEngine::with_tt_bits(12))
        });
        let turn = Duration::from_secs(30);
        brain.line("INFO timeout_turn 30000");
        assert_eq!(brain.limits(), SearchLimits::Time(turn - margin(turn)));
        // Gomocup's 180 s a game: a slice of it, which an unsure search may triple.
        brain.line("INFO time_left 180000");
        let SearchLimits::Range { usual, most } = brain.limits() else {
            panic!("{:?}", brain.limits());
        };
        assert!(
            usual >= Duration::from_secs(6) && most == usual * 3,
            "{usual:?} {most:?}"
        );
        assert!(most < turn, "{most:?}");
        assert_eq!(brain.budget(), usual);
        // Little left: both within a third of it.
        brain.line("INFO time_left 900");
        let SearchLimits::Range { usual, most } = brain.limits() else {
            panic!("{:?}", brain.limits());
        };
        assert!(
            usual < most && most <= Duration::from_millis(300),
            "{usual:?} {most:?}"
        );
        // A match without a limit (the largest time_left): the turn.
        brain.line("INFO time_left 2147483647");
        assert_eq!(brain.limits(), SearchLimits::Time(turn - margin(turn)));
    }

    #[test]
    fn swap2_boards_get_an_opening_then_a_colour_or_a_move() {
        // An empty board, then the three stones the brain laid (black 2, white 1, as the
        // protocol gives a board to the side to move), then a bad count.
        let mut output = Vec::new();
        let input = "START 15\nINFO timeout_turn 200\nSWAP2BOARD\nDONE\n\
                     SWAP2BOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n\
                     SWAP2BOARD\n7,7,2\n8,8,1\nDONE\nEND\n";
        run(input.as_bytes(), &mut output, |_| {
            Box::new(GomokuEngine::with_tt_bits(12))
        })
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(lines.len(), 4, "{text}");
        let opening: Vec<(u32, u32)> = lines[1].split(' ').filter_map(parse_xy).collect();
        assert_eq!(opening.len(), 3, "{text}");
        let choice = lines[2];
        let move_ok = parse_xy(choice).is_some_and(|xy| ![(7, 7), (8, 8), (6, 8)].contains(&xy));
        assert!(choice == "SWAP" || move_ok, "{text}");
        assert!(
            lines[3].starts_with("ERROR a swap2 board has 0, 3 or 5 stones"),
            "{text}"
        );
    }
}
