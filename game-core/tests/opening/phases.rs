//! The legal choices and their counts at every phase, and the renju openings Soosõrv-8 makes.

use super::*;

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
