//! Fits the learned move order ([`kibitz_bot::engine::gomoku::learned`]'s attack and defence
//! scores by point shape) to the labelling brain's chosen moves: over a position's candidate
//! points, `softmax(score / temperature)` is moved to put the brain's move first, by
//! full-batch Adam on the cross-entropy, each score held near the hand-set values by an L2
//! pull. The temperature is fitted first to the hand-set values and then held, so that the
//! learned scores keep their scale beside the search's history counts.

use game_core::Cell;
use kibitz_bot::engine::gomoku::board::{color_of, Board};
use kibitz_bot::engine::gomoku::learned::{order_prior, shape_of, Class, Learned, SHAPES};

use crate::args::{fail, flag};
use crate::games::{lines_of, read_line};
use crate::optim::{add_pull, golden_section, held_out, index, Adam, HEADER, PARAMS};

/// A position: each candidate's attack and defence parameter, and which candidate the brain
/// chose.
struct Choice {
    candidates: Vec<(u16, u16)>,
    chosen: usize,
    held: bool,
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
    Some((
        Choice {
            candidates,
            chosen: chosen?,
            held: held_out(&line),
        },
        classes,
    ))
}

/// Each candidate's score over the temperature, the highest, and the softmax's sum
/// `Σ exp(score − highest)`.
fn scored(w: &[f64], t: f64, c: &Choice) -> (Vec<f64>, f64, f64) {
    let scores: Vec<f64> = c
        .candidates
        .iter()
        .map(|&(a, d)| (w[usize::from(a)] + w[usize::from(d)]) / t)
        .collect();
    let max = scores.iter().copied().fold(f64::MIN, f64::max);
    let z: f64 = scores.iter().map(|s| (s - max).exp()).sum();
    (scores, max, z)
}

/// Cross-entropy of the brain's moves and how often the best-scored candidate is the brain's.
fn errors(w: &[f64], t: f64, choices: &[Choice], which: bool) -> (f64, f64) {
    let (mut ce, mut top, mut n) = (0.0, 0.0, 0.0);
    for c in choices.iter().filter(|c| c.held == which) {
        let (scores, max, z) = scored(w, t, c);
        ce -= scores[c.chosen] - max - z.ln();
        top += f64::from(u8::from(scores[c.chosen] >= max));
        n += 1.0;
    }
    (ce / n, top / n)
}

fn fit_temperature(w: &[f64], choices: &[Choice]) -> f64 {
    golden_section(1.0, 2000.0, |t| errors(w, t, choices, false).0)
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
    let mut text = String::from(HEADER);
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
    let mut adam = Adam::new();
    let frozen = vec![false; PARAMS];
    let train: Vec<&Choice> = choices.iter().filter(|c| !c.held).collect();
    let n = train.len() as f64;
    for it in 1..=iterations {
        let mut grad = vec![0.0; PARAMS];
        for c in &train {
            let (scores, max, z) = scored(&w, t, c);
            for (k, &(a, d)) in c.candidates.iter().enumerate() {
                let p = (scores[k] - max).exp() / z;
                let g = (p - f64::from(u8::from(k == c.chosen))) / t / n;
                grad[usize::from(a)] += g;
                grad[usize::from(d)] += g;
            }
        }
        add_pull(&mut grad, &w, anchor, pull, t);
        adam.step(&mut w, &grad, &frozen, rate);
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
