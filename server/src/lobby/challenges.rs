//! Challenges (docs/protocol.md "Challenges"): a player asks a person who is online to a game.
//! The open challenges live on the challenger's node, under an id that names it
//! (`<random>@<node>`), so that a reply from any node goes there; the challenged person's
//! connections hear of it wherever they are. At most [`MAX_OPEN`] a challenger, each open for
//! [`LIFETIME`] at most, and none past its challenger's connection. A person who blocked the
//! challenger never hears of it.

use game_core::protocol::{
    BotSeats, ChallengeColor, ChallengeEnd, Challenger, ClockSpec, DeclineReason, SeatChoice,
    ServerMsg,
};
use game_core::{Color, GameSpec};
use tokio::time::Instant;

use crate::cluster::BusMsg;
use crate::hub::SharedHub;
use crate::lobby::pairing::{join_both, seat};
use crate::moderation::blocks;
use crate::refusal::{error_reply, About};
use crate::room::handle::Actor;
use crate::room::member::MemberLink;
use crate::room::plan::{check_game, RoomPlan};
use crate::room::registry::create_room;

use super::open_challenges::Open;
pub use super::open_challenges::{ChallengeRefusal, Challenges, Terms, LIFETIME, MAX_OPEN};

/// Sends `msg` to every connection of `player` in the hall but `except` (0: none): this
/// node's alone, every node's through the bus in a cluster.
pub fn tell_player(hub: &SharedHub, player: &str, msg: &ServerMsg, except: u64) {
    let coord = hub.coord();
    if coord.is_alone() {
        deliver_here(hub, player, &msg.to_json(), except);
    } else {
        coord.send_everyone(&BusMsg::ToPlayer {
            player: player.to_string(),
            text: msg.to_json(),
            except,
        });
    }
}

/// A frame for this node's own connections of `player` but `except`.
pub fn deliver_here(hub: &SharedHub, player: &str, text: &str, except: u64) {
    let shared = crate::net::connection::SharedText::from(text);
    for link in hub.links().of(player) {
        if let MemberLink::Local(conn) = &link {
            if conn.id != except {
                link.send_text(&shared);
            }
        }
    }
}

/// The bot account `to` names (by name or player id), if it is one.
#[must_use]
pub fn bot_named(hub: &SharedHub, to: &str) -> Option<String> {
    hub.accounts()
        .by_name(to)
        .or_else(|| hub.accounts().of_player(to))
        .filter(|a| a.bot)
        .map(|a| a.player)
}

/// The level a challenged bot plays at when the challenge names none.
pub const CHALLENGED_BOT_LEVEL: u8 = 5;

/// The room a challenge to bot `bot` makes: the challenger on the colour asked (drawn for
/// `random`), the bot invited to the other seat, first of all bots.
#[must_use]
pub fn bot_game(
    bot: String,
    game: GameSpec,
    clock: Option<ClockSpec>,
    color: ChallengeColor,
    rated: bool,
    level: Option<u8>,
) -> crate::session::create::CreateRequest {
    let mine = match color {
        ChallengeColor::Black => Color::Black,
        ChallengeColor::White => Color::White,
        ChallengeColor::Random => {
            if rand::random::<bool>() {
                Color::Black
            } else {
                Color::White
            }
        }
    };
    let default = if rated {
        crate::accounts::ratings::RATED_BOT_LEVEL
    } else {
        CHALLENGED_BOT_LEVEL
    };
    let level = Some(level.unwrap_or(default));
    let (seat, bots) = match mine {
        Color::Black => (
            SeatChoice::Black,
            BotSeats {
                black: None,
                white: level,
            },
        ),
        Color::White => (
            SeatChoice::White,
            BotSeats {
                black: level,
                white: None,
            },
        ),
    };
    crate::session::create::CreateRequest {
        game,
        seat,
        clock,
        opening: Vec::new(),
        bots: Some(bots),
        private: false,
        rated,
        prefer_bot: Some(bot),
    }
}

/// `challenge`: checked, kept open here, and told to the challenged person — unless that
/// person has blocked the challenger, who is not told so: the challenge just expires.
pub async fn challenge(
    hub: &SharedHub,
    me: &Actor,
    to: &str,
    terms: Terms,
) -> Result<(), ChallengeRefusal> {
    check_game(&terms.game, terms.clock.as_ref())?;
    let account = hub.accounts().by_name(to);
    if account.as_ref().is_some_and(|a| a.bot) {
        return Err(ChallengeRefusal::Bot(to.to_string()));
    }
    let target = account.map_or_else(|| to.to_string(), |a| a.player);
    if target == me.player.id {
        return Err(ChallengeRefusal::Yourself);
    }
    if terms.rated
        && (hub.accounts().of_player(&me.player.id).is_none()
            || hub.accounts().of_player(&target).is_none())
    {
        return Err(ChallengeRefusal::RatedNeedsAccounts);
    }
    // Alone, the hall is this node: a person with no connection here is not online. In a
    // cluster the challenge goes to every node, and expires if nobody is there.
    if hub.coord().is_alone() && hub.links().of(&target).is_empty() {
        return Err(ChallengeRefusal::NotOnline(to.to_string()));
    }
    blocks::ensure(hub, &me.player.id).await;
    if hub.blocks().has_blocked(&me.player.id, &target) {
        return Err(ChallengeRefusal::YouBlocked(to.to_string()));
    }
    let blocked = blocks::between(hub, &me.player.id, &target).await;
    let id = format!("{}@{}", crate::token::random_id(8), hub.coord().node());
    let told = ServerMsg::Challenged {
        challenge: id.clone(),
        from: Challenger {
            player: me.player.id.clone(),
            name: me.player.name.clone(),
        },
        game: terms.game.clone(),
        clock: terms.clock,
        color: terms.color,
        rated: terms.rated,
    };
    let open = Open {
        from: me.clone(),
        to_player: target.clone(),
        terms,
        expires: Instant::now() + LIFETIME,
    };
    hub.challenges().add(id.clone(), open)?;
    me.link.send(&ServerMsg::ChallengeSent {
        challenge: id,
        to: to.to_string(),
    });
    if !blocked {
        tell_player(hub, &target, &told, 0);
    }
    Ok(())
}

