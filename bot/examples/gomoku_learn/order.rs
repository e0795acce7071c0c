//! Fits the learned move order ([`kibitz_bot::engine::gomoku::learned`]'s attack and defence
//! scores by point shape) to the labelling brain's chosen moves: over a position's candidate
//! points, `softmax(score / temperature)` is moved to put the brain's move first, by
//! full-batch Adam on the cross-entropy, each score held near the hand-set values by an L2
//! pull. The temperature is fitted first to the hand-set values and then held, so that the
//! learned scores keep their scale beside the search's history counts.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use game_core::Cell;
use kibitz_bot::engine::gomoku::board::{color_of, Board};
use kibitz_bot::engine::gomoku::learned::{order_prior, shape_of, Class, Learned, SHAPES};

use crate::args::{fail, flag};
use crate::games::{lines_of, read_line};

const PARAMS: usize = 4 * 2 * SHAPES;

/// A position: each candidate's attack and defence parameter, and which candidate the brain
/// chose.
struct Choice {
    candidates: Vec<(u16, u16)>,
    chosen: usize,
    held: bool,
}

fn index(class: Class, role: usize, shape: u16) -> u16 {
    ((class as usize * 2 + role) * SHAPES + usize::from(shape)) as u16
}

fn choice(words: &[&str]) -> Option<(Choice, [Class; 2])> {
    // `<rule> <result> <target> <best> <moves>…`
    let best: Cell = words.get(3)?.parse().ok()?;
    let rest = words[..2].iter().chain(&words[4..]).copied();
    let line = read_line(rest);
    let board = Board::from_position(&line.position());
    let me = board.turn();
    let classes = [me, 1 - me].map(|v| Class::of(board.rule(), color_of(v)));
    let mut candidates = Vec::new();
    let mut chosen = None;
    for p in board.candidates().iter() {
        if me == 0 && board.is_forbidden(p) {
            continue;
        }
        if board.cell(p) == best {
            chosen = Some(candidates.len());
        }
        candidates.push((
            index(classes[0], 0, shape_of(board.patterns(p, me))),
            index(classes[1], 1, shape_of(board.patterns(p, 1 - me))),
        ));
    }
    let mut h = DefaultHasher::new();
    line.moves
        .iter()
        .take(6)
        .for_each(|c| (c.col, c.row).hash(&mut h));
    Some((
        Choice {
            candidates,
            chosen: chosen?,
            held: h.finish().is_multiple_of(10),
        },
        classes,
    ))
}

/// Cross-entropy of the brain's moves and how often the best-scored candidate is the brain's.
fn errors(w: &[f64], t: f64, choices: &[Choice], which: bool) -> (f64, f64) {
    let (mut ce, mut top, mut n) = (0.0, 0.0, 0.0);
    for c in choices.iter().filter(|c| c.held == which) {
        let scores: Vec<f64> = c
            .candidates
            .iter()
            .map(|&(a, d)| (w[usize::from(a)] + w[usize::from(d)]) / t)
            .collect();
        let max = scores.iter().copied().fold(f64::MIN, f64::max);
        let z: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        ce -= scores[c.chosen] - max - z.ln();
        top += f64::from(u8::from(scores[c.chosen] >= max));
        n += 1.0;
    }
    (ce / n, top / n)
}

