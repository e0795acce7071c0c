//! Opening rules (swap2, Soosõrv-8, Taraguchi-10) step by step: after each prefix of choices,
//! the opening state as the server sends it (`opening_state`), the colour whose player acts,
//! the stones on the board and the next choice in game-core's notation; which rules each board
//! takes; and which stone a step leaves on the board, for the spellings a record may hold.

use game_core::opening::{Area, LegalChoice, Opening, OpeningChoice, OpeningView};
use game_core::{AnyPosition, Color, GameSpec, GomokuRule, OpeningRule};
use serde::Serialize;

use crate::shared::{position_text, Lcg};

#[derive(Serialize)]
pub struct OpeningCase {
    name: String,
    game: GameSpec,
    /// The choices made so far, as the record keeps them.
    steps: Vec<String>,
    /// The board after them, and the colour of the next stone.
    position: String,
    view: OpeningView,
    /// The colour whose player decides now; null once the opening is over.
    actor: Option<Color>,
    /// The choice made next in this line, in canonical notation; null at the end.
    next: Option<String>,
}

#[derive(Serialize)]
pub struct RulesCase {
    game: GameSpec,
    rules: Vec<OpeningRule>,
}

#[derive(Serialize)]
pub struct StoneCase {
    step: String,
    stone: Option<String>,
}

/// Every state of one line of choices, the start and the end included.
fn states(name: &str, game: &GameSpec, line: &[String]) -> Vec<OpeningCase> {
    let mut opening = Opening::new(game).expect(name);
    let mut out = Vec::new();
    for k in 0..=line.len() {
        let mut case = OpeningCase {
            name: format!("{name}, step {k}"),
            game: game.clone(),
            steps: line[..k].to_vec(),
            position: position_text(&AnyPosition::Gomoku(opening.position().clone())),
            view: opening.view(),
            actor: opening.to_act().map(|role| opening.color_of(role)),
            next: None,
        };
        if let Some(text) = line.get(k) {
            let by = opening.to_act().expect("the opening runs");
            let choice = opening.apply_str(by, text);
            let choice = choice.unwrap_or_else(|e| panic!("{name}: {text} refused: {e}"));
            case.next = Some(choice.to_string());
        }
        out.push(case);
    }
    assert!(opening.is_over(), "{name}: the line ends the opening");
    out
}

/// A random legal choice for the opening's state.
fn random_choice(rng: &mut Lcg, opening: &Opening) -> String {
    let legal = opening.legal_choices();
    let choice = match *rng.pick(&legal) {
        LegalChoice::Place { area, .. } => OpeningChoice::Place(*rng.pick(&opening.cells(area))),
        LegalChoice::Swap => OpeningChoice::Swap,
        LegalChoice::Stay => OpeningChoice::Stay,
        LegalChoice::ChooseColor => OpeningChoice::Color(*rng.pick(&[Color::Black, Color::White])),
        LegalChoice::Declare { max } => OpeningChoice::Declare(1 + rng.below(max.into()) as u8),
        LegalChoice::ProposeFifths { n, area } => {
            let mut pool = opening.distinct_cells(area);
            let mut cells = Vec::new();
            while cells.len() < usize::from(n) {
                cells.push(pool.swap_remove(rng.below(pool.len())));
            }
            OpeningChoice::Fifths(cells)
        }
        LegalChoice::ChooseFifth => OpeningChoice::Choose(*rng.pick(opening.proposals())),
    };
    choice.to_string()
}

/// A random line of legal choices to the end of the opening. Stones of the board-wide steps
/// are kept near the centre half the time, as players place them.
fn random_line(rng: &mut Lcg, game: &GameSpec) -> Vec<String> {
    let mut opening = Opening::new(game).expect("an opening spec");
    let mut line = Vec::new();
    while let Some(by) = opening.to_act() {
        let mut text = random_choice(rng, &opening);
        if rng.chance(50) && text.parse::<game_core::Cell>().is_ok() {
            let near = opening.cells(Area::Central(7));
            text = rng.pick(&near).to_string();
        }
        let text = match opening.apply_str(by, &text) {
            Ok(choice) => choice.to_string(),
            // A centre stone outside the step's own area: keep the first pick.
            Err(_) => {
                let first = random_choice(rng, &opening);
                opening.apply_str(by, &first).expect("a legal choice");
                first
            }
        };
        line.push(text);
    }
    line
}

