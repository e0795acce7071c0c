//! `hello`: who a connection is. A known token resumes its player under the name given now; no
//! token makes a new player with a fresh token. The player is stored before the `welcome`. A
//! bot (the bot key, compared in constant time) is also registered with what it plays; a house
//! client (the server's own, such as the showcase; the same key) is marked so that rooms do not
//! count it among their spectators.

use std::net::IpAddr;

use game_core::protocol::{BotHello, HouseHello};

use super::error::SessionError;
use crate::accounts::new_players::NotAdmitted;
use crate::accounts::players::PlayerRecord;
use crate::accounts::KnownAccount;
use crate::hub::Hub;
use crate::room::member::MemberLink;
use crate::store::{StoredAccount, StoredPlayer, Write};
use crate::token;

/// Who a `hello` made the connection.
#[derive(Debug)]
pub struct Welcome {
    pub player: PlayerRecord,
    /// The secret to hand back, once, in `welcome`.
    pub token: String,
}

/// Whether `key` is the server's bot key (none set: nothing is).
fn bot_key_ok(hub: &Hub, key: &str) -> bool {
    hub.config()
        .bot_key
        .as_deref()
        .is_some_and(|k| token::constant_time_eq(k.as_bytes(), key.as_bytes()))
}

/// In a cluster, a token another node made: the store knows it. On one node every player
/// is in memory, and an unknown token is bad.
/// A token made by a sign-in is in the store alone until its first `hello`.
async fn stored_player(hub: &Hub, hash: &str) -> Result<PlayerRecord, SessionError> {
    match hub.store().player_by_token(hash).await {
        Ok(Some(p)) => Ok(PlayerRecord {
            id: p.id,
            name: p.name,
            bot: p.bot,
            account: false,
        }),
        Ok(None) => Err(SessionError::BadToken),
        Err(e) => {
            tracing::error!(error = %e, "reading a player from the store failed");
            Err(SessionError::PlayerNotStored)
        }
    }
}

/// The account of `player`: this server's memory, and in a cluster the store (another node
/// may have made it).
async fn account_of(hub: &Hub, player: &str) -> Result<Option<KnownAccount>, SessionError> {
    if let Some(known) = hub.accounts().of_player(player) {
        return Ok(Some(known));
    }
    if !hub.coord().accounts_made_elsewhere() {
        return Ok(None);
    }
    match hub.store().account_of(player).await {
        Ok(found) => Ok(found.map(|a| {
            hub.accounts().insert(&a);
            hub.accounts().of_player(player).expect("just inserted")
        })),
        Err(e) => {
            tracing::error!(error = %e, "reading an account failed");
            Err(SessionError::PlayerNotStored)
        }
    }
}

/// The account named `name` (case-insensitively), looked up as [`account_of`] does.
async fn account_named(hub: &Hub, name: &str) -> Result<Option<KnownAccount>, SessionError> {
    if let Some(known) = hub.accounts().by_name(name) {
        return Ok(Some(known));
    }
    if !hub.coord().accounts_made_elsewhere() {
        return Ok(None);
    }
    match hub.store().account_by_name(name).await {
        Ok(found) => Ok(found.map(|a| {
            hub.accounts().insert(&a);
            hub.accounts().by_name(name).expect("just inserted")
        })),
        Err(e) => {
            tracing::error!(error = %e, "reading an account failed");
            Err(SessionError::PlayerNotStored)
        }
    }
}

/// Registers a bot (which holds the bot key: the operator's) as an account under its name,
/// so that it can play rated games. A name another player holds leaves the bot without one:
/// it still plays, unrated (two bot processes under one name, say).
async fn register_bot(hub: &Hub, player: &PlayerRecord) -> bool {
    if crate::accounts::check_name(&player.name).as_deref() != Ok(player.name.as_str()) {
        tracing::warn!(bot = %player.name, "a bot's name is not an account name: it plays unrated");
        return false;
    }
    let account = StoredAccount {
        player: player.id.clone(),
        name: player.name.clone(),
        password_hash: None,
        bot: true,
        created_ms: crate::room::change::Moment::now().unix_ms,
    };
    match hub.store().write(Write::NewAccount(account.clone())).await {
        Ok(()) => {
            hub.account_made(&account);
            true
        }
        Err(e) => {
            tracing::warn!(bot = %player.name, error = %e, "the bot has no account: it plays unrated");
            false
        }
    }
}

