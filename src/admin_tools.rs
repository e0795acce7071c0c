//! `kibitz admin …`: the operator's commands against a hall's store, run beside its server
//! (SQLite takes a second writer; PostgreSQL many): granting an account the moderator's role.

use std::path::PathBuf;

use clap::Subcommand;
use kibitz_server::metrics::Metrics;
use kibitz_server::store::{Store, Write};

#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// Make the account NAME a moderator: it sees the players' reports
    /// (`/api/moderation/reports`). Takes effect at once on every node.
    GrantModerator {
        /// The account's name.
        name: String,
        /// Directory of the SQLite store.
        #[arg(long, env = "KIBITZ_DATA", default_value = "./kibitz-data")]
        data: PathBuf,
        /// The PostgreSQL store instead: a postgres:// URL.
        #[arg(long, env = "KIBITZ_STORE", hide_env_values = true, value_name = "URL")]
        store: Option<String>,
    },
}

pub async fn run(command: AdminCommand) -> anyhow::Result<()> {
    match command {
        AdminCommand::GrantModerator { name, data, store } => {
            let store = match store.filter(|url| !url.is_empty()) {
                Some(url) => Store::open_postgres(&url, Metrics::new()).await?,
                None => Store::open_sqlite(&data, Metrics::new())?,
            };
            let Some(account) = store.account_by_name(&name).await? else {
                anyhow::bail!("no account is named {name:?}");
            };
            let at_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)?
                .as_millis() as u64;
            store
                .write(Write::GrantModerator {
                    player: account.player.clone(),
                    at_ms,
                })
                .await?;
            println!(
                "{} (player {}) is a moderator",
                account.name, account.player
            );
            Ok(())
        }
    }
}
