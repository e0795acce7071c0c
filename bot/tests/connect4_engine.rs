//! The Connect Four engine through its public interface: immediate wins and blocks, legal
//! moves on random boards, exact solves, determinism, and a short level 10 vs level 1 match.

use std::time::Duration;

use game_core::connect4::{Column, ConnectFour};
use game_core::{AnyPosition, Cell, Color, Position};
use kibitz_bot::engine::connect4::{bench_positions, parse_position, BoardOptions, Connect4Engine};
use kibitz_bot::engine::{Engine, Level, Score, SearchLimits as Limits, SearchResult, StopFlag};
use proptest::prelude::*;

fn engine() -> Connect4Engine {
    Connect4Engine::with_table_bits(14, 16)
}

fn position(moves: &str) -> ConnectFour {
    match parse_position(moves, &BoardOptions::default()).unwrap() {
        AnyPosition::Connect4(p) => p,
        _ => unreachable!(),
    }
}

fn search(
    e: &mut Connect4Engine,
    p: &ConnectFour,
    limits: Limits,
    level: u8,
    seed: u64,
) -> SearchResult {
    e.search(
        &AnyPosition::Connect4(p.clone()),
        limits,
        Level::new(level),
        &StopFlag::new(),
        seed,
    )
    .expect("a move in a position that is not over")
}

fn column(r: &SearchResult) -> Column {
    Column(r.best.parse::<u8>().unwrap() - 1)
}

#[test]
fn takes_a_win_and_blocks_a_loss_from_level_3() {
    // Black has three stones in column 4: to move, it wins there; else white must block.
    let win_now = position("414141");
    let block = position("41414");
    for level in 3..=10 {
        for limits in [Limits::Depth(2), Limits::Time(Duration::from_millis(20))] {
            let r = search(&mut engine(), &win_now, limits, level, 7);
            assert_eq!(r.best, "4", "level {level} {limits:?}");
            assert!(r.exact);
            let r = search(&mut engine(), &block, limits, level, 7);
            assert_eq!(r.best, "4", "level {level} {limits:?}");
        }
    }
}

#[test]
fn solve_reports_the_test_set_score_and_a_move_that_keeps_it() {
    // White to move has three in column 3 and wins there with the 8th stone.
    let p = position("4343531");
    let r = search(&mut engine(), &p, Limits::Solve, 10, 0);
    assert_eq!(
        (r.best.as_str(), r.score),
        ("3", Score::Exact((43 - 7) / 2))
    );
    assert!(r.exact);
    // A quiet ending (13 cells left), checked against the solver's own follow-up.
    let p = position("25523541517434274676456724677");
    let r = search(&mut engine(), &p, Limits::Solve, 10, 0);
    assert_eq!(r.score, Score::Exact(1));
    let next = p.clone().play(column(&r)).unwrap();
    let reply = search(&mut engine(), &next, Limits::Solve, 10, 0);
    assert_eq!(reply.score, Score::Exact(-1));
    assert_eq!(r.pv.first(), Some(&r.best));
}

#[test]
fn search_and_solver_agree_near_the_end() {
    // The search, with the solver as its probe, proves what the solver says.
    for moves in [
        "25777131474464721445661723361",
        "47577445522754752143225176666",
    ] {
        let p = position(moves);
        let solved = search(&mut engine(), &p, Limits::Solve, 10, 0);
        let searched = search(&mut engine(), &p, Limits::Depth(3), 10, 0);
        let Score::Exact(exact) = solved.score else {
            panic!("{solved:?}")
        };
        let Score::WinIn(plies) = searched.score else {
            panic!("{searched:?}")
        };
        // 29 stones down; the winning stone is played with 29 + plies - 1 before it.
        let n = 29 + plies.abs() - 1;
        assert_eq!((43 - n) / 2 * plies.signum(), exact, "{moves}");
    }
}

