//! A spectator of a load room: joins each game as it is published, reports every `moved` it
//! receives (the last spectator to receive a move times it), and leaves at the `over`.

use game_core::protocol::{ClientMsg, JoinAs, ServerMsg};

use super::client::{Halt, LoadClient};

/// Watches the room's games until the room ends.
pub async fn watch(mut client: LoadClient) {
    let _ = watch_games(&mut client).await;
}

async fn watch_games(client: &mut LoadClient) -> Result<(), Halt> {
    let mut last = None;
    while let Some(game) = client.room.next_game(last).await {
        last = Some(game.number);
        client
            .send(&ClientMsg::Join {
                room: game.room.clone(),
                join_as: JoinAs::Spectator,
            })
            .await?;
        client
            .expect(|m| matches!(m, ServerMsg::State(s) if s.room == game.room))
            .await?;
        client.room.joined(game.number);
        loop {
            let received = client.next().await?;
            match received.msg {
                ServerMsg::Moved { room, ply, .. } if room == game.room => {
                    client
                        .room
                        .spectator_received(game.number, ply, received.at);
                }
                ServerMsg::Over { room, .. } if room == game.room => break,
                _ => {}
            }
        }
        client
            .send(&ClientMsg::Leave {
                room: game.room.clone(),
            })
            .await?;
    }
    Ok(())
}
