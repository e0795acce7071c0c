//! A position set up by hand (the analysis board's): its cells as text, row by row from the
//! top of the board as drawn (`X` black, `O` white, `-` or `.` empty, `#` a blocked Connect
//! Four cell), a space and the side to move (`X` or `O`). Othello's start is
//! `---------------------------OX------XO--------------------------- X`. Gomoku and Connect Four
//! take the side to move from the stones (black when the counts are equal), so the one written
//! must agree; a Connect Four disc must stand on another or on the floor.
//!
//! ```
//! use game_core::{setup, Color, GameSpec, GomokuRule};
//!
//! // A 5x5 board with one black stone in the middle: white to move.
//! let text = format!("{}X{} O", "-".repeat(12), "-".repeat(12));
//! let pos = setup::position_from_text(&GameSpec::gomoku(5, GomokuRule::Freestyle), &text).unwrap();
//! assert_eq!(pos.turn(), Color::White);
//! ```

use crate::connect4::ConnectFour;
use crate::gomoku::Gomoku;
use crate::othello::Othello;
use crate::{AnyPosition, Cell, Color, GameSpec};

/// The position `text` sets up on the board of `spec`; why not, in a sentence.
pub fn position_from_text(spec: &GameSpec, text: &str) -> Result<AnyPosition, String> {
    let (cells, side) = text
        .trim()
        .rsplit_once(' ')
        .ok_or("a position is its cells, a space and the side to move (X or O)")?;
    let turn = match side {
        "X" | "x" => Color::Black,
        "O" | "o" => Color::White,
        other => return Err(format!("the side to move is X or O, not {other:?}")),
    };
    let cells: Vec<char> = cells.chars().filter(|c| !c.is_whitespace()).collect();
    let position = match spec {
        GameSpec::Othello => {
            let text: String = cells.iter().collect();
            AnyPosition::Othello(
                Othello::from_text(&format!("{text} {side}")).map_err(|e| e.to_string())?,
            )
        }
        GameSpec::Gomoku { size, rule, .. } => {
            let n = usize::try_from(*size).unwrap_or(0);
            expect_len(&cells, n * n)?;
            let (mut black, mut white) = (Vec::new(), Vec::new());
            for (i, c) in cells.iter().enumerate() {
                let cell = Cell::new((i % n) as u8, (n - 1 - i / n) as u8);
                match c {
                    'X' | 'x' => black.push(cell),
                    'O' | 'o' => white.push(cell),
                    '-' | '.' => {}
                    other => return Err(format!("{other:?} is no Gomoku cell (X, O or -)")),
                }
            }
            AnyPosition::Gomoku(
                Gomoku::from_stones(*size as u8, *rule, &black, &white)
                    .map_err(|e| e.to_string())?,
            )
        }
        GameSpec::Connect4 { cols, rows, .. } => {
            let (c, r) = (
                usize::try_from(*cols).unwrap_or(0),
                usize::try_from(*rows).unwrap_or(0),
            );
            expect_len(&cells, c * r)?;
            let board: Vec<String> = cells
                .chunks(c)
                .map(|row| {
                    row.iter()
                        .map(|&x| {
                            if x == '-' {
                                '.'
                            } else {
                                x.to_ascii_uppercase()
                            }
                        })
                        .collect()
                })
                .collect();
            AnyPosition::Connect4(
                ConnectFour::from_board_text(&board.join("/")).map_err(|e| e.to_string())?,
            )
        }
    };
    if position.turn() != turn {
        return Err(format!(
            "{} is to move on this board: the stones say so",
            position.turn().as_str()
        ));
    }
    Ok(position)
}

fn expect_len(cells: &[char], n: usize) -> Result<(), String> {
    if cells.len() == n {
        Ok(())
    } else {
        Err(format!(
            "the board has {n} cells; the text gives {}",
            cells.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GomokuRule;

    #[test]
    fn each_game_reads_its_set_up_board() {
        let gomoku = GameSpec::gomoku(5, GomokuRule::Freestyle);
        let text = format!("{}{}{} O", "-".repeat(12), "X", "-".repeat(12));
        let pos = position_from_text(&gomoku, &text).unwrap();
        assert_eq!(pos.turn(), Color::White);
        assert!(pos.board_text().contains('x'));
        let othello = "---------------------------OX------XO--------------------------- X";
        let pos = position_from_text(&GameSpec::Othello, othello).unwrap();
        assert_eq!(pos.legal_moves().len(), 4);
        let c4 = format!("{}---X--- O", "-".repeat(35));
        let pos = position_from_text(&GameSpec::connect4(7, 6), &c4).unwrap();
        assert_eq!(pos.turn(), Color::White);
    }

    #[test]
    fn a_board_that_cannot_stand_is_refused_with_its_reason() {
        let gomoku = GameSpec::gomoku(5, GomokuRule::Freestyle);
        let wrong_side = format!("{}X{} X", "-".repeat(12), "-".repeat(12));
        assert!(position_from_text(&gomoku, &wrong_side)
            .unwrap_err()
            .contains("white is to move"));
        assert!(position_from_text(&gomoku, "--- X")
            .unwrap_err()
            .contains("25 cells"));
        assert!(position_from_text(&gomoku, "XO").is_err());
        let floating = format!("---X---{} O", "-".repeat(35));
        assert!(position_from_text(&GameSpec::connect4(7, 6), &floating).is_err());
        assert!(position_from_text(&GameSpec::Othello, "XO X").is_err());
    }
}
