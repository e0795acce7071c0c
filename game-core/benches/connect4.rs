//! Criterion benchmarks for Connect Four: perft on 7x6 (a `u64` board) and 12x12 (the wide
//! bitboard), the figures to compare when the bitboards change.

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::connect4::ConnectFour;

/// Games of 10 plies on an empty 7x6 board, won positions not expanded.
const PERFT_10_7X6: u64 = 268_031_646;
/// Games of 6 plies on 12x12: 12^6, as no column fills and no four can form yet. The board
/// needs 156 bits, so this times the wide bitboard.
const PERFT_6_12X12: u64 = 2_985_984;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("connect4");
    group.sample_size(10);
    let start = ConnectFour::new(7, 6, &[]).expect("7x6 is a valid size");
    group.bench_function("perft 10 on 7x6", |b| {
        b.iter(|| {
            let n = start.perft(std::hint::black_box(10));
            assert_eq!(n, PERFT_10_7X6);
            n
        })
    });
    let wide = ConnectFour::new(12, 12, &[]).expect("12x12 is a valid size");
    group.bench_function("perft 6 on 12x12", |b| {
        b.iter(|| {
            let n = wide.perft(std::hint::black_box(6));
            assert_eq!(n, PERFT_6_12X12);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
