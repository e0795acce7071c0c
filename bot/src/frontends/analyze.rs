//! `kibitz analyze`: reads one position a line, searches it, and writes one JSON object a line
//! (flushed after each), as docs/engines.md fixes. A bad line gets `{"error":"..."}` and the
//! program goes on. A line may begin with `@MS ` to be searched for MS milliseconds, whatever
//! the command line says: how a bot that runs `kibitz analyze` as its engine gives it the
//! move's time.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use game_core::AnyPosition;

use crate::engine::{Engine, Level, Score, SearchLimits, SearchResult, StopFlag};

/// The JSON line of a search result: `best`, `score`, `exact`, `depth`, `nodes`, `ms`, `pv`,
/// and for a proven Gomoku result `win_in` (plies; positive when the side to move wins).
/// A book move searched nothing: `depth` 0, `book: true`, and the book's own offline depth
/// as `book_depth`.
#[must_use]
pub fn result_json(r: &SearchResult) -> Value {
    let book = r.is_book_move();
    let mut v = json!({
        "best": r.best,
        "exact": r.exact,
        "depth": if book { 0 } else { r.depth },
        "nodes": r.nodes,
        "ms": r.ms,
        "pv": r.pv,
    });
    v["score"] = json!(r.score.as_number());
    if let Score::WinIn(n) = r.score {
        v["win_in"] = json!(n);
    }
    if book {
        v["book"] = json!(true);
        v["book_depth"] = json!(r.depth);
    }
    v
}

/// Analyses every line of `input`. `parse` turns a line into a position; `engine` searches it.
pub fn run<R: BufRead, W: Write>(
    input: R,
    mut output: W,
    parse: impl Fn(&str) -> Result<AnyPosition, String>,
    engine: &mut dyn Engine,
    limits: SearchLimits,
    level: Level,
) -> std::io::Result<()> {
    for (i, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let (limits, line) = match line.trim_start().strip_prefix('@') {
            None => (limits, line.as_str()),
            Some(rest) => {
                let (ms, position) = rest.split_once(' ').unwrap_or((rest, ""));
                match ms.parse::<u64>() {
                    Ok(ms) => (SearchLimits::Time(Duration::from_millis(ms)), position),
                    Err(_) => {
                        let error = json!({ "error": format!("@{ms}: a time in milliseconds was expected") });
                        writeln!(output, "{error}")?;
                        output.flush()?;
                        continue;
                    }
                }
            }
        };
        let value = match parse(line) {
            Err(e) => json!({ "error": e }),
            Ok(pos) if pos.is_over() => json!({ "error": "the game is over in this position" }),
            Ok(pos) => {
                let started = Instant::now();
                match engine.search(&pos, limits, level, &StopFlag::new(), i as u64) {
                    Some(mut r) => {
                        r.ms = started.elapsed().as_millis() as u64;
                        result_json(&r)
                    }
                    None => json!({ "error": "no move found" }),
                }
            }
        };
        writeln!(output, "{value}")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `run` over `input` for `game` with its default options, at level 10 and `limits`:
    /// the JSON lines it wrote.
    fn analyze_lines(game: game_core::GameKind, input: &str, limits: SearchLimits) -> Vec<Value> {
        let options = crate::engine::registry::PositionOptions::default();
        let parse = |line: &str| crate::engine::registry::parse_position(game, line, &options);
        let mut engine = crate::engine::registry::engine_for(game);
        let mut out = Vec::new();
        run(
            input.as_bytes(),
            &mut out,
            parse,
            engine.as_mut(),
            limits,
            Level::MAX,
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn json_fields_follow_the_contract() {
        let r = SearchResult {
            best: "4".to_string(),
            score: Score::Exact(-3),
            exact: true,
            depth: 12,
            nodes: 99,
            ms: 1,
            pv: vec!["4".to_string(), "3".to_string()],
        };
        let v = result_json(&r);
        assert_eq!(v["best"], "4");
        assert_eq!(v["score"], -3);
        assert_eq!(v["exact"], true);
        assert_eq!(v["pv"], json!(["4", "3"]));
        let w = result_json(&SearchResult {
            score: Score::WinIn(5),
            ..r
        });
        assert_eq!(w["win_in"], 5);
        assert!(w.get("book").is_none(), "{w}");
    }

    #[test]
    fn a_book_move_shows_no_search_depth() {
        let book = SearchResult {
            best: "h8".to_string(),
            score: Score::Heuristic(35),
            exact: false,
            depth: 22,
            nodes: 0,
            ms: 1,
            pv: vec!["h8".to_string()],
        };
        let v = result_json(&book);
        assert_eq!(v["depth"], 0, "{v}");
        assert_eq!(v["nodes"], 0, "{v}");
        assert_eq!(v["book"], true, "{v}");
        assert_eq!(v["book_depth"], 22, "{v}");
        let searched = result_json(&SearchResult {
            nodes: 5000,
            ..book
        });
        assert_eq!(searched["depth"], 22, "{searched}");
        assert!(searched.get("book").is_none(), "{searched}");
    }

    #[test]
    fn a_timed_gomoku_opening_comes_from_the_book_and_says_so() {
        // One of the match openings (scripts/gomoku_openings.txt): the book has it.
        let lines = analyze_lines(
            game_core::GameKind::Gomoku,
            "h8 g8 j10\n",
            SearchLimits::Time(Duration::from_millis(200)),
        );
        let v = &lines[0];
        assert_eq!(v["book"], true, "{v}");
        assert_eq!(v["depth"], 0, "{v}");
        assert_eq!(v["nodes"], 0, "{v}");
        assert!(v["book_depth"].as_u64().unwrap() > 0, "{v}");
    }

    #[test]
    fn a_line_may_carry_its_own_time() {
        let start = "---------------------------OX------XO--------------------------- X";
        let input = format!("@30 {start}\n@soon {start}\n");
        // The command line's limit would search to depth 1; the first line's time wins.
        let lines = analyze_lines(game_core::GameKind::Othello, &input, SearchLimits::Depth(1));
        assert_eq!(lines.len(), 2);
        assert!(lines[0]["best"].is_string(), "{}", lines[0]);
        assert!(lines[0]["depth"].as_u64().unwrap() > 1, "{}", lines[0]);
        assert!(
            lines[1]["error"].as_str().unwrap().contains("milliseconds"),
            "{}",
            lines[1]
        );
    }
}
