//! Fuzzing of every parser of untrusted text: the protocol's `parse_client` and
//! `parse_server`, move notation, game specs and game records (move strings, SGF, PSQ), on
//! arbitrary text and on mutations of the corpus in `fuzz/corpus/`. None may panic; every
//! refusal is a typed error; whatever is accepted reads back the same after writing it out.
//!
//! `cargo test` runs a few hundred cases; a long run sets `KIBITZ_FUZZ_CASES`
//! (docs/benchmarks.md, "Fuzzing"). The coverage-guided targets of `fuzz/` share the corpus.

use std::str::FromStr;

use crate::support::fuzz::{
    cases, corpus, mutate, mutated, mutation, CLIENT_CORPUS, SERVER_CORPUS,
};
use game_core::protocol::{
    parse_client, parse_server, ClientMsg, ErrorCode, ParseError, CLIENT_TYPES,
};
use game_core::record::GameRecord;
use game_core::{AnyPosition, Cell, GameSpec, GomokuRule};
use proptest::prelude::*;

/// The contract of a client frame: accepted messages read back the same, and as a JSON value
/// read into the message would (the parser reads well-formed frames without that detour);
/// refusals are one of the three parse codes with a short message and a bounded echo of the
/// type.
fn check_client_frame(text: &str) -> Result<(), TestCaseError> {
    match parse_client(text) {
        Ok(msg) => {
            prop_assert_eq!(parse_client(&msg.to_json()), Ok(msg.clone()), "{}", text);
            let through_value = serde_json::from_str::<serde_json::Value>(text)
                .and_then(serde_json::from_value::<ClientMsg>);
            prop_assert_eq!(through_value.ok(), Some(msg), "{}", text);
        }
        Err(e) => check_refusal(text, &e)?,
    }
    Ok(())
}

fn check_refusal(text: &str, e: &ParseError) -> Result<(), TestCaseError> {
    prop_assert!(
        matches!(
            e.code,
            ErrorCode::BadJson | ErrorCode::UnknownType | ErrorCode::BadRequest
        ),
        "{text}: {e:?}"
    );
    prop_assert!(!e.message.is_empty(), "{text}");
    prop_assert!(e.message.chars().count() <= 161, "{text}: {}", e.message);
    if let Some(t) = &e.reference {
        prop_assert!(
            t.chars().count() <= 32 || CLIENT_TYPES.contains(&t.as_str()),
            "{text}"
        );
    }
    let reply = e.to_server_msg().to_json();
    prop_assert!(parse_server(&reply).is_ok(), "the reply {reply} reads back");
    Ok(())
}

/// Accepted server messages read back the same.
fn check_server_frame(text: &str) -> Result<(), TestCaseError> {
    if let Ok(msg) = parse_server(text) {
        let again = parse_server(&msg.to_json());
        prop_assert_eq!(again.ok(), Some(msg), "{}", text);
    }
    Ok(())
}

/// The games whose notation is fuzzed: every kind, small and large boards.
fn specs() -> Vec<GameSpec> {
    vec![
        GameSpec::gomoku(15, GomokuRule::Freestyle),
        GameSpec::gomoku(5, GomokuRule::Renju),
        GameSpec::gomoku(26, GomokuRule::Standard),
        GameSpec::Othello,
        GameSpec::connect4(7, 6),
        GameSpec::Connect4 {
            cols: 12,
            rows: 12,
            blocked: vec![[1, 1], [12, 12]],
        },
    ]
}

/// Notation texts: real moves of every game, mutated.
fn notation() -> impl Strategy<Value = String> {
    let moves = vec![
        "h8", "a1", "o15", "z26", "A1", "pass", "4", "12", "d3", "f5", "10", "", "h08", "a0",
    ];
    prop_oneof![
        (
            prop::sample::select(moves),
            prop::collection::vec(mutation(), 0..3)
        )
            .prop_map(|(m, ms)| mutate(m, &ms)),
        "\\PC{0,6}",
    ]
}

