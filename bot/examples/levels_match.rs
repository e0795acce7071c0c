//! Matches between the engine's levels, or a level and the beginner, in any of the three games:
//! the yardstick of docs/engines.md "Levels" (each level about 75% against the one below,
//! level 1 below a beginner). N games with colours alternating; each short opening is played
//! once with each colour; a fixed time a move; seeds fixed, so a run repeats (up to what the
//! clock changes in the deepest levels' searches).
//!
//! `cargo run --release -p kibitz-bot --example levels_match -- --game gomoku --a 5 --b 4
//! --games 20 --ms 100` prints every game and A's score (wins, draws, losses, percentage).
//! `--a beginner` or `--b beginner` plays the beginner. `--ladder` plays 2 v 1 … 10 v 9 and
//! beginner v 1 and prints one markdown table row a pair, the higher side's score.
//! Other options: `--seed N` (default 1), `--size N` and `--rule freestyle|standard|renju`
//! (Gomoku; default 15 and freestyle), `--verbose` (every move on stderr).

use std::fmt;
use std::time::{Duration, Instant};

use game_core::connect4::ConnectFour;
use game_core::gomoku::Gomoku;
use game_core::othello::Othello;
use game_core::{AnyPosition, Cell, Color, GameKind, GomokuRule, Position};
use kibitz_bot::engine::beginner::Beginner;
use kibitz_bot::engine::othello::selfplay::seeded;
use kibitz_bot::engine::registry::engine_for;
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};
use rand::Rng;

/// Gomoku openings (offsets from the centre, black first).
const GOMOKU_OPENINGS: [&[(i8, i8)]; 12] = [
    &[(0, 0), (1, 1)],
    &[(0, 0), (1, 0)],
    &[(0, 0), (1, 1), (2, 0)],
    &[(0, 0), (0, 1), (2, 1)],
    &[(0, 0), (2, 2), (1, -1)],
    &[(0, 0), (1, 2)],
    &[(0, 0), (2, 0)],
    &[(0, 0), (1, 0), (0, 2)],
    &[(0, 0), (2, 1)],
    &[(0, 0), (1, 1), (-1, 1)],
    &[(0, 0), (0, 2), (1, 1)],
    &[(0, 0), (2, 2)],
];

/// Connect Four openings on the 7x6 board (columns 1..=7, first player first).
const CONNECT4_OPENINGS: [&str; 12] = [
    "44", "43", "45", "33", "34", "55", "42", "32", "53", "41", "35", "22",
];

/// Plies of the random Othello openings.
const OTHELLO_OPENING_PLIES: usize = 4;

/// Who plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Level(u8),
    Beginner,
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Level(l) => write!(f, "level {l}"),
            Player::Beginner => f.write_str("beginner"),
        }
    }
}

impl Player {
    fn short(self) -> String {
        match self {
            Player::Level(l) => l.to_string(),
            Player::Beginner => "beginner".into(),
        }
    }
}

/// One side during a game.
enum Side {
    Engine(Box<dyn Engine>, Level),
    Beginner(Box<Beginner>),
}

/// What the command line asked for.
struct Options {
    game: GameKind,
    a: Player,
    b: Player,
    games: usize,
    ms: u64,
    seed: u64,
    size: u8,
    rule: GomokuRule,
    ladder: bool,
    verbose: bool,
}

/// A's results over a match.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    slowest: Duration,
}

impl Tally {
    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    fn percent(&self) -> f64 {
        let points = f64::from(self.wins) + f64::from(self.draws) / 2.0;
        100.0 * points / f64::from(self.games().max(1))
    }
}

fn parse_player(text: &str) -> Player {
    if text.eq_ignore_ascii_case("beginner") {
        return Player::Beginner;
    }
    match text.parse::<u8>() {
        Ok(l @ 1..=10) => Player::Level(l),
        _ => usage(&format!(
            "a player is a level 1..=10 or beginner, not {text:?}"
        )),
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "{problem}\nusage: levels_match --game gomoku|othello|connect4 [--a 5] [--b 4] \
         [--games 20] [--ms 100] [--seed 1] [--ladder] [--size 15] [--rule freestyle] [--verbose]"
    );
    std::process::exit(2);
}

