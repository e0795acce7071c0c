//! A tournament as the HTTP API shows it: the document's facts, names beside player ids, points
//! as numbers (a draw is 0.5) where the document counts half-points, and the standings —
//! rank, points, games, wins, byes, Buchholz and Sonneborn-Berger — computed from the results
//! so far. Also the short line of a tournament in a list.

use serde::Serialize;

use game_core::protocol::{ClockSpec, ResultKind};
use game_core::GameSpec;

use super::document::{Entrant, Kind, Status, Tournament};
use super::pairing;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingLine {
    /// 1..=n, never shared; `tied` says when only the seed split this line from the one above.
    pub rank: usize,
    pub player: String,
    pub name: String,
    pub bot: bool,
    /// A bot's level, when it was entered at one (one bot may be entered at several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Points: a win 1, a draw 0.5, a bye 1.
    pub points: f64,
    /// Games played over the board (byes not counted), and of those the ones won.
    pub games: u32,
    pub wins: u32,
    pub byes: u32,
    /// The sum of the points of every opponent met (a bye adds nothing).
    pub buchholz: f64,
    /// The points of the opponents beaten plus half the points of those drawn.
    pub sonneborn_berger: f64,
    pub tied: bool,
}

/// One game of a round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameView {
    pub room: String,
    /// The players' names, and their ids.
    pub black: String,
    pub white: String,
    pub black_player: String,
    pub white_player: String,
    /// `black`, `white`, `draw` or `aborted` once over; `null` while it is played.
    pub result: Option<ResultKind>,
    /// What each side scored, once over.
    pub black_points: Option<f64>,
    pub white_points: Option<f64>,
    /// The levels of the bots entered at one (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_level: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_level: Option<u8>,
    /// The name of a bot whose every place is taken, whose free place the room waits for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waits_for: Option<String>,
}

/// One round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundView {
    /// 1-based.
    pub round: usize,
    pub games: Vec<GameView>,
    /// Who sat this round out (and scored a win for it), by name and id.
    pub bye: Option<String>,
    pub bye_player: Option<String>,
}

/// A whole tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentView {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub status: Status,
    pub game: GameSpec,
    pub clock: ClockSpec,
    pub rounds: Option<u32>,
    /// Rounds paired so far (the current one included).
    pub round: usize,
    pub rated: bool,
    pub creator: String,
    pub creator_name: String,
    pub created_ms: u64,
    pub started_ms: Option<u64>,
    pub finished_ms: Option<u64>,
    pub players: Vec<Entrant>,
    pub pairings: Vec<RoundView>,
    pub standings: Vec<StandingLine>,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ListLine {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    pub status: Status,
    pub players: usize,
    pub game: GameSpec,
    pub clock: ClockSpec,
    pub rounds: Option<u32>,
    pub round: usize,
    pub created_ms: u64,
    pub rated: bool,
}

/// Half-points as points.
fn points(half: u64) -> f64 {
    half as f64 / 2.0
}

/// The standings after the results so far: by points, Buchholz, Sonneborn-Berger, then seed.
/// A document whose results do not add up (it cannot happen: every step checks them) shows
/// none rather than failing the page.
#[must_use]
pub fn standings(t: &Tournament) -> Vec<StandingLine> {
    let (games, byes) = t.results();
    let Ok(table) = pairing::standings(&t.seeds(), &games, &byes) else {
        tracing::error!(tournament = %t.id, "the results of a tournament do not add up");
        return Vec::new();
    };
    table
        .into_iter()
        .map(|s| {
            let (name, bot, level) = t
                .entrant(&s.player)
                .map_or((String::new(), false, None), |e| {
                    (e.name.clone(), e.bot, e.level)
                });
            StandingLine {
                rank: s.rank,
                name,
                bot,
                level,
                points: points(s.points),
                games: s.games,
                wins: s.wins,
                byes: s.byes,
                buchholz: points(s.buchholz),
                // Quarter-points.
                sonneborn_berger: s.sonneborn_berger as f64 / 4.0,
                tied: s.tied_with_previous,
                player: s.player,
            }
        })
        .collect()
}

