//! Accounts: the names claimed (kept in memory, so that every guest's `hello` can be checked
//! against them without the store), the rules for names and passwords, and password hashing
//! (argon2id, on a blocking thread: a hash takes tens of milliseconds by design). The sign-in
//! guard is in [`guard`], the players known by id and token hash in [`players`], and ratings
//! with their one settlement in [`ratings`].

pub mod guard;
pub mod new_players;
pub mod players;
pub mod ratings;

use std::sync::OnceLock;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use dashmap::DashMap;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection};

use crate::store::{name_key, StoredAccount};

pub const NAME_MIN_CHARS: usize = 3;
pub const NAME_MAX_CHARS: usize = 20;
pub const PASSWORD_MIN_CHARS: usize = 8;
/// Long enough for any passphrase, short enough that hashing it costs no more than usual.
pub const PASSWORD_MAX_CHARS: usize = 128;

/// Why a name or password is refused (the sentence is the answer's).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountRuleError {
    #[error(
        "a name is {NAME_MIN_CHARS} to {NAME_MAX_CHARS} characters: letters, digits, '_' and '-'"
    )]
    BadName,
    #[error(
        "a name mixes scripts that look alike (Latin with Cyrillic, say): write it in one script"
    )]
    MixedScripts,
    #[error("a password is {PASSWORD_MIN_CHARS} to {PASSWORD_MAX_CHARS} characters")]
    BadPassword,
}

/// Checks a name to claim and returns it as it is kept: NFKC-normalised (full-width and
/// composed forms are one name), 3 to 20 letters or digits of any
/// language, `_` and `-`, in one script or a usual mix (Latin with Han, Kana or Hangul: Unicode
/// TR39's "highly restrictive" level), so that no name mixes look-alikes from two scripts.
pub fn check_name(name: &str) -> Result<String, AccountRuleError> {
    let name: String = name.nfkc().collect();
    let well_formed = (NAME_MIN_CHARS..=NAME_MAX_CHARS).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if !well_formed {
        return Err(AccountRuleError::BadName);
    }
    if !name
        .as_str()
        .check_restriction_level(RestrictionLevel::HighlyRestrictive)
    {
        return Err(AccountRuleError::MixedScripts);
    }
    Ok(name)
}

pub fn check_password(password: &str) -> Result<(), AccountRuleError> {
    if (PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&password.chars().count()) {
        Ok(())
    } else {
        Err(AccountRuleError::BadPassword)
    }
}

/// The PHC string of `password` (argon2id with the crate's default cost and a fresh salt).
pub async fn hash_password(password: String) -> Result<String, String> {
    let _slot = hashing_slots().acquire().await.map_err(|e| e.to_string())?;
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| e.to_string())
    })
    .await
    .map_err(|e| e.to_string())?
}

/// A hash of no one's password, verified against when the name has no account: a sign-in
/// under an unknown name takes as long as one under a known name.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        Argon2::default()
            .hash_password(b"no account has this password")
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Whether `password` matches the PHC string `hash` (`None`: no account, checked against a
/// decoy all the same, and false).
pub async fn verify_password(hash: Option<String>, password: String) -> bool {
    let Ok(_slot) = hashing_slots().acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || {
        let real = hash.is_some();
        let hash = hash.unwrap_or_else(|| decoy_hash().to_string());
        let matches = PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        });
        real && matches
    })
    .await
    .unwrap_or(false)
}

/// The confusable skeleton of a name (Unicode TR39), taken of its lower case: two names with
/// one skeleton look alike (`аlice`, with a Cyrillic `а`, and `alice`; `rn` and `m`).
#[must_use]
pub fn name_skeleton(name: &str) -> String {
    let lower = name.to_lowercase();
    unicode_security::confusable_detection::skeleton(&lower).collect()
}

/// Password hashes computed at once, server-wide: each takes tens of milliseconds of a core
/// and 19 MiB, so a burst of sign-ins queues here instead of taking every core and the
/// blocking pool that store reads also use.
fn hashing_slots() -> &'static tokio::sync::Semaphore {
    static SLOTS: OnceLock<tokio::sync::Semaphore> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        tokio::sync::Semaphore::new(cores)
    })
}

/// An account as the server keeps it in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnownAccount {
    pub player: String,
    pub name: String,
    pub bot: bool,
}

/// Accounts by name and by player.
#[derive(Default)]
pub struct Accounts {
    by_key: DashMap<String, KnownAccount>,
    by_player: DashMap<String, String>,
    /// Name keys by their confusable skeleton.
    by_skeleton: DashMap<String, String>,
}

