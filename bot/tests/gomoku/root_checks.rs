//! The root's checks on positions of real games: proven wins played at once, no proven loss
//! left when a move avoids it, the defence checks' order and their second checks, and the
//! search's least share of the move after them; our own win looked for again under his threat.

use crate::common::*;

#[test]
fn plays_the_proven_win_of_a_real_game_at_once() {
    // Black to move. A timed search once played i11 here and lost, though a VCT wins: i8
    // (27 plies).
    let pos = freestyle("h8 h9 j8 i10 i7 g9 j11 k8 j9 j10 k10 k9");
    let r = thorough_engine(600_000, 3_000)
        .search(
            &AnyPosition::Gomoku(pos.clone()),
            Limits::Depth(4),
            Level::MAX,
            &StopFlag::new(),
            0,
        )
        .expect("a move");
    assert_eq!(r.best, "i8");
    assert!(matches!(r.score, Score::WinIn(n) if n > 0), "{:?}", r.score);
    assert!(r.exact);
    let solved = solve(&pos);
    assert_eq!(
        (solved.best.as_str(), solved.score),
        ("i8", Score::WinIn(27))
    );
}

/// Black to move in a game lost to Rapfi (2026-11-28): Rapfi, given the position, announces
/// a win in 17 at once; level 10 played h6 at 1 s. The proof runs through many lines of fours
/// at the horizon, the same fours in many orders, which the quiescence table answers once (the
/// search to depth 10 took 22M nodes without it, 2.3M with it).
#[test]
fn the_search_proves_the_win_of_a_game_lost_to_rapfi() {
    let pos = freestyle(
        "h8 g8 f10 g9 g7 i9 h9 h7 f9 f8 i11 h11 g12 i8 i6 j9 k10 j8 h10 l7 i10 j10 e10 g10 \
         j7 i12 f12 f11 e12 d12 e11 e13 h5 g4 g6 e8 i4 j3 i5 i3",
    );
    let r = GomokuEngine::new()
        .search(
            &AnyPosition::Gomoku(pos),
            Limits::Depth(10),
            Level::MAX,
            &StopFlag::new(),
            0,
        )
        .expect("a move");
    assert_eq!(r.best, "j6");
    assert!(matches!(r.score, Score::WinIn(n) if n > 0), "{:?}", r.score);
    assert!(r.exact);
}

#[test]
fn leaves_the_opponent_no_proven_win_when_a_move_avoids_it() {
    // Positions of real games, the move played there, and after it the opponent's win by
    // force that followed.
    for (moves, played) in [
        ("h8 g8 j10 g7 j8 h7", "k7"),
        ("h8 g8 j10 g7 g9 i7 f7 g5 h6 h7", "f9"),
        ("h8 g9 j6 g10 e9 g11 g8 f8", "g12"),
        ("h8 g9 j6 e9 f9 f8 h10 g7 h6 h7", "j7"),
        ("h8 f9 j6 g10 i6 g9", "g11"),
        ("h8 f9 f10 e11 g12 e9", "h9"),
        ("h8 f8 j10 f7 f6 g7 h7 h6 e9 g5", "j4"),
    ] {
        let pos = freestyle(moves);
        let lost = freestyle(&format!("{moves} {played}"));
        assert!(
            matches!(forced_win(&lost, 25, 300_000), Some(Some(_))),
            "{moves} {played} should lose by force"
        );
        let (best, score) = {
            let r = thorough_engine(20_000, 8_000)
                .search(
                    &AnyPosition::Gomoku(pos.clone()),
                    Limits::Depth(6),
                    Level::MAX,
                    &StopFlag::new(),
                    0,
                )
                .expect("a move");
            (r.best.parse::<Cell>().expect("a cell"), r.score)
        };
        let after = with_stone(&pos, best, pos.turn());
        assert_eq!(
            forced_win(&after, 17, 100_000),
            None,
            "after {moves} the engine's {best} ({score:?}) leaves a win by force"
        );
    }
}

