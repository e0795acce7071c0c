//! Glicko-2 ratings: which games are rated under which key (one rating per game and rule), the
//! starting values, and one rated game's update, with the hall's two rules on top of the
//! formula: a person's change against a bot is damped, and a bot starts higher. The formula
//! itself is the `skillratings` crate's, checked against Glickman's worked example in the tests.

use game_core::protocol::{RatingChange, RatingOutcome};
use game_core::{Color, GameSpec, GomokuRule};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// The rating keys, in the order leaderboards list them: the live games', then the same
/// games' by correspondence (days per move), rated apart.
pub const KEYS: [&str; 10] = [
    "gomoku-freestyle",
    "gomoku-standard",
    "gomoku-renju",
    "othello",
    "connect4",
    "gomoku-freestyle-corr",
    "gomoku-standard-corr",
    "gomoku-renju-corr",
    "othello-corr",
    "connect4-corr",
];

/// A rating is provisional while its deviation is above this (lichess's threshold): the
/// player has not played enough rated games for it to say much.
pub const PROVISIONAL_RD: f64 = 110.0;

/// Where a person starts.
pub const PERSON_START: f64 = 1500.0;
/// Where a bot starts: higher, as lichess's bots do, so that beating a new bot is not worth a
/// new player's full gain against a 1500 opponent.
pub const BOT_START: f64 = 1800.0;
pub const START_RD: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;

/// A person's rating change in a game against a bot is this share of the formula's: bots are
/// always there to be played, so a person's rating should not move with them as with people.
pub const BOT_DAMPING: f64 = 0.5;

/// The one level a bot plays rated games at: its rating is its full strength's, so a weaker
/// level must not be beaten for points against it.
pub const RATED_BOT_LEVEL: u8 = 10;

/// Rated games a person may play against one bot within [`REPEAT_WINDOW_MS`]; later ones are
/// not rated (farming a bot's weak spot would otherwise inflate a rating).
pub const REPEATS_ALLOWED: u32 = 3;
pub const REPEAT_WINDOW_MS: u64 = 24 * 3600 * 1000;

/// The key a game is rated under: the five standard boards only, with no preset opening
/// moves (a preset position is a different game); `None` for anything else. A
/// correspondence game (days per move) has its own key beside the live one.
#[must_use]
pub fn rating_key(
    spec: &GameSpec,
    preset_opening: bool,
    correspondence: bool,
) -> Option<&'static str> {
    if preset_opening {
        return None;
    }
    let index = match spec {
        GameSpec::Gomoku { size: 15, rule, .. } => match rule {
            GomokuRule::Freestyle => 0,
            GomokuRule::Standard => 1,
            GomokuRule::Renju => 2,
        },
        GameSpec::Othello => 3,
        GameSpec::Connect4 {
            cols: 7,
            rows: 6,
            blocked,
        } if blocked.is_empty() => 4,
        _ => return None,
    };
    Some(KEYS[if correspondence { index + 5 } else { index }])
}

/// What black scored in a game that ended with `result`: 1, ½ or 0; `None` for an aborted
/// game, which rates nothing.
#[must_use]
pub fn black_score(result: &game_core::protocol::GameResult) -> Option<f64> {
    match result.result {
        game_core::protocol::ResultKind::Black => Some(1.0),
        game_core::protocol::ResultKind::White => Some(0.0),
        game_core::protocol::ResultKind::Draw => Some(0.5),
        game_core::protocol::ResultKind::Aborted => None,
    }
}

/// One player's rating under one key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

impl Rating {
    /// A player's first rating.
    #[must_use]
    pub fn start(bot: bool) -> Rating {
        Rating {
            rating: if bot { BOT_START } else { PERSON_START },
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }

    #[must_use]
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            rd: g.deviation,
            volatility: g.volatility,
        }
    }
}

