//! Accounts and ratings end to end, over real sockets: a guest claims a name and signs in from
//! another browser as the same player; guests cannot take an account's name; sign-out; the
//! sign-in guard (lock-outs, per-address limits, the same answers for names that do not
//! exist); writes from another site or not in JSON refused; passwords never logged or stored;
//! rated games between accounts, against a bot (damped, and not farmed), the `rated` message,
//! leaderboards and player pages; and it all after a restart. Follows, head to head, blocks,
//! reports and moderators' actions are in `server_moderation.rs`.

use std::time::Duration;

use crate::support::serve::ServeProcess;
use crate::support::*;
use kibitz_server::accounts::ratings::{rate_game, Rating, Side};
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery";

/// Claims `name` for the player of `client`.
async fn register(server: &TestServer, client: &Client, name: &str) -> (u16, Value) {
    http_json(
        server.addr,
        "POST",
        "/api/accounts",
        json!({"token": client.token, "name": name, "password": PASSWORD}),
    )
    .await
}

async fn sign_in(server: &TestServer, name: &str, password: &str) -> (u16, Value) {
    http_json(
        server.addr,
        "POST",
        "/api/session",
        json!({"name": name, "password": password}),
    )
    .await
}

#[tokio::test]
async fn a_guest_claims_a_name_and_signs_in_from_another_browser() {
    let server = TestServer::start().await;
    let first = server.client("Guest1").await;
    let player = first.player.clone();
    let (status, body) = register(&server, &first, "Alice").await;
    assert_eq!(
        (status, &body),
        (201, &json!({"player": player, "name": "Alice"}))
    );

    // The same browser, reconnected: the account's name whatever the hello says.
    let mut again = Client::connect(&server.url()).await;
    let w = again.hello_again("Guest1", &first.token).await;
    assert_eq!(
        (w["player"].as_str(), w["name"].as_str(), &w["account"]),
        (Some(player.as_str()), Some("Alice"), &json!(true))
    );

    // The name is taken whatever its case, for claims and for guests' hellos.
    let other = server.client("Guest2").await;
    let (status, body) = register(&server, &other, "ALICE").await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "the name ALICE is taken");
    let (status, body) = register(&server, &first, "Alice2").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("this player already has an account"))
    );
    let mut impostor = Client::connect(&server.url()).await;
    impostor.send(json!({"t":"hello","name":"alice"})).await;
    let e = impostor.expect("error").await;
    assert_eq!(e["code"], "name_taken", "{e}");

    // Another browser signs in, in another case, and is the same player.
    let (status, body) = sign_in(&server, "aLiCe", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (body["player"].as_str(), body["name"].as_str()),
        (Some(player.as_str()), Some("Alice"))
    );
    let token2 = body["token"].as_str().expect("a token").to_string();
    assert_ne!(token2, first.token);
    let mut second = Client::connect(&server.url()).await;
    let w = second.hello_again("whoever", &token2).await;
    assert_eq!(
        (w["player"].as_str(), w["name"].as_str()),
        (Some(player.as_str()), Some("Alice"))
    );

    // Wrong password and unknown name: one answer.
    let wrong = sign_in(&server, "Alice", "not the password").await;
    let unknown = sign_in(&server, "Nobody", "not the password").await;
    assert_eq!(wrong, (401, json!({"error": "wrong name or password"})));
    assert_eq!(unknown, wrong);

    // Signing out forgets that browser's token only.
    let (status, _, _) = http_request(
        server.addr,
        "DELETE",
        "/api/session",
        &[("Authorization", &format!("Bearer {token2}"))],
        None,
    )
    .await;
    assert_eq!(status, 204);
    let mut gone = Client::connect(&server.url()).await;
    gone.send(json!({"t":"hello","name":"x","token":token2}))
        .await;
    assert_eq!(gone.expect("error").await["code"], "bad_token");
    let mut kept = Client::connect(&server.url()).await;
    assert_eq!(kept.hello_again("x", &first.token).await["name"], "Alice");

    // After a restart: the account, its name and the sign-in are all still there.
    let data = server.stop().await;
    let server = TestServer::start_in(data, |_| {}).await;
    let mut back = Client::connect(&server.url()).await;
    let w = back.hello_again("x", &first.token).await;
    assert_eq!(
        (w["name"].as_str(), &w["account"]),
        (Some("Alice"), &json!(true))
    );
    let (status, body) = sign_in(&server, "alice", PASSWORD).await;
    assert_eq!(
        (status, body["player"].as_str()),
        (200, Some(player.as_str()))
    );
    let mut impostor = Client::connect(&server.url()).await;
    impostor.send(json!({"t":"hello","name":"ALICE"})).await;
    assert_eq!(impostor.expect("error").await["code"], "name_taken");
    // A name that only looks like the account's (a Cyrillic а) is refused all the same, with
    // its own sentence; the connection stays.
    impostor
        .send(json!({"t":"hello","name":"\u{430}lice"}))
        .await;
    let e = impostor.expect("error").await;
    assert_eq!(e["code"], "name_taken", "{e}");
    assert!(e["message"].as_str().unwrap().contains("looks like"), "{e}");
    impostor.hello("Alicia").await;
}

