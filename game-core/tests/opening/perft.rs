//! Perft: the counts of whole trees of concrete choices.

use super::*;

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
