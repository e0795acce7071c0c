//! The engine's choices on constructed positions: forced replies, the clock, the levels,
//! determinism, notation, the search's internals (singular tests, the horizon, the board's
//! recent moves) and the opening book.

use crate::common::*;
use crate::threats::FOUR_CHAINS;

#[test]
fn forced_replies_block_a_four_and_answer_an_open_three() {
    // White to move against black's closed four h8-k8 (g8 white): l8 only.
    let four = position(GomokuRule::Freestyle, "h8 i8 j8 k8", "g8 a1 o15");
    // White to move against black's open three h8-j8: g8 or k8.
    let three = position(GomokuRule::Freestyle, "h8 i8 j8", "a1 o15");
    for level in 3..=10 {
        let (best, _) = engine_move(&four, Limits::Depth(3), level, 7);
        assert_eq!(best, "l8".parse().unwrap(), "level {level}");
        let (best, _) = engine_move(&three, Limits::Depth(3), level, 7);
        assert!(
            ["g8", "k8"].contains(&best.to_string().as_str()),
            "level {level}: {best}"
        );
    }
    let board = Board::from_position(&three);
    let mut moves = Vec::new();
    movegen::generate(&board, true, usize::MAX, &mut moves);
    let mut replies: Vec<String> = moves.iter().map(|&p| board.cell(p).to_string()).collect();
    replies.sort();
    assert_eq!(replies, ["g8", "k8"]);
}

#[test]
fn defends_against_a_four_three_threat_and_keeps_the_clock() {
    // White threatens k8 (a four on row 8 and an open three on column k); black has no four.
    let pos = position(GomokuRule::Freestyle, "g8 a1 d1 g1 m1", "h8 i8 j8 k9 k10");
    assert_eq!(pos.turn(), Color::Black);
    for (level, limits) in [
        (10, Limits::Depth(4)),
        (5, Limits::Depth(4)),
        (10, Limits::Time(std::time::Duration::from_millis(40))),
        // A manager's match clock and a game clock: a move unsure of itself may be given
        // up to three times its usual time, still well inside the clock.
        (
            10,
            Limits::Range {
                usual: std::time::Duration::from_millis(20),
                most: std::time::Duration::from_millis(60),
            },
        ),
        (
            10,
            Limits::Clock {
                left: std::time::Duration::from_secs(1),
                increment: std::time::Duration::ZERO,
            },
        ),
    ] {
        let start = Instant::now();
        let (best, _) = engine_move(&pos, limits, level, 1);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        let after = with_stone(&pos, best, Color::Black);
        let mut board = Board::from_position(&after);
        assert_eq!(
            ThreatSearch::new(12).vcf(&mut board, 21),
            None,
            "level {level}: {best} leaves white a VCF"
        );
    }
}

#[test]
fn levels_from_3_take_a_five_before_blocking() {
    // Both sides have a four; black to move wins at g8 or l8 rather than blocking a5.
    let pos = position(GomokuRule::Standard, "h8 i8 j8 k8 c3", "a1 a2 a3 a4 o15");
    for level in 3..=10 {
        for limits in [
            Limits::Depth(1),
            Limits::Time(std::time::Duration::from_millis(30)),
        ] {
            let (best, score) = engine_move(&pos, limits, level, 3);
            assert!(
                ["g8", "l8"].contains(&best.to_string().as_str()),
                "level {level}: {best}"
            );
            assert_eq!(score, Score::WinIn(1));
        }
    }
}

#[test]
fn a_win_through_the_block_of_a_four_is_proven_and_reported() {
    // From a game against Rapfi: white's four f6-f10 must be blocked on f7, and after the
    // block black wins by force (11 plies). The block is the only move, yet the search
    // proves the win through it rather than searching the forced move for a score alone.
    let AnyPosition::Gomoku(pos) = parse_position(
        "h8 f9 g9 f10 g7 g10 h10 h11 e8 f8 f11 j8 g6 i12 j13 f6",
        15,
        GomokuRule::Freestyle,
    )
    .expect("a position") else {
        panic!("a Gomoku position");
    };
    let (best, score) = engine_move(&pos, Limits::Depth(1), 10, 5);
    assert_eq!(best, "f7".parse().unwrap());
    assert!(
        matches!(score, Score::WinIn(n) if (3..=11).contains(&n)),
        "{score:?}"
    );
}

