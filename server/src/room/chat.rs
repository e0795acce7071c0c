//! The rules of a room's chat: a line is trimmed, not empty, not too long, free of control
//! characters (it is one line of text), not the same as the speaker's last, and within the
//! speaker's rate.

use std::collections::HashMap;

use tokio::time::Instant;

use super::error::RoomError;
use crate::rate_limit::{Rate, RateWindow};

/// What the room remembers of each speaker.
#[derive(Default)]
pub struct ChatGate {
    windows: HashMap<String, RateWindow>,
    last: HashMap<String, String>,
    /// Lines refused over the rate in a row, by speaker.
    strikes: HashMap<String, u32>,
}

/// The line as it will be said (trimmed), or why it cannot be.
pub fn checked_line(text: &str, max_chars: usize) -> Result<String, RoomError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RoomError::EmptyChat);
    }
    if text.chars().count() > max_chars {
        return Err(RoomError::ChatTooLong(max_chars));
    }
    if text.chars().any(char::is_control) {
        return Err(RoomError::ChatControl);
    }
    Ok(text.to_string())
}

impl ChatGate {
    /// Whether `player` may say `line` at `now`: not again the same, and within `rate` (the
    /// attempt counts).
    pub fn admit(
        &mut self,
        player: &str,
        line: &str,
        rate: Rate,
        now: Instant,
    ) -> Result<(), RoomError> {
        if self.last.get(player).is_some_and(|last| last == line) {
            return Err(RoomError::ChatRepeated);
        }
        let window = self.windows.entry(player.to_string()).or_default();
        if !window.would_admit(rate, now) {
            *self.strikes.entry(player.to_string()).or_default() += 1;
            return Err(RoomError::ChatRate {
                lines: rate.max,
                secs: rate.per.as_secs(),
            });
        }
        window.admit(rate, now);
        Ok(())
    }

    /// `player` said `line` (it is stored): the next line must differ.
    pub fn said(&mut self, player: &str, line: String) {
        self.strikes.remove(player);
        self.last.insert(player.to_string(), line);
    }

    /// Whether `player` has had `strikes` lines refused over the rate in a row; if so the
    /// count starts again.
    pub fn struck_out(&mut self, player: &str, strikes: u32) -> bool {
        let out = self.strikes.get(player).is_some_and(|n| *n >= strikes);
        if out {
            self.strikes.remove(player);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::time::Duration;

    #[test]
    fn lines_are_trimmed_and_bounded() {
        assert_eq!(checked_line("  gl hf ", 10).unwrap(), "gl hf");
        assert_eq!(checked_line("   ", 10).unwrap_err(), RoomError::EmptyChat);
        assert_eq!(checked_line(&"é".repeat(10), 10).unwrap(), "é".repeat(10));
        assert_eq!(
            checked_line(&"x".repeat(11), 10).unwrap_err(),
            RoomError::ChatTooLong(10)
        );
        for text in [
            "a\u{0}b",
            "bell\u{7}",
            "\u{1b}[31mred",
            "two\nlines",
            "tab\there",
        ] {
            assert_eq!(
                checked_line(text, 140).unwrap_err(),
                RoomError::ChatControl,
                "{text:?}"
            );
        }
        assert_eq!(checked_line("\ttrimmed\n", 140).unwrap(), "trimmed");
    }

    #[test]
    fn repeats_and_floods_are_refused() {
        let rate = Rate::new(2, Duration::from_secs(10));
        let t0 = Instant::now();
        let mut gate = ChatGate::default();
        gate.admit("p", "one", rate, t0).unwrap();
        gate.said("p", "one".into());
        assert_eq!(
            gate.admit("p", "one", rate, t0).unwrap_err(),
            RoomError::ChatRepeated
        );
        assert!(
            gate.admit("q", "one", rate, t0).is_ok(),
            "another speaker may"
        );
        gate.admit("p", "two", rate, t0).unwrap();
        gate.said("p", "two".into());
        assert_eq!(
            gate.admit("p", "three", rate, t0).unwrap_err(),
            RoomError::ChatRate { lines: 2, secs: 10 }
        );
        assert!(!gate.struck_out("p", 2), "one line over the rate");
        assert!(gate.admit("p", "four", rate, t0).is_err());
        assert!(gate.struck_out("p", 2), "two in a row");
        assert!(!gate.struck_out("p", 2), "the count starts again");
        assert!(gate
            .admit("p", "three", rate, t0 + Duration::from_secs(10))
            .is_ok());
    }
}