/// One side of a rated game.
#[derive(Clone, Copy, Debug)]
pub struct Side {
    pub rating: Rating,
    pub bot: bool,
}

/// The formula's settings: τ = 0.5, the middle of Glickman's advised 0.3–1.2 (how fast the
/// volatility may move).
fn config() -> Glicko2Config {
    Glicko2Config {
        tau: 0.5,
        convergence_tolerance: 0.000_001,
    }
}

/// Both sides' ratings after one game; `black_score` is 1 for a black win, 0.5 for a draw,
/// 0 for a white win. Each game is its own rating period (ratings move at once, as on lichess).
#[must_use]
pub fn rate_game(black: Side, white: Side, black_score: f64) -> (Rating, Rating) {
    let outcome = if black_score > 0.75 {
        Outcomes::WIN
    } else if black_score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (b, w) = glicko2(
        &black.rating.glicko(),
        &white.rating.glicko(),
        &outcome,
        &config(),
    );
    (
        damped(black, white, Rating::from_glicko(b)),
        damped(white, black, Rating::from_glicko(w)),
    )
}

/// A person's new rating against a bot moves only [`BOT_DAMPING`] of the way (the deviation
/// and volatility as the formula says: the game did tell something about the person).
fn damped(me: Side, opponent: Side, after: Rating) -> Rating {
    if me.bot || !opponent.bot {
        return after;
    }
    Rating {
        rating: me.rating.rating + (after.rating - me.rating.rating) * BOT_DAMPING,
        ..after
    }
}

/// One seat of a rated game as the store reads it: its account and its rating before.
#[derive(Clone, Debug)]
pub struct SeatRating {
    pub player: String,
    pub name: String,
    pub bot: bool,
    pub rating: Rating,
    /// Rated games under this key so far.
    pub games: u64,
}

/// The person and the bot of a game between a person and a bot, whose rated games together
/// are counted against [`REPEATS_ALLOWED`].
#[must_use]
pub fn farming_pair<'a>(
    black: &'a SeatRating,
    white: &'a SeatRating,
) -> Option<(&'a str, &'a str)> {
    match (black.bot, white.bot) {
        (false, true) => Some((&black.player, &white.player)),
        (true, false) => Some((&white.player, &black.player)),
        _ => None,
    }
}

/// What a rated game settles: the outcome told to the players and, when it counts, both
/// sides' new ratings (black, white).
#[derive(Clone, Debug)]
pub struct Settled {
    pub outcome: RatingOutcome,
    pub after: Option<[Rating; 2]>,
}

/// Settles a rated game whose person has already played `repeats` rated games against the
/// same bot within the window (0 between two people or two bots).
#[must_use]
pub fn settle(black: &SeatRating, white: &SeatRating, black_score: f64, repeats: u32) -> Settled {
    if repeats >= REPEATS_ALLOWED {
        return Settled {
            outcome: RatingOutcome {
                changes: Vec::new(),
                unrated: Some("repeat".into()),
            },
            after: None,
        };
    }
    let side = |s: &SeatRating| Side {
        rating: s.rating,
        bot: s.bot,
    };
    let (b, w) = rate_game(side(black), side(white), black_score);
    let changes = vec![
        change(
            Color::Black,
            black.player.clone(),
            black.name.clone(),
            black.rating.rating,
            b.rating,
            b.rd,
        ),
        change(
            Color::White,
            white.player.clone(),
            white.name.clone(),
            white.rating.rating,
            w.rating,
            w.rd,
        ),
    ];
    Settled {
        outcome: RatingOutcome {
            changes,
            unrated: None,
        },
        after: Some([b, w]),
    }
}

/// The key and black's score of a rated room's end, if it is to be rated at all: a game of a
/// rated kind, played from the empty board, with a result (not aborted). The first step of
/// settling a room in either store.
#[must_use]
pub fn settlement_key(
    spec: &GameSpec,
    preset_opening: bool,
    correspondence: bool,
    result: &game_core::protocol::GameResult,
) -> Option<(&'static str, f64)> {
    Some((
        rating_key(spec, preset_opening, correspondence)?,
        black_score(result)?,
    ))
}

