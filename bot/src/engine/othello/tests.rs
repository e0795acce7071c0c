//! Engine tests: agreement with game-core, legal moves at every level, passes, immediate
//! wins and blocks, determinism, parsing, and a quick match of level 10 against level 1.

use std::time::Duration;

use proptest::prelude::*;

use super::*;
use crate::engine::othello::test_support::{random_position, Rng};
use crate::engine::search::SearchGame;
use crate::engine::{Level, StopFlag};
use game_core::{Color, Position};

fn othello(mover: u64, opponent: u64, turn: Color) -> AnyPosition {
    let (black, white) = match turn {
        Color::Black => (mover, opponent),
        Color::White => (opponent, mover),
    };
    AnyPosition::Othello(Othello::from_bitboards(black, white, turn).expect("disjoint"))
}

fn run(position: &AnyPosition, limits: SearchLimits, level: u8, seed: u64) -> Option<SearchResult> {
    OthelloEngine::new().search(position, limits, Level::new(level), &StopFlag::new(), seed)
}

fn square_of(name: &str) -> u8 {
    let b = name.as_bytes();
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Along random games, the engine's move list, end detection and final score agree
    /// with game-core, and the engine's choice is legal for game-core, at any level.
    #[test]
    fn engine_agrees_with_game_core(seed in 1u64.., level in 1u8..=10) {
        let mut rng = Rng(seed);
        let mut position = Othello::new();
        let mut ply = 0;
        loop {
            let (mover, opponent) = position.mover_bitboards();
            let game = Game::new(mover, opponent, Solver::new(4));
            let mut ours = Vec::new();
            game.generate(&mut ours);
            let mut ours: Vec<String> = ours.iter().map(|&m| square_name(m)).collect();
            let mut theirs: Vec<String> =
                position.legal_moves().iter().map(ToString::to_string).collect();
            ours.sort();
            theirs.sort();
            prop_assert_eq!(ours, theirs);
            let over = game.terminal(0);
            prop_assert_eq!(over.is_some(), position.outcome().is_some());
            if let Some(outcome) = position.outcome() {
                let score = outcome.score.expect("a count");
                let (own, other) = match position.turn() {
                    Color::Black => (score.black, score.white),
                    Color::White => (score.white, score.black),
                };
                prop_assert_eq!(final_score(mover, opponent), i32::from(own) - i32::from(other));
                break;
            }
            // Every few moves, ask the engine (small depth: debug build).
            if ply % 7 == 3 {
                let any = AnyPosition::Othello(position.clone());
                let r = run(&any, SearchLimits::Depth(2), level, seed).expect("a move");
                let m: game_core::othello::OthelloMove = r.best.parse().expect("notation");
                prop_assert!(position.is_legal(m).is_ok(), "{} in {}", r.best, position.to_text());
            }
            let moves = position.legal_moves();
            let m = moves[rng.below(moves.len() as u64) as usize];
            position.play_unchecked(m);
            ply += 1;
        }
    }
}

#[test]
fn forced_pass_is_answered_with_pass() {
    // All black but b1 and c1 white and d1..h1 empty: white has no move, black has.
    let white = 0b110u64;
    let black = !0xf8u64 & !white;
    let position = othello(white, black, Color::White);
    for limits in [
        SearchLimits::Depth(3),
        SearchLimits::Time(Duration::from_millis(50)),
        SearchLimits::Solve,
    ] {
        for level in [1, 5, 10] {
            let r = run(&position, limits, level, 1).expect("a move");
            assert_eq!(r.best, "pass", "{limits:?} level {level}");
        }
    }
    // Black to move there wipes white out.
    let r = run(
        &othello(black, white, Color::Black),
        SearchLimits::Solve,
        10,
        0,
    )
    .expect("a move");
    assert_eq!((r.best.as_str(), r.score), ("d1", Score::Exact(64)));
}

/// Sparse random positions (a few discs of each side in the middle of the board, so that
/// wipe-outs are near) where the side to move has several moves and (`win`) one of them
/// ends the game with its win, or (not `win`) some of them let the opponent end it with a
/// win at once and some do not. Far too many empties for a depth-2 search to solve.
fn tactical_positions(win: bool, wanted: usize) -> Vec<(u64, u64)> {
    const MIDDLE: u64 = 0x0000_3c3c_3c3c_0000;
    let mut rng = Rng(0x07ac_71c5);
    let mut found = Vec::new();
    for _ in 0..200_000 {
        if found.len() == wanted {
            break;
        }
        let mover = rng.next() & rng.next() & MIDDLE;
        let opponent = rng.next() & rng.next() & MIDDLE & !mover;
        let legal = legal_mask(mover, opponent);
        if legal.count_ones() < 2 || mover.count_ones() + opponent.count_ones() > 10 {
            continue;
        }
        let hit = if win {
            immediate_win(mover, opponent).is_some()
        } else {
            immediate_win(mover, opponent).is_none()
                && loss_blocking_filter(mover, opponent) != u64::MAX
        };
        if hit {
            found.push((mover, opponent));
        }
    }
    assert_eq!(found.len(), wanted, "not enough positions found");
    found
}