/// `challenge_reply` from `me`: answered here, or passed to the challenger's node.
pub async fn reply(
    hub: &SharedHub,
    me: &Actor,
    challenge: &str,
    accept: bool,
    reason: DeclineReason,
) -> Result<(), ChallengeRefusal> {
    let node = challenge.rsplit_once('@').map_or("", |(_, n)| n);
    let coord = hub.coord();
    if node == coord.node() {
        answer(hub, me.clone(), challenge, accept, reason).await;
        return Ok(());
    }
    let msg = BusMsg::ChallengeReply {
        challenge: challenge.to_string(),
        accept,
        reason,
        node: coord.node().to_string(),
        conn: me.link.id(),
        player: me.player.clone(),
    };
    if coord.is_alone() {
        return Err(ChallengeRefusal::Gone);
    }
    if !coord.send(node, &msg) {
        return Err(ChallengeRefusal::Unreachable);
    }
    Ok(())
}

/// A reply reached the challenger's node (this one): the challenge is declined, or its room
/// made with both seated.
pub async fn answer(
    hub: &SharedHub,
    by: Actor,
    challenge: &str,
    accept: bool,
    reason: DeclineReason,
) {
    let refuse = |why: &ChallengeRefusal| {
        by.link
            .send(&error_reply(hub.metrics(), why, About::default()));
    };
    let Some(open) = hub
        .challenges()
        .take_if(challenge, |o| o.to_player == by.player.id)
    else {
        return refuse(&ChallengeRefusal::Gone);
    };
    let why = if accept {
        ChallengeEnd::Accepted
    } else {
        ChallengeEnd::Declined
    };
    let gone = ServerMsg::ChallengeGone {
        challenge: challenge.to_string(),
        why,
    };
    tell_player(hub, &open.to_player, &gone, by.link.id());
    if !accept {
        open.from.link.send(&ServerMsg::ChallengeDeclined {
            challenge: challenge.to_string(),
            by: by.player.name.clone(),
            reason,
            message: format!("{} declined: {}", by.player.name, reason.words()),
        });
        return;
    }
    if let Err(e) = start(hub, open.from.clone(), by.clone(), &open.terms).await {
        refuse(&e);
        open.from
            .link
            .send(&error_reply(hub.metrics(), &e, About::default()));
    }
}

/// The accepted challenge's room, both seated as asked, both joined.
async fn start(
    hub: &SharedHub,
    from: Actor,
    to: Actor,
    terms: &Terms,
) -> Result<(), ChallengeRefusal> {
    let challenger_black = match terms.color {
        ChallengeColor::Black => true,
        ChallengeColor::White => false,
        ChallengeColor::Random => rand::random::<bool>(),
    };
    let seats = if challenger_black {
        [seat(&from.player), seat(&to.player)]
    } else {
        [seat(&to.player), seat(&from.player)]
    };
    let mut plan = RoomPlan::new(terms.game.clone(), terms.clock, Vec::new(), 0)?;
    if terms.rated {
        plan = plan.rated()?;
    }
    let handle = create_room(hub, plan.seated(seats)).await?;
    join_both(&handle, [from, to]).await;
    Ok(())
}

/// `challenge_cancel`: the challenger withdraws an open challenge of its own.
pub fn cancel(hub: &SharedHub, me: &Actor, challenge: &str) -> Result<(), ChallengeRefusal> {
    let open = hub
        .challenges()
        .take_if(challenge, |o| o.from.player.id == me.player.id)
        .ok_or(ChallengeRefusal::Gone)?;
    gone(hub, challenge, &open, ChallengeEnd::Cancelled);
    Ok(())
}

fn gone(hub: &SharedHub, challenge: &str, open: &Open, why: ChallengeEnd) {
    let msg = ServerMsg::ChallengeGone {
        challenge: challenge.to_string(),
        why,
    };
    tell_player(hub, &open.to_player, &msg, 0);
}

/// A connection closed: its open challenges are gone.
pub fn conn_closed(hub: &SharedHub, conn_id: u64) {
    for (id, open) in hub.challenges().take_where(|o| o.from.link.id() == conn_id) {
        gone(hub, &id, &open, ChallengeEnd::Left);
    }
}

/// The periodic sweep: challenges past their time are gone, for both sides.
pub fn sweep(hub: &SharedHub) {
    let now = Instant::now();
    for (id, open) in hub.challenges().take_where(|o| o.expires <= now) {
        gone(hub, &id, &open, ChallengeEnd::Expired);
        open.from.link.send(&ServerMsg::ChallengeGone {
            challenge: id,
            why: ChallengeEnd::Expired,
        });
    }
}
