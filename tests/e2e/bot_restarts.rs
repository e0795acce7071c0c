//! The bot across crashes, with real processes: the server killed with SIGKILL mid-game and
//! started again on the same data and address, the bot killed and started again on the same
//! state file — either way the game is finished — and `kibitz up`, the default command, with
//! its two bots and its showcase game, stopped by SIGTERM with nothing left behind; and a backup
//! of the store taken while the server plays, opened by another server.
//!
//! The bots run with `--pace-ms 20` (their natural pace is 250 ms against people).

use crate::support::bots::*;
use crate::support::*;
use serde_json::{json, Value};

/// Asks for a room with the bot until the bot is connected; returns the room and its
/// playing `state`.
async fn game_with_bot(c: &mut Client, game: Value, level: u8) -> (String, Value) {
    c.send(json!({"t":"lobby"})).await;
    c.expect_where(|v| v["t"] == "lobby" && v["bots"].as_array().is_some_and(|b| !b.is_empty()))
        .await;
    c.send(json!({"t":"unlobby"})).await;
    let (room, _) = c
        .create(json!({"t":"create","game":game,"seat":"black","bots":{"white":level}}))
        .await;
    let state = c
        .expect_where(|v| {
            v["t"] == "state" && v["room"] == room.as_str() && v["status"] == "playing"
        })
        .await;
    (room, state)
}

#[tokio::test]
async fn the_bot_finishes_its_game_after_the_server_is_killed_and_restarted() {
    let data = tempfile::tempdir().unwrap();
    let mut server = ServeProcess::start("127.0.0.1:0", data.path()).await;
    let addr = server.addr.clone();
    let _bot = BotProcess::start(&server.url(), "Kibot", 2, &data.path().join("bot.json"));
    let mut me = Client::connect(&server.url()).await;
    me.hello("Alice").await;
    let (room, state) = game_with_bot(&mut me, gomoku(11), 1).await;
    let mut seat = Seat::new(&state);
    let mut rng = Lcg(21);
    let over = seat
        .play(&mut me, |p| rng.pick(p), |f| f.moves.len() >= 4)
        .await;
    assert!(over.is_none(), "the game ended before the crash");
    // Our move goes in, then the server dies before (or while) the bot answers.
    let mv = rng.pick(&seat.follow.pos);
    me.play(&room, &mv).await;
    let played = seat.follow.moves.len() + 1;
    server.guard.kill().await;

    // The same data, the same address: the bot finds it again by itself.
    let server = ServeProcess::start(&addr, data.path()).await;
    assert_eq!(server.addr, addr);
    let token = me.token.clone();
    let mut me = Client::connect(&server.url()).await;
    me.hello_again("Alice", &token).await;
    let state = me.fresh_state(&room, "player").await;
    let moves = strings(&state["moves"]);
    assert!(
        moves.len() >= played,
        "an acknowledged move was lost: {moves:?}"
    );
    assert_eq!(state["status"], "playing");
    let mut rng = Lcg(22);
    let played = play_to_end(&mut me, &state, |p| rng.pick(p)).await;
    played.follow.check_board_result(&played.over);
}

#[tokio::test]
async fn the_bot_killed_and_restarted_resumes_its_games() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut bot = BotProcess::start(&server.url(), "Kibot", 2, &dir.path().join("bot.json"));
    let mut a = server.client("Alice").await;
    let mut b = server.client("Bob").await;
    let (_, state_a) = game_with_bot(&mut a, gomoku(11), 1).await;
    let (_, state_b) = game_with_bot(&mut b, json!({"kind":"connect4","cols":7,"rows":6}), 1).await;
    let mut seat_a = Seat::new(&state_a);
    let mut seat_b = Seat::new(&state_b);
    let mut rng = Lcg(31);
    // Both games under way, our turn in each: the bot has nothing in flight.
    assert!(seat_a
        .play(&mut a, |p| rng.pick(p), |f| f.moves.len() >= 4)
        .await
        .is_none());
    assert!(seat_b
        .play(&mut b, |_| "1".to_string(), |f| f.moves.len() >= 2)
        .await
        .is_none());
    // SIGKILL: no goodbye, no closing handshake; the restarted process comes back quickly
    // enough that the room may never show it offline, so nothing waits for that.
    bot.restart().await;
    // We move while it is away; the restarted bot answers and plays both games out.
    let (over_a, over_b) = tokio::join!(
        seat_a.play(&mut a, |p| rng.pick(p), |_| false),
        seat_b.play(&mut b, |p| Lcg(p.ply() as u64).pick(p), |_| false),
    );
    let over_a = over_a.expect("game A over");
    let over_b = over_b.expect("game B over");
    seat_a.follow.check_board_result(&over_a);
    seat_b.follow.check_board_result(&over_b);
    // It said gg in each, and forgot the finished games in its state file.
    seat_a.goodbye(&mut a).await;
    seat_b.goodbye(&mut b).await;
    let mut w = server.client("Watcher").await;
    w.send(json!({"t":"lobby"})).await;
    w.expect_where(|v| v["t"] == "lobby" && v["bots"][0]["busy"] == 0)
        .await;
}

