//! Engine reviews of finished games over real sockets: the real `kibitz bot` process as the
//! analysis worker for Gomoku (renju), Othello and Connect Four, the review stored with the
//! game and sent to everyone in the room; and the server's guard against workers — a wrong
//! answer is refused with nothing stored, a worker that leaves gives its job to the next, a
//! review asked for with no worker waits for one. Live analyses (lines depth by depth, the
//! rated moves, their checks), and a review's missed win proven into a puzzle by the bot.

use crate::support::bots::BotProcess;
use crate::support::*;
use serde_json::{json, Value};

/// Two people play `moves` in a new room of `game` (black first); with `resign`, white then
/// resigns. Returns the room and both clients, the game over.
async fn finished_game(
    server: &TestServer,
    game: Value,
    moves: &[&str],
    resign: bool,
) -> (String, Client, Client) {
    let mut black = server.client("Black").await;
    let mut white = server.client("White").await;
    let (room, _) = black
        .create(json!({"t":"create","game":game,"seat":"black"}))
        .await;
    white.join(&room, "player").await;
    black
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    for (i, mv) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut black } else { &mut white };
        mover.send(json!({"t":"move","room":room,"move":mv})).await;
        // By its number: an earlier move of the same column or point is still unread.
        mover
            .expect_where(|v| v["t"] == "moved" && v["move"] == *mv && v["ply"] == i + 1)
            .await;
    }
    if resign {
        white.send(json!({"t":"resign","room":room})).await;
    }
    black.expect("over").await;
    white.expect("over").await;
    (room, black, white)
}

/// Asks for the review as `asker` and waits until `watcher` (another member) has it.
async fn review_of(asker: &mut Client, watcher: &mut Client, room: &str) -> Value {
    asker.send(json!({"t":"review","room":room})).await;
    let pending = asker.expect("review").await;
    assert_eq!(pending["status"], "pending", "{pending}");
    let done = watcher
        .expect_where(|v| v["t"] == "review" && v["status"] == "done")
        .await;
    done["review"].clone()
}

fn check_review(review: &Value, moves: &[&str]) {
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len(), "{review}");
    for (ply, mv) in plies.iter().zip(moves) {
        assert_eq!(ply["move"], *mv);
        let eval = ply["eval"].as_i64().unwrap();
        assert!((-1000..=1000).contains(&eval));
        let pv = ply["pv"].as_array().unwrap();
        assert_eq!(pv.first(), Some(&ply["best"]), "{ply}");
    }
}

async fn reviewed_by_the_bot(game: Value, moves: &[&str], resign: bool) -> Value {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 1, &dir.path().join("bot.json"));
    let (room, mut black, mut white) = finished_game(&server, game, moves, resign).await;
    let review = review_of(&mut black, &mut white, &room).await;
    check_review(&review, moves);
    // Stored with the game: a later watcher gets it without asking for a new one.
    let mut later = server.client("Later").await;
    later.join(&room, "spectator").await;
    later
        .send(json!({"t":"review","room":room,"ask":false}))
        .await;
    let stored = later.expect("review").await;
    assert_eq!(stored["status"], "done");
    assert_eq!(stored["review"], review);
    review
}

#[tokio::test]
async fn the_bot_reviews_a_renju_game_and_marks_the_unblocked_three() {
    let moves = ["h8", "h9", "i8", "i9", "j8", "a1", "k8", "a2", "l8"];
    let game = json!({"kind":"gomoku","size":15,"rule":"renju"});
    let review = reviewed_by_the_bot(game, &moves, false).await;
    let plies = review["plies"].as_array().unwrap();
    // White's a1 left black's open three: the game was lost from there.
    assert_eq!(plies[5]["mark"], "mistake", "{}", plies[5]);
    // Black to move with an open four is a proven win.
    assert_eq!(plies[8]["eval"], 1000);
    assert_eq!(plies[8]["proven"], true);
    assert!(["g8", "l8"].contains(&plies[8]["best"].as_str().unwrap()));
}