#[test]
fn fixed_depth_searches_repeat_exactly() {
    let p = position("4453");
    let mut reused = engine();
    let a = search(&mut engine(), &p, Limits::Depth(8), 10, 3);
    let b = search(&mut reused, &p, Limits::Depth(8), 10, 3);
    let c = search(&mut reused, &p, Limits::Depth(8), 10, 3);
    for r in [&b, &c] {
        assert_eq!(
            (&a.best, a.score, a.nodes, &a.pv),
            (&r.best, r.score, r.nodes, &r.pv)
        );
    }
    // Low levels with noise too.
    let a = search(&mut engine(), &p, Limits::Depth(4), 2, 11);
    let b = search(&mut reused, &p, Limits::Depth(4), 2, 11);
    assert_eq!((a.best, a.nodes), (b.best, b.nodes));
}

#[test]
fn finished_positions_get_no_move() {
    let over = position("4141414");
    assert!(over.is_over());
    let r = engine().search(
        &AnyPosition::Connect4(over),
        Limits::Depth(3),
        Level::MAX,
        &StopFlag::new(),
        0,
    );
    assert!(r.is_none());
}

#[test]
fn bench_positions_parse_and_search() {
    let list = bench_positions();
    assert!((4..=8).contains(&list.len()));
    for (text, depth) in list {
        let p = parse_position(&text, &BoardOptions::default()).unwrap();
        let AnyPosition::Connect4(c4) = &p else {
            unreachable!()
        };
        assert!(!c4.is_over(), "{text}");
        assert!(depth >= 1);
        let r = engine().search(&p, Limits::Depth(2), Level::MAX, &StopFlag::new(), 0);
        assert!(r.is_some(), "{text}");
    }
}

fn limits_for(level: u8) -> Limits {
    if level >= 10 {
        Limits::Depth(7)
    } else {
        Limits::Depth(1)
    }
}

/// Plays a game on 7x6; returns the winner.
fn play_game(black_level: u8, white_level: u8, seed: u64) -> Option<Color> {
    let mut p = ConnectFour::new(7, 6, &[]).unwrap();
    let mut engines = [engine(), engine()];
    while !p.is_over() {
        let (i, level) = match p.turn() {
            Color::Black => (0, black_level),
            Color::White => (1, white_level),
        };
        let r = search(
            &mut engines[i],
            &p,
            limits_for(level),
            level,
            seed + p.ply() as u64,
        );
        p = p.play(column(&r)).expect("engines play legal moves");
    }
    p.outcome().and_then(|o| o.winner)
}

#[test]
fn level_10_beats_level_1() {
    for seed in 0..2 {
        assert_eq!(play_game(10, 1, seed), Some(Color::Black), "seed {seed}");
        assert_eq!(play_game(1, 10, seed), Some(Color::White), "seed {seed}");
    }
}

fn random_position(cols: u8, rows: u8, blocked: &[Cell], picks: &[u8]) -> ConnectFour {
    let mut p = ConnectFour::new(cols, rows, blocked).unwrap();
    for &pick in picks {
        let moves = p.legal_moves();
        let next = p
            .clone()
            .play(moves[usize::from(pick) % moves.len()])
            .unwrap();
        if next.is_over() {
            break;
        }
        p = next;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn never_returns_an_illegal_move(
        cols in 4u8..=12, rows in 4u8..=12,
        blocked in proptest::collection::vec((0u8..12, 0u8..12), 0..5),
        picks in proptest::collection::vec(0u8..12, 0..120),
        level in 1u8..=10,
        depth in 1u32..=4,
        seed in 0u64..1000,
    ) {
        let mut cells: Vec<Cell> =
            blocked.iter().map(|&(c, r)| Cell::new(c % cols, r % rows)).collect();
        cells.sort();
        cells.dedup();
        let p = random_position(cols, rows, &cells, &picks);
        let mut e = engine();
        for limits in [Limits::Depth(depth), Limits::Nodes(300)] {
            let r = search(&mut e, &p, limits, level, seed);
            prop_assert!(p.is_legal(column(&r)).is_ok(), "{} {:?}", p.to_board_text(), r);
            prop_assert_eq!(r.pv.first(), Some(&r.best));
        }
    }
}
