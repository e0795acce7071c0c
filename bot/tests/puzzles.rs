//! The puzzle generator and the shipped sets: every shipped puzzle proven again by the
//! solvers (the tree, the main line and the themes as stored), at least 300 a game, and the
//! rule that any move keeping a proven win within the length is accepted — checked move by
//! move against the solvers on freshly generated puzzles.

use std::collections::HashSet;

use game_core::puzzle::{ProofNode, Puzzle};
use game_core::{AnyPosition, GameKind};
use kibitz_bot::puzzles::connect4::Connect4Prover;
use kibitz_bot::puzzles::gomoku::GomokuProver;
use kibitz_bot::puzzles::{generate, verify, GenerateOptions, Variant};

fn shipped(variant: &str) -> Vec<Puzzle> {
    let path = format!(
        "{}/../server/puzzles/{variant}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a puzzle line reads"))
        .collect()
}

#[test]
fn every_game_ships_at_least_300_puzzles_with_unique_ids() {
    let mut ids = HashSet::new();
    let mut per_game = [0usize; 3];
    for v in Variant::ALL {
        for p in shipped(v.key()) {
            assert!(ids.insert(p.id.clone()), "{} twice", p.id);
            assert_eq!(p.variant, v.key());
            assert!(!p.themes.is_empty() && p.length >= 1, "{}", p.id);
            let game = match p.game.kind() {
                GameKind::Gomoku => 0,
                GameKind::Othello => 1,
                GameKind::Connect4 => 2,
            };
            per_game[game] += 1;
        }
    }
    assert!(per_game.iter().all(|&n| n >= 300), "{per_game:?}");
}

#[test]
fn every_shipped_puzzle_is_proven_again_by_the_solvers() {
    for v in Variant::ALL {
        let set = shipped(v.key());
        let failures = verify(&set);
        assert!(failures.is_empty(), "{}: {failures:?}", v.key());
    }
}

/// Every attacker node of `node` (at `pos`, `left` moves to go): the accepted moves are
/// exactly the candidate moves after which `wins` holds for every defender reply.
fn check_acceptance(
    pos: &AnyPosition,
    node: &ProofNode,
    left: u32,
    candidates: &mut dyn FnMut(&AnyPosition) -> Vec<String>,
    keeps: &mut dyn FnMut(&AnyPosition, u32) -> bool,
) {
    for mv in candidates(pos) {
        let mut after = pos.clone();
        let mv = after.play_str(&mv).unwrap();
        let accepted = node.0.contains_key(&mv);
        assert_eq!(accepted, keeps(&after, left), "{mv} with {left} moves left");
        if let Some(step) = node.0.get(&mv) {
            if let Some(reply) = &step.reply {
                after.play_str(reply).unwrap();
                check_acceptance(&after, &step.next, left - 1, candidates, keeps);
            }
        }
    }
}

#[test]
fn connect_four_accepts_every_column_that_keeps_the_win_in_time() {
    let options = GenerateOptions {
        variant: Variant::Connect4,
        count: 12,
        seed: 7,
        max_games: 200,
        move_nodes: 2000,
        vct: false,
        first_id: 1,
    };
    let (set, report) = generate(&options, |_| {});
    assert_eq!(set.len(), 12, "{report:?}");
    assert!(
        set.iter().any(Puzzle::has_alternatives),
        "some puzzle has a second solution"
    );
    let mut prover = Connect4Prover::new();
    for p in &set {
        let pos = AnyPosition::with_moves(&p.game, &p.moves).unwrap();
        // After an attacker's move: every defender reply leaves a win within `left - 1`.
        let mut keeps = |after: &AnyPosition, left: u32| {
            if let Some(o) = after.outcome() {
                return o.winner == Some(pos.turn());
            }
            left > 1
                && after.legal_moves().iter().all(|r| {
                    let mut next = after.clone();
                    next.play_str(r).unwrap();
                    !next.is_over() && prover.win_length(&next).unwrap().is_some_and(|j| j < left)
                })
        };
        check_acceptance(
            &pos,
            &p.proof,
            p.length,
            &mut |q| q.legal_moves(),
            &mut keeps,
        );
    }
    assert!(verify(&set).is_empty());
}