#[tokio::test]
async fn the_bot_reviews_a_connect4_game_with_a_missed_win_proven() {
    // White leaves black's three on the bottom row open (7); black could win at once with 4
    // but plays 6, and white blocks; then white resigns anyway.
    let moves = ["1", "5", "2", "6", "3", "7", "6", "4"];
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let review = reviewed_by_the_bot(game, &moves, true).await;
    let plies = review["plies"].as_array().unwrap();
    assert_eq!(plies[6]["eval"], 1000, "{}", plies[6]);
    assert_eq!(plies[6]["proven"], true);
    assert_eq!(plies[6]["best"], "4");
    assert_eq!(plies[6]["mark"], "missed_win", "{}", plies[6]);
    assert_eq!(plies[5]["mark"], "mistake", "{}", plies[5]);
}

#[tokio::test]
async fn the_bot_reviews_a_resigned_othello_game() {
    let moves = ["f5", "f6", "e6", "f4"];
    let review = reviewed_by_the_bot(json!({"kind":"othello"}), &moves, true).await;
    assert_eq!(review["from"], 0);
    // The last move of a resigned game has no position after it to compare with.
    assert!(review["plies"][3].get("mark").is_none());
}

/// A scripted analysis worker.
async fn worker(server: &TestServer, name: &str) -> Client {
    let mut c = Client::connect(&server.url()).await;
    c.send(json!({"t":"hello","name":name,
        "bot":{"key":BOT_KEY,"games":["connect4"],"capacity":1,"analysis":true}}))
        .await;
    c.expect("welcome").await;
    c
}

const C4: [&str; 7] = ["4", "4", "3", "3", "2", "1", "5"];

fn answer(job: &Value, ply: usize, best: &str) -> Value {
    json!({"t":"analysis","job":job["job"],"ply":ply,"eval":0,"best":best,"pv":[best]})
}

#[tokio::test]
async fn a_review_waits_for_a_worker_and_a_leaving_worker_hands_its_job_on() {
    let server = TestServer::start().await;
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let (room, mut black, _white) = finished_game(&server, game, &C4, false).await;
    black.send(json!({"t":"review","room":room})).await;
    let pending = black.expect("review").await;
    assert_eq!(pending["status"], "pending");
    assert!(pending["message"]
        .as_str()
        .unwrap()
        .contains("no analysis worker"));

    let mut first = worker(&server, "W1").await;
    let job = first.expect("analyze").await;
    assert_eq!(job["game"]["kind"], "connect4");
    assert_eq!(job["moves"], json!(C4));
    first.send(answer(&job, 0, "4")).await;
    first.close().await;

    let mut second = worker(&server, "W2").await;
    let job = second.expect("analyze").await;
    assert_eq!(job["moves"], json!(C4));
    for (i, _) in C4.iter().enumerate() {
        second.send(answer(&job, i, "4")).await;
    }
    let done = black
        .expect_where(|v| v["t"] == "review" && v["status"] == "done")
        .await;
    assert_eq!(done["review"]["by"], "W2");
    assert_eq!(done["review"]["plies"].as_array().unwrap().len(), C4.len());
}