fn fit_temperature(w: &[f64], choices: &[Choice]) -> f64 {
    let (mut lo, mut hi) = (1.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if errors(w, a, choices, false).0 < errors(w, b, choices, false).0 {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// `fit-order <labelled.txt>... [--out eval_weights.txt] [--iterations 300] [--pull 0.001]
/// [--rate 2]`: writes the evaluation tables as shipped and the fitted move order.
pub fn fit_order(args: &[String]) {
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    if files.is_empty() {
        fail("fit-order <labelled.txt>... [--out eval_weights.txt] [--iterations 300] [--pull 0.001] [--rate 2]");
    }
    let out: String = flag(args, "--out", String::new());
    let iterations: u32 = flag(args, "--iterations", 300);
    let pull: f64 = flag(args, "--pull", 0.001);
    let rate: f64 = flag(args, "--rate", 2.0);
    let mut choices = Vec::new();
    let mut used = [false; 4];
    for f in &files {
        for text in lines_of(f) {
            let words: Vec<&str> = text.split_whitespace().collect();
            if let Some((c, classes)) = choice(&words) {
                classes.iter().for_each(|&k| used[k as usize] = true);
                choices.push(c);
            }
        }
    }
    let held = choices.iter().filter(|c| c.held).count();
    println!(
        "{} positions: {} to fit, {held} held out",
        choices.len(),
        choices.len() - held
    );
    let current = Learned::shared();
    let (mut start, mut anchor) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    for class in Class::ALL {
        let (p, t) = (order_prior(class), current.class_orders(class));
        for role in 0..2 {
            for shape in 0..SHAPES {
                let i = usize::from(index(class, role, shape as u16));
                anchor[i] = p[role][shape];
                start[i] = f64::from(t[role][shape]);
            }
        }
    }
    let t = fit_temperature(&anchor, &choices);
    let report = |name: &str, w: &[f64]| {
        let (ce, top) = errors(w, t, &choices, false);
        let (hce, htop) = errors(w, t, &choices, true);
        println!(
            "{name}: fitted cross-entropy {ce:.4}, first {:.1}%; held out {hce:.4}, first {:.1}%",
            top * 100.0,
            htop * 100.0
        );
    };
    println!("temperature {t:.1}");
    report("hand-set", &anchor);
    report("shipped", &start);
    let w = adam(start, &anchor, t, &choices, iterations, pull, rate);
    report("fitted", &w);
    if out.is_empty() {
        return;
    }
    let mut text = String::from(
        "# The Gomoku evaluation's learned weights (bot/src/engine/gomoku/learned.rs reads them):\n\
         # per class and role, the worth of each of the 715 point shapes in quarter centi-stones,\n\
         # and its move-order scores. Written by `gomoku_learn fit` and `fit-order`\n\
         # (bot/examples/gomoku_learn); docs/benchmarks.md has the run.\n",
    );
    for class in Class::ALL {
        let orders = if used[class as usize] {
            let mut o = [[0i16; SHAPES]; 2];
            for (role, row) in o.iter_mut().enumerate() {
                for (shape, slot) in row.iter_mut().enumerate() {
                    let v = w[usize::from(index(class, role, shape as u16))];
                    *slot = v.round().clamp(-32_000.0, 32_000.0) as i16;
                }
            }
            o
        } else {
            current.class_orders(class)
        };
        text.push_str(&Learned::write_class(
            class,
            &current.class_tables(class),
            false,
        ));
        text.push_str(&Learned::write_class(class, &orders, true));
    }
    std::fs::write(&out, text).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    println!("wrote {out}");
}

fn adam(
    mut w: Vec<f64>,
    anchor: &[f64],
    t: f64,
    choices: &[Choice],
    iterations: u32,
    pull: f64,
    rate: f64,
) -> Vec<f64> {
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let train: Vec<&Choice> = choices.iter().filter(|c| !c.held).collect();
    let n = train.len() as f64;
    for it in 1..=iterations {
        let mut grad = vec![0.0; PARAMS];
        for c in &train {
            let scores: Vec<f64> = c
                .candidates
                .iter()
                .map(|&(a, d)| (w[usize::from(a)] + w[usize::from(d)]) / t)
                .collect();
            let max = scores.iter().copied().fold(f64::MIN, f64::max);
            let z: f64 = scores.iter().map(|s| (s - max).exp()).sum();
            for (k, &(a, d)) in c.candidates.iter().enumerate() {
                let p = (scores[k] - max).exp() / z;
                let g = (p - f64::from(u8::from(k == c.chosen))) / t / n;
                grad[usize::from(a)] += g;
                grad[usize::from(d)] += g;
            }
        }
        for k in 0..PARAMS {
            let g = grad[k] + 2.0 * pull * (w[k] - anchor[k]) / t / t;
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(it as i32));
            let vh = v[k] / (1.0 - b2.powi(it as i32));
            w[k] -= rate * mh / (vh.sqrt() + eps);
        }
        if it % 50 == 0 {
            let (ce, top) = errors(&w, t, choices, true);
            eprintln!(
                "iteration {it}: held out {ce:.4}, first {:.1}%",
                top * 100.0
            );
        }
    }
    w
}
