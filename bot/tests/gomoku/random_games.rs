//! Random games against game-core: incremental patterns, moves, wins and renju forbidden
//! points agree with a recount; threat-search claims replay as wins; short threat searches
//! win exactly when every threat tried does.

use crate::common::*;

pub fn random_game(
    size: u8,
    rule: GomokuRule,
    picks: &[usize],
    mut each: impl FnMut(&Gomoku, &mut Board),
) -> (Gomoku, Board) {
    let mut pos = Gomoku::new(size, rule).expect("a size");
    let mut board = Board::from_position(&pos);
    for (i, &pick) in picks.iter().enumerate() {
        if pos.outcome().is_some() {
            break;
        }
        // Half the moves near the stones (where patterns form), half anywhere legal.
        let choices: Vec<Cell> = if i % 2 == 0 {
            let mut near = Vec::new();
            movegen::generate(&board, false, usize::MAX, &mut near);
            near.iter().map(|&p| board.cell(p)).collect()
        } else {
            pos.legal_moves()
        };
        if choices.is_empty() {
            break;
        }
        let m = choices[pick % choices.len()];
        pos.is_legal(m).expect("a legal choice");
        pos.play_unchecked(m);
        board.make(board.point(m));
        each(&pos, &mut board);
    }
    (pos, board)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn incremental_patterns_match_a_recount(
        size in 5u8..=19,
        rule in 0usize..3,
        ops in proptest::collection::vec((0u8..4, any::<usize>()), 1..50),
        learned_order in any::<bool>(),
    ) {
        let new = || {
            let board = Board::new(size, RULES[rule]);
            if learned_order { board.with_learned_order() } else { board }
        };
        let mut board = new();
        for (op, pick) in ops {
            let empty: Vec<Point> = board.points().iter().copied().filter(|&p| board.is_empty(p)).collect();
            if op == 0 && board.stones() > 0 {
                board.unmake();
            } else if !empty.is_empty() {
                board.make(empty[pick % empty.len()]);
            }
            let fresh = board.recount();
            prop_assert!(board.agrees_with(&fresh));
            prop_assert_eq!(board.hash(), board.fresh_hash());
        }
        // Unmaking everything gives back the empty board exactly.
        while board.stones() > 0 {
            board.unmake();
        }
        prop_assert!(board.agrees_with(&new()));
        prop_assert_eq!(board.hash(), 0);
    }

    #[test]
    fn threat_only_moves_keep_the_threat_sets_and_put_everything_back(
        size in 5u8..=19,
        rule in 0usize..3,
        before in proptest::collection::vec(any::<usize>(), 0..30),
        ops in proptest::collection::vec((0u8..4, any::<usize>()), 1..40),
        learned_order in any::<bool>(),
    ) {
        let board = Board::new(size, RULES[rule]);
        let mut board = if learned_order { board.with_learned_order() } else { board };
        let pick_empty = |board: &Board, pick: usize| {
            let empty: Vec<Point> = board.points().iter().copied().filter(|&p| board.is_empty(p)).collect();
            (!empty.is_empty()).then(|| empty[pick % empty.len()])
        };
        for pick in before {
            if let Some(p) = pick_empty(&board, pick) {
                board.make(p);
            }
        }
        let outside = board.recount();
        board.threats_only(|board| {
            let mut made = 0;
            for (op, pick) in ops {
                if op == 0 && made > 0 {
                    board.unmake();
                    made -= 1;
                } else if let Some(p) = pick_empty(board, pick) {
                    board.make(p);
                    made += 1;
                }
                assert!(board.threats_agree_with(&board.recount()));
                assert_eq!(board.hash(), board.fresh_hash());
            }
            for _ in 0..made {
                board.unmake();
            }
        });
        // Moves made outside the mode afterwards see the values and worths as they were.
        prop_assert!(board.agrees_with(&outside));
        if let Some(p) = pick_empty(&board, 7) {
            board.make(p);
            prop_assert!(board.agrees_with(&board.recount()));
        }
    }

    #[test]
    fn moves_wins_and_forbidden_points_agree_with_game_core(
        size in 7u8..=12,
        rule in 0usize..3,
        picks in proptest::collection::vec(any::<usize>(), 10..70),
    ) {
        random_game(size, RULES[rule], &picks, |pos, board| {
            let mover = pos.turn().other();
            let won = pos.outcome().is_some_and(|o| o.winner == Some(mover));
            assert_eq!(board.last_made_five(), won, "{pos:?}");
            assert_eq!(board.hash(), board.fresh_hash());
            if pos.outcome().is_some() {
                return;
            }
            if pos.rule() == GomokuRule::Renju {
                let forbidden = pos.forbidden_points();
                for &p in board.points() {
                    let cell = board.cell(p);
                    assert_eq!(board.is_forbidden(p), forbidden.contains(&cell), "{cell} in {pos:?}");
                }
            }
            let me = side(pos.turn());
            let five_points = winning_cells(pos, pos.turn());
            let engine_fives: Vec<Cell> = board.summary(me).fives.iter().map(|p| board.cell(p)).collect();
            let mut sorted = engine_fives.clone();
            sorted.sort_by_key(|c| (c.row, c.col));
            assert_eq!(sorted, five_points, "five-points in {pos:?}");
            for tactics in [false, true] {
                let mut moves = Vec::new();
                movegen::generate(board, tactics, usize::MAX, &mut moves);
                assert!(!moves.is_empty() || pos.legal_moves().is_empty());
                for m in moves {
                    let cell = board.cell(m);
                    assert!(pos.is_legal(cell).is_ok(), "{cell} generated in {pos:?}");
                }
            }
        });
    }

    #[test]
    fn threat_search_claims_replay_as_wins(
        size in 9u8..=15,
        rule in 0usize..3,
        picks in proptest::collection::vec(any::<usize>(), 12..45),
    ) {
        let (pos, mut board) = random_game(size, RULES[rule], &picks, |_, _| {});
        prop_assume!(pos.outcome().is_none());
        let mut threats = ThreatSearch::new(12);
        threats.set_budget(5_000, None, None);
        if let Some(win) = threats.vcf(&mut board, 25) {
            check_vcf_line(&pos, &board, &win);
            check_replies_forced(&pos, &board, &win);
            prop_assert!(win.plies as usize >= win.line.len());
        }
        prop_assert!(board.agrees_with(&board.recount()), "the search restores the board");
        if let Some(win) = threats.vct(&mut board, 9) {
            // The first move is legal, and a VCT that is all fours is a VCF.
            prop_assert!(pos.is_legal(board.cell(win.line[0])).is_ok());
        }
    }
}

