//! Positions to learn from: self-play games of full strength at a fixed depth from a few
//! random stones near the centre, with a share of random moves so that the positions the
//! search meets after a bad move are among them; and position lines read back.
//!
//! A position line is `<rule> <result> <moves>…`: the rule's name, the game's result for
//! the side to move (1, 0.5 or 0), the moves from the empty board in the project's notation.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::{Cell, Color, GomokuRule, Position};
use kibitz_bot::engine::gomoku::board::Board;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::args::{fail, flag};
use crate::selfplay::{self, quiet};

/// One position: its rule, the result for the side to move, the moves that made it.
pub struct Line {
    pub rule: GomokuRule,
    pub result: f64,
    pub moves: Vec<Cell>,
}

pub fn rule_name(rule: GomokuRule) -> &'static str {
    match rule {
        GomokuRule::Freestyle => "freestyle",
        GomokuRule::Standard => "standard",
        GomokuRule::Renju => "renju",
    }
}

pub fn parse_rule(name: &str) -> GomokuRule {
    match name {
        "freestyle" => GomokuRule::Freestyle,
        "standard" => GomokuRule::Standard,
        "renju" => GomokuRule::Renju,
        _ => fail(&format!("rule {name:?}: freestyle, standard or renju")),
    }
}

impl Line {
    /// The words of the line from its first move on.
    pub fn moves_text(&self) -> String {
        let words: Vec<String> = self.moves.iter().map(Cell::to_string).collect();
        words.join(" ")
    }

    /// The position after the moves, on 15x15.
    pub fn position(&self) -> Gomoku {
        Gomoku::from_moves(15, self.rule, &self.moves).unwrap_or_else(|e| fail(&format!("{e}")))
    }
}

/// Reads `<rule> <result> <moves>…` from the start of `words`.
pub fn read_line<'a>(mut words: impl Iterator<Item = &'a str>) -> Line {
    let rule = parse_rule(words.next().unwrap_or_else(|| fail("an empty line")));
    let result = words
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| fail("a line without a result"));
    let moves = words
        .map(|w| w.parse().unwrap_or_else(|_| fail(&format!("move {w:?}"))))
        .collect();
    Line {
        rule,
        result,
        moves,
    }
}

pub fn lines_of(path: &str) -> impl Iterator<Item = String> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter(|l| !l.trim().is_empty())
}

/// Two to five random stones in the 7x7 square around the centre, none forbidden.
fn random_opening(rule: GomokuRule, rng: &mut StdRng) -> (Gomoku, Vec<Cell>) {
    let mut pos = Gomoku::new(15, rule).expect("a 15x15 board");
    let mut moves = Vec::new();
    let stones = rng.random_range(2..=5);
    while moves.len() < stones {
        let c = Cell::new(rng.random_range(4..=10), rng.random_range(4..=10));
        if pos.stone(c).is_none() && pos.forbidden_kind(c).is_none() {
            pos.play_unchecked(c);
            moves.push(c);
        }
    }
    (pos, moves)
}

/// `positions <out.txt> <games> <seed> [--rule freestyle] [--depth 4] [--mistakes 0.05]
/// [--keep 0.5]`: self-play, writing each quiet position with probability `--keep`.
pub fn positions(args: &[String]) {
    let [out, games, seed, ..] = args else {
        fail("positions <out.txt> <games> <seed> [--rule freestyle] [--depth 4] [--mistakes 0.05] [--keep 0.5]")
    };
    let games: u32 = games.parse().unwrap_or_else(|_| fail("games: a number"));
    let seed: u64 = seed.parse().unwrap_or_else(|_| fail("seed: a number"));
    let rule = parse_rule(&flag(args, "--rule", "freestyle".to_string()));
    let depth: u32 = flag(args, "--depth", 4);
    let mistakes: f64 = flag(args, "--mistakes", 0.05);
    let keep: f64 = flag(args, "--keep", 0.5);
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let mut out = BufWriter::new(file);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = selfplay::engine();
    let start = Instant::now();
    let mut written = 0usize;
    for game in 0..games {
        let (mut pos, mut moves) = random_opening(rule, &mut rng);
        let mut seen: Vec<(Color, usize)> = Vec::new();
        while pos.outcome().is_none() {
            let board = Board::from_position(&pos);
            if quiet(&board) && rng.random_bool(keep) {
                seen.push((pos.turn(), moves.len()));
            }
            let m = selfplay::next_move(&mut engine, &pos, &board, &mut rng, depth, mistakes);
            pos.play_unchecked(m);
            moves.push(m);
        }
        let winner = pos.outcome().and_then(|o| o.winner);
        for (turn, len) in seen {
            let result = match winner {
                None => 0.5,
                Some(w) if w == turn => 1.0,
                Some(_) => 0.0,
            };
            let line = Line {
                rule,
                result,
                moves: moves[..len].to_vec(),
            };
            writeln!(out, "{} {result} {}", rule_name(rule), line.moves_text()).expect("write");
            written += 1;
        }
        if (game + 1) % 50 == 0 {
            eprintln!(
                "{} games, {written} positions, {:.0} s",
                game + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    out.flush().expect("write");
    println!(
        "{games} games, {written} positions, {:.0} s",
        start.elapsed().as_secs_f64()
    );
}
