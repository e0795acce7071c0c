//! What the Gomoku tests share: positions from text, an engine's move, stones added,
//! the winning points of a colour, threat-search claims checked move by move, and engines
//! with the root budgets that prove real games' long wins.

pub use game_core::gomoku::Gomoku;
pub use game_core::{AnyPosition, Cell, Color, GomokuRule, Position};
pub use kibitz_bot::engine::gomoku::board::{side, Board, Point};
pub use kibitz_bot::engine::gomoku::params::{self, LEADERS_CHECKED_FIRST};
pub use kibitz_bot::engine::gomoku::root::{self, Budget, Verdict, Verdicts};
pub use kibitz_bot::engine::gomoku::threat::{ThreatSearch, ThreatWin};
pub use kibitz_bot::engine::gomoku::{movegen, parse_position, FixedThreatBudget, GomokuEngine};
pub use kibitz_bot::engine::{
    Engine, Level, Score, SearchLimits as Limits, SearchResult, StopFlag,
};
pub use proptest::prelude::*;
pub use std::time::{Duration, Instant};

pub const RULES: [GomokuRule; 3] = [
    GomokuRule::Freestyle,
    GomokuRule::Standard,
    GomokuRule::Renju,
];

pub fn cells(text: &str) -> Vec<Cell> {
    text.split_whitespace()
        .map(|m| m.parse().expect("a cell"))
        .collect()
}

pub fn position(rule: GomokuRule, black: &str, white: &str) -> Gomoku {
    Gomoku::from_stones(15, rule, &cells(black), &cells(white)).expect("a position")
}

pub fn engine_move(pos: &Gomoku, limits: Limits, level: u8, seed: u64) -> (Cell, Score) {
    let mut engine = GomokuEngine::with_tt_bits(16);
    let r = engine
        .search(
            &AnyPosition::Gomoku(pos.clone()),
            limits,
            Level::new(level),
            &StopFlag::new(),
            seed,
        )
        .expect("a move");
    (r.best.parse().expect("a cell"), r.score)
}

/// The solver's answer (`Limits::Solve`, a fresh engine at full strength).
pub fn solve(pos: &Gomoku) -> SearchResult {
    GomokuEngine::new()
        .search(
            &AnyPosition::Gomoku(pos.clone()),
            Limits::Solve,
            Level::MAX,
            &StopFlag::new(),
            0,
        )
        .expect("a result")
}

/// The solver's answer and how long it took here: the shorter of two runs, so that loading
/// what the engine loads once (its learned weights) is not counted.
pub fn solve_timed(pos: &Gomoku) -> (SearchResult, Duration) {
    let start = Instant::now();
    let r = solve(pos);
    let first = start.elapsed();
    let start = Instant::now();
    let again = solve(pos);
    assert_eq!(
        (&r.best, r.score),
        (&again.best, again.score),
        "deterministic"
    );
    (r, first.min(start.elapsed()))
}

/// A fresh engine's move at full strength in `ms` milliseconds, stretched by as much as this
/// machine proved the position slower (`took`) than the machine the test was written on did
/// (`took_there`, the same test profile): a timed test asks whether the move's shares give
/// its phases the time they need, and on a slower machine, a slower build or under load every
/// phase needs more. Never shortened.
pub fn timed_move_as_there(
    pos: &Gomoku,
    ms: u64,
    took: Duration,
    took_there: Duration,
) -> SearchResult {
    let slower = (took.as_secs_f64() / took_there.as_secs_f64()).max(1.0);
    timed_move(pos, (ms as f64 * slower).round() as u64)
}

/// A fresh engine's move at full strength in `ms` milliseconds.
pub fn timed_move(pos: &Gomoku, ms: u64) -> SearchResult {
    GomokuEngine::new()
        .search(
            &AnyPosition::Gomoku(pos.clone()),
            Limits::Time(std::time::Duration::from_millis(ms)),
            Level::MAX,
            &StopFlag::new(),
            0,
        )
        .expect("a move")
}

/// `pos` with one more stone of `color` on `cell` (whoever is to move).
pub fn with_stone(pos: &Gomoku, cell: Cell, color: Color) -> Gomoku {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (c, col) in pos.stones() {
        if col == Color::Black {
            black.push(c);
        } else {
            white.push(c);
        }
    }
    if color == Color::Black {
        black.push(cell);
    } else {
        white.push(cell);
    }
    Gomoku::from_stones(pos.size(), pos.rule(), &black, &white).expect("a position")
}

