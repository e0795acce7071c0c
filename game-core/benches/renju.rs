//! Criterion benchmark of the renju forbidden-point scan on a crowded 15x15 middle game.

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::gomoku::Gomoku;
use game_core::{Cell, GomokuRule};

/// 25 black and 25 white stones, black with many threes and broken fours:
///
/// ```text
/// 12 . . . . . . O . . . . . . . .
/// 11 . . . . . O X . . O . . . . .
/// 10 . O . . X O O O X . . X . . .
///  9 . . . X O X X X X . . . . . .
///  8 . O X X . X X X O X O O . . .
///  7 . . O O O X X O . X O . . O .
///  6 . . . X . X X X X . . . . . .
///  5 . . . X . . O . X . O . . . .
///  4 . . . O . O O O O . . . . . .
///    a b c d e f g h i j k l m n o
/// ```
const BLACK: &str =
    "c8 d5 d6 d8 d9 e10 f6 f7 f8 f9 g6 g7 g8 g9 g11 h6 h8 h9 i5 i6 i9 i10 j7 j8 l10";
const WHITE: &str =
    "b8 b10 c7 d4 d7 e7 e9 f4 f10 f11 g4 g5 g10 g12 h4 h7 h10 i4 i8 j11 k5 k7 k8 l8 n7";

fn cells(list: &str) -> Vec<Cell> {
    list.split_whitespace()
        .map(|m| m.parse().expect("bench position"))
        .collect()
}

fn forbidden_scan(c: &mut Criterion) {
    let pos = Gomoku::from_stones(15, GomokuRule::Renju, &cells(BLACK), &cells(WHITE))
        .expect("bench position");
    let points = pos.forbidden_points();
    assert!(
        !points.is_empty(),
        "the bench position should hold forbidden points"
    );
    eprintln!(
        "forbidden points: {}",
        points
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut group = c.benchmark_group("renju");
    group.sample_size(10);
    group.bench_function("forbidden_points 15x15 50 stones", |b| {
        b.iter(|| std::hint::black_box(&pos).forbidden_points())
    });
    group.finish();
}

criterion_group!(benches, forbidden_scan);
criterion_main!(benches);
