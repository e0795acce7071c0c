//! The engine tools of the `kibitz` executable as docs/engines.md fixes them: `analyze` against
//! answers the test proves itself by brute force (Connect Four and Othello endgames, Gomoku
//! fives and four-threes), `pbrain` on a scripted Gomocup session, and `bench`'s signature.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::bots::Lcg;
use crate::support::within;
use game_core::{AnyPosition, Cell, Color, GameSpec, GomokuRule};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// A `kibitz` tool process spoken to line by line.
struct Tool {
    child: Child,
    input: ChildStdin,
    output: Lines<BufReader<ChildStdout>>,
}

impl Tool {
    fn start(args: &[&str]) -> Tool {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start kibitz");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap()).lines();
        Tool {
            child,
            input,
            output,
        }
    }

    async fn send(&mut self, line: &str) {
        self.input
            .write_all(format!("{line}\n").as_bytes())
            .await
            .expect("write to kibitz");
        self.input.flush().await.expect("flush");
    }

    async fn line(&mut self) -> String {
        within("a line from kibitz", self.output.next_line())
            .await
            .expect("read")
            .expect("kibitz closed its output")
    }

    async fn ask(&mut self, line: &str) -> String {
        self.send(line).await;
        self.line().await
    }

    /// A brain's answer to `line`, after the `MESSAGE` lines it sends first (returned too).
    async fn ask_brain(&mut self, line: &str) -> (String, Vec<String>) {
        self.send(line).await;
        let mut messages = Vec::new();
        loop {
            let reply = self.line().await;
            if reply.starts_with("MESSAGE ") {
                messages.push(reply);
            } else {
                return (reply, messages);
            }
        }
    }

    /// A brain's answer to `line`, its `MESSAGE` lines left out.
    async fn ask_move(&mut self, line: &str) -> String {
        self.ask_brain(line).await.0
    }

    async fn json(&mut self, line: &str) -> Value {
        let reply = self.ask(line).await;
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{reply:?}: {e}"))
    }

    /// Closes the input and waits for a clean exit.
    async fn finish(mut self) {
        drop(self.input);
        let status = within("kibitz to exit", self.child.wait()).await.unwrap();
        assert!(status.success(), "{status}");
    }
}

fn spec(text: &str) -> GameSpec {
    serde_json::from_str(text).unwrap()
}

/// Naive negamax of a Connect Four position, in the score convention of docs/engines.md.
fn connect4_value(pos: &AnyPosition, cells: i32) -> i32 {
    let n = pos.ply() as i32;
    let mut best = i32::MIN;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_str(&m).unwrap();
        best = best.max(connect4_after(&next, cells, n));
    }
    best
}

/// The value for the mover of the move that led to `next` (`n` stones before it).
fn connect4_after(next: &AnyPosition, cells: i32, n: i32) -> i32 {
    match next.outcome() {
        Some(o) if o.winner.is_some() => (cells + 1 - n) / 2,
        Some(_) => 0,
        None => -connect4_value(next, cells),
    }
}

/// Random Connect Four games stopped with `empties` cells left, not over.
fn connect4_positions(count: usize, empties: usize, seed: u64) -> Vec<(String, AnyPosition)> {
    let spec = spec(r#"{"kind":"connect4","cols":7,"rows":6}"#);
    let mut rng = Lcg(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = AnyPosition::new(&spec).unwrap();
        let mut moves = String::new();
        while pos.ply() < 42 - empties && !pos.is_over() {
            let m = rng.pick(&pos);
            pos.play_str(&m).unwrap();
            moves.push_str(&m);
        }
        if !pos.is_over() {
            found.push((moves, pos));
        }
    }
    found
}

#[tokio::test]
async fn analyze_solves_connect4_endgames_as_brute_force_does() {
    let mut tool = Tool::start(&["analyze", "--game", "connect4", "--solve"]);
    for (moves, pos) in connect4_positions(4, 10, 1) {
        let expected = connect4_value(&pos, 42);
        let v = tool.json(&format!("{moves} 99")).await;
        assert_eq!(v["exact"], true, "{moves}: {v}");
        assert_eq!(v["score"], expected, "{moves}: {v}");
        let best = v["best"].as_str().expect("best");
        let mut next = pos.clone();
        next.play_str(best).expect("a legal best move");
        assert_eq!(
            connect4_after(&next, 42, pos.ply() as i32),
            expected,
            "{moves}: {best} does not reach the score"
        );
    }
    // A bad line is answered with an error, and the next line is analysed.
    let v = tool.json("48x").await;
    assert!(v["error"].is_string(), "{v}");
    // The board form (rows from the top, `X` moved first) on the next line.
    let (_, pos) = &connect4_positions(1, 9, 2)[0];
    let AnyPosition::Connect4(c4) = pos else {
        unreachable!()
    };
    let v = tool.json(&c4.to_board_text()).await;
    assert_eq!(v["score"], connect4_value(pos, 42), "{v}");
    tool.finish().await;
}

/// Naive negamax of an Othello position: the final disc difference for the side to move,
/// empties to the winner (the server's passes included).
fn othello_value(pos: &AnyPosition) -> i32 {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_str(m).unwrap();
            othello_after(pos, &next)
        })
        .max()
        .expect("a position that is not over has a move")
}

