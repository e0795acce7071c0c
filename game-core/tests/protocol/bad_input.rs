//! Bad frames become typed errors with the reference kept, never panics; unknown fields are
//! ignored; clocks out of range are refused; results read from a position's outcome.

use super::*;

#[test]
fn bad_json_and_non_objects() {
    for text in [
        "",
        "{",
        "not json",
        r#"{"t":"move",}"#,
        "[1]",
        r#""x""#,
        "3",
        "null",
        "true",
    ] {
        let e = error_of(text);
        assert_eq!(e.code, ErrorCode::BadJson, "{text}");
        assert!(e.reference.is_none());
    }
}

#[test]
fn unknown_type() {
    let e = error_of("{}");
    assert_eq!(e.code, ErrorCode::UnknownType);
    let e = error_of(r#"{"t":"nope","room":"r1","id":"7"}"#);
    assert_eq!(e.code, ErrorCode::UnknownType);
    assert_eq!(e.reference.as_deref(), Some("nope"));
    assert_eq!(e.room.as_deref(), Some("r1"));
    assert_eq!(e.id.as_deref(), Some("7"));
    assert_eq!(error_of(r#"{"t":5}"#).code, ErrorCode::UnknownType);
    assert_eq!(error_of(r#"{"t":null}"#).code, ErrorCode::UnknownType);
    // Case matters: the names are exactly those of the contract.
    assert_eq!(
        error_of(r#"{"t":"Hello","name":"a"}"#).code,
        ErrorCode::UnknownType
    );
    // Server-only types are unknown from a client.
    assert_eq!(error_of(r#"{"t":"welcome"}"#).code, ErrorCode::UnknownType);
}

#[test]
fn bad_request_keeps_reference() {
    let e = error_of(r#"{"t":"move"}"#);
    assert_eq!(e.code, ErrorCode::BadRequest);
    assert_eq!(e.reference.as_deref(), Some("move"));
    assert!(e.message.contains("room"), "{}", e.message);

    let e = error_of(r#"{"t":"move","room":"r1","id":"9"}"#);
    assert_eq!(e.code, ErrorCode::BadRequest);
    assert!(e.message.contains("move"), "{}", e.message);
    // The reply carries ref, room and id.
    let reply: Value = serde_json::from_str(&e.to_server_msg().to_json()).unwrap();
    assert_eq!(reply["t"], "error");
    assert_eq!(reply["code"], "bad_request");
    assert_eq!(reply["ref"], "move");
    assert_eq!(reply["room"], "r1");
    assert_eq!(reply["id"], "9");

    for text in [
        r#"{"t":"invite_bot","room":"r1","level":"x"}"#,
        r#"{"t":"invite_bot","room":"r1","level":300}"#,
        r#"{"t":"invite_bot","room":"r1","level":-1}"#,
        r#"{"t":"move","room":1,"move":"h8"}"#,
        r#"{"t":"join","room":"r1","as":"king"}"#,
        r#"{"t":"join","room":"r1"}"#,
        r#"{"t":"undo_reply","room":"r1","accept":"yes"}"#,
        r#"{"t":"hello"}"#,
        r#"{"t":"hello","name":"a","bot":{"key":"k"}}"#,
        r#"{"t":"hello","name":"a","bot":{"key":"k","games":["chess"],"capacity":1}}"#,
        r#"{"t":"create","game":{"kind":"chess"}}"#,
        r#"{"t":"create"}"#,
        r#"{"t":"create","game":{"kind":"othello"},"seat":"red"}"#,
        r#"{"t":"create","game":{"kind":"othello"},"bots":{"red":5}}"#,
        r#"{"t":"create","game":{"kind":"othello"},"opening":"f5"}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"initial_ms":1000,"move_ms":1000}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"increment_ms":1000}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"move_ms":"5s"}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":5000}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"days":3,"move_ms":1000}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"vacation_days":3}}"#,
        r#"{"t":"seek","game":{"kind":"othello"},"clock":{"days":-1}}"#,
    ] {
        let e = error_of(text);
        assert_eq!(e.code, ErrorCode::BadRequest, "{text}: {}", e.message);
        assert!(!e.message.is_empty());
    }
    let e = error_of(r#"{"t":"seek","game":{"kind":"othello"},"clock":{}}"#);
    assert!(e.message.contains("move_ms"), "{}", e.message);
}

#[test]
fn unknown_fields_are_ignored() {
    assert_eq!(
        parse_client(r#"{"t":"move","room":"r1","move":"h8","extra":[1,{"a":2}],"v":2}"#).unwrap(),
        ClientMsg::Move {
            room: "r1".into(),
            mv: "h8".into(),
            id: None
        }
    );
    assert_eq!(
        parse_client(r#"{"t":"lobby","since":5}"#).unwrap(),
        ClientMsg::Lobby
    );
    assert!(parse_client(
        r#"{"t":"create","game":{"kind":"othello","colour":"green"},"clock":{"move_ms":5000,"note":1}}"#
    )
    .is_ok());
    // A non-string id is not echoed but does not break the message either.
    assert!(parse_client(r#"{"t":"resign","room":"r1","id":5}"#).is_ok());
}

#[test]
fn clock_validation_bounds() {
    let fischer = |initial_ms, increment_ms| ClockSpec::Fischer {
        initial_ms,
        increment_ms,
    };
    assert!(fischer(300_000, 2000).validate().is_ok());
    assert!(fischer(1_000, 0).validate().is_ok());
    assert!(fischer(10_800_000, 60_000).validate().is_ok());
    assert!(fischer(999, 0).validate().is_err());
    assert!(fischer(0, 0).validate().is_err());
    assert!(fischer(10_800_001, 0).validate().is_err());
    assert!(fischer(60_000, 60_001).validate().is_err());
    let per_move = |move_ms| ClockSpec::PerMove { move_ms };
    assert!(per_move(5000).validate().is_ok());
    assert!(per_move(1000).validate().is_ok());
    assert!(per_move(3_600_000).validate().is_ok());
    assert!(per_move(999).validate().is_err());
    assert!(per_move(3_600_001).validate().is_err());
    assert!(per_move(999)
        .validate()
        .unwrap_err()
        .to_string()
        .contains("move_ms"));
    let days = |days, vacation_days| ClockSpec::Days {
        days,
        vacation_days,
    };
    assert!(days(1, 0).validate().is_ok());
    assert!(days(14, 30).validate().is_ok());
    assert!(days(0, 0)
        .validate()
        .unwrap_err()
        .to_string()
        .contains("days"));
    assert!(days(15, 0).validate().is_err());
    assert!(days(3, 31)
        .validate()
        .unwrap_err()
        .to_string()
        .contains("vacation_days"));
}

#[test]
fn a_correspondence_clock_reads_and_writes_in_days() {
    let spec: ClockSpec = serde_json::from_str(r#"{"days":3,"vacation_days":7}"#).unwrap();
    assert_eq!(
        spec,
        ClockSpec::Days {
            days: 3,
            vacation_days: 7
        }
    );
    assert!(spec.is_correspondence());
    assert_eq!(
        serde_json::to_value(spec).unwrap(),
        serde_json::json!({"days":3,"vacation_days":7})
    );
    let bare: ClockSpec = serde_json::from_str(r#"{"days":2}"#).unwrap();
    assert_eq!(
        bare,
        ClockSpec::Days {
            days: 2,
            vacation_days: 0
        }
    );
    assert!(!ClockSpec::PerMove { move_ms: 5000 }.is_correspondence());
}

#[test]
fn game_result_from_outcome() {
    let outcome = game_core::Outcome {
        winner: Some(Color::White),
        reason: EndReason::Five,
        line: vec![game_core::Cell::new(3, 3), game_core::Cell::new(4, 4)],
        score: None,
    };
    let r = GameResult::from_outcome(&outcome);
    assert_eq!(r.result, ResultKind::White);
    assert_eq!(r.line, Some(vec!["d4".to_string(), "e5".to_string()]));
    let draw = game_core::Outcome {
        winner: None,
        reason: EndReason::Full,
        line: vec![],
        score: None,
    };
    let r = GameResult::from_outcome(&draw);
    assert_eq!(r.result, ResultKind::Draw);
    assert_eq!(r.line, None);
    assert_eq!(ResultKind::Draw.winner(), None);
}

/// JSON-looking text built from the pieces of real messages, so the fuzzer reaches past the
/// JSON syntax check into the typed fields.
fn jsonish() -> impl Strategy<Value = String> {
    let key = prop::sample::select(vec![
        "t",
        "room",
        "move",
        "id",
        "name",
        "game",
        "clock",
        "kind",
        "as",
        "level",
        "accept",
        "bots",
        "seat",
        "opening",
        "move_ms",
        "initial_ms",
        "bot",
        "x",
    ]);
    let type_name = prop::sample::select(
        CLIENT_TYPES
            .iter()
            .map(|t| format!("\"{t}\""))
            .chain(["\"nope\"".to_string()])
            .collect::<Vec<_>>(),
    );
    let leaf = prop_oneof![
        type_name,
        Just("null".to_string()),
        Just("true".to_string()),
        Just("\"gomoku\"".to_string()),
        Just("\"white\"".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|n| n.to_string()),
        "\"[a-z0-9]{0,4}\"",
    ];
    let value = leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            prop::collection::vec((key.clone(), inner), 0..5).prop_map(|kv| {
                let body: Vec<String> = kv.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", body.join(","))
            }),
        ]
    });
    value
}

proptest! {
    #[test]
    fn parse_client_never_panics_on_text(text in ".{0,200}") {
        let _ = parse_client(&text);
    }

    #[test]
    fn parse_client_never_panics_on_jsonish(text in jsonish()) {
        match parse_client(&text) {
            // Whatever parses serialises and parses again to the same message.
            Ok(msg) => prop_assert_eq!(parse_client(&msg.to_json()).ok(), Some(msg)),
            Err(e) => {
                let reply = e.to_server_msg().to_json();
                prop_assert!(parse_server(&reply).is_ok());
            }
        }
    }

    #[test]
    fn parse_client_never_panics_on_messages_with_a_type(
        t in prop::sample::select(CLIENT_TYPES.to_vec()),
        body in jsonish(),
    ) {
        // Splice a real type into an arbitrary object.
        if let Some(rest) = body.strip_prefix('{') {
            let sep = if rest.starts_with('}') { "" } else { "," };
            let text = format!("{{\"t\":\"{t}\"{sep}{rest}");
            let _ = parse_client(&text);
        }
    }
}