/// White to move in a game lost to gobang (2026-12-01). Only k8 and k9 hold the checks against
/// black's VCT; e7's check runs out of its budget. The search to depth 14 (12 with the
/// evaluation before the learned one) proves that k8 and k9 lose all the same, by a longer
/// line (k9 k8 e7 e9 d10 d8 ...), so it turns to the moves left unproven and plays one that
/// no VCT of black's refutes, where it used to play k9.
#[test]
fn when_the_moves_that_held_prove_lost_the_unproven_ones_are_searched() {
    let pos = freestyle(
        "h8 g9 f8 g8 g7 f6 h6 i5 h7 h9 i9 i7 j10 k11 i10 k10 f10 i6 h5 h4 i4 g3 f2 k13 k12 k7 j6",
    );
    let r = thorough_engine(20_000, 3_000)
        .search(
            &AnyPosition::Gomoku(pos.clone()),
            Limits::Depth(14),
            Level::MAX,
            &StopFlag::new(),
            0,
        )
        .expect("a move");
    assert!(
        !["k8", "k9"].contains(&r.best.as_str()),
        "{} {:?}",
        r.best,
        r.score
    );
    assert!(matches!(r.score, Score::Heuristic(_)), "{:?}", r.score);
    let best = r.best.parse::<Cell>().expect("a cell");
    let after = with_stone(&pos, best, pos.turn());
    assert_eq!(
        forced_win(&after, 17, 100_000),
        None,
        "{best} leaves black a win by force"
    );
}

/// Against the opponent's win were it his move, the root checks its own best-ranked moves
/// first, then the points of his line, then its fours, then the rest: after `h8 g9 j6 f9 j7`
/// white's counter-attack g10 holds (a game was lost when its check waited behind the points
/// of black's VCT and the time ran out), and j4, a point of that VCT, does not.
#[test]
fn the_defence_checks_begin_with_the_best_ranked_moves() {
    let pos = freestyle("h8 g9 j6 f9 j7");
    let mut board = Board::from_position(&pos);
    let mut threats = ThreatSearch::new(16);
    let budget = Budget {
        nodes: 1_000_000,
        until: None,
        stop: StopFlag::new(),
    };
    let threat = root::opponent_win(&mut threats, &mut board, true, 21, &budget)
        .win
        .expect("black's VCT were it his move");
    let point = |text: &str| board.point(text.parse().expect("a cell"));
    let (g10, j4) = (point("g10"), point("j4"));
    assert!(!threat.line.contains(&g10) && threat.line.contains(&j4));

    // A ranking with g10 third, among the leaders: it is checked before the line's points.
    let mut ranked = Vec::new();
    movegen::forced_moves(&board, true, &mut ranked);
    movegen::sort_by_score(&board, board.turn(), &mut ranked);
    ranked.retain(|&m| m != g10);
    ranked.insert(LEADERS_CHECKED_FIRST - 1, g10);
    let order = root::check_order(&board, &ranked, &threat.line);
    assert_eq!(order.len(), ranked.len());
    assert_eq!(
        order[..LEADERS_CHECKED_FIRST],
        ranked[..LEADERS_CHECKED_FIRST]
    );
    let rest = &order[LEADERS_CHECKED_FIRST..];
    let on_line = rest.iter().take_while(|m| threat.line.contains(m)).count();
    let in_line = ranked[LEADERS_CHECKED_FIRST..]
        .iter()
        .filter(|m| threat.line.contains(m))
        .count();
    assert_eq!(on_line, in_line, "the line's points come next");
    let rest_in_order: Vec<_> = ranked[LEADERS_CHECKED_FIRST..]
        .iter()
        .filter(|m| !threat.line.contains(m) && !board.summary(board.turn()).fours.contains(**m))
        .collect();
    let tail: Vec<_> = rest[on_line..]
        .iter()
        .filter(|m| !board.summary(board.turn()).fours.contains(**m))
        .collect();
    assert_eq!(tail, rest_in_order, "the rest keep the ranking's order");

    let mut nodes = 0;
    assert_eq!(
        root::verdict(&mut threats, &mut board, g10, 21, &budget, &mut nodes),
        Verdict::Holds
    );
    assert_eq!(
        root::verdict(&mut threats, &mut board, j4, 21, &budget, &mut nodes),
        Verdict::Loses
    );
    assert_eq!(
        board.hash(),
        Board::from_position(&pos).hash(),
        "the board is restored"
    );
}

