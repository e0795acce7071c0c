//! Gomoku engine measurements for release builds: search speed on the bench positions at
//! fixed depth, VCF/VCT solve times on constructed positions and on a real game's long VCT,
//! and the depth timed searches reach on the bench's middle-game positions.
//!
//! `cargo run --release -p kibitz-bot --example gomoku_measure`

use std::time::Instant;

use game_core::gomoku::Gomoku;
use game_core::{Cell, GomokuRule};
use kibitz_bot::engine::gomoku::board::Board;
use kibitz_bot::engine::gomoku::root::{self, Budget};
use kibitz_bot::engine::gomoku::threat::ThreatSearch;
use kibitz_bot::engine::gomoku::{bench_positions, parse_position, GomokuEngine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|m| m.parse().expect("a cell"))
        .collect()
}

/// Constructed threat positions: (name, black stones, white stones), black to move.
const THREATS: [(&str, &str, &str); 4] = [
    ("four-three", "h8 i8 j8 k9 k10", "g8 a1 d1 g1 m1"),
    (
        "VCF of 4 fours",
        "e5 h6 n6 e7 g7 i7 h8 k8 n8 e10 f11 g11",
        "d4 i4 l6 c8 l8 e9 h9 f10 g10 h11 d12 f12",
    ),
    (
        "VCF of 6 fours",
        "f6 i6 h8 l8 j10 l10 m10 o11",
        "n6 h10 n10 f11 k11 h12 i13 k13",
    ),
    ("double three (VCT only)", "h8 h9 i7 j7", "a1 d1 g1 o15"),
];

fn main() {
    let mut total_nodes = 0;
    let mut total_ms = 0;
    for (moves, depth) in bench_positions() {
        let pos = parse_position(&moves, 15, GomokuRule::Freestyle).expect("a bench position");
        let mut engine = GomokuEngine::new();
        let start = Instant::now();
        let r = engine
            .search(
                &pos,
                SearchLimits::Depth(depth),
                Level::MAX,
                &StopFlag::new(),
                0,
            )
            .expect("a move");
        let ms = start.elapsed().as_millis() as u64;
        total_nodes += r.nodes;
        total_ms += ms;
        println!(
            "depth {depth} {:>9} nodes {ms:>6} ms  best {:<4} score {:?}  [{moves}]",
            r.nodes, r.best, r.score
        );
    }
    println!(
        "search: {total_nodes} nodes in {total_ms} ms, {} nodes/s",
        total_nodes * 1000 / total_ms.max(1)
    );

    for (name, black, white) in THREATS {
        let pos = Gomoku::from_stones(15, GomokuRule::Freestyle, &cells(black), &cells(white))
            .expect("a position");
        for vct in [false, true] {
            let mut board = Board::from_position(&pos);
            let mut threats = ThreatSearch::new(20);
            let start = Instant::now();
            let win = if vct {
                threats.vct(&mut board, 15)
            } else {
                threats.vcf(&mut board, 41)
            };
            let us = start.elapsed().as_micros();
            let line: Vec<String> = win
                .iter()
                .flat_map(|w| w.line.iter().map(|&p| board.cell(p).to_string()))
                .collect();
            println!(
                "{} {name}: {} in {us} us, {} nodes: {}",
                if vct { "VCT" } else { "VCF" },
                win.as_ref()
                    .map_or("no win".to_string(), |w| format!("win in {}", w.plies)),
                threats.nodes(),
                line.join(" ")
            );
        }
    }

    // A real game's VCT (black i8 wins in 27 plies), found by the deepening VCT of the root.
    let pos = parse_position(
        "h8 h9 j8 i10 i7 g9 j11 k8 j9 j10 k10 k9",
        15,
        GomokuRule::Freestyle,
    )
    .expect("a position");
    if let game_core::AnyPosition::Gomoku(g) = &pos {
        let mut board = Board::from_position(g);
        let mut threats = ThreatSearch::new(20);
        let budget = Budget {
            nodes: 3_000_000,
            until: None,
            stop: StopFlag::new(),
        };
        let start = Instant::now();
        let found = root::find_win(&mut threats, &mut board, true, 33, &budget);
        println!(
            "VCT of a real game: {} in {} ms, {} nodes",
            found.win.as_ref().map_or("no win".to_string(), |w| format!(
                "{} wins in {}",
                board.cell(w.line[0]),
                w.plies
            )),
            start.elapsed().as_millis(),
            found.nodes
        );
    }

    // Timed searches of the middle-game bench positions: the depth reached and the speed.
    for ms in [200u64, 1000] {
        let (mut depths, mut nodes, mut spent) = (Vec::new(), 0, 0);
        for (moves, _) in bench_positions().iter().skip(1) {
            let pos = parse_position(moves, 15, GomokuRule::Freestyle).expect("a position");
            let mut engine = GomokuEngine::new();
            let r = engine
                .search(
                    &pos,
                    SearchLimits::Time(std::time::Duration::from_millis(ms)),
                    Level::MAX,
                    &StopFlag::new(),
                    0,
                )
                .expect("a move");
            depths.push(r.depth);
            nodes += r.nodes;
            spent += r.ms;
        }
        println!(
            "timed {ms} ms: depths {depths:?}, {} nodes/s",
            nodes * 1000 / spent.max(1)
        );
    }
}
