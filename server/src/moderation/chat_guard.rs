//! What keeps a room's chat clean without a moderator at hand: the operator's word list (a
//! line holding a listed word is refused), and timeouts the hall gives by itself — a player who
//! keeps flooding a room's chat, or whom several players report within an hour, is muted for a
//! while, as a moderator's action signed by the hall (`hall`), in the audit log like any.

use crate::hub::SharedHub;
use crate::store::StoredAction;

pub use super::chat_words::{read_words, ChatWords};

/// Refused lines over the rate in a row that earn a timeout.
pub const FLOOD_STRIKES: u32 = 3;

/// Distinct players whose reports of one player within [`REPORT_WINDOW_MS`] earn a timeout.
pub const REPORTS_FOR_TIMEOUT: u64 = 3;
pub const REPORT_WINDOW_MS: u64 = 3_600_000;

/// How long a timeout mutes.
pub const TIMEOUT_MINUTES: u64 = 10;

/// Who signs the hall's own actions in the audit log.
pub const HALL: &str = "hall";

/// Mutes `player` for [`TIMEOUT_MINUTES`], signed by the hall, unless a mute already holds.
pub async fn time_out(hub: SharedHub, player: String, reason: &str) {
    let now = crate::hall_time::unix_ms();
    if hub
        .sanctions()
        .in_force(&player, &["mute", "ban", "close"], now)
        .is_some()
    {
        return;
    }
    let action = StoredAction {
        id: crate::token::ordered_id(now),
        at_ms: now,
        moderator: HALL.to_string(),
        action: "mute".to_string(),
        player: player.clone(),
        room: String::new(),
        reason: reason.to_string(),
        detail: String::new(),
        until_ms: Some(now + TIMEOUT_MINUTES * 60_000),
        report: String::new(),
    };
    match crate::moderation::sanctions::act(&hub, action).await {
        Ok(()) => tracing::info!(%player, reason, "the hall timed a player out of chat"),
        Err(e) => tracing::warn!(%player, error = %e, "a chat timeout could not be stored"),
    }
}