/// The value for the mover of `pos` of the move that led to `next` (a pass is a move too,
/// so the side to move always changes).
fn othello_after(pos: &AnyPosition, next: &AnyPosition) -> i32 {
    match next.outcome() {
        Some(o) => {
            let score = o.score.expect("othello score");
            let diff = i32::from(score.black) - i32::from(score.white);
            if pos.turn() == Color::Black {
                diff
            } else {
                -diff
            }
        }
        None => -othello_value(next),
    }
}

#[tokio::test]
async fn analyze_solves_othello_endgames_as_brute_force_does() {
    let mut tool = Tool::start(&["analyze", "--game", "othello", "--solve"]);
    let mut rng = Lcg(3);
    let mut done = 0;
    while done < 4 {
        let mut pos = AnyPosition::new(&GameSpec::Othello).unwrap();
        while pos.ply() < 52 && !pos.is_over() {
            let m = if pos.must_pass() {
                "pass".to_string()
            } else {
                rng.pick(&pos)
            };
            pos.play_str(&m).unwrap();
        }
        let AnyPosition::Othello(o) = &pos else {
            unreachable!()
        };
        let empties = 64 - o.count().black - o.count().white;
        if pos.is_over() || pos.must_pass() || empties > 8 {
            continue;
        }
        done += 1;
        let text = o.to_text();
        let expected = othello_value(&pos);
        let v = tool.json(&text).await;
        assert_eq!(v["exact"], true, "{text}: {v}");
        assert_eq!(v["score"], expected, "{text}: {v}");
        let best = v["best"].as_str().expect("best");
        let mut next = pos.clone();
        next.play_str(best).expect("a legal best move");
        assert_eq!(
            othello_after(&pos, &next),
            expected,
            "{text}: {best} does not reach the score"
        );
    }
    let v = tool.json("not a board").await;
    assert!(v["error"].is_string(), "{v}");
    tool.finish().await;
}

/// A small freestyle board for the test's own threat prover.
struct Board {
    size: i32,
    cells: Vec<Option<Color>>,
}

impl Board {
    fn from(pos: &AnyPosition) -> Board {
        let AnyPosition::Gomoku(g) = pos else {
            unreachable!()
        };
        Board {
            size: i32::from(g.size()),
            cells: g.cells().to_vec(),
        }
    }

    fn at(&self, col: i32, row: i32) -> Option<Option<Color>> {
        (0..self.size)
            .contains(&col)
            .then_some(())
            .filter(|()| (0..self.size).contains(&row))
            .map(|()| self.cells[(row * self.size + col) as usize])
    }

