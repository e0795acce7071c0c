//! Fits the learned evaluation's tables ([`kibitz_bot::engine::gomoku::learned`]) to labelled
//! positions: the evaluation, `Σ mover worths − Σ waiting worths` over the empty points'
//! shapes, is moved so that `sigmoid(eval / scale)` predicts each position's target (the
//! labelling brain's value, mixed with the game's result by `--result-share`), by full-batch
//! Adam on the cross-entropy, every weight held near its prior by an L2 pull (`--pull`), so
//! that a shape the data rarely shows keeps the worth of its patterns.
//!
//! The scale is fitted first to the prior and then held, so the evaluation keeps its
//! centi-stone units and the search's margins keep their meaning. One position in ten, by
//! its opening, is held out.

use kibitz_bot::engine::gomoku::board::{color_of, Board};
use kibitz_bot::engine::gomoku::learned::{prior, shape_of, shapes, Class, Learned, SHAPES, UNIT};
use kibitz_bot::engine::gomoku::pattern::Pattern;

use crate::args::{fail, flag};
use crate::games::{lines_of, read_line};
use crate::optim::{add_pull, golden_section, held_out, index, Adam, HEADER, PARAMS};
use crate::selfplay::quiet;

struct Sample {
    /// Parameter indices with their counts: the mover's (+) and the waiting colour's (−).
    plus: Vec<(u16, u16)>,
    minus: Vec<(u16, u16)>,
    target: f64,
    held: bool,
}

fn counted(mut v: Vec<u16>) -> Vec<(u16, u16)> {
    v.sort_unstable();
    let mut out: Vec<(u16, u16)> = Vec::new();
    for i in v {
        match out.last_mut() {
            Some((j, n)) if *j == i => *n += 1,
            _ => out.push((i, 1)),
        }
    }
    out
}

fn sample(words: &[&str], result_share: f64, mates: bool) -> Option<(Sample, Vec<Class>)> {
    // `<rule> <result> <target> <best> <moves>…`
    let target: f64 = words.get(2)?.parse().ok()?;
    // A proven win or loss is the threat searches' to find, not the evaluation's.
    if !mates && (target == 0.0 || target == 1.0) {
        return None;
    }
    let rest = std::iter::once(words[0])
        .chain(std::iter::once(words[1]))
        .chain(words[4..].iter().copied());
    let line = read_line(rest);
    let board = Board::from_position(&line.position());
    if !quiet(&board) {
        return None;
    }
    let me = board.turn();
    let rule = board.rule();
    let classes = [me, 1 - me].map(|v| Class::of(rule, color_of(v)));
    let (mut plus, mut minus) = (Vec::new(), Vec::new());
    for &p in board.points() {
        if board.is_empty(p) {
            plus.push(index(classes[0], 0, shape_of(board.patterns(p, me))));
            minus.push(index(classes[1], 1, shape_of(board.patterns(p, 1 - me))));
        }
    }
    Some((
        Sample {
            plus: counted(plus),
            minus: counted(minus),
            target: result_share * line.result + (1.0 - result_share) * target,
            held: held_out(&line),
        },
        classes.to_vec(),
    ))
}

