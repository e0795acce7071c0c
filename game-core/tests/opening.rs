//! Opening rules against labelled tables: the legal choices and their counts at every phase of
//! swap2, Soosõrv-8 and Taraguchi-10 on the empty 15x15 board, perft counts of whole choice
//! trees, every branch played out, every refusal with its error, the notation, and the game
//! spec with and without an opening rule; then properties of random openings.

use std::collections::BTreeSet;

use game_core::opening::{
    Area, ChoiceError, LegalChoice, Opening, OpeningChoice, OpeningError, OpeningPhase,
    ParseChoiceError, ReplayError, Role,
};
use game_core::symmetry::{self, Symmetry};
use game_core::{
    AnyPosition, Cell, Color, GameSpec, GomokuRule, IllegalMoveError, OpeningRule, Position,
    SpecError,
};
use proptest::prelude::*;

const SWAP2: OpeningRule = OpeningRule::Swap2;
const SOOSORV: OpeningRule = OpeningRule::Soosorv8;
const TARAGUCHI: OpeningRule = OpeningRule::Taraguchi10;

fn spec(rule: OpeningRule) -> GameSpec {
    match rule {
        OpeningRule::Swap2 => GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, rule),
        _ => GameSpec::gomoku_with_opening(15, GomokuRule::Renju, rule),
    }
}

fn cell(text: &str) -> Cell {
    text.parse().unwrap()
}

/// The opening after a script of choices separated by `;`, each made by the player whose
/// decision it is.
fn opened(rule: OpeningRule, script: &str) -> Opening {
    let mut opening = Opening::new(&spec(rule)).unwrap();
    for text in script.split(';').map(str::trim).filter(|t| !t.is_empty()) {
        let by = opening.to_act().expect("the script goes past the opening");
        opening
            .apply_str(by, text)
            .unwrap_or_else(|e| panic!("{text:?} in {script:?}: {e}"));
    }
    opening
}

/// The legal choices with the number of cells of each placement and offer (and, for offers,
/// the number of cells that are not symmetrical to each other), as one line of text.
fn summary(opening: &Opening) -> String {
    let items: Vec<String> = opening
        .legal_choices()
        .iter()
        .map(|choice| match *choice {
            LegalChoice::Place { color, count, area } => {
                format!(
                    "{color} x{count} {}={}",
                    area_name(area),
                    opening.cells(area).len()
                )
            }
            LegalChoice::ProposeFifths { n, area } => format!(
                "fifths {n} {}={}/{}",
                area_name(area),
                opening.cells(area).len(),
                opening.distinct_cells(area).len()
            ),
            LegalChoice::Swap => "swap".to_string(),
            LegalChoice::Stay => "stay".to_string(),
            LegalChoice::ChooseColor => "color".to_string(),
            LegalChoice::Declare { max } => format!("declare 1..={max}"),
            LegalChoice::ChooseFifth => format!("choose {}", opening.proposals().len()),
        })
        .collect();
    items.join(" | ")
}