    /// Whether `c` playing at (col, row) makes five or more.
    fn fives(&self, col: i32, row: i32, c: Color) -> bool {
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: i32| {
                (1..5)
                    .take_while(|k| {
                        self.at(col + sign * k * dc, row + sign * k * dr) == Some(Some(c))
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
    }

    fn empties(&self) -> Vec<(i32, i32)> {
        (0..self.size * self.size)
            .filter(|i| self.cells[*i as usize].is_none())
            .map(|i| (i % self.size, i / self.size))
            .collect()
    }

    fn five_points(&self, c: Color) -> Vec<(i32, i32)> {
        self.empties()
            .into_iter()
            .filter(|&(col, row)| self.fives(col, row, c))
            .collect()
    }

    fn set(&mut self, (col, row): (i32, i32), c: Option<Color>) {
        self.cells[(row * self.size + col) as usize] = c;
    }

    /// Whether `c`, to move, wins by continuous fours within `depth` of its own moves.
    fn vcf(&mut self, c: Color, depth: u32) -> bool {
        if !self.five_points(c).is_empty() {
            return true;
        }
        if depth == 0 || !self.five_points(c.other()).is_empty() {
            return false;
        }
        for m in self.empties() {
            self.set(m, Some(c));
            let threats = self.five_points(c);
            let wins = match threats.len() {
                0 => false,
                1 => {
                    self.set(threats[0], Some(c.other()));
                    let won = !self.fives(threats[0].0, threats[0].1, c.other())
                        && self.vcf(c, depth - 1);
                    self.set(threats[0], None);
                    won
                }
                _ => true,
            };
            self.set(m, None);
            if wins {
                return true;
            }
        }
        false
    }
}

#[tokio::test]
async fn analyze_finds_gomoku_wins_the_test_proves() {
    let mut tool = Tool::start(&["analyze", "--game", "gomoku", "--size", "11", "--solve"]);
    let spec = GameSpec::gomoku(11, GomokuRule::Freestyle);
    let cases = [
        // An open four to complete: a five at once.
        "e6 a1 f6 k1 g6 a11 h6 k11",
        // A four-three: g4 makes a four (white must take h4) and an open three in column g.
        "d4 c4 e4 a1 f4 k1 g5 a11 g6 k11",
    ];
    for moves in cases {
        let list: Vec<&str> = moves.split(' ').collect();
        let pos = AnyPosition::with_moves(&spec, &list).unwrap();
        let v = tool.json(moves).await;
        let win_in = v["win_in"].as_i64().unwrap_or(0);
        assert!(win_in > 0, "{moves}: {v}");
        let best = v["best"].as_str().expect("best");
        let mut next = pos.clone();
        next.play_str(best).expect("a legal best move");
        let mover = pos.turn();
        if win_in == 1 {
            assert_eq!(next.outcome().and_then(|o| o.winner), Some(mover), "{v}");
        } else {
            // After the best move the defender must stop a five, and the attacker still
            // wins by fours: the test's own prover says so.
            let mut board = Board::from(&next);
            let threats = board.five_points(mover);
            assert!(!threats.is_empty(), "{best} threatens nothing: {v}");
            if threats.len() == 1 {
                board.set(threats[0], Some(mover.other()));
                assert!(board.vcf(mover, 3), "{best} leads to no forced win: {v}");
            }
        }
    }
    // A quiet position has no forced win to report, and bad moves are an error line.
    let v = tool.json("f6 f7").await;
    assert!(v["win_in"].as_i64().unwrap_or(0) <= 0, "{v}");
    let v = tool.json("f6 f6").await;
    assert!(v["error"].is_string(), "{v}");
    let v = tool.json("z99").await;
    assert!(v["error"].is_string(), "{v}");
    tool.finish().await;
}

/// The `x,y` of a pbrain move, checked to be on a `size` board.
fn xy(reply: &str, size: u32) -> (u32, u32) {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {reply:?}"));
    let (x, y): (u32, u32) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "{reply} is off the board");
    (x, y)
}

#[tokio::test]
async fn pbrain_plays_a_scripted_gomocup_session() {
    let mut brain = Tool::start(&["pbrain"]);
    assert!(brain.ask("TURN 7,7").await.starts_with("ERROR"));
    assert_eq!(brain.ask("START 15").await, "OK");
    assert!(brain.ask("ABOUT").await.starts_with("name=\"Kibitz\""));
    let mut taken = BTreeSet::new();
    let (first, messages) = brain.ask_brain("BEGIN").await;
    let first = xy(&first, 15);
    taken.insert(first);
    // What the search found comes first, as tournament managers show it.
    let message = messages.last().expect("a MESSAGE line before the move");
    for field in ["depth ", " ev ", " nodes ", " nps ", " pv "] {
        assert!(message.contains(field), "{message:?} has no {field:?}");
    }
    // Our moves go next to nothing of the brain's, and each answer is a free cell.
    let mut last_reply = first;
    for mv in [(0, 0), (14, 0), (0, 14)] {
        taken.insert(mv);
        let reply = xy(
            &brain.ask_move(&format!("TURN {},{}", mv.0, mv.1)).await,
            15,
        );
        assert!(taken.insert(reply), "{reply:?} was taken");
        last_reply = reply;
    }
    assert!(brain.ask("TURN 0,0").await.starts_with("ERROR"), "occupied");
    assert!(
        brain.ask("TURN 15,3").await.starts_with("ERROR"),
        "off the board"
    );
    assert_eq!(brain.ask("FROBNICATE").await, "UNKNOWN");
    // TAKEBACK removes a stone, as a manager takes back the brain's answer and our move:
    // the points are free again, and the move can be played anew.
    let (x, y) = last_reply;
    assert_eq!(brain.ask(&format!("TAKEBACK {x},{y}")).await, "OK");
    assert_eq!(brain.ask("TAKEBACK 0,14").await, "OK");
    assert!(
        brain.ask("TAKEBACK 0,14").await.starts_with("ERROR"),
        "no stone"
    );
    taken.remove(&last_reply);
    let replayed = xy(&brain.ask_move("TURN 0,14").await, 15);
    assert!(taken.insert(replayed), "{replayed:?} was taken");

    // A move within timeout_turn.
    brain.send("INFO timeout_turn 500").await;
    brain.send("INFO time_left 100000").await;
    let asked = Instant::now();
    let reply = xy(&brain.ask_move("TURN 14,14").await, 15);
    let took = asked.elapsed();
    assert!(!taken.contains(&reply));
    assert!(took < Duration::from_millis(500), "{took:?}");

    // BOARD: the brain's stones 1, the opponent's 2; it must block the open four.
    assert_eq!(brain.ask("RESTART").await, "OK");
    // The opponent's four along y = 7 is closed at 2,7: the only block is 7,7.
    for line in [
        "BOARD", "3,7,2", "2,7,1", "4,7,2", "0,0,1", "5,7,2", "0,2,1", "6,7,2", "0,4,1",
    ] {
        brain.send(line).await;
    }
    assert_eq!(xy(&brain.ask_move("DONE").await, 15), (7, 7), "no block");

    // Renju: YXSHOWFORBID lists black's forbidden points, as game-core finds them.
    assert_eq!(brain.ask("START 15").await, "OK");
    brain.send("INFO rule 4").await;
    // The brain's stones (black, to move): a double-three point at 7,7.
    let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
    let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
    brain.send("YXBOARD").await;
    for (x, y) in black {
        brain.send(&format!("{x},{y},1")).await;
    }
    for (x, y) in white {
        brain.send(&format!("{x},{y},2")).await;
    }
    brain.send("DONE").await;
    let forbid = brain.ask("YXSHOWFORBID").await;
    let listed: BTreeSet<(u32, u32)> = forbid
        .strip_prefix("FORBID ")
        .and_then(|s| s.strip_suffix('.'))
        .unwrap_or_else(|| panic!("{forbid:?}"))
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let t = std::str::from_utf8(c).unwrap();
            (t[..2].parse().unwrap(), t[2..].parse().unwrap())
        })
        .collect();
    let cell = |(x, y): (u32, u32)| Cell::new(x as u8, (14 - y) as u8);
    let g = game_core::gomoku::Gomoku::from_stones(
        15,
        GomokuRule::Renju,
        &black.map(cell),
        &white.map(cell),
    )
    .unwrap();
    let expected: BTreeSet<(u32, u32)> = g
        .forbidden_points()
        .iter()
        .map(|c| (u32::from(c.col), 14 - u32::from(c.row)))
        .collect();
    assert!(
        expected.contains(&(7, 7)),
        "the test's position: {expected:?}"
    );
    assert_eq!(listed, expected, "{forbid}");
    // Asked to move in that position, the brain never plays a forbidden point.
    brain.send("BOARD").await;
    for (x, y) in black {
        brain.send(&format!("{x},{y},1")).await;
    }
    for (x, y) in white {
        brain.send(&format!("{x},{y},2")).await;
    }
    let reply = xy(&brain.ask_move("DONE").await, 15);
    assert!(!expected.contains(&reply), "{reply:?} is forbidden");
    assert!(!black.contains(&reply) && !white.contains(&reply));
    brain.send("END").await;
    let status = within("pbrain to end", brain.child.wait()).await.unwrap();
    assert!(status.success());
}

