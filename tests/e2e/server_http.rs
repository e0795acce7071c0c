//! The HTTP side of the port: `/healthz`, `/metrics` with every series the operators rely on
//! (behind a bearer token when the operator sets one), finished games as JSON, SGF and PSQ, the
//! opening explorer (filled at start with games stored before it), the web client at `/`
//! (compressed, named by version, kept by browsers), and a clear error when the data directory
//! cannot be used.

use crate::support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn health_web_client_and_metrics() {
    let server = TestServer::start().await;
    let (status, body) = http_get(server.addr, "/healthz").await;
    assert_eq!((status, body.trim()), (200, "ok"));
    let (status, body) = http_get(server.addr, "/").await;
    assert_eq!(status, 200);
    assert!(
        body.contains("<html") || body.contains("<!doctype"),
        "{body}"
    );

    let (mut a, mut b, room) =
        seated_pair(&server, json!({"kind":"gomoku","size":15}), json!(null)).await;
    a.play(&room, "h8").await;
    let e = b.refused(json!({"t":"move","room":room,"move":"h8"})).await;
    assert_eq!(e["code"], "illegal_move");
    b.play(&room, "a1").await;

    let m = server.metrics().await;
    for series in [
        "kibitz_connections 2",
        r#"kibitz_rooms{status="playing"} 1"#,
        "kibitz_moves_total 2",
        "kibitz_messages_in_total",
        "kibitz_messages_out_total",
        r#"kibitz_errors_total{code="illegal_move"} 1"#,
        "kibitz_move_latency_seconds_bucket",
        "kibitz_move_latency_seconds_count 2",
        "kibitz_store_write_seconds_bucket",
        "kibitz_store_batch_writes_bucket",
    ] {
        assert!(m.contains(series), "{series} missing in:\n{m}");
    }
    b.send(json!({"t":"resign","room":room})).await;
    a.expect("over").await;
    let m = server.metrics().await;
    assert!(m.contains(r#"kibitz_rooms{status="over"} 1"#), "{m}");
    assert!(m.contains(r#"kibitz_rooms{status="playing"} 0"#), "{m}");
}

/// With a metrics token (`kibitz serve --metrics-token`), `/metrics` answers 401 and the scheme
/// to a request without it or with another, and the metrics to one that shows it; the rest of
/// the port is as it was.
#[tokio::test]
async fn the_metrics_ask_for_the_token_the_operator_set() {
    let data = tempfile::tempdir().unwrap();
    let server =
        crate::support::serve::ServeProcess::start(data.path(), &["--metrics-token", "scrape-me"])
            .await;
    let asked = |headers: Vec<(&'static str, &'static str)>| async move {
        http_request(server.addr, "GET", "/metrics", &headers, None).await
    };
    for shown in [
        vec![],
        vec![("Authorization", "Bearer scrape-mf")],
        vec![("Authorization", "Bearer scrape-me-too")],
        vec![("Authorization", "Basic c2NyYXBlLW1l")],
    ] {
        let (status, head, body) = asked(shown.clone()).await;
        assert_eq!(status, 401, "{shown:?}: {head}{body}");
        assert_eq!(
            header(&head, "www-authenticate"),
            Some(r#"bearer realm="metrics""#)
        );
        assert!(!body.contains("kibitz_"), "{body}");
    }
    for shown in ["Bearer scrape-me", "bearer  scrape-me"] {
        let (status, _, body) = asked(vec![("Authorization", shown)]).await;
        assert_eq!(status, 200, "{shown}");
        assert!(body.contains("kibitz_connections 0"), "{body}");
    }
    let (status, body) = http_get(server.addr, "/healthz").await;
    assert_eq!((status, body.trim()), (200, "ok"));
}

/// A header of a response head (lower case, as `http_request` gives it).
fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .map(str::trim)
}

#[tokio::test]
async fn the_web_client_is_compressed_named_by_version_and_kept() {
    let server = TestServer::start().await;
    let get = |path: String, headers: Vec<(&'static str, String)>| {
        let addr = server.addr;
        async move {
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            http_request(addr, "GET", &path, &headers, None).await
        }
    };
    // The page: asked for again each time, its scripts named by version through an import map.
    let (status, head, page) = get("/".into(), vec![]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&head, "cache-control"), Some("no-cache"), "{head}");
    assert_eq!(
        header(&head, "content-encoding"),
        None,
        "not asked for: {head}"
    );
    // The head comes lower-cased: the weak mark is `W/` on the wire.
    let etag = header(&head, "etag").expect("an etag").replace("w/", "W/");
    assert!(page.contains("<script type=\"importmap\">"), "{page}");
    let main = page
        .split('"')
        .find(|s| s.starts_with("js/main.js?v="))
        .expect("the first script by version")
        .to_string();
    let (status, head, body) = get("/".into(), vec![("If-None-Match", etag.clone())]).await;
    assert_eq!((status, body.as_str()), (304, ""), "{head}");

    // A script by its version: kept for good, brotli when accepted, else gzip.
    let (_, head, raw) = get(format!("/{main}"), vec![]).await;
    assert!(
        header(&head, "cache-control")
            .unwrap()
            .contains("immutable"),
        "{head}"
    );
    let raw_len = raw.len();
    let all = ("Accept-Encoding", "gzip, deflate, br".to_string());
    for (accept, coding) in [
        (all.1.clone(), Some("br")),
        ("gzip".to_string(), Some("gzip")),
        ("br;q=0, gzip".to_string(), Some("gzip")),
        ("identity".to_string(), None),
    ] {
        let (status, head, _) = get(
            format!("/{main}"),
            vec![("Accept-Encoding", accept.clone())],
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(
            header(&head, "content-encoding"),
            coding,
            "{accept}: {head}"
        );
        assert_eq!(header(&head, "vary"), Some("accept-encoding"), "{head}");
        let length: usize = header(&head, "content-length").unwrap().parse().unwrap();
        if coding.is_some() {
            assert!(length < raw_len / 2, "{accept}: {length} of {raw_len}");
        }
    }
    // Not by its version (an old page's link, or none): asked for again, `304` when unchanged.
    for path in ["/js/main.js", "/js/main.js?v=0000000000000000"] {
        let (status, head, _) = get(path.into(), vec![all.clone()]).await;
        assert_eq!(status, 200);
        assert_eq!(
            header(&head, "cache-control"),
            Some("no-cache"),
            "{path}: {head}"
        );
        let tag = header(&head, "etag").unwrap().replace("w/", "W/");
        let (status, _, _) = get(path.into(), vec![("If-None-Match", tag)]).await;
        assert_eq!(status, 304, "{path}");
    }
    let (status, _, _) = get("/js/nothing.js".into(), vec![]).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn finished_games_as_json_sgf_and_psq() {
    let server = TestServer::start().await;
    let (mut a, mut b, room) =
        seated_pair(&server, json!({"kind":"gomoku","size":15}), json!(null)).await;
    for (i, m) in ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
        .iter()
        .enumerate()
    {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        mover.play(&room, m).await;
    }
    a.expect("over").await;
    a.send(json!({"t":"chat","room":room,"text":"gg"})).await;
    b.expect("chat").await;

    let (status, body) = http_get(server.addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["id"], room.as_str());
    assert_eq!(v["status"], "over");
    assert_eq!(v["result"]["result"], "black");
    assert_eq!(v["black"]["name"], "Alice");
    assert_eq!(v["white"]["name"], "Bob");
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mv"].as_str().unwrap())
        .collect();
    assert_eq!(
        moves,
        ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"]
    );
    assert_eq!(v["chat"][0]["text"], "gg");
    assert!(v["move_string"].as_str().is_some_and(|s| !s.is_empty()));

    let (status, sgf) = http_get(server.addr, &format!("/api/games/{room}/sgf")).await;
    assert_eq!(status, 200);
    assert!(
        sgf.starts_with("(;") && sgf.contains("GM[4]") && sgf.contains("SZ[15]"),
        "{sgf}"
    );
    let (status, psq) = http_get(server.addr, &format!("/api/games/{room}/psq")).await;
    assert_eq!(status, 200);
    assert!(psq.lines().count() >= 10, "{psq}");

    let (status, _) = http_get(server.addr, "/api/games/nosuchroom").await;
    assert_eq!(status, 404);
    let (status, _) = http_get(server.addr, "/api/games/nosuchroom/sgf").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_unusable_data_directory_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a directory").unwrap();
    for path in [
        file.join("data"),
        file.clone(),
        dir.path().join("missing/parent/data"),
    ] {
        let config = kibitz_server::Config::new(&path);
        let Err(e) = kibitz_server::Server::open(config).await else {
            panic!("{} should not open", path.display());
        };
        let text = e.to_string();
        assert!(text.contains(&path.display().to_string()), "{text}");
    }
    // A missing directory whose parent exists is created.
    let config = kibitz_server::Config::new(dir.path().join("fresh"));
    assert!(kibitz_server::Server::open(config).await.is_ok());
}

/// The opening explorer over HTTP: two finished Connect Four games are in it, by position;
/// a look-up filters by rated games; an unknown variant, an illegal move and a bad filter are
/// clear errors.
#[tokio::test]
async fn the_explorer_lists_the_moves_of_finished_games() {
    let server = TestServer::start().await;
    let (mut a, mut b) = (server.client("Ann").await, server.client("Ben").await);
    quick_game(&mut a, &mut b).await;
    quick_game(&mut a, &mut b).await;
    let get = |path: String| {
        let addr = server.addr;
        async move {
            let (status, body) = http_get(addr, &path).await;
            (status, serde_json::from_str::<Value>(&body).expect("JSON"))
        }
    };
    let (status, after) = get("/api/explorer/connect4?moves=1,2".to_string()).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"], json!(["1", "2"]));
    assert_eq!(after["to_move"], "black");
    assert_eq!(
        after["next"],
        json!([{"move":"1","games":2,"black":2,"draws":0,"white":0,"rating":null}])
    );
    let (_, start) = get("/api/explorer/connect4".to_string()).await;
    assert_eq!(
        (&start["games"], &start["next"][0]["move"]),
        (&json!(2), &json!("1"))
    );
    let (_, rated) = get("/api/explorer/connect4?rated=yes".to_string()).await;
    assert_eq!(rated["next"], json!([]), "neither game was rated");

    let (status, body) = get("/api/explorer/chess".to_string()).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = get("/api/explorer/connect4?moves=1,9".to_string()).await;
    assert_eq!(status, 400);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("move 2 (\"9\")"),
        "{body}"
    );
    let (status, body) = get("/api/explorer/othello?bots=maybe".to_string()).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("bots is yes, no or any, not \"maybe\""))
    );
}

/// Games that ended before the explorer's index existed (a store of an earlier version: here
/// its index emptied behind the server's back) are indexed once the server starts again.
#[tokio::test]
async fn games_stored_before_the_explorer_are_indexed_at_start() {
    let server = TestServer::start().await;
    let (mut a, mut b) = (server.client("Ann").await, server.client("Ben").await);
    quick_game(&mut a, &mut b).await;
    drop((a, b));
    let data = server.stop().await;
    let db = rusqlite::Connection::open(data.path().join("kibitz.db")).expect("kibitz.db");
    db.execute_batch("DELETE FROM explorer; DELETE FROM explorer_games;")
        .expect("the index emptied");
    drop(db);

    let server = TestServer::start_in(data, |_| {}).await;
    let indexed = async {
        loop {
            let (_, body) = http_get(server.addr, "/api/explorer/connect4").await;
            let answer: Value = serde_json::from_str(&body).expect("JSON");
            if answer["games"] == 1 {
                return answer;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    };
    let answer = within("the ended game to be indexed", indexed).await;
    assert_eq!(answer["next"][0]["move"], "1", "{answer}");
}

/// A Connect Four puzzle whose first move has a second solution, its first move not the main
/// line's, and a legal first move the puzzle refuses.
fn puzzle_with_alternative() -> (game_core::puzzle::Puzzle, String, String) {
    let set = kibitz_server::puzzles::PuzzleSet::shipped();
    for p in set.of_variant("connect4", None) {
        let alternative = p.proof.0.keys().find(|m| **m != p.line[0]);
        let pos = game_core::AnyPosition::with_moves(&p.game, &p.moves).unwrap();
        let wrong = pos
            .legal_moves()
            .into_iter()
            .find(|m| !p.proof.0.contains_key(m));
        if let (Some(alt), Some(wrong)) = (alternative, wrong) {
            return ((**p).clone(), alt.clone(), wrong);
        }
    }
    panic!("no shipped Connect Four puzzle has a second first move");
}

#[tokio::test]
async fn puzzles_are_checked_against_their_proofs_and_rated() {
    let server = TestServer::start().await;
    let addr = server.addr;
    let get = |path: String| async move {
        let (status, body) = http_get(addr, &path).await;
        (status, serde_json::from_str::<Value>(&body).expect("JSON"))
    };
    let (_, summary) = get("/api/puzzles".into()).await;
    for v in ["gomoku-freestyle", "gomoku-renju", "othello", "connect4"] {
        assert!(
            summary["variants"][v]["count"].as_u64().unwrap() >= 300,
            "{summary}"
        );
    }
    let (p, alternative, wrong) = puzzle_with_alternative();
    let (status, shown) = get(format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(status, 200, "{shown}");
    assert_eq!(shown["moves"], json!(p.moves));
    assert!(
        shown.get("line").is_none() && shown.get("proof").is_none(),
        "{shown}"
    );
    assert_eq!(shown["alternatives"], true);
    let play = |line: Vec<String>| {
        let id = p.id.clone();
        async move {
            http_json(
                addr,
                "POST",
                &format!("/api/puzzles/{id}/move"),
                json!({ "line": line }),
            )
            .await
        }
    };
    let (status, refused) = play(vec![wrong.clone()]).await;
    assert_eq!(
        (status, &refused["correct"]),
        (200, &json!(false)),
        "{refused}"
    );
    assert!(
        refused["message"].as_str().unwrap().starts_with(&wrong),
        "{refused}"
    );
    let (_, accepted) = play(vec![alternative.clone()]).await;
    assert_eq!(accepted["correct"], true, "{accepted}");
    // The main line, move by move: each reply is the proof's, the last move solves it.
    for k in (0..p.line.len()).step_by(2) {
        let (_, answer) = play(p.line[..=k].to_vec()).await;
        assert_eq!(answer["correct"], true);
        assert_eq!(answer["reply"], json!(p.line.get(k + 1)), "{answer}");
        assert_eq!(answer["solved"], k + 1 == p.line.len());
    }
    let (status, illegal) = play(vec!["9".into()]).await;
    assert_eq!(status, 400, "{illegal}");
    let (_, hint) = get(format!("/api/puzzles/{}/hint?level=1", p.id)).await;
    assert!(
        hint["area"].as_array().unwrap().contains(&json!(p.line[0])),
        "{hint}"
    );
    let (_, hint) = get(format!("/api/puzzles/{}/hint?level=2", p.id)).await;
    assert_eq!(hint["move"], json!(p.line[0]));
    let (_, solution) = get(format!("/api/puzzles/{}/solution", p.id)).await;
    assert_eq!(solution["line"], json!(p.line));

    // A guest's rating comes back moved; nothing is stored for him.
    let result = format!("/api/puzzles/{}/result", p.id);
    let guest = json!({"rating": 1500.0, "rd": 350.0, "volatility": 0.06});
    let (status, r) = http_json(
        addr,
        "POST",
        &result,
        json!({"line": p.line, "solved": true, "guest": guest}),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    assert!(r["player"]["change"].as_f64().unwrap() > 0.0, "{r}");
    let (status, _) = http_json(
        addr,
        "POST",
        &result,
        json!({"line": [p.line[0].clone()], "solved": true, "guest": guest}),
    )
    .await;
    assert_eq!(status, 400, "an unfinished line is no solution");

    // An account's first attempt is stored and rated; a second is not.
    let me = account(&server, "Solver").await;
    let bearer = format!("Bearer {}", me.token);
    let post = |body: Value| {
        let (result, bearer) = (result.clone(), bearer.clone());
        async move {
            let text = body.to_string();
            let headers = [
                ("Content-Type", "application/json"),
                ("Authorization", bearer.as_str()),
            ];
            let (status, _, answer) =
                http_request(addr, "POST", &result, &headers, Some(&text)).await;
            (status, serde_json::from_str::<Value>(&answer).unwrap())
        }
    };
    let (_, first) = post(json!({"line": [wrong], "solved": false})).await;
    assert_eq!(first["rated"], true, "{first}");
    assert!(first["player"]["change"].as_f64().unwrap() < 0.0, "{first}");
    let (_, again) = post(json!({"line": p.line, "solved": true})).await;
    assert_eq!(
        (&again["rated"], &again["player"]["change"]),
        (&json!(false), &json!(0.0)),
        "{again}"
    );
    let (status, _, mine) = http_request(
        addr,
        "GET",
        "/api/puzzles/me",
        &[("Authorization", bearer.as_str())],
        None,
    )
    .await;
    let mine: Value = serde_json::from_str(&mine).unwrap();
    assert_eq!(status, 200, "{mine}");
    assert_eq!(
        mine["ratings"]["connect4"]["rating"],
        first["player"]["rating"]
    );
    assert_eq!(mine["ratings"]["connect4"]["plays"], 1);
    let (_, shown) = get(format!("/api/puzzles/{}", p.id)).await;
    assert_eq!(
        shown["plays"], 1,
        "the puzzle's rating moved with the account's attempt"
    );
    let next = format!(
        "/api/puzzles/next?variant=connect4&rating={}",
        shown["rating"]
    );
    let (_, _, n) = http_request(
        addr,
        "GET",
        &next,
        &[("Authorization", bearer.as_str())],
        None,
    )
    .await;
    let n: Value = serde_json::from_str(&n).unwrap();
    assert_ne!(
        n["id"],
        json!(p.id),
        "an account is given puzzles it has not tried"
    );

    let (status, daily) = get("/api/puzzles/daily".into()).await;
    assert_eq!(status, 200);
    assert!(daily["date"].as_str().unwrap().starts_with("20"), "{daily}");
    let (status, _) = get("/api/puzzles/nothing-0001".into()).await;
    assert_eq!(status, 404);
    let (status, _, _) = http_request(
        addr,
        "POST",
        &result,
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://elsewhere.example"),
        ],
        Some(r#"{"line":[],"solved":false}"#),
    )
    .await;
    assert_eq!(status, 403, "another site's page may not post results");
}
