//! What the fuzz tests share: the kept corpus of `fuzz/corpus/`, the case count of a run
//! (`KIBITZ_FUZZ_CASES`), and mutations of valid text — deletions, insertions of pieces that
//! matter to a JSON reader or to the notation, replacements, duplications, truncations.

use proptest::prelude::*;

pub const CLIENT_CORPUS: &str = include_str!("../../../fuzz/corpus/frames.txt");
pub const SERVER_CORPUS: &str = include_str!("../../../fuzz/corpus/server_frames.txt");

/// Cases per property: `KIBITZ_FUZZ_CASES`, or `default` (what `cargo test` runs).
pub fn cases(default: u32) -> u32 {
    std::env::var("KIBITZ_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

pub fn corpus(text: &'static str) -> Vec<&'static str> {
    text.lines().filter(|l| !l.is_empty()).collect()
}

/// Pieces that matter to a JSON reader or to the notation, to splice into valid text.
pub const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ":",
    ",",
    "\\",
    "\\u",
    "\\ud800",
    "\\u0000",
    "null",
    "true",
    "-",
    "0",
    "-0",
    "1e999",
    "18446744073709551616",
    "-9223372036854775809",
    "0.5",
    "\"t\"",
    "\"move\"",
    "\"room\"",
    "\"pass\"",
    "\"h8\"",
    "\"gomoku\"",
    "\"connect4\"",
    " ",
    "\u{0}",
    "é",
    "😀",
    "\u{202e}",
    "a",
    "z",
    "26",
    "99",
];

/// One change to a text, positions taken modulo its length in characters.
#[derive(Clone, Debug)]
pub enum Mutation {
    Delete(usize, usize),
    Insert(usize, String),
    Replace(usize, String),
    Duplicate(usize, usize),
    Truncate(usize),
}

pub fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
        1 => "\\PC{0,4}",
    ]
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, n)| Mutation::Delete(at, n)),
        (any::<usize>(), piece()).prop_map(|(at, s)| Mutation::Insert(at, s)),
        (any::<usize>(), piece()).prop_map(|(at, s)| Mutation::Replace(at, s)),
        (any::<usize>(), 1usize..16).prop_map(|(at, n)| Mutation::Duplicate(at, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

/// `text` with the mutations applied in order.
pub fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in mutations {
        let len = chars.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match m {
            Mutation::Delete(i, n) => {
                let start = at(*i).min(len);
                let end = (start + n).min(len);
                chars.drain(start..end);
            }
            Mutation::Insert(i, s) => {
                let start = at(*i);
                chars.splice(start..start, s.chars());
            }
            Mutation::Replace(i, s) => {
                let start = at(*i).min(len.saturating_sub(1));
                let end = (start + 1).min(len);
                chars.splice(start..end, s.chars());
            }
            Mutation::Duplicate(i, n) => {
                let start = at(*i).min(len);
                let end = (start + n).min(len);
                let copy: Vec<char> = chars[start..end].to_vec();
                chars.splice(end..end, copy);
            }
            Mutation::Truncate(i) => chars.truncate(at(*i)),
        }
    }
    chars.into_iter().collect()
}

/// A corpus line, mutated.
pub fn mutated(corpus: Vec<&'static str>) -> impl Strategy<Value = String> {
    (
        prop::sample::select(corpus),
        prop::collection::vec(mutation(), 0..6),
    )
        .prop_map(|(line, mutations)| mutate(line, &mutations))
}
