//! The tournament document's rules: joining, leaving, starting, pairing rounds, recording results.

use super::*;
use game_core::GomokuRule;

fn entrant(name: &str) -> Entrant {
    Entrant {
        level: None,
        account: None,
        player: format!("id-{name}"),
        name: name.to_string(),
        bot: name.starts_with("Bot"),
    }
}

fn asked(kind: Kind, rounds: Option<u32>) -> NewTournament {
    NewTournament {
        name: "  Friday blitz ".into(),
        kind,
        game: GameSpec::gomoku(15, GomokuRule::Freestyle),
        clock: ClockSpec::Fischer {
            initial_ms: 60_000,
            increment_ms: 1_000,
        },
        rounds,
        rated: true,
    }
}

fn with_players(kind: Kind, names: &[&str]) -> Tournament {
    let mut t = Tournament::new("t1".into(), asked(kind, None), &entrant("Alice"), 1).unwrap();
    for name in names {
        assert_eq!(t.join(entrant(name)), Ok(true));
    }
    t
}

/// Plays the current round: black wins every game.
fn black_wins_all(t: &mut Tournament) {
    let rooms: Vec<String> = t
        .pairings
        .last()
        .unwrap()
        .games
        .iter()
        .map(|g| g.room.clone())
        .collect();
    for room in rooms {
        assert!(t.record(&room, ResultKind::Black, 2));
    }
}

fn counter() -> impl FnMut() -> String {
    let mut n = 0;
    move || {
        n += 1;
        format!("room{n}")
    }
}

#[test]
fn a_new_tournament_checks_its_name_and_rounds() {
    let t = Tournament::new(
        "t1".into(),
        asked(Kind::Swiss, Some(5)),
        &entrant("Alice"),
        7,
    )
    .unwrap();
    assert_eq!(
        (t.name.as_str(), t.status, t.rounds),
        ("Friday blitz", Status::Open, Some(5))
    );
    assert_eq!((t.creator.as_str(), t.created_ms), ("id-Alice", 7));
    let refused = |kind, rounds, name: &str| {
        let mut a = asked(kind, rounds);
        a.name = name.to_string();
        Tournament::new("t".into(), a, &entrant("Alice"), 0).unwrap_err()
    };
    assert_eq!(
        refused(Kind::Swiss, Some(0), "x"),
        TournamentError::BadRounds
    );
    assert_eq!(
        refused(Kind::Swiss, Some(21), "x"),
        TournamentError::BadRounds
    );
    assert_eq!(
        refused(Kind::RoundRobin, Some(3), "x"),
        TournamentError::RoundsOfRoundRobin
    );
    assert_eq!(refused(Kind::Swiss, None, "   "), TournamentError::BadName);
    assert_eq!(
        refused(Kind::Swiss, None, &"x".repeat(41)),
        TournamentError::BadName
    );
    assert_eq!(
        refused(Kind::Swiss, None, "a\u{7}b"),
        TournamentError::BadName
    );
    assert!(check_name(&"é".repeat(40)).is_ok());
    assert_eq!(Kind::parse("swiss"), Some(Kind::Swiss));
    assert_eq!(Kind::parse("knockout"), None);
}

#[test]
fn players_join_and_leave_only_while_it_is_open() {
    let mut t = with_players(Kind::Swiss, &["Alice", "Bob"]);
    assert_eq!(t.join(entrant("Bob")), Ok(false), "twice is once");
    assert_eq!(t.leave("id-Carol"), Err(TournamentError::NotAPlayer));
    assert_eq!(t.leave("id-Bob"), Ok(()));
    assert_eq!(t.start("id-Alice", 5), Err(TournamentError::TooFewPlayers));
    t.join(entrant("Bob")).unwrap();
    assert_eq!(t.start("id-Bob", 5), Err(TournamentError::NotCreator));
    assert_eq!(t.start("id-Alice", 5), Ok(()));
    assert_eq!(
        (t.status, t.started_ms, t.rounds),
        (Status::Running, Some(5), Some(1))
    );
    assert_eq!(t.join(entrant("Carol")), Err(TournamentError::NotOpen));
    assert_eq!(t.leave("id-Bob"), Err(TournamentError::NotOpen));
    assert_eq!(t.start("id-Alice", 6), Err(TournamentError::NotOpen));
    let mut full = with_players(Kind::RoundRobin, &[]);
    for i in 0..MAX_ROUND_ROBIN_PLAYERS {
        full.join(entrant(&format!("P{i}"))).unwrap();
    }
    assert_eq!(full.join(entrant("Late")), Err(TournamentError::Full(16)));
}