/// A player's rating under a key, as a store writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub player: String,
    pub key: &'static str,
    pub rating: Rating,
    /// Rated games under the key, this one included.
    pub games: u64,
}

/// One side's change of a settled room, as a store writes it (`rating_changes`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChangeRow {
    pub color: Color,
    pub player: String,
    pub name: String,
    pub opponent: String,
    pub key: &'static str,
    pub before: f64,
    pub after: f64,
    pub rd: f64,
}

/// What a store writes to settle a rated room: its reads are the store's, this decision is
/// the same for both (one function, so that the stores cannot drift).
#[derive(Clone, Debug, PartialEq)]
pub enum Settlement {
    /// The room is not rated after all (`rooms.unrated`: the reason).
    Unrated(Option<String>),
    /// Both sides' new ratings and their changes, black first.
    Rated {
        ratings: Box<[RatingRow; 2]>,
        changes: Box<[ChangeRow; 2]>,
    },
}

/// Settles a rated room under `key` from the seats' ratings as stored and the person's
/// `repeats` against the same bot within the window (see [`settle`]).
#[must_use]
pub fn settlement(
    black: &SeatRating,
    white: &SeatRating,
    key: &'static str,
    black_score: f64,
    repeats: u32,
) -> Settlement {
    let settled = settle(black, white, black_score, repeats);
    let Some([b, w]) = settled.after else {
        return Settlement::Unrated(settled.outcome.unrated);
    };
    let row = |seat: &SeatRating, new: Rating| RatingRow {
        player: seat.player.clone(),
        key,
        rating: new,
        games: seat.games + 1,
    };
    let change = |color, seat: &SeatRating, opponent: &SeatRating, new: Rating| ChangeRow {
        color,
        player: seat.player.clone(),
        name: seat.name.clone(),
        opponent: opponent.player.clone(),
        key,
        before: seat.rating.rating,
        after: new.rating,
        rd: new.rd,
    };
    Settlement::Rated {
        ratings: Box::new([row(black, b), row(white, w)]),
        changes: Box::new([
            change(Color::Black, black, white, b),
            change(Color::White, white, black, w),
        ]),
    }
}

/// What a settled room tells: `unrated`'s reason when it was not rated after all, else its
/// changes, black first (`None`: nothing settled, the room not rated or not over).
#[must_use]
pub fn outcome(unrated: Option<String>, mut changes: Vec<RatingChange>) -> Option<RatingOutcome> {
    if let Some(reason) = unrated {
        return Some(RatingOutcome {
            changes: Vec::new(),
            unrated: Some(reason),
        });
    }
    if changes.is_empty() {
        return None;
    }
    changes.sort_by_key(|c| c.color.index());
    Some(RatingOutcome {
        changes,
        unrated: None,
    })
}

