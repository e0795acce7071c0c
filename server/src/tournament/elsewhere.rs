//! In a cluster, the games of tournaments another node directs, as this node hears of them
//! from the director (`BusMsg::TournamentGame`, every second while a game goes on): each is
//! marked a tournament game here (so that a room of it that runs here refuses `abort` and
//! scores an abandonment as a loss), and each connection here of its players that is not in
//! the room is told once, as the director tells its own: `created`, and seated in the room.
//! A game whose word stops coming is forgotten after `registry::ELSEWHERE_FORGOTTEN`.

use tokio::time::Instant;

use game_core::protocol::ServerMsg;

use crate::accounts::players::PlayerRecord;
use crate::hub::SharedHub;
use crate::room::handle::{Actor, RoomCmd};
use crate::room::member::MemberLink;

/// The director of `tournament` on another node told of its game in `room` between
/// `players` (id and name).
pub async fn heard(hub: &SharedHub, tournament: &str, room: &str, players: &[(String, String)]) {
    if hub.tournaments().is_directed(tournament) {
        // Directed here: the director tells this node's connections itself.
        return;
    }
    hub.tournaments()
        .heard_elsewhere(room, tournament, Instant::now());
    for (player, name) in players {
        for link in hub.links().of(player) {
            let in_room = matches!(&link, MemberLink::Local(conn) if conn.is_in(room));
            if in_room || !hub.tournaments().tell_elsewhere(room, link.id()) {
                continue;
            }
            link.send(&ServerMsg::Created {
                room: room.to_string(),
            });
            let who = Actor {
                link,
                player: PlayerRecord {
                    id: player.clone(),
                    name: name.clone(),
                    bot: false,
                    account: true,
                },
            };
            let join = RoomCmd::Join {
                who,
                as_player: true,
            };
            if let Err(e) = crate::room::relay::to_room(hub, room, join).await {
                tracing::warn!(room, error = %e, "seating a tournament player failed");
            }
        }
    }
}
