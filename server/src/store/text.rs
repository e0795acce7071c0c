//! How the records' colors, statuses and flags are spelled in the store: the same in every
//! backend, so that a store can be copied from one to another as text.

use game_core::protocol::RoomStatus;
use game_core::Color;

/// Milliseconds since the Unix epoch (when a player was last seen).
pub(super) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The two rematch asks, black and white, as stored (one bit each).
pub(super) fn asks_bits(asked: [bool; 2]) -> i64 {
    i64::from(asked[0]) | (i64::from(asked[1]) << 1)
}

/// The two rematch asks from their stored bits.
pub(super) fn asks_from_bits(bits: i64) -> [bool; 2] {
    [bits & 1 != 0, bits & 2 != 0]
}

pub(super) fn parse_color(s: &str) -> Color {
    if s == "white" {
        Color::White
    } else {
        Color::Black
    }
}

pub(super) fn status_str(s: RoomStatus) -> &'static str {
    match s {
        RoomStatus::Waiting => "waiting",
        RoomStatus::Playing => "playing",
        RoomStatus::Over => "over",
    }
}

pub(super) fn parse_status(s: &str) -> RoomStatus {
    match s {
        "playing" => RoomStatus::Playing,
        "over" => RoomStatus::Over,
        _ => RoomStatus::Waiting,
    }
}