#[tokio::test]
async fn a_wrong_answer_is_refused_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let (room, mut black, _white) = finished_game(&server, game, &C4, false).await;
    let mut w = worker(&server, "W").await;
    black.send(json!({"t":"review","room":room})).await;
    black.expect("review").await;
    let job = w.expect("analyze").await;
    // Column 9 is no column of a 7-wide board.
    w.send(answer(&job, 0, "9")).await;
    let e = w.expect("error").await;
    assert_eq!(e["code"], "illegal_move", "{e}");
    assert!(e["message"].as_str().unwrap().contains("position 0"), "{e}");
    // The connection stays, and the job comes back to it for another try, under a new id.
    let again = w.expect("analyze").await;
    assert_ne!(again["job"], job["job"]);
    // An answer for the lost try is ignored: the next error is the unknown job's.
    w.send(answer(&job, 0, "4")).await;
    w.send(json!({"t":"analysis","job":"a99","ply":0,"eval":0,"best":"4"}))
        .await;
    assert_eq!(w.expect("error").await["code"], "bad_request");
    w.send(answer(&again, 3, "4")).await;
    let e = w.expect("error").await;
    assert!(e["message"].as_str().unwrap().contains("expected 0"), "{e}");
    black
        .send(json!({"t":"review","room":room,"ask":false}))
        .await;
    let status = black.expect("review").await;
    assert!(status.get("review").is_none(), "{status}");
}

#[tokio::test]
async fn only_finished_games_and_only_workers() {
    let server = TestServer::start().await;
    let mut a = server.client("A").await;
    let (room, _) = a
        .create(json!({"t":"create","game":{"kind":"othello"},"seat":"black"}))
        .await;
    a.send(json!({"t":"review","room":room})).await;
    let e = a.expect("error").await;
    assert!(e["message"].as_str().unwrap().contains("not over"), "{e}");
    a.send(json!({"t":"review","room":"nosuchroom"})).await;
    assert_eq!(a.expect("error").await["code"], "no_such_room");
    a.send(json!({"t":"analysis","job":"a1","ply":0,"eval":0,"best":"f5"}))
        .await;
    assert_eq!(a.expect("error").await["code"], "not_a_player");
    a.send(json!({"t":"review","room":room,"ask":false})).await;
    assert_eq!(a.expect("review").await["status"], "none");
}

#[tokio::test]
async fn nobody_fills_the_review_queue_and_reviews_nobody_takes_expire() {
    let server = TestServer::start_with(|c| {
        c.limits.review_per_player = 2;
        c.limits.review_per_address = 3;
        c.limits.review_wait = std::time::Duration::from_secs(2);
    })
    .await;
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let mut rooms = Vec::new();
    let mut black = None;
    for _ in 0..4 {
        let (room, b, _white) = finished_game(&server, game.clone(), &C4, false).await;
        rooms.push(room);
        black = Some(b);
    }
    // One player, watching every room, has two reviews waiting; a third is refused with the
    // limit named.
    let mut asker = black.unwrap();
    let mut other = server.client("Other").await;
    for room in &rooms {
        asker.join(room, "spectator").await;
        other.join(room, "spectator").await;
    }
    for room in &rooms[..2] {
        asker.send(json!({"t":"review","room":room})).await;
        let pending = asker
            .expect_where(|v| v["t"] == "review" && v["room"] == room.as_str())
            .await;
        assert_eq!(pending["status"], "pending", "{pending}");
    }
    let e = asker.refused(json!({"t":"review","room":rooms[2]})).await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    assert!(e["message"].as_str().unwrap().contains("2 reviews"), "{e}");
    // Another player from the same address has one more; the address's fourth is refused.
    other.send(json!({"t":"review","room":rooms[2]})).await;
    other
        .expect_where(|v| v["t"] == "review" && v["room"] == rooms[2].as_str())
        .await;
    let e = other.refused(json!({"t":"review","room":rooms[3]})).await;
    assert_eq!(e["code"], "rate_limited", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("your address"),
        "{e}"
    );
    // No worker comes: after the wait limit each review is given up, with a message.
    for room in &rooms[..2] {
        let failed = asker
            .expect_where(|v| v["t"] == "review" && v["room"] == room.as_str())
            .await;
        assert_eq!(failed["status"], "failed", "{failed}");
        assert!(
            failed["message"].as_str().unwrap().contains("within 2 s"),
            "{failed}"
        );
    }
    // The queue holds nothing of theirs now: they may ask again.
    asker.send(json!({"t":"review","room":rooms[3]})).await;
    let pending = asker
        .expect_where(|v| v["t"] == "review" && v["room"] == rooms[3].as_str())
        .await;
    assert_eq!(pending["status"], "pending", "{pending}");
}

