//! How deep full strength searches positions in a fixed number of nodes: a weights file's
//! cost or gain in search efficiency, apart from the machine's speed (a better evaluation
//! that makes the search shallower may lose more than it brings).

use std::time::Instant;

use game_core::AnyPosition;
use kibitz_bot::engine::gomoku::GomokuEngine;
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

use crate::args::{fail, flag};
use crate::games::{lines_of, read_line};

/// `depth <positions.txt> [--nodes 200000] [--count 200]`: the mean depth that searches of
/// `--nodes` nodes reach over the first `--count` positions (position or labelled lines).
pub fn depth(args: &[String]) {
    let Some(path) = args.first() else {
        fail("depth <positions.txt> [--nodes 200000] [--count 200]")
    };
    let nodes: u64 = flag(args, "--nodes", 200_000);
    let count: usize = flag(args, "--count", 200);
    let start = Instant::now();
    let (mut depths, mut searched, mut n) = (0u64, 0u64, 0u64);
    for text in lines_of(path).take(count) {
        let words: Vec<&str> = text.split_whitespace().collect();
        // A labelled line has a target and a move after the result.
        let labelled = words.get(2).is_some_and(|w| w.contains('.'));
        let rest = words[..2]
            .iter()
            .chain(&words[if labelled { 4 } else { 2 }..])
            .copied();
        let pos = AnyPosition::Gomoku(read_line(rest).position());
        let mut engine = GomokuEngine::new().without_book();
        let r = engine
            .search(
                &pos,
                SearchLimits::Nodes(nodes),
                Level::MAX,
                &StopFlag::new(),
                1,
            )
            .expect("a move in an unfinished game");
        depths += u64::from(r.depth);
        searched += r.nodes;
        n += 1;
    }
    println!(
        "{n} positions, {nodes} nodes each: mean depth {:.2}, {} nodes searched, {:.0} s",
        depths as f64 / n as f64,
        searched,
        start.elapsed().as_secs_f64()
    );
}
