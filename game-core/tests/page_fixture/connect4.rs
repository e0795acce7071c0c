//! Connect Four positions with what the referee says there: the cell a stone dropped in each
//! column lands on (blocked cells skipped, none in a full column), the open columns, and the
//! end of the game with its winning line. Hand-written games win in all four directions on and
//! across blocked cells; generated games are random playouts on random boards.

use game_core::connect4::Column;
use game_core::{AnyPosition, Cell, GameSpec};
use serde::Serialize;

use crate::shared::{line_words, play, position_text, winner_word, Lcg};

#[derive(Serialize)]
pub struct Connect4Case {
    name: String,
    game: GameSpec,
    moves: Vec<String>,
    position: String,
    over: bool,
    winner: Option<&'static str>,
    line: Vec<String>,
    /// The columns the referee takes now (none once the game is over).
    legal: Vec<String>,
    /// For each column, the cell a stone dropped there lands on; null for a full column.
    drops: Vec<Option<String>>,
}

fn spec(cols: u32, rows: u32, blocked: &[[u32; 2]]) -> GameSpec {
    GameSpec::Connect4 {
        cols,
        rows,
        blocked: blocked.to_vec(),
    }
}

fn record(name: &str, game: GameSpec, moves: Vec<String>) -> Connect4Case {
    let pos = play(name, &game, None, &moves);
    let AnyPosition::Connect4(board) = &pos else {
        panic!("{name}: not a connect four position");
    };
    let drops = (0..board.cols())
        .map(|c| {
            let row = board.landing_row(Column(c));
            row.map(|r| Cell::new(c, r).to_string())
        })
        .collect();
    let outcome = pos.outcome();
    Connect4Case {
        name: name.to_string(),
        game,
        moves,
        position: position_text(&pos),
        over: outcome.is_some(),
        winner: winner_word(outcome.as_ref()),
        line: line_words(outcome.as_ref()),
        legal: pos.legal_moves(),
        drops,
    }
}

fn moves(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn hand_written() -> Vec<Connect4Case> {
    let on_blocked = [[1, 1], [2, 1], [3, 1], [4, 1]];
    let up_stairs = [[2, 1], [3, 1], [3, 2], [4, 1], [4, 2], [4, 3]];
    let down_stairs = [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [3, 1]];
    let gap_on_diagonal = [[3, 3], [2, 1], [3, 1], [3, 2], [4, 1], [4, 2], [4, 3]];
    let c7 = |blocked: &[[u32; 2]]| spec(7, 6, blocked);
    #[rustfmt::skip]
    let cases = [
        ("the empty board", c7(&[]), "", "on"),
        ("a column: four in a row up", c7(&[]), "4 3 4 3 4 3 4", "black"),
        ("a row: four standing on blocked cells", c7(&on_blocked), "1 7 2 7 3 7", "on"),
        ("a row: four standing on blocked cells, made", c7(&on_blocked), "1 7 2 7 3 7 4", "black"),
        ("a diagonal up a staircase of blocked cells", c7(&up_stairs), "1 7 2 7 3 7 4", "black"),
        ("an anti-diagonal down a staircase of blocked cells", c7(&down_stairs), "1 7 2 7 3 7 4", "black"),
        ("a blocked cell in a row is no four", c7(&[[4, 1]]), "1 1 2 2 3 3 5", "on"),
        ("a row above a blocked cell", c7(&[[4, 1]]), "1 1 2 2 3 3 5 4", "white"),
        ("a blocked cell in a column is no four; the column full", c7(&[[3, 3]]), "3 5 3 5 3 6 3 6 3", "on"),
        ("a column beside a broken one", c7(&[[3, 3]]), "3 5 3 5 3 6 3 6 3 5 1 5", "white"),
        ("a blocked cell on a diagonal is no four", c7(&gap_on_diagonal), "1 7 2 7 4 7", "on"),
        ("a full column of stones", c7(&[]), "1 1 1 1 1 1", "on"),
        ("a column blocked from the floor up", spec(7, 4, &[[7, 1], [7, 2], [7, 3], [7, 4]]), "4", "on"),
        ("a column blocked mid-air fills below it first", spec(5, 5, &[[2, 4]]), "2 2 2 1", "on"),
        ("a column and a row at once: the column is reported", c7(&[[1, 1], [1, 2], [1, 3], [2, 1], [2, 2], [2, 3], [3, 1], [3, 2], [3, 3]]), "1 7 2 7 3 7 4 6 4 6 4 5 4", "black"),
        ("twelve columns, numbers of two digits", spec(12, 12, &[[11, 1]]), "10 11 10 11 10 11 10", "black"),
    ];
    cases
        .into_iter()
        .map(|(name, game, list, expect)| {
            let case = record(name, game, moves(list));
            assert_eq!(case.winner.unwrap_or("on"), expect, "{name}");
            case
        })
        .collect()
}

/// A random board: 4 to 12 columns and rows, up to a column's worth of blocked cells.
fn random_board(rng: &mut Lcg, max: usize) -> GameSpec {
    let cols = 4 + rng.below(max - 3) as u32;
    let rows = 4 + rng.below(max - 3) as u32;
    let mut blocked: Vec<[u32; 2]> = Vec::new();
    for _ in 0..rng.below(cols as usize + 1) {
        let cell = [
            1 + rng.below(cols as usize) as u32,
            1 + rng.below(rows as usize) as u32,
        ];
        if !blocked.contains(&cell) {
            blocked.push(cell);
        }
    }
    spec(cols, rows, &blocked)
}

/// A random game to its end.
fn playout(rng: &mut Lcg, game: &GameSpec) -> Vec<String> {
    let mut pos = AnyPosition::new(game).expect("a connect four spec");
    let mut moves = Vec::new();
    while !pos.is_over() {
        let m = rng.pick(&pos.legal_moves()).clone();
        pos.play_str(&m).expect("a legal move");
        moves.push(m);
    }
    moves
}

/// Random games on random boards, a position on the way and the end of each; then games on
/// 4x4 boards until three of them fill the board without a four.
fn generated() -> Vec<Connect4Case> {
    let mut rng = Lcg::new(0x5EED_0004);
    let mut out = Vec::new();
    for n in 1..=16 {
        let game = random_board(&mut rng, 12);
        let all = playout(&mut rng, &game);
        let cut = rng.below(all.len());
        out.push(record(
            &format!("random game {n}, after {cut} moves"),
            game.clone(),
            all[..cut].to_vec(),
        ));
        out.push(record(&format!("random game {n}, the end"), game, all));
    }
    let mut draws = 0;
    while draws < 3 {
        let game = random_board(&mut rng, 4);
        let all = playout(&mut rng, &game);
        let case = record(&format!("a full board, drawn {}", draws + 1), game, all);
        if case.winner == Some("draw") {
            draws += 1;
            out.push(case);
        }
    }
    out
}

pub fn cases() -> Vec<Connect4Case> {
    let mut all = hand_written();
    all.extend(generated());
    all
}