/// Asks `who` for a live analysis (`id`) until a worker takes it: the bot process registers
/// as a worker just after its `hello`.
async fn analyse_when_a_worker_is_in(who: &mut Client, ask: Value) {
    for _ in 0..200 {
        who.send(ask.clone()).await;
        let status = who
            .expect_where(|v| v["t"] == "analysis_status" && v["id"] == ask["id"])
            .await;
        if status["status"] == "running" {
            return;
        }
        assert!(
            status["message"]
                .as_str()
                .unwrap()
                .contains("no analysis worker"),
            "{status}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no worker took the analysis");
}

/// The lines of analysis `id` until its worker says it is done.
async fn lines_until_done(who: &mut Client, id: &str) -> Vec<Value> {
    let mut lines = Vec::new();
    loop {
        let v = who
            .expect_where(|v| {
                v["id"] == id && (v["t"] == "analysis_line" || v["t"] == "analysis_status")
            })
            .await;
        if v["t"] == "analysis_status" {
            assert_eq!(v["status"], "done", "{v}");
            return lines;
        }
        lines.push(v);
    }
}

#[tokio::test]
async fn the_bot_streams_a_live_analysis_depth_by_depth_and_proves_a_puzzles_win() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 1, &dir.path().join("bot.json"));
    let mut ann = server.client("Ann").await;
    // A shipped VCF puzzle: the engine proves the win for the side to move.
    let set = kibitz_server::puzzles::PuzzleSet::shipped();
    let puzzle = set.of_variant("gomoku-freestyle", Some("vcf"))[0];
    let ask =
        json!({"t":"analyse","id":"p1","game":puzzle.game,"position":null,"moves":puzzle.moves});
    analyse_when_a_worker_is_in(&mut ann, ask).await;
    let lines = lines_until_done(&mut ann, "p1").await;
    assert!(!lines.is_empty());
    let depths: Vec<u64> = lines.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "depth by depth: {depths:?}"
    );
    assert!(lines.iter().all(|l| l["by"] == "Kibot"));
    let last = lines.last().unwrap();
    let black_wins = puzzle.to_move == game_core::Color::Black;
    assert_eq!(last["proven"], true, "{last}");
    assert_eq!(
        last["eval"],
        if black_wins { 1000 } else { -1000 },
        "{last}"
    );
    // Proven by the threat search (a VCF or a VCT: its move need not be the puzzle's four),
    // and said so.
    let win_in = last["win_in"].as_i64().unwrap();
    assert_eq!(win_in > 0, black_wins, "{last}");
    assert!(
        ["vcf", "vct"].contains(&last["proof"].as_str().unwrap()),
        "{last}"
    );

    // A set-up Connect Four board, then the same after a move: the new analysis replaces the
    // old, whose lines stop.
    let mut cells = "-".repeat(35);
    cells.push_str("--XOX--");
    let board = format!("{cells} O");
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    ann.send(json!({"t":"analyse","id":"c1","game":game,"position":board,"moves":[]}))
        .await;
    let first = ann
        .expect_where(|v| v["t"] == "analysis_line" && v["id"] == "c1")
        .await;
    // The second also rates two moves (as the opening explorer asks).
    ann.send(json!({"t":"analyse","id":"c2","game":game,"position":board,
        "moves":[first["best"]],"rate":["1","4"]}))
        .await;
    let running = ann
        .expect_where(|v| v["t"] == "analysis_status" && v["id"] == "c2")
        .await;
    assert_eq!(running["status"], "running");
    let lines = lines_until_done(&mut ann, "c2").await;
    let depths: Vec<u64> = lines.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
    assert!(depths.len() >= 2, "{lines:?}");
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    let rated: Vec<&Value> = ann
        .backlog
        .iter()
        .filter(|v| v["t"] == "analysis_move" && v["id"] == "c2")
        .collect();
    let moves: Vec<&str> = rated.iter().map(|v| v["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["1", "4"], "{rated:?}");
    for r in &rated {
        assert!((-1000..=1000).contains(&r["eval"].as_i64().unwrap()), "{r}");
        assert!(r["depth"].as_u64().unwrap() >= 1, "{r}");
        assert_eq!(r["by"], "Kibot");
    }
    assert!(
        !ann.backlog
            .iter()
            .any(|v| v["id"] == "c1" && v["t"] == "analysis_status" && v["status"] == "done"),
        "the replaced analysis was stopped, not finished"
    );
}

#[tokio::test]
async fn live_analyses_without_a_worker_bad_positions_and_false_lines_are_refused() {
    let server = TestServer::start().await;
    let mut ann = server.client("Ann").await;
    let game = json!({"kind":"othello"});
    ann.send(json!({"t":"analyse","id":"1","game":game,"moves":["f5"]}))
        .await;
    let status = ann.expect("analysis_status").await;
    assert_eq!(status["status"], "failed");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .starts_with("no analysis worker"),
        "{status}"
    );
    ann.send(json!({"t":"analyse","id":"2","game":game,"moves":["a1"]}))
        .await;
    assert_eq!(ann.expect_error().await, "illegal_move");
    ann.send(json!({"t":"analyse","id":"3","game":game,"position":"XO X"}))
        .await;
    assert_eq!(ann.expect_error().await, "bad_game");
    ann.send(json!({"t":"analyse","id":"","game":game})).await;
    assert_eq!(ann.expect_error().await, "bad_request");
    ann.send(json!({"t":"analysis_line","job":"l1","depth":1,"eval":0,"best":"d3"}))
        .await;
    assert_eq!(ann.expect_error().await, "not_a_player");

    // A scripted worker: its false line is refused and never reaches Ann; a true one does.
    let mut w = worker(&server, "Scripted").await;
    ann.send(json!({"t":"analyse","id":"4","game":game,"moves":["f5"]}))
        .await;
    assert_eq!(ann.expect("analysis_status").await["status"], "running");
    let job = w.expect("analyse_live").await;
    assert_eq!(
        (&job["moves"], &job["ms"]),
        (&json!(["f5"]), &json!(10_000))
    );
    let line = |best: &str| json!({"t":"analysis_line","job":job["job"],"depth":2,"eval":30,"best":best,"pv":[best]});
    w.send(line("a1")).await;
    assert_eq!(w.expect_error().await, "illegal_move");
    w.send(line("d6")).await;
    let seen = ann.expect("analysis_line").await;
    assert_eq!(
        (&seen["id"], &seen["best"], &seen["by"]),
        (&json!("4"), &json!("d6"), &json!("Scripted"))
    );
    // Ann stops: the worker is told; its late lines go nowhere.
    ann.send(json!({"t":"analyse_stop"})).await;
    let stop = w.expect("analyse_stop").await;
    assert_eq!(stop["job"], job["job"]);
    w.send(line("d6")).await;
    w.send(json!({"t":"analysis_done","job":job["job"]})).await;
    // The worker leaves during a new analysis: Ann hears why.
    ann.send(json!({"t":"analyse","id":"5","game":game,"moves":["f5"]}))
        .await;
    assert_eq!(ann.expect("analysis_status").await["status"], "running");
    w.expect("analyse_live").await;
    w.close().await;
    let failed = ann
        .expect_where(|v| v["t"] == "analysis_status" && v["id"] == "5")
        .await;
    assert_eq!(failed["status"], "failed");
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .contains("Scripted left"),
        "{failed}"
    );
    assert!(!ann
        .backlog
        .iter()
        .any(|v| v["t"] == "analysis_line" && v["id"] == "4" && *v != seen));
}