#[tokio::test]
async fn bad_names_passwords_tokens_and_bodies_are_clear_errors() {
    let server = TestServer::start().await;
    let guest = server.client("Guest").await;
    for (name, password, status, error) in [
        (
            "al",
            PASSWORD,
            400,
            "a name is 3 to 20 characters: letters, digits, '_' and '-'",
        ),
        (
            "Al ice",
            PASSWORD,
            400,
            "a name is 3 to 20 characters: letters, digits, '_' and '-'",
        ),
        ("Alice", "short", 400, "a password is 8 to 128 characters"),
    ] {
        let (s, body) = http_json(
            server.addr,
            "POST",
            "/api/accounts",
            json!({"token": guest.token, "name": name, "password": password}),
        )
        .await;
        assert_eq!((s, body["error"].as_str()), (status, Some(error)), "{name}");
    }
    let (s, body) = http_json(
        server.addr,
        "POST",
        "/api/accounts",
        json!({"token": "not-a-token", "name": "Alice", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        (s, body["error"].as_str()),
        (401, Some("unknown token: reload the page"))
    );
    let (s, _, body) = http_request(
        server.addr,
        "POST",
        "/api/session",
        &[("Content-Type", "application/json")],
        Some("{not json"),
    )
    .await;
    assert_eq!(s, 400, "{body}");
    assert!(body.contains("JSON object"), "{body}");

    // A form another site posts (not JSON), or JSON from another origin: refused.
    let form = format!("name=Alice&password={PASSWORD}");
    let (s, _, _) = http_request(
        server.addr,
        "POST",
        "/api/session",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(&form),
    )
    .await;
    assert_eq!(s, 415);
    let body = json!({"name":"Alice","password":PASSWORD}).to_string();
    // The JSON media type exactly: a look-alike is refused, parameters and case are not.
    for (media, status) in [
        ("application/jsonx", 415),
        ("application/json-seq", 415),
        ("text/json", 415),
        ("Application/JSON; charset=utf-8", 401),
    ] {
        let (s, _, text) = http_request(
            server.addr,
            "POST",
            "/api/session",
            &[("Content-Type", media)],
            Some(&body),
        )
        .await;
        assert_eq!(s, status, "{media}: {text}");
    }
    let (s, _, text) = http_request(
        server.addr,
        "POST",
        "/api/session",
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://evil.example"),
        ],
        Some(&body),
    )
    .await;
    assert_eq!(s, 403, "{text}");
    let own = format!("http://{}", server.addr);
    let (s, _, _) = http_request(
        server.addr,
        "POST",
        "/api/session",
        &[("Content-Type", "application/json"), ("Origin", &own)],
        Some(&body),
    )
    .await;
    assert_eq!(s, 401, "the server's own page may sign in");
    let (s, _, _) = http_request(server.addr, "DELETE", "/api/session", &[], None).await;
    assert_eq!(s, 401);

    // The connection of the guest is untouched by all this.
    let mut guest = guest;
    guest.send(json!({"t":"lobby"})).await;
    guest.expect("lobby").await;
}

/// Account names in any script: letters and digits of any language, kept NFKC-normalised,
/// unique by case and by look (their confusable skeleton), and never a mix of look-alike
/// scripts.
#[tokio::test]
async fn account_names_in_any_script_one_look_one_account() {
    let server = TestServer::start().await;
    let mut n = 0;
    let mut claim = |name: &'static str| {
        n += 1;
        let guest = format!("Guest{n}");
        let server = &server;
        async move {
            let guest = server.client(&guest).await;
            register(server, &guest, name).await
        }
    };
    let (s, body) = claim("棋手小王").await;
    assert_eq!(
        (s, body["name"].as_str()),
        (201, Some("棋手小王")),
        "{body}"
    );
    let (s, body) = sign_in(&server, "棋手小王", PASSWORD).await;
    assert_eq!(s, 200, "{body}");
    // Full-width letters are the usual ones: kept as such, signed in either way.
    let (s, body) = claim("Ａｌｉｃｅ").await;
    assert_eq!((s, body["name"].as_str()), (201, Some("Alice")), "{body}");
    let (s, body) = sign_in(&server, "Ａｌｉｃｅ", PASSWORD).await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = claim("ALICE").await;
    assert_eq!(
        (s, body["error"].as_str()),
        (409, Some("the name ALICE is taken"))
    );
    // A Cyrillic а among Latin letters.
    let (s, body) = claim("\u{430}lice").await;
    assert_eq!(s, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("mixes scripts"),
        "{body}"
    );
    // All Cyrillic, and written just like a Latin account's name.
    let (s, _) = claim("ace").await;
    assert_eq!(s, 201);
    let (s, body) = claim("\u{430}\u{441}\u{435}").await;
    assert_eq!(
        (s, body["error"].as_str()),
        (
            409,
            Some("the name \u{430}\u{441}\u{435} looks like ace's: choose another name")
        )
    );
    let (_, body) = http_get(
        server.addr,
        "/api/players/%E6%A3%8B%E6%89%8B%E5%B0%8F%E7%8E%8B",
    )
    .await;
    let page: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(page["name"], "棋手小王", "{page}");
}