#[test]
fn a_round_robin_plays_its_table_to_the_end() {
    let mut t = with_players(Kind::RoundRobin, &["Alice", "Bob", "Carol"]);
    assert_eq!(t.next(), Next::Nothing, "not started");
    t.start("id-Alice", 1).unwrap();
    assert_eq!(t.rounds, Some(3), "three players: three rounds, a bye each");
    let mut ids = counter();
    for round in 1..=3 {
        assert_eq!(t.next(), Next::Pair);
        assert_eq!(t.pair_next_round(&mut ids), Ok(true));
        assert_eq!(
            t.pair_next_round(&mut ids),
            Ok(false),
            "one round at a time"
        );
        assert_eq!(t.next(), Next::Watch);
        let r = t.current_round().unwrap();
        assert_eq!((r.games.len(), r.bye.is_some()), (1, true), "round {round}");
        assert!(!t.record("no-such-room", ResultKind::Draw, 1));
        black_wins_all(&mut t);
        assert!(
            !t.record(&format!("room{round}"), ResultKind::White, 0),
            "recorded once"
        );
    }
    assert_eq!(t.next(), Next::Finish);
    t.finish(9);
    assert_eq!(
        (t.status, t.finished_ms, t.next()),
        (Status::Over, Some(9), Next::Nothing)
    );
    let (games, byes) = t.results();
    assert_eq!((games.len(), byes.len()), (3, 3));
    let mut met: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            let mut pair = [g.first.clone(), g.second.clone()];
            pair.sort();
            (pair[0].clone(), pair[1].clone())
        })
        .collect();
    met.sort();
    met.dedup();
    assert_eq!(met.len(), 3, "every pair met once");
}

#[test]
fn a_swiss_pairs_by_the_results_and_never_repeats_when_avoidable() {
    let mut t = with_players(Kind::Swiss, &["Alice", "Bob", "Carol", "Dave"]);
    t.start("id-Alice", 1).unwrap();
    assert_eq!(t.rounds, Some(2), "ceil(log2 4)");
    let mut ids = counter();
    t.pair_next_round(&mut ids).unwrap();
    black_wins_all(&mut t);
    t.pair_next_round(&mut ids).unwrap();
    let first: Vec<(String, String)> = t.pairings[0]
        .games
        .iter()
        .map(|g| (g.black.clone(), g.white.clone()))
        .collect();
    for g in &t.pairings[1].games {
        let repeat = first
            .iter()
            .any(|(b, w)| (b, w) == (&g.black, &g.white) || (b, w) == (&g.white, &g.black));
        assert!(!repeat, "{g:?} met in round 1");
    }
    black_wins_all(&mut t);
    assert_eq!(t.next(), Next::Finish);
}

#[test]
fn the_document_comes_back_as_stored() {
    let mut t = with_players(Kind::Swiss, &["Alice", "Bob", "Bot1"]);
    t.start("id-Alice", 3).unwrap();
    t.pair_next_round(counter()).unwrap();
    let room = t.pairings[0].games[0].room.clone();
    t.record(&room, ResultKind::Aborted, 0);
    let stored = t.stored().unwrap();
    assert_eq!(
        (
            stored.id.as_str(),
            stored.status.as_str(),
            stored.created_ms
        ),
        ("t1", "running", 1)
    );
    assert_eq!(Tournament::from_stored(&stored).unwrap(), t);
    let doc: serde_json::Value = serde_json::from_str(&stored.doc).unwrap();
    assert_eq!(doc["kind"], "swiss");
    assert_eq!(doc["pairings"][0]["games"][0]["result"], "aborted");
    assert_eq!(
        doc["pairings"][0]["bye"], "id-Bot1",
        "the lowest seed sits out first"
    );
    assert_eq!(
        doc["players"][2],
        serde_json::json!({"player":"id-Bot1","name":"Bot1","bot":true})
    );
    let garbled = StoredTournament {
        doc: "{\"id\":1".into(),
        ..stored
    };
    assert!(Tournament::from_stored(&garbled).is_err());
}
