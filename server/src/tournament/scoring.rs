//! What a tournament game scored, read from its finished room: a win 2 half-points, a draw 1
//! each, a loss 0. A game that ended without a result (aborted: a side never made its first
//! move, or never came) is lost by the side that never moved — black when nobody moved —
//! whoever pressed `abort`: in a tournament an abort is a forfeit, not a game that never was.
//! Points go to players, not colours: an opening rule may have swapped the seats during the
//! game, so a colour's points go to whoever sat there at the end.

use game_core::protocol::{ResultKind, RoomStatus};
use game_core::Color;

use super::document::TableGame;
use crate::store::StoredRoom;

/// The move a server plays for a side that cannot move: not a move of the side's own.
const PASS: &str = "pass";

/// The result of `game` (as the tournament records it: `aborted` for none) and what its
/// `black` player scored, once its room `stored` is over; `None` while it goes on.
#[must_use]
pub fn score(game: &TableGame, stored: &StoredRoom) -> Option<(ResultKind, u8)> {
    if stored.status != RoomStatus::Over {
        return None;
    }
    let result = stored
        .result
        .as_ref()
        .map_or(ResultKind::Aborted, |r| r.result);
    let black_seat_points = match result {
        ResultKind::Black => 2,
        ResultKind::White => 0,
        ResultKind::Draw => 1,
        ResultKind::Aborted => match forfeited_by(stored) {
            Some(Color::Black) => 0,
            Some(Color::White) => 2,
            None => 1,
        },
    };
    // The points of whoever sits black now, turned into the points of the player the
    // tournament seated black.
    let sat_black = stored.black.as_ref().map(|s| s.player.as_str());
    let sat_white = stored.white.as_ref().map(|s| s.player.as_str());
    let swapped = sat_black == Some(game.white.as_str()) && sat_white == Some(game.black.as_str());
    let points = if swapped {
        2 - black_seat_points
    } else {
        black_seat_points
    };
    Some((result, points))
}

/// The side that loses an aborted game: the one that never made a move of its own, black
/// first; `None` when both moved (an abort cannot happen then: it would be a draw).
fn forfeited_by(stored: &StoredRoom) -> Option<Color> {
    let moved = |color: Color| stored.moves.iter().any(|m| m.by == color && m.mv != PASS);
    if !moved(Color::Black) {
        Some(Color::Black)
    } else if !moved(Color::White) {
        Some(Color::White)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::protocol::{ClockSpec, GameResult};
    use game_core::{EndReason, GameSpec};

    use crate::store::{StoredMove, StoredRoomHead, StoredSeat};

    fn seat(player: &str) -> Option<StoredSeat> {
        Some(StoredSeat {
            player: player.into(),
            name: player.into(),
            bot: false,
            level: None,
        })
    }

    fn mv(ply: usize, by: Color, mv: &str) -> StoredMove {
        StoredMove {
            ply,
            mv: mv.into(),
            by,
            black_ms: None,
            white_ms: None,
            at_ms: 0,
            req_id: None,
            seq: ply as u64,
        }
    }

    fn room(status: RoomStatus, result: Option<ResultKind>, moves: Vec<StoredMove>) -> StoredRoom {
        StoredRoom {
            head: StoredRoomHead {
                id: "r1".into(),
                game: GameSpec::Othello,
                clock: Some(ClockSpec::PerMove { move_ms: 5_000 }),
                opening: Vec::new(),
                private: false,
                created_ms: 0,
                creator: None,
                rated: false,
            },
            status,
            result: result.map(|result| GameResult {
                result,
                reason: EndReason::Resign,
                line: None,
                score: None,
            }),
            seq: 0,
            black: seat("a"),
            white: seat("b"),
            moves,
            fence: 0,
            rating: None,
        }
    }

    fn game() -> TableGame {
        TableGame {
            room: "r1".into(),
            black: "a".into(),
            white: "b".into(),
            result: None,
            black_points: None,
            waits_for: None,
        }
    }

    #[test]
    fn a_win_scores_two_a_draw_one_and_a_loss_nothing() {
        let over = |r| score(&game(), &room(RoomStatus::Over, Some(r), Vec::new()));
        assert_eq!(over(ResultKind::Black), Some((ResultKind::Black, 2)));
        assert_eq!(over(ResultKind::White), Some((ResultKind::White, 0)));
        assert_eq!(over(ResultKind::Draw), Some((ResultKind::Draw, 1)));
        let playing = room(RoomStatus::Playing, None, Vec::new());
        assert_eq!(score(&game(), &playing), None, "not over yet");
    }

    #[test]
    fn an_aborted_game_is_lost_by_the_side_that_never_moved() {
        let aborted = |moves| {
            score(
                &game(),
                &room(RoomStatus::Over, Some(ResultKind::Aborted), moves),
            )
        };
        assert_eq!(
            aborted(vec![]),
            Some((ResultKind::Aborted, 0)),
            "nobody moved: black"
        );
        assert_eq!(
            aborted(vec![mv(1, Color::Black, "d3")]),
            Some((ResultKind::Aborted, 2))
        );
        // A pass the server played is not a move of white's own.
        let passed = vec![mv(1, Color::Black, "d3"), mv(2, Color::White, PASS)];
        assert_eq!(aborted(passed), Some((ResultKind::Aborted, 2)));
        // Over with no result at all reads as aborted.
        let none = room(RoomStatus::Over, None, vec![mv(1, Color::Black, "d3")]);
        assert_eq!(score(&game(), &none), Some((ResultKind::Aborted, 2)));
        // Both moved (no abort can say so): neither is blamed.
        let both = vec![mv(1, Color::Black, "d3"), mv(2, Color::White, "c3")];
        assert_eq!(aborted(both), Some((ResultKind::Aborted, 1)));
    }

    #[test]
    fn points_follow_the_players_when_an_opening_swapped_their_seats() {
        let mut swapped = room(RoomStatus::Over, Some(ResultKind::Black), Vec::new());
        (swapped.black, swapped.white) = (seat("b"), seat("a"));
        // Black won, and black is now "b", whom the tournament seated white.
        assert_eq!(score(&game(), &swapped), Some((ResultKind::Black, 0)));
    }
}
