//! Fitting the evaluation's weights to labelled positions ([`super::selfplay::Sample`]):
//! least squares on the final disc difference, one phase at a time.
//!
//! The model of a phase is linear: the value of a position is the sum of the weights of
//! its 46 pattern instances (one weight per class of symmetric readings) and of the
//! whole-board terms times their values. It is fitted as ridge least squares (`shrink`: the
//! penalty, as a number of virtual positions pulling each weight to 0, which tames the
//! weights of rarely seen configurations) by conjugate gradients, preconditioned by how
//! often each weight is used. Positions are assigned to a phase by their number of empties, and a
//! phase also learns from the positions a few empties either side (`overlap`), so that
//! neighbouring phases agree. A slice of the games is held out: training stops where its
//! error is lowest, and its error is reported.

use super::eval::{scalar_features, Evaluate};
use super::midgame;
use super::patterns::{instance_indices, INSTANCES, PATTERNS};
use super::selfplay::Sample;
use super::weights::{class_of_index, CanonicalWeights, EMPTIES, SCALARS, UNIT};

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub phase_of: [u8; EMPTIES],
    /// A phase also trains on positions this many empties outside its range.
    pub overlap: u32,
    /// Conjugate-gradient iterations at most.
    pub iterations: u32,
    /// The ridge penalty, in virtual positions per weight.
    pub shrink: f32,
    /// Weights seen fewer times than this in the training positions are left at 0.
    pub min_count: u32,
    /// One game in this many (by position blocks of 60) is held out for validation.
    pub holdout: usize,
}

/// Replaces the label of every inexact sample with more than `above` empties by a blend of
/// its game's result and the value of a `depth`-ply search with `eval`: `search_share` of
/// the search, the rest of the result. A game's result says little about a position far
/// from its end (the moves between decide it); a search with an evaluation fitted closer to
/// the end carries that knowledge back a few plies at a time, pass after pass.
pub fn relabel<E: Evaluate + ?Sized>(
    samples: &mut [Sample],
    eval: &E,
    depth: u32,
    above: u32,
    search_share: f32,
) -> u64 {
    let mut nodes = 0;
    for s in samples.iter_mut() {
        if s.exact || s.empties() <= above {
            continue;
        }
        let value = midgame::search(
            eval,
            s.mover,
            s.opponent,
            depth,
            -midgame::INFINITE,
            midgame::INFINITE,
            &mut nodes,
        ) as f32
            / UNIT as f32;
        let blended = search_share * value + (1.0 - search_share) * f32::from(s.score);
        s.score = blended.round().clamp(-64.0, 64.0) as i8;
    }
    nodes
}

/// What a phase's fit achieved.
#[derive(Clone, Debug)]
pub struct PhaseReport {
    pub phase: usize,
    /// The empties the phase is used for.
    pub empties: (u32, u32),
    pub train_positions: usize,
    pub validation_positions: usize,
    /// Root mean squared error in discs, on the held-out positions, before (all weights 0:
    /// the mean-free label) and after.
    pub validation_rmse: (f64, f64),
    pub train_rmse: f64,
    pub iterations_used: u32,
    /// Pattern weights different from 0.
    pub nonzero: usize,
}

/// A position as the fit sees it.
struct Row {
    /// Global class numbers (patterns one after the other).
    classes: [u32; INSTANCES],
    scalars: [f32; SCALARS],
    target: f32,
}

/// Where each pattern's classes start in the global numbering, and the total.
fn class_offsets() -> (Vec<usize>, usize) {
    let counts = super::weights::canonical_counts();
    let mut offsets = Vec::new();
    let mut total = 0;
    for n in counts {
        offsets.push(total);
        total += n;
    }
    (offsets, total)
}

fn rows_of(samples: &[&Sample], class_of: &[Vec<u32>], offsets: &[usize]) -> Vec<Row> {
    let mut instance_pattern = [0usize; INSTANCES];
    let mut n = 0;
    for (p, pattern) in PATTERNS.iter().enumerate() {
        for _ in pattern.instances {
            instance_pattern[n] = p;
            n += 1;
        }
    }
    samples
        .iter()
        .map(|s| {
            let indices = instance_indices(s.mover, s.opponent);
            let mut classes = [0u32; INSTANCES];
            for (i, (&index, &p)) in indices.iter().zip(&instance_pattern).enumerate() {
                classes[i] = (offsets[p] + class_of[p][index as usize] as usize) as u32;
            }
            let f = scalar_features(s.mover, s.opponent);
            Row {
                classes,
                scalars: f.map(|v| v as f32),
                target: f32::from(s.score),
            }
        })
        .collect()
}

