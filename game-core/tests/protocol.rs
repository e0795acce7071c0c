//! Golden JSON tests of the wire protocol: every documented message parses from the form
//! PROTOCOL.md shows and serialises back to it; bad frames become typed errors, never panics.

use game_core::protocol::{
    parse_client, parse_server, BotSeats, Claim, ClientMsg, ClockSpec, ErrorCode, GameResult,
    JoinAs, ResultKind, SeatChoice, ServerMsg, CLIENT_TYPES,
};
use game_core::{Color, EndReason, GameSpec, GomokuRule};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Parses a documented client message and checks that it serialises back to the same JSON.
fn client_golden(text: &str) -> ClientMsg {
    let msg = parse_client(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let back: Value = serde_json::from_str(&msg.to_json()).unwrap();
    let want: Value = serde_json::from_str(text).unwrap();
    assert_eq!(back, want, "round trip of {text}");
    assert_eq!(want["t"], msg.type_name());
    msg
}

/// Same for a server message.
fn server_golden(text: &str) -> ServerMsg {
    let msg = parse_server(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let back: Value = serde_json::from_str(&msg.to_json()).unwrap();
    let want: Value = serde_json::from_str(text).unwrap();
    assert_eq!(back, want, "round trip of {text}");
    msg
}

fn error_of(text: &str) -> game_core::protocol::ParseError {
    match parse_client(text) {
        Ok(msg) => panic!("{text} parsed as {msg:?}"),
        Err(e) => e,
    }
}

#[test]
fn golden_hello() {
    assert_eq!(
        client_golden(r#"{"t":"hello","name":"Alice"}"#),
        ClientMsg::Hello {
            name: "Alice".into(),
            token: None,
            bot: None,
            house: None
        }
    );
    let house = client_golden(r#"{"t":"hello","name":"Showcase","house":{"key":"k"}}"#);
    let ClientMsg::Hello {
        house: Some(house), ..
    } = house
    else {
        panic!("no house part");
    };
    assert_eq!(house.key, "k");
    client_golden(r#"{"t":"hello","name":"Alice","token":"tok123"}"#);
    let bot = client_golden(
        r#"{"t":"hello","name":"Kibot","bot":{"key":"k","games":["gomoku","othello","connect4"],"capacity":8}}"#,
    );
    let ClientMsg::Hello { bot: Some(bot), .. } = bot else {
        panic!("no bot part");
    };
    assert_eq!(bot.capacity, 8);
    assert_eq!(bot.games.len(), 3);
}

#[test]
fn golden_create_all_clock_forms() {
    let msg = client_golden(
        r#"{"t":"create","game":{"kind":"gomoku","size":15,"rule":"renju"},"seat":"black",
            "clock":{"initial_ms":300000,"increment_ms":2000},"opening":["h8","h9"],
            "bots":{"white":5},"private":false}"#,
    );
    assert_eq!(
        msg,
        ClientMsg::Create {
            rated: false,
            game: GameSpec::gomoku(15, GomokuRule::Renju),
            seat: SeatChoice::Black,
            clock: Some(ClockSpec::Fischer {
                initial_ms: 300_000,
                increment_ms: 2000
            }),
            opening: vec!["h8".into(), "h9".into()],
            bots: Some(BotSeats {
                black: None,
                white: Some(5)
            }),
            private: false,
        }
    );
    let msg = client_golden(
        r#"{"t":"create","game":{"kind":"othello"},"seat":"none","clock":{"move_ms":5000},
            "opening":[],"private":true}"#,
    );
    assert!(matches!(
        msg,
        ClientMsg::Create {
            seat: SeatChoice::None,
            clock: Some(ClockSpec::PerMove { move_ms: 5000 }),
            private: true,
            ..
        }
    ));
    client_golden(
        r#"{"t":"create","game":{"kind":"connect4","cols":7,"rows":6,"blocked":[[4,2]]},
            "seat":"random","clock":null,"opening":[],"private":false}"#,
    );
}

#[test]
fn create_defaults() {
    let msg = parse_client(r#"{"t":"create","game":{"kind":"othello"}}"#).unwrap();
    assert_eq!(
        msg,
        ClientMsg::Create {
            rated: false,
            game: GameSpec::Othello,
            seat: SeatChoice::Random,
            clock: None,
            opening: vec![],
            bots: None,
            private: false,
        }
    );
    // A Fischer clock without increment is sudden death.
    let msg =
        parse_client(r#"{"t":"seek","game":{"kind":"othello"},"clock":{"initial_ms":60000}}"#)
            .unwrap();
    assert_eq!(
        msg,
        ClientMsg::Seek {
            game: GameSpec::Othello,
            clock: Some(ClockSpec::Fischer {
                initial_ms: 60_000,
                increment_ms: 0
            })
        }
    );
}

#[test]
fn golden_room_messages() {
    assert_eq!(
        client_golden(r#"{"t":"join","room":"r1","as":"player"}"#),
        ClientMsg::Join {
            room: "r1".into(),
            join_as: JoinAs::Player
        }
    );
    client_golden(r#"{"t":"join","room":"r1","as":"spectator"}"#);
    assert_eq!(
        client_golden(r#"{"t":"move","room":"r1","move":"h8","id":"req-1"}"#),
        ClientMsg::Move {
            room: "r1".into(),
            mv: "h8".into(),
            id: Some("req-1".into())
        }
    );
    client_golden(r#"{"t":"move","room":"r1","move":"4"}"#);
    client_golden(r#"{"t":"resign","room":"r1"}"#);
    client_golden(r#"{"t":"abort","room":"r1"}"#);
    assert_eq!(
        client_golden(r#"{"t":"claim","room":"r1","result":"draw"}"#),
        ClientMsg::Claim {
            room: "r1".into(),
            result: Claim::Draw
        }
    );
    client_golden(r#"{"t":"claim","room":"r1","result":"win"}"#);
    client_golden(r#"{"t":"undo","room":"r1"}"#);
    client_golden(r#"{"t":"undo_reply","room":"r1","accept":true}"#);
    client_golden(r#"{"t":"draw","room":"r1"}"#);
    assert_eq!(
        client_golden(r#"{"t":"draw_reply","room":"r1","accept":false}"#),
        ClientMsg::DrawReply {
            room: "r1".into(),
            accept: false
        }
    );
    client_golden(r#"{"t":"rematch","room":"r1"}"#);
    client_golden(r#"{"t":"chat","room":"r1","text":"gl hf"}"#);
    assert_eq!(
        client_golden(r#"{"t":"invite_bot","room":"r1","level":7}"#),
        ClientMsg::InviteBot {
            room: "r1".into(),
            level: 7
        }
    );
    client_golden(r#"{"t":"leave","room":"r1"}"#);
    client_golden(r#"{"t":"decline","room":"r1"}"#);
}

#[test]
fn golden_pairing_and_lobby_client() {
    client_golden(
        r#"{"t":"seek","game":{"kind":"gomoku","size":15,"rule":"freestyle"},"clock":{"move_ms":5000}}"#,
    );
    client_golden(r#"{"t":"seek","game":{"kind":"othello"},"clock":null}"#);
    assert_eq!(client_golden(r#"{"t":"unseek"}"#), ClientMsg::Unseek);
    assert_eq!(client_golden(r#"{"t":"lobby"}"#), ClientMsg::Lobby);
    assert_eq!(client_golden(r#"{"t":"unlobby"}"#), ClientMsg::Unlobby);
}

#[test]
fn golden_reviews() {
    assert_eq!(
        client_golden(r#"{"t":"review","room":"r1","ask":false}"#),
        ClientMsg::Review {
            room: "r1".into(),
            ask: false
        }
    );
    // `ask` defaults to true.
    assert!(matches!(
        parse_client(r#"{"t":"review","room":"r1"}"#),
        Ok(ClientMsg::Review { ask: true, .. })
    ));
    client_golden(
        r#"{"t":"analysis","job":"a7","ply":3,"eval":-1000,"proven":true,"win_in":-4,"best":"f5","pv":["f5","f6"]}"#,
    );
    assert_eq!(
        error_of(r#"{"t":"analysis","job":"a7","ply":3}"#).code,
        ErrorCode::BadRequest
    );
    client_golden(
        r#"{"t":"hello","name":"K","bot":{"key":"k","games":["othello"],"capacity":2,"analysis":true}}"#,
    );
    server_golden(
        r#"{"t":"analyze","job":"a7","game":{"kind":"gomoku","size":15,"rule":"renju"},"setup":["h8"],"moves":["h9","i9"]}"#,
    );
    server_golden(r#"{"t":"review","room":"r1","status":"pending","message":"waiting"}"#);
    server_golden(
        r#"{"t":"review","room":"r1","status":"done","review":{"from":0,"by":"Kibot","made_ms":5,"plies":[{"eval":35,"proven":false,"best":"j10","pv":["j10"],"move":"h9","mark":"missed_win"}]}}"#,
    );
}

#[test]
fn every_client_type_is_listed_and_covered() {
    let samples = [
        r#"{"t":"hello","name":"a"}"#,
        r#"{"t":"create","game":{"kind":"othello"}}"#,
        r#"{"t":"join","room":"r","as":"player"}"#,
        r#"{"t":"move","room":"r","move":"a1"}"#,
        r#"{"t":"resign","room":"r"}"#,
        r#"{"t":"abort","room":"r"}"#,
        r#"{"t":"claim","room":"r","result":"win"}"#,
        r#"{"t":"undo","room":"r"}"#,
        r#"{"t":"undo_reply","room":"r","accept":true}"#,
        r#"{"t":"draw","room":"r"}"#,
        r#"{"t":"draw_reply","room":"r","accept":true}"#,
        r#"{"t":"rematch","room":"r"}"#,
        r#"{"t":"chat","room":"r","text":"x"}"#,
        r#"{"t":"invite_bot","room":"r","level":1}"#,
        r#"{"t":"leave","room":"r"}"#,
        r#"{"t":"seek","game":{"kind":"othello"}}"#,
        r#"{"t":"unseek"}"#,
        r#"{"t":"lobby"}"#,
        r#"{"t":"unlobby"}"#,
        r#"{"t":"decline","room":"r"}"#,
        r#"{"t":"review","room":"r"}"#,
        r#"{"t":"analysis","job":"a1","ply":0,"eval":0,"best":"4"}"#,
    ];
    let names: Vec<&str> = samples
        .iter()
        .map(|s| parse_client(s).unwrap().type_name())
        .collect();
    assert_eq!(names, CLIENT_TYPES);
}

#[test]
fn golden_welcome_created() {
    assert_eq!(
        server_golden(r#"{"t":"welcome","player":"p1","name":"Alice","token":"tok","protocol":1}"#),
        ServerMsg::Welcome {
            account: false,
            player: "p1".into(),
            name: "Alice".into(),
            token: "tok".into(),
            protocol: game_core::protocol::PROTOCOL_VERSION,
            name_max: None,
        }
    );
    server_golden(
        r#"{"t":"welcome","player":"p1","name":"Alice","token":"tok","protocol":1,"name_max":32}"#,
    );
    server_golden(r#"{"t":"created","room":"r1"}"#);
}

#[test]
fn golden_state_with_and_without_seats() {
    let waiting = server_golden(
        r#"{"t":"state","room":"r1","seq":0,"game":{"kind":"gomoku","size":15,"rule":"freestyle"},
            "opening":[],"moves":[],"to_move":"black","status":"waiting","result":null,
            "seats":{"black":null,"white":null},"clock":null,"spectators":0,"you":null}"#,
    );
    let ServerMsg::State(state) = waiting else {
        panic!("not a state");
    };
    assert!(state.seats.black.is_none() && state.result.is_none() && state.you.is_none());

    server_golden(
        r#"{"t":"state","room":"r1","seq":12,"game":{"kind":"gomoku","size":15,"rule":"renju"},
            "opening":["h8","h9"],"moves":["i9","g7"],"to_move":"black","status":"playing",
            "result":null,
            "seats":{"black":{"player":"p1","name":"Alice","bot":false,"online":true},
                     "white":{"player":"b1","name":"Kibot","bot":true,"online":true}},
            "clock":{"black_ms":299000,"white_ms":301000,"running":"black"},
            "spectators":3,"you":"black","control":{"initial_ms":300000,"increment_ms":2000}}"#,
    );
    let over = server_golden(
        r#"{"t":"state","room":"r2","seq":70,"game":{"kind":"othello"},"opening":[],
            "moves":["f5","d6"],"to_move":"white","status":"over",
            "result":{"result":"black","reason":"count","score":{"black":40,"white":24}},
            "seats":{"black":{"player":"p1","name":"Alice","bot":false,"online":false},"white":null},
            "clock":{"black_ms":1000,"white_ms":0,"running":null},"spectators":0,"you":"white"}"#,
    );
    let ServerMsg::State(state) = over else {
        panic!("not a state");
    };
    assert_eq!(state.result.unwrap().result, ResultKind::Black);
}

#[test]
fn golden_moved() {
    assert!(matches!(
        server_golden(
            r#"{"t":"moved","room":"r1","seq":13,"ply":5,"move":"h8","by":"black","to_move":"white",
                "clock":{"black_ms":298000,"white_ms":301000,"running":"white"},"id":"req-1"}"#,
        ),
        ServerMsg::Moved {
            by: Color::Black,
            to_move: Color::White,
            id: Some(_),
            ..
        }
    ));
    server_golden(
        r#"{"t":"moved","room":"r1","seq":14,"ply":6,"move":"pass","by":"white","to_move":"black","clock":null}"#,
    );
}

#[test]
fn golden_over_with_line_and_with_score() {
    let msg = server_golden(
        r#"{"t":"over","room":"r1","seq":20,"result":"white","reason":"five",
            "line":["d4","e5","f6","g7","h8"]}"#,
    );
    assert_eq!(
        msg,
        ServerMsg::Over {
            room: "r1".into(),
            seq: 20,
            result: GameResult {
                result: ResultKind::White,
                reason: EndReason::Five,
                line: Some(["d4", "e5", "f6", "g7", "h8"].map(String::from).to_vec()),
                score: None,
            }
        }
    );
    server_golden(
        r#"{"t":"over","room":"r2","seq":61,"result":"black","reason":"count","score":{"black":40,"white":24}}"#,
    );
    server_golden(r#"{"t":"over","room":"r3","seq":9,"result":"draw","reason":"agreement"}"#);
    server_golden(r#"{"t":"over","room":"r4","seq":1,"result":"aborted","reason":"aborted"}"#);
    for reason in [
        "four",
        "full",
        "resign",
        "timeout",
        "agreement",
        "abandoned",
    ] {
        server_golden(&format!(
            r#"{{"t":"over","room":"r","seq":1,"result":"black","reason":"{reason}"}}"#
        ));
    }
}

#[test]
fn golden_offers_and_undo() {
    server_golden(r#"{"t":"undo_offer","room":"r1","seq":3,"by":"white"}"#);
    server_golden(r#"{"t":"undone","room":"r1","seq":4,"ply":7}"#);
    server_golden(r#"{"t":"draw_offer","room":"r1","seq":5,"by":"black"}"#);
    server_golden(r#"{"t":"rematch","room":"r1","seq":6,"next":"r9"}"#);
}

#[test]
fn golden_chat_crowd_seeking() {
    server_golden(
        r#"{"t":"chat","room":"r1","seq":7,"from":"p1","name":"Alice","text":"gl hf","bot":false,"seat":"black"}"#,
    );
    server_golden(
        r#"{"t":"chat","room":"r1","seq":8,"from":"p3","name":"Eve","text":"hi","bot":false,"seat":null}"#,
    );
    server_golden(
        r#"{"t":"crowd","room":"r1","spectators":3,"online":{"black":true,"white":false}}"#,
    );
    server_golden(
        r#"{"t":"crowd","room":"r1","spectators":0,"online":{"black":true,"white":false},"away":{"white":{"back_ms":55000,"claim_ms":25000}}}"#,
    );
    server_golden(r#"{"t":"seeking","seek":"s1"}"#);
}

#[test]
fn golden_lobby_and_invite() {
    server_golden(
        r#"{"t":"lobby",
            "open":[{"room":"r1","game":{"kind":"othello"},"clock":{"move_ms":5000},
                     "seats":{"black":{"player":"p1","name":"Alice","bot":false,"online":true},"white":null},
                     "created":1700000000000}],
            "live":[{"room":"r2","game":{"kind":"connect4","cols":7,"rows":6,"blocked":[]},
                     "seats":{"black":{"player":"p1","name":"Alice","bot":false,"online":true},
                              "white":{"player":"b1","name":"Kibot","bot":true,"online":true}},
                     "spectators":2,"ply":11}],
            "bots":[{"name":"Kibot","games":["gomoku","othello","connect4"],"levels":[1,2,3,4,5,6,7,8,9,10],
                     "busy":1,"capacity":8}],
            "seeks":[{"game":{"kind":"gomoku","size":15,"rule":"freestyle"},"clock":null,"waiting":2}]}"#,
    );
    server_golden(r#"{"t":"lobby","open":[],"live":[],"bots":[],"seeks":[]}"#);
    server_golden(
        r#"{"t":"lobby","open":[],
            "live":[{"room":"r3","game":{"kind":"connect4","cols":4,"rows":4,"blocked":[[4,1]]},
                     "seats":{"black":null,"white":null},"spectators":0,"ply":2,
                     "board":"............xo.#","last":"2"}],
            "bots":[],"seeks":[]}"#,
    );
    server_golden(
        r#"{"t":"invite","room":"r1","game":{"kind":"gomoku","size":15,"rule":"renju"},"seat":"white",
            "level":7,"clock":{"initial_ms":300000,"increment_ms":2000}}"#,
    );
    server_golden(
        r#"{"t":"invite","room":"r1","game":{"kind":"othello"},"seat":"black","level":1,"clock":null}"#,
    );
}

#[test]
fn golden_error() {
    let msg = server_golden(
        r#"{"t":"error","code":"illegal_move","message":"h8 is occupied","ref":"move","room":"r1","id":"req-1"}"#,
    );
    assert!(matches!(
        msg,
        ServerMsg::Error {
            code: ErrorCode::IllegalMove,
            reference: Some(_),
            ..
        }
    ));
    server_golden(r#"{"t":"error","code":"hello_required","message":"say hello first"}"#);
    // Every documented code, by its wire name.
    let names = [
        "bad_json",
        "unknown_type",
        "bad_request",
        "hello_required",
        "bad_token",
        "bad_bot_key",
        "no_such_room",
        "room_full",
        "not_a_player",
        "not_your_turn",
        "illegal_move",
        "forbidden",
        "game_over",
        "no_bot_available",
        "bad_game",
        "rate_limited",
        "too_long",
    ];
    for (code, name) in ErrorCode::ALL.iter().zip(names) {
        assert_eq!(code.as_str(), name);
        assert_eq!(serde_json::to_value(code).unwrap(), json!(name));
        server_golden(&format!(r#"{{"t":"error","code":"{name}","message":"m"}}"#));
    }
}

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
