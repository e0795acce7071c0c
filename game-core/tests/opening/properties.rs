//! Properties of random openings.

use super::*;

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
