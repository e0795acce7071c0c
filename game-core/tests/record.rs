//! Game records: move strings, SGF and PSQ round-trip real games of every game they support,
//! match the published formats on hand-checked examples, and reject bad records with errors.

use game_core::protocol::{GameResult, ResultKind};
use game_core::record::{GameRecord, RecordError};
use game_core::{AnyPosition, Color, EndReason, GameSpec, GomokuRule, Score};
use proptest::prelude::*;

/// A small deterministic generator, so the random games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Plays random legal moves (at most `max_plies`) and returns the moves and the position.
fn random_game(spec: &GameSpec, seed: u64, max_plies: usize) -> (Vec<String>, AnyPosition) {
    let mut rng = Lcg(seed);
    let mut pos = AnyPosition::new(spec).unwrap();
    let mut moves = Vec::new();
    while moves.len() < max_plies && !pos.is_over() {
        let legal = pos.legal_moves();
        let m = legal[rng.below(legal.len())].clone();
        moves.push(pos.play_str(&m).unwrap());
    }
    (moves, pos)
}

fn named(mut record: GameRecord) -> GameRecord {
    record.black = Some("Alice".into());
    record.white = Some("Bob [the bot]\\".into());
    record
}

fn gomoku(size: u32, rule: GomokuRule) -> GameSpec {
    GameSpec::gomoku(size, rule)
}

fn assert_same_game(a: &GameRecord, b: &GameRecord) {
    assert_eq!(a.spec, b.spec);
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.result, b.result);
}

#[test]
fn gomoku_round_trips_in_every_format() {
    let specs = [
        gomoku(15, GomokuRule::Freestyle),
        gomoku(7, GomokuRule::Freestyle),
        gomoku(9, GomokuRule::Standard),
        gomoku(15, GomokuRule::Renju),
        gomoku(20, GomokuRule::Renju),
        gomoku(26, GomokuRule::Freestyle),
    ];
    let mut finished = 0;
    for spec in &specs {
        for seed in 0..6 {
            let (moves, pos) = random_game(spec, seed, 400);
            let record = named(GameRecord::from_moves(spec, &moves).unwrap());
            assert_eq!(record.result.is_some(), pos.is_over());
            finished += usize::from(pos.is_over());

            let from_string = GameRecord::from_move_string(spec, &record.move_string()).unwrap();
            assert_same_game(&record, &from_string);

            let sgf = record.to_sgf().unwrap();
            let from_sgf = GameRecord::from_sgf(&sgf).unwrap();
            assert_eq!(from_sgf, record, "{sgf}");

            let GameSpec::Gomoku { rule, .. } = spec else {
                unreachable!()
            };
            let psq = record.to_psq().unwrap();
            let from_psq = GameRecord::from_psq(&psq, *rule).unwrap();
            assert_eq!(from_psq.black.as_deref(), Some("Alice"));
            assert_eq!(from_psq.white.as_deref(), Some("Bob [the bot]\\"));
            assert_same_game(&record, &from_psq);
        }
    }
    assert!(
        finished > 0,
        "no random game ended: the test covers no result"
    );
}

#[test]
fn othello_round_trips_with_passes() {
    let mut passes = 0;
    for seed in 0..40 {
        let (moves, pos) = random_game(&GameSpec::Othello, seed, 200);
        assert!(pos.is_over());
        passes += moves.iter().filter(|m| *m == "pass").count();
        let record = named(GameRecord::from_moves(&GameSpec::Othello, &moves).unwrap());
        let result = record.result.clone().unwrap();
        assert_eq!(result.reason, EndReason::Count);
        let score = result.score.unwrap();
        assert_eq!(u32::from(score.black) + u32::from(score.white), 64);

        // The move string leaves passes out; the importer puts them back.
        let string = record.move_string();
        assert!(!string.contains("pass"));
        let from_string = GameRecord::from_move_string(&GameSpec::Othello, &string).unwrap();
        assert_same_game(&record, &from_string);

        let sgf = record.to_sgf().unwrap();
        assert_eq!(GameRecord::from_sgf(&sgf).unwrap(), record, "{sgf}");

        // A file that leaves out the passes reads the same.
        let without_passes = sgf.replace(";B[]", "").replace(";W[]", "");
        assert_same_game(&GameRecord::from_sgf(&without_passes).unwrap(), &record);

        assert!(matches!(
            record.to_psq(),
            Err(RecordError::Unsupported { .. })
        ));
    }
    assert!(
        passes > 0,
        "no random game had a pass: the test covers none"
    );
}