#[test]
fn fixed_depth_and_node_searches_are_deterministic() {
    let pos = parse_position("h8 i9 h10 j8 g9 h9 i10", 15, GomokuRule::Renju).expect("a position");
    for limits in [Limits::Depth(4), Limits::Nodes(3_000)] {
        for level in [2, 10] {
            let mut engine = GomokuEngine::with_tt_bits(16);
            let stop = StopFlag::new();
            let a = engine
                .search(&pos, limits, Level::new(level), &stop, 5)
                .expect("a move");
            let b = engine
                .search(&pos, limits, Level::new(level), &stop, 5)
                .expect("a move");
            let c = GomokuEngine::with_tt_bits(16)
                .search(&pos, limits, Level::new(level), &stop, 5)
                .expect("a move");
            assert_eq!(
                (&a.best, a.score, a.nodes, &a.pv),
                (&b.best, b.score, b.nodes, &b.pv)
            );
            assert_eq!((&a.best, a.score, a.nodes), (&c.best, c.score, c.nodes));
        }
    }
}

#[test]
fn parses_moves_with_and_without_spaces() {
    let spaced = parse_position("h8 i9 j10", 15, GomokuRule::Freestyle).unwrap();
    let joined = parse_position("h8i9j10", 15, GomokuRule::Freestyle).unwrap();
    assert_eq!(spaced, joined);
    assert_eq!(spaced.ply(), 3);
    assert_eq!(parse_position("", 9, GomokuRule::Renju).unwrap().ply(), 0);
    assert!(parse_position("h8 h8", 15, GomokuRule::Freestyle).is_err());
    assert!(parse_position("h8 q20", 15, GomokuRule::Freestyle).is_err());
    assert!(parse_position("8h", 15, GomokuRule::Freestyle).is_err());
    assert!(parse_position("h8 i", 15, GomokuRule::Freestyle).is_err());
    assert!(parse_position("a1", 4, GomokuRule::Freestyle).is_err());
    // Finished games and other games get no move.
    let won = parse_position("a1 b1 a2 b2 a3 b3 a4 b4 a5", 9, GomokuRule::Freestyle).unwrap();
    assert!(GomokuEngine::new()
        .search(&won, Limits::Depth(2), Level::MAX, &StopFlag::new(), 0)
        .is_none());
}

#[test]
fn renju_a_line_through_an_open_four_shows_a_block_black_may_play() {
    // Found by the property test above: white's h2 makes an open four whose five-points are
    // f2, a double four for black, and k2. The line used to show black blocking on f2.
    let pos = Gomoku::from_stones(
        11,
        GomokuRule::Renju,
        &cells("g1 h1 e2 c3 e3 f3 b4 c4 f4 i4 c5 f6 h7 i7 a8 d8 a9 d9"),
        &cells("b1 c1 f1 c2 g2 i2 j2 a3 g3 h5 b6 f8 f9 i9 c10 h10 a11"),
    )
    .expect("a position");
    assert_eq!(pos.turn(), Color::White);
    assert!(pos.forbidden_kind("f2".parse().unwrap()).is_some());
    let mut board = Board::from_position(&pos);
    let win = ThreatSearch::new(12).vcf(&mut board, 25).expect("a VCF");
    let line: Vec<String> = win
        .line
        .iter()
        .map(|&p| board.cell(p).to_string())
        .collect();
    assert_eq!(line, ["h2", "k2", "f2"]);
    check_vcf_line(&pos, &board, &win);
    check_replies_forced(&pos, &board, &win);
}

#[test]
fn singular_test_searches_leave_the_board_and_the_result_unchanged() {
    use kibitz_bot::engine::gomoku::search::{Limits as SearchLimits, Searcher};
    // Opening 2 of the match set, three moves on each side: quiet enough to search to depth 9.
    let pos = freestyle("h8 g9 j6 g8 g7 i9");
    let run = |full_strength: bool| {
        let mut board = Board::from_position(&pos);
        let before = board.recount();
        let mut root = Vec::new();
        movegen::generate(&board, true, usize::MAX, &mut root);
        let mut searcher = Searcher::new(16);
        let limits = SearchLimits {
            max_depth: 9,
            full_strength,
            ..SearchLimits::default()
        };
        let it = searcher.search(&mut board, &root, limits, &StopFlag::new(), |_| {});
        assert!(board.agrees_with(&before), "the search restores the board");
        assert_eq!(board.hash(), before.hash());
        (it.best, it.score, it.nodes, searcher.singular_tests())
    };
    let (best, score, nodes, tests) = run(true);
    assert!(
        tests > 0,
        "no singular test at depth 9: {best} {score} {nodes}"
    );
    assert!(
        score.abs() < kibitz_bot::engine::value::WIN_BOUND,
        "{score}"
    );
    // A fresh searcher finds the same: the test searches leave nothing behind that differs.
    assert_eq!(run(true), (best, score, nodes, tests));
    assert_eq!(run(false).3, 0, "the levels below 10 test nothing");
}

