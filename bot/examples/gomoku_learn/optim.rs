//! What the two fits share: the parameters' layout (per class, role and shape), the held-out
//! tenth chosen by opening, the golden-section search of a scale, the Adam step with its
//! pull towards the prior, and the weights file's header.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use kibitz_bot::engine::gomoku::learned::{Class, SHAPES};

use crate::games::Line;

/// Parameters: per class, per role, per shape.
pub const PARAMS: usize = 4 * 2 * SHAPES;

/// The header of a weights file the fits write.
pub const HEADER: &str =
    "# The Gomoku evaluation's learned weights (bot/src/engine/gomoku/learned.rs reads them):\n\
     # per class and role, the worth of each of the 715 point shapes in quarter centi-stones,\n\
     # and its move-order scores. Written by `gomoku_learn fit` and `fit-order`\n\
     # (bot/examples/gomoku_learn); docs/benchmarks.md has the run.\n";

/// The parameter of `shape` for a colour of `class` in `role`.
pub fn index(class: Class, role: usize, shape: u16) -> u16 {
    ((class as usize * 2 + role) * SHAPES + usize::from(shape)) as u16
}

/// Whether a position is in the held-out tenth: by its first six moves, so that the
/// positions of one game fall on the same side.
pub fn held_out(line: &Line) -> bool {
    let mut h = DefaultHasher::new();
    line.moves
        .iter()
        .take(6)
        .for_each(|c| (c.col, c.row).hash(&mut h));
    h.finish().is_multiple_of(10)
}

/// The `x` in `lo..hi` where `error` is least (a golden-section search).
pub fn golden_section(mut lo: f64, mut hi: f64, error: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..50 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam's running moments, one step a full batch.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Adam {
    pub fn new() -> Adam {
        Adam {
            m: vec![0.0; PARAMS],
            v: vec![0.0; PARAMS],
            steps: 0,
        }
    }

    /// Moves `w` down `grad`, leaving the `frozen` weights as they are.
    pub fn step(&mut self, w: &mut [f64], grad: &[f64], frozen: &[bool], rate: f64) {
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        self.steps += 1;
        for k in (0..PARAMS).filter(|&k| !frozen[k]) {
            let g = grad[k];
            self.m[k] = b1 * self.m[k] + (1.0 - b1) * g;
            self.v[k] = b2 * self.v[k] + (1.0 - b2) * g * g;
            let mh = self.m[k] / (1.0 - b1.powi(self.steps));
            let vh = self.v[k] / (1.0 - b2.powi(self.steps));
            w[k] -= rate * mh / (vh.sqrt() + eps);
        }
    }
}

/// Adds to `grad` the gradient of the pull `pull · (w − anchor)² / scale²` of every weight
/// towards its prior.
pub fn add_pull(grad: &mut [f64], w: &[f64], anchor: &[f64], pull: f64, scale: f64) {
    for ((g, wk), a) in grad.iter_mut().zip(w).zip(anchor) {
        *g += 2.0 * pull * (wk - a) / scale / scale;
    }
}