#[tokio::test]
async fn rated_moves_are_checked_both_ways() {
    let server = TestServer::start().await;
    let mut ann = server.client("Ann").await;
    let game = json!({"kind":"othello"});
    let ask = |rate: Value| json!({"t":"analyse","id":"r","game":game,"moves":["f5"],"rate":rate});
    ann.send(ask(json!(["a1"]))).await;
    assert_eq!(ann.expect_error().await, "illegal_move");
    ann.send(ask(json!(["d6", "D6"]))).await;
    assert_eq!(ann.expect_error().await, "bad_request");
    let many: Vec<String> = (0..25).map(|i| format!("x{i}")).collect();
    ann.send(ask(json!(many))).await;
    assert_eq!(ann.expect_error().await, "bad_request");

    let mut w = worker(&server, "Scripted").await;
    ann.send(ask(json!(["d6", "f4"]))).await;
    assert_eq!(ann.expect("analysis_status").await["status"], "running");
    let job = w.expect("analyse_live").await;
    assert_eq!(job["rate"], json!(["d6", "f4"]));
    let rated = |mv: &str, eval: i64| json!({"t":"analysis_move","job":job["job"],"move":mv,"depth":3,"eval":eval});
    // A move the job does not rate, an evaluation off the scale, a false proof: refused.
    w.send(rated("f6", 10)).await;
    assert_eq!(w.expect_error().await, "illegal_move");
    w.send(rated("d6", 5000)).await;
    assert_eq!(w.expect_error().await, "illegal_move");
    w.send(
        json!({"t":"analysis_line","job":job["job"],"depth":2,"eval":30,"best":"d6",
        "pv":["d6"],"proof":"vcf"}),
    )
    .await;
    assert_eq!(w.expect_error().await, "illegal_move");
    w.send(rated("D6", -20)).await;
    let seen = ann.expect("analysis_move").await;
    assert_eq!(
        (&seen["id"], &seen["move"], &seen["eval"], &seen["by"]),
        (&json!("r"), &json!("d6"), &json!(-20), &json!("Scripted"))
    );
    let mut stranger = server.client("Stranger").await;
    stranger
        .send(json!({"t":"analysis_move","job":job["job"],"move":"d6","depth":1,"eval":0}))
        .await;
    assert_eq!(stranger.expect_error().await, "not_a_player");
}