impl Accounts {
    pub fn insert(&self, account: &StoredAccount) {
        let known = KnownAccount {
            player: account.player.clone(),
            name: account.name.clone(),
            bot: account.bot,
        };
        self.by_player
            .insert(account.player.clone(), name_key(&account.name));
        self.by_skeleton
            .insert(name_skeleton(&account.name), name_key(&account.name));
        self.by_key.insert(name_key(&account.name), known);
    }

    /// A moderator renamed `player`'s account: its old name is free from now on.
    pub fn renamed(&self, player: &str, name: &str) {
        let Some(known) = self.of_player(player) else {
            return;
        };
        let old_key = name_key(&known.name);
        self.by_key.remove(&old_key);
        self.by_skeleton
            .remove_if(&name_skeleton(&known.name), |_, key| *key == old_key);
        self.insert(&StoredAccount {
            player: known.player,
            name: name.to_string(),
            password_hash: None,
            bot: known.bot,
            created_ms: 0,
        });
    }

    /// The account whose name looks like `name` (the same confusable skeleton), as this
    /// server knows it.
    #[must_use]
    pub fn looking_like(&self, name: &str) -> Option<KnownAccount> {
        let key = self.by_skeleton.get(&name_skeleton(name))?.clone();
        self.by_key.get(&key).map(|a| a.clone())
    }

    /// The account named `name` (case-insensitively), as this server knows it.
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<KnownAccount> {
        self.by_key.get(&name_key(name)).map(|a| a.clone())
    }

    /// The account of `player`, as this server knows it.
    #[must_use]
    pub fn of_player(&self, player: &str) -> Option<KnownAccount> {
        let key = self.by_player.get(player)?.clone();
        self.by_key.get(&key).map(|a| a.clone())
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_follow_the_rules() {
        assert_eq!(check_name("Alice_9-x"), Ok("Alice_9-x".into()));
        assert_eq!(check_name("al"), Err(AccountRuleError::BadName));
        assert_eq!(check_name(&"a".repeat(21)), Err(AccountRuleError::BadName));
        assert_eq!(check_name("Al ice"), Err(AccountRuleError::BadName));
        assert_eq!(check_name("Al<b>"), Err(AccountRuleError::BadName));
        // Letters and digits of any language, in one script or a usual mix.
        for name in [
            "棋手小王",
            "Алиса",
            "Ζωή_7",
            "김민준",
            "さくら-Go",
            "Kibo小王",
        ] {
            assert_eq!(check_name(name).as_deref(), Ok(name), "{name}");
        }
        // Kept NFKC: full-width letters and digits are the usual ones.
        assert_eq!(check_name("Ａｌｉｃｅ１"), Ok("Alice1".into()));
        // Look-alikes of two scripts: a Cyrillic а among Latin letters.
        assert_eq!(
            check_name("\u{430}lice"),
            Err(AccountRuleError::MixedScripts)
        );
        assert_eq!(check_name("Αlice"), Err(AccountRuleError::MixedScripts));
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
        assert!(check_password(&"x".repeat(129)).is_err());
    }

    #[tokio::test]
    async fn a_password_verifies_against_its_hash_only() {
        let hash = hash_password("correct horse".into()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password(Some(hash.clone()), "correct horse".into()).await);
        assert!(!verify_password(Some(hash), "correct horsE".into()).await);
        // No account: false, after the same work.
        assert!(!verify_password(None, "no account has this password".into()).await);
    }

    #[test]
    fn names_are_one_whatever_their_case() {
        let accounts = Accounts::default();
        accounts.insert(&StoredAccount {
            player: "p1".into(),
            name: "Alice".into(),
            password_hash: None,
            bot: false,
            created_ms: 0,
        });
        assert_eq!(accounts.by_name("aLICE").unwrap().player, "p1");
        assert_eq!(accounts.of_player("p1").unwrap().name, "Alice");
        assert!(accounts.by_name("Bob").is_none());
    }

    #[test]
    fn a_name_that_only_looks_like_an_account_s_is_found_by_its_skeleton() {
        let accounts = Accounts::default();
        accounts.insert(&StoredAccount {
            player: "p1".into(),
            name: "Alice_OK".into(),
            password_hash: None,
            bot: false,
            created_ms: 0,
        });
        // A Cyrillic а, and a Cyrillic о and Latin capital K.
        for like in ["\u{430}lice_ok", "ALICE_\u{41e}K", "alice_ok"] {
            assert_eq!(accounts.looking_like(like).unwrap().player, "p1", "{like}");
        }
        assert!(accounts.looking_like("alice_ox").is_none());
        assert_eq!(name_skeleton("rnike"), name_skeleton("mike"));
    }
}
