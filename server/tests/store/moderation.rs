//! The contract's checks of moderation: a block is kept once, an unblock removes it, each
//! player's list is their own; moderators are granted once; reports are read newest first and
//! counted per reporter; moderators' actions leave their sanctions (until their end, or
//! lifted), rename an account, hide a chat line, close the report they answer, and are all in
//! the audit log, newest first; all of it there when the store is opened again.

use super::*;

fn block(player: &str, blocked: &str, at_ms: u64) -> Write {
    Write::Block {
        player: player.into(),
        blocked: blocked.into(),
        at_ms,
    }
}

pub(crate) async fn a_block_is_kept_once_and_an_unblock_removes_it(b: &impl Backend) {
    let store = b.open().await;
    write(&store, block("ann", "bob", 10)).await;
    write(&store, block("ann", "bob", 20)).await;
    write(&store, block("ann", "cid", 15)).await;
    write(&store, block("bob", "ann", 30)).await;
    let store = b.open().await;
    assert_eq!(store.blocks_of("ann").await.unwrap(), ["bob", "cid"]);
    assert_eq!(store.blocks_of("bob").await.unwrap(), ["ann"]);
    write(
        &store,
        Write::Unblock {
            player: "ann".into(),
            blocked: "bob".into(),
        },
    )
    .await;
    assert_eq!(store.blocks_of("ann").await.unwrap(), ["cid"]);
    assert!(store.blocks_of("nobody").await.unwrap().is_empty());
}

fn report(id: &str, reporter: &str, at_ms: u64) -> kibitz_server::store::StoredReport {
    kibitz_server::store::StoredReport {
        id: id.into(),
        at_ms,
        reporter: reporter.into(),
        kind: "chat".into(),
        player: "bob".into(),
        room: "r1".into(),
        reason: "abuse".into(),
        note: "twice".into(),
        context: r#"{"chat":[]}"#.into(),
        status: "open".into(),
    }
}

pub(crate) async fn a_follow_is_kept_once_and_an_unfollow_removes_it(b: &impl Backend) {
    let store = b.open().await;
    let follow = |player: &str, followed: &str, at_ms| Write::Follow {
        player: player.into(),
        followed: followed.into(),
        at_ms,
    };
    write(&store, follow("ann", "bob", 10)).await;
    write(&store, follow("ann", "bob", 20)).await;
    write(&store, follow("ann", "cid", 15)).await;
    let store = b.open().await;
    assert_eq!(store.follows_of("ann").await.unwrap(), ["bob", "cid"]);
    let unfollow = Write::Unfollow {
        player: "ann".into(),
        followed: "bob".into(),
    };
    write(&store, unfollow).await;
    assert_eq!(store.follows_of("ann").await.unwrap(), ["cid"]);
    assert!(store.follows_of("bob").await.unwrap().is_empty());
    assert!(store.followed_games("ann", 10).await.unwrap().is_empty());
    assert!(store
        .head_to_head("ann", "cid", 10)
        .await
        .unwrap()
        .is_empty());
}

pub(crate) async fn moderators_and_reports_are_kept(b: &impl Backend) {
    let store = b.open().await;
    assert!(!store.is_moderator("mod").await.unwrap());
    let grant = || Write::GrantModerator {
        player: "mod".into(),
        at_ms: 5,
    };
    write(&store, grant()).await;
    write(&store, grant()).await;
    write(&store, Write::Report(Box::new(report("a", "ann", 100)))).await;
    write(&store, Write::Report(Box::new(report("b", "ann", 200)))).await;
    write(&store, Write::Report(Box::new(report("c", "cid", 150)))).await;
    let store = b.open().await;
    assert!(store.is_moderator("mod").await.unwrap());
    assert!(!store.is_moderator("ann").await.unwrap());
    let open = store.reports("open", 10).await.unwrap();
    let ids: Vec<&str> = open.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["b", "c", "a"], "newest first");
    assert_eq!(open[2], report("a", "ann", 100));
    assert_eq!(store.reports("open", 1).await.unwrap().len(), 1);
    assert!(store.reports("closed", 10).await.unwrap().is_empty());
    assert_eq!(store.reports_since("ann", 150).await.unwrap(), 1);
    assert_eq!(store.reports_since("ann", 0).await.unwrap(), 2);
    // Distinct reporters of a player: Ann twice counts once.
    assert_eq!(store.reporters_of("bob", 0).await.unwrap(), 2);
    assert_eq!(store.reporters_of("bob", 160).await.unwrap(), 1);
    assert_eq!(store.reporters_of("nobody", 0).await.unwrap(), 0);
}

fn action(id: &str, action: &str, player: &str, at_ms: u64) -> kibitz_server::store::StoredAction {
    kibitz_server::store::StoredAction {
        id: id.into(),
        at_ms,
        moderator: "mod".into(),
        action: action.into(),
        player: player.into(),
        room: String::new(),
        reason: format!("reason {id}"),
        detail: String::new(),
        until_ms: None,
        report: String::new(),
    }
}

pub(crate) async fn moderators_actions_are_carried_out_and_logged(b: &impl Backend) {
    let store = b.open().await;
    write(&store, Write::Report(Box::new(report("r", "ann", 100)))).await;
    let moderate = |a| Write::Moderate(Box::new(a));
    let mute = kibitz_server::store::StoredAction {
        until_ms: Some(5_000),
        report: "r".into(),
        ..action("1", "mute", "bob", 1_000)
    };
    write(&store, moderate(mute)).await;
    write(&store, moderate(action("2", "rated_ban", "bob", 2_000))).await;
    write(&store, moderate(action("3", "ban", "cid", 3_000))).await;
    let lift = kibitz_server::store::StoredAction {
        detail: "ban".into(),
        ..action("4", "lift", "cid", 4_000)
    };
    write(&store, moderate(lift)).await;
    write(&store, moderate(action("5", "warn", "ann", 4_500))).await;
    let store = b.open().await;
    let kinds = |list: Vec<kibitz_server::store::StoredSanction>| {
        list.into_iter()
            .map(|s| format!("{} {}", s.player, s.kind))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(store.sanctions(4_900).await.unwrap()),
        ["bob mute", "bob rated_ban"]
    );
    // The mute has ended by 5000; the ban was lifted.
    assert_eq!(
        kinds(store.sanctions(5_000).await.unwrap()),
        ["bob rated_ban"]
    );
    let log = store.moderation_log(10).await.unwrap();
    let ids: Vec<&str> = log.iter().map(|a| a.id.as_str()).collect();
    assert_eq!(ids, ["5", "4", "3", "2", "1"], "newest first");
    assert_eq!(log[4].until_ms, Some(5_000));
    assert_eq!(log[4].report, "r");
    assert!(store.reports("open", 10).await.unwrap().is_empty());
    assert_eq!(store.reports("closed", 10).await.unwrap()[0].id, "r");
    assert_eq!(store.moderation_log(2).await.unwrap().len(), 2);
}
