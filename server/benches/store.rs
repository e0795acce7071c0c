//! Criterion benchmarks for the SQLite store on the move's path: a round of moves from many
//! rooms at once (the writer commits them in batches, as under load) and a lone move (one
//! commit of its own, as on a quiet server). The figures to compare when the schema, the
//! batching or the checkpointing change.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::protocol::{ClockSpec, RoomStatus};
use game_core::{Color, GameSpec, GomokuRule};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{
    RoomChange, Store, StoredMove, StoredRoom, StoredRoomHead, StoredSeat, Write,
};

/// Rooms moving at once, as in the 500-room load benchmark.
const ROOMS: usize = 500;

fn seat(name: &str) -> Option<StoredSeat> {
    Some(StoredSeat {
        player: format!("id-{name}"),
        name: name.to_string(),
        bot: false,
        level: None,
    })
}

fn room(id: &str) -> StoredRoom {
    StoredRoom {
        head: StoredRoomHead {
            id: id.to_string(),
            game: GameSpec::gomoku(15, GomokuRule::Freestyle),
            clock: Some(ClockSpec::Fischer {
                initial_ms: 300_000,
                increment_ms: 0,
            }),
            opening: Vec::new(),
            private: false,
            created_ms: 1_700_000_000_000,
            creator: Some("id-Alice".into()),
            rated: false,
        },
        status: RoomStatus::Playing,
        result: None,
        seq: 0,
        black: seat("Alice"),
        white: seat("Bob"),
        moves: Vec::new(),
        fence: 0,
        rating: None,
    }
}

/// The write of ply `ply` in room `id`, as the room sends it.
fn move_write(id: &str, ply: usize) -> Write {
    let seq = ply as u64 + 1;
    let mut change = RoomChange::new(id, seq);
    change.moves.push(StoredMove {
        ply,
        mv: format!("{}{}", (b'a' + (ply % 15) as u8) as char, 1 + ply / 15),
        by: if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        },
        black_ms: Some(290_000),
        white_ms: Some(290_000),
        at_ms: 1_700_000_000_000 + ply as u64,
        req_id: Some(format!("m{ply}")),
        seq,
    });
    Write::Room(change)
}

/// Ids like the server's: random, so rooms' rows and moves land all over their tables.
fn room_ids(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            format!(
                "{:016x}",
                (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            )
        })
        .collect()
}

fn moves(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Store::open_sqlite(dir.path(), Metrics::new()).expect("open the store");
    let ids = room_ids(ROOMS);
    runtime.block_on(async {
        for id in &ids {
            store
                .write(Write::NewRoom(Box::new(room(id))))
                .await
                .expect("the room is stored");
        }
    });
    let mut group = c.benchmark_group("store");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(10));
    let mut ply = 0;
    group.bench_function("a move in each of 500 rooms at once", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let writes = ids.iter().map(|id| store.write(move_write(id, ply)));
                for done in futures::future::join_all(writes).await {
                    done.expect("the move is stored");
                }
            });
            ply += 1;
        })
    });
    let lone = &ids[0];
    let mut lone_ply = ply;
    group.bench_function("a lone move", |b| {
        b.iter(|| {
            runtime.block_on(async {
                store
                    .write(move_write(lone, lone_ply))
                    .await
                    .expect("the move is stored");
            });
            lone_ply += 1;
        })
    });
    group.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