/// The shipped puzzle count of every variant together, as `/api/puzzles` gives it.
async fn puzzle_total(server: &TestServer) -> u64 {
    let (status, body) = http_get(server.addr, "/api/puzzles").await;
    assert_eq!(status, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    v["variants"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x["count"].as_u64().unwrap())
        .sum()
}

#[tokio::test]
async fn a_missed_win_in_a_reviewed_game_becomes_a_puzzle_proven_by_the_bot() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let _bot = BotProcess::start(&server.url(), "Kibot", 1, &dir.path().join("bot.json"));
    let before = puzzle_total(&server).await;
    // Made by the generator (seed 2, not in the shipped set): white to move wins in 6 with
    // 1; white plays 2 instead, after which black wins. Black plays 7 (a move after the miss
    // is what shows it gave the win up), and white resigns.
    let to_puzzle = [
        "1", "4", "3", "4", "4", "6", "4", "3", "5", "5", "6", "5", "3", "6", "4", "4", "3", "6",
        "1",
    ];
    let mut moves = to_puzzle.to_vec();
    moves.extend(["2", "7"]);
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let (room, mut black, mut white) = finished_game(&server, game, &moves, true).await;
    let review = review_of(&mut black, &mut white, &room).await;
    assert_eq!(
        review["plies"][19]["mark"], "missed_win",
        "{}",
        review["plies"][19]
    );

    let spec = game_core::GameSpec::connect4(7, 6);
    let owned: Vec<String> = to_puzzle.iter().map(|m| m.to_string()).collect();
    let pos = game_core::AnyPosition::with_moves(&spec, &owned).unwrap();
    let id = game_core::puzzle::hall_id("connect4", &game_core::puzzle::symmetry_key(&pos));
    // The bot proves it after the review: wait for the puzzle to be served.
    let path = format!("/api/puzzles/{id}");
    let mut found = None;
    for _ in 0..400 {
        let (status, body) = http_get(server.addr, &path).await;
        if status == 200 {
            found = Some(serde_json::from_str::<Value>(&body).unwrap());
            break;
        }
        assert_eq!(status, 404, "{body}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let p = found.expect("the missed win became a puzzle");
    assert_eq!(p["source"], json!({"room": room, "ply": 19}));
    assert_eq!(p["moves"], json!(to_puzzle));
    assert_eq!(p["to_move"], "white");
    // Other missed wins of the game may be proven after it: at least this one counts.
    assert!(puzzle_total(&server).await > before);
    // It plays like a shipped one: its main line solves it.
    let (_, solution) = http_get(server.addr, &format!("{path}/solution")).await;
    let line: Vec<String> = serde_json::from_str::<Value>(&solution).unwrap()["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let (status, answer) = http_json(
        server.addr,
        "POST",
        &format!("{path}/move"),
        json!({"line": line}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(answer["solved"], true, "{answer}");
}

#[tokio::test]
async fn a_workers_false_puzzle_is_refused_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let before = puzzle_total(&server).await;
    let game = json!({"kind":"connect4","cols":7,"rows":6});
    let (room, mut black, _white) = finished_game(&server, game.clone(), &C4, false).await;
    let mut w = worker(&server, "W").await;
    black.send(json!({"t":"review","room":room})).await;
    black.expect("review").await;
    let job = w.expect("analyze").await;
    // Black "had" a proven win before moves 3 and 5 and played another move each time.
    for (i, _) in C4.iter().enumerate() {
        let won = i == 2 || i == 4;
        let eval = if won { 1000 } else { 0 };
        let mut a =
            json!({"t":"analysis","job":job["job"],"ply":i,"eval":eval,"best":"7","pv":["7"]});
        if won {
            a["proven"] = json!(true);
            a["win_in"] = json!(5);
        }
        w.send(a).await;
    }
    black
        .expect_where(|v| v["t"] == "review" && v["status"] == "done")
        .await;
    let first = w.expect("prove_puzzle").await;
    assert_eq!(first["moves"], json!(["4", "4"]));
    assert_eq!(first["variant"], "connect4");
    let mut stranger = server.client("Stranger").await;
    stranger
        .send(json!({"t":"puzzle_proof","job":first["job"],"puzzle":null}))
        .await;
    assert_eq!(stranger.expect_error().await, "not_a_player");
    // A puzzle of another position: refused, and the next candidate comes.
    let puzzle = |moves: Value, tree: Value, line: Value| {
        json!({"id":"x","variant":"connect4",
        "game":game,"moves":moves,"to_move":"black","length":1,"themes":["win"],"line":line,
        "proof":tree})
    };
    let other = puzzle(json!(["4"]), json!({"7":{}}), json!(["7"]));
    w.send(json!({"t":"puzzle_proof","job":first["job"],"puzzle":other}))
        .await;
    let e = w.expect("error").await;
    assert_eq!(e["code"], "illegal_move", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("other moves"),
        "{e}"
    );
    // A tree whose branch is no win: refused.
    let second = w.expect("prove_puzzle").await;
    assert_eq!(second["moves"], json!(["4", "4", "3", "3"]));
    let false_win = puzzle(second["moves"].clone(), json!({"7":{}}), json!(["7"]));
    w.send(json!({"t":"puzzle_proof","job":second["job"],"puzzle":false_win}))
        .await;
    let e = w.expect("error").await;
    assert!(e["message"].as_str().unwrap().contains("no win"), "{e}");
    assert_eq!(puzzle_total(&server).await, before);
}