/// The pids of the children of `pid`, from /proc.
fn children_of(pid: i32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("read /proc").flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // The fields after the command name (which may hold spaces) in parentheses.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let parent = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<i32>().ok());
        if parent == Some(pid) {
            found.push(child);
        }
    }
    found
}

fn is_kibitz_bot(pid: i32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| {
            let args: Vec<&[u8]> = c.split(|b| *b == 0).collect();
            args.get(1) == Some(&b"bot".as_slice())
        })
        .unwrap_or(false)
}

#[tokio::test]
async fn kibitz_up_serves_the_page_two_bots_and_a_live_game_and_stops_cleanly() {
    let data = tempfile::tempdir().unwrap();
    // No subcommand: `up` is the default.
    let (mut up, addr) = spawn_listening(&["--bind", "127.0.0.1:0"], data.path()).await;
    let addr: std::net::SocketAddr = addr.parse().expect("address");
    let (status, body) = http_get(addr, "/").await;
    assert_eq!(status, 200);
    assert!(body.to_lowercase().contains("<html"), "{body}");

    let mut c = Client::connect(&format!("ws://{addr}/ws")).await;
    c.hello("Newcomer").await;
    c.send(json!({"t":"lobby"})).await;
    let lobby = c
        .expect_where(|v| {
            v["t"] == "lobby"
                && v["bots"].as_array().is_some_and(|b| b.len() == 2)
                && v["live"].as_array().is_some_and(|l| !l.is_empty())
        })
        .await;
    let live = &lobby["live"][0];
    assert_eq!(live["seats"]["black"]["bot"], true, "{live}");
    assert_eq!(live["seats"]["white"]["bot"], true, "{live}");
    // The showcase really plays: a spectator sees a move.
    let room = live["room"].as_str().unwrap().to_string();
    c.send(json!({"t":"join","room":room,"as":"spectator"}))
        .await;
    c.expect_where(|v| v["t"] == "moved" && v["room"] == room.as_str())
        .await;

    let bots: Vec<i32> = children_of(up.pid())
        .into_iter()
        .filter(|p| is_kibitz_bot(*p))
        .collect();
    assert_eq!(bots.len(), 2, "two bot processes");
    signal(u32::try_from(up.pid()).expect("a pid"), "TERM");
    let status = within("kibitz up to stop", up.child.wait()).await.unwrap();
    assert!(status.success(), "{status}");
    for pid in bots {
        assert!(!is_kibitz_bot(pid), "bot process {pid} outlived kibitz up");
    }
}

#[tokio::test]
async fn bots_started_by_kibitz_up_die_with_it_even_after_kill_9() {
    let data = tempfile::tempdir().unwrap();
    let (mut up, _addr) = spawn_listening(&["--bind", "127.0.0.1:0"], data.path()).await;
    let bots = within("kibitz up to start its two bots", async {
        loop {
            let bots: Vec<i32> = children_of(up.pid())
                .into_iter()
                .filter(|p| is_kibitz_bot(*p))
                .collect();
            if bots.len() == 2 {
                return bots;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
    signal(u32::try_from(up.pid()).expect("a pid"), "KILL");
    let _ = within("kibitz up to die", up.child.wait()).await;
    // The bots read the end of the pipe `up` held and stop; nothing else tells them.
    within("both bots to exit", async {
        while bots.iter().any(|pid| is_kibitz_bot(*pid)) {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await;
}

/// `kibitz store backup` while the server runs and plays: the copy is a hall of its own, with
/// the game and its moves, that a server opens.
#[tokio::test]
async fn a_backup_taken_while_the_server_runs_is_a_whole_hall() {
    let data = tempfile::tempdir().unwrap();
    let server = ServeProcess::start("127.0.0.1:0", data.path()).await;
    let mut ann = Client::connect(&server.url()).await;
    ann.hello("Ann").await;
    let mut ben = Client::connect(&server.url()).await;
    ben.hello("Ben").await;
    let (room, _) = ann
        .create(json!({"t":"create","game":gomoku(11),"seat":"black"}))
        .await;
    ben.join(&room, "player").await;
    ann.play(&room, "f6").await;
    ben.play(&room, "a1").await;

    let copy = tempfile::tempdir().unwrap();
    let file = copy.path().join("kibitz.db");
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"))
        .args(["store", "backup"])
        .arg(&file)
        .arg("--data")
        .arg(data.path())
        .output()
        .await
        .expect("run kibitz store backup");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("copied "), "{said}");
    // The running game goes on after the copy.
    ann.play(&room, "g7").await;
    drop(server);

    let restored = ServeProcess::start("127.0.0.1:0", copy.path()).await;
    let (status, body) = http_get(
        restored.addr.parse().unwrap(),
        &format!("/api/games/{room}"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        stored_moves(&game),
        ["f6", "a1"],
        "the game as it stood at the copy"
    );
}