fn parse_options() -> Options {
    let mut options = Options {
        game: GameKind::Gomoku,
        a: Player::Level(5),
        b: Player::Level(4),
        games: 20,
        ms: 100,
        seed: 1,
        size: 15,
        rule: GomokuRule::Freestyle,
        ladder: false,
        verbose: false,
    };
    let mut game = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{flag} needs a value")))
        };
        let number = |text: String| -> u64 {
            text.parse()
                .unwrap_or_else(|_| usage(&format!("{flag} takes a number, not {text:?}")))
        };
        match flag.as_str() {
            "--game" => {
                game = Some(match value().as_str() {
                    "gomoku" => GameKind::Gomoku,
                    "othello" => GameKind::Othello,
                    "connect4" => GameKind::Connect4,
                    other => usage(&format!("unknown game {other:?}")),
                })
            }
            "--a" => options.a = parse_player(&value()),
            "--b" => options.b = parse_player(&value()),
            "--games" => options.games = number(value()) as usize,
            "--ms" => options.ms = number(value()),
            "--seed" => options.seed = number(value()),
            "--size" => {
                options.size = u8::try_from(number(value()))
                    .ok()
                    .filter(|size| (5..=26).contains(size))
                    .unwrap_or_else(|| usage("--size is 5..=26"))
            }
            "--rule" => {
                options.rule = match value().as_str() {
                    "freestyle" => GomokuRule::Freestyle,
                    "standard" => GomokuRule::Standard,
                    "renju" => GomokuRule::Renju,
                    other => usage(&format!("unknown rule {other:?}")),
                }
            }
            "--ladder" => options.ladder = true,
            "--verbose" => options.verbose = true,
            other => usage(&format!("unknown argument {other:?}")),
        }
    }
    options.game = game.unwrap_or_else(|| usage("--game is needed"));
    options
}

/// The starting positions, each to be played twice (colours swapped).
fn openings(options: &Options) -> Vec<AnyPosition> {
    match options.game {
        GameKind::Gomoku => {
            let centre = (options.size / 2) as i8;
            GOMOKU_OPENINGS
                .iter()
                .map(|stones| {
                    let cells: Vec<Cell> = stones
                        .iter()
                        .map(|&(dc, dr)| Cell::new((centre + dc) as u8, (centre + dr) as u8))
                        .collect();
                    let pos = Gomoku::from_moves(options.size, options.rule, &cells)
                        .expect("the openings are legal on every board of 5 and up");
                    AnyPosition::Gomoku(pos)
                })
                .collect()
        }
        GameKind::Connect4 => CONNECT4_OPENINGS
            .iter()
            .map(|moves| {
                let mut pos = ConnectFour::new(7, 6, &[]).expect("the standard board");
                for c in moves.chars() {
                    let col = c.to_string().parse().expect("a column");
                    pos = pos.play(col).expect("a legal opening");
                }
                AnyPosition::Connect4(pos)
            })
            .collect(),
        GameKind::Othello => {
            // Distinct random openings, a fixed sequence: enough for any match.
            let mut rng = seeded(options.seed);
            let wanted = options.games.div_ceil(2).max(1);
            let mut found: Vec<Othello> = Vec::new();
            // There are only so many four-ply lines: past them, openings come round again.
            let mut tries = 0;
            while found.len() < wanted && tries < 100_000 {
                tries += 1;
                let mut pos = Othello::new();
                for _ in 0..OTHELLO_OPENING_PLIES {
                    let moves = pos.legal_moves();
                    pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                }
                if !found.contains(&pos) {
                    found.push(pos);
                }
            }
            found.into_iter().map(AnyPosition::Othello).collect()
        }
    }
}