fn area_name(area: Area) -> String {
    match area {
        Area::Board => "board".to_string(),
        Area::Central(side) => format!("c{side}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Legal choices at every phase
// ---------------------------------------------------------------------------------------------

struct Phase {
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    to_act: Option<Role>,
    legal: &'static str,
}

const fn at(
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    to_act: Option<Role>,
    legal: &'static str,
) -> Phase {
    Phase {
        label,
        rule,
        script,
        to_act,
        legal,
    }
}

const FIRST: Option<Role> = Some(Role::First);
const SECOND: Option<Role> = Some(Role::Second);

// Black h8 and h10, white h9 and h7: the position is its own mirror image across column h, so
// of the 221 empty cells the 11 on column h stand alone and the other 210 pair up: 116 classes.
const COLUMN_H: &str = "h8; stay; h9; stay; h10; stay; h7; stay";

const PHASES: &[Phase] = &[
    // --- swap2 -------------------------------------------------------------------------------
    at("swap2: 1st stone", SWAP2, "", FIRST, "black x3 board=225"),
    at("swap2: 2nd stone", SWAP2, "h8", FIRST, "white x2 board=224"),
    at(
        "swap2: 3rd stone",
        SWAP2,
        "h8; i9",
        FIRST,
        "black x1 board=223",
    ),
    at(
        "swap2: the second player's choice",
        SWAP2,
        "h8; i9; j8",
        SECOND,
        "stay | swap | white x2 board=222",
    ),
    at(
        "swap2: the 5th stone",
        SWAP2,
        "h8; i9; j8; a1",
        SECOND,
        "black x1 board=221",
    ),
    at(
        "swap2: the colour",
        SWAP2,
        "h8; i9; j8; a1; o15",
        FIRST,
        "color",
    ),
    at(
        "swap2: over after stay",
        SWAP2,
        "h8; i9; j8; stay",
        None,
        "",
    ),
    at(
        "swap2: over after swap",
        SWAP2,
        "h8; i9; j8; swap",
        None,
        "",
    ),
    at(
        "swap2: over after a colour",
        SWAP2,
        "h8; i9; j8; a1; o15; white",
        None,
        "",
    ),
    // --- Soosõrv-8 ---------------------------------------------------------------------------
    at(
        "soosorv: 1st move on the centre",
        SOOSORV,
        "",
        FIRST,
        "black x3 c1=1",
    ),
    at(
        "soosorv: 2nd move in 3x3",
        SOOSORV,
        "h8",
        FIRST,
        "white x2 c3=8",
    ),
    at(
        "soosorv: 3rd move in 5x5",
        SOOSORV,
        "h8; h9",
        FIRST,
        "black x1 c5=23",
    ),
    at(
        "soosorv: swap after the 3rd",
        SOOSORV,
        "h8; h9; j10",
        SECOND,
        "swap | stay",
    ),
    at(
        "soosorv: 4th move anywhere",
        SOOSORV,
        "h8; h9; j10; stay",
        SECOND,
        "white x1 board=222",
    ),
    at(
        "soosorv: 4th move by the first player after a swap",
        SOOSORV,
        "h8; h9; j10; swap",
        FIRST,
        "white x1 board=222",
    ),
    at(
        "soosorv: declare",
        SOOSORV,
        "h8; h9; j10; stay; k12",
        SECOND,
        "declare 1..=8",
    ),
    at(
        "soosorv: swap after the declaration",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 3",
        FIRST,
        "swap | stay",
    ),
    at(
        "soosorv: three 5th moves, none symmetrical",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 3; stay",
        FIRST,
        "fifths 3 board=221/221",
    ),
    at(
        "soosorv: eight 5th moves by the declarer after a swap",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 8; swap",
        SECOND,
        "fifths 8 board=221/221",
    ),
    at(
        "soosorv: one declared is one 5th move",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 1; stay",
        FIRST,
        "black x1 board=221",
    ),
    at(
        "soosorv: a symmetrical position halves the 5th moves",
        SOOSORV,
        "h8; h9; h10; stay; h7; declare 2; stay",
        FIRST,
        "fifths 2 board=221/116",
    ),
    at(
        "soosorv: white chooses",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15",
        SECOND,
        "choose 3",
    ),
    at(
        "soosorv: over",
        SOOSORV,
        "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15; choose b2",
        None,
        "",
    ),
    // --- Taraguchi-10 ------------------------------------------------------------------------
    at(
        "taraguchi: 1st move on the centre",
        TARAGUCHI,
        "",
        FIRST,
        "black x1 c1=1",
    ),
    at(
        "taraguchi: swap after the 1st",
        TARAGUCHI,
        "h8",
        SECOND,
        "swap | stay",
    ),
    at(
        "taraguchi: 2nd move in 3x3",
        TARAGUCHI,
        "h8; stay",
        SECOND,
        "white x1 c3=8",
    ),
    at(
        "taraguchi: 2nd move after a swap",
        TARAGUCHI,
        "h8; swap",
        FIRST,
        "white x1 c3=8",
    ),
    at(
        "taraguchi: swap after the 2nd",
        TARAGUCHI,
        "h8; stay; i9",
        FIRST,
        "swap | stay",
    ),
    at(
        "taraguchi: 3rd move in 5x5",
        TARAGUCHI,
        "h8; stay; i9; stay",
        FIRST,
        "black x1 c5=23",
    ),
    at(
        "taraguchi: swap after the 3rd",
        TARAGUCHI,
        "h8; stay; i9; stay; j7",
        SECOND,
        "swap | stay",
    ),
    at(
        "taraguchi: 4th move in 7x7 after stay",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay",
        SECOND,
        "white x1 c7=46",
    ),
    at(
        "taraguchi: swap after the 4th",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay; e5",
        FIRST,
        "swap | stay",
    ),
    at(
        "taraguchi: one 5th move in 9x9 or ten anywhere",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay; e5; stay",
        FIRST,
        "black x1 c9=77 | fifths 10 board=221/221",
    ),
    at(
        "taraguchi: a symmetrical position",
        TARAGUCHI,
        COLUMN_H,
        FIRST,
        "black x1 c9=77 | fifths 10 board=221/116",
    ),
    at(
        "taraguchi: swap after a single 5th",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay; e5; stay; l12",
        SECOND,
        "swap | stay",
    ),
    at(
        "taraguchi: over after the last swap",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay; e5; stay; l12; swap",
        None,
        "",
    ),
    at(
        "taraguchi: white chooses of ten",
        TARAGUCHI,
        "h8; stay; i9; stay; j7; stay; e5; stay; fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,a10",
        SECOND,
        "choose 10",
    ),
];

#[test]
fn legal_choices_at_every_phase() {
    for case in PHASES {
        let opening = opened(case.rule, case.script);
        assert_eq!(opening.to_act(), case.to_act, "{}: to act", case.label);
        assert_eq!(
            summary(&opening),
            case.legal,
            "{}: legal choices",
            case.label
        );
        assert_eq!(
            opening.is_over(),
            case.to_act.is_none(),
            "{}: over",
            case.label
        );
    }
}

/// Every position the eight symmetries make of `stones`, as sorted lists: the smallest is the
/// position's class. Written apart from the library's own comparison, to check it.
fn class_of(stones: &[(Cell, Color)]) -> Vec<(Cell, bool)> {
    Symmetry::ALL
        .iter()
        .map(|s| {
            let mut image: Vec<(Cell, bool)> = stones
                .iter()
                .map(|&(c, color)| (s.apply(c, 15), color == Color::Black))
                .collect();
            image.sort();
            image
        })
        .min()
        .unwrap()
}

#[test]
fn the_first_three_moves_of_soosorv_make_the_26_renju_openings() {
    let start = opened(SOOSORV, "h8");
    let seconds = start.cells(Area::Central(3));
    assert_eq!(seconds.len(), 8);
    // Direct and indirect: the 2nd move beside or diagonal to the centre.
    assert_eq!(start.distinct_cells(Area::Central(3)).len(), 2);
    let mut openings = BTreeSet::new();
    let mut placements = 0;
    for second in seconds {
        let after = opened(SOOSORV, &format!("h8; {second}"));
        for third in after.cells(Area::Central(5)) {
            placements += 1;
            openings.insert(class_of(&[
                (cell("h8"), Color::Black),
                (second, Color::White),
                (third, Color::Black),
            ]));
        }
    }
    assert_eq!(placements, 8 * 23);
    assert_eq!(openings.len(), 26);
}

// ---------------------------------------------------------------------------------------------
// Perft: sequences of concrete choices
// ---------------------------------------------------------------------------------------------

/// Every concrete choice open now, offers of 5th moves left out (their number is a binomial
/// coefficient, not a walk).
fn concrete(opening: &Opening) -> Vec<OpeningChoice> {
    let mut all = Vec::new();
    for legal in opening.legal_choices() {
        match legal {
            LegalChoice::Place { area, .. } => {
                all.extend(opening.cells(area).into_iter().map(OpeningChoice::Place));
            }
            LegalChoice::Swap => all.push(OpeningChoice::Swap),
            LegalChoice::Stay => all.push(OpeningChoice::Stay),
            LegalChoice::ChooseColor => {
                all.push(OpeningChoice::Color(Color::Black));
                all.push(OpeningChoice::Color(Color::White));
            }
            LegalChoice::Declare { max } => all.extend((1..=max).map(OpeningChoice::Declare)),
            LegalChoice::ProposeFifths { .. } => {}
            LegalChoice::ChooseFifth => all.extend(
                opening
                    .proposals()
                    .iter()
                    .map(|&c| OpeningChoice::Choose(c)),
            ),
        }
    }
    all
}

fn perft(opening: &Opening, depth: usize) -> u64 {
    let choices = concrete(opening);
    if depth == 1 {
        return choices.len() as u64;
    }
    let by = match opening.to_act() {
        Some(by) => by,
        None => return 0,
    };
    choices
        .iter()
        .map(|choice| {
            let mut next = opening.clone();
            next.apply(by, choice).unwrap();
            perft(&next, depth - 1)
        })
        .sum()
}

struct Perft {
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    /// Leaf counts for depths 1, 2, ...
    counts: &'static [u64],
}

const PERFT: &[Perft] = &[
    Perft {
        label: "swap2 from the empty board",
        rule: SWAP2,
        script: "",
        counts: &[225, 225 * 224],
    },
    Perft {
        label: "swap2 from the second player's choice: stay and swap end it, +2 goes on",
        rule: SWAP2,
        script: "h8; i9; j8",
        // 2 endings + 222 4th stones; then 222 * 221 5th stones; then two colours each.
        counts: &[224, 222 * 221, 222 * 221 * 2],
    },
    Perft {
        label: "soosorv from the empty board",
        rule: SOOSORV,
        script: "",
        counts: &[1, 8, 8 * 23, 8 * 23 * 2],
    },
    Perft {
        label: "soosorv from the 4th move: 8 declarations, 2 swaps, then 1 declared places",
        rule: SOOSORV,
        script: "h8; h9; j10; stay",
        // Declaring 1 is the only declaration whose 5th move is not an offer: 221 stones.
        counts: &[222, 222 * 8, 222 * 8 * 2, 222 * 2 * 221],
    },
    Perft {
        label: "taraguchi from the empty board",
        rule: TARAGUCHI,
        script: "",
        counts: &[1, 2, 2 * 8, 2 * 8 * 2, 2 * 8 * 2 * 23, 2 * 8 * 2 * 23 * 2],
    },
    Perft {
        label: "taraguchi from the 4th move: the single 5th and its swap",
        rule: TARAGUCHI,
        script: "h8; stay; i9; stay; j7; stay",
        counts: &[46, 46 * 2, 46 * 2 * 77, 46 * 2 * 77 * 2],
    },
];

#[test]
fn perft_counts() {
    for case in PERFT {
        let opening = opened(case.rule, case.script);
        for (depth, &expected) in case.counts.iter().enumerate() {
            assert_eq!(
                perft(&opening, depth + 1),
                expected,
                "{}: depth {}",
                case.label,
                depth + 1
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every branch played out
// ---------------------------------------------------------------------------------------------

struct Branch {
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    /// Who holds black when the opening is over.
    black: Role,
    /// The stones on the board then.
    black_stones: &'static str,
    white_stones: &'static str,
}

const BRANCHES: &[Branch] = &[
    Branch {
        label: "swap2: stay",
        rule: SWAP2,
        script: "h8; i9; j8; stay",
        black: Role::First,
        black_stones: "h8 j8",
        white_stones: "i9",
    },
    Branch {
        label: "swap2: swap",
        rule: SWAP2,
        script: "h8; i9; j8; swap",
        black: Role::Second,
        black_stones: "h8 j8",
        white_stones: "i9",
    },
    Branch {
        label: "swap2: two more, the first player takes black",
        rule: SWAP2,
        script: "h8; i9; j8; g7; k7; black",
        black: Role::First,
        black_stones: "h8 j8 k7",
        white_stones: "i9 g7",
    },
    Branch {
        label: "swap2: two more, the first player takes white",
        rule: SWAP2,
        script: "h8; i9; j8; g7; k7; white",
        black: Role::Second,
        black_stones: "h8 j8 k7",
        white_stones: "i9 g7",
    },
    Branch {
        label: "soosorv: no swap, three 5th moves, one chosen",
        rule: SOOSORV,
        script: "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15; choose b2",
        black: Role::First,
        black_stones: "h8 j10 b2",
        white_stones: "h9 k12",
    },
    Branch {
        label: "soosorv: swap after the 3rd",
        rule: SOOSORV,
        script: "h8; i9; j10; swap; k12; declare 2; stay; fifths f6,g10; choose f6",
        black: Role::Second,
        black_stones: "h8 j10 f6",
        white_stones: "i9 k12",
    },
    Branch {
        label: "soosorv: swap after the declaration",
        rule: SOOSORV,
        script: "h8; i9; j10; stay; k12; declare 4; swap; fifths f6,g10,c3,m13; choose m13",
        black: Role::Second,
        black_stones: "h8 j10 m13",
        white_stones: "i9 k12",
    },
    Branch {
        label: "soosorv: both swaps",
        rule: SOOSORV,
        script: "h8; i9; j10; swap; k12; declare 8; swap; \
                 fifths a1,a2,a3,a4,a5,a6,a7,a8; choose a8",
        black: Role::First,
        black_stones: "h8 j10 a8",
        white_stones: "i9 k12",
    },
    Branch {
        label: "soosorv: one declared, one 5th move",
        rule: SOOSORV,
        script: "h8; i9; j10; stay; k12; declare 1; stay; g9",
        black: Role::First,
        black_stones: "h8 j10 g9",
        white_stones: "i9 k12",
    },
    Branch {
        label: "taraguchi: no swap, a single 5th",
        rule: TARAGUCHI,
        script: "h8; stay; i9; stay; j7; stay; e5; stay; l12; stay",
        black: Role::First,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: swap after the 1st",
        rule: TARAGUCHI,
        script: "h8; swap; i9; stay; j7; stay; e5; stay; l12; stay",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: swap after the 2nd",
        rule: TARAGUCHI,
        script: "h8; stay; i9; swap; j7; stay; e5; stay; l12; stay",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: swap after the 3rd",
        rule: TARAGUCHI,
        script: "h8; stay; i9; stay; j7; swap; e5; stay; l12; stay",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: swap after the 4th",
        rule: TARAGUCHI,
        script: "h8; stay; i9; stay; j7; stay; e5; swap; l12; stay",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: swap after the single 5th",
        rule: TARAGUCHI,
        script: "h8; stay; i9; stay; j7; stay; e5; stay; l12; swap",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: a swap at every point",
        rule: TARAGUCHI,
        script: "h8; swap; i9; swap; j7; swap; e5; swap; l12; swap",
        black: Role::Second,
        black_stones: "h8 j7 l12",
        white_stones: "i9 e5",
    },
    Branch {
        label: "taraguchi: ten 5th moves, one chosen",
        rule: TARAGUCHI,
        script: "h8; stay; i9; swap; j7; stay; e5; stay; \
                 fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,o15; choose o15",
        black: Role::Second,
        black_stones: "h8 j7 o15",
        white_stones: "i9 e5",
    },
];

fn cells(list: &str) -> BTreeSet<Cell> {
    list.split_whitespace().map(cell).collect()
}

#[test]
fn every_branch_ends_in_an_ordinary_game() {
    for case in BRANCHES {
        let opening = opened(case.rule, case.script);
        let label = case.label;
        assert_eq!(opening.phase(), OpeningPhase::Over, "{label}");
        assert_eq!(opening.to_act(), None, "{label}");
        assert!(opening.legal_choices().is_empty(), "{label}");
        assert_eq!(opening.black(), case.black, "{label}: black");
        assert_eq!(opening.color_of(case.black), Color::Black, "{label}");
        assert_eq!(
            opening.color_of(case.black.other()),
            Color::White,
            "{label}"
        );
        assert_eq!(opening.role_of(Color::White), case.black.other(), "{label}");
        let stones = |color: Color| -> BTreeSet<Cell> {
            opening
                .position()
                .stones()
                .filter(|&(_, c)| c == color)
                .map(|(cell, _)| cell)
                .collect()
        };
        assert_eq!(
            stones(Color::Black),
            cells(case.black_stones),
            "{label}: black"
        );
        assert_eq!(
            stones(Color::White),
            cells(case.white_stones),
            "{label}: white"
        );
        assert!(opening.proposals().is_empty(), "{label}: proposals left");
        // The recorded choices replay to the same opening.
        let texts: Vec<String> = opening.choices().iter().map(ToString::to_string).collect();
        assert_eq!(Opening::replay(&spec(case.rule), &texts).unwrap(), opening);
        // And the game goes on from the position, by whoever holds the colour to move.
        let mut game = opening.clone().into_position();
        let mover = opening.role_of(game.turn());
        assert_eq!(opening.color_of(mover), game.turn(), "{label}");
        let reply = game.legal_moves()[0];
        game = game.play(reply).unwrap();
        assert_eq!(game.ply(), opening.position().ply() + 1, "{label}");
    }
}

#[test]
fn taraguchi_swaps_hand_the_next_stone_to_the_other_player() {
    // After a swap the player who placed the last stone places the next one too.
    let mut opening = opened(TARAGUCHI, "h8");
    assert_eq!(opening.to_act(), Some(Role::Second));
    opening.apply(Role::Second, &OpeningChoice::Swap).unwrap();
    assert_eq!(opening.black(), Role::Second);
    assert_eq!(opening.to_act(), Some(Role::First));
    assert_eq!(opening.color_of(Role::First), Color::White);
    opening
        .apply(Role::First, &OpeningChoice::Place(cell("h9")))
        .unwrap();
    // The black player, now the second, decides the next swap.
    assert_eq!(opening.to_act(), Some(Role::Second));
}

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
enum Refused {
    Syntax,
    Illegal(OpeningError),
}

struct Refusal {
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    /// `None`: the player whose decision it is.
    by: Option<Role>,
    choice: &'static str,
    expect: Refused,
}

const fn refuse(
    label: &'static str,
    rule: OpeningRule,
    script: &'static str,
    choice: &'static str,
    expect: OpeningError,
) -> Refusal {
    Refusal {
        label,
        rule,
        script,
        by: None,
        choice,
        expect: Refused::Illegal(expect),
    }
}

fn not_now(choice: &'static str, expected: &str) -> OpeningError {
    OpeningError::NotNow {
        choice,
        expected: expected.to_string(),
    }
}

const SOOSORV_AT_FIFTHS: &str = "h8; h9; j10; stay; k12; declare 3; stay";
const TARAGUCHI_AT_FIFTH: &str = "h8; stay; i9; stay; j7; stay; e5; stay";

fn refusals() -> Vec<Refusal> {
    use OpeningError as E;
    let outside = |c: &str, side: u8| E::OutsideArea {
        cell: cell(c),
        area: Area::Central(side),
    };
    vec![
        Refusal {
            label: "the second player cannot place the first stones",
            rule: SWAP2,
            script: "h8",
            by: Some(Role::Second),
            choice: "i9",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::First,
            }),
        },
        Refusal {
            label: "the first player cannot answer swap2's choice",
            rule: SWAP2,
            script: "h8; i9; j8",
            by: Some(Role::First),
            choice: "swap",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::Second,
            }),
        },
        Refusal {
            label: "the second player cannot pick the colour",
            rule: SWAP2,
            script: "h8; i9; j8; a1; o15",
            by: Some(Role::Second),
            choice: "black",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::First,
            }),
        },
        refuse(
            "nothing after the opening",
            SWAP2,
            "h8; i9; j8; stay",
            "k10",
            E::Over,
        ),
        Refusal {
            label: "not even by the other player",
            rule: TARAGUCHI,
            script: "h8; stay; i9; stay; j7; stay; e5; stay; l12; stay",
            by: Some(Role::Second),
            choice: "swap",
            expect: Refused::Illegal(E::Over),
        },
        refuse(
            "an occupied cell",
            SWAP2,
            "h8",
            "h8",
            E::Illegal(IllegalMoveError::Occupied("h8".into())),
        ),
        refuse(
            "a cell off the board",
            SWAP2,
            "",
            "p1",
            E::Illegal(IllegalMoveError::OutOfBoard("p1".into())),
        ),
        refuse(
            "swap while stones are due",
            SWAP2,
            "h8",
            "swap",
            not_now("swap", "a white stone anywhere"),
        ),
        refuse(
            "a colour before the two more stones",
            SWAP2,
            "h8; i9; j8",
            "white",
            not_now("a colour", "stay, or swap, or a white stone anywhere"),
        ),
        refuse(
            "a stone instead of a colour",
            SWAP2,
            "h8; i9; j8; a1; o15",
            "k10",
            not_now("a stone", "black or white"),
        ),
        refuse(
            "fifths in swap2",
            SWAP2,
            "h8; i9; j8",
            "fifths a1,a2",
            not_now("fifths", "stay, or swap, or a white stone anywhere"),
        ),
        refuse(
            "soosorv: the first move off the centre",
            SOOSORV,
            "",
            "h9",
            outside("h9", 1),
        ),
        refuse(
            "soosorv: the 2nd move outside 3x3",
            SOOSORV,
            "h8",
            "j10",
            outside("j10", 3),
        ),
        refuse(
            "soosorv: the 3rd move outside 5x5",
            SOOSORV,
            "h8; h9",
            "k11",
            outside("k11", 5),
        ),
        refuse(
            "soosorv: a stone instead of a swap decision",
            SOOSORV,
            "h8; h9; j10",
            "k12",
            not_now("a stone", "swap, or stay"),
        ),
        refuse(
            "soosorv: a declaration before the 4th move",
            SOOSORV,
            "h8; h9; j10; stay",
            "declare 3",
            not_now("declare", "a white stone anywhere"),
        ),
        refuse(
            "soosorv: a stone instead of the declaration",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "a1",
            not_now("a stone", "declare 1..=8"),
        ),
        refuse(
            "soosorv: declare 9",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "declare 9",
            E::DeclareRange { got: 9, max: 8 },
        ),
        refuse(
            "soosorv: declare 0",
            SOOSORV,
            "h8; h9; j10; stay; k12",
            "declare 0",
            E::DeclareRange { got: 0, max: 8 },
        ),
        refuse(
            "soosorv: a single stone when three are declared",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "a1",
            not_now("a stone", "fifths: 3 cells anywhere"),
        ),
        refuse(
            "soosorv: too few 5th moves",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2",
            E::WrongCount {
                expected: 3,
                got: 2,
            },
        ),
        refuse(
            "soosorv: too many 5th moves",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2,c3,d4",
            E::WrongCount {
                expected: 3,
                got: 4,
            },
        ),
        refuse(
            "soosorv: a 5th move offered twice",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,b2,a1",
            E::Repeated(cell("a1")),
        ),
        refuse(
            "soosorv: a 5th move on a stone",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "fifths a1,j10,b2",
            E::Illegal(IllegalMoveError::Occupied("j10".into())),
        ),
        refuse(
            "soosorv: symmetrical 5th moves across column h",
            SOOSORV,
            "h8; h9; h10; stay; h7; declare 3; stay",
            "fifths g6,a1,i6",
            E::Symmetrical(cell("g6"), cell("i6")),
        ),
        refuse(
            "soosorv: symmetrical 5th moves across the diagonal",
            SOOSORV,
            "h8; i9; j10; stay; g7; declare 2; stay",
            "fifths h12,l8",
            E::Symmetrical(cell("h12"), cell("l8")),
        ),
        refuse(
            "soosorv: choose a cell not offered",
            SOOSORV,
            "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15",
            "choose c3",
            E::NotOffered(cell("c3")),
        ),
        refuse(
            "soosorv: a stone instead of a choice",
            SOOSORV,
            "h8; h9; j10; stay; k12; declare 3; stay; fifths a1,b2,o15",
            "a1",
            not_now("a stone", "choose one of the offered 5th moves"),
        ),
        refuse(
            "soosorv: choose before any offer",
            SOOSORV,
            SOOSORV_AT_FIFTHS,
            "choose a1",
            not_now("choose", "fifths: 3 cells anywhere"),
        ),
        refuse(
            "taraguchi: the 2nd move outside 3x3",
            TARAGUCHI,
            "h8; stay",
            "h10",
            outside("h10", 3),
        ),
        refuse(
            "taraguchi: the 4th move outside 7x7",
            TARAGUCHI,
            "h8; stay; i9; stay; j7; stay",
            "l12",
            outside("l12", 7),
        ),
        refuse(
            "taraguchi: a single 5th outside 9x9",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "m13",
            outside("m13", 9),
        ),
        refuse(
            "taraguchi: a stone before the swap decision",
            TARAGUCHI,
            "h8",
            "h9",
            not_now("a stone", "swap, or stay"),
        ),
        refuse(
            "taraguchi: no declaration",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "declare 3",
            not_now(
                "declare",
                "a black stone in the central 9x9 square, or fifths: 10 cells anywhere",
            ),
        ),
        refuse(
            "taraguchi: five 5th moves are not ten",
            TARAGUCHI,
            TARAGUCHI_AT_FIFTH,
            "fifths a1,a2,a3,a4,a5",
            E::WrongCount {
                expected: 10,
                got: 5,
            },
        ),
        refuse(
            "taraguchi: symmetrical 5th moves",
            TARAGUCHI,
            COLUMN_H,
            "fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,o9",
            E::Symmetrical(cell("a9"), cell("o9")),
        ),
        Refusal {
            label: "taraguchi: the black player cannot choose among the offers",
            rule: TARAGUCHI,
            script: "h8; stay; i9; stay; j7; stay; e5; stay; fifths a1,a2,a3,a4,a5,a6,a7,a8,a9,a10",
            by: Some(Role::First),
            choice: "choose a1",
            expect: Refused::Illegal(E::NotYourDecision {
                to_act: Role::Second,
            }),
        },
        Refusal {
            label: "a word that is no choice is a syntax error",
            rule: SWAP2,
            script: "",
            by: None,
            choice: "pass",
            expect: Refused::Syntax,
        },
    ]
}

#[test]
fn every_refusal_names_its_cause_and_changes_nothing() {
    for case in refusals() {
        let mut opening = opened(case.rule, case.script);
        let before = opening.clone();
        let by = case.by.or(opening.to_act()).unwrap_or(Role::First);
        let result = opening.apply_str(by, case.choice);
        match (&case.expect, result) {
            (Refused::Syntax, Err(ChoiceError::Parse(_))) => {}
            (Refused::Illegal(expected), Err(ChoiceError::Illegal(error))) => {
                assert_eq!(&error, expected, "{}", case.label);
                // The checked question gives the same answer without applying.
                let choice: OpeningChoice = case.choice.parse().unwrap();
                assert_eq!(opening.is_legal(by, &choice), Err(error), "{}", case.label);
            }
            (expected, result) => panic!("{}: expected {expected:?}, got {result:?}", case.label),
        }
        assert_eq!(opening, before, "{}: changed", case.label);
    }
}

#[test]
fn refusals_read_well() {
    let mut opening = opened(SOOSORV, "h8; h9; h10; stay; h7; declare 2; stay");
    let error = opening.apply_str(Role::First, "fifths g6,i6").unwrap_err();
    assert_eq!(error.to_string(), "the 5th moves g6 and i6 are symmetrical");
    let error = opening.apply_str(Role::Second, "fifths a1,b1").unwrap_err();
    assert_eq!(error.to_string(), "it is the first player's decision");
    let error = opened(TARAGUCHI, "h8; stay")
        .apply_str(Role::Second, "j10")
        .unwrap_err();
    assert_eq!(error.to_string(), "j10 is outside the central 3x3 square");
    let error = opened(TARAGUCHI, "")
        .apply_str(Role::First, "swap")
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "swap is not a choice now; expected a black stone in the centre"
    );
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

#[test]
fn choices_round_trip_through_their_text() {
    let cases = [
        ("h8", OpeningChoice::Place(cell("h8"))),
        ("swap", OpeningChoice::Swap),
        ("stay", OpeningChoice::Stay),
        ("black", OpeningChoice::Color(Color::Black)),
        ("white", OpeningChoice::Color(Color::White)),
        ("declare 8", OpeningChoice::Declare(8)),
        (
            "fifths h8,j9,o15",
            OpeningChoice::Fifths(vec![cell("h8"), cell("j9"), cell("o15")]),
        ),
        ("choose j9", OpeningChoice::Choose(cell("j9"))),
    ];
    for (text, choice) in cases {
        assert_eq!(text.parse::<OpeningChoice>().unwrap(), choice, "{text}");
        assert_eq!(choice.to_string(), text);
    }
    // Other spellings read the same and are written canonically.
    let loose = [
        ("  H8 ", "h8"),
        ("SWAP", "swap"),
        ("Stay\n", "stay"),
        ("declare\t3", "declare 3"),
        ("Fifths H8, j9 ,K10", "fifths h8,j9,k10"),
        ("CHOOSE   J9", "choose j9"),
    ];
    for (text, canonical) in loose {
        let choice: OpeningChoice = text.parse().unwrap();
        assert_eq!(choice.to_string(), canonical, "{text:?}");
    }
}

#[test]
fn syntax_errors_are_not_choices() {
    let bad = [
        ("", "empty choice"),
        ("   ", "empty choice"),
        ("swap now", "this choice takes no argument"),
        ("black h8", "this choice takes no argument"),
        ("declare", "declare takes a number"),
        ("declare x", "declare takes a number"),
        ("declare -1", "declare takes a number"),
        ("declare 07", "a number has no leading zero"),
        ("declare 300", "the number is too large"),
        ("fifths", "fifths takes a list of cells"),
        ("fifths h8,,j9", "empty move"),
        ("fifths h8 j9", "expected a row number after the letter"),
        ("choose", "choose takes a cell"),
        ("choose 8h", "expected a column letter a-z"),
        (
            "pass",
            "expected a cell, swap, stay, black, white, declare N, fifths or choose",
        ),
        (
            "8h",
            "expected a cell, swap, stay, black, white, declare N, fifths or choose",
        ),
        ("h8 i9", "unknown choice"),
    ];
    for (text, reason) in bad {
        let error = text.parse::<OpeningChoice>().unwrap_err();
        assert_eq!(error, ParseChoiceError::new(text, reason), "{text:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The spec
// ---------------------------------------------------------------------------------------------

#[test]
fn specs_without_an_opening_rule_read_and_write_as_before() {
    let plain: GameSpec =
        serde_json::from_str(r#"{"kind":"gomoku","size":15,"rule":"renju"}"#).unwrap();
    assert_eq!(plain, GameSpec::gomoku(15, GomokuRule::Renju));
    assert_eq!(plain.opening_rule(), None);
    assert_eq!(
        serde_json::to_string(&plain).unwrap(),
        r#"{"kind":"gomoku","size":15,"rule":"renju"}"#
    );
    let null: GameSpec = serde_json::from_str(r#"{"kind":"gomoku","opening_rule":null}"#).unwrap();
    assert_eq!(null, GameSpec::gomoku(15, GomokuRule::Freestyle));
    assert_eq!(plain.label(), "gomoku 15x15 renju");
    assert!(AnyPosition::new(&plain).is_ok());
}

#[test]
fn specs_with_an_opening_rule_round_trip() {
    let cases = [
        (
            r#"{"kind":"gomoku","size":15,"rule":"freestyle","opening_rule":"swap2"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, SWAP2),
        ),
        (
            r#"{"kind":"gomoku","size":20,"rule":"standard","opening_rule":"swap2"}"#,
            GameSpec::gomoku_with_opening(20, GomokuRule::Standard, SWAP2),
        ),
        (
            r#"{"kind":"gomoku","size":15,"rule":"renju","opening_rule":"soosorv8"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Renju, SOOSORV),
        ),
        (
            r#"{"kind":"gomoku","size":15,"rule":"renju","opening_rule":"taraguchi10"}"#,
            GameSpec::gomoku_with_opening(15, GomokuRule::Renju, TARAGUCHI),
        ),
    ];
    for (json, spec) in cases {
        let read: GameSpec = serde_json::from_str(json).unwrap();
        assert_eq!(read, spec);
        assert_eq!(serde_json::to_string(&spec).unwrap(), json);
        assert!(spec.validate().is_ok(), "{json}");
        assert!(Opening::new(&spec).is_ok(), "{json}");
        // A plain position is refused: the game starts with its opening.
        assert!(matches!(
            AnyPosition::new(&spec),
            Err(SpecError::OpeningRuleNotRun(_))
        ));
    }
    assert_eq!(
        GameSpec::gomoku_with_opening(15, GomokuRule::Renju, SOOSORV).label(),
        "gomoku 15x15 renju soosorv8"
    );
    assert!(serde_json::from_str::<GameSpec>(r#"{"kind":"gomoku","opening_rule":"pro"}"#).is_err());
}

#[test]
fn an_opening_rule_must_belong_to_its_game() {
    let cases = [
        (15, GomokuRule::Renju, SWAP2),
        (13, GomokuRule::Freestyle, SWAP2),
        (15, GomokuRule::Freestyle, SOOSORV),
        (19, GomokuRule::Renju, SOOSORV),
        (15, GomokuRule::Standard, TARAGUCHI),
        (14, GomokuRule::Renju, TARAGUCHI),
    ]
    .map(|(size, rule, opening)| {
        let needs = match opening {
            OpeningRule::Swap2 => "freestyle or standard gomoku on 15x15 or larger",
            OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => "renju on 15x15",
        };
        let error = SpecError::OpeningRuleMismatch {
            opening: opening.as_str(),
            needs,
        };
        (GameSpec::gomoku_with_opening(size, rule, opening), error)
    });
    for (spec, error) in cases {
        assert_eq!(spec.validate(), Err(error.clone()), "{}", spec.label());
        assert_eq!(Opening::new(&spec), Err(error));
    }
    // The size is checked first, as before.
    assert_eq!(
        GameSpec::gomoku_with_opening(27, GomokuRule::Freestyle, SWAP2).validate(),
        Err(SpecError::GomokuSize(27))
    );
    assert_eq!(
        Opening::new(&GameSpec::gomoku(15, GomokuRule::Renju)),
        Err(SpecError::NoOpeningRule)
    );
    assert_eq!(
        Opening::new(&GameSpec::Othello),
        Err(SpecError::NoOpeningRule)
    );
}

#[test]
fn a_replay_names_the_choice_that_fails() {
    let error = Opening::replay(&spec(TARAGUCHI), &["h8", "stay", "h10"]).unwrap_err();
    assert_eq!(
        error,
        ReplayError::Choice {
            index: 2,
            error: ChoiceError::Illegal(OpeningError::OutsideArea {
                cell: cell("h10"),
                area: Area::Central(3)
            })
        }
    );
    let over = Opening::replay(&spec(SWAP2), &["h8", "i9", "j8", "stay", "k9"]).unwrap_err();
    assert!(matches!(
        over,
        ReplayError::Choice {
            index: 4,
            error: ChoiceError::Illegal(OpeningError::Over)
        }
    ));
    let bad_spec = GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, SOOSORV);
    assert!(matches!(
        Opening::replay::<&str>(&bad_spec, &[]),
        Err(ReplayError::Spec(_))
    ));
}

#[test]
fn the_view_is_what_a_client_draws() {
    let opening = opened(
        SOOSORV,
        "h8; h9; j10; swap; k12; declare 3; stay; fifths a1,b2,o15",
    );
    let json = serde_json::to_string(&opening.view()).unwrap();
    assert_eq!(
        json,
        r#"{"rule":"soosorv8","phase":"choose","to_act":"first","black":"second","legal":[{"kind":"choose_fifth"}],"declared":3,"proposals":["a1","b2","o15"]}"#
    );
    let start = serde_json::to_string(&opened(TARAGUCHI, TARAGUCHI_AT_FIFTH).view()).unwrap();
    assert_eq!(
        start,
        r#"{"rule":"taraguchi10","phase":"fifth","to_act":"first","black":"first","legal":[{"kind":"place","color":"black","count":1,"area":{"central":9}},{"kind":"propose_fifths","n":10,"area":"board"}]}"#
    );
    let over = opened(SWAP2, "h8; i9; j8; swap").view();
    assert_eq!(over.to_act, None);
    assert!(over.legal.is_empty());
    let back: game_core::opening::OpeningView = serde_json::from_str(&json).unwrap();
    assert_eq!(back, opening.view());
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

/// A legal choice picked by `seed` among every kind open now; offers take distinct cells.
fn pick(opening: &Opening, seed: u64) -> OpeningChoice {
    let legal = opening.legal_choices();
    let kind = legal[(seed % legal.len() as u64) as usize];
    let seed = seed / 7;
    let nth = |items: usize, salt: u64| {
        ((seed.wrapping_mul(31).wrapping_add(salt)) % items as u64) as usize
    };
    match kind {
        LegalChoice::Place { area, .. } => {
            let cells = opening.cells(area);
            OpeningChoice::Place(cells[nth(cells.len(), 0)])
        }
        LegalChoice::Swap => OpeningChoice::Swap,
        LegalChoice::Stay => OpeningChoice::Stay,
        LegalChoice::ChooseColor => OpeningChoice::Color(if seed.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }),
        LegalChoice::Declare { max } => OpeningChoice::Declare(1 + nth(usize::from(max), 0) as u8),
        LegalChoice::ProposeFifths { n, area } => {
            let mut pool = opening.distinct_cells(area);
            let mut chosen = Vec::new();
            for salt in 0..u64::from(n) {
                chosen.push(pool.remove(nth(pool.len(), salt)));
            }
            OpeningChoice::Fifths(chosen)
        }
        LegalChoice::ChooseFifth => {
            OpeningChoice::Choose(opening.proposals()[nth(opening.proposals().len(), 0)])
        }
    }
}

/// Any choice at all, legal or not, from a seed.
fn wild(seed: u64) -> OpeningChoice {
    let at = |s: u64| Cell::new((s % 17) as u8, ((s / 17) % 17) as u8);
    match seed % 7 {
        0 => OpeningChoice::Place(at(seed / 7)),
        1 => OpeningChoice::Swap,
        2 => OpeningChoice::Stay,
        3 => OpeningChoice::Color(if seed.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }),
        4 => OpeningChoice::Declare((seed / 7 % 12) as u8),
        // At least one cell: `fifths` with none is no text at all.
        5 => OpeningChoice::Fifths(
            (0..=(seed / 7 % 11))
                .map(|k| at(seed / 11 + k * 13))
                .collect(),
        ),
        _ => OpeningChoice::Choose(at(seed / 7)),
    }
}

/// A renju opening at black's 5th move (Soosõrv-8, three 5th moves declared). With `axis`,
/// every stone lies on the axis of that reflection, so the position keeps it.
fn four_stones(seeds: [u64; 3], axis: Option<Symmetry>) -> Opening {
    let mut opening = opened(SOOSORV, "h8");
    for (k, seed) in seeds.into_iter().enumerate() {
        let area = [Area::Central(3), Area::Central(5), Area::Board][k];
        let cells: Vec<Cell> = opening
            .cells(area)
            .into_iter()
            .filter(|&c| axis.is_none_or(|g| g.apply(c, 15) == c))
            .collect();
        let by = opening.to_act().unwrap();
        let cell = cells[(seed % cells.len() as u64) as usize];
        opening.apply(by, &OpeningChoice::Place(cell)).unwrap();
        if k == 1 {
            opening.apply(Role::Second, &OpeningChoice::Stay).unwrap();
        }
    }
    for choice in [OpeningChoice::Declare(3), OpeningChoice::Stay] {
        opening.apply(opening.to_act().unwrap(), &choice).unwrap();
    }
    assert_eq!(opening.phase(), OpeningPhase::Fifth);
    opening
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_openings_end_in_the_stones_chosen(
        rule in prop::sample::select(OpeningRule::ALL.to_vec()),
        seeds in prop::collection::vec(any::<u64>(), 16),
        noise in prop::collection::vec((any::<u64>(), any::<bool>()), 16),
    ) {
        let mut opening = Opening::new(&spec(rule)).unwrap();
        let mut black = BTreeSet::new();
        let mut white = BTreeSet::new();
        let mut steps = 0;
        while let Some(by) = opening.to_act() {
            prop_assert!(steps < seeds.len(), "{:?} does not end: {:?}", rule, opening.choices());
            // A wild choice by either player: refused and nothing changes, or it was legal.
            let (seed, other) = noise[steps];
            let attempt = wild(seed);
            let who = if other { by.other() } else { by };
            let legal = opening.is_legal(who, &attempt);
            let mut tried = opening.clone();
            match tried.apply(who, &attempt) {
                Err(error) => {
                    prop_assert_eq!(legal, Err(error));
                    prop_assert_eq!(&tried, &opening);
                }
                Ok(()) => prop_assert_eq!(legal, Ok(())),
            }
            // The text of the wild choice reads back as the same choice.
            prop_assert_eq!(attempt.to_string().parse::<OpeningChoice>().unwrap(), attempt);

            let choice = pick(&opening, seeds[steps]);
            let color = opening.position().turn();
            opening.apply(by, &choice).unwrap();
            match &choice {
                OpeningChoice::Place(cell) | OpeningChoice::Choose(cell) => {
                    let stones = if color == Color::Black { &mut black } else { &mut white };
                    stones.insert(*cell);
                }
                _ => {}
            }
            steps += 1;
        }
        let on_board = |wanted: Color| -> BTreeSet<Cell> {
            opening.position().stones().filter(|&(_, c)| c == wanted).map(|(c, _)| c).collect()
        };
        prop_assert_eq!(on_board(Color::Black), black);
        prop_assert_eq!(on_board(Color::White), white);
        prop_assert!(!opening.position().is_over());
        prop_assert!(opening.proposals().is_empty());
        let stones = opening.position().ply();
        prop_assert!(stones == 3 || stones == 5, "{} stones", stones);
        prop_assert!(stones == 5 || rule == OpeningRule::Swap2);
        // The game goes on with white to move, held by one of the two.
        prop_assert_eq!(opening.position().turn(), Color::White);
        let texts: Vec<String> = opening.choices().iter().map(ToString::to_string).collect();
        prop_assert_eq!(Opening::replay(&spec(rule), &texts).unwrap(), opening);
    }

    #[test]
    fn symmetrical_fifths_are_images_under_a_symmetry_of_the_position(
        seeds in prop::array::uniform3(any::<u64>()),
        axis in prop::option::of(prop::sample::select(vec![
            Symmetry::MirrorColumns,
            Symmetry::MirrorRows,
            Symmetry::MirrorDiagonal,
            Symmetry::MirrorAntiDiagonal,
        ])),
        picks in prop::collection::vec((any::<u64>(), prop::sample::select(Symmetry::ALL.to_vec())), 12),
    ) {
        let opening = four_stones(seeds, axis);
        let pos = opening.position();
        let keeping = symmetry::symmetries_of(pos);
        if let Some(axis) = axis {
            prop_assert!(keeping.contains(&axis));
        }
        let empty = opening.cells(Area::Board);
        for (seed, g) in picks {
            let a = empty[(seed % empty.len() as u64) as usize];
            let b = g.apply(a, 15);
            if pos.stone(b).is_some() {
                continue;
            }
            let by_position = keeping.iter().any(|k| k.apply(a, 15) == b);
            prop_assert_eq!(symmetry::equivalent(pos, a, b, Color::Black), by_position);
            // The opening refuses exactly those pairs (with a third, unrelated offer).
            if a != b {
                let third = opening.distinct_cells(Area::Board).into_iter()
                    .find(|&c| !symmetry::equivalent(pos, c, a, Color::Black)
                        && !symmetry::equivalent(pos, c, b, Color::Black));
                if let Some(third) = third {
                    let offer = OpeningChoice::Fifths(vec![a, third, b]);
                    let verdict = opening.is_legal(opening.to_act().unwrap(), &offer);
                    if by_position {
                        prop_assert_eq!(verdict, Err(OpeningError::Symmetrical(a, b)));
                    } else {
                        prop_assert_eq!(verdict, Ok(()));
                    }
                }
            }
        }
    }

    #[test]
    fn choice_parsing_survives_any_text(text in "\\PC{0,24}") {
        if let Ok(choice) = text.parse::<OpeningChoice>() {
            let canonical = choice.to_string();
            prop_assert_eq!(canonical.parse::<OpeningChoice>().unwrap(), choice);
        }
    }

    #[test]
    fn choice_parsing_survives_near_misses(text in "(swap|stay|black|white|declare|fifths|choose)? ?[ a-zA-Z0-9,]{0,12}") {
        let mut opening = opened(TARAGUCHI, TARAGUCHI_AT_FIFTH);
        let before = opening.clone();
        if opening.apply_str(Role::First, &text).is_err() {
            prop_assert_eq!(opening, before);
        }
    }
}
