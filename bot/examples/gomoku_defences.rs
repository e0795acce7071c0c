//! What the root's defence checks cost: positions where the opponent (were it his move) has a
//! VCT, taken from self-play out of the match openings, and for each one every candidate move
//! checked against his VCTs at the threat's length + 8 plies and at the longest the root
//! looks for. Prints the verdicts and the threat solver's nodes and time, so that a change
//! to the solver can be seen to keep every verdict and to cost less. With `--decide MS`, the
//! root's own defence checks ([`root::defences`]) then run on each position for MS
//! milliseconds, and the moves they keep are set against those verdicts: whether a move
//! that holds is among them, and how many that lose are. `--decide-slack P` gives the root's
//! first checks P plies beyond the threat instead of the engine's [`SLACK`] (the verdicts they
//! are set against keep [`SLACK`]); `--decide-slice MS` caps each first check at MS
//! milliseconds instead of the engine's share, and `--decide-short MS` gives every move a
//! first check of at most MS milliseconds before those it cut short get the slice (the
//! engine's two passes; default: the engine's short share, an eighth of `--decide` x 2/5).
//! The six best-ranked moves still cut short, when others held, then get `--decide-leaders
//! MS` (default: 8/5 of the slice, the engine's `CHECK_SLICE_LEADERS`) from the second
//! round's budget, as the engine's leaders do.
//!
//! `cargo run --release -p kibitz-bot --example gomoku_defences -- [--positions N]
//! [--nodes N] [--cache-bits B] [--verdicts] [--decide MS [--decide-slack P] [--decide-slice MS] [--decide-short MS] [--decide-leaders MS]]
//! < scripts/gomoku_openings.txt`

#[path = "common/args.rs"]
mod args;

use args::flag;

use std::io::BufRead;
use std::time::{Duration, Instant};

use game_core::GomokuRule;
use kibitz_bot::engine::gomoku::board::{Board, Point};
use kibitz_bot::engine::gomoku::movegen::sort_by_score;
use kibitz_bot::engine::gomoku::params::VCT_PLIES_MAX;
use kibitz_bot::engine::gomoku::root::{self, Budget, Slices, Verdict, Verdicts};
use kibitz_bot::engine::gomoku::threat::ThreatSearch;
use kibitz_bot::engine::gomoku::{parse_position, GomokuEngine};
use kibitz_bot::engine::{Engine, Level, SearchLimits, StopFlag};

/// Self-play depth: quick, and weak enough that threats arise.
const PLAY_DEPTH: u32 = 4;
/// Moves of self-play after an opening.
const PLAY_MOVES: usize = 40;
/// Extra plies the first check allows beyond the threat found (as the root does).
const SLACK: u32 = 8;

fn board_of(moves: &str) -> Board {
    let pos = parse_position(moves, 15, GomokuRule::Freestyle).expect("a position");
    let game_core::AnyPosition::Gomoku(g) = pos else {
        unreachable!("a Gomoku position")
    };
    Board::from_position(&g)
}

fn budget(nodes: u64) -> Budget {
    Budget {
        nodes,
        until: None,
        stop: StopFlag::new(),
    }
}

/// Positions (move lists) where the side to move faces a VCT of the opponent.
fn threatened_positions(openings: &[String], wanted: usize) -> Vec<(String, u32)> {
    let mut found = Vec::new();
    let mut threats = ThreatSearch::new(20);
    for opening in openings {
        let mut moves = opening.clone();
        let mut engine = GomokuEngine::new().without_book();
        for _ in 0..PLAY_MOVES {
            let pos = parse_position(&moves, 15, GomokuRule::Freestyle).expect("a position");
            let Some(r) = engine.search(
                &pos,
                SearchLimits::Depth(PLAY_DEPTH),
                Level::MAX,
                &StopFlag::new(),
                0,
            ) else {
                break;
            };
            moves = format!("{moves} {}", r.best);
            let mut board = board_of(&moves);
            if !board.summary(1 - board.turn()).fours.is_empty()
                || !board.summary(board.turn()).fives.is_empty()
            {
                continue;
            }
            let vcf = root::opponent_win(&mut threats, &mut board, false, 41, &budget(100_000));
            if vcf.win.is_some() {
                continue;
            }
            let vct = root::opponent_win(&mut threats, &mut board, true, 19, &budget(200_000));
            if let Some(win) = vct.win {
                found.push((moves.clone(), win.plies));
                break;
            }
        }
        if found.len() >= wanted {
            break;
        }
    }
    found
}

