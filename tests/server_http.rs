//! The HTTP side of the port: `/healthz`, `/metrics` with every series the operators rely on,
//! finished games as JSON, SGF and PSQ, the opening explorer (filled at start with games stored
//! before it), the web client at `/` (compressed, named by version, kept by browsers), and a
//! clear error when the data directory cannot be used.

mod common;

use common::*;
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
