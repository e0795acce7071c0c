//! The rules every frame of a connection passes before any logic runs: a message rate that
//! depends on who the connection is, and a count of refusals past which it is closed.

use tokio::time::Instant;

use crate::config::Limits;
use crate::rate_limit::{Rate, RateWindow};

/// Who a connection is, for its message rate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Has sat down, created or sought a game (or not said hello yet).
    Player,
    /// Only watches.
    Spectator,
    /// Said hello with the bot key: one bot plays many games.
    Bot,
}

impl Role {
    /// The messages a connection of this role may send per window.
    #[must_use]
    pub fn rate(self, limits: &Limits) -> Rate {
        let max = match self {
            Role::Player => limits.player_msgs_per_window,
            Role::Spectator => limits.spectator_msgs_per_window,
            Role::Bot => limits.bot_msgs_per_window,
        };
        Rate::new(max, limits.rate_window)
    }
}

/// The rate windows of one connection.
#[derive(Debug, Default)]
pub struct FrameGate {
    messages: RateWindow,
    refusals: RateWindow,
}

impl FrameGate {
    /// Counts a message; false when it must be refused as over the rate.
    pub fn admit(&mut self, limits: &Limits, role: Role, now: Instant) -> bool {
        self.messages.admit(role.rate(limits), now)
    }

    /// Counts a refusal; false when the connection has drawn too many and must be closed.
    pub fn bear_refusal(&mut self, limits: &Limits, now: Instant) -> bool {
        self.refusals.admit(limits.refusal_rate(), now)
    }
}

/// The reason of a 1009 close, naming the limit.
#[must_use]
pub fn too_big_reason(max_frame_bytes: usize) -> String {
    if max_frame_bytes.is_multiple_of(1024) {
        format!("frame larger than {} KiB", max_frame_bytes / 1024)
    } else {
        format!("frame larger than {max_frame_bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_has_its_rate_and_refusals_close_past_the_limit() {
        let limits = Limits {
            player_msgs_per_window: 3,
            spectator_msgs_per_window: 1,
            bot_msgs_per_window: 5,
            max_refusals_per_window: 2,
            ..Limits::default()
        };
        let now = Instant::now();
        for (role, allowed) in [(Role::Player, 3), (Role::Spectator, 1), (Role::Bot, 5)] {
            let mut gate = FrameGate::default();
            let admitted = (0..10).filter(|_| gate.admit(&limits, role, now)).count();
            assert_eq!(admitted, allowed, "{role:?}");
        }
        let mut gate = FrameGate::default();
        assert!(gate.bear_refusal(&limits, now));
        assert!(gate.bear_refusal(&limits, now));
        assert!(!gate.bear_refusal(&limits, now));
        assert_eq!(too_big_reason(8 * 1024), "frame larger than 8 KiB");
        assert_eq!(too_big_reason(1000), "frame larger than 1000 bytes");
    }
}