/// A defence checked against the opponent's VCTs a few plies longer than his threat may only
/// delay a longer one, and is checked again for those up to the longest. From a game lost to
/// gobang: after `h8 f8 g8 g9 h10 h9 f9 i10 i9 j8 h7 i6 e8` black threatens a VCT of at most
/// 11 plies; g7 and j10 hold against every VCT of 19 plies, but black wins after g7 in 33 and
/// after j10 in 23 (white played g7 and lost); e7 holds.
#[test]
fn a_defence_is_checked_again_against_longer_vcts() {
    let pos = freestyle("h8 f8 g8 g9 h10 h9 f9 i10 i9 j8 h7 i6 e8");
    let mut board = Board::from_position(&pos);
    let mut threats = ThreatSearch::new(18);
    let budget = |nodes| Budget {
        nodes,
        until: None,
        stop: StopFlag::new(),
    };
    let threat = root::opponent_win(&mut threats, &mut board, true, 33, &budget(1_000_000))
        .win
        .expect("black's VCT were it his move");
    // The length is that of the lines the search saw (9 or 11 by the order it tries them).
    assert!(threat.plies <= 11, "{}", threat.plies);
    let point = |text: &str| board.point(text.parse().expect("a cell"));
    let (g7, j10, e7) = (point("g7"), point("j10"), point("e7"));
    // Moves far from the fight, each lost to black's VCT: ranked first, they are the leaders
    // (params::LEADERS_SLICED) and the three moves above are not.
    let far: Vec<Point> = ["a1", "a15", "o1", "o15", "b1", "b15"]
        .into_iter()
        .map(point)
        .collect();

    let mut nodes = 0;
    let mut verdicts = Verdicts::new(33);
    verdicts.vct_plies = 19;
    let first = budget(1_000_000);
    assert_eq!(
        verdicts.check(&mut threats, &mut board, g7, &first, &mut nodes),
        Verdict::Holds
    );
    assert_eq!(
        verdicts.recheck(&mut threats, &mut board, g7, &first, &mut nodes),
        Verdict::Loses
    );
    assert_eq!(verdicts.get(g7), Some(Verdict::Loses), "remembered");

    let mut verdicts = Verdicts::new(33);
    verdicts.vct_plies = 19;
    let kept = root::defences(
        &mut threats,
        &mut board,
        &[g7, j10, e7],
        &threat,
        &mut verdicts,
        &first,
        root::Slices::one(None),
        |_| budget(400_000),
        &mut nodes,
    );
    assert_eq!(kept, vec![e7]);
    assert_eq!(verdicts.get(j10), Some(Verdict::Loses));
    assert_eq!(
        board.hash(),
        Board::from_position(&pos).hash(),
        "the board is restored"
    );

    // Timed, with no time for any first check (a slice of nothing): every move is left for
    // the second round, which is told that none held and checks them in turn to the same end.
    let timed = |ms| Budget {
        nodes: u64::MAX,
        until: Some(Instant::now() + Duration::from_millis(ms)),
        stop: StopFlag::new(),
    };
    // The moves' defences at 19 plies, a minute for each round: what the second round was
    // told held, the moves kept and the verdicts.
    // `known`: moves checked before, without a limit.
    let mut timed_defences =
        |threats: &mut ThreatSearch, root: &[Point], known: &[Point], slices| {
            let mut verdicts = Verdicts::new(33);
            verdicts.vct_plies = 19;
            for &m in known {
                verdicts.check(threats, &mut board, m, &timed(60_000), &mut nodes);
            }
            let mut told = None;
            let kept = root::defences(
                threats,
                &mut board,
                root,
                &threat,
                &mut verdicts,
                &timed(60_000),
                slices,
                |held| {
                    told = Some(held);
                    timed(60_000)
                },
                &mut nodes,
            );
            (told, kept, verdicts)
        };
    let (told, kept, verdicts) = timed_defences(
        &mut threats,
        &[g7, j10, e7],
        &[],
        root::Slices::one(Some(Duration::ZERO)),
    );
    assert_eq!(told, Some(0), "no first check finished");
    assert_eq!(kept, vec![e7]);
    assert_eq!(verdicts.get(g7), Some(Verdict::Loses));

    // Two passes: the short one cuts every check (as the slice of nothing above), the long
    // one (no cap) decides each at 19 plies, so the second round is told that some held
    // (one pass of nothing told it none), before it finds g7 and j10 lose (a fresh solver:
    // what the checks above cached must not decide it). The far moves ranked first, the
    // leaders, get the long pass as every move does.
    let ranked: Vec<Point> = far.iter().copied().chain([g7, j10, e7]).collect();
    let (told, kept, verdicts) = timed_defences(
        &mut ThreatSearch::new(18),
        &ranked,
        &[],
        root::Slices {
            short: Some(Duration::ZERO),
            long: None,
            leaders: Some(Duration::ZERO),
        },
    );
    assert!(
        told.is_some_and(|n| n > 0),
        "{told:?}: the long pass proved moves to hold"
    );
    assert_eq!(verdicts.get(g7), Some(Verdict::Loses));
    assert_eq!(kept, vec![e7]);
    assert_eq!(verdicts.get(j10), Some(Verdict::Loses));
    assert!(
        far.iter().all(|&m| verdicts.get(m) == Some(Verdict::Loses)),
        "the leaders decided in the long pass"
    );

    // Both passes cut every check, but e7 was known to hold: the second round is told one
    // held, and the leaders (g7, j10 and four far moves, ranked first) get their slice (no
    // cap) before the rechecks; the two far moves ranked after them do not. Without a
    // leaders' slice they stay unproven, and e7 alone is kept all the same.
    let ranked: Vec<Point> = [g7, j10]
        .into_iter()
        .chain(far.iter().copied())
        .chain([e7])
        .collect();
    let cut = |leaders| root::Slices {
        short: Some(Duration::ZERO),
        long: Some(Duration::ZERO),
        leaders,
    };
    let leaders = &ranked[..params::LEADERS_SLICED];
    let (told, kept, verdicts) = timed_defences(
        &mut ThreatSearch::new(18),
        &ranked,
        &[e7],
        cut(Some(Duration::from_secs(60))),
    );
    assert_eq!(told, Some(1), "e7 held");
    assert_eq!(kept, vec![e7]);
    assert_eq!(verdicts.get(g7), Some(Verdict::Loses), "rechecked");
    assert!(
        leaders
            .iter()
            .all(|&m| verdicts.get(m) == Some(Verdict::Loses)),
        "the leaders checked"
    );
    assert!(ranked[params::LEADERS_SLICED..8]
        .iter()
        .all(|&m| verdicts.get(m).is_none()));
    let (told, kept, verdicts) =
        timed_defences(&mut ThreatSearch::new(18), &ranked, &[e7], cut(None));
    assert_eq!(told, Some(1));
    assert_eq!(kept, vec![e7]);
    assert!(
        leaders.iter().all(|&m| verdicts.get(m).is_none()),
        "no leaders' checks"
    );
}

