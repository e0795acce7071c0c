//! Any bytes as a server frame: `parse_server` never panics, and a message it accepts reads
//! back the same from its JSON.
#![no_main]

use game_core::protocol::parse_server;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(msg) = parse_server(text) {
        assert_eq!(parse_server(&msg.to_json()).ok(), Some(msg));
    }
});
