//! Bots at levels: a bot plays at the level it was entered at, and one whose every place is
//! taken is waited for rather than seated in a game it would decline.

use super::*;

/// A bot enters at the level it is named with and plays its games there; a bot with every
/// place taken is not seated in a game it would decline: the room waits (the tournament says
/// for whom) until a place is free. Levels out of range, a rated tournament's bot below the
/// rated level and a bot named twice at one level are refused.
#[tokio::test]
async fn a_bot_plays_at_its_level_and_a_full_bot_is_waited_for() {
    let server = TestServer::start().await;
    let mut zed = server.bot("Zed", &["connect4"], 1).await;
    let ann = account(&server, "Ann").await;
    // Zed's one place is taken: a guest's room invites it and it sits down.
    let mut guest = server.client("Guest").await;
    let (busy_room, _) = guest
        .create(json!({"t":"create","game":connect4(),"seat":"black","bots":{"white":2}}))
        .await;
    let invite = zed.expect("invite").await;
    assert_eq!(invite["room"], busy_room.as_str());
    zed.join(&busy_room, "player").await;
    guest
        .expect_where(|v| v["t"] == "state" && v["status"] == "playing")
        .await;

    let body = |bots: Value, rated: bool| {
        json!({"token": ann.token, "name": "Levels", "kind": "round_robin",
               "game": connect4(), "clock": clock(), "rated": rated, "bots": bots})
    };
    for (bots, rated, needle) in [
        (
            json!([{"name":"Zed","level":11}]),
            false,
            "bot levels are 1..=10",
        ),
        (
            json!([{"name":"Zed","level":3}]),
            true,
            "rated games at level 10",
        ),
        (
            json!(["Zed", {"name":"zed","level":10}]),
            false,
            "named twice at level 10",
        ),
    ] {
        let (status, e) = post(&server, "/api/tournaments", body(bots.clone(), rated)).await;
        assert_eq!(status, 400, "{bots}: {e}");
        assert!(e["error"].as_str().unwrap().contains(needle), "{bots}: {e}");
    }
    let id = make(&server, body(json!([{"name":"Zed","level":4}]), false)).await;
    for step in ["join", "start"] {
        let path = format!("/api/tournaments/{id}/{step}");
        let (status, e) = post(&server, &path, json!({"token": ann.token})).await;
        assert_eq!(status, 200, "{step}: {e}");
    }
    let t = tournament_until(&server, &id, "the game waiting for Zed", |t| {
        t["pairings"][0]["games"][0]["waits_for"] == "Zed"
    })
    .await;
    let zed_entry = t["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Zed");
    assert_eq!(zed_entry.unwrap()["level"], 4, "{t:#}");
    let room = t["pairings"][0]["games"][0]["room"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = get(&server, &format!("/api/games/{room}")).await;
    assert_eq!(status, 404, "no room is made while Zed is full");

    // The guest resigns: Zed's place is free, the room is made and Zed invited at its level.
    guest.send(json!({"t":"resign","room":busy_room})).await;
    guest.expect("over").await;
    zed.send(json!({"t":"leave","room":busy_room})).await;
    let invite = zed
        .expect_where(|v| v["t"] == "invite" && v["room"] == room.as_str())
        .await;
    assert_eq!(invite["level"], 4, "{invite}");
    let t = tournament_until(&server, &id, "the wait noted as over", |t| {
        t["pairings"][0]["games"][0]["waits_for"].is_null()
    })
    .await;
    assert_eq!(t["status"], "running", "{t:#}");
}