/// The empty cells where a stone of `color` wins at once, by game-core's rules.
pub fn winning_cells(pos: &Gomoku, color: Color) -> Vec<Cell> {
    let n = pos.size();
    (0..n)
        .flat_map(|row| (0..n).map(move |col| Cell::new(col, row)))
        .filter(|&c| pos.stone(c).is_none())
        .filter(|&c| {
            with_stone(pos, c, color)
                .outcome()
                .is_some_and(|o| o.winner == Some(color))
        })
        .collect()
}

/// Replays a VCF claim with game-core: every attacker move is legal and makes a four (or
/// wins), the defender never has a five of his own, his reply is a five-point of the
/// attacker's (forced), and the line ends in the attacker's five — or, in renju, on a four
/// whose five-points are all forbidden to a black defender.
pub fn check_vcf_line(pos: &Gomoku, board: &Board, win: &ThreatWin) {
    let attacker = pos.turn();
    let mut pos = pos.clone();
    let line: Vec<Cell> = win.line.iter().map(|&p| board.cell(p)).collect();
    assert!(!line.is_empty());
    for (i, &m) in line.iter().enumerate() {
        pos.is_legal(m)
            .unwrap_or_else(|e| panic!("move {i} {m} of {line:?}: {e}"));
        let mover = pos.turn();
        pos.play_unchecked(m);
        if mover == attacker {
            if i + 1 == line.len() {
                if pos.outcome().is_some_and(|o| o.winner == Some(attacker)) {
                    return;
                }
                // No five: only a four the black defender may not block.
                assert_eq!(
                    pos.rule(),
                    GomokuRule::Renju,
                    "{line:?} ends without a five"
                );
                let fives = winning_cells(&pos, attacker);
                assert!(!fives.is_empty(), "{line:?} ends without a four");
                assert!(
                    fives.iter().all(|&f| pos.forbidden_kind(f).is_some()),
                    "{line:?}: black can block"
                );
                return;
            }
            assert!(pos.outcome().is_none(), "{line:?}: over early");
            assert!(
                !winning_cells(&pos, attacker).is_empty(),
                "{line:?}: move {i} {m} is not a four"
            );
            assert!(
                winning_cells(&pos, attacker.other()).is_empty(),
                "{line:?}: the defender has a five after move {i}"
            );
        }
    }
    panic!("{line:?} does not end with the attacker");
}

/// Checks that each defender reply in a VCF line was forced (the attacker's five-point).
pub fn check_replies_forced(pos: &Gomoku, board: &Board, win: &ThreatWin) {
    let attacker = pos.turn();
    let mut pos = pos.clone();
    for &p in &win.line {
        let m = board.cell(p);
        if pos.turn() != attacker {
            assert!(
                winning_cells(&pos, attacker).contains(&m),
                "the reply {m} is not forced"
            );
        }
        pos.play_unchecked(m);
    }
}

/// An engine whose root threat searches may spend `own` nodes on its own wins and `defence`
/// on the opponent's, under Depth limits: enough to prove the long wins of real games (and
/// still deterministic).
pub fn thorough_engine(own: u64, defence: u64) -> GomokuEngine {
    GomokuEngine::with_tt_bits(16).with_fixed_threat_budget(FixedThreatBudget {
        own,
        defence,
        vct_plies: 29,
        ..FixedThreatBudget::default()
    })
}

pub fn freestyle(moves: &str) -> Gomoku {
    match parse_position(moves, 15, GomokuRule::Freestyle).expect("a position") {
        AnyPosition::Gomoku(pos) => pos,
        _ => unreachable!("a Gomoku position"),
    }
}

/// The opponent's win by force in `pos` (whoever is to move): a VCF, or a VCT of at most
/// `vct_plies`, looked for with `nodes` nodes each; `None` when both searches end without.
pub fn forced_win(pos: &Gomoku, vct_plies: u32, nodes: u64) -> Option<Option<Cell>> {
    let mut board = Board::from_position(pos);
    let mut threats = ThreatSearch::new(18);
    threats.set_budget(nodes, None, None);
    if let Some(win) = threats.vcf(&mut board, 41) {
        return Some(Some(board.cell(win.line[0])));
    }
    let complete = !threats.aborted();
    for plies in (9..=vct_plies).step_by(4) {
        if let Some(win) = threats.vct(&mut board, plies) {
            return Some(Some(board.cell(win.line[0])));
        }
    }
    (!complete || threats.aborted()).then_some(None)
}
