//! Reading Connect Four positions in the `kibitz analyze` formats (docs/engines.md): a move string
//! with the board size given apart, or a board text with `/` between rows.

use game_core::connect4::{parse_move_string, ConnectFour};
use game_core::{AnyPosition, Cell, Position};

/// The board a move string is played on (board texts carry their own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptions {
    pub cols: u8,
    pub rows: u8,
    /// 0-based (column, row from the bottom).
    pub blocked: Vec<Cell>,
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions {
            cols: 7,
            rows: 6,
            blocked: Vec::new(),
        }
    }
}

/// Parses one input line: a board text if its first word has a `/` or one of the cell
/// characters `.XO#`, else a move string (1-based columns, comma-separated above 9 columns;
/// anything after the first space is ignored) played from the empty board of `options`.
pub fn parse_position(line: &str, options: &BoardOptions) -> Result<AnyPosition, String> {
    let first = line.split_whitespace().next().unwrap_or("");
    let is_board = first.contains('/') || first.bytes().any(|b| b".XOx#".contains(&b));
    if is_board {
        return ConnectFour::from_board_text(first)
            .map(AnyPosition::Connect4)
            .map_err(|e| format!("bad board text: {e}"));
    }
    let mut position = ConnectFour::new(options.cols, options.rows, &options.blocked)
        .map_err(|e| format!("bad board: {e}"))?;
    let moves = parse_move_string(first, options.cols).map_err(|e| e.to_string())?;
    for (i, m) in moves.into_iter().enumerate() {
        position = position
            .play(m)
            .map_err(|e| format!("move {} ({m}): {}", i + 1, e.error))?;
    }
    Ok(AnyPosition::Connect4(position))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c4(p: AnyPosition) -> ConnectFour {
        match p {
            AnyPosition::Connect4(p) => p,
            _ => panic!("not a Connect Four position"),
        }
    }

    #[test]
    fn reads_move_strings_and_board_texts() {
        let opts = BoardOptions::default();
        let p = c4(parse_position("4453 -3", &opts).unwrap());
        assert_eq!(p.ply(), 4);
        assert_eq!(
            p.to_board_text(),
            "......./......./......./......./...O.../..OXX.."
        );
        let q =
            c4(parse_position("......./......./......./......./...O.../..OXX.. 3", &opts).unwrap());
        assert_eq!(q, p);
        let wide = BoardOptions {
            cols: 10,
            rows: 5,
            blocked: vec![Cell::new(9, 0)],
        };
        let p = c4(parse_position("10,3,4", &wide).unwrap());
        assert_eq!(
            p.to_board_text(),
            "........../........../........../.........X/..OX.....#"
        );
        assert_eq!(c4(parse_position("", &opts).unwrap()).ply(), 0);
    }

    #[test]
    fn rejects_bad_lines_with_a_message() {
        let opts = BoardOptions::default();
        for bad in [
            "4a",
            "8",
            "0",
            "4444444",
            "..X/...",
            "....../....../....../....../......./.......",
        ] {
            let err = parse_position(bad, &opts).unwrap_err();
            assert!(!err.is_empty(), "{bad}");
        }
    }
}