#[test]
fn a_timed_move_is_searched_after_a_long_attack_and_the_checks_of_his_threat() {
    // Black to move in a game against Rapfi, with a VCT of 23 plies (e9) that the timed VCTs
    // miss: the shallow search scores the attack decisive, its VCT runs on, and the checks of
    // white's threat come after it. They took the rest of the move, and its move was chosen
    // with no search at all (depth 0, 2026-12-06); now they end before the search's least
    // share of the move. The counter-win's second look for our VCT, which came after, ran
    // past it too on a slower machine (2026-12-07): every phase before the search now ends
    // there.
    let pos = freestyle("h8 g8 i10 i7 g7 i9 j9 k8 h10 h9 f8 f9");
    let r = timed_move(&pos, 500);
    assert!(r.depth > 0 || r.exact, "{r:?}");
}

#[test]
fn under_his_threat_a_timed_move_looks_again_for_its_own_win() {
    // White to move in a game against Rapfi, both sides attacking: black wins were it his
    // move, and white wins first, k13 in 21 plies. At 1 s the first slice of our VCT (12%)
    // ends before the proof; the search then kept to the moves that stop black's win, and at
    // 500 ms a move it played here lost the game (2026-12-07). Now our VCT looks again, for a
    // fifth of the move, before his threat's checks. The solver proved it in 50 ms in this
    // test's profile on the development machine (2026-12-07); the move is stretched where it
    // takes longer.
    let pos = freestyle(
        "h8 g8 i9 h7 f9 h9 g7 j10 f7 f8 e8 e7 g9 d9 d6 g10 f10 e11 i8 i7 j8 f11 k7 l6 g11 h10 \
         h12 i13 e12 j12 i10 k11 h14 l8 l9 j13 j11",
    );
    let (solved, took) = solve_timed(&pos);
    assert_eq!(
        (solved.best.as_str(), solved.score),
        ("k13", Score::WinIn(21))
    );
    let r = timed_move_as_there(&pos, 1000, took, Duration::from_millis(50));
    assert!(matches!(r.score, Score::WinIn(n) if n > 0), "{r:?}");
    assert!(r.exact, "{r:?}");
}

#[test]
fn a_forced_block_gives_its_time_to_our_win_through_it() {
    // Black to move must block white's four at k12, and wins through it, k12 in 19 plies. At
    // 500 ms a move the block was played after the first slice of our VCT (60 ms) with no
    // proof, the search for its score taking the rest; now our VCT through the block goes on
    // for most of the move (2026-12-07). The solver proved it in 71 ms in this test's profile
    // on the development machine; the move is stretched where it takes longer.
    let pos = freestyle("h8 f8 f9 h9 g9 f10 i8 e9 g7 g8 i9 j10 i7 i10 f7 h7 j8 h10 g10 j11");
    let (solved, took) = solve_timed(&pos);
    assert_eq!(
        (solved.best.as_str(), solved.score),
        ("k12", Score::WinIn(19))
    );
    let r = timed_move_as_there(&pos, 500, took, Duration::from_millis(71));
    assert_eq!(r.best, "k12");
    assert!(matches!(r.score, Score::WinIn(n) if n > 0), "{r:?}");
}