/// Checks a `hello` from `address`, stores the player and registers a bot. A new player
/// (no token) counts against the address's new players; a bot or a house client, which holds
/// the key, does not.
pub async fn hello(
    hub: &Hub,
    link: &MemberLink,
    address: IpAddr,
    name: &str,
    token: Option<String>,
    bot: Option<BotHello>,
    house: Option<HouseHello>,
) -> Result<Welcome, SessionError> {
    let limits = &hub.config().limits;
    let name = name.trim();
    if name.is_empty()
        || name.chars().count() > limits.name_max_chars
        || name.chars().any(char::is_control)
    {
        return Err(SessionError::BadName(limits.name_max_chars));
    }
    // Only the key makes a house client: anyone else who could hide from the spectator count
    // would make it lie.
    if house.as_ref().is_some_and(|h| !bot_key_ok(hub, &h.key)) {
        return Err(SessionError::BadBotKey);
    }
    if let Some(b) = &bot {
        if !bot_key_ok(hub, &b.key) {
            return Err(SessionError::BadBotKey);
        }
        if b.games.is_empty() || b.capacity == 0 || b.capacity > limits.bot_capacity_max {
            return Err(SessionError::BadBotHello(limits.bot_capacity_max));
        }
    }
    // A sign-out that lands while this hello waits on the store must not be undone by it
    // recording the token again below.
    let sign_outs = hub.players().sign_outs();
    let token_given = token.is_some();
    let (mut player, token, token_hash) = match token {
        Some(token) => {
            let hash = token::token_hash(&token);
            let player = match hub.players().by_token(&hash) {
                Some(player) => player,
                None => stored_player(hub, &hash).await?,
            };
            (player, token, hash)
        }
        None => {
            if bot.is_none() && house.is_none() {
                match hub.admit_new_player(address).await {
                    Ok(()) => {}
                    Err(NotAdmitted::Spent(_)) => {
                        return Err(SessionError::TooManyNewPlayers(
                            limits.new_players_per_address,
                            limits.new_players_window.as_secs(),
                        ))
                    }
                    Err(NotAdmitted::Unavailable) => return Err(SessionError::NewPlayersUncounted),
                }
            }
            let token = token::new_token();
            let hash = token::token_hash(&token);
            let player = PlayerRecord {
                id: token::random_id(10),
                name: String::new(),
                bot: false,
                account: false,
            };
            (player, token, hash)
        }
    };
    // A banned player, or a closed account, is told why and until when, and not let in.
    crate::moderation::sanctions::may_enter(hub, &player.id).map_err(SessionError::Sanctioned)?;
    player.name = name.to_string();
    player.bot = bot.is_some();
    match account_of(hub, &player.id).await? {
        // An account's player goes by the account's name, whatever the hello says.
        Some(account) => {
            player.name = account.name;
            player.account = true;
        }
        None => {
            player.account = false;
            if let Some(owner) = account_named(hub, &player.name).await? {
                if owner.player != player.id && bot.is_none() {
                    return Err(SessionError::NameTaken);
                }
            } else if let Some(owner) = hub.accounts().looking_like(&player.name) {
                // Not the account's name, but one that reads the same on screen.
                if owner.player != player.id && bot.is_none() {
                    return Err(SessionError::NameLooksTaken);
                }
            }
        }
    }
    let stored = StoredPlayer {
        id: player.id.clone(),
        name: player.name.clone(),
        token_hash: token_hash.clone(),
        bot: player.bot,
    };
    if let Err(e) = hub.store().write(Write::Player(stored)).await {
        tracing::error!(error = %e, "storing a player failed");
        return Err(SessionError::PlayerNotStored);
    }
    if bot.is_some() && !player.account {
        player.account = register_bot(hub, &player).await;
    }
    let mut seen = sign_outs;
    while token_given && hub.players().sign_outs() != seen {
        // The store has dropped a signed-out token before any node forgets it, so a read
        // begun after the forgetting says whether this token is still good.
        seen = hub.players().sign_outs();
        stored_player(hub, &token_hash).await?;
    }
    // No await between the last check and recording the token.
    hub.players().connected(player.clone(), token_hash);
    hub.links().connected(&player.id, link.clone());
    // An account's blocks, known here from its first message on.
    if player.account {
        crate::moderation::blocks::ensure(hub, &player.id).await;
    }
    if house.is_some() {
        link.mark_house();
    }
    if let Some(b) = bot {
        if let MemberLink::Local(conn) = link {
            hub.coord().bot_here(conn.id, &player, &b.games, b.capacity);
        }
        hub.bots()
            .connected(&player, b.games, b.capacity, link.clone());
    }
    Ok(Welcome { player, token })
}
