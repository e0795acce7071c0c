//! `kibitz store copy` between real stores: a hall written through the store's interface
//! (accounts, tokens, rated games with moves and chat, ratings and their history, a review,
//! tournaments) copied from SQLite to a real PostgreSQL database in small batches, stopped
//! part way and run again (it goes on), read back through the PostgreSQL store, and copied
//! back to SQLite; a target holding a hall is refused unless replaced.

use std::path::Path;

use game_core::protocol::Review;
use game_core::review::ReviewPly;
use kibitz_server::store::copy::{self, CopyOptions, CopyReport, Event};

use super::*;

/// Six accounts (names in several scripts), each with a sign-in token, and eight rated games
/// between them with moves and chat, ended; a review of the first; two tournaments.
async fn a_hall(store: &Store) {
    let names = ["Alice", "Bob", "Zoë", "名人", "Ola", "Kibot"];
    for (i, name) in names.iter().enumerate() {
        let id = format!("p{i}");
        write(
            store,
            Write::Player(person(&id, name, &format!("hash-{i}"))),
        )
        .await;
        write(
            store,
            Write::NewAccount(account(&id, name, *name == "Kibot")),
        )
        .await;
        write(
            store,
            Write::Token {
                token_hash: format!("extra-{i}"),
                player: id.clone(),
            },
        )
        .await;
    }
    for g in 0..8usize {
        let (b, w) = (g % 6, (g + 1) % 6);
        let room = format!("game-{g}");
        let new = rated_room(
            &room,
            (&format!("p{b}"), names[b], names[b] == "Kibot"),
            (&format!("p{w}"), names[w], names[w] == "Kibot"),
        );
        write(store, Write::NewRoom(Box::new(new))).await;
        let mut moves = change(&room, 3);
        moves.moves = (0..g + 3)
            .map(|p| {
                let by = if p % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                mv(
                    p,
                    &format!("{}{}", (b'a' + p as u8) as char, g + 1),
                    by,
                    p as u64 + 1,
                )
            })
            .collect();
        moves.chat = Some(line(
            &format!("good luck, game {g} — 祝你好运"),
            Some(Color::Black),
        ));
        write(store, Write::Room(moves)).await;
        end(
            store,
            &room,
            Some(if g % 2 == 0 {
                ResultKind::Black
            } else {
                ResultKind::White
            }),
        )
        .await;
    }
    let review = Review {
        from: 0,
        plies: vec![ReviewPly {
            eval: 12,
            proven: false,
            win_in: None,
            best: "h8".into(),
            pv: vec!["h8".into(), "h9".into()],
            played: "a1".into(),
            mark: None,
        }],
        by: "Kibot".into(),
        made_ms: 1_700_000_000_500,
    };
    write(
        store,
        Write::Review {
            room: "game-0".into(),
            review: Box::new(review),
        },
    )
    .await;
    write(
        store,
        Write::Tournament(tournament(
            "t1",
            "over",
            1_700_000_000_000,
            r#"{"name":"Autumn"}"#,
        )),
    )
    .await;
    write(
        store,
        Write::Tournament(tournament(
            "t2",
            "open",
            1_700_000_000_100,
            r#"{"name":"Winter"}"#,
        )),
    )
    .await;
    // A rated puzzle attempt: the attempt, the player's and the puzzle's ratings.
    write(
        store,
        Write::PuzzleAttempt(kibitz_server::store::PuzzleAttempt {
            player: "player-1".into(),
            puzzle: "connect4-0001".into(),
            variant: "connect4".into(),
            solved: true,
            at_ms: 1_700_000_000_900,
            player_after: kibitz_server::store::StoredGlicko {
                rating: 1612.5,
                rd: 290.25,
                volatility: 0.06,
                plays: 1,
            },
            puzzle_after: kibitz_server::store::StoredGlicko {
                rating: 1587.5,
                rd: 240.0,
                volatility: 0.06,
                plays: 1,
            },
        }),
    )
    .await;
    // A puzzle made from one of the hall's games.
    let set = kibitz_server::puzzles::PuzzleSet::shipped();
    let mut hall = (**set.of_variant("othello", None)[0]).clone();
    hall.id = "othello-h00000000abcd".into();
    hall.source = Some(game_core::puzzle::PuzzleSource {
        room: "game-7".into(),
        ply: 40,
    });
    write(store, Write::HallPuzzle(Box::new(hall))).await;
    write(
        store,
        Write::Block {
            player: "player-1".into(),
            blocked: "player-2".into(),
            at_ms: 1_700_000_001_000,
        },
    )
    .await;
    write(
        store,
        Write::GrantModerator {
            player: "player-1".into(),
            at_ms: 1_700_000_001_100,
        },
    )
    .await;
    let report = kibitz_server::store::StoredReport {
        id: "report-1".into(),
        at_ms: 1_700_000_001_200,
        reporter: "player-1".into(),
        kind: "chat".into(),
        player: "player-2".into(),
        room: "game-7".into(),
        reason: "abuse".into(),
        note: "名人 said it".into(),
        context: r#"{"chat":[{"text":"a line"}]}"#.into(),
        status: "open".into(),
    };
    write(store, Write::Report(Box::new(report))).await;
    let mute = kibitz_server::store::StoredAction {
        id: "action-1".into(),
        at_ms: 1_700_000_001_300,
        moderator: "player-1".into(),
        action: "mute".into(),
        player: "player-2".into(),
        room: String::new(),
        reason: "spam".into(),
        detail: String::new(),
        until_ms: Some(4_000_000_000_000),
        report: String::new(),
    };
    write(store, Write::Moderate(Box::new(mute.clone()))).await;
    let hide = kibitz_server::store::StoredAction {
        id: "action-2".into(),
        action: "hide_chat".into(),
        room: "game-7".into(),
        detail: "a line never said".into(),
        until_ms: None,
        ..mute
    };
    write(store, Write::Moderate(Box::new(hide))).await;
    let follow = Write::Follow {
        player: "player-1".into(),
        followed: "player-2".into(),
        at_ms: 1_700_000_001_400,
    };
    write(store, follow).await;
}

