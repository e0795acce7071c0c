//! Criterion benchmark of the Othello bitboard move generator: perft(10) from the start.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::othello::Othello;

/// Leaves at depth 10 from the start, passes counted as moves, finished games as leaves.
const PERFT_10: u64 = 24_571_284;

fn perft(c: &mut Criterion) {
    let start = Othello::new();
    // A wrong count would make the timing meaningless; check it once outside the loop.
    assert_eq!(start.perft(10), PERFT_10);
    c.bench_function("othello perft(10)", |b| {
        b.iter(|| black_box(&start).perft(black_box(10)));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = perft
}
criterion_main!(benches);
