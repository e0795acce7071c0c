//! The store's contract, written against its interface alone: what any backend must keep and
//! give back. Each check takes a [`Backend`] — something that opens a store on one durable
//! location, as often as asked — and the `suite!`s at the bottom run every check against
//! SQLite in a fresh directory and against PostgreSQL in a fresh database of a real server
//! (`kibitz_test_harness::postgres`). Below the suites, what only PostgreSQL has: its schema version, and
//! the server going away and coming back.

mod accounts;
mod copy;
mod explorer;
mod moderation;
mod postgres_alone;
mod postgres_tls;
mod puzzles;
mod rooms;
mod tournaments;

use accounts::*;
use explorer::*;
use game_core::protocol::{ClockSpec, GameResult, ResultKind, RoomStatus};
use game_core::{Color, EndReason, GameSpec, GomokuRule};
use kibitz_server::accounts::ratings::{rate_game, Rating, Side};
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{
    RoomChange, Store, StoreError, StoredAccount, StoredChat, StoredMove, StoredPlayer, StoredRoom,
    StoredRoomHead, StoredSeat, StoredTournament, Write,
};
use kibitz_test_harness::postgres::PgServer;
use moderation::*;
use puzzles::*;
use rooms::*;
use tournaments::*;

/// Opens a store on one durable location; a second `open` sees what the first wrote.
trait Backend {
    async fn open(&self) -> Store;
}

/// SQLite in a temporary directory.
struct Sqlite(tempfile::TempDir);

impl Sqlite {
    fn new() -> Sqlite {
        Sqlite(tempfile::tempdir().expect("a temporary directory"))
    }
}

impl Backend for Sqlite {
    async fn open(&self) -> Store {
        Store::open_sqlite(self.0.path(), Metrics::new()).expect("open the SQLite store")
    }
}

/// A fresh database on the PostgreSQL server the tests share.
struct Postgres {
    url: String,
}

impl Postgres {
    fn new() -> Postgres {
        Postgres {
            url: PgServer::shared().database(),
        }
    }
}

impl Backend for Postgres {
    async fn open(&self) -> Store {
        Store::open_postgres(&self.url, Metrics::new())
            .await
            .expect("open the PostgreSQL store")
    }
}

fn seat(name: &str) -> StoredSeat {
    StoredSeat {
        player: format!("id-{name}"),
        name: name.to_string(),
        bot: false,
        level: None,
    }
}

fn room(id: &str, status: RoomStatus) -> StoredRoom {
    StoredRoom {
        rating: None,
        head: StoredRoomHead {
            rated: false,
            id: id.to_string(),
            game: GameSpec::gomoku(15, GomokuRule::Renju),
            clock: Some(ClockSpec::Fischer {
                initial_ms: 60_000,
                increment_ms: 2_000,
            }),
            opening: vec!["h8".into(), "h9".into()],
            private: true,
            created_ms: 1_700_000_000_000,
            creator: Some("id-Alice".into()),
        },
        status,
        result: None,
        seq: 0,
        black: Some(seat("Alice")),
        white: None,
        moves: Vec::new(),
        fence: 0,
    }
}

fn mv(ply: usize, text: &str, by: Color, seq: u64) -> StoredMove {
    StoredMove {
        ply,
        mv: text.to_string(),
        by,
        black_ms: Some(59_000 - ply as u64),
        white_ms: Some(58_000),
        at_ms: 1_700_000_000_100 + ply as u64,
        req_id: (by == Color::Black).then(|| format!("req-{ply}")),
        seq,
    }
}

fn line(text: &str, seat: Option<Color>) -> StoredChat {
    StoredChat {
        player: "id-Alice".into(),
        name: "Alice".into(),
        text: text.to_string(),
        seat,
        bot: false,
        at_ms: 1_700_000_000_200,
    }
}

fn change(room: &str, seq: u64) -> RoomChange {
    RoomChange::new(room, seq)
}

async fn write(store: &Store, write: Write) {
    store.write(write).await.expect("the write is stored");
}

/// A PostgreSQL store on `url` holding one new room.
async fn open_postgres_with_room(url: &str, id: &str, status: RoomStatus) -> Store {
    let store = Store::open_postgres(url, Metrics::new())
        .await
        .expect("open the PostgreSQL store");
    write(&store, Write::NewRoom(Box::new(room(id, status)))).await;
    store
}

async fn read(store: &Store, id: &str) -> StoredRoom {
    store
        .read_room(id)
        .await
        .expect("the read works")
        .expect("the room is stored")
}

fn win(reason: EndReason) -> GameResult {
    GameResult {
        result: ResultKind::Black,
        reason,
        line: Some(vec!["a1".into(), "b2".into()]),
        score: None,
    }
}

/// One `#[tokio::test]` per check, each on a fresh backend: `suite!(backend)` runs every
/// check of the contract.
macro_rules! suite {
    ($backend:expr) => {
        suite!($backend =>
            a_new_room_comes_back_as_written,
            seats_are_taken_and_given_up,
            moves_are_appended_and_truncated,
            the_event_number_comes_back_after_any_change,
            chat_lines_are_kept_in_order,
            the_status_and_result_are_stored,
            players_are_stored_and_renamed,
            only_unfinished_rooms_are_loaded_at_start,
            a_move_and_the_result_it_brings_are_durable_together,
            a_failed_write_stores_none_of_its_parts,
            a_flush_returns_once_every_queued_write_is_durable,
            a_failed_write_among_many_fails_alone,
            a_review_is_kept_with_its_room,
            a_rooms_fence_comes_back_with_it,
            a_claim_raises_the_fence_and_never_lowers_it,
            a_change_under_an_old_fence_stores_nothing,
            a_fenced_off_rematch_stores_neither_room_nor_change,
            a_fenced_write_among_many_fails_alone,
            a_player_is_found_by_their_tokens_hash,
            accounts_are_unique_by_name_whatever_the_case,
            a_sign_in_token_finds_the_player_until_it_is_dropped,
            a_rated_game_is_rated_with_its_end,
            a_persons_fourth_game_a_day_against_one_bot_is_not_rated,
            forgetting_players_keeps_those_with_accounts,
            a_tournament_document_is_stored_and_replaced_whole,
            tournaments_are_listed_newest_first_and_the_running_ones_found,
            an_edit_of_a_tournament_is_stored_only_over_the_document_it_was_made_from,
            a_finished_game_is_indexed_by_position_once,
            a_room_that_ended_before_the_index_is_indexed_on_request,
            a_puzzle_attempt_is_rated_once,
            a_hall_puzzle_is_stored_once_and_read_back,
            a_block_is_kept_once_and_an_unblock_removes_it,
            moderators_and_reports_are_kept,
            moderators_actions_are_carried_out_and_logged,
            a_follow_is_kept_once_and_an_unfollow_removes_it,
            a_game_from_an_opening_rule_is_indexed_under_its_rule,
        );
    };
    ($backend:expr => $($check:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $check() {
                super::$check(&$backend).await;
            }
        )*
    };
}

mod sqlite {
    use super::Sqlite;

    suite!(Sqlite::new());
}

mod postgres {
    use super::Postgres;

    suite!(Postgres::new());
}
