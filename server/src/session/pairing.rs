//! `seek`, quick pairing: two players who seek the same game and clock get a new room with
//! both seats taken (colours drawn), which starts at once.

use game_core::protocol::{ClockSpec, ServerMsg};
use game_core::GameSpec;

use crate::hub::SharedHub;
use crate::players::PlayerRecord;
use crate::room::actor::create_room;
use crate::room::error::RoomError;
use crate::room::plan::{check_game, RoomPlan};
use crate::room_handle::{Actor, RoomCmd};
use crate::seeks::Pairing;
use crate::store::StoredSeat;

fn seat(p: &PlayerRecord) -> Option<StoredSeat> {
    Some(StoredSeat {
        player: p.id.clone(),
        name: p.name.clone(),
        bot: p.bot,
        level: None,
    })
}

/// Pairs `me` with a waiting player, or makes `me` wait (`seeking`).
pub async fn seek(
    hub: &SharedHub,
    me: &Actor,
    game: GameSpec,
    clock: Option<ClockSpec>,
) -> Result<(), RoomError> {
    check_game(&game, clock.as_ref())?;
    let opponent = match hub.seeks.seek(&game, clock, &me.player, &me.link) {
        Pairing::Waiting(seek) => {
            me.link.send(&ServerMsg::Seeking { seek });
            return Ok(());
        }
        Pairing::With(opponent) => Actor {
            link: opponent.link,
            player: opponent.player,
        },
    };
    let seats = if rand::random::<bool>() {
        [seat(&me.player), seat(&opponent.player)]
    } else {
        [seat(&opponent.player), seat(&me.player)]
    };
    let plan = RoomPlan::new(game, clock, Vec::new(), 0)?.seated(seats);
    let handle = create_room(hub, plan).await?;
    for who in [opponent, me.clone()] {
        who.link.send(&ServerMsg::Created {
            room: handle.id.clone(),
        });
        let _ = handle
            .tx
            .send(RoomCmd::Join {
                who,
                as_player: true,
            })
            .await;
    }
    Ok(())
}
