//! The solver against brute-force minimax on positions from random games (passes and ends
//! included), the window contract, and hand-made positions with known values.

use super::*;
use crate::engine::othello::board::{after_move, game_over};
use crate::engine::othello::test_support::{brute_force, random_position, Rng};

/// Checks the module contract for one window.
fn check_window(solver: &mut Solver, mover: u64, opponent: u64, alpha: i32, beta: i32, v: i32) {
    let r = solver
        .solve_window(mover, opponent, alpha, beta)
        .expect("not stopped");
    if v <= alpha {
        assert!(
            r <= alpha && r >= v,
            "fail low: v {v} ({alpha}, {beta}) got {r}"
        );
    } else if v >= beta {
        assert!(
            r >= beta && r <= v,
            "fail high: v {v} ({alpha}, {beta}) got {r}"
        );
    } else {
        assert_eq!(r, v, "inside ({alpha}, {beta})");
    }
}

/// Solves `games` random positions with `empties` empty squares (cycled) and returns how
/// many had to pass and how many were over.
fn check_against_brute_force(
    deep_empties: u32,
    empties: std::ops::RangeInclusive<u32>,
    games: usize,
    seed: u64,
) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut solver = Solver::new(12);
    solver.deep_empties = deep_empties;
    // The evaluation orders the moves a little above the deep code's threshold.
    solver.eval_order_empties = deep_empties + 2;
    let (mut passes, mut ends) = (0, 0);
    for game in 0..games {
        let span = empties.end() - empties.start() + 1;
        let target = empties.start() + game as u32 % span;
        let (mover, opponent) = random_position(&mut rng, target);
        let v = brute_force(mover, opponent);
        if game_over(mover, opponent) {
            ends += 1;
        } else if legal_moves(mover, opponent) == 0 {
            passes += 1;
        }
        check_window(&mut solver, mover, opponent, -65, 65, v);
        for (alpha, beta) in [(v - 1, v + 1), (v, v + 1), (v - 1, v), (-3, 9), (10, 30)] {
            check_window(&mut solver, mover, opponent, alpha, beta, v);
        }
        if let Some(solution) = solver.solve(mover, opponent) {
            assert_eq!(solution.score, v);
            // The line given leads to the end with that very score.
            let (mut m, mut o) = (mover, opponent);
            let mut sign = 1;
            for &mv in &solution.pv {
                assert!(
                    mv == PASS && legal_moves(m, o) == 0
                        || mv < PASS && legal_moves(m, o) & (1u64 << mv) != 0,
                    "illegal move {mv} in the line"
                );
                (m, o) = after_move(m, o, mv);
                sign = -sign;
            }
            assert!(game_over(m, o), "the line stops before the end");
            assert_eq!(sign * final_score(m, o), v, "the line's score");
        }
    }
    (passes, ends)
}

#[test]
fn shallow_code_matches_brute_force() {
    let (passes, ends) = check_against_brute_force(DEEP_EMPTIES, 1..=8, 400, 0x1234_5678);
    assert!(passes > 0 && ends > 0, "{passes} passes, {ends} ends");
}

#[test]
fn deep_code_matches_brute_force() {
    // The table, stability cutoff and ordering run from 4 empties up.
    let (passes, _) = check_against_brute_force(3, 1..=8, 300, 0xfeed_beef);
    assert!(passes > 0, "no pass seen");
}

#[test]
fn ten_empties_match_brute_force() {
    check_against_brute_force(DEEP_EMPTIES, 9..=10, 20, 0xabcd);
}

#[test]
fn known_positions() {
    // All black but b1 and c1 white and d1..h1 empty; white must pass, black wipes out.
    let empty = 0xf8u64;
    let white = 0b110u64;
    let black = !empty & !white;
    let mut solver = Solver::new(10);
    let s = solver.solve(white, black).expect("not over");
    assert_eq!((s.score, s.best), (-64, PASS));
    let s = solver.solve(black, white).expect("not over");
    assert_eq!((s.score, s.best), (64, 3));
    // A full board: nothing to solve.
    assert_eq!(solver.solve(u64::MAX, 0), None);
    // One empty square, a1: row 1 is "-XXXXXXO" and every other square white. Black
    // cannot take a1 (no line from it ends on a black disc); white takes it, flips b1..g1
    // and owns the board.
    let black = 0b0111_1110u64;
    let white = !black & !1;
    assert_eq!(
        last_empties::solve1(black, -INFINITY, 0),
        -(2 * (white.count_ones() as i32 + 1 + 6) - 64)
    );
    assert_eq!(brute_force(black, white), -64);
}

#[test]
fn stops_when_asked() {
    let mut rng = Rng(7);
    let (mover, opponent) = random_position(&mut rng, 30);
    let mut solver = Solver::new(10);
    let stop = StopFlag::new();
    stop.stop();
    solver.set_limits(&stop, None);
    assert_eq!(solver.solve(mover, opponent), None);
    assert_eq!(solver.solve_window(mover, opponent, -1, 1), None);
}