#[test]
fn connect4_move_strings() {
    let specs = [
        GameSpec::connect4(7, 6),
        GameSpec::connect4(4, 4),
        GameSpec::Connect4 {
            cols: 9,
            rows: 7,
            blocked: vec![[4, 2], [1, 1]],
        },
        GameSpec::connect4(12, 12),
        GameSpec::connect4(10, 5),
    ];
    for spec in &specs {
        for seed in 0..8 {
            let (moves, _) = random_game(spec, seed, 200);
            let record = GameRecord::from_moves(spec, &moves).unwrap();
            let string = record.move_string();
            let GameSpec::Connect4 { cols, .. } = spec else {
                unreachable!()
            };
            if *cols > 9 && moves.len() > 1 {
                assert!(string.contains(','), "{string}");
            } else {
                assert_eq!(string.len(), moves.len());
            }
            assert_same_game(
                &record,
                &GameRecord::from_move_string(spec, &string).unwrap(),
            );
            assert!(matches!(
                record.to_sgf(),
                Err(RecordError::Unsupported { .. })
            ));
            assert!(matches!(
                record.to_psq(),
                Err(RecordError::Unsupported { .. })
            ));
        }
    }
    let spec = GameSpec::connect4(7, 6);
    let record = GameRecord::from_move_string(&spec, "4444 333 2 2 1").unwrap();
    assert_eq!(
        record.moves,
        ["4", "4", "4", "4", "3", "3", "3", "2", "2", "1"]
    );
    let record = GameRecord::from_move_string(&spec, "1212121").unwrap();
    let result = record.result.unwrap();
    assert_eq!(result.result, ResultKind::Black);
    assert_eq!(result.reason, EndReason::Four);
    let wide = GameSpec::connect4(11, 6);
    let record = GameRecord::from_move_string(&wide, "10, 11,3").unwrap();
    assert_eq!(record.moves, ["10", "11", "3"]);
    assert_eq!(record.move_string(), "10,11,3");
}

/// Black's five h8..l8 against white on the a-file.
const FIVE: [&str; 9] = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];

#[test]
fn gomoku_formats_match_the_published_ones() {
    let spec = gomoku(15, GomokuRule::Freestyle);
    let record = GameRecord::from_moves(&spec, &FIVE).unwrap();
    assert_eq!(record.move_string(), "h8a1i8a2j8a3k8a4l8");
    let result = record.result.clone().unwrap();
    assert_eq!(result.result, ResultKind::Black);
    assert_eq!(result.reason, EndReason::Five);
    assert_eq!(result.line.as_ref().map(Vec::len), Some(5));

    let sgf = named(record.clone()).to_sgf().unwrap();
    // h8 is the centre; a1 is the bottom-left corner, SGF row `o` (from the top).
    assert!(
        sgf.starts_with(
            "(;FF[4]GM[4]SZ[15]RU[freestyle]PB[Alice]PW[Bob [the bot\\]\\\\]RE[B+];B[hh];W[ao];B[ih]"
        ),
        "{sgf}"
    );
    assert!(sgf.ends_with(";B[lh])\n"), "{sgf}");

    let psq = named(record).to_psq().unwrap();
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    assert_eq!(&lines[1..4], ["8,8,0", "1,15,0", "9,8,0"]);
    assert_eq!(&lines[10..], ["-1", "Alice", "Bob [the bot]\\"]);
}

