//! Criterion benchmarks for connect4 (filled in with the rules).
fn main() {}
