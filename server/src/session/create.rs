//! `create`: the request is checked once into a [`RoomPlan`] (the opening played there, never
//! again), the room is stored and started, the creator joins it, and the seats promised to
//! bots are offered to them once the creator is in to hear the answer.

use std::net::IpAddr;

use game_core::protocol::{BotSeats, ClockSpec, SeatChoice, ServerMsg, BOT_LEVELS};
use game_core::{Color, GameSpec};

use crate::hub::SharedHub;
use crate::room::error::RoomError;
use crate::room::handle::{Actor, RoomCmd};
use crate::room::open_rooms::{Makers, NotOpened, OpenLimits};
use crate::room::plan::RoomPlan;
use crate::room::registry::create_room;
use crate::store::StoredSeat;

/// Room ids are 8 random characters.
const ROOM_ID_LEN: usize = 8;

/// A `create` as received.
#[derive(Debug)]
pub struct CreateRequest {
    pub game: GameSpec,
    pub seat: SeatChoice,
    pub clock: Option<ClockSpec>,
    pub opening: Vec<String>,
    pub bots: Option<BotSeats>,
    pub private: bool,
    pub rated: bool,
    /// The bot asked first for the bots' seats (a player challenged it by name).
    pub prefer_bot: Option<String>,
}

/// Makes the room of `request` for `me`, connected from `address`. Returns whether `me` sits
/// in it.
pub async fn create(
    hub: &SharedHub,
    me: &Actor,
    address: IpAddr,
    reference: &'static str,
    request: CreateRequest,
) -> Result<bool, RoomError> {
    let limits = &hub.config().limits;
    let plan = RoomPlan::new(
        request.game,
        request.clock,
        request.opening,
        limits.opening_max_moves,
    )?;
    let plan = if request.rated {
        // The creator needs an account even when not seated: a rated room is for accounts.
        if !me.player.account {
            return Err(RoomError::AccountNeeded);
        }
        let levels = request
            .bots
            .as_ref()
            .map(|b| [b.black, b.white])
            .unwrap_or_default();
        if levels
            .iter()
            .flatten()
            .any(|l| *l != crate::accounts::ratings::RATED_BOT_LEVEL)
        {
            return Err(RoomError::RatedBotLevel);
        }
        plan.rated()?
    } else {
        plan
    };
    let request_prefer = request.prefer_bot.clone();
    let bots = request.bots.unwrap_or_default();
    let levels = [bots.black, bots.white];
    if levels.iter().flatten().any(|l| !BOT_LEVELS.contains(l)) {
        return Err(RoomError::BadBotLevel);
    }
    let my_seat = creator_seat(request.seat, levels)?;
    let mut seats: [Option<StoredSeat>; 2] = [None, None];
    if let Some(c) = my_seat {
        seats[c.index()] = Some(StoredSeat {
            player: me.player.id.clone(),
            name: me.player.name.clone(),
            bot: me.player.bot,
            level: None,
        });
    }
    // Counted for the player and, so that new identities do not buy new rooms, for the
    // address: both limits are the hall's.
    let id = crate::token::random_id(ROOM_ID_LEN);
    let makers = Makers {
        player: Some(me.player.id.clone()),
        address: Some(address),
    };
    let open_limits = OpenLimits {
        per_player: limits.open_rooms_per_player,
        per_address: limits.open_rooms_per_address,
    };
    hub.open_rooms()
        .open(&id, &makers, open_limits)
        .await
        .map_err(|refused| match refused {
            NotOpened::Player(n) => RoomError::TooManyRooms(n),
            NotOpened::Address(n) => RoomError::TooManyRoomsFromAddress(n),
            NotOpened::Unavailable => RoomError::Unreachable,
        })?;
    let plan = plan
        .with_id(&id)
        .created_by(&me.player.id, request.private)
        .from_address(address)
        .seated(seats);
    let handle = match create_room(hub, plan).await {
        Ok(handle) => handle,
        Err(e) => {
            hub.open_rooms().closed(&id).await;
            return Err(e);
        }
    };
    me.link.send(&ServerMsg::Created {
        room: handle.id.clone(),
    });
    let join = RoomCmd::Join {
        who: me.clone(),
        as_player: my_seat.is_some(),
    };
    let _ = handle.tx.send(join).await;
    for (seat, level) in [Color::Black, Color::White].into_iter().zip(levels) {
        if let Some(level) = level {
            let invite = RoomCmd::InviteSeat {
                seat,
                level,
                prefer: request_prefer.clone(),
                requester: Some((me.link.clone(), reference)),
            };
            let _ = handle.tx.send(invite).await;
        }
    }
    Ok(my_seat.is_some())
}

/// The creator's seat: the one asked for, drawn for `random`, none for `none`. A seat promised
/// to a bot is refused, except that a `random` creator takes the other one.
fn creator_seat(choice: SeatChoice, levels: [Option<u8>; 2]) -> Result<Option<Color>, RoomError> {
    let seat = match choice {
        SeatChoice::Black => Color::Black,
        SeatChoice::White => Color::White,
        SeatChoice::None => return Ok(None),
        SeatChoice::Random => {
            if rand::random::<bool>() {
                Color::Black
            } else {
                Color::White
            }
        }
    };
    match (levels[seat.index()], levels[seat.other().index()]) {
        (None, _) => Ok(Some(seat)),
        (Some(_), None) if choice == SeatChoice::Random => Ok(Some(seat.other())),
        (Some(_), _) => Err(RoomError::SeatPromised),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_creator_never_takes_a_seat_promised_to_a_bot() {
        let white_bot = [None, Some(5)];
        assert_eq!(
            creator_seat(SeatChoice::Black, white_bot),
            Ok(Some(Color::Black))
        );
        assert_eq!(
            creator_seat(SeatChoice::White, white_bot),
            Err(RoomError::SeatPromised)
        );
        assert_eq!(creator_seat(SeatChoice::None, [Some(1), Some(2)]), Ok(None));
        for _ in 0..20 {
            assert_eq!(
                creator_seat(SeatChoice::Random, white_bot),
                Ok(Some(Color::Black))
            );
        }
        assert_eq!(
            creator_seat(SeatChoice::Random, [Some(1), Some(2)]),
            Err(RoomError::SeatPromised)
        );
    }
}