#[test]
fn the_horizon_follows_fours_to_a_win_and_leaves_the_board_as_it_was() {
    use kibitz_bot::engine::gomoku::search::{Limits as SearchLimits, Searcher};
    // The chains of four and six fours above: a depth-1 search at full strength sees a win
    // (these chains, or a shorter one through an open three at the horizon) by following
    // fours and threats at its horizon; without the VCF probe at the leaves it sees nothing.
    for (black, white, plies) in FOUR_CHAINS {
        let pos = position(GomokuRule::Freestyle, black, white);
        let mut board = Board::from_position(&pos);
        let before = board.recount();
        let mut root = Vec::new();
        movegen::generate(&board, true, usize::MAX, &mut root);
        let search = |board: &mut Board, probe_vcf: bool| {
            let limits = SearchLimits {
                max_depth: 1,
                probe_vcf,
                ..SearchLimits::default()
            };
            Searcher::new(12).search(board, &root, limits, &StopFlag::new(), |_| {})
        };
        let it = search(&mut board, true);
        assert!(board.agrees_with(&before), "the search restores the board");
        assert_eq!(board.hash(), before.hash());
        assert!(
            it.score >= kibitz_bot::engine::value::WIN - plies as i32,
            "{plies}: {} {:?}",
            it.score,
            it.pv
        );
        let blind = search(&mut board, false);
        assert!(
            blind.score < kibitz_bot::engine::value::WIN_BOUND,
            "{}",
            blind.score
        );
    }
}

#[test]
fn the_board_tells_its_recent_moves_and_king_move_distances() {
    let pos = freestyle("h8 g9 j6");
    let mut board = Board::from_position(&pos);
    let at = |board: &Board, text: &str| board.point(text.parse().unwrap());
    // A board from a position has no moves made on it.
    assert_eq!(board.recent_move(0), None);
    let (k10, a1) = (at(&board, "k10"), at(&board, "a1"));
    board.make(k10);
    board.make(a1);
    assert_eq!(board.recent_move(0), Some(a1));
    assert_eq!(board.recent_move(1), Some(k10));
    assert_eq!(board.recent_move(2), None);
    assert_eq!(board.distance(k10, a1), 10);
    assert_eq!(board.distance(at(&board, "h8"), at(&board, "j6")), 2);
    assert_eq!(board.distance(k10, k10), 0);
    board.unmake();
    assert_eq!(board.recent_move(0), Some(k10));
}

/// Level 10 plays the whole opening book, level 9 its first replies and black's second moves
/// (positions of up to four stones), level 8 none of it; only timed moves come from it.
#[test]
fn the_opening_book_answers_each_level_as_far_as_it_has_it() {
    use kibitz_bot::engine::gomoku::book;
    // The move, whether it is the book's answer (the book's own score and depth, the move
    // alone as the line), and whether the engine searched at all.
    let answered = |pos: &Gomoku, level: u8, limits: Limits| {
        let result = GomokuEngine::with_tt_bits(16)
            .search(
                &AnyPosition::Gomoku(pos.clone()),
                limits,
                Level::new(level),
                &StopFlag::new(),
                1,
            )
            .expect("a move");
        let from_book = book::probe(pos).is_some_and(|m| {
            result.score == Score::Heuristic(m.score)
                && result.depth == m.depth
                && result.pv == [m.reply.to_string()]
        });
        (
            result.best.parse::<Cell>().expect("a cell"),
            from_book,
            result.nodes > 0,
        )
    };
    let timed = Limits::Time(std::time::Duration::from_millis(100));
    // A tournament opening, the book's reply to it, a black stone next to them: three, four
    // and five stones, each in the book.
    let three = freestyle("h8 g9 f8");
    let reply = book::probe(&three)
        .expect("the opening is in the book")
        .reply;
    let four = with_stone(&three, reply, Color::White);
    let black = book::probe(&four)
        .expect("black's second move is in the book")
        .reply;
    let free = cells("g8 h9 h7 g7 i9 i8 i7")
        .into_iter()
        .find(|&c| four.stone(c).is_none())
        .expect("a free cell next to the stones");
    let five = with_stone(&four, free, Color::Black);
    let fives = book::probe(&five)
        .expect("white's second move is in the book")
        .reply;

    assert_eq!(answered(&three, 10, timed), (reply, true, false));
    assert_eq!(answered(&four, 10, timed), (black, true, false));
    assert_eq!(answered(&five, 10, timed), (fives, true, false));
    assert_eq!(answered(&three, 9, timed), (reply, true, false));
    assert_eq!(answered(&four, 9, timed), (black, true, false));
    let (_, from_book, searched) = answered(&five, 9, timed);
    assert!(
        !from_book && searched,
        "level 9 searches white's second moves"
    );
    let (_, from_book, searched) = answered(&three, 8, timed);
    assert!(!from_book && searched, "level 8 has no book");
    // A search to a fixed depth shows the search, book or not.
    let (_, from_book, searched) = answered(&three, 10, Limits::Depth(2));
    assert!(!from_book && searched);
}