fn predict(row: &Row, weights: &[f32], scalars: &[f32; SCALARS]) -> f32 {
    let mut sum = 0.0;
    for &c in &row.classes {
        sum += weights[c as usize];
    }
    for (w, f) in scalars.iter().zip(&row.scalars) {
        sum += w * f;
    }
    sum
}

fn rmse(rows: &[Row], weights: &[f32], scalars: &[f32; SCALARS]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let sum: f64 = rows
        .iter()
        .map(|r| f64::from(r.target - predict(r, weights, scalars)).powi(2))
        .sum();
    (sum / rows.len() as f64).sqrt()
}

/// Fits every phase; `progress` sees each phase's report as it is done.
pub fn fit(
    samples: &[Sample],
    config: &FitConfig,
    mut progress: impl FnMut(&PhaseReport),
) -> (CanonicalWeights, Vec<PhaseReport>) {
    let class_of = class_of_index();
    let (offsets, total_classes) = class_offsets();
    let mut result = CanonicalWeights::zero(config.phase_of);
    let mut reports = Vec::new();
    for phase in 0..result.phases() {
        let empties: Vec<u32> = (0..EMPTIES as u32)
            .filter(|&e| usize::from(config.phase_of[e as usize]) == phase)
            .collect();
        let (Some(&low), Some(&high)) = (empties.first(), empties.last()) else {
            continue;
        };
        let lo = low.saturating_sub(config.overlap);
        let hi = high + config.overlap;
        let (mut train, mut validation) = (Vec::new(), Vec::new());
        for (i, s) in samples.iter().enumerate() {
            let e = s.empties();
            if e < lo || e > hi {
                continue;
            }
            if (i / 60) % config.holdout.max(2) == 0 {
                // Validation counts only the phase's own empties.
                if e >= low && e <= high {
                    validation.push(s);
                }
            } else {
                train.push(s);
            }
        }
        let train = rows_of(&train, &class_of, &offsets);
        let validation = rows_of(&validation, &class_of, &offsets);
        let (weights, scalars, mut report) = fit_phase(&train, &validation, total_classes, config);
        report.phase = phase;
        report.empties = (low, high);
        // Quantise; weights seen too rarely stay 0.
        let mut counts = vec![0u32; total_classes];
        for r in &train {
            for &c in &r.classes {
                counts[c as usize] += 1;
            }
        }
        let quantise = |w: f32| (w * UNIT as f32).round().clamp(-32_000.0, 32_000.0) as i16;
        for (p, table) in result.patterns[phase].iter_mut().enumerate() {
            for (class, w) in table.iter_mut().enumerate() {
                let c = offsets[p] + class;
                if counts[c] >= config.min_count {
                    *w = quantise(weights[c]);
                }
            }
        }
        result.scalars[phase] = scalars.map(quantise);
        report.nonzero = result.patterns[phase]
            .iter()
            .map(|t| t.iter().filter(|&&w| w != 0).count())
            .sum();
        progress(&report);
        reports.push(report);
    }
    (result, reports)
}

/// `X v` for the rows: each row's prediction with the weights `v`.
fn apply(rows: &[Row], v: &[f32], scalar_at: usize, out: &mut Vec<f32>) {
    out.clear();
    out.extend(rows.iter().map(|r| {
        let mut sum = 0.0;
        for &c in &r.classes {
            sum += v[c as usize];
        }
        for (j, f) in r.scalars.iter().enumerate() {
            sum += v[scalar_at + j] * f;
        }
        sum
    }));
}