#[test]
fn gomoku_accepts_every_threat_that_keeps_a_vcf_or_vct_in_time() {
    use kibitz_bot::puzzles::proof::Prover;
    for (variant, vct) in [
        (Variant::GomokuFreestyle, false),
        (Variant::GomokuRenju, false),
        (Variant::GomokuFreestyle, true),
        (Variant::GomokuRenju, true),
    ] {
        let options = GenerateOptions {
            variant,
            count: 6,
            seed: 3,
            max_games: 400,
            move_nodes: 2000,
            vct,
            first_id: 1,
        };
        let (set, report) = generate(&options, |_| {});
        assert_eq!(set.len(), 6, "{report:?}");
        assert!(set.iter().all(|p| p
            .themes
            .contains(&(if vct { "vct" } else { "vcf" }).to_string())));
        let mut prover = GomokuProver::new();
        prover.set_threes(vct);
        for p in &set {
            let pos = AnyPosition::with_moves(&p.game, &p.moves).unwrap();
            let attacker = pos.turn();
            let mut threats = |q: &AnyPosition| {
                let mut fresh = GomokuProver::new();
                fresh.set_threes(vct);
                fresh.attacker_moves(q).unwrap()
            };
            // After a threat every defence the rules of threats leave him (the blocks of a
            // four; the points that stop an open three, and his own fours) must lose within
            // the moves left, by a VCF (or VCT) the threat search proves within its bound.
            let mut keeps = |after: &AnyPosition, left: u32| {
                if let Some(o) = after.outcome() {
                    return o.winner == Some(attacker);
                }
                let replies = prover.defender_moves(after);
                left > 1
                    && !replies.is_empty()
                    && replies.iter().all(|r| {
                        let mut next = after.clone();
                        next.play_str(r).unwrap();
                        let bound = 2 * (left - 1) - 1;
                        let plies = if vct {
                            prover.vct_plies(&next, bound).unwrap()
                        } else {
                            prover.vcf_plies(&next, bound).unwrap()
                        };
                        !next.is_over() && plies.is_some_and(|p| p <= bound)
                    })
            };
            check_acceptance(&pos, &p.proof, p.length, &mut threats, &mut keeps);
        }
        assert!(verify(&set).is_empty());
    }
}

#[test]
fn a_position_from_a_hall_game_proves_as_the_generator_proved_it() {
    // The first puzzle of each set, taken as a position a review sent: the same puzzle comes
    // back (VCT ones included: no VCF is found first), and the rules' own check passes.
    for variant in ["gomoku-freestyle", "gomoku-renju", "othello", "connect4"] {
        let set = shipped(variant);
        let firsts = [
            set.first(),
            set.iter().find(|p| p.themes.contains(&"vct".into())),
        ];
        for p in firsts.into_iter().flatten() {
            let proven = kibitz_bot::puzzles::prove_position(&p.variant, &p.game, &p.moves)
                .unwrap_or_else(|why| panic!("{}: {why}", p.id));
            assert_eq!(proven.check(), Ok(()), "{}", p.id);
            assert_eq!(
                Puzzle {
                    id: p.id.clone(),
                    ..proven
                },
                *p,
                "{}",
                p.id
            );
        }
    }
    let err = kibitz_bot::puzzles::prove_position(
        "connect4",
        &game_core::GameSpec::connect4(7, 6),
        &["4".to_string()],
    )
    .unwrap_err();
    assert!(!err.is_empty());
}

#[test]
fn every_shipped_puzzle_passes_the_rules_check_the_server_makes() {
    for variant in ["gomoku-freestyle", "gomoku-renju", "othello", "connect4"] {
        for p in shipped(variant) {
            assert_eq!(p.check(), Ok(()), "{}", p.id);
        }
    }
}
