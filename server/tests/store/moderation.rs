//! The contract's checks of players' blocks: a block is kept once, an unblock removes it, each
//! player's list is their own, and all of it is there when the store is opened again.

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
