//! Games that ended before the explorer's index existed (a hall's store from an earlier
//! version) are indexed once the server has started: a task asks the store for finished rooms
//! the index has not seen, a few hundred at a time, and indexes each through the store's
//! writer, as an ending game is. It stops when none is left or the server shuts down; every
//! node of a cluster may run it at once (each room is indexed once whoever comes first).

use tokio::sync::watch;

use crate::store::{Store, Write};

/// Rooms asked for at a time.
const BATCH: usize = 256;

/// Indexes every finished room the index has not seen; the number indexed.
pub async fn run(store: Store, mut shutdown: watch::Receiver<bool>) -> usize {
    let mut done = 0;
    loop {
        let rooms = match store.unindexed_ended(BATCH).await {
            Ok(rooms) => rooms,
            Err(e) => {
                tracing::warn!(error = %e, "the explorer's backfill stopped: the store failed");
                return done;
            }
        };
        if rooms.is_empty() {
            break;
        }
        for room in rooms {
            if *shutdown.borrow_and_update() {
                return done;
            }
            if let Err(e) = store.write(Write::IndexEnded { room }).await {
                tracing::warn!(error = %e, "the explorer's backfill stopped: a write failed");
                return done;
            }
            done += 1;
        }
    }
    if done > 0 {
        tracing::info!(games = done, "finished games added to the opening explorer");
    }
    done
}
