//! What the tournament tests share: accounts and bots, the tournament API, bots that play
//! their games unattended, and readings of a tournament's games and points.

use super::*;

/// How long a whole tournament may take to reach a state (each round takes about a second).
pub(crate) const TOURNAMENT_WAIT: Duration = Duration::from_secs(60);

pub(crate) fn connect4() -> Value {
    json!({"kind":"connect4","cols":7,"rows":6})
}

pub(crate) fn clock() -> Value {
    json!({"initial_ms":60_000,"increment_ms":0})
}

/// A bot (the test's own client) that says hello again with its token after a restart.
pub(crate) async fn bot_again(server: &TestServer, name: &str, token: &str) -> Client {
    let mut bot = Client::connect(&server.url()).await;
    bot.send(json!({"t":"hello","name":name,"token":token,
        "bot":{"key":BOT_KEY,"games":["connect4"],"capacity":4}}))
        .await;
    let w = bot.expect("welcome").await;
    assert_eq!(
        (w["account"].as_bool(), w["token"].as_str()),
        (Some(true), Some(token))
    );
    bot.player = w["player"].as_str().unwrap_or_default().to_string();
    bot.token = token.to_string();
    bot
}

pub(crate) async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    http_json(server.addr, "POST", path, body).await
}

pub(crate) async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let (status, body) = http_get(server.addr, path).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Makes a tournament (expecting 201) and returns its id.
pub(crate) async fn make(server: &TestServer, body: Value) -> String {
    let (status, made) = post(server, "/api/tournaments", body).await;
    assert_eq!(status, 201, "{made}");
    made["id"].as_str().expect("an id").to_string()
}

/// Polls the tournament until `ok` holds; panics with the last document after a while.
pub(crate) async fn tournament_until(
    server: &TestServer,
    id: &str,
    what: &str,
    ok: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + TOURNAMENT_WAIT;
    loop {
        let (status, t) = get(server, &format!("/api/tournaments/{id}")).await;
        assert_eq!(status, 200, "{t}");
        if ok(&t) {
            return t;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {t:#}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How an automatic player ends its games.
#[derive(Clone, Copy)]
pub(crate) enum Manner {
    /// Black drops a stone in the middle column, white resigns on its turn: black wins.
    BlackWins,
    /// The player whose name sorts first wins (the other resigns at once), but Ann draws
    /// every game (both offer it at once: the second offer accepts the first).
    ByName,
}

/// Plays `client`'s games in `manner` until its connection ends: a bot joins the rooms it is
/// invited to (as long as `invites` allows; each takes one), a person the rooms it is seated
/// in (the server joins it).
pub(crate) fn autoplay(
    mut client: Client,
    name: &str,
    manner: Manner,
    invites: Arc<AtomicUsize>,
) -> tokio::task::JoinHandle<()> {
    let name = name.to_string();
    tokio::spawn(async move {
        let mut acted: HashSet<String> = HashSet::new();
        let mut colours: HashMap<String, String> = HashMap::new();
        while let Some(Ok(frame)) = client.ws.next().await {
            let Message::Text(text) = frame else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let room = v["room"].as_str().unwrap_or_default().to_string();
            match v["t"].as_str() {
                Some("invite") => {
                    let allowed = invites
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                        .is_ok();
                    if allowed {
                        client
                            .send(json!({"t":"join","room":room,"as":"player"}))
                            .await;
                    }
                }
                Some("state") if v["status"] == "playing" => {
                    let Some(you) = v["you"].as_str() else {
                        continue;
                    };
                    colours.insert(room.clone(), you.to_string());
                    let other = if you == "black" { "white" } else { "black" };
                    let opponent = v["seats"][other]["name"].as_str().unwrap_or_default();
                    match manner {
                        Manner::ByName => {
                            if !acted.insert(room.clone()) {
                                continue;
                            }
                            if name == "Ann" || opponent == "Ann" {
                                client.send(json!({"t":"draw","room":room})).await;
                            } else if name.as_str() > opponent {
                                client.send(json!({"t":"resign","room":room})).await;
                            }
                        }
                        Manner::BlackWins => {
                            let ply = v["moves"].as_array().map_or(0, Vec::len);
                            if v["to_move"] == you {
                                black_wins(&mut client, &room, you, ply, &mut acted).await;
                            }
                        }
                    }
                }
                Some("moved") => {
                    let Some(you) = colours.get(&room).cloned() else {
                        continue;
                    };
                    if matches!(manner, Manner::BlackWins) && v["to_move"] == you.as_str() {
                        let ply = v["ply"].as_u64().unwrap_or(0) as usize;
                        black_wins(&mut client, &room, &you, ply, &mut acted).await;
                    }
                }
                _ => {}
            }
        }
    })
}

/// Black's first move, or white's resignation, once per room and ply.
pub(crate) async fn black_wins(
    client: &mut Client,
    room: &str,
    you: &str,
    ply: usize,
    acted: &mut HashSet<String>,
) {
    if !acted.insert(format!("{room}/{ply}")) {
        return;
    }
    if you == "white" {
        client.send(json!({"t":"resign","room":room})).await;
    } else {
        client
            .send(json!({"t":"move","room":room,"move":"4"}))
            .await;
    }
}

pub(crate) fn unlimited() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(usize::MAX))
}

/// Every game of the document: (round, black id, white id, result, room).
pub(crate) fn games_of(t: &Value) -> Vec<(usize, String, String, Value, Value)> {
    let mut out = Vec::new();
    for round in t["pairings"].as_array().expect("pairings") {
        for g in round["games"].as_array().expect("games") {
            out.push((
                round["round"].as_u64().unwrap_or(0) as usize,
                g["black_player"].as_str().unwrap_or_default().to_string(),
                g["white_player"].as_str().unwrap_or_default().to_string(),
                g["result"].clone(),
                g["room"].clone(),
            ));
        }
    }
    out
}

/// Each player's points from the games and byes of the document, by id.
pub(crate) fn points_by_player(t: &Value) -> HashMap<String, f64> {
    let mut points: HashMap<String, f64> = HashMap::new();
    for round in t["pairings"].as_array().expect("pairings") {
        for g in round["games"].as_array().expect("games") {
            for side in ["black", "white"] {
                let player = g[format!("{side}_player")].as_str().unwrap_or_default();
                let p = g[format!("{side}_points")]
                    .as_f64()
                    .expect("a finished game");
                *points.entry(player.to_string()).or_default() += p;
            }
        }
        if let Some(bye) = round["bye_player"].as_str() {
            *points.entry(bye.to_string()).or_default() += 1.0;
        }
    }
    points
}

/// Checks that every game of `t` is stored as a finished room with the tournament's seats.
pub(crate) async fn rooms_stored_as_paired(server: &TestServer, t: &Value, rated: bool) {
    for (round, black, white, _, room) in games_of(t) {
        let room = room.as_str().expect("a room id");
        let (status, stored) = get(server, &format!("/api/games/{room}")).await;
        assert_eq!(status, 200, "round {round}: {stored}");
        assert_eq!(stored["status"], "over", "{stored}");
        assert_eq!(stored["black"]["player"], black.as_str(), "{stored}");
        assert_eq!(stored["white"]["player"], white.as_str(), "{stored}");
        assert_eq!(stored["private"], false, "tournament games are public");
        assert_eq!(stored["rated"], rated, "{stored}");
    }
}
