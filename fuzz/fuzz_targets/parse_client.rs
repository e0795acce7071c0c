//! Any bytes as a client frame: `parse_client` never panics, a message it accepts reads back
//! the same from its JSON, and a refusal is one of the three parse codes whose reply is a
//! server message.
#![no_main]

use game_core::protocol::{parse_client, parse_server, ErrorCode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_client(text) {
        Ok(msg) => assert_eq!(parse_client(&msg.to_json()), Ok(msg)),
        Err(e) => {
            assert!(matches!(
                e.code,
                ErrorCode::BadJson | ErrorCode::UnknownType | ErrorCode::BadRequest
            ));
            assert!(!e.message.is_empty() && e.message.chars().count() <= 161);
            assert!(parse_server(&e.to_server_msg().to_json()).is_ok());
        }
    }
});
