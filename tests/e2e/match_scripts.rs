//! The engine authors' match scripts end to end, with real processes: `scripts/pbrain_match.py`
//! plays an opening twice, colours swapped, between two real `kibitz pbrain` brains and writes
//! its games, each of which game-core must find legal and won by the side it names; then
//! `scripts/match_tally.py` pools that file (given twice) into the same table doubled, gives a
//! known score its standard error, and refuses a line that is no game. The same script opens
//! by swap2 (`--swap2`): each brain lays the stones once, and every game replays legally; and
//! keeps a match clock (`--match-ms`) that both brains keep inside, and plays positions kept as
//! JSON lines with the side to move given to one brain (`--a-colour to-move`). `scripts/gomoku_blunders.py`
//! finds lost moves and forced wins in real games; `scripts/gomoku_choices.py` has a judge
//! brain rate two builds' moves where they differ.

use std::ffi::OsStr;
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use game_core::gomoku::Gomoku;
use game_core::{Cell, Color, GomokuRule, Position};
use serde_json::Value;

/// How long a two-game match at 100 ms a move may take on a busy machine: two games of at
/// most 225 moves, most of them far quicker than the turn time.
const MATCH_WITHIN: Duration = Duration::from_secs(240);

fn script(name: &str) -> String {
    format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Waits for `child` at most `within`; kills it and fails past that.
fn finish(mut child: Child, within: Duration, what: &str) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > within {
            let _ = child.kill();
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            panic!("{what} still running after {within:?}; stderr: {err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `python3 scripts/<name> <args>`, at most `within`.
fn python(name: &str, args: &[&str], within: Duration) -> Output {
    let child = Command::new("python3")
        .arg(script(name))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start python3 scripts/{name}: {e}"));
    finish(child, within, name)
}

fn tally(args: &[&str]) -> Output {
    python("match_tally.py", args, Duration::from_secs(30))
}

/// The row of `brain` and `colour` in a tally's output: [W, L, D] and the score text.
fn row(out: &str, brain: &str, colour: &str) -> ([u32; 3], String) {
    let line = out
        .lines()
        .find(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some(brain) && words.next() == Some(colour)
        })
        .unwrap_or_else(|| panic!("no {brain} {colour} row in:\n{out}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = |i: usize| words[i].parse::<u32>().expect("a count");
    ([n(2), n(3), n(4)], words[5..].join(" "))
}

/// The game's moves replayed by game-core: every one legal, and the end it reaches.
fn replay(moves: &str) -> Gomoku {
    let cells: Vec<Cell> = moves
        .split_whitespace()
        .map(|m| m.parse().expect("a cell"))
        .collect();
    Gomoku::from_moves(15, GomokuRule::Freestyle, &cells)
        .unwrap_or_else(|e| panic!("the game {moves} does not replay: {e}"))
}

/// The name of the brain that won with `colour`, given who played black and white.
fn named<'a>(colour: Option<Color>, black: &'a str, white: &'a str) -> Option<&'a str> {
    colour.map(|c| if c == Color::Black { black } else { white })
}

/// `scripts/pbrain_match.py` between two `kibitz pbrain` brains named `one` and `two`, at
/// 100 ms a move, with `args` besides, writing its games to `games`: its standard output
/// (the script must succeed) and the games it wrote.
fn kibitz_match(args: &[&OsStr], games: &Path) -> (String, Vec<Value>) {
    let brain = format!("{} pbrain", env!("CARGO_BIN_EXE_kibitz"));
    let child = Command::new("python3")
        .arg(script("pbrain_match.py"))
        .args([
            "--a", &brain, "--a-name", "one", "--b", &brain, "--b-name", "two",
        ])
        .args(["--turn-ms", "100", "--grace-ms", "5000"])
        .args(args)
        .arg("--games-out")
        .arg(games)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start python3 scripts/pbrain_match.py");
    let out = finish(child, MATCH_WITHIN, "pbrain_match.py");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "pbrain_match.py {args:?} failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(games)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    (text, lines)
}

#[test]
fn pbrain_match_plays_both_colours_and_the_tally_pools_its_games() {
    let dir = tempfile::tempdir().expect("tempdir");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "# one opening\nh8 g8 j10\n").unwrap();
    let games = dir.path().join("games.jsonl");
    let (text, lines) = kibitz_match(
        &[
            "--openings".as_ref(),
            openings.as_os_str(),
            "--kibitz".as_ref(),
            env!("CARGO_BIN_EXE_kibitz").as_ref(),
        ],
        &games,
    );
    assert!(text.contains("1 openings, 2 games"), "{text}");

    // The games: the opening once with each brain black, each legal to its end in game-core,
    // won by five by the brain it names (or a full board).
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["black"], "one");
    assert_eq!(lines[1]["black"], "two");
    let mut expected = std::collections::BTreeMap::new();
    for game in &lines {
        let moves = game["moves"].as_str().unwrap();
        assert!(moves.starts_with("h8 g8 j10 "), "{moves}");
        let end = replay(moves).outcome();
        let (black, white) = (
            game["black"].as_str().unwrap(),
            game["white"].as_str().unwrap(),
        );
        let winner = named(end.as_ref().and_then(|o| o.winner), black, white);
        assert!(end.is_some(), "the game did not end: {moves}");
        assert_eq!(game["winner"].as_str(), winner, "{game}");
        let why = if winner.is_some() {
            "five"
        } else {
            "full board"
        };
        assert_eq!(game["why"], why, "{game}");
        for (brain, colour) in [(black, "black"), (white, "white")] {
            let r: &mut [u32; 3] = expected.entry((brain, colour)).or_default();
            r[match winner {
                Some(w) if w == brain => 0,
                None => 2,
                Some(_) => 1,
            }] += 1;
        }
    }

    // The same file twice: every count doubled, per brain and colour.
    let path = games.to_str().unwrap();
    let pooled = tally(&[path, path]);
    let pooled_text = String::from_utf8_lossy(&pooled.stdout);
    assert!(pooled.status.success(), "{pooled:?}");
    assert_eq!(pooled_text.matches(": 2 games").count(), 2, "{pooled_text}");
    for ((brain, colour), r) in &expected {
        let (counts, _) = row(&pooled_text, brain, colour);
        assert_eq!(counts, r.map(|n| 2 * n), "{brain} {colour}:\n{pooled_text}");
    }
    let one = row(&pooled_text, "one", "total").0;
    let two = row(&pooled_text, "two", "total").0;
    assert_eq!(one.iter().sum::<u32>(), 4);
    assert_eq!([one[0], one[1], one[2]], [two[1], two[0], two[2]]);
}

#[test]
fn pbrain_match_keeps_a_match_clock_that_the_brains_keep_inside() {
    let dir = tempfile::tempdir().expect("tempdir");
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "h8 g8 j10\n").unwrap();
    let games = dir.path().join("games.jsonl");
    // Two seconds a game at most 100 ms a move: each brain is told its time left before
    // every move and spends a slice of it (longer where its search is unsure).
    let (text, lines) = kibitz_match(
        &[
            "--openings".as_ref(),
            openings.as_os_str(),
            "--match-ms".as_ref(),
            "2000".as_ref(),
        ],
        &games,
    );
    assert!(text.contains("; 2000 ms a game"), "{text}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    for game in &lines {
        let why = game["why"].as_str().unwrap();
        assert!(why == "five" || why == "full board", "{game}");
        let moves = game["moves"].as_str().unwrap();
        assert!(replay(moves).outcome().is_some(), "{moves}");
    }
}

#[test]
fn pbrain_match_opens_by_swap2_with_each_brain_laying_the_stones_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("games.jsonl");
    let (text, lines) = kibitz_match(&["--swap2".as_ref(), "1".as_ref()], &games);
    assert!(text.contains("1 openings, 2 games"), "{text}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (game, proposer) in lines.iter().zip(["one", "two"]) {
        // The proposer laid three stones; the choice may add one to three more. Each game
        // replays legally from them to the end its record names.
        assert_eq!(game["swap2_by"], proposer, "{game}");
        let opening = game["opening"].as_str().unwrap();
        let stones = opening.split_whitespace().count();
        assert!((3..=6).contains(&stones), "{game}");
        let moves = game["moves"].as_str().unwrap();
        assert!(moves.starts_with(opening), "{game}");
        let (black, white) = (
            game["black"].as_str().unwrap(),
            game["white"].as_str().unwrap(),
        );
        let mut names = [black, white];
        names.sort_unstable();
        assert_eq!(names, ["one", "two"], "{game}");
        let winner = named(replay(moves).outcome().and_then(|o| o.winner), black, white);
        assert_eq!(game["winner"].as_str(), winner, "{game}");
    }
}

