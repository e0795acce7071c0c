//! A seated player of a load room, game after game. Black creates each game (a private room
//! of 15x15 freestyle Gomoku) and publishes it; white joins it by its id. The side to move
//! sends its move of the game's fixed path a think time after it received the previous
//! `moved`; the receiver times each move. Past the end of the run, the side to move resigns.

use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::protocol::{ClientMsg, JoinAs, RoomStatus, SeatChoice, ServerMsg};
use game_core::{Color, EndReason};

use super::client::{Halt, LoadClient};
use super::game_path::{game_path, spec};
use super::room::Game;

/// What every player of the run shares.
#[derive(Clone, Debug)]
pub struct PlayPlan {
    pub seed: u64,
    pub think: Duration,
    /// No move is started after this: the side to move resigns instead.
    pub until: Instant,
}

/// Plays games in the room until the run is over or a client of the room fails, then ends
/// the room.
pub async fn play(
    mut client: LoadClient,
    color: Color,
    plan: Arc<PlayPlan>,
    first_delay: Duration,
) {
    let _ = play_games(&mut client, color, &plan, first_delay).await;
    client.room.end();
}

async fn play_games(
    client: &mut LoadClient,
    color: Color,
    plan: &PlayPlan,
    first_delay: Duration,
) -> Result<(), Halt> {
    tokio::time::sleep(first_delay).await;
    let mut last = None;
    loop {
        let game = if color == Color::Black {
            if Instant::now() >= plan.until {
                return Ok(());
            }
            let game = create(client, plan, last.map_or(0, |n| n + 1)).await?;
            if !client.room.everyone_joined(game.number).await {
                return Err(Halt::RoomEnded);
            }
            game
        } else {
            let Some(game) = client.room.next_game(last).await else {
                return Ok(());
            };
            join(client, &game).await?;
            game
        };
        last = Some(game.number);
        play_game(client, color, &game, plan).await?;
        client
            .send(&ClientMsg::Leave {
                room: game.room.clone(),
            })
            .await?;
    }
}

/// Creates game `number` of the room and publishes it.
async fn create(client: &mut LoadClient, plan: &PlayPlan, number: u64) -> Result<Arc<Game>, Halt> {
    client
        .send(&ClientMsg::Create {
            game: spec(),
            seat: SeatChoice::Black,
            clock: None,
            opening: Vec::new(),
            bots: None,
            private: true,
            rated: false,
        })
        .await?;
    let created = client
        .expect(|m| matches!(m, ServerMsg::Created { .. }))
        .await?;
    let ServerMsg::Created { room } = created.msg else {
        return Err(Halt::Failed);
    };
    let moves = match game_path(plan.seed, client.room.index, number) {
        Ok(moves) => moves,
        Err(e) => {
            return Err(client.fail(super::failure::Failure {
                kind: format!("game_path: {e}"),
                hint: None,
            }))
        }
    };
    Ok(client.room.publish(Game {
        number,
        room,
        moves,
    }))
}

/// Takes the free seat of the published game and waits until it has started.
async fn join(client: &mut LoadClient, game: &Game) -> Result<(), Halt> {
    client
        .send(&ClientMsg::Join {
            room: game.room.clone(),
            join_as: JoinAs::Player,
        })
        .await?;
    client
        .expect(|m| {
            matches!(m, ServerMsg::State(s) if s.room == game.room && s.status == RoomStatus::Playing)
        })
        .await?;
    client.room.joined(game.number);
    Ok(())
}

/// Plays one game to its `over`.
async fn play_game(
    client: &mut LoadClient,
    color: Color,
    game: &Game,
    plan: &PlayPlan,
) -> Result<(), Halt> {
    if color == Color::Black {
        take_turn(client, game, 0, plan).await?;
    }
    loop {
        let received = client.next().await?;
        match received.msg {
            ServerMsg::Moved {
                room,
                ply,
                by,
                to_move,
                ..
            } if room == game.room => {
                if by != color {
                    client.room.opponent_received(game.number, ply, received.at);
                }
                if (ply as usize) < game.moves.len() && to_move == color {
                    take_turn(client, game, ply, plan).await?;
                }
            }
            ServerMsg::Over { room, result, .. } if room == game.room => {
                if color == Color::Black && result.reason != EndReason::Resign {
                    client.tally.game_finished();
                }
                return Ok(());
            }
            _ => {}
        }
    }
}

/// Thinks, then plays the move after `ply` moves — or resigns once the run is over.
async fn take_turn(
    client: &mut LoadClient,
    game: &Game,
    ply: u32,
    plan: &PlayPlan,
) -> Result<(), Halt> {
    if !plan.think.is_zero() {
        tokio::time::sleep(plan.think).await;
    }
    if Instant::now() >= plan.until {
        return client
            .send(&ClientMsg::Resign {
                room: game.room.clone(),
            })
            .await;
    }
    let Some(mv) = game.moves.get(ply as usize) else {
        return Ok(());
    };
    let msg = ClientMsg::Move {
        room: game.room.clone(),
        mv: mv.clone(),
        id: None,
    };
    client.room.sending(game.number, ply + 1, Instant::now());
    client.send(&msg).await
}
