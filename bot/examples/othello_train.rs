//! Trains the Othello evaluation: self-play games to labelled positions, then a fit of the
//! pattern weights to them (docs/benchmarks.md, "Othello evaluation", has the commands and
//! the figures of the weights in `bot/src/engine/othello/weights.bin`).
//!
//! ```text
//! othello_train selfplay <out.data> <games> <seed> [--weights <w.bin>] [--depth 3]
//!                        [--solve 18] [--mistakes 0.05] [--random 4..12]
//! othello_train fit <out.bin> <data>... [--iterations 100] [--shrink 4]
//!                   [--min-count 3] [--overlap 3]
//! othello_train relabel <out.data> <in.data> <w.bin> [--depth 4] [--above 20] [--share 0.5]
//! othello_train compare <a.bin|heuristic> <b.bin|heuristic> <openings> [--depth 4]
//! othello_train zero <out.bin>
//! ```
//! `compare` plays two weights files against each other from random openings, each opening
//! with both colours, moves by a fixed-depth search, the last 16 empties solved exactly.
//! `selfplay` plays with the hand-written evaluation unless `--weights` is given, and
//! appends to its output; `fit` reads any number of data files.

#[path = "common/args.rs"]
mod args;

use args::{fail, flag};

use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::time::Instant;

use kibitz_bot::engine::othello::bitboard::{flips, legal_moves};
use kibitz_bot::engine::othello::board::{final_score, game_over};
use kibitz_bot::engine::othello::eval::{Evaluate, Evaluator};
use kibitz_bot::engine::othello::heuristic::Heuristic;
use kibitz_bot::engine::othello::midgame::rank_moves;
use kibitz_bot::engine::othello::selfplay::{
    read_samples, seeded, write_samples, Sample, SelfPlay,
};
use kibitz_bot::engine::othello::solver::Solver;
use kibitz_bot::engine::othello::training::{fit, relabel, FitConfig};
use kibitz_bot::engine::othello::weights::{
    CanonicalWeights, EMPTIES, SCALARS, SCALAR_NAMES, UNIT,
};

/// The phases of the weights: the empties each covers. Finer near the end, where the
/// solver's move ordering leans on the evaluation, coarser in the opening.
const PHASE_ENDS: [u32; 10] = [10, 14, 18, 22, 26, 30, 35, 40, 47, 60];

fn phase_of() -> [u8; EMPTIES] {
    let mut table = [0u8; EMPTIES];
    for (e, p) in table.iter_mut().enumerate() {
        *p = PHASE_ENDS
            .iter()
            .position(|&end| e as u32 <= end)
            .unwrap_or(0) as u8;
    }
    table
}

fn load_weights(path: &str) -> Evaluator {
    let bytes = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    let weights =
        CanonicalWeights::from_bytes(&bytes).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
    Evaluator::new(&weights)
}