/// `X^T u` added into `out`.
fn apply_transposed(rows: &[Row], u: &[f32], scalar_at: usize, out: &mut [f32]) {
    for (r, &x) in rows.iter().zip(u) {
        for &c in &r.classes {
            out[c as usize] += x;
        }
        for (j, f) in r.scalars.iter().enumerate() {
            out[scalar_at + j] += x * f;
        }
    }
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

/// Ridge least squares on one phase by conjugate gradients, preconditioned by the diagonal
/// (how often each weight is used); keeps the iterate with the lowest held-out error.
fn fit_phase(
    train: &[Row],
    validation: &[Row],
    total_classes: usize,
    config: &FitConfig,
) -> (Vec<f32>, [f32; SCALARS], PhaseReport) {
    let n = total_classes + SCALARS;
    let scalar_at = total_classes;
    // The ridge penalty: `shrink` virtual positions per weight, pulling it to 0.
    let ridge = config.shrink;
    let mut diagonal = vec![ridge; n];
    for r in train {
        for &c in &r.classes {
            diagonal[c as usize] += 1.0;
        }
        for (j, f) in r.scalars.iter().enumerate() {
            diagonal[scalar_at + j] += f * f;
        }
    }
    let split = |x: &[f32]| {
        let mut scalars = [0f32; SCALARS];
        scalars.copy_from_slice(&x[scalar_at..]);
        (x[..scalar_at].to_vec(), scalars)
    };
    let targets: Vec<f32> = train.iter().map(|r| r.target).collect();
    let mut x = vec![0f32; n];
    let mut residual = vec![0f32; n];
    apply_transposed(train, &targets, scalar_at, &mut residual);
    let mut z: Vec<f32> = residual.iter().zip(&diagonal).map(|(r, d)| r / d).collect();
    let mut direction = z.clone();
    let mut rz = dot(&residual, &z);
    let mut product = Vec::new();
    let mut normal = vec![0f32; n];
    let (zeros, zero_scalars) = split(&x);
    let before = rmse(validation, &zeros, &zero_scalars);
    let mut best = (f64::INFINITY, x.clone(), 0);
    for iteration in 1..=config.iterations {
        // normal = (X^T X + ridge) direction
        apply(train, &direction, scalar_at, &mut product);
        normal.fill(0.0);
        apply_transposed(train, &product, scalar_at, &mut normal);
        for (v, d) in normal.iter_mut().zip(&direction) {
            *v += ridge * d;
        }
        let curvature = dot(&direction, &normal);
        if curvature <= 0.0 {
            break;
        }
        let step = (rz / curvature) as f32;
        for ((xi, d), (ri, ni)) in x
            .iter_mut()
            .zip(&direction)
            .zip(residual.iter_mut().zip(&normal))
        {
            *xi += step * d;
            *ri -= step * ni;
        }
        for ((zi, ri), d) in z.iter_mut().zip(&residual).zip(&diagonal) {
            *zi = ri / d;
        }
        let rz_next = dot(&residual, &z);
        let beta = (rz_next / rz) as f32;
        rz = rz_next;
        for (d, zi) in direction.iter_mut().zip(&z) {
            *d = zi + beta * *d;
        }
        let (weights, scalars) = split(&x);
        let error = if validation.is_empty() {
            rmse(train, &weights, &scalars)
        } else {
            rmse(validation, &weights, &scalars)
        };
        if error < best.0 {
            best = (error, x.clone(), iteration);
        }
    }
    let (error, x, iterations_used) = best;
    let (weights, scalars) = split(&x);
    let train_rmse = rmse(train, &weights, &scalars);
    let report = PhaseReport {
        phase: 0,
        empties: (0, 0),
        train_positions: train.len(),
        validation_positions: validation.len(),
        validation_rmse: (before, error),
        train_rmse,
        iterations_used,
        nonzero: 0,
    };
    (weights, scalars, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::othello::eval::{Evaluate, Evaluator};
    use crate::engine::othello::test_support::{random_position, Rng};

    /// Positions labelled by a known linear rule (corner discs and mobility) are fitted
    /// closely, and the fitted evaluation ranks the positions as the rule does.
    #[test]
    fn learns_a_known_rule() {
        let mut rng = Rng(0x7ea);
        let rule = |m: u64, o: u64| {
            let corners = (m & 0x8100_0000_0000_0081).count_ones() as i32
                - (o & 0x8100_0000_0000_0081).count_ones() as i32;
            let f = scalar_features(m, o);
            8 * corners + (f[1] - f[2]) / 2
        };
        let samples: Vec<Sample> = (0..6_000)
            .map(|i| {
                let (mover, opponent) = random_position(&mut rng, 20 + (i % 12) as u32);
                Sample {
                    mover,
                    opponent,
                    score: rule(mover, opponent) as i8,
                    exact: false,
                }
            })
            .collect();
        let config = FitConfig {
            phase_of: [0; EMPTIES],
            overlap: 0,
            iterations: 40,
            shrink: 50.0,
            min_count: 1,
            holdout: 10,
        };
        let (weights, reports) = fit(&samples, &config, |_| {});
        let report = &reports[0];
        assert!(
            report.validation_rmse.1 < report.validation_rmse.0 / 1.5,
            "{report:?}"
        );
        let evaluator = Evaluator::new(&weights);
        let mut agree = 0;
        for pair in samples.chunks_exact(2).take(500) {
            let (a, b) = (&pair[0], &pair[1]);
            if rule(a.mover, a.opponent) == rule(b.mover, b.opponent) {
                agree += 1;
                continue;
            }
            let ours =
                evaluator.evaluate(a.mover, a.opponent) > evaluator.evaluate(b.mover, b.opponent);
            if ours == (rule(a.mover, a.opponent) > rule(b.mover, b.opponent)) {
                agree += 1;
            }
        }
        assert!(agree > 450, "{agree} of 500 pairs ordered as the rule");
    }
}
