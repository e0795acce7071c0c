//! What the bot says in a room: a greeting, a line now and then when its evaluation changes a
//! lot, and "gg" at the end — never more than one line per room every few seconds, and never
//! the same line twice in a row (the server refuses repeats).

use std::time::{Duration, Instant};

use crate::engine::Score;

/// Minimum time between two of the bot's lines in one room.
pub const QUIET: Duration = Duration::from_secs(8);

/// The bot's chat memory for one room.
#[derive(Debug, Default)]
pub struct Talk {
    last_line: Option<String>,
    last_at: Option<Instant>,
    last_score: Option<Score>,
    announced_win: bool,
}

impl Talk {
    /// The greeting when a game starts.
    #[must_use]
    pub fn greeting(&mut self, name: &str, level: u8) -> Option<String> {
        self.say(
            format!("Hi, {name} here (level {level}). Good luck, have fun!"),
            true,
        )
    }

    /// "gg" at the end.
    #[must_use]
    pub fn goodbye(&mut self, won: Option<bool>) -> Option<String> {
        let line = match won {
            Some(true) => "gg, thanks for the game!",
            Some(false) => "gg, well played!",
            None => "gg, a fair draw.",
        };
        self.say(line.to_string(), true)
    }

    /// A comment on a new evaluation, when it says something a player would.
    #[must_use]
    pub fn on_score(&mut self, score: Score) -> Option<String> {
        let previous = self.last_score.replace(score);
        let line = match (previous, score) {
            (_, Score::WinIn(n)) if n > 0 && !self.announced_win => {
                self.announced_win = true;
                let moves = (n + 1) / 2;
                Some(if moves <= 1 {
                    "That should be it.".to_string()
                } else {
                    format!("I see a forced win in {moves}.")
                })
            }
            (Some(Score::Heuristic(a)), Score::Heuristic(b)) if a - b >= 300 && b < 0 => {
                Some("Hm, that was a strong move.".to_string())
            }
            (Some(Score::Heuristic(a)), Score::Heuristic(b)) if b - a >= 300 && b > 200 => {
                Some("I like my position now.".to_string())
            }
            (_, Score::WinIn(n)) if n < 0 => Some("Well played, I think you have it.".to_string()),
            _ => None,
        }?;
        self.say(line, false)
    }

    fn say(&mut self, line: String, always: bool) -> Option<String> {
        let now = Instant::now();
        if self.last_line.as_deref() == Some(line.as_str()) {
            return None;
        }
        if !always && self.last_at.is_some_and(|t| now.duration_since(t) < QUIET) {
            return None;
        }
        self.last_line = Some(line.clone());
        self.last_at = Some(now);
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speaks_rarely_and_never_repeats() {
        let mut t = Talk::default();
        assert!(t.greeting("Kibot", 5).is_some());
        assert_eq!(
            t.on_score(Score::WinIn(7)).as_deref(),
            None,
            "too soon after the greeting"
        );
        let mut t = Talk::default();
        assert_eq!(
            t.on_score(Score::WinIn(7)).as_deref(),
            Some("I see a forced win in 4.")
        );
        assert_eq!(t.on_score(Score::WinIn(5)), None, "announced once");
        assert!(t.goodbye(Some(true)).is_some());
        assert!(t.goodbye(Some(true)).is_none(), "no repeat");
        assert!(t.on_score(Score::Heuristic(10)).is_none());
    }
}