fn eval(w: &[f64], s: &Sample) -> f64 {
    let plus: f64 = s
        .plus
        .iter()
        .map(|&(i, n)| w[usize::from(i)] * f64::from(n))
        .sum();
    let minus: f64 = s
        .minus
        .iter()
        .map(|&(i, n)| w[usize::from(i)] * f64::from(n))
        .sum();
    plus - minus
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy and mean squared error of the samples chosen by `which`.
fn errors(w: &[f64], scale: f64, samples: &[Sample], which: bool) -> (f64, f64) {
    let (mut ce, mut se, mut n) = (0.0, 0.0, 0.0);
    for s in samples.iter().filter(|s| s.held == which) {
        let p = sigmoid(eval(w, s) / scale).clamp(1e-9, 1.0 - 1e-9);
        ce -= s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln();
        se += (s.target - p).powi(2);
        n += 1.0;
    }
    (ce / n, se / n)
}

fn fit_scale(w: &[f64], samples: &[Sample]) -> f64 {
    golden_section(10.0, 5000.0, |scale| errors(w, scale, samples, false).0)
}

/// `fit <labelled.txt>... [--out eval_weights.txt] [--iterations 400] [--pull 0.0002]
/// [--result-share 0] [--rate 2] [--mates]`: positions the brain proved won or lost are
/// left out unless `--mates`.
pub fn fit(args: &[String]) {
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    if files.is_empty() {
        fail("fit <labelled.txt>... [--out eval_weights.txt] [--iterations 400] [--pull 0.0002] [--result-share 0] [--rate 2]");
    }
    let out: String = flag(args, "--out", String::new());
    let iterations: u32 = flag(args, "--iterations", 400);
    let pull: f64 = flag(args, "--pull", 0.0002);
    let result_share: f64 = flag(args, "--result-share", 0.0);
    let rate: f64 = flag(args, "--rate", 2.0);
    let mates = args.iter().any(|a| a == "--mates");
    let mut samples = Vec::new();
    let mut used = [false; 4];
    for f in &files {
        for text in lines_of(f) {
            let words: Vec<&str> = text.split_whitespace().collect();
            if let Some((s, classes)) = sample(&words, result_share, mates) {
                for c in classes {
                    used[c as usize] = true;
                }
                samples.push(s);
            }
        }
    }
    let held = samples.iter().filter(|s| s.held).count();
    println!(
        "{} quiet positions: {} to fit, {held} held out",
        samples.len(),
        samples.len() - held
    );
    let current = Learned::shared();
    let mut start = vec![0.0; PARAMS];
    let mut anchor = vec![0.0; PARAMS];
    for class in Class::ALL {
        let p = prior(class);
        let t = current.class_tables(class);
        for role in 0..2 {
            for shape in 0..SHAPES {
                let i = usize::from(index(class, role, shape as u16));
                anchor[i] = p[role][shape];
                start[i] = f64::from(t[role][shape]) / f64::from(UNIT);
            }
        }
    }
    let scale = fit_scale(&anchor, &samples);
    let report = |name: &str, w: &[f64]| {
        let (ce, se) = errors(w, scale, &samples, false);
        let (hce, hse) = errors(w, scale, &samples, true);
        let spread =
            (samples.iter().map(|s| eval(w, s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt();
        println!("{name}: fitted cross-entropy {ce:.5} (squared {se:.5}), held out {hce:.5} (squared {hse:.5}); eval spread {spread:.0}");
    };
    println!("scale {scale:.1}");
    report("prior", &anchor);
    report("shipped", &start);
    // Shapes whose strongest line is weaker than an open two stay as they start: there are
    // a hundred of them on every board, and a worth learnt for them is a bonus for the side
    // to move that grows with the empty board, which the search's odd and even plies see
    // as a swing.
    let frozen: Vec<bool> = (0..PARAMS)
        .map(|i| shapes()[i % SHAPES][0] < Pattern::Flex2)
        .collect();
    let fit = Fit {
        anchor,
        frozen,
        scale,
        iterations,
        pull,
        rate,
    };
    let w = adam(start, &samples, &fit);
    report("fitted", &w);
    if out.is_empty() {
        return;
    }
    let mut text = String::from(HEADER);
    for class in Class::ALL {
        let tables = if used[class as usize] {
            let mut t = [[0i16; SHAPES]; 2];
            for (role, row) in t.iter_mut().enumerate() {
                for (shape, slot) in row.iter_mut().enumerate() {
                    let v = w[usize::from(index(class, role, shape as u16))] * f64::from(UNIT);
                    *slot = v.round().clamp(-32_000.0, 32_000.0) as i16;
                }
            }
            t
        } else {
            current.class_tables(class)
        };
        text.push_str(&Learned::write_class(class, &tables, false));
        text.push_str(&Learned::write_class(
            class,
            &current.class_orders(class),
            true,
        ));
    }
    std::fs::write(&out, text).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    println!("wrote {out}");
}

/// How a fit runs: each weight is pulled towards its `anchor` (unless `frozen`), the
/// evaluation read through `scale`.
struct Fit {
    anchor: Vec<f64>,
    frozen: Vec<bool>,
    scale: f64,
    iterations: u32,
    pull: f64,
    rate: f64,
}

/// Full-batch Adam on the cross-entropy plus `pull · (w − anchor)²` per weight.
fn adam(mut w: Vec<f64>, samples: &[Sample], fit: &Fit) -> Vec<f64> {
    let Fit {
        anchor,
        frozen,
        scale,
        iterations,
        pull,
        rate,
    } = fit;
    let (scale, pull, rate) = (*scale, *pull, *rate);
    let mut adam = Adam::new();
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held).collect();
    let n = train.len() as f64;
    for it in 1..=*iterations {
        let mut grad = vec![0.0; PARAMS];
        for s in &train {
            let p = sigmoid(eval(&w, s) / scale);
            let d = (p - s.target) / scale / n;
            for &(i, c) in &s.plus {
                grad[usize::from(i)] += d * f64::from(c);
            }
            for &(i, c) in &s.minus {
                grad[usize::from(i)] -= d * f64::from(c);
            }
        }
        add_pull(&mut grad, &w, anchor, pull, scale);
        adam.step(&mut w, &grad, frozen, rate);
        if it % 50 == 0 {
            let (ce, _) = errors(&w, scale, samples, false);
            let (hce, _) = errors(&w, scale, samples, true);
            eprintln!("iteration {it}: fitted {ce:.5}, held out {hce:.5}");
        }
    }
    w
}
