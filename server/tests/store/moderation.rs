//! The contract's checks of moderation: a block is kept once, an unblock removes it, each
//! player's list is their own; moderators are granted once; reports are read newest first and
//! counted per reporter; all of it there when the store is opened again.

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
}
