//! The contract's checks of accounts and ratings: unique names, sign-in tokens, rated games
//! and the daily limit against one bot, forgetting players.

use super::*;

pub(crate) fn account(player: &str, name: &str, bot: bool) -> StoredAccount {
    StoredAccount {
        player: player.into(),
        name: name.into(),
        password_hash: (!bot).then(|| "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into()),
        bot,
        created_ms: 1_700_000_000_000,
    }
}

pub(crate) fn person(id: &str, name: &str, token_hash: &str) -> StoredPlayer {
    StoredPlayer {
        id: id.into(),
        name: name.into(),
        token_hash: token_hash.into(),
        bot: false,
    }
}

/// A rated Gomoku room between two seated accounts, playing.
pub(crate) fn rated_room(
    id: &str,
    black: (&str, &str, bool),
    white: (&str, &str, bool),
) -> StoredRoom {
    let seat = |(player, name, bot): (&str, &str, bool)| StoredSeat {
        player: player.into(),
        name: name.into(),
        bot,
        level: None,
    };
    let mut r = room(id, RoomStatus::Playing);
    r.head.game = GameSpec::gomoku(15, GomokuRule::Freestyle);
    r.head.opening = Vec::new();
    r.head.rated = true;
    r.head.private = false;
    r.black = Some(seat(black));
    r.white = Some(seat(white));
    r
}

/// Ends `room` with `result` (`None`: without one, as an abort).
pub(crate) async fn end(store: &Store, room: &str, result: Option<ResultKind>) {
    let mut over = change(room, 9);
    over.status = Some((
        RoomStatus::Over,
        result.map(|result| GameResult {
            result,
            reason: EndReason::Resign,
            line: None,
            score: None,
        }),
    ));
    write(store, Write::Room(over)).await;
}

pub(crate) async fn accounts_are_unique_by_name_whatever_the_case(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Guest1", "hash-1"))).await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    let taken = store
        .write(Write::NewAccount(account("p3", "ALICE", false)))
        .await;
    assert!(
        matches!(taken, Err(StoreError::NameTaken(ref n)) if n == "ALICE"),
        "{taken:?}"
    );
    let again = store
        .write(Write::NewAccount(account("p1", "Bob", false)))
        .await;
    assert!(matches!(again, Err(StoreError::HasAccount)), "{again:?}");
    let found = store
        .account_by_name("aLiCe")
        .await
        .expect("the read works");
    assert_eq!(found, Some(account("p1", "Alice", false)));
    assert_eq!(store.account_of("p1").await.expect("the read works"), found);
    assert_eq!(store.account_of("p3").await.expect("the read works"), None);
    assert_eq!(
        store.load_accounts().await.expect("the read works").len(),
        1
    );
    // The player goes by the account's name from now on.
    let players = store.load_players().await.expect("the read works");
    assert_eq!(players[0].name, "Alice");
}

pub(crate) async fn a_sign_in_token_finds_the_player_until_it_is_dropped(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Alice", "hash-1"))).await;
    let token = |hash: &str| Write::Token {
        token_hash: hash.into(),
        player: "p1".into(),
    };
    write(&store, token("hash-2")).await;
    let found = store
        .player_by_token("hash-2")
        .await
        .expect("the read works");
    assert_eq!(found.map(|p| p.id), Some("p1".to_string()));
    let drop = |hash: &str| Write::DropToken {
        token_hash: hash.into(),
        replacement: format!("{hash}-gone"),
    };
    write(&store, drop("hash-2")).await;
    assert_eq!(
        store
            .player_by_token("hash-2")
            .await
            .expect("the read works"),
        None
    );
    // The first token, kept with the player, is dropped too; the player stays.
    write(&store, drop("hash-1")).await;
    assert_eq!(
        store
            .player_by_token("hash-1")
            .await
            .expect("the read works"),
        None
    );
    assert_eq!(store.load_players().await.expect("the read works").len(), 1);
}

pub(crate) async fn a_rated_game_is_rated_with_its_end(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    write(&store, Write::NewAccount(account("p2", "Bob", false))).await;
    let alice = ("p1", "Alice", false);
    let bob = ("p2", "Bob", false);
    write(
        &store,
        Write::NewRoom(Box::new(rated_room("r1", alice, bob))),
    )
    .await;
    end(&store, "r1", Some(ResultKind::Black)).await;
    let stored = read(&store, "r1").await;
    assert!(stored.head.rated);
    let outcome = stored.rating.clone().expect("the game was rated");
    let start = Side {
        rating: Rating::start(false),
        bot: false,
    };
    let (black, white) = rate_game(start, start, 1.0);
    let sides: Vec<_> = outcome
        .changes
        .iter()
        .map(|c| (c.color, c.name.as_str(), c.before, c.after, c.provisional))
        .collect();
    assert_eq!(
        sides,
        [
            (
                Color::Black,
                "Alice",
                1500,
                black.rating.round() as i32,
                true
            ),
            (Color::White, "Bob", 1500, white.rating.round() as i32, true),
        ]
    );
    // A rated room ended without a result (aborted) rates nothing.
    write(
        &store,
        Write::NewRoom(Box::new(rated_room("r2", bob, alice))),
    )
    .await;
    end(&store, "r2", None).await;
    assert_eq!(read(&store, "r2").await.rating, None);
    // An end stored again rates nothing more.
    end(&store, "r1", Some(ResultKind::White)).await;
    assert_eq!(read(&store, "r1").await.rating, Some(outcome.clone()));
    // A private room's link is its secret: it is on no player's page.
    let mut secret = rated_room("r3", alice, bob);
    secret.head.private = true;
    write(&store, Write::NewRoom(Box::new(secret))).await;

    let board = store
        .leaderboard("gomoku-freestyle", false, 10)
        .await
        .expect("the read works");
    let names: Vec<_> = board.iter().map(|l| (l.name.as_str(), l.games)).collect();
    assert_eq!(names, [("Alice", 1), ("Bob", 1)]);
    assert!((board[0].rating - black.rating).abs() < 1e-6);
    assert!(store
        .leaderboard("gomoku-freestyle", true, 10)
        .await
        .expect("the read works")
        .is_empty());
    let page = store
        .player_page("ALICE", 10)
        .await
        .expect("the read works")
        .expect("Alice has a page");
    assert_eq!(
        (page.player.as_str(), page.name.as_str(), page.bot),
        ("p1", "Alice", false)
    );
    let r1 = page
        .games
        .iter()
        .find(|g| g.room == "r1")
        .expect("r1 listed");
    assert_eq!(
        (r1.black_player.as_deref(), r1.white_player.as_deref()),
        (Some("p1"), Some("p2"))
    );
    assert_eq!(page.ratings.len(), 1);
    assert_eq!(page.history.len(), 1);
    assert_eq!(page.history[0].room, "r1");
    let rooms: Vec<_> = page
        .games
        .iter()
        .map(|g| (g.room.as_str(), g.rated))
        .collect();
    assert_eq!(rooms.len(), 2);
    assert!(rooms.contains(&("r1", true)) && rooms.contains(&("r2", true)));
    assert_eq!(
        store
            .player_page("nobody", 10)
            .await
            .expect("the read works"),
        None
    );
}

pub(crate) async fn a_persons_fourth_game_a_day_against_one_bot_is_not_rated(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    write(&store, Write::NewAccount(account("k1", "Kibot", true))).await;
    let alice = ("p1", "Alice", false);
    let kibot = ("k1", "Kibot", true);
    for i in 0..4 {
        let id = format!("g{i}");
        let seats = if i % 2 == 0 {
            (alice, kibot)
        } else {
            (kibot, alice)
        };
        write(
            &store,
            Write::NewRoom(Box::new(rated_room(&id, seats.0, seats.1))),
        )
        .await;
        end(&store, &id, Some(ResultKind::White)).await;
        let outcome = read(&store, &id).await.rating.expect("an outcome");
        if i < 3 {
            assert_eq!(outcome.changes.len(), 2, "game {i}");
        } else {
            assert_eq!(outcome.unrated.as_deref(), Some("repeat"));
            assert!(outcome.changes.is_empty());
        }
    }
    // The first game: Alice lost to the bot, her loss halved.
    let first = read(&store, "g0").await.rating.expect("an outcome");
    let (alice_full, _) = rate_game(
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
    let half = 1500.0 + (alice_full.rating - 1500.0) / 2.0;
    assert_eq!(first.changes[0].after, half.round() as i32);
    assert_eq!(first.changes[1].before, 1800);
    let bots = store
        .leaderboard("gomoku-freestyle", true, 10)
        .await
        .expect("the read works");
    assert_eq!(bots.len(), 1);
    assert_eq!((bots[0].name.as_str(), bots[0].games), ("Kibot", 3));
}

pub(crate) async fn forgetting_players_keeps_those_with_accounts(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Player(person("p1", "Alice", "hash-1"))).await;
    write(&store, Write::Player(person("p3", "Guest3", "hash-3"))).await;
    write(&store, Write::NewAccount(account("p1", "Alice", false))).await;
    let forget = Write::ForgetPlayers {
        ids: vec!["p1".into(), "p3".into()],
        seen_before_ms: u64::MAX / 2,
    };
    write(&store, forget).await;
    let kept: Vec<_> = store
        .load_players()
        .await
        .expect("the read works")
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(kept, ["p1"]);
}