fn selfplay(args: &[String]) {
    let [out, games, seed, ..] = args else {
        fail("selfplay <out.data> <games> <seed> [flags]");
    };
    let games: u64 = games.parse().unwrap_or_else(|_| fail("games: a number"));
    let seed: u64 = seed.parse().unwrap_or_else(|_| fail("seed: a number"));
    let random = flag(args, "--random", "4..12".to_string());
    let (low, high) = random
        .split_once("..")
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .unwrap_or_else(|| fail("--random a..b"));
    let config = SelfPlay {
        random_plies: (low, high),
        depth: flag(args, "--depth", 3),
        mistake_rate: flag(args, "--mistakes", 0.05),
        solve_empties: flag(args, "--solve", 18),
    };
    let learnt = args
        .iter()
        .position(|a| a == "--weights")
        .and_then(|i| args.get(i + 1))
        .map(|path| load_weights(path));
    let eval: &dyn Evaluate = match &learnt {
        Some(e) => e,
        None => &Heuristic,
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let mut writer = BufWriter::new(file);
    let mut solver = Solver::new(22);
    let mut rng = seeded(seed);
    let started = Instant::now();
    let (mut positions, mut exact) = (0usize, 0usize);
    for game in 1..=games {
        let samples = config.play(eval, &mut solver, &mut rng);
        positions += samples.len();
        exact += samples.iter().filter(|s| s.exact).count();
        write_samples(&mut writer, &samples).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
        if game % 100 == 0 || game == games {
            eprintln!(
                "{game} games, {positions} positions ({exact} exact), {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    drop(writer);
    println!(
        "selfplay: {games} games, {positions} positions, {exact} exact, {:.1} s, {config:?}",
        started.elapsed().as_secs_f64()
    );
}

fn fit_command(args: &[String]) {
    let Some(out) = args.first() else {
        fail("fit <out.bin> <data>...");
    };
    let mut samples: Vec<Sample> = Vec::new();
    for path in args[1..].iter().take_while(|a| !a.starts_with("--")) {
        let mut file = File::open(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let read = read_samples(&mut file).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        samples.extend(read);
    }
    let config = FitConfig {
        phase_of: phase_of(),
        overlap: flag(args, "--overlap", 3),
        iterations: flag(args, "--iterations", 100),
        shrink: flag(args, "--shrink", 4.0),
        min_count: flag(args, "--min-count", 3),
        holdout: 20,
    };
    eprintln!("fit: {} positions, {config:?}", samples.len());
    let started = Instant::now();
    let (weights, reports) = fit(&samples, &config, |r| {
        eprintln!(
            "phase {} (empties {}-{}): {} train, {} held out, held-out error {:.2} -> {:.2} discs (train {:.2}), {} iterations, {} weights",
            r.phase,
            r.empties.0,
            r.empties.1,
            r.train_positions,
            r.validation_positions,
            r.validation_rmse.0,
            r.validation_rmse.1,
            r.train_rmse,
            r.iterations_used,
            r.nonzero
        );
    });
    for (phase, scalars) in weights.scalars.iter().enumerate() {
        let terms: Vec<String> = (0..SCALARS)
            .map(|i| {
                format!(
                    "{} {:.2}",
                    SCALAR_NAMES[i],
                    f64::from(scalars[i]) / f64::from(UNIT)
                )
            })
            .collect();
        eprintln!("phase {phase}: {}", terms.join(", "));
    }
    let bytes = weights.to_bytes();
    std::fs::write(out, &bytes).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let nonzero: usize = reports.iter().map(|r| r.nonzero).sum();
    println!(
        "fit: {} positions, {} phases, {nonzero} weights, {} bytes, {:.1} s",
        samples.len(),
        weights.phases(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
}

fn relabel_command(args: &[String]) {
    let [out, input, weights, ..] = args else {
        fail("relabel <out.data> <in.data> <w.bin> [flags]");
    };
    let eval = load_weights(weights);
    let mut file = File::open(input).unwrap_or_else(|e| fail(&format!("{input}: {e}")));
    let mut samples = read_samples(&mut file).unwrap_or_else(|e| fail(&format!("{input}: {e}")));
    let started = Instant::now();
    let depth = flag(args, "--depth", 4);
    let above = flag(args, "--above", 20);
    let share = flag(args, "--share", 0.5);
    let nodes = relabel(&mut samples, &eval, depth, above, share);
    let mut writer =
        BufWriter::new(File::create(out).unwrap_or_else(|e| fail(&format!("{out}: {e}"))));
    write_samples(&mut writer, &samples).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    println!(
        "relabel: {} positions, depth {depth} above {above} empties, search share {share}, {nodes} nodes, {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
}

/// One game between two evaluations from (mover, opponent), `a` moving first; the final
/// disc difference for `a`.
fn duel(evals: [&dyn Evaluate; 2], start: (u64, u64), depth: u32, solver: &mut Solver) -> i32 {
    let (mut mover, mut opponent) = start;
    let mut side = 0;
    let mut nodes = 0;
    loop {
        if game_over(mover, opponent) {
            let score = final_score(mover, opponent);
            return if side == 0 { score } else { -score };
        }
        if 64 - (mover | opponent).count_ones() <= 16 {
            let solution = solver.solve(mover, opponent).expect("no limits");
            let score = solution.score;
            return if side == 0 { score } else { -score };
        }
        if legal_moves(mover, opponent) == 0 {
            (mover, opponent, side) = (opponent, mover, 1 - side);
            continue;
        }
        let ranked = rank_moves(evals[side], mover, opponent, depth, &mut nodes);
        let square = usize::from(ranked[0].0);
        let f = flips(mover, opponent, square);
        (mover, opponent) = (opponent & !f, mover | f | (1u64 << square));
        side = 1 - side;
    }
}

fn compare(args: &[String]) {
    let [a, b, openings, ..] = args else {
        fail("compare <a.bin> <b.bin> <openings> [--depth 4]");
    };
    // "heuristic" names the hand-written evaluation.
    let load = |name: &str| -> Box<dyn Evaluate> {
        if name == "heuristic" {
            Box::new(Heuristic)
        } else {
            Box::new(load_weights(name))
        }
    };
    let evals = [load(a), load(b)];
    let openings: u64 = openings
        .parse()
        .unwrap_or_else(|_| fail("openings: a number"));
    let depth = flag(args, "--depth", 4);
    let mut rng = seeded(99);
    let mut solver = Solver::new(20);
    let (mut wins, mut losses, mut draws, mut discs) = (0, 0, 0, 0);
    for _ in 0..openings {
        // A random 8-ply opening, both colours.
        let (mut mover, mut opponent) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        for _ in 0..8 {
            let legal = legal_moves(mover, opponent);
            if legal == 0 {
                (mover, opponent) = (opponent, mover);
                continue;
            }
            let mut m = legal;
            for _ in 0..rand::Rng::random_range(&mut rng, 0..legal.count_ones()) {
                m &= m - 1;
            }
            let square = m.trailing_zeros() as usize;
            let f = flips(mover, opponent, square);
            (mover, opponent) = (opponent & !f, mover | f | (1u64 << square));
        }
        let (ea, eb) = (evals[0].as_ref(), evals[1].as_ref());
        let first = duel([ea, eb], (mover, opponent), depth, &mut solver);
        let second = -duel([eb, ea], (mover, opponent), depth, &mut solver);
        for d in [first, second] {
            match d.signum() {
                1 => wins += 1,
                -1 => losses += 1,
                _ => draws += 1,
            }
            discs += d;
        }
    }
    println!(
        "compare: {a} against {b}: {wins} wins, {losses} losses, {draws} draws, discs {discs:+} ({:+.2} a game), depth {depth}",
        f64::from(discs) / (2 * openings).max(1) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("selfplay") => selfplay(&args[1..]),
        Some("fit") => fit_command(&args[1..]),
        Some("relabel") => relabel_command(&args[1..]),
        Some("compare") => compare(&args[1..]),
        Some("zero") => {
            let Some(out) = args.get(1) else {
                fail("zero <out.bin>");
            };
            let bytes = CanonicalWeights::zero(phase_of()).to_bytes();
            std::fs::write(out, bytes).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
        }
        _ => fail("selfplay | fit | relabel | compare | zero (see the file's opening comment)"),
    }
}
