//! `hello`: who a connection is. A known token resumes its player under the name given now; no
//! token makes a new player with a fresh token. The player is stored before the `welcome`. A
//! bot (the bot key, compared in constant time) is also registered with what it plays.

use game_core::protocol::BotHello;

use super::error::SessionError;
use crate::hub::Hub;
use crate::member::MemberLink;
use crate::players::PlayerRecord;
use crate::store::{StoredPlayer, Write};
use crate::token;

/// Who a `hello` made the connection.
#[derive(Debug)]
pub struct Welcome {
    pub player: PlayerRecord,
    /// The secret to hand back, once, in `welcome`.
    pub token: String,
}

/// Checks a `hello`, stores the player and registers a bot.
pub async fn hello(
    hub: &Hub,
    link: &MemberLink,
    name: &str,
    token: Option<String>,
    bot: Option<BotHello>,
) -> Result<Welcome, SessionError> {
    let limits = &hub.config.limits;
    let name = name.trim();
    if name.is_empty()
        || name.chars().count() > limits.name_max_chars
        || name.chars().any(char::is_control)
    {
        return Err(SessionError::BadName(limits.name_max_chars));
    }
    if let Some(b) = &bot {
        let key_ok = hub
            .config
            .bot_key
            .as_deref()
            .is_some_and(|k| token::constant_time_eq(k.as_bytes(), b.key.as_bytes()));
        if !key_ok {
            return Err(SessionError::BadBotKey);
        }
        if b.games.is_empty() || b.capacity == 0 || b.capacity > limits.bot_capacity_max {
            return Err(SessionError::BadBotHello(limits.bot_capacity_max));
        }
    }
    let (mut player, token, token_hash) = match token {
        Some(token) => {
            let hash = token::token_hash(&token);
            let player = hub.players.by_token(&hash).ok_or(SessionError::BadToken)?;
            (player, token, hash)
        }
        None => {
            let token = token::new_token();
            let hash = token::token_hash(&token);
            let player = PlayerRecord {
                id: token::random_id(10),
                name: String::new(),
                bot: false,
            };
            (player, token, hash)
        }
    };
    player.name = name.to_string();
    player.bot = bot.is_some();
    let stored = StoredPlayer {
        id: player.id.clone(),
        name: player.name.clone(),
        token_hash: token_hash.clone(),
        bot: player.bot,
    };
    if let Err(e) = hub.store.write(Write::Player(stored)).await {
        tracing::error!(error = %e, "storing a player failed");
        return Err(SessionError::PlayerNotStored);
    }
    hub.players.insert(player.clone(), token_hash);
    if let Some(b) = bot {
        hub.bots
            .connected(&player, b.games, b.capacity, link.clone());
    }
    Ok(Welcome { player, token })
}
