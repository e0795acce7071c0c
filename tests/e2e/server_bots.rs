//! The bot invitation path with scripted bot clients (hello with the bot key, answer
//! invitations): `invite_bot`, `create` with bots, declines and vanished bots moving on to
//! the next bot, no bot at all, the bots in the lobby, and a bot challenged by name (for a
//! correspondence game too).

use crate::support::*;
use serde_json::{json, Value};

fn connect4() -> Value {
    json!({"kind":"connect4","cols":7,"rows":6})
}

/// Waits for whichever of two bots is invited first; true when it is `x`.
async fn first_invited(x: &mut Client, y: &mut Client) -> (bool, Value) {
    tokio::select! {
        v = x.expect("invite") => (true, v),
        v = y.expect("invite") => (false, v),
    }
}

#[tokio::test]
async fn invited_bot_joins_and_plays() {
    let server = TestServer::start().await;
    let mut bot = server.bot("TestBot", &["connect4"], 2).await;
    let mut a = server.client("Alice").await;
    let clock = json!({"initial_ms":60000,"increment_ms":1000});
    let (room, st) = a
        .create(json!({"t":"create","game":connect4(),"seat":"black","clock":clock}))
        .await;
    assert_eq!(st["status"], "waiting");
    a.send(json!({"t":"invite_bot","room":room,"level":7}))
        .await;
    let invite = bot.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    assert_eq!(invite["seat"], "white");
    assert_eq!(invite["level"], 7);
    // The game comes back in its full form, defaults spelled out.
    assert_eq!(
        invite["game"],
        json!({"kind":"connect4","cols":7,"rows":6,"blocked":[]})
    );
    assert_eq!(invite["clock"], clock);
    let st = bot.join(&room, "player").await;
    assert_eq!(st["you"], "white");
    let st = a
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(st["seats"]["white"]["bot"], true);
    assert_eq!(st["seats"]["white"]["name"], "TestBot");
    assert_eq!(st["seats"]["black"]["bot"], false);

    a.play(&room, "4").await;
    bot.saw_ply(&room, 1).await;
    bot.send(json!({"t":"chat","room":room,"text":"good luck"}))
        .await;
    let line = a.expect("chat").await;
    assert_eq!(line["bot"], true);
    assert_eq!(line["seat"], "white");
    bot.play(&room, "4").await;
    a.saw_ply(&room, 2).await;

    // The lobby counts the game against the bot's capacity.
    let mut w = server.client("Watcher").await;
    w.send(json!({"t":"lobby"})).await;
    let lobby = w.expect("lobby").await;
    assert_eq!(lobby["bots"][0]["name"], "TestBot");
    assert_eq!(lobby["bots"][0]["busy"], 1);
    assert_eq!(lobby["bots"][0]["capacity"], 2);
    assert_eq!(lobby["bots"][0]["games"], json!(["connect4"]));
    assert_eq!(
        lobby["bots"][0]["levels"],
        json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    );
    // The game ends: the bot is free again.
    a.send(json!({"t":"resign","room":room})).await;
    w.expect_where(|v| v["t"] == "lobby" && v["bots"][0]["busy"] == 0)
        .await;
}

#[tokio::test]
async fn create_with_a_bot_fills_the_seat_at_once() {
    let server = TestServer::start().await;
    let mut bot = server.bot("TestBot", &["connect4", "gomoku"], 2).await;
    let mut a = server.client("Alice").await;
    let e = a
        .refused(json!({"t":"create","game":connect4(),"seat":"white","bots":{"white":3}}))
        .await;
    assert_eq!(e["code"], "bad_request", "{e}");
    // A random seat avoids the bot's.
    let (room, st) = a
        .create(json!({"t":"create","game":connect4(),"seat":"random","bots":{"white":3}}))
        .await;
    assert_eq!(st["you"], "black");
    let invite = bot.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    assert_eq!(invite["seat"], "white");
    assert_eq!(invite["level"], 3);
    bot.join(&room, "player").await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    a.play(&room, "1").await;

    // A bot never plays itself: a room with two bot seats needs two bots.
    let (room, _) = a
        .create(json!({"t":"create","game":connect4(),"seat":"none",
            "bots":{"black":2,"white":2}}))
        .await;
    let invite = bot.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    let e = a.expect("error").await;
    assert_eq!(e["code"], "no_bot_available");
    assert_eq!(e["ref"], "create");
}

