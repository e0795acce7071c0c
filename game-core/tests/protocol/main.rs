//! Golden JSON tests of the wire protocol: every documented message parses from the form
//! PROTOCOL.md shows and serialises back to it; bad frames become typed errors, never panics
//! (`bad_input.rs`).

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
        r#"{"t":"challenged","challenge":"c1@A","from":{"player":"p1","name":"Ann"},"game":{"kind":"othello"},"clock":null,"color":"black","rated":false}"#,
    );
    server_golden(
        r#"{"t":"challenge_declined","challenge":"c1@A","by":"Bob","reason":"too_fast","message":"Bob declined: this time control is too fast for them"}"#,
    );
    server_golden(r#"{"t":"challenge_gone","challenge":"c1@A","why":"expired"}"#);
    assert_eq!(
        error_of(r#"{"t":"challenge_reply","challenge":"c1","accept":false,"reason":"rude"}"#).code,
        ErrorCode::BadRequest
    );
    server_golden(
        r#"{"t":"prove_puzzle","job":"p4","variant":"connect4","game":{"kind":"connect4","cols":7,"rows":6,"blocked":[]},"moves":["4","4"]}"#,
    );
    server_golden(
        r#"{"t":"analysis_move","id":"7","by":"Kibot","move":"h9","depth":9,"eval":-35,"proven":false}"#,
    );
    client_golden(
        r#"{"t":"analyse","id":"7","game":{"kind":"othello"},"position":null,"moves":["f5"],"rate":["d6","f6"]}"#,
    );
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
        r#"{"t":"challenge","to":"Bob","game":{"kind":"othello"}}"#,
        r#"{"t":"challenge_reply","challenge":"c1","accept":false,"reason":"too_fast"}"#,
        r#"{"t":"challenge_cancel","challenge":"c1"}"#,
        r#"{"t":"lobby"}"#,
        r#"{"t":"unlobby"}"#,
        r#"{"t":"decline","room":"r"}"#,
        r#"{"t":"review","room":"r"}"#,
        r#"{"t":"analysis","job":"a1","ply":0,"eval":0,"best":"4"}"#,
        r#"{"t":"analyse","id":"1","game":{"kind":"othello"},"position":null,"moves":["f5"]}"#,
        r#"{"t":"analyse_stop"}"#,
        r#"{"t":"analysis_line","job":"l1","depth":3,"eval":12,"best":"d6","pv":["d6"]}"#,
        r#"{"t":"analysis_done","job":"l1"}"#,
        r#"{"t":"analysis_move","job":"l1","move":"d6","depth":4,"eval":-20}"#,
        r#"{"t":"puzzle_proof","job":"p1","puzzle":null,"reason":"no forced win"}"#,
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
fn golden_live_analysis() {
    server_golden(
        r#"{"t":"analyse_live","job":"l1","game":{"kind":"othello"},"moves":["f5"],"ms":10000}"#,
    );
    server_golden(r#"{"t":"analyse_stop","job":"l1"}"#);
    server_golden(
        r#"{"t":"analysis_line","id":"7","by":"Kibot","depth":9,"eval":-35,"proven":false,"best":"d6","pv":["d6","c5"],"nodes":123456,"ms":800}"#,
    );
    server_golden(r#"{"t":"analysis_status","id":"7","status":"failed","message":"no worker"}"#);
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

mod bad_input;
