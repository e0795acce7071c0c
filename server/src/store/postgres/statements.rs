//! The writer's statements, prepared once per connection, and how each [`Write`] is applied
//! with them: the same rows as the SQLite backend writes, statement for statement.

use game_core::protocol::RoomStatus;
use game_core::Color;

use super::{accounts, explorer, moderation, people, puzzles, tournaments};
use tokio_postgres::{Client, Statement};

use crate::store::error::StoreError;
use crate::store::fence;
use crate::store::records::{RoomChange, StoredMove, StoredRoom, StoredSeat, Write};
use crate::store::text::{asks_bits, now_ms, status_str};

/// Every statement the writer runs, prepared on its connection (parsing each time would cost
/// a round trip more per statement).
pub(super) struct Statements {
    player: Statement,
    room: Statement,
    seat: Statement,
    unseat: Statement,
    mv: Statement,
    mv_in_room: Statement,
    status: Statement,
    seq: Statement,
    truncate: Statement,
    next: Statement,
    asks: Statement,
    chat: Statement,
    forget: Statement,
    review: Statement,
    fence_of: Statement,
    claim: Statement,
}

impl Statements {
    pub(super) async fn prepare(db: &Client) -> Result<Statements, tokio_postgres::Error> {
        let (player, room, seat, unseat, mv, mv_in_room, status) = tokio::try_join!(
            db.prepare(
                "INSERT INTO players (id, name, token_hash, bot, last_seen_ms)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name,
                                                last_seen_ms = EXCLUDED.last_seen_ms"
            ),
            db.prepare(
                "INSERT INTO rooms (id, game, clock, opening, private, created_ms, creator, status,
                                    result, seq, fence, rated)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
            ),
            db.prepare(
                "INSERT INTO seats (room, color, player, name, bot, level)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (room, color) DO UPDATE SET player = EXCLUDED.player,
                     name = EXCLUDED.name, bot = EXCLUDED.bot, level = EXCLUDED.level"
            ),
            db.prepare("DELETE FROM seats WHERE room = $1 AND color = $2"),
            db.prepare(
                "INSERT INTO moves (room, ply, mv, by, black_ms, white_ms, at_ms, req_id, seq)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            ),
            // A move stored only if its room is: the check and the insert in one round trip.
            db.prepare(
                "INSERT INTO moves (room, ply, mv, by, black_ms, white_ms, at_ms, req_id, seq)
                 SELECT $1::text, $2::bigint, $3::text, $4::text, $5::bigint, $6::bigint,
                        $7::bigint, $8::text, $9::bigint
                 WHERE EXISTS (SELECT 1 FROM rooms WHERE id = $1::text)"
            ),
            db.prepare("UPDATE rooms SET status = $2, result = $3, seq = $4 WHERE id = $1"),
        )?;
        let (seq, truncate, next, asks, chat, forget, review) = tokio::try_join!(
            db.prepare("UPDATE rooms SET seq = $2 WHERE id = $1"),
            db.prepare("DELETE FROM moves WHERE room = $1 AND ply >= $2"),
            db.prepare("UPDATE rooms SET next = $2 WHERE id = $1"),
            db.prepare("UPDATE rooms SET rematch_asks = $2 WHERE id = $1"),
            db.prepare(
                "INSERT INTO chat (room, player, name, text, seat, bot, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)"
            ),
            db.prepare(
                "DELETE FROM players WHERE id = ANY($1) AND NOT bot AND last_seen_ms < $2
                 AND NOT EXISTS (SELECT 1 FROM seats JOIN rooms ON rooms.id = seats.room
                                 WHERE seats.player = players.id AND rooms.status <> 'over')
                 AND NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.player = players.id)"
            ),
            db.prepare(
                "INSERT INTO reviews (room, review, made_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (room) DO UPDATE SET review = EXCLUDED.review,
                                                  made_ms = EXCLUDED.made_ms"
            ),
        )?;
        let (fence_of, claim) = tokio::try_join!(
            // Locks the room's row until the transaction ends: a claim made on another
            // connection waits for the write that checked the fence, or comes before it.
            db.prepare("SELECT fence FROM rooms WHERE id = $1 FOR UPDATE"),
            db.prepare("UPDATE rooms SET fence = $2 WHERE id = $1"),
        )?;
        Ok(Statements {
            player,
            room,
            seat,
            unseat,
            mv,
            mv_in_room,
            status,
            seq,
            truncate,
            next,
            asks,
            chat,
            forget,
            review,
            fence_of,
            claim,
        })
    }

    /// Applies one write (inside the writer's transaction). A write that fails may have run
    /// some of its statements: the writer rolls it back.
    pub(super) async fn apply(&self, db: &Client, write: &Write) -> Result<(), StoreError> {
        match write {
            Write::Player(p) => {
                db.execute(
                    &self.player,
                    &[&p.id, &p.name, &p.token_hash, &p.bot, &now_ms()],
                )
                .await?;
            }
            Write::NewRoom(room) => self.insert_room(db, room).await?,
            Write::Room(change) => self.apply_change(db, change).await?,
            Write::Rematch { next, change } => {
                // The old room's change first: one fenced off stores nothing of the rematch.
                self.apply_change(db, change).await?;
                self.insert_room(db, next).await?;
            }
            Write::Claim { room, fence } => self.claim(db, room, *fence).await?,
            Write::ForgetPlayers {
                ids,
                seen_before_ms,
            } => {
                db.execute(&self.forget, &[ids, &(*seen_before_ms as i64)])
                    .await?;
            }
            Write::Review { room, review } => {
                let text = serde_json::to_string(review)?;
                db.execute(&self.review, &[room, &text, &(review.made_ms as i64)])
                    .await?;
            }
            Write::NewAccount(account) => accounts::insert_account(db, account).await?,
            Write::Token { token_hash, player } => {
                accounts::insert_token(db, token_hash, player).await?;
            }
            Write::DropToken {
                token_hash,
                replacement,
            } => accounts::drop_token(db, token_hash, replacement).await?,
            Write::Tournament(t) => tournaments::upsert(db, t).await?,
            Write::TournamentEdit { before, after } => tournaments::edit(db, before, after).await?,
            Write::IndexEnded { room } => explorer::index_ended(db, room).await?,
            Write::PuzzleAttempt(a) => puzzles::record_attempt(db, a).await?,
            Write::Block {
                player,
                blocked,
                at_ms,
            } => moderation::block(db, player, blocked, *at_ms).await?,
            Write::Unblock { player, blocked } => moderation::unblock(db, player, blocked).await?,
            Write::GrantModerator { player, at_ms } => {
                moderation::grant_moderator(db, player, *at_ms).await?
            }
            Write::Report(r) => moderation::report(db, r).await?,
            Write::Moderate(a) => moderation::moderate(db, a).await?,
            Write::Follow {
                player,
                followed,
                at_ms,
            } => people::follow(db, player, followed, *at_ms).await?,
            Write::Unfollow { player, followed } => people::unfollow(db, player, followed).await?,
            Write::HallPuzzle(p) => puzzles::add_hall(db, p, now_ms() as u64).await?,
            Write::Barrier => {}
        }
        Ok(())
    }

    async fn insert_seat(
        &self,
        db: &Client,
        room: &str,
        color: Color,
        seat: Option<&StoredSeat>,
    ) -> Result<(), StoreError> {
        match seat {
            Some(s) => {
                let level = s.level.map(i16::from);
                db.execute(
                    &self.seat,
                    &[&room, &color.as_str(), &s.player, &s.name, &s.bot, &level],
                )
                .await?
            }
            None => db.execute(&self.unseat, &[&room, &color.as_str()]).await?,
        };
        Ok(())
    }

    /// Inserts a move; with `in_room`, only if its room is stored (false when it is not).
    async fn insert_move(
        &self,
        db: &Client,
        room: &str,
        mv: &StoredMove,
        in_room: bool,
    ) -> Result<bool, StoreError> {
        let statement = if in_room { &self.mv_in_room } else { &self.mv };
        let inserted = db
            .execute(
                statement,
                &[
                    &room,
                    &(mv.ply as i64),
                    &mv.mv,
                    &mv.by.as_str(),
                    &mv.black_ms.map(|v| v as i64),
                    &mv.white_ms.map(|v| v as i64),
                    &(mv.at_ms as i64),
                    &mv.req_id,
                    &(mv.seq as i64),
                ],
            )
            .await?;
        Ok(inserted == 1)
    }

    async fn insert_room(&self, db: &Client, room: &StoredRoom) -> Result<(), StoreError> {
        let head = &room.head;
        let clock = head.clock.map(|c| serde_json::to_string(&c)).transpose()?;
        let result = room
            .result
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?;
        db.execute(
            &self.room,
            &[
                &head.id,
                &serde_json::to_string(&head.game)?,
                &clock,
                &serde_json::to_string(&head.opening)?,
                &head.private,
                &(head.created_ms as i64),
                &head.creator,
                &status_str(room.status),
                &result,
                &(room.seq as i64),
                &fence::to_column(room.fence)?,
                &head.rated,
            ],
        )
        .await?;
        for (color, seat) in [(Color::Black, &room.black), (Color::White, &room.white)] {
            if seat.is_some() {
                self.insert_seat(db, &head.id, color, seat.as_ref()).await?;
            }
        }
        for mv in &room.moves {
            self.insert_move(db, &head.id, mv, false).await?;
        }
        Ok(())
    }

    /// The fence stored with `room`, its row locked until the transaction ends (`None` for a
    /// room not stored).
    async fn lock_fence(&self, db: &Client, room: &str) -> Result<Option<u64>, StoreError> {
        let row = db.query_opt(&self.fence_of, &[&room]).await?;
        Ok(row
            .map(|r| r.try_get::<_, i64>(0))
            .transpose()?
            .map(fence::from_column))
    }

    /// Raises the fence of `room` to `to`, unless a newer one is stored.
    async fn claim(&self, db: &Client, room: &str, to: u64) -> Result<(), StoreError> {
        let stored = self
            .lock_fence(db, room)
            .await?
            .ok_or_else(|| StoreError::NoSuchRoom(room.to_string()))?;
        fence::check_claim(room, stored, to)?;
        if stored != to {
            db.execute(&self.claim, &[&room, &fence::to_column(to)?])
                .await?;
        }
        Ok(())
    }

    /// Applies a change of a room, refusing it if it is made under a fence not the room's.
    async fn apply_change(&self, db: &Client, change: &RoomChange) -> Result<(), StoreError> {
        if change.fence == 0 {
            return self.apply_unfenced(db, change).await;
        }
        // The check goes out first and the change right behind it, in the same round trip (a
        // fenced write costs no wait more than an unfenced one): the row is locked before
        // the change runs, and a change found fenced off fails, so the writer rolls it back.
        let room = change.room.as_str();
        let (stored, applied) =
            tokio::join!(self.lock_fence(db, room), self.apply_unfenced(db, change));
        let stored = stored?.ok_or_else(|| StoreError::NoSuchRoom(room.to_string()))?;
        fence::check_change(room, stored, change.fence)?;
        applied
    }

    async fn apply_unfenced(&self, db: &Client, change: &RoomChange) -> Result<(), StoreError> {
        let room = change.room.as_str();
        let missing = || StoreError::NoSuchRoom(room.to_string());
        // As in SQLite, a change that only adds moves, the last carrying the change's event
        // number, leaves the room's row alone (its `seq` is read back as the larger of the
        // row's and the last move's): no new version of the row for every move.
        let moves_only = change.status.is_none()
            && change.truncate.is_none()
            && change.moves.last().is_some_and(|m| m.seq == change.seq);
        if moves_only {
            for mv in &change.moves {
                if !self.insert_move(db, room, mv, true).await? {
                    return Err(missing());
                }
            }
        } else {
            let seq = change.seq as i64;
            let updated = match &change.status {
                Some((status, result)) => {
                    let result = result.as_ref().map(serde_json::to_string).transpose()?;
                    db.execute(&self.status, &[&room, &status_str(*status), &result, &seq])
                        .await?
                }
                None => db.execute(&self.seq, &[&room, &seq]).await?,
            };
            if updated == 0 {
                return Err(missing());
            }
            if let Some(ply) = change.truncate {
                db.execute(&self.truncate, &[&room, &(ply as i64)]).await?;
            }
            for mv in &change.moves {
                self.insert_move(db, room, mv, false).await?;
            }
        }
        for (color, seat) in &change.seats {
            self.insert_seat(db, room, *color, seat.as_ref()).await?;
        }
        if let Some(next) = &change.rematch_next {
            db.execute(&self.next, &[&room, next]).await?;
        }
        if let Some(asked) = change.rematch_asks {
            db.execute(&self.asks, &[&room, &asks_bits(asked)]).await?;
        }
        if let Some((RoomStatus::Over, Some(result))) = &change.status {
            accounts::settle_rated(db, room, result).await?;
            explorer::index_game(db, room, Some(result)).await?;
        }
        if let Some(line) = &change.chat {
            db.execute(
                &self.chat,
                &[
                    &room,
                    &line.player,
                    &line.name,
                    &line.text,
                    &line.seat.map(Color::as_str),
                    &line.bot,
                    &(line.at_ms as i64),
                ],
            )
            .await?;
        }
        Ok(())
    }
}