#[test]
fn imports_files_written_by_other_programs() {
    // Gomocup style: names before -1, a trailing rule line, times in ms.
    let psq = "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,8,0\r\n8,9,123\r\n9,9,1\r\nRAPFI25.zip\r\nJAX25.zip\r\n-1\r\n0,Freestyle15_1\r\n";
    let record = GameRecord::from_psq(psq, GomokuRule::Freestyle).unwrap();
    assert_eq!(record.moves, ["h8", "i8", "h7", "i7"]);
    assert_eq!(record.black.as_deref(), Some("RAPFI25.zip"));
    assert_eq!(record.white.as_deref(), Some("JAX25.zip"));
    assert_eq!(record.result, None);
    // Moves only, no trailer.
    let record =
        GameRecord::from_psq("Piskvorky 20x20, 0:0, 0\n10,10,0", GomokuRule::Renju).unwrap();
    assert_eq!(record.spec, gomoku(20, GomokuRule::Renju));
    assert_eq!(record.moves, ["j11"]);

    // SGF with FF[3] long names, whitespace, comments, variations (main line only).
    let sgf = "junk (;FF[3]GaMe[4]SZ[15]PlayerBlack[A]PW[B]C[a comment with \\] bracket]\n ;B[hh]C[x];W[ig]\n(;B[jf];W[aa])(;B[ab]))";
    let record = GameRecord::from_sgf(sgf).unwrap();
    assert_eq!(record.moves, ["h8", "i9", "j10", "a15"]);
    assert_eq!(record.black.as_deref(), Some("A"));

    // Othello: points count rows from the top, as the notation does.
    let sgf = "(;GM[2]SZ[8];B[fe];W[df])";
    let record = GameRecord::from_sgf(sgf).unwrap();
    assert_eq!(record.moves, ["f5", "d6"]);
    assert_eq!(record.spec, GameSpec::Othello);
}

#[test]
fn results_in_sgf() {
    let spec = gomoku(15, GomokuRule::Freestyle);
    let base = "(;FF[4]GM[4]SZ[15];B[hh];W[ig])";
    let with_re = |re: &str| base.replace("SZ[15]", &format!("SZ[15]RE[{re}]"));
    let resign = GameRecord::from_sgf(&with_re("W+R")).unwrap();
    assert_eq!(
        resign.result,
        Some(GameResult {
            result: ResultKind::White,
            reason: EndReason::Resign,
            line: None,
            score: None
        })
    );
    assert_eq!(
        GameRecord::from_sgf(&with_re("B+T"))
            .unwrap()
            .result
            .unwrap()
            .reason,
        EndReason::Timeout
    );
    assert_eq!(
        GameRecord::from_sgf(&with_re("B+F"))
            .unwrap()
            .result
            .unwrap()
            .reason,
        EndReason::Abandoned
    );
    assert_eq!(
        GameRecord::from_sgf(&with_re("0"))
            .unwrap()
            .result
            .unwrap()
            .result,
        ResultKind::Draw
    );
    assert_eq!(GameRecord::from_sgf(&with_re("?")).unwrap().result, None);
    // Exported and read back.
    for reason in [EndReason::Resign, EndReason::Timeout, EndReason::Abandoned] {
        let mut record = GameRecord::from_moves(&spec, &["h8", "i9"]).unwrap();
        record.result = Some(GameResult {
            result: ResultKind::Black,
            reason,
            line: None,
            score: None,
        });
        assert_eq!(
            GameRecord::from_sgf(&record.to_sgf().unwrap()).unwrap(),
            record
        );
    }
    // A recorded on-board win that the board does not show, or the wrong winner.
    assert!(matches!(
        GameRecord::from_sgf(&with_re("B+")),
        Err(RecordError::ResultMismatch { .. })
    ));
    let five = GameRecord::from_moves(&spec, &FIVE)
        .unwrap()
        .to_sgf()
        .unwrap();
    assert!(matches!(
        GameRecord::from_sgf(&five.replace("RE[B+]", "RE[W+R]")),
        Err(RecordError::ResultMismatch { .. })
    ));
    assert!(matches!(
        GameRecord::from_sgf(&with_re("X+1")),
        Err(RecordError::Sgf(_))
    ));
}

#[test]
fn othello_score_in_sgf() {
    let (moves, _) = random_game(&GameSpec::Othello, 3, 200);
    let record = GameRecord::from_moves(&GameSpec::Othello, &moves).unwrap();
    let result = record.result.clone().unwrap();
    let Score { black, white } = result.score.unwrap();
    let sgf = record.to_sgf().unwrap();
    let want = match result.result {
        ResultKind::Draw => "RE[0]".to_string(),
        ResultKind::Black => format!("RE[B+{}]", black - white),
        ResultKind::White => format!("RE[W+{}]", white - black),
        ResultKind::Aborted => panic!("a game played to its end is not aborted"),
    };
    assert!(sgf.contains(&want), "{sgf}");
}