/// Whether the side to move wins within `plies` by fours (and open threes, when `threes`)
/// under the threat search's rules — a four's block forced (in VCF a block must be a four),
/// an open three answered on its defence points or by a four, no answer at all a loss — with
/// every threat tried at every depth and nothing cached: the search's reference.
pub fn wins_by_threats(board: &mut Board, plies: u32, threes: bool) -> bool {
    let a = board.turn();
    if !board.summary(a).fives.is_empty() {
        return true;
    }
    if plies < 3 {
        return false;
    }
    let (block, second) = board.summary(1 - a).fives.first_two();
    if second.is_some() {
        return false;
    }
    let mut moves = Vec::new();
    match block {
        Some(x) => {
            if board.is_legal(x, a) && (threes || board.summary(a).fours.contains(x)) {
                moves.push(x);
            }
        }
        None => {
            movegen::four_moves(board, a, &mut moves);
            if threes {
                for p in board.summary(a).threes.iter() {
                    if !moves.contains(&p) && board.is_legal(p, a) {
                        moves.push(p);
                    }
                }
            }
        }
    }
    moves.into_iter().any(|m| {
        board.make(m);
        let won = every_answer_loses(board, plies - 1, threes);
        board.unmake();
        won
    })
}

/// The defender's side of [`wins_by_threats`]: whether every answer to the threat just made
/// loses within `plies`.
fn every_answer_loses(board: &mut Board, plies: u32, threes: bool) -> bool {
    let d = board.turn();
    let a = 1 - d;
    if !board.summary(d).fives.is_empty() {
        return false;
    }
    let (first, second) = board.summary(a).fives.first_two();
    if let Some(x) = first {
        if second.is_some() || !board.is_legal(x, d) {
            return true;
        }
        board.make(x);
        let won = wins_by_threats(board, plies - 1, threes);
        board.unmake();
        return won;
    }
    if !threes {
        return false;
    }
    let threats = movegen::open_four_points(board, a);
    if threats.is_empty() {
        return false;
    }
    let mut replies = Vec::new();
    movegen::defence_points(board, d, &threats, &mut replies);
    movegen::four_moves(board, d, &mut replies);
    replies.into_iter().all(|r| {
        board.make(r);
        let won = wins_by_threats(board, plies - 1, threes);
        board.unmake();
        won
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The threat search leaves out, near the end of its plies, the threats that one stone
    /// answers (they cannot win in time): it finds a win exactly when trying every threat
    /// does. Freestyle and standard: in renju a black defender may have no legal answer at
    /// all, and such a loss, which takes five plies, counts at four (as it always did).
    #[test]
    fn short_threat_searches_win_exactly_when_every_threat_tried_does(
        size in 9u8..=15,
        rule in 0usize..2,
        picks in proptest::collection::vec(any::<usize>(), 12..50),
    ) {
        let (pos, mut board) = random_game(size, RULES[rule], &picks, |_, _| {});
        prop_assume!(pos.outcome().is_none());
        for plies in 3..=6 {
            for threes in [false, true] {
                let mut threats = ThreatSearch::new(12);
                threats.set_quiet(false);
                let found = if threes {
                    threats.vct(&mut board, plies)
                } else {
                    threats.vcf(&mut board, plies)
                };
                prop_assert_eq!(
                    found.is_some(),
                    wins_by_threats(&mut board, plies, threes),
                    "{} plies, threes {}, {:?}", plies, threes, pos
                );
            }
        }
    }
}
