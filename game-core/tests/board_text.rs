//! `AnyPosition::board_text`: the picture of a position the lobby sends, row by row from the
//! top as the board is drawn, for each game's own row numbering.

use game_core::{AnyPosition, GameSpec, GomokuRule};

fn text(spec: &GameSpec, moves: &[&str]) -> String {
    AnyPosition::with_moves(spec, moves).unwrap().board_text()
}

#[test]
fn gomoku_rows_come_from_the_top() {
    let board = text(
        &GameSpec::gomoku(5, GomokuRule::Freestyle),
        &["a1", "e5", "c3"],
    );
    assert_eq!(board, "....o/...../..x../...../x....".replace('/', ""));
}

#[test]
fn othello_rows_come_in_notation_order() {
    let board = text(&GameSpec::Othello, &["f5"]);
    let rows: Vec<&str> = (0..8).map(|r| &board[r * 8..r * 8 + 8]).collect();
    assert_eq!(rows[3], "...ox...");
    assert_eq!(rows[4], "...xxx..");
    assert_eq!(board.len(), 64);
}

#[test]
fn connect4_shows_blocked_cells_and_stones_from_the_bottom() {
    let spec = GameSpec::Connect4 {
        cols: 4,
        rows: 4,
        blocked: vec![[4, 1]],
    };
    let board = text(&spec, &["1", "2", "4"]);
    assert_eq!(board, "........ ...x xo.#".replace(' ', ""));
}
