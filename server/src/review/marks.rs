//! Marks on the moves of a reviewed game, from the evaluations alone: a move that gave up a
//! proven win is a missed win; one after which the mover's evaluation fell by at least
//! [`MISTAKE_DROP`] is a mistake. The engine's own move is never marked.

use game_core::protocol::{ReviewMark, ReviewPly};
use game_core::review::EVAL_WIN;
use game_core::Color;

/// The fall of the mover's evaluation (on the -1000..=1000 scale) that makes a mistake.
pub const MISTAKE_DROP: i32 = 300;

/// An evaluation from black's view, seen by `color`.
fn seen_by(color: Color, eval: i32) -> i32 {
    if color == Color::Black {
        eval
    } else {
        -eval
    }
}

/// Sets the mark of every ply: `movers[i]` moved from position `i`; `end` is the final
/// position's evaluation when the game ended on the board (proven by the rules).
pub fn mark_moves(plies: &mut [ReviewPly], movers: &[Color], end: Option<i32>) {
    let after: Vec<Option<(i32, bool)>> = (0..plies.len())
        .map(|i| match plies.get(i + 1) {
            Some(next) => Some((next.eval, next.proven)),
            None => end.map(|e| (e, true)),
        })
        .collect();
    for (i, ply) in plies.iter_mut().enumerate() {
        ply.mark = None;
        let (Some(&mover), Some((after_eval, after_proven))) = (movers.get(i), after[i]) else {
            continue;
        };
        if ply.played == ply.best {
            continue;
        }
        let before = seen_by(mover, ply.eval);
        let after = seen_by(mover, after_eval);
        let had_win = ply.proven && before == EVAL_WIN;
        let kept_win = after_proven && after == EVAL_WIN;
        if had_win && !kept_win {
            ply.mark = Some(ReviewMark::MissedWin);
        } else if before - after >= MISTAKE_DROP {
            ply.mark = Some(ReviewMark::Mistake);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(eval: i32, proven: bool, best: &str, played: &str) -> ReviewPly {
        ReviewPly {
            eval,
            proven,
            win_in: None,
            best: best.to_string(),
            pv: vec![best.to_string()],
            played: played.to_string(),
            mark: None,
        }
    }

    #[test]
    fn drops_are_mistakes_and_lost_wins_are_missed() {
        use Color::{Black, White};
        let mut plies = vec![
            ply(0, false, "a", "b"),   // black: 0 -> 50, fine
            ply(50, false, "c", "d"),  // white: -50 -> -600 for white: a mistake
            ply(600, false, "e", "e"), // black plays the best move: never marked
            ply(1000, true, "f", "g"), // white... from black's view a proven black win
            ply(1000, true, "h", "i"), // black had the win and threw it away
            ply(100, false, "j", "k"), // white, the last move: the game ended drawn
        ];
        let movers = [Black, White, Black, White, Black, White];
        mark_moves(&mut plies, &movers, Some(0));
        let marks: Vec<_> = plies.iter().map(|p| p.mark).collect();
        assert_eq!(
            marks,
            [
                None,
                Some(ReviewMark::Mistake),
                None,
                None,
                Some(ReviewMark::MissedWin),
                None
            ]
        );
    }

    #[test]
    fn the_last_move_of_a_resigned_game_is_not_marked() {
        let mut plies = vec![ply(900, false, "a", "b")];
        mark_moves(&mut plies, &[Color::Black], None);
        assert_eq!(plies[0].mark, None);
    }
}
