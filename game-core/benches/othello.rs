//! Criterion benchmarks for othello (filled in with the rules).
fn main() {}