/// Plays one game from `opening`; A has the first colour (black) when `a_first`. Returns A's
/// result: 1 win, 0 draw, -1 loss; and the slowest move.
fn play(
    options: &Options,
    (a, b): (Player, Player),
    opening: &AnyPosition,
    a_first: bool,
    game_seed: u64,
) -> (i32, Duration, Vec<String>) {
    let side = |player: Player, salt: u64| match player {
        Player::Level(l) => Side::Engine(engine_for(options.game), Level::new(l)),
        Player::Beginner => Side::Beginner(Box::new(Beginner::new(game_seed ^ salt))),
    };
    let mut sides = [side(a, 0xA), side(b, 0xB)];
    let a_color = if a_first { Color::Black } else { Color::White };
    let mut pos = opening.clone();
    let mut slowest = Duration::ZERO;
    let mut moves = Vec::new();
    let stop = StopFlag::new();
    while pos.outcome().is_none() {
        let a_to_move = pos.turn() == a_color;
        let index = usize::from(!a_to_move);
        let start = Instant::now();
        let best = match &mut sides[index] {
            Side::Engine(engine, level) => {
                let seed = game_seed.wrapping_mul(1_000).wrapping_add(pos.ply() as u64);
                let limits = SearchLimits::Time(Duration::from_millis(options.ms));
                let r = engine
                    .search(&pos, limits, *level, &stop, seed)
                    .expect("a move in an unfinished game");
                if options.verbose {
                    eprintln!(
                        "{} {:>3} {:<5} {:?} depth {} nodes {} {} ms",
                        if a_to_move { "A" } else { "B" },
                        pos.ply() + 1,
                        r.best,
                        r.score,
                        r.depth,
                        r.nodes,
                        r.ms
                    );
                }
                r.best
            }
            Side::Beginner(beginner) => {
                beginner.choose(&pos).expect("a move in an unfinished game")
            }
        };
        slowest = slowest.max(start.elapsed());
        pos.play_str(&best)
            .unwrap_or_else(|e| panic!("an illegal move {best}: {e}"));
        moves.push(best);
    }
    let result = match pos.outcome().and_then(|o| o.winner) {
        Some(c) if c == a_color => 1,
        Some(_) => -1,
        None => 0,
    };
    (result, slowest, moves)
}

/// A match of `options.games` games between `a` and `b`; prints each game when `print`.
fn run_match(options: &Options, a: Player, b: Player, print: bool) -> Tally {
    let openings = openings(options);
    let mut tally = Tally::default();
    for game in 0..options.games {
        let a_first = game % 2 == 0;
        let opening = &openings[(game / 2) % openings.len()];
        let game_seed = options
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(game as u64);
        let (result, slowest, moves) = play(options, (a, b), opening, a_first, game_seed);
        tally.slowest = tally.slowest.max(slowest);
        let verdict = match result {
            1 => {
                tally.wins += 1;
                "A wins"
            }
            -1 => {
                tally.losses += 1;
                "B wins"
            }
            _ => {
                tally.draws += 1;
                "draw"
            }
        };
        if print {
            println!(
                "game {}: A ({a}) {}, {verdict} in {} moves after the opening: {}",
                game + 1,
                if a_first { "first" } else { "second" },
                moves.len(),
                moves.join(" ")
            );
        }
    }
    tally
}

fn game_label(options: &Options) -> String {
    match options.game {
        GameKind::Gomoku => format!(
            "Gomoku {}x{} {}",
            options.size,
            options.size,
            options.rule.as_str()
        ),
        GameKind::Othello => "Othello".into(),
        GameKind::Connect4 => "Connect Four 7x6".into(),
    }
}

fn main() {
    let options = parse_options();
    if options.ladder {
        println!(
            "| pair | games | wins | draws | losses | score of the first |\n|---|---|---|---|---|---|"
        );
        let mut pairs: Vec<(Player, Player)> = (2..=10)
            .map(|l| (Player::Level(l), Player::Level(l - 1)))
            .collect();
        pairs.push((Player::Beginner, Player::Level(1)));
        for (a, b) in pairs {
            let t = run_match(&options, a, b, false);
            println!(
                "| {} v {} | {} | {} | {} | {} | {:.0}% |",
                a.short(),
                b.short(),
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                t.percent()
            );
        }
    } else {
        let t = run_match(&options, options.a, options.b, true);
        println!(
            "score: {} {} wins, {} draws, {} losses against {}: {:.1}% ({} games, {} ms a move, {}); slowest move {} ms",
            options.a,
            t.wins,
            t.draws,
            t.losses,
            options.b,
            t.percent(),
            t.games(),
            options.ms,
            game_label(&options),
            t.slowest.as_millis()
        );
    }
}