/// Runs `kibitz bench` and returns its output lines.
async fn bench_lines() -> Vec<String> {
    // A few seconds in the debug build, more on a busy machine.
    let out = tokio::time::timeout(
        Duration::from_secs(120),
        Command::new(env!("CARGO_BIN_EXE_kibitz"))
            .arg("bench")
            .output(),
    )
    .await
    .expect("kibitz bench took too long")
    .expect("run kibitz bench");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn bench_prints_a_line_a_position_and_a_stable_node_total() {
    let first = bench_lines().await;
    let (last, positions) = first.split_last().expect("output");
    let words: Vec<&str> = last.split(' ').collect();
    assert!(
        words.len() == 5 && words[0] == "bench:" && words[2] == "nodes" && words[4] == "nps",
        "{last:?}"
    );
    let nodes: u64 = words[1].parse().expect("node total");
    let _nps: u64 = words[3].parse().expect("nps");
    assert!(positions.len() >= 3, "{first:?}");
    for game in ["gomoku", "othello", "connect4"] {
        assert!(
            positions.iter().any(|l| l.starts_with(game)),
            "no {game} position"
        );
    }
    let sum: u64 = positions
        .iter()
        .map(|l| {
            let at = l.split(' ').position(|w| w == "nodes").expect("nodes") + 1;
            l.split(' ').nth(at).unwrap().parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(sum, nodes, "the total is the sum of the lines");
    let second = bench_lines().await;
    assert_eq!(second.last().unwrap().split(' ').nth(1), Some(words[1]));
}