#[tokio::test]
async fn repeated_failures_lock_a_name_known_or_not_and_an_address_is_limited() {
    let server = TestServer::start_with(|c| {
        c.limits.signin_failures_before_lock = 3;
        c.limits.signin_lock = Duration::from_secs(60);
        c.limits.signin_attempts_per_address = 10;
    })
    .await;
    account(&server, "Alice").await;
    for name in ["Alice", "Nobody"] {
        for _ in 0..3 {
            assert_eq!(sign_in(&server, name, "wrong password").await.0, 401);
        }
        // Locked: even the right password waits, and so does a name no account has.
        let (_, head, body) = http_request(
            server.addr,
            "POST",
            "/api/session",
            &[("Content-Type", "application/json")],
            Some(&json!({"name": name.to_lowercase(), "password": PASSWORD}).to_string()),
        )
        .await;
        assert!(head.starts_with("http/1.1 429"), "{head}");
        assert!(head.contains("retry-after: 60"), "{head}");
        assert!(
            body.contains("too many sign-in attempts; try again in 60 s"),
            "{body}"
        );
    }
    // Counted against the address: the claim and 6 failures (a locked name's attempts are
    // refused before they count); it has 10 a window.
    for _ in 0..3 {
        assert_eq!(sign_in(&server, "Carol", "wrong password").await.0, 401);
    }
    let (status, body) = sign_in(&server, "Dave", "wrong password").await;
    assert_eq!(status, 429, "{body}");
}