#[test]
fn levels_from_3_take_an_immediate_win() {
    for (mover, opponent) in tactical_positions(true, 6) {
        let position = othello(mover, opponent, Color::Black);
        for level in 3..=10 {
            let r = run(&position, SearchLimits::Depth(2), level, level.into()).expect("a move");
            let (m, o) = after_move(mover, opponent, square_of(&r.best));
            assert!(
                game_over(m, o) && final_score(m, o) < 0,
                "level {level} played {} in {mover:#x} {opponent:#x}",
                r.best
            );
        }
    }
}

#[test]
fn levels_from_3_block_an_immediate_loss() {
    for (mover, opponent) in tactical_positions(false, 6) {
        let position = othello(mover, opponent, Color::Black);
        for level in 3..=10 {
            let r = run(&position, SearchLimits::Depth(2), level, level.into()).expect("a move");
            let (m, o) = after_move(mover, opponent, square_of(&r.best));
            assert!(
                immediate_win(m, o).is_none(),
                "level {level} played {} in {mover:#x} {opponent:#x}",
                r.best
            );
        }
    }
}

#[test]
fn fixed_depth_is_deterministic() {
    let mut rng = Rng(99);
    for empties in [50, 40, 30] {
        let (mover, opponent) = random_position(&mut rng, empties);
        let position = othello(mover, opponent, Color::Black);
        for level in [2, 10] {
            let a = run(&position, SearchLimits::Depth(4), level, 5).expect("a move");
            let mut engine = OthelloEngine::new();
            let stop = StopFlag::new();
            // The same engine twice: the tables are cleared at the start of each search.
            let _ = engine.search(
                &position,
                SearchLimits::Depth(3),
                Level::new(level),
                &stop,
                5,
            );
            let b = engine
                .search(
                    &position,
                    SearchLimits::Depth(4),
                    Level::new(level),
                    &stop,
                    5,
                )
                .expect("a move");
            assert_eq!(
                (&a.best, a.score, a.nodes, &a.pv),
                (&b.best, b.score, b.nodes, &b.pv)
            );
        }
    }
}

#[test]
fn parses_ffo_text_and_rejects_bad_lines() {
    let start = "---------------------------OX------XO--------------------------- X; comment";
    assert_eq!(
        parse_position(start),
        Ok(AnyPosition::Othello(Othello::new()))
    );
    for bad in ["", "XO", &"-".repeat(64), &format!("{} Z", "-".repeat(64))] {
        assert!(parse_position(bad).is_err(), "{bad:?}");
    }
    for (text, _) in bench_positions() {
        let position = parse_position(&text).expect("bench positions parse");
        let r = run(&position, SearchLimits::Depth(1), 10, 0).expect("not over");
        assert!(!r.best.is_empty());
    }
}

#[test]
fn other_games_and_finished_positions_get_no_move() {
    assert!(run(
        &AnyPosition::Othello(Othello::from_bitboards(u64::MAX, 0, Color::White).unwrap()),
        SearchLimits::Depth(2),
        5,
        0
    )
    .is_none());
    let engine = OthelloEngine::new();
    assert!(engine.think_time(Level::new(1)) < engine.think_time(Level::MAX));
}

#[test]
fn exact_root_solve_reports_exact_scores() {
    let mut rng = Rng(3);
    for _ in 0..5 {
        let (mover, opponent) = random_position(&mut rng, 9);
        if game_over(mover, opponent) {
            continue;
        }
        let position = othello(mover, opponent, Color::Black);
        let expected = crate::engine::othello::test_support::brute_force(mover, opponent);
        let r = run(&position, SearchLimits::Time(Duration::from_secs(5)), 10, 0).expect("a move");
        assert_eq!((r.score, r.exact), (Score::Exact(expected), true));
    }
}

/// Plays one game; returns the final disc difference for black.
fn play_game(black: u8, white: u8, seed: u64) -> i32 {
    let mut position = Othello::new();
    let mut engines = [OthelloEngine::new(), OthelloEngine::new()];
    let mut ply = 0u64;
    while position.outcome().is_none() {
        let (side, level) = match position.turn() {
            Color::Black => (0, black),
            Color::White => (1, white),
        };
        let r = engines[side]
            .search(
                &AnyPosition::Othello(position.clone()),
                SearchLimits::Depth(3),
                Level::new(level),
                &StopFlag::new(),
                seed + ply,
            )
            .expect("a move");
        let m: game_core::othello::OthelloMove = r.best.parse().expect("notation");
        assert!(position.is_legal(m).is_ok());
        position.play_unchecked(m);
        ply += 1;
    }
    let (black_discs, white_discs) = position.bitboards();
    black_discs.count_ones() as i32 - white_discs.count_ones() as i32
}

/// Level 10 at depth 3 against level 1, four seeds with both colours: it may lose a game
/// to a lucky line, never the match.
#[test]
fn level_10_beats_level_1() {
    let mut wins = 0;
    let mut discs = 0;
    for seed in 11..15 {
        let as_black = play_game(10, 1, seed);
        let as_white = -play_game(1, 10, seed);
        wins += i32::from(as_black > 0) + i32::from(as_white > 0);
        discs += as_black + as_white;
    }
    assert!(
        wins >= 6 && discs > 150,
        "{wins} wins of 8, {discs:+} discs"
    );
}
