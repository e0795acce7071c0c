//! What survives a restart of the bot: its token and the rooms it plays in, kept in a small
//! JSON file that is replaced whole on every change.

use std::collections::HashMap;
use std::path::Path;

use game_core::protocol::ClockSpec;
use game_core::Color;
use serde::{Deserialize, Serialize};

/// What survives a restart of the bot.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BotState {
    pub token: Option<String>,
    /// Rooms the bot sits in, with the level and clock it was invited with.
    pub rooms: HashMap<String, RoomMemo>,
}

/// What the bot remembers of a room it plays in.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoomMemo {
    pub level: u8,
    pub clock: Option<ClockSpec>,
    /// Take-backs granted in this game so far (a restart must not reset the limit).
    #[serde(default)]
    pub take_backs: u32,
    /// The level of each seat the bot was invited to, black and white: a bot entered in a
    /// tournament at two levels sits on both seats of the game between them.
    #[serde(default)]
    pub seat_levels: [Option<u8>; 2],
}

impl RoomMemo {
    /// A room the bot was invited to, at `level` on `seat`.
    #[must_use]
    pub fn invited(level: u8, clock: Option<ClockSpec>, seat: Color) -> RoomMemo {
        let mut seat_levels = [None, None];
        seat_levels[seat.index()] = Some(level);
        RoomMemo {
            level,
            clock,
            take_backs: 0,
            seat_levels,
        }
    }

    /// The level to play `seat` at: its own invitation's, else the room's.
    #[must_use]
    pub fn level_of(&self, seat: Option<Color>) -> u8 {
        seat.and_then(|c| self.seat_levels[c.index()])
            .unwrap_or(self.level)
    }
}

impl BotState {
    /// The state in `path`; a missing or unreadable file is a fresh start.
    #[must_use]
    pub fn load(path: Option<&Path>) -> BotState {
        path.and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Writes the state to `path`, if there is one.
    pub fn save(&self, path: Option<&Path>) {
        let Some(path) = path else { return };
        let Ok(text) = serde_json::to_string_pretty(self) else {
            return;
        };
        // Write then rename, so a crash never leaves half a file.
        let tmp = path.with_extension("tmp");
        if std::fs::write(&tmp, text).is_ok() {
            if let Err(e) = std::fs::rename(&tmp, path) {
                tracing::warn!(error = %e, "cannot save bot state");
            }
        }
    }

    /// Forgets a room; true if it was remembered.
    pub fn forget(&mut self, room: &str) -> bool {
        self.rooms.remove(room).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_and_loads_through_a_real_file() {
        let dir = std::env::temp_dir().join(format!("kibitz-bot-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bot.json");
        let mut state = BotState {
            token: Some("t0ken".into()),
            ..BotState::default()
        };
        state.rooms.insert(
            "r1".into(),
            RoomMemo {
                take_backs: 2,
                ..RoomMemo::invited(7, Some(ClockSpec::PerMove { move_ms: 4_000 }), Color::White)
            },
        );
        state.save(Some(&path));
        let loaded = BotState::load(Some(&path));
        assert_eq!(loaded.token.as_deref(), Some("t0ken"));
        assert_eq!(loaded.rooms["r1"].level, 7);
        assert_eq!(loaded.rooms["r1"].take_backs, 2);
        assert_eq!(loaded.rooms["r1"].level_of(Some(Color::White)), 7);
        std::fs::write(
            &path,
            r#"{"token":null,"rooms":{"r2":{"level":3,"clock":null}}}"#,
        )
        .unwrap();
        assert_eq!(
            BotState::load(Some(&path)).rooms["r2"].take_backs,
            0,
            "a file from before the count reads as none granted"
        );
        std::fs::write(&path, "not json").unwrap();
        assert!(
            BotState::load(Some(&path)).rooms.is_empty(),
            "a fresh start"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