/// One side's change as players see it: whole points.
#[must_use]
pub fn change(
    color: Color,
    player: String,
    name: String,
    before: f64,
    after: f64,
    rd: f64,
) -> RatingChange {
    RatingChange {
        color,
        player,
        name,
        before: before.round() as i32,
        after: after.round() as i32,
        rd: rd.round() as i32,
        provisional: rd > PROVISIONAL_RD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glicko-2 as Glickman's paper ("Example of the Glicko-2 system", 2013) writes it, step
    /// by step, for one player and a list of (opponent rating, opponent RD, score): the
    /// reference the crate's computation is checked against.
    fn reference(r: f64, rd: f64, sigma: f64, games: &[(f64, f64, f64)], tau: f64) -> Rating {
        const SCALE: f64 = 173.7178;
        let mu = (r - 1500.0) / SCALE;
        let phi = rd / SCALE;
        let g =
            |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
        let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        let mut v_inv = 0.0;
        let mut delta_sum = 0.0;
        for &(rj, rdj, s) in games {
            let (mu_j, phi_j) = ((rj - 1500.0) / SCALE, rdj / SCALE);
            let ej = e(mu_j, phi_j);
            v_inv += g(phi_j).powi(2) * ej * (1.0 - ej);
            delta_sum += g(phi_j) * (s - ej);
        }
        let v = 1.0 / v_inv;
        let delta = v * delta_sum;
        // Step 5: the new volatility by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut fa, mut fb) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > 0.000_001 {
            let big_c = big_a + (big_a - big_b) * fa / (fb - fa);
            let fc = f(big_c);
            if fc * fb <= 0.0 {
                big_a = big_b;
                fa = fb;
            } else {
                fa /= 2.0;
            }
            big_b = big_c;
            fb = fc;
        }
        let sigma2 = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * delta_sum;
        Rating {
            rating: mu2 * SCALE + 1500.0,
            rd: phi2 * SCALE,
            volatility: sigma2,
        }
    }

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn the_reference_computes_glickmans_worked_example() {
        // The paper's player: 1500 / 200 / 0.06 against 1400/30 (won), 1550/100 (lost),
        // 1700/300 (lost), τ = 0.5: r' = 1464.06, RD' = 151.52, σ' = 0.05999.
        let games = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let after = reference(1500.0, 200.0, 0.06, &games, 0.5);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rd, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_rated_game_matches_the_reference_for_both_sides_and_every_result() {
        let people = [
            Rating {
                rating: 1500.0,
                rd: 350.0,
                volatility: 0.06,
            },
            Rating {
                rating: 1720.5,
                rd: 80.0,
                volatility: 0.059,
            },
            Rating {
                rating: 1310.0,
                rd: 140.0,
                volatility: 0.0605,
            },
        ];
        for black in people {
            for white in people {
                for score in [1.0, 0.5, 0.0] {
                    let side = |rating| Side { rating, bot: false };
                    let (b, w) = rate_game(side(black), side(white), score);
                    let rb = reference(
                        black.rating,
                        black.rd,
                        black.volatility,
                        &[(white.rating, white.rd, score)],
                        0.5,
                    );
                    let rw = reference(
                        white.rating,
                        white.rd,
                        white.volatility,
                        &[(black.rating, black.rd, 1.0 - score)],
                        0.5,
                    );
                    for (got, want) in [(b, rb), (w, rw)] {
                        assert!(close(got.rating, want.rating, 0.01), "{got:?} {want:?}");
                        assert!(close(got.rd, want.rd, 0.01), "{got:?} {want:?}");
                        assert!(
                            close(got.volatility, want.volatility, 0.00001),
                            "{got:?} {want:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_person_s_change_against_a_bot_is_halved_and_the_bot_s_is_not() {
        let person = Side {
            rating: Rating::start(false),
            bot: false,
        };
        let bot = Side {
            rating: Rating::start(true),
            bot: true,
        };
        let (p, b) = rate_game(person, bot, 1.0);
        let full = reference(
            PERSON_START,
            START_RD,
            START_VOLATILITY,
            &[(BOT_START, START_RD, 1.0)],
            0.5,
        );
        assert!(close(
            p.rating - PERSON_START,
            (full.rating - PERSON_START) / 2.0,
            0.01
        ));
        assert!(close(p.rd, full.rd, 0.01));
        let bot_full = reference(
            BOT_START,
            START_RD,
            START_VOLATILITY,
            &[(PERSON_START, START_RD, 0.0)],
            0.5,
        );
        assert!(close(b.rating, bot_full.rating, 0.01));
        // Bot against bot: no damping.
        let (b1, _) = rate_game(bot, bot, 1.0);
        let bb = reference(
            BOT_START,
            START_RD,
            START_VOLATILITY,
            &[(BOT_START, START_RD, 1.0)],
            0.5,
        );
        assert!(close(b1.rating, bb.rating, 0.01));
    }

    #[test]
    fn a_person_s_fourth_game_against_one_bot_within_a_day_is_not_rated() {
        let seat = |player: &str, bot| SeatRating {
            player: player.into(),
            name: player.into(),
            bot,
            rating: Rating::start(bot),
            games: 0,
        };
        let (ann, kibot, bea) = (seat("ann", false), seat("kibot", true), seat("bea", false));
        assert_eq!(farming_pair(&kibot, &ann), Some(("ann", "kibot")));
        assert_eq!(farming_pair(&ann, &bea), None);
        let third = settle(&ann, &kibot, 1.0, REPEATS_ALLOWED - 1);
        assert_eq!(third.outcome.changes.len(), 2);
        assert!(third.after.is_some());
        assert!(third.outcome.changes[0].after > third.outcome.changes[0].before);
        let fourth = settle(&ann, &kibot, 1.0, REPEATS_ALLOWED);
        assert_eq!(fourth.outcome.unrated.as_deref(), Some("repeat"));
        assert!(fourth.after.is_none() && fourth.outcome.changes.is_empty());
        // What a store writes for them.
        let unrated = settlement(&ann, &kibot, "othello", 1.0, REPEATS_ALLOWED);
        assert_eq!(unrated, Settlement::Unrated(Some("repeat".into())));
        let Settlement::Rated { ratings, changes } = settlement(&ann, &bea, "othello", 1.0, 0)
        else {
            panic!("two people's game is rated");
        };
        assert_eq!((ratings[0].games, ratings[1].games), (1, 1));
        assert!(ratings[0].rating.rating > ann.rating.rating);
        assert_eq!(
            (changes[0].color, changes[1].color),
            (Color::Black, Color::White)
        );
        assert_eq!(
            (changes[0].opponent.as_str(), changes[1].opponent.as_str()),
            ("bea", "ann")
        );
        assert_eq!(changes[1].after, ratings[1].rating.rating);
    }

    #[test]
    fn only_the_standard_boards_without_a_preset_opening_are_rated() {
        let spec = |json: &str| -> GameSpec { serde_json::from_str(json).unwrap() };
        assert_eq!(
            rating_key(&spec(r#"{"kind":"gomoku","size":15}"#), false, false),
            Some("gomoku-freestyle")
        );
        assert_eq!(
            rating_key(
                &spec(r#"{"kind":"gomoku","size":15,"rule":"renju"}"#),
                false,
                false
            ),
            Some("gomoku-renju")
        );
        assert_eq!(
            rating_key(&spec(r#"{"kind":"gomoku","size":19}"#), false, false),
            None
        );
        assert_eq!(
            rating_key(&spec(r#"{"kind":"othello"}"#), false, false),
            Some("othello")
        );
        assert_eq!(
            rating_key(&spec(r#"{"kind":"othello"}"#), true, false),
            None
        );
        assert_eq!(
            rating_key(
                &spec(r#"{"kind":"connect4","cols":7,"rows":6}"#),
                false,
                false
            ),
            Some("connect4")
        );
        assert_eq!(
            rating_key(
                &spec(r#"{"kind":"connect4","cols":7,"rows":6,"blocked":[[4,1]]}"#),
                false,
                false
            ),
            None
        );
        assert_eq!(
            rating_key(&spec(r#"{"kind":"othello"}"#), false, true),
            Some("othello-corr")
        );
        assert_eq!(
            rating_key(
                &spec(r#"{"kind":"gomoku","size":15,"rule":"renju"}"#),
                false,
                true
            ),
            Some("gomoku-renju-corr")
        );
        assert!(Rating::start(false).provisional());
        assert!(!Rating {
            rating: 1500.0,
            rd: 100.0,
            volatility: 0.06
        }
        .provisional());
    }
}
