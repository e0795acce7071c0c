//! Searches the Connect Four bench positions at their fixed depths (as `kibitz bench` does)
//! and prints nodes and time for each:
//!
//! ```text
//! cargo run --release -p kibitz-bot --example connect4_bench
//! ```

use std::time::Instant;

use kibitz_bot::engine::connect4::{bench_positions, parse_position, BoardOptions, Connect4Engine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

fn main() {
    let mut engine = Connect4Engine::new();
    let (mut total_nodes, clock) = (0u64, Instant::now());
    for (text, depth) in bench_positions() {
        let position = match parse_position(&text, &BoardOptions::default()) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{text}: {e}");
                continue;
            }
        };
        let start = Instant::now();
        let result = engine.search(
            &position,
            SearchLimits::Depth(depth),
            Level::MAX,
            &StopFlag::new(),
            0,
        );
        if let Some(r) = result {
            total_nodes += r.nodes;
            println!(
                "{text:?} depth {depth}: best {} score {:?} nodes {} in {:?}",
                r.best,
                r.score,
                r.nodes,
                start.elapsed()
            );
        }
    }
    let elapsed = clock.elapsed();
    println!(
        "bench: {total_nodes} nodes {:.0} nps in {elapsed:?}",
        total_nodes as f64 / elapsed.as_secs_f64()
    );
}