fn rows_of(report: &CopyReport) -> u64 {
    report.tables.iter().map(|t| t.target.rows).sum()
}

async fn copy_all(from: &str, to: &str, replace: bool) -> Result<CopyReport, StoreError> {
    let options = CopyOptions {
        batch_rows: 4,
        replace,
    };
    copy::copy(from, to, &options, &mut |_| {}).await
}

/// What a player sees of the hall, read through `store`: to compare two stores.
async fn what_players_see(store: &Store) -> Vec<String> {
    let mut seen = Vec::new();
    for name in ["alice", "zoë", "名人"] {
        let account = store
            .account_by_name(name)
            .await
            .unwrap()
            .expect("the account");
        let page = store
            .player_page(name, 20)
            .await
            .unwrap()
            .expect("the player's page");
        seen.push(format!(
            "{} {:?} ratings {:?} history {} games {}",
            account.name,
            account.password_hash,
            page.ratings
                .iter()
                .map(|r| (r.key.clone(), r.rating.round()))
                .collect::<Vec<_>>(),
            page.history.len(),
            page.games.len()
        ));
    }
    let token = store
        .player_by_token("extra-0")
        .await
        .unwrap()
        .map(|p| p.name);
    seen.push(format!("{token:?}"));
    seen.push(format!(
        "{:?} {:?} {:?}",
        store.puzzle_player("player-1").await.unwrap(),
        store.puzzles_tried("player-1", "connect4").await.unwrap(),
        store.puzzle_ratings("connect4").await.unwrap()
    ));
    seen.push(format!("{:?}", store.hall_puzzles_since(0).await.unwrap()));
    seen.push(format!("{:?}", store.blocks_of("player-1").await.unwrap()));
    seen.push(format!(
        "{:?} {:?}",
        store.is_moderator("player-1").await.unwrap(),
        store.reports("open", 10).await.unwrap()
    ));
    seen.push(format!("{:?}", store.follows_of("player-1").await.unwrap()));
    seen.push(format!(
        "{:?} {:?}",
        store.sanctions(0).await.unwrap(),
        store.moderation_log(10).await.unwrap()
    ));
    let room = read(store, "game-7").await;
    seen.push(format!(
        "{:?} {:?} {}",
        room.status,
        room.result.map(|r| r.result),
        room.moves.len()
    ));
    let chat = store.read_chat("game-7").await.unwrap();
    seen.push(
        chat.iter()
            .map(|c| c.text.clone())
            .collect::<Vec<_>>()
            .join("|"),
    );
    let review = store
        .read_review("game-0")
        .await
        .unwrap()
        .expect("the review");
    seen.push(format!("{} {}", review.by, review.plies.len()));
    let tournaments = store.list_tournaments(10).await.unwrap();
    seen.push(
        tournaments
            .iter()
            .map(|t| t.doc.clone())
            .collect::<Vec<_>>()
            .join("|"),
    );
    seen
}