/// Moves of one game as played so far; a move text then checked against the position.
fn check_move(position: &mut AnyPosition, text: &str) -> Result<(), TestCaseError> {
    let before = position.clone();
    match position.check_str(text) {
        Ok(canonical) => {
            prop_assert_eq!(position.check_str(&canonical), Ok(canonical.clone()));
            prop_assert_eq!(position.play_str(text), Ok(canonical));
        }
        Err(_) => {
            prop_assert!(position.play_str(text).is_err(), "{text}");
            prop_assert_eq!(&*position, &before, "a refused move changes nothing");
        }
    }
    Ok(())
}

/// A record that was read writes out and reads back to the same moves.
fn check_record(record: &GameRecord) -> Result<(), TestCaseError> {
    let again = GameRecord::from_move_string(&record.spec, &record.move_string());
    prop_assert_eq!(again.map(|r| r.moves), Ok(record.moves.clone()));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    #[test]
    fn client_frames_from_mutated_corpus_lines(text in mutated(corpus(CLIENT_CORPUS))) {
        check_client_frame(&text)?;
    }

    #[test]
    fn client_frames_from_any_text(text in "\\PC{0,120}") {
        check_client_frame(&text)?;
    }

    #[test]
    fn server_frames_from_mutated_corpus_lines(text in mutated(corpus(SERVER_CORPUS))) {
        check_server_frame(&text)?;
    }

    #[test]
    fn cells_and_moves_of_every_game(
        texts in prop::collection::vec(notation(), 1..40),
        which in 0usize..6,
    ) {
        for text in &texts {
            if let Ok(cell) = Cell::from_str(text) {
                prop_assert_eq!(Cell::from_str(&cell.to_string()), Ok(cell));
            }
        }
        let spec = &specs()[which];
        let mut position = AnyPosition::new(spec).expect("a valid spec");
        for text in &texts {
            check_move(&mut position, text)?;
        }
    }

    #[test]
    fn game_specs_from_mutated_json(text in mutated(vec![
        r#"{"kind":"gomoku","size":15,"rule":"renju"}"#,
        r#"{"kind":"othello"}"#,
        r#"{"kind":"connect4","cols":7,"rows":6,"blocked":[[4,2]]}"#,
    ])) {
        if let Ok(spec) = serde_json::from_str::<GameSpec>(&text) {
            if spec.validate().is_ok() {
                prop_assert!(AnyPosition::new(&spec).is_ok(), "{text}");
            } else {
                prop_assert!(AnyPosition::new(&spec).is_err(), "{text}");
            }
        }
    }

    #[test]
    fn records_from_move_strings(text in "[a-pA-P0-9 ,]{0,40}|\\PC{0,20}", which in 0usize..6) {
        let spec = &specs()[which];
        if let Ok(record) = GameRecord::from_move_string(spec, &text) {
            check_record(&record)?;
        }
    }

    #[test]
    fn records_from_mutated_sgf_and_psq(
        sgf in mutated(vec![
            "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[Alice]PW[Bob];B[hh];W[ii];B[hi])",
            "(;GM[2]FF[4]SZ[8];B[f5];W[f6])",
        ]),
        psq in mutated(vec!["Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n-1\nAlice\nBob\n"]),
    ) {
        if let Ok(record) = GameRecord::from_sgf(&sgf) {
            check_record(&record)?;
        }
        if let Ok(record) = GameRecord::from_psq(&psq, GomokuRule::Freestyle) {
            check_record(&record)?;
        }
    }
}

/// Every corpus line as it is: the fast replay of the inputs kept as interesting.
#[test]
fn every_corpus_line_is_read_or_refused_with_a_typed_error() {
    for line in corpus(CLIENT_CORPUS) {
        check_client_frame(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    for line in corpus(SERVER_CORPUS) {
        check_server_frame(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    // The corpus keeps its known refusals: a frame nested too deep, a lone surrogate, an
    // unknown type, a wrong field type.
    let refused: Vec<ErrorCode> = corpus(CLIENT_CORPUS)
        .iter()
        .filter_map(|line| parse_client(line).err().map(|e| e.code))
        .collect();
    for code in [
        ErrorCode::BadJson,
        ErrorCode::UnknownType,
        ErrorCode::BadRequest,
    ] {
        assert!(refused.contains(&code), "the corpus has a {code} line");
    }
}
