//! The operator's word list (`--chat-words FILE`): read once at start, a line of chat holding a
//! listed word is refused (`chat_guard.rs` applies it). Apart from the guard, which needs
//! the hub, so that the configuration can hold the list.

use std::sync::Arc;

/// The operator's word list, lower-cased; each entry a word or a phrase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatWords(pub Arc<Vec<String>>);

/// Reads a word list: one word or phrase a line, blank lines and `#` comments left out; no
/// file (an empty path) is an empty list.
pub fn read_words(path: &str) -> Result<ChatWords, String> {
    if path.is_empty() {
        return Ok(ChatWords::default());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let words = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_lowercase)
        .collect();
    Ok(ChatWords(Arc::new(words)))
}

impl ChatWords {
    /// Whether `line` holds a listed word: a word of letters and digits matches whole words
    /// only (a listed "ass" leaves "class" alone); anything else (a phrase with spaces or
    /// punctuation, a word in a script without spaces) matches anywhere.
    #[must_use]
    pub fn holds_one(&self, line: &str) -> bool {
        let line = line.to_lowercase();
        self.0.iter().any(|word| {
            if word.chars().all(|c| c.is_ascii_alphanumeric()) {
                line.split(|c: char| !c.is_alphanumeric())
                    .any(|w| w == word)
            } else {
                line.contains(word.as_str())
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_and_phrases() {
        let words = ChatWords(Arc::new(vec![
            "ass".into(),
            "go away".into(),
            "笨蛋".into(),
        ]));
        assert!(words.holds_one("you ASS!"));
        assert!(!words.holds_one("a classic class"));
        assert!(words.holds_one("just Go Away now"));
        assert!(words.holds_one("你这个笨蛋"));
        assert!(!words.holds_one("good game"));
        assert!(!ChatWords::default().holds_one("anything"));
    }

    #[test]
    fn a_list_leaves_out_blanks_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("words.txt");
        std::fs::write(&path, "# the hall's list\n\nBadWord\n  another one \n").unwrap();
        let words = read_words(path.to_str().unwrap()).unwrap();
        assert_eq!(*words.0, ["badword", "another one"]);
        assert!(read_words("/no/such/file")
            .unwrap_err()
            .contains("cannot read"));
        assert_eq!(read_words("").unwrap(), ChatWords::default());
    }
}
