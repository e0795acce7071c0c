//! What the bot says in a room: a greeting, the reason when it declines a take-back (and a
//! word when it grants the last one), a line now and then when its evaluation changes a lot,
//! and "gg" at the end — never more than one line per room every few seconds, and never the
//! same line twice in a row (the server refuses repeats).

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

    /// A take-back granted with `left` more to come: only the last one is worth a line (the
    /// room's chat allows a few lines a player every ten seconds, and the refusals need them).
    #[must_use]
    pub fn take_back_granted(&mut self, left: u32) -> Option<String> {
        if left > 0 {
            return None;
        }
        self.say(
            "Take it back. That was your last take-back this game.".to_string(),
            true,
        )
    }

    /// A take-back refused because the game is rated.
    #[must_use]
    pub fn take_back_rated(&mut self) -> Option<String> {
        self.say("I decline the take-back: rated game.".to_string(), true)
    }

    /// A take-back refused because the game's `limit` is used up; `asked` numbers this request,
    /// so that a second refusal is a new line, which the server lets through.
    #[must_use]
    pub fn take_back_over_limit(&mut self, asked: u32, limit: u32) -> Option<String> {
        let plural = if limit == 1 { "" } else { "s" };
        self.say(
            format!(
                "I decline the take-back: limit of {limit} take-back{plural} reached (this is the {} request).",
                ordinal(asked)
            ),
            true,
        )
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

/// "1st", "2nd", "3rd", "4th", "11th", "22nd".
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
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

    #[test]
    fn take_back_answers_say_why_not_and_warn_of_the_last() {
        let mut t = Talk::default();
        assert_eq!(t.take_back_granted(2), None, "no line while some are left");
        assert_eq!(
            t.take_back_granted(0).as_deref(),
            Some("Take it back. That was your last take-back this game.")
        );
        assert_eq!(
            t.take_back_over_limit(4, 3).as_deref(),
            Some(
                "I decline the take-back: limit of 3 take-backs reached (this is the 4th request)."
            )
        );
        assert!(
            t.take_back_over_limit(5, 3).is_some(),
            "each refusal is a new line"
        );
        assert_eq!(
            t.take_back_rated().as_deref(),
            Some("I decline the take-back: rated game.")
        );
        assert!(t.take_back_rated().is_none(), "no repeat");
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            words,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"]
        );
    }
}