#[test]
fn pbrain_match_gives_a_the_side_to_move_of_positions_kept_as_json_lines() {
    // Two forced wins of `scripts/gomoku_wins.jsonl`, as JSON lines: black to move
    // after 22 stones, white after 39. A plays each once, with the side to move.
    let positions = [
        "h8 g9 f9 g8 g7 f8 e7 f7 f6 e5 e6 d6 d7 e8 c8 b9 g6 g3 h6 i6 f4 g5",
        "h8 f10 f9 e8 e10 g8 d9 g7 g9 e9 d8 e7 d7 d10 h6 g5 e6 f5 g6 f6 d5 d6 f4 f11 h5 h4 i3 \
         c11 f8 e11 d11 f12 h9 h7 c12 b13 g13 d12 i9",
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("wins.jsonl");
    // Only `moves` is read; the solver's answer beside it is not.
    let lines: Vec<String> = positions
        .iter()
        .map(|m| format!(r#"{{"moves": "{m}"}}"#))
        .collect();
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let games = dir.path().join("games.jsonl");
    let args: [&OsStr; 4] = [
        "--openings".as_ref(),
        file.as_os_str(),
        "--a-colour".as_ref(),
        "to-move".as_ref(),
    ];
    let (text, lines) = kibitz_match(&args, &games);
    assert!(text.contains("2 openings, 2 games"), "{text}");
    assert!(text.contains("winner with A to move"), "{text}");
    assert_eq!(lines.len(), 2, "{lines:?}");
    for (game, (position, a_colour)) in lines.iter().zip(positions.iter().zip(["black", "white"])) {
        assert_eq!(game["opening"], *position, "{game}");
        assert_eq!(game[a_colour], "one", "{game}");
        let moves = game["moves"].as_str().unwrap();
        assert!(moves.starts_with(position), "{game}");
        let (black, white) = (
            game["black"].as_str().unwrap(),
            game["white"].as_str().unwrap(),
        );
        let winner = named(replay(moves).outcome().and_then(|o| o.winner), black, white);
        assert_eq!(game["winner"].as_str(), winner, "{game}");
    }
}

fn write_games(dir: &Path, lines: &[&str]) -> String {
    let path = dir.join("games.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn match_tally_gives_a_score_its_standard_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let game = |black: &str, white: &str, winner: &str| {
        format!(
            r#"{{"opening": "h8 g8 j10", "black": "{black}", "white": "{white}", "winner": {winner}, "why": "five", "moves": "h8"}}"#
        )
    };
    // a: three wins and a loss (results 1, 1, 1, 0: score 0.75, sample variance 0.25, standard
    // error sqrt(0.25 / 4) = 0.25); b: the same seen from the other side.
    let lines = [
        game("a", "b", "\"a\""),
        game("b", "a", "\"a\""),
        game("a", "b", "\"a\""),
        game("b", "a", "\"b\""),
    ];
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let path = write_games(dir.path(), &refs);
    let out = tally(&[&path]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        row(&text, "a", "total"),
        ([3, 1, 0], "75.0% ± 25.0".to_string())
    );
    assert_eq!(
        row(&text, "b", "total"),
        ([1, 3, 0], "25.0% ± 25.0".to_string())
    );
    assert_eq!(
        row(&text, "a", "black"),
        ([2, 0, 0], "100.0% ± 0.0".to_string())
    );
    // A draw counts half: one win and one draw, results 1 and 1/2.
    let draws = [game("a", "b", "\"a\""), game("b", "a", "null")];
    let refs: Vec<&str> = draws.iter().map(String::as_str).collect();
    let path = write_games(dir.path(), &refs);
    let out = tally(&[&path, "--name", "a"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        row(&text, "a", "total"),
        ([1, 0, 1], "75.0% ± 25.0".to_string())
    );
    assert!(!text.lines().any(|l| l.starts_with("b ")), "{text}");
}

#[test]
fn match_tally_refuses_what_is_no_game_and_says_where() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = r#"{"black": "a", "white": "b", "winner": "a"}"#;
    for (bad, says) in [
        ("not json", "games.jsonl:2: not a game line"),
        (
            r#"{"black": "a", "white": "b"}"#,
            "games.jsonl:2: not a game line",
        ),
        (
            r#"{"black": "a", "white": "b", "winner": "c"}"#,
            "games.jsonl:2: the winner 'c' did not play",
        ),
    ] {
        let path = write_games(dir.path(), &[good, bad]);
        let out = tally(&[&path]);
        assert!(!out.status.success(), "{bad}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{bad}: {err}");
        assert!(out.stdout.is_empty(), "{bad}: printed a table anyway");
    }
    let path = write_games(dir.path(), &[good]);
    let out = tally(&[&path, "--name", "z"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no games of 'z' (brains: a, b)"));
}

fn blunders(args: &[&str]) -> Output {
    let kibitz = ["--kibitz", env!("CARGO_BIN_EXE_kibitz")];
    python(
        "gomoku_blunders.py",
        &[args, &kibitz[..]].concat(),
        MATCH_WITHIN,
    )
}

/// A game lost to Rapfi (2026-12-02): white's e7, its fourth move, lets black win by force (27
/// plies) where other moves leave the solver no win. `find` names that move and those others;
/// `replay` asks the brain for its move there, has the solver judge it and counts.
#[test]
fn gomoku_blunders_finds_the_move_that_lost_and_replays_its_position() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = write_games(
        dir.path(),
        &[
            r#"{"opening": "h8 g8 i8", "black": "rapfi", "white": "kibitz", "winner": "rapfi", "why": "five", "moves": "h8 g8 i8 h9 f7 j9 g9 e7 i7 j6 i9 i10 g7 f6 i5 i6 h6 j4 j8 j11 k12 k9 g5 f4 h5 j5 h7 j7 h4", "rule": "freestyle"}"#,
        ],
    );
    let out = blunders(&["find", "--games", &games]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "find failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let found: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(found.len(), 1, "{text}");
    let position = &found[0];
    assert_eq!(position["moves"], "h8 g8 i8 h9 f7 j9 g9");
    assert_eq!(position["played"], "e7");
    assert_eq!(position["colour"], "white");
    assert!(
        position["win_in"].as_u64().is_some_and(|n| n > 0),
        "{position}"
    );
    let holding: Vec<&str> = position["holding"]
        .as_array()
        .expect("the moves that hold")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    assert!(
        !holding.is_empty() && !holding.contains(&"e7"),
        "{holding:?}"
    );

    let positions = dir.path().join("positions.jsonl");
    std::fs::write(&positions, text.as_bytes()).unwrap();
    let out = blunders(&[
        "replay",
        "--positions",
        positions.to_str().unwrap(),
        "--runs",
        "1",
        "--time-ms",
        "300",
        "--solver",
        env!("CARGO_BIN_EXE_kibitz"),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "replay failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("run 1: h8 g8 i8 h9 f7 j9 g9 -> "),
        "{text}"
    );
    // The brain's move loses or not as the solver says; the count agrees with that line.
    let lost = u32::from(lines[0].contains("loses in"));
    assert!(
        lines[1].starts_with(&format!("{lost} of 1 moves lose by force")),
        "{text}"
    );
}

/// A game lost to Rapfi (2026-12-06): after white's f6 black must block the four on f7, and
/// wins by force through the block. `wins` walks back from the end to the earliest such turn
/// whose proof is quick, keeps it with `--positions-out`, and asks the brain about it; asked
/// again with `--positions`, it names the same position without walking the game.
#[test]
fn gomoku_blunders_wins_finds_the_earliest_proven_win_and_keeps_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = write_games(
        dir.path(),
        &[
            r#"{"opening": "h8 f9 g9", "black": "rapfi", "white": "kibitz", "winner": "rapfi", "why": "five", "moves": "h8 f9 g9 f10 g7 g10 h10 h11 e8 f8 f11 j8 g6 i12 j13 f6 f7 h5 e10 g12 e7 h7 e9 e6 e11", "rule": "freestyle"}"#,
        ],
    );
    let kept = dir.path().join("wins.jsonl");
    let kept = kept.to_str().unwrap();
    // The walk stops where the solver proves no win (its node budget, not the clock), so
    // no proof is left out for its time on a slow machine.
    let args = [
        "--time-ms",
        "300",
        "--solve-ms",
        "1000000",
        "--solver",
        env!("CARGO_BIN_EXE_kibitz"),
    ];
    let walked = blunders(
        &[
            &["wins", "--games", &games, "--positions-out", kept],
            &args[..],
        ]
        .concat(),
    );
    let again = blunders(&[&["wins", "--positions", kept], &args[..]].concat());
    let position = "h8 f9 g9 f10 g7 g10 h10 h11 e8 f8 f11 j8 g6 i12 j13 f6";
    for out in [walked, again] {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].starts_with(&format!("{position}: solver f7 in ")),
            "{text}"
        );
        // The line's verdict and the count agree.
        let proved = u32::from(lines[0].contains("; search wins in "));
        let played = u32::from(lines[0].contains("the solver's move unproven"));
        assert!(
            lines[1].starts_with(&format!(
                "1 positions, 300 ms searches: {proved} proved the win, {played} played the \
                 solver's move without proving it, {} played another move",
                1 - proved - played
            )),
            "{text}"
        );
    }
    let kept: Value =
        serde_json::from_str(std::fs::read_to_string(kept).unwrap().trim()).expect("one JSON line");
    assert_eq!(kept["moves"], position);
    assert_eq!(kept["solver"]["best"], "f7");
    assert!(
        kept["solver"]["win_in"].as_u64().is_some_and(|n| n > 1),
        "{kept}"
    );
}

/// `positions` takes the named brain's turns within the stones asked; `compare` asks two
/// builds (level 10, and level 2 through a wrapper, at a fixed depth) for their moves and a
/// judge (`kibitz pbrain`, whose `ev` lines it reads) about the positions after those that
/// differ; its file and its report agree.
#[test]
fn gomoku_choices_judges_the_positions_where_two_builds_differ() {
    let dir = tempfile::tempdir().expect("tempdir");
    let moves =
        "h8 f9 g9 f10 g7 g10 h10 h11 e8 f8 f11 j8 g6 i12 j13 f6 f7 h5 e10 g12 e7 h7 e9 e6 e11";
    let games = write_games(
        dir.path(),
        &[&format!(
            r#"{{"opening": "h8 f9 g9", "black": "rapfi", "white": "kibitz", "winner": "rapfi", "why": "five", "moves": "{moves}", "rule": "freestyle"}}"#
        )],
    );
    let picked = python(
        "gomoku_choices.py",
        &[
            "positions",
            "--games",
            &games,
            "--from",
            "5",
            "--to",
            "20",
            "--count",
            "100",
        ],
        MATCH_WITHIN,
    );
    assert!(picked.status.success(), "{picked:?}");
    let text = String::from_utf8_lossy(&picked.stdout).to_string();
    let mut counts: Vec<usize> = text.lines().map(|l| l.split(' ').count()).collect();
    counts.sort_unstable();
    // White (kibitz) is to move after an odd number of stones: 5, 7, … 19.
    assert_eq!(counts, vec![5, 7, 9, 11, 13, 15, 17, 19], "{text}");
    assert!(text.lines().all(|l| moves.starts_with(l)), "{text}");
    let positions = dir.path().join("positions.txt");
    std::fs::write(&positions, &text).unwrap();
    let kibitz = env!("CARGO_BIN_EXE_kibitz");
    let weak = dir.path().join("weak.sh");
    std::fs::write(
        &weak,
        format!("#!/bin/sh\nexec {kibitz} \"$@\" --level 2\n"),
    )
    .unwrap();
    std::fs::set_permissions(&weak, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out_file = dir.path().join("choices.jsonl");
    let judge = format!("{kibitz} pbrain");
    let compared = python(
        "gomoku_choices.py",
        &[
            "compare",
            "--positions",
            positions.to_str().unwrap(),
            "--a",
            weak.to_str().unwrap(),
            "--b",
            kibitz,
            "--judge",
            &judge,
            "--depth",
            "4",
            "--ms",
            "100",
            "--out",
            out_file.to_str().unwrap(),
        ],
        MATCH_WITHIN,
    );
    let report = String::from_utf8_lossy(&compared.stdout).to_string();
    assert!(compared.status.success(), "{report}\n{compared:?}");
    let rows: Vec<Value> = std::fs::read_to_string(&out_file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), 8);
    let differ: Vec<&Value> = rows.iter().filter(|r| r["a"] != r["b"]).collect();
    assert!(
        !differ.is_empty(),
        "level 2 and level 10 agree everywhere: {report}"
    );
    for r in &differ {
        for side in ["a_value", "b_value"] {
            let v = r[side]
                .as_i64()
                .unwrap_or_else(|| panic!("{side} judged: {r}"));
            assert!(v.abs() <= 2000, "{r}");
        }
    }
    assert!(rows
        .iter()
        .filter(|r| r["a"] == r["b"])
        .all(|r| r.get("a_value").is_none()));
    let first = format!(
        "8 positions: the builds agreed in {}; {} judged where they differ",
        8 - differ.len(),
        differ.len()
    );
    assert!(report.starts_with(&first), "{report}");
}
