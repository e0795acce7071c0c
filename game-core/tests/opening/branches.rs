//! Every branch of the three rules played out to an ordinary game.

use super::*;

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