/// The moves the root's defence checks keep in `ms` milliseconds, half for the first checks
/// (at the threat's length + `slack`) and half for the second (as the engine gives each a
/// fifth of its move), the candidates ranked by their pattern scores (the engine ranks them
/// by a shallow search).
fn decide(
    threats: &mut ThreatSearch,
    board: &mut Board,
    ms: u64,
    slack: u32,
    slices: Slices,
) -> Vec<Point> {
    let mut root: Vec<Point> = board.candidates().iter().collect();
    sort_by_score(board, board.turn(), &mut root);
    threats.clear();
    let Some(threat) =
        root::opponent_win(threats, board, true, VCT_PLIES_MAX, &budget(1_000_000)).win
    else {
        return root;
    };
    let mut verdicts = Verdicts::new(VCT_PLIES_MAX);
    verdicts.vct_plies = (threat.plies + slack).min(VCT_PLIES_MAX);
    let half = |ms: u64| Budget {
        nodes: u64::MAX,
        until: Some(Instant::now() + Duration::from_millis(ms / 2)),
        stop: StopFlag::new(),
    };
    let mut nodes = 0;
    root::defences(
        threats,
        board,
        &root,
        &threat,
        &mut verdicts,
        &half(ms),
        slices,
        |_| half(ms),
        &mut nodes,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let wanted: usize = flag(&args, "--positions", 20);
    let cap: u64 = flag(&args, "--nodes", 2_000_000);
    // Each move's verdicts (first, then deep: H holds, L loses, ? cut short), to compare
    // two builds move by move.
    let show = args.iter().any(|a| a == "--verdicts");
    let decide_ms: u64 = flag(&args, "--decide", 0);
    let decide_slack: u32 = flag(&args, "--decide-slack", SLACK);
    // The longest one first check may take: the engine's `CHECK_SLICE` (5% of a move) where
    // `--decide`'s half stands for its first checks' fifth, so the move is 2.5 x `--decide`
    // and the slice 5% of that, an eighth of `--decide`.
    let decide_slice: u64 = flag(&args, "--decide-slice", decide_ms / 8);
    // The engine's short pass: `CHECK_SLICE_SHORT`, 2% of the move, 2/5 of the slice.
    let decide_short: u64 = flag(&args, "--decide-short", decide_slice * 2 / 5);
    // The engine's leaders' check: `CHECK_SLICE_LEADERS`, 8% of the move, 8/5 of the slice.
    let decide_leaders: u64 = flag(&args, "--decide-leaders", decide_slice * 8 / 5);
    let slices = Slices {
        short: Some(Duration::from_millis(decide_short)),
        long: Some(Duration::from_millis(decide_slice)),
        leaders: Some(Duration::from_millis(decide_leaders)),
    };
    // Of the positions where a move holds to the end: those whose kept moves include one,
    // and the kept moves that lose, in all; the moves kept in all positions.
    let (mut with_holder, mut found_holder, mut kept_losers, mut kept_all) = (0, 0, 0, 0);
    let openings: Vec<String> = std::io::stdin()
        .lock()
        .lines()
        .map(|l| l.expect("a line"))
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let positions = threatened_positions(&openings, wanted);
    let mut threats = ThreatSearch::new(flag(&args, "--cache-bits", 18));
    let (mut all_nodes, mut all_time) = (0u64, Duration::ZERO);
    let mut tally = [[0usize; 3]; 2];
    // Nodes of the checks of moves found to hold, to lose, and cut short.
    let mut by_verdict = [0u64; 3];
    for (moves, plies) in &positions {
        let mut board = board_of(moves);
        let candidates: Vec<_> = board.candidates().iter().collect();
        let (mut nodes, start) = (0u64, Instant::now());
        let mut line = [[0usize; 3]; 2];
        let mut letters = String::new();
        let mut deep_verdicts = Vec::new();
        threats.clear();
        for &m in &candidates {
            let before = nodes;
            let first = root::verdict(
                &mut threats,
                &mut board,
                m,
                (plies + SLACK).min(VCT_PLIES_MAX),
                &budget(cap),
                &mut nodes,
            );
            let deep = if first == Verdict::Holds {
                root::verdict(
                    &mut threats,
                    &mut board,
                    m,
                    VCT_PLIES_MAX,
                    &budget(cap),
                    &mut nodes,
                )
            } else {
                first
            };
            deep_verdicts.push((m, deep));
            by_verdict[match deep {
                Verdict::Holds => 0,
                Verdict::Loses => 1,
                Verdict::Unknown => 2,
            }] += nodes - before;
            if show {
                let letter = |v| match v {
                    Verdict::Holds => 'H',
                    Verdict::Loses => 'L',
                    Verdict::Unknown => '?',
                };
                letters.push_str(&format!(
                    " {}:{}{}",
                    board.cell(m),
                    letter(first),
                    letter(deep)
                ));
            }
            for (i, v) in [first, deep].into_iter().enumerate() {
                let k = match v {
                    Verdict::Holds => 0,
                    Verdict::Loses => 1,
                    Verdict::Unknown => 2,
                };
                line[i][k] += 1;
                tally[i][k] += 1;
            }
        }
        let took = start.elapsed();
        all_nodes += nodes;
        all_time += took;
        println!(
            "{:>3} moves, threat {plies:>2}: first holds/loses/unknown {:?}, deep {:?}, {:>9} nodes {:>6} ms  [{moves}]",
            candidates.len(),
            line[0],
            line[1],
            nodes,
            took.as_millis()
        );
        if show {
            println!("   {letters}");
        }
        if decide_ms > 0 {
            let kept = decide(&mut threats, &mut board, decide_ms, decide_slack, slices);
            let truth = |m: &Point| deep_verdicts.iter().find(|(p, _)| p == m).map(|&(_, v)| v);
            let holders = deep_verdicts
                .iter()
                .filter(|(_, v)| *v == Verdict::Holds)
                .count();
            let kept_holders = kept
                .iter()
                .filter(|m| truth(m) == Some(Verdict::Holds))
                .count();
            let losers = kept
                .iter()
                .filter(|m| truth(m) == Some(Verdict::Loses))
                .count();
            println!(
                "    decide {decide_ms} ms: kept {} ({} hold, {} lose) of {} moves, {} hold",
                kept.len(),
                kept_holders,
                losers,
                candidates.len(),
                holders
            );
            kept_all += kept.len();
            if holders > 0 {
                with_holder += 1;
                found_holder += usize::from(kept_holders > 0);
                kept_losers += losers;
            }
        }
    }
    println!(
        "{} positions: first {:?}, deep {:?}; nodes by final verdict (holds, loses, unknown) {:?}; {} nodes, {} ms, {:.0} nodes/s",
        positions.len(),
        tally[0],
        tally[1],
        by_verdict,
        all_nodes,
        all_time.as_millis(),
        all_nodes as f64 / all_time.as_secs_f64().max(1e-9)
    );
    if decide_ms > 0 {
        println!(
            "decide {decide_ms} ms, slack {decide_slack}, slices {decide_short}/{decide_slice} ms: a move that holds kept in {found_holder} of the {with_holder} positions that have one, {kept_losers} moves that lose kept there; {kept_all} moves kept in all"
        );
    }
}