#[test]
fn an_aborted_game_is_void_in_sgf() {
    let spec = gomoku(15, GomokuRule::Freestyle);
    let mut record = GameRecord::from_moves(&spec, &["h8"]).unwrap();
    record.result = Some(GameResult {
        result: ResultKind::Aborted,
        reason: EndReason::Aborted,
        line: None,
        score: None,
    });
    let sgf = record.to_sgf().unwrap();
    assert!(sgf.contains("RE[Void]"), "{sgf}");
    // Read back, a void game has no result.
    assert_eq!(GameRecord::from_sgf(&sgf).unwrap().result, None);
}

#[test]
fn bad_records_are_rejected() {
    let spec = gomoku(15, GomokuRule::Freestyle);
    // Move strings.
    assert!(matches!(
        GameRecord::from_move_string(&spec, "h8h8"),
        Err(RecordError::Move { index: 1, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&spec, "h8 z9"),
        Err(RecordError::Move { index: 1, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&spec, "h8i"),
        Err(RecordError::MoveString(_))
    ));
    assert!(matches!(
        GameRecord::from_move_string(&spec, "8h"),
        Err(RecordError::MoveString(_))
    ));
    // A move after the end.
    let after_end = format!("{}b1", FIVE.concat());
    assert!(matches!(
        GameRecord::from_move_string(&spec, &after_end),
        Err(RecordError::Move { index: 9, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&GameSpec::Othello, "a1"),
        Err(RecordError::Move { index: 0, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&GameSpec::Othello, "pass"),
        Err(RecordError::Move { index: 0, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&GameSpec::connect4(7, 6), "408"),
        Err(RecordError::Move { index: 1, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&GameSpec::connect4(7, 6), "1111111"),
        Err(RecordError::Move { index: 6, .. })
    ));
    assert!(matches!(
        GameRecord::from_move_string(&gomoku(30, GomokuRule::Renju), ""),
        Err(RecordError::Spec(_))
    ));
    assert!(matches!(
        GameRecord::from_moves(&spec, &["h8", "nope"]),
        Err(RecordError::Move { index: 1, .. })
    ));

    // SGF.
    for bad in [
        "",
        "no tree",
        "(;GM[1]SZ[19];B[aa])",
        "(;SZ[15];B[hh])",
        "(;GM[4]SZ[15];B[hh];W[hh])",
        "(;GM[4]SZ[15];B[hh];B[ii])",
        "(;GM[4]SZ[15];B[zz])",
        "(;GM[4]SZ[15];B[h])",
        "(;GM[4]SZ[15];B[])",
        "(;GM[4]SZ[15];B[hh]W[ii])",
        "(;GM[4]SZ[30])",
        "(;GM[4]SZ[15:13])",
        "(;GM[4]SZ[x])",
        "(;GM[2]SZ[10])",
        "(;GM[2]AB[dd][ee])",
        "(;GM[2];W[fe])",
        "(;GM[4]SZ[15];B[hh]",
        "(;GM[4]SZ[15];B[hh",
        "(;GM[4]SZ[15];B[hh]%)",
        "(GM[4])",
    ] {
        assert!(GameRecord::from_sgf(bad).is_err(), "{bad:?} accepted");
    }
    let crowded: String = (0..100u8)
        .map(|i| format!("{}{}[x]", (b'Q' + i / 26) as char, (b'A' + i % 26) as char))
        .collect();
    assert!(matches!(
        GameRecord::from_sgf(&format!("(;GM[4]{crowded})")),
        Err(RecordError::Sgf(_))
    ));
    assert!(matches!(
        GameRecord::from_sgf("(;GM[4]SZ[15];B[hh];B[ii])"),
        Err(RecordError::WrongColor {
            index: 1,
            found: Color::Black,
            expected: Color::White
        })
    ));

    // PSQ.
    for bad in [
        "",
        "Piskvork 15x15, 0:0, 0\n8,8,0",
        "Piskvorky 15x13, 0:0, 0\n8,8,0",
        "Piskvorky 3x3, 0:0, 0\n",
        "Piskvorky axb, 0:0, 0\n",
        "Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0",
        "Piskvorky 15x15, 0:0, 0\n16,8,0",
        "Piskvorky 15x15, 0:0, 0\n0,8,0",
        "Piskvorky 15x15, 0:0, 0\n8,-2,0",
        "Piskvorky 15x15, 0:0, 0\n99999999999999,1,0",
    ] {
        assert!(
            GameRecord::from_psq(bad, GomokuRule::Freestyle).is_err(),
            "{bad:?} accepted"
        );
    }
    // Renju: a forbidden point in the record is an illegal move. Black's double three at h8.
    let renju =
        "Piskvorky 15x15, 0:0, 0\n7,8,0\n1,1,0\n8,9,0\n1,2,0\n8,7,0\n1,3,0\n9,8,0\n1,4,0\n8,8,0\n";
    let spec_check = GameRecord::from_psq(renju, GomokuRule::Freestyle);
    assert!(spec_check.is_ok(), "{spec_check:?}");
    assert!(matches!(
        GameRecord::from_psq(renju, GomokuRule::Renju),
        Err(RecordError::Move { index: 8, .. })
    ));
}

/// SGF-looking text from real pieces, so the fuzzer gets past the first character.
fn sgfish() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "(", ")", ";", "GM[4]", "GM[2]", "SZ[15]", "SZ[8]", "SZ[26]", "B[hh]", "W[ig]", "B[]",
        "W[]", "B[tt]", "B[fe]", "W[df]", "RE[B+]", "RE[W+R]", "RE[0]", "PB[x]", "AB[aa]", "[",
        "]", "\\", "B[zz]", "B[aa]", "W[ab]", "C[]", " ", "é",
    ]);
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn psqish() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        (0i64..30, 0i64..30, -1i64..1000).prop_map(|(x, y, t)| format!("{x},{y},{t}")),
        Just("-1".to_string()),
        Just("Alice".to_string()),
        ".{0,12}",
    ];
    (
        prop::sample::select(vec![
            "Piskvorky 15x15, 11:11, 0",
            "Piskvorky 5x5, 0:0, 0",
            "Piskvorky 26x26, 0:0, 0",
            "Piskvorky 99x99, 0:0, 0",
            "nonsense",
        ]),
        prop::collection::vec(line, 0..30),
    )
        .prop_map(|(header, lines)| format!("{header}\n{}", lines.join("\n")))
}

fn all_specs() -> Vec<GameSpec> {
    vec![
        gomoku(15, GomokuRule::Freestyle),
        gomoku(5, GomokuRule::Renju),
        GameSpec::Othello,
        GameSpec::connect4(7, 6),
        GameSpec::connect4(12, 4),
    ]
}

proptest! {
    #[test]
    fn importers_never_panic_on_text(text in ".{0,120}") {
        let _ = GameRecord::from_sgf(&text);
        let _ = GameRecord::from_psq(&text, GomokuRule::Renju);
        for spec in all_specs() {
            let _ = GameRecord::from_move_string(&spec, &text);
        }
    }

    #[test]
    fn sgf_importer_never_panics(text in sgfish()) {
        if let Ok(record) = GameRecord::from_sgf(&text) {
            // Whatever is accepted is a legal game that exports again.
            prop_assert!(record.to_sgf().is_ok());
        }
    }

    #[test]
    fn psq_importer_never_panics(text in psqish()) {
        if let Ok(record) = GameRecord::from_psq(&text, GomokuRule::Renju) {
            prop_assert!(record.to_psq().is_ok());
        }
    }

    #[test]
    fn move_string_importer_never_panics(text in "[a-p0-9 ,pas]{0,40}") {
        for spec in all_specs() {
            if let Ok(record) = GameRecord::from_move_string(&spec, &text) {
                let again = GameRecord::from_move_string(&spec, &record.move_string());
                prop_assert_eq!(again.ok(), Some(record));
            }
        }
    }
}