fn texts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

pub fn cases() -> Vec<OpeningCase> {
    let swap2 = GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, OpeningRule::Swap2);
    let swap2_19 = GameSpec::gomoku_with_opening(19, GomokuRule::Standard, OpeningRule::Swap2);
    let soosorv = GameSpec::gomoku_with_opening(15, GomokuRule::Renju, OpeningRule::Soosorv8);
    let taraguchi = GameSpec::gomoku_with_opening(15, GomokuRule::Renju, OpeningRule::Taraguchi10);
    #[rustfmt::skip]
    let hand = [
        ("swap2: swap at once", &swap2, &["h8", "i9", "j8", "swap"][..]),
        ("swap2: stay", &swap2, &["h8", "i9", "j8", "stay"][..]),
        ("swap2: two more stones, then white", &swap2, &["h8", "i9", "j8", "g7", "k10", "white"][..]),
        ("swap2 19x19: two more stones, then black", &swap2_19, &["j10", "k11", "l10", "h8", "m13", "black"][..]),
        ("soosorv8: declare 2, offer two", &soosorv, &["h8", "i9", "j10", "swap", "g7", "declare 2", "stay", "fifths k5,e12", "choose e12"][..]),
        ("soosorv8: declare 1, the 5th placed", &soosorv, &["h8", "h9", "i10", "stay", "g7", "declare 1", "swap", "j6"][..]),
        ("taraguchi10: stones and swaps", &taraguchi, &["h8", "stay", "i9", "swap", "j7", "stay", "e5", "stay", "l12", "stay"][..]),
    ];
    let mut out = Vec::new();
    for (name, game, line) in hand {
        out.extend(states(name, game, &texts(line)));
    }
    let mut rng = Lcg::new(0x5EED_0005);
    for (label, game) in [
        ("swap2", &swap2),
        ("swap2 19x19", &swap2_19),
        ("soosorv8", &soosorv),
        ("taraguchi10", &taraguchi),
    ] {
        for n in 1..=4 {
            let line = random_line(&mut rng, game);
            out.extend(states(&format!("random {label} {n}"), game, &line));
        }
    }
    out
}

/// Which opening rules each board takes, in game-core's order of the rules.
pub fn rules_by_board() -> Vec<RulesCase> {
    let mut out = Vec::new();
    for size in [5, 9, 13, 14, 15, 16, 19, 26] {
        for rule in [
            GomokuRule::Freestyle,
            GomokuRule::Standard,
            GomokuRule::Renju,
        ] {
            let rules = [
                OpeningRule::Swap2,
                OpeningRule::Soosorv8,
                OpeningRule::Taraguchi10,
            ]
            .into_iter()
            .filter(|o| o.check(size, rule).is_ok())
            .collect();
            out.push(RulesCase {
                game: GameSpec::gomoku(size, rule),
                rules,
            });
        }
    }
    out.push(RulesCase {
        game: GameSpec::Othello,
        rules: Vec::new(),
    });
    out.push(RulesCase {
        game: GameSpec::connect4(7, 6),
        rules: Vec::new(),
    });
    out
}

/// The stone each spelling of a step leaves on the board (game-core parses them all alike).
pub fn step_stones() -> Vec<StoneCase> {
    let spellings = [
        "h8",
        "H8",
        " j10 ",
        "o15",
        "swap",
        "SWAP",
        "stay",
        " Stay",
        "black",
        "white",
        "White",
        "declare 3",
        "declare  8",
        "fifths h8,j9",
        "fifths h8, j9, k10",
        "choose j9",
        "choose  J9",
        "Choose k10",
    ];
    spellings
        .iter()
        .map(|step| {
            let choice: OpeningChoice = step.parse().unwrap_or_else(|e| panic!("{step}: {e}"));
            StoneCase {
                step: step.to_string(),
                stone: choice.stone().map(|c| c.to_string()),
            }
        })
        .collect()
}
