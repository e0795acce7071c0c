//! Fits the Gomoku evaluation's point weights (`bot/src/engine/gomoku/points.rs`, and the side to
//! move's share in `eval.rs`) to self-play games, Texel's way: every quiet position of a game
//! is labelled with the game's result for the side to move, and the weights are moved to
//! make `sigmoid(eval / scale)` predict those results (docs/benchmarks.md, "Gomoku
//! evaluation", has the commands and the figures).
//!
//! ```text
//! gomoku_train selfplay <out.txt> <games> <seed> [--depth 3] [--mistakes 0.03]
//! gomoku_train fit <data.txt>... [--iterations 3000] [--split]
//! ```
//! `selfplay` appends one line per quiet position: the game's number, the result for the
//! side to move (1, 0.5 or 0) and the position's features, the counts that the evaluation
//! weighs; its games are played by level 10 at a fixed depth, with the evaluation of the
//! build that runs it. `fit` prints the starting weights' error, the fitted weights and their
//! error on a held-out tenth of the games; `--split` fits the side to move's weights and the opponent's apart instead of
//! one table and a factor, to see what a second table would gain.

#[path = "common/args.rs"]
mod args;
#[path = "common/selfplay.rs"]
mod selfplay;

use args::{fail, flag};
use selfplay::quiet;

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::{Cell, Color, GomokuRule, Position};
use kibitz_bot::engine::gomoku::board::Board;
use kibitz_bot::engine::gomoku::pattern::Pattern;
use kibitz_bot::engine::gomoku::points::{combination, COMBINATIONS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The line patterns that carry a weight, weakest first, are `Flex1..=Flex4` in [`Pattern`]
/// order (`Overline` and `None` are worth nothing, a five-point is never in a quiet
/// position): a count's index is the pattern's less `Flex1`'s.
const WEIGHED: usize = Pattern::Flex4 as usize - Pattern::Flex1 as usize + 1;
/// Per colour: the counts of the weighed patterns, then of each [`combination`].
const PER_SIDE: usize = WEIGHED + COMBINATIONS;
/// Fitted parameters: the shared per-side weights and the side to move's factor.
const PARAMS: usize = PER_SIDE + 1;
/// Where the fit starts: the hand-set weights the evaluation had before it was fitted
/// (`points.rs`'s move-order weights, no bonus for the seven newer combinations — 1, as the
/// steps are relative — and the side to move's factor 5/4).
const CURRENT: [f64; PARAMS] = [
    2., 3., 10., 12., 40., 45., 220., 400., 150., 1., 1., 1., 1., 1., 1., 1., 1.25,
];

/// The counts the evaluation weighs for colour `v` (0 black, 1 white), over the empty points.
fn side_features(board: &Board, v: usize) -> [u32; PER_SIDE] {
    let mut f = [0u32; PER_SIDE];
    for &p in board.points() {
        if !board.is_empty(p) {
            continue;
        }
        let pats = board.patterns(p, v);
        for &pat in pats {
            if (Pattern::Flex1..=Pattern::Flex4).contains(&pat) {
                f[pat as usize - Pattern::Flex1 as usize] += 1;
            }
        }
        if let Some(c) = combination(pats) {
            f[WEIGHED + c] += 1;
        }
    }
    f
}

/// Whether the position is quiet for the evaluation: no five-point and no four-three point
/// (open threes included) for the opponent, no five-point for the side to move.
/// A random empty cell within `radius` of the centre.
fn random_near_centre(pos: &Gomoku, rng: &mut StdRng, radius: u8) -> Cell {
    let half = pos.size() / 2;
    loop {
        let c = Cell::new(
            half - radius + rng.random_range(0..=2 * radius),
            half - radius + rng.random_range(0..=2 * radius),
        );
        if pos.stone(c).is_none() {
            return c;
        }
    }
}

fn selfplay(args: &[String]) {
    let [out, games, seed, ..] = args else {
        fail("selfplay <out.txt> <games> <seed> [--depth 3] [--mistakes 0.03]")
    };
    let games: u32 = games.parse().unwrap_or_else(|_| fail("games: a number"));
    let seed: u64 = seed.parse().unwrap_or_else(|_| fail("seed: a number"));
    let depth: u32 = flag(args, "--depth", 3);
    let mistakes: f64 = flag(args, "--mistakes", 0.03);
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let mut out = BufWriter::new(file);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut engine = selfplay::engine();
    let start = Instant::now();
    let (mut positions, mut results) = (0usize, [0u32; 3]);
    for game in 0..games {
        let mut pos = Gomoku::new(15, GomokuRule::Freestyle).expect("a 15x15 board");
        for _ in 0..rng.random_range(2..=5) {
            let c = random_near_centre(&pos, &mut rng, 3);
            pos.play_unchecked(c);
        }
        let mut seen: Vec<(Color, [u32; PER_SIDE], [u32; PER_SIDE])> = Vec::new();
        while pos.outcome().is_none() {
            let board = Board::from_position(&pos);
            if quiet(&board) {
                let me = board.turn();
                seen.push((
                    pos.turn(),
                    side_features(&board, me),
                    side_features(&board, 1 - me),
                ));
            }
            let m = selfplay::next_move(&mut engine, &pos, &board, &mut rng, depth, mistakes);
            pos.play_unchecked(m);
        }
        let winner = pos.outcome().and_then(|o| o.winner);
        results[match winner {
            Some(Color::Black) => 0,
            Some(Color::White) => 1,
            None => 2,
        }] += 1;
        for (turn, mine, theirs) in &seen {
            let r = match winner {
                None => "0.5",
                Some(w) if w == *turn => "1",
                Some(_) => "0",
            };
            let counts: Vec<String> = mine.iter().chain(theirs).map(u32::to_string).collect();
            writeln!(out, "{game} {r} {}", counts.join(" ")).expect("write");
        }
        positions += seen.len();
        if (game + 1) % 50 == 0 {
            eprintln!(
                "{} games, {positions} positions, black {} white {} draws {}, {:.0} s",
                game + 1,
                results[0],
                results[1],
                results[2],
                start.elapsed().as_secs_f64()
            );
        }
    }
    out.flush().expect("write");
    println!(
        "{games} games, {positions} positions, black {} white {} draws {}, {:.0} s",
        results[0],
        results[1],
        results[2],
        start.elapsed().as_secs_f64()
    );
}

/// One labelled position: game number, result for the side to move, both sides' counts.
struct Sample {
    game: u32,
    result: f64,
    mine: [f64; PER_SIDE],
    theirs: [f64; PER_SIDE],
}

fn read(path: &str, samples: &mut Vec<Sample>) {
    let file = std::fs::File::open(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    for line in BufReader::new(file).lines() {
        let line = line.unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let v: Vec<f64> = line
            .split_whitespace()
            .map(|x| {
                x.parse()
                    .unwrap_or_else(|_| fail(&format!("{path}: {line}")))
            })
            .collect();
        if v.len() != 2 + 2 * PER_SIDE {
            fail(&format!("{path}: a line of {} numbers", v.len()));
        }
        samples.push(Sample {
            game: v[0] as u32,
            result: v[1],
            mine: std::array::from_fn(|k| v[2 + k]),
            theirs: std::array::from_fn(|k| v[2 + PER_SIDE + k]),
        });
    }
}

/// The evaluation of a sample under parameters `w`, as `eval.rs` computes it.
fn eval(w: &[f64; PARAMS], s: &Sample) -> f64 {
    let mine: f64 = (0..PER_SIDE).map(|k| w[k] * s.mine[k]).sum();
    let theirs: f64 = (0..PER_SIDE).map(|k| w[k] * s.theirs[k]).sum();
    (w[PER_SIDE] * mine - theirs) / 2.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of the predicted results.
fn error(w: &[f64; PARAMS], scale: f64, samples: &[&Sample]) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - sigmoid(eval(w, s) / scale)).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The scale that fits the current weights best (a golden-section search on the error).
fn fit_scale(w: &[f64; PARAMS], samples: &[&Sample]) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 5000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(w, a, samples) < error(w, b, samples) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Gradient descent on the error, each weight's step scaled to its size (the weights span
/// three orders of magnitude); weights stay positive and the factor within [1, 2].
fn fit(start: &[f64; PARAMS], scale: f64, samples: &[&Sample], iterations: u32) -> [f64; PARAMS] {
    let mut w = *start;
    let mut rate = 0.05;
    let mut best = error(&w, scale, samples);
    for it in 0..iterations {
        let mut grad = [0f64; PARAMS];
        for s in samples {
            let mine: f64 = (0..PER_SIDE).map(|k| w[k] * s.mine[k]).sum();
            let theirs: f64 = (0..PER_SIDE).map(|k| w[k] * s.theirs[k]).sum();
            let e = (w[PER_SIDE] * mine - theirs) / 2.0;
            let p = sigmoid(e / scale);
            // d(err)/d(eval)
            let d = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            let factor = w[PER_SIDE];
            for ((g, m), t) in grad.iter_mut().zip(&s.mine).zip(&s.theirs) {
                *g += d * (factor * m - t) / 2.0;
            }
            grad[PER_SIDE] += d * mine / 2.0;
        }
        let mut next = w;
        for (n, g) in next.iter_mut().zip(grad) {
            // A relative step: the gradient in the weight's own log scale.
            let g = g * *n / samples.len() as f64;
            let step = (-rate * g.signum() * g.abs().sqrt().min(1.0)).clamp(-0.2, 0.2);
            *n *= step.exp();
        }
        next[PER_SIDE] = next[PER_SIDE].clamp(1.0, 2.0);
        let e = error(&next, scale, samples);
        if e < best {
            best = e;
            w = next;
            rate = (rate * 1.1).min(0.2);
        } else {
            rate *= 0.5;
            if rate < 1e-6 {
                eprintln!("converged after {it} iterations");
                break;
            }
        }
    }
    w
}

fn show(name: &str, w: &[f64; PARAMS]) {
    let names = [
        "flex1", "block2", "flex2", "block3", "flex3", "block4", "flex4", "four-3", "3-3", "4-b3",
        "4-f2", "3-b3", "3-f2", "b3-b3", "b3-f2", "f2-f2", "mover",
    ];
    let text: Vec<String> = names
        .iter()
        .zip(w)
        .map(|(n, v)| format!("{n} {v:.2}"))
        .collect();
    println!("{name}: {}", text.join(", "));
}

/// Split mode: the side to move's weights and the opponent's fitted apart (`w[..PER_SIDE]`
/// and `w[PER_SIDE..]`), to see how much a second table would gain.
fn split_error(w: &[f64], scale: f64, samples: &[&Sample]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let e: f64 = (0..PER_SIDE)
                .map(|k| w[k] * s.mine[k] - w[PER_SIDE + k] * s.theirs[k])
                .sum::<f64>()
                / 2.0;
            (s.result - sigmoid(e / scale)).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

fn fit_split(start: &[f64; PARAMS], scale: f64, samples: &[&Sample], iterations: u32) -> Vec<f64> {
    let mut w: Vec<f64> = (0..PER_SIDE)
        .map(|k| start[k] * start[PER_SIDE])
        .chain(start[..PER_SIDE].iter().copied())
        .collect();
    let mut rate = 0.05;
    let mut best = split_error(&w, scale, samples);
    for _ in 0..iterations {
        let mut grad = vec![0f64; 2 * PER_SIDE];
        for s in samples {
            let e: f64 = (0..PER_SIDE)
                .map(|k| w[k] * s.mine[k] - w[PER_SIDE + k] * s.theirs[k])
                .sum::<f64>()
                / 2.0;
            let p = sigmoid(e / scale);
            let d = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            let (g_mine, g_theirs) = grad.split_at_mut(PER_SIDE);
            for (g, m) in g_mine.iter_mut().zip(&s.mine) {
                *g += d * m / 2.0;
            }
            for (g, t) in g_theirs.iter_mut().zip(&s.theirs) {
                *g -= d * t / 2.0;
            }
        }
        let next: Vec<f64> = w
            .iter()
            .zip(&grad)
            .map(|(&wk, &gk)| {
                let g = gk * wk / samples.len() as f64;
                wk * (-rate * g.signum() * g.abs().sqrt().min(1.0))
                    .clamp(-0.2, 0.2)
                    .exp()
            })
            .collect();
        let e = split_error(&next, scale, samples);
        if e < best {
            best = e;
            w = next;
            rate = (rate * 1.1f64).min(0.2);
        } else {
            rate *= 0.5;
            if rate < 1e-6 {
                break;
            }
        }
    }
    w
}

fn fit_command(args: &[String]) {
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    if files.is_empty() {
        fail("fit <data.txt>... [--iterations 3000]");
    }
    let iterations: u32 = flag(args, "--iterations", 3000);
    let mut samples = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let before = samples.len();
        read(f, &mut samples);
        for s in &mut samples[before..] {
            s.game += 1_000_000 * i as u32;
        }
    }
    let (train, held): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game % 10 != 9);
    println!(
        "{} positions: {} to fit, {} held out",
        samples.len(),
        train.len(),
        held.len()
    );
    let scale = fit_scale(&CURRENT, &train);
    show("current", &CURRENT);
    println!(
        "scale {scale:.1}; error: fitted positions {:.5}, held out {:.5}",
        error(&CURRENT, scale, &train),
        error(&CURRENT, scale, &held)
    );
    if args.iter().any(|a| a == "--split") {
        let w = fit_split(&CURRENT, scale, &train, iterations);
        let text: Vec<String> = w.iter().map(|v| format!("{v:.2}")).collect();
        println!("split (mover's, then the opponent's): {}", text.join(" "));
        println!(
            "error: fitted positions {:.5}, held out {:.5}",
            split_error(&w, scale, &train),
            split_error(&w, scale, &held)
        );
        return;
    }
    let w = fit(&CURRENT, scale, &train, iterations);
    show("fitted", &w);
    println!(
        "error: fitted positions {:.5}, held out {:.5}",
        error(&w, scale, &train),
        error(&w, scale, &held)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("selfplay") => selfplay(&args[1..]),
        Some("fit") => fit_command(&args[1..]),
        _ => fail("selfplay | fit (see the file's opening comment)"),
    }
}