#[tokio::test]
async fn passwords_are_never_logged_nor_stored() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_kibitz"));
    command
        .args(crate::support::serve::serve_args(data.path()))
        .env("RUST_LOG", "trace");
    let server = ServeProcess::spawn(command).await;
    let url = server.url();
    let mut guest = Client::connect(&url).await;
    guest.hello("Guest").await;
    let secret = "a-Very-Distinct-Passphrase-31337";
    let (status, _) = http_json(
        server.addr,
        "POST",
        "/api/accounts",
        json!({"token": guest.token, "name": "Alice", "password": secret}),
    )
    .await;
    assert_eq!(status, 201);
    for password in [secret, "a wrong one, also secret"] {
        http_json(
            server.addr,
            "POST",
            "/api/session",
            json!({"name": "Alice", "password": password}),
        )
        .await;
    }
    let ServeProcess {
        mut child, stderr, ..
    } = server;
    child.kill().await.expect("stop kibitz serve");
    let lines = stderr.await.expect("the log");
    assert!(
        lines.iter().any(|l| l.contains("account made")),
        "the log was read"
    );
    assert!(!lines
        .iter()
        .any(|l| l.contains(secret) || l.contains("also secret")));
    for file in ["kibitz.db", "kibitz.db-wal"] {
        let bytes = std::fs::read(data.path().join(file)).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(secret), "{file} holds the password");
    }
    // Its hash is kept instead (in the WAL until a checkpoint, then in the file).
    let both: Vec<u8> = ["kibitz.db", "kibitz.db-wal"]
        .iter()
        .flat_map(|f| std::fs::read(data.path().join(f)).unwrap_or_default())
        .collect();
    assert!(String::from_utf8_lossy(&both).contains("$argon2id$"));
}

/// Plays a quick game in `room`: black h8, white a1, then `loser` resigns.
async fn play_and_resign(black: &mut Client, white: &mut Client, room: &str, black_loses: bool) {
    black.play(room, "h8").await;
    white.saw_ply(room, 1).await;
    white.play(room, "a1").await;
    black.saw_ply(room, 2).await;
    let loser = if black_loses { black } else { white };
    loser.send(json!({"t":"resign","room":room})).await;
}