/// The tournament with its standings.
#[must_use]
pub fn view(t: &Tournament) -> TournamentView {
    let name_of = |player: &str| {
        t.entrant(player)
            .map_or_else(String::new, |e| e.name.clone())
    };
    let level_of = |player: &str| t.entrant(player).and_then(|e| e.level);
    let pairings = t
        .pairings
        .iter()
        .enumerate()
        .map(|(i, round)| RoundView {
            round: i + 1,
            games: round
                .games
                .iter()
                .map(|g| GameView {
                    room: g.room.clone(),
                    black: name_of(&g.black),
                    white: name_of(&g.white),
                    black_player: g.black.clone(),
                    white_player: g.white.clone(),
                    result: g.result,
                    black_points: g.black_points.map(|p| points(u64::from(p))),
                    white_points: g
                        .black_points
                        .map(|p| points(u64::from(2u8.saturating_sub(p)))),
                    black_level: level_of(&g.black),
                    white_level: level_of(&g.white),
                    waits_for: g.waits_for.as_deref().map(name_of),
                })
                .collect(),
            bye: round.bye.as_deref().map(name_of),
            bye_player: round.bye.clone(),
        })
        .collect();
    TournamentView {
        id: t.id.clone(),
        name: t.name.clone(),
        kind: t.kind,
        status: t.status,
        game: t.game.clone(),
        clock: t.clock,
        rounds: t.rounds,
        round: t.pairings.len(),
        rated: t.rated,
        creator: t.creator.clone(),
        creator_name: t.creator_name.clone(),
        created_ms: t.created_ms,
        started_ms: t.started_ms,
        finished_ms: t.finished_ms,
        players: t.players.clone(),
        pairings,
        standings: standings(t),
    }
}

/// The tournament's line in a list.
#[must_use]
pub fn list_line(t: &Tournament) -> ListLine {
    ListLine {
        id: t.id.clone(),
        name: t.name.clone(),
        kind: t.kind,
        status: t.status,
        players: t.players.len(),
        game: t.game.clone(),
        clock: t.clock,
        rounds: t.rounds,
        round: t.pairings.len(),
        created_ms: t.created_ms,
        rated: t.rated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::document::NewTournament;

    fn entrant(name: &str) -> Entrant {
        Entrant {
            level: None,
            account: None,
            player: format!("id-{name}"),
            name: name.to_string(),
            bot: false,
        }
    }

    /// A three-player round-robin after its rounds: Alice beat Bob, Bob drew Carol, Carol beat
    /// Alice... as paired by the table, whoever sits where.
    #[test]
    fn standings_count_points_byes_and_tie_breaks_in_points() {
        let asked = NewTournament {
            name: "Cup".into(),
            kind: Kind::RoundRobin,
            game: GameSpec::Othello,
            clock: ClockSpec::PerMove { move_ms: 5_000 },
            rounds: None,
            rated: false,
        };
        let mut t = Tournament::new("t1".into(), asked, &entrant("Alice"), 0).unwrap();
        for name in ["Alice", "Bob", "Carol"] {
            t.join(entrant(name)).unwrap();
        }
        t.start("id-Alice", 1).unwrap();
        let mut n = 0;
        while t
            .pair_next_round(|| {
                n += 1;
                format!("r{n}")
            })
            .unwrap()
        {
            let g = t.current_round().unwrap().games[0].clone();
            // A draw between Bob and Carol; otherwise whoever is Alice wins... or loses to
            // Carol.
            let pair = [g.black.as_str(), g.white.as_str()];
            let black_points = match pair {
                ["id-Bob", "id-Carol"] | ["id-Carol", "id-Bob"] => 1,
                ["id-Alice", "id-Bob"] | ["id-Carol", "id-Alice"] => 2,
                _ => 0,
            };
            let result = match black_points {
                2 => ResultKind::Black,
                1 => ResultKind::Draw,
                _ => ResultKind::White,
            };
            assert!(t.record(&g.room, result, black_points));
        }
        let view = view(&t);
        assert_eq!((view.round, view.pairings.len()), (3, 3));
        let lines: Vec<(&str, f64, u32, u32, u32, f64, f64)> = view
            .standings
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.points,
                    s.games,
                    s.wins,
                    s.byes,
                    s.buchholz,
                    s.sonneborn_berger,
                )
            })
            .collect();
        // Points: Alice 1 + bye 1 = 2, Bob 0.5 + 1 = 1.5, Carol 1.5 + 1 = 2.5.
        // Buchholz: Alice = Bob 1.5 + Carol 2.5 = 4; Bob = 2 + 2.5 = 4.5; Carol = 2 + 1.5.
        // SB: Alice beat Bob (1.5); Bob drew Carol (1.25); Carol beat Alice (2) and drew Bob
        // (0.75).
        assert_eq!(
            lines,
            [
                ("Carol", 2.5, 2, 1, 1, 3.5, 2.75),
                ("Alice", 2.0, 2, 1, 1, 4.0, 1.5),
                ("Bob", 1.5, 2, 0, 1, 4.5, 1.25),
            ]
        );
        let total: f64 = view.standings.iter().map(|s| s.points).sum();
        assert!((total - 6.0).abs() < f64::EPSILON, "3 games and 3 byes");
        let game = &view.pairings[0].games[0];
        let sum = game.black_points.unwrap() + game.white_points.unwrap();
        assert!((sum - 1.0).abs() < f64::EPSILON);
        assert!(view.pairings.iter().all(|r| r.bye.is_some()));
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["standings"][0]["points"], 2.5);
        assert_eq!(json["kind"], "round_robin");
        assert_eq!(list_line(&t).players, 3);
    }
}