#[tokio::test]
async fn a_decline_moves_on_to_the_next_bot() {
    let server = TestServer::start().await;
    let mut x = server.bot("BotX", &["connect4"], 1).await;
    let mut y = server.bot("BotY", &["connect4"], 1).await;
    let mut a = server.client("Alice").await;
    let (room, _) = a
        .create(json!({"t":"create","game":connect4(),"seat":"black","bots":{"white":5}}))
        .await;
    let (x_first, invite) = first_invited(&mut x, &mut y).await;
    assert_eq!(invite["room"], room.as_str());
    let (first, second) = if x_first {
        (&mut x, &mut y)
    } else {
        (&mut y, &mut x)
    };
    first.send(json!({"t":"decline","room":room})).await;
    let invite = second.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    assert_eq!(invite["level"], 5);
    // The first bot's chance is gone.
    let e = first
        .refused(json!({"t":"join","room":room,"as":"player"}))
        .await;
    assert_eq!(e["code"], "room_full");
    second.join(&room, "player").await;
    let st = a
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    assert_eq!(st["seats"]["white"]["player"], second.player.as_str());
}

#[tokio::test]
async fn a_vanished_bot_moves_on_to_the_next() {
    let server = TestServer::start().await;
    let mut x = server.bot("BotX", &["connect4"], 1).await;
    let mut y = server.bot("BotY", &["connect4"], 1).await;
    let mut a = server.client("Alice").await;
    let (room, _) = a
        .create(json!({"t":"create","game":connect4(),"seat":"black"}))
        .await;
    a.send(json!({"t":"invite_bot","room":room,"level":4}))
        .await;
    let (x_first, _) = first_invited(&mut x, &mut y).await;
    let mut second = if x_first {
        x.close().await;
        y
    } else {
        y.close().await;
        x
    };
    let invite = second.expect("invite").await;
    assert_eq!(invite["room"], room.as_str());
    assert_eq!(invite["level"], 4);
    second.join(&room, "player").await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
}

#[tokio::test]
async fn no_bot_available() {
    let server = TestServer::start().await;
    let mut a = server.client("Alice").await;
    let (room, _) = a
        .create(json!({"t":"create","game":connect4(),"seat":"black"}))
        .await;
    let e = a
        .refused(json!({"t":"invite_bot","room":room,"level":4}))
        .await;
    assert_eq!(e["code"], "no_bot_available");
    assert_eq!(e["ref"], "invite_bot");
    // A bot for other games does not help.
    let _gomoku_bot = server.bot("GomokuBot", &["gomoku"], 4).await;
    let e = a
        .refused(json!({"t":"invite_bot","room":room,"level":4}))
        .await;
    assert_eq!(e["code"], "no_bot_available");
    let e = a
        .refused(json!({"t":"invite_bot","room":room,"level":0}))
        .await;
    assert_eq!(e["code"], "bad_request");
    // The room still waits for a player.
    let mut b = server.client("Bob").await;
    b.join(&room, "player").await;
    a.expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;
    let e = a
        .refused(json!({"t":"invite_bot","room":room,"level":4}))
        .await;
    assert_eq!(e["code"], "room_full");
}

#[tokio::test]
async fn a_challenged_bot_is_invited_first_at_its_level_by_correspondence_too() {
    let server = TestServer::start().await;
    // Two idle bots; each challenge names one, and that one is invited, whichever is idler.
    let mut ada = server.bot("Ada", &["connect4", "othello"], 4).await;
    let mut kibot = server.bot("Kibot", &["connect4", "othello"], 4).await;
    let mut ann = server.client("Ann").await;
    for (named, level) in [("Kibot", None), ("Ada", Some(8)), ("Kibot", Some(2))] {
        let mut msg = json!({"t":"challenge","to":named,"game":{"kind":"othello"},
            "clock":{"days":3},"color":"white"});
        if let Some(level) = level {
            msg["level"] = json!(level);
        }
        ann.send(msg).await;
        let room = ann.expect("created").await["room"].clone();
        let st = ann.expect("state").await;
        assert_eq!(st["you"], "white", "{st}");
        assert_eq!(st["control"], json!({"days":3,"vacation_days":0}));
        let (bot, other) = if named == "Kibot" {
            (&mut kibot, &mut ada)
        } else {
            (&mut ada, &mut kibot)
        };
        let invite = bot.expect("invite").await;
        assert_eq!(invite["room"], room, "{named} is invited");
        assert_eq!(invite["seat"], "black");
        assert_eq!(invite["level"], level.unwrap_or(5));
        assert_eq!(invite["clock"], json!({"days":3,"vacation_days":0}));
        bot.send(json!({"t":"decline","room":room})).await;
        // Declined: the next bot is asked.
        assert_eq!(other.expect("invite").await["room"], room);
        other.send(json!({"t":"decline","room":room})).await;
        ann.backlog.clear();
    }
}