#[tokio::test]
async fn a_rated_game_between_accounts_moves_both_ratings() {
    let server = TestServer::start().await;
    let mut alice = account(&server, "Alice").await;
    let mut bob = account(&server, "Bob").await;
    let gomoku = json!({"kind":"gomoku","size":15});

    // Who may make and sit in a rated room.
    let mut guest = server.client("Guest").await;
    let e = guest
        .refused(json!({"t":"create","game":gomoku,"seat":"black","rated":true}))
        .await;
    assert_eq!(e["code"], "account_needed", "{e}");
    let e = alice
        .refused(
            json!({"t":"create","game":{"kind":"gomoku","size":19},"seat":"black","rated":true}),
        )
        .await;
    assert_eq!(e["code"], "bad_game", "{e}");
    let (room, state) = alice
        .create(json!({"t":"create","game":gomoku,"seat":"black","rated":true}))
        .await;
    assert_eq!(state["rated"], true);
    let e = guest
        .refused(json!({"t":"join","room":room,"as":"player"}))
        .await;
    assert_eq!(e["code"], "account_needed", "{e}");
    bob.join(&room, "player").await;
    alice
        .expect_where(|m| m["t"] == "state" && m["status"] == "playing")
        .await;

    play_and_resign(&mut alice, &mut bob, &room, false).await;
    let start = Side {
        rating: Rating::start(false),
        bot: false,
    };
    let (won, lost) = rate_game(start, start, 1.0);
    for client in [&mut alice, &mut bob] {
        client.expect("over").await;
        let rated = client.expect("rated").await;
        assert_eq!(rated["room"], room);
        let changes: Vec<_> = rated["changes"]
            .as_array()
            .expect("changes")
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["before"].as_i64(),
                    c["after"].as_i64(),
                    c["provisional"].as_bool(),
                )
            })
            .collect();
        assert_eq!(
            changes,
            [
                (
                    "Alice".to_string(),
                    Some(1500),
                    Some(won.rating.round() as i64),
                    Some(true)
                ),
                (
                    "Bob".to_string(),
                    Some(1500),
                    Some(lost.rating.round() as i64),
                    Some(true)
                ),
            ]
        );
    }
    // A spectator arriving later sees it in the room's state; the export has it.
    let mut late = server.client("Late").await;
    let state = late.join(&room, "spectator").await;
    assert_eq!(
        state["rating"]["changes"][0]["after"],
        won.rating.round() as i64
    );
    let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    let game: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        (&game["rated"], &game["rating"]["changes"][1]["name"]),
        (&json!(true), &json!("Bob"))
    );

    let (status, body) = http_get(server.addr, "/api/leaderboard/gomoku-freestyle").await;
    assert_eq!(status, 200);
    let board: Value = serde_json::from_str(&body).expect("JSON");
    let names: Vec<_> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Alice", "Bob"]);
    assert_eq!(board["players"][0]["provisional"], true);
    let (status, _) = http_get(server.addr, "/api/leaderboard/chess").await;
    assert_eq!(status, 404);

    let (status, body) = http_get(server.addr, "/api/players/bob").await;
    assert_eq!(status, 200);
    let page: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(page["name"], "Bob");
    assert_eq!(page["ratings"][0]["key"], "gomoku-freestyle");
    assert_eq!(page["ratings"][0]["rating"], lost.rating.round() as i64);
    assert_eq!(page["history"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        (&page["games"][0]["room"], &page["games"][0]["rated"]),
        (&json!(room), &json!(true))
    );
    let (status, _) = http_get(server.addr, "/api/players/nobody").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_bot_is_an_account_its_games_are_damped_and_not_farmed() {
    let server = TestServer::start().await;
    let mut bot = Client::connect(&server.url()).await;
    let w = bot.hello_bot("Kibot", &["gomoku"], 10).await;
    assert_eq!(w["account"], true);
    let mut alice = account(&server, "Alice").await;
    let gomoku = json!({"kind":"gomoku","size":15});
    let mut rating = 1500;
    for game in 0..4 {
        if game == 0 {
            // At a lesser level than its full strength a bot's games are not rated.
            let e = alice
                .refused(
                    json!({"t":"create","game":gomoku,"seat":"black","rated":true,
                                "bots":{"white":3}}),
                )
                .await;
            assert_eq!(e["code"], "bad_request", "{e}");
            assert!(e["message"].as_str().unwrap().contains("level 10"), "{e}");
        }
        let (room, _) = alice
            .create(
                json!({"t":"create","game":gomoku,"seat":"black","rated":true,
                           "bots":{"white":10}}),
            )
            .await;
        let invite = bot.expect("invite").await;
        assert_eq!(
            (&invite["room"], &invite["level"]),
            (&json!(room), &json!(10))
        );
        bot.join(&room, "player").await;
        alice
            .expect_where(|m| m["t"] == "state" && m["status"] == "playing")
            .await;
        play_and_resign(&mut alice, &mut bot, &room, true).await;
        alice.expect("over").await;
        let rated = alice.expect("rated").await;
        if game < 3 {
            let mine = &rated["changes"][0];
            assert_eq!(mine["before"], rating);
            rating = mine["after"].as_i64().unwrap();
            if game == 0 {
                let (full, _) = rate_game(
                    Side {
                        rating: Rating::start(false),
                        bot: false,
                    },
                    Side {
                        rating: Rating::start(true),
                        bot: false,
                    },
                    0.0,
                );
                let half = 1500.0 + (full.rating - 1500.0) / 2.0;
                assert_eq!(rating, half.round() as i64);
                assert_eq!(rated["changes"][1]["before"], 1800);
            }
        } else {
            assert_eq!(rated["unrated"], "repeat", "{rated}");
            assert_eq!(rated["changes"], json!([]));
        }
    }
    let (_, body) = http_get(server.addr, "/api/leaderboard/gomoku-freestyle?bots=true").await;
    let board: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(board["players"][0]["name"], "Kibot");
    assert_eq!(board["players"][0]["games"], 3);
    let (_, body) = http_get(server.addr, "/api/players/alice").await;
    let page: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(page["ratings"][0]["rating"], rating);
    assert_eq!(page["history"].as_array().map(Vec::len), Some(3));
}
