//! Criterion benchmarks for renju (filled in with the rules).
fn main() {}
