//! Trains the Gomoku evaluation's learned weights (`bot/src/engine/gomoku/eval_weights.txt`,
//! read by `learned.rs`): self-play positions, labelled by a stronger brain's searches, and the fit
//! (docs/benchmarks-log/gomoku-learned-1.md, "Gomoku learned evaluation", has the run and its
//! figures).
//!
//! ```text
//! gomoku_learn positions <out.txt> <games> <seed> [--rule freestyle] [--depth 4] [--mistakes 0.05] [--keep 0.5]
//! gomoku_learn label <in.txt> <out.txt> --brain <pbrain command> [--ms 80] [--scale 200] [--part k/n]
//! gomoku_learn fit <labelled.txt>... [--out eval_weights.txt] [--iterations 400] [--pull 0.0002] [--mates]
//! gomoku_learn fit-order <labelled.txt>... [--out eval_weights.txt] [--iterations 300] [--pull 0.001]
//! gomoku_learn depth <positions.txt> [--nodes 200000] [--count 200]
//! ```
//! Any command takes `--weights <file>`: its boards use that weights file, not the shipped
//! one (`fit` and `fit-order` then start from it and keep what they do not fit).
//! `gomoku_learn` is `cargo run --release -p kibitz-bot --example gomoku_learn --`.

#[path = "../common/args.rs"]
mod args;
mod depth;
mod fit;
mod games;
mod label;
mod optim;
mod order;
#[path = "../common/selfplay.rs"]
mod selfplay;

use kibitz_bot::engine::gomoku::learned::Learned;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `--weights <file>`: every board of the run uses that file's weights, not the shipped.
    let weights: String = args::flag(&args, "--weights", String::new());
    if !weights.is_empty() {
        let text = std::fs::read_to_string(&weights)
            .unwrap_or_else(|e| args::fail(&format!("{weights}: {e}")));
        Learned::install(&text).unwrap_or_else(|e| args::fail(&format!("{weights}: {e}")));
    }
    match args.first().map(String::as_str) {
        Some("positions") => games::positions(&args[1..]),
        Some("label") => label::label(&args[1..]),
        Some("fit") => fit::fit(&args[1..]),
        Some("fit-order") => order::fit_order(&args[1..]),
        Some("depth") => depth::depth(&args[1..]),
        _ => args::fail(
            "positions | label | fit | fit-order | depth (see the file's opening comment)",
        ),
    }
}