fn dir_text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

#[tokio::test]
async fn a_hall_is_copied_to_postgres_stopped_part_way_resumed_and_copied_back() {
    let sqlite = Sqlite::new();
    let from = dir_text(sqlite.0.path());
    let before = {
        let store = sqlite.open().await;
        a_hall(&store).await;
        what_players_see(&store).await
    };
    let url = PgServer::shared().database();

    // Stopped after three batches, as a crash would stop it (the future dropped mid-batch).
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let mut stop = Some(stop);
    let mut batches = 0;
    let options = CopyOptions {
        batch_rows: 4,
        replace: false,
    };
    let mut on_event = |e: Event<'_>| {
        if let Event::Batch { .. } = e {
            batches += 1;
            if batches == 3 {
                stop.take().map(|s| s.send(()));
            }
        }
    };
    tokio::select! {
        done = copy::copy(&from, &url, &options, &mut on_event) => panic!("the copy ran on: {done:?}"),
        _ = stopped => {}
    }

    let report = copy_all(&from, &url, false)
        .await
        .expect("the copy goes on and is verified");
    assert!(report.resumed, "{report:?}");
    let total = rows_of(&report);
    assert!(
        report.copied_now < total && report.copied_now + 12 >= total,
        "{report:?}"
    );
    for t in &report.tables {
        assert_eq!(t.source, t.target, "{t:?}");
        assert!(t.target.rows > 0, "the hall has rows in {}", t.table);
    }

    let postgres = Store::open_postgres(&url, Metrics::new())
        .await
        .expect("open the copy");
    assert_eq!(what_players_see(&postgres).await, before);
    // The chat's numbering goes on after the copied lines.
    let mut more = change("game-7", 20);
    more.chat = Some(line("after the move", None));
    write(&postgres, Write::Room(more)).await;
    assert_eq!(postgres.read_chat("game-7").await.unwrap().len(), 2);

    // The copied hall is a hall: a copy into it is refused unless replaced.
    let refused = copy_all(&from, &url, false).await.unwrap_err().to_string();
    assert!(refused.contains("holds a hall already"), "{refused}");
    let replaced = copy_all(&from, &url, true)
        .await
        .expect("--replace copies it again");
    assert_eq!((replaced.resumed, replaced.copied_now), (false, total));

    // And back, into a new data directory.
    let back = tempfile::tempdir().unwrap();
    let back_dir = dir_text(&back.path().join("hall"));
    let report = copy_all(&url, &back_dir, false)
        .await
        .expect("the copy back");
    assert_eq!(rows_of(&report), total);
    let copied_back = Store::open_sqlite(&back.path().join("hall"), Metrics::new()).unwrap();
    assert_eq!(what_players_see(&copied_back).await, before);

    let same = copy_all(&from, &from, true).await.unwrap_err().to_string();
    assert!(same.contains("both the source and the target"), "{same}");
    let nowhere = copy_all(&dir_text(&back.path().join("none")), &url, true)
        .await
        .unwrap_err();
    assert!(
        nowhere.to_string().contains("has no kibitz.db"),
        "{nowhere}"
    );
}
