//! Accounts: the names claimed (kept in memory, so that every guest's `hello` can be checked
//! against them without the store), the rules for names and passwords, password hashing
//! (argon2id, on a blocking thread: a hash takes tens of milliseconds by design), and the
//! sign-in guard — attempts per address, and a lock-out per name after repeated failures that
//! grows with each, the same for names that exist and names that do not, so that neither the
//! answers nor the lock-outs tell which names are accounts.

use std::net::IpAddr;
use std::sync::OnceLock;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use dashmap::DashMap;
use tokio::time::{Duration, Instant};

use crate::rate_limit::{Rate, RateWindow};
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
    #[error("a password is {PASSWORD_MIN_CHARS} to {PASSWORD_MAX_CHARS} characters")]
    BadPassword,
}

/// Checks a name to claim: ASCII letters, digits, `_` and `-` (names look the same in every
/// font, and case-insensitive uniqueness means one thing in every language).
pub fn check_name(name: &str) -> Result<(), AccountRuleError> {
    let ok = (NAME_MIN_CHARS..=NAME_MAX_CHARS).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        Err(AccountRuleError::BadName)
    }
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

/// Counters kept before the expired ones are swept at once rather than at the next sweep.
const COUNTERS_MAX: usize = 100_000;

/// The block an address's attempts are counted under: an IPv6 address is one of a /64, which
/// one subscriber usually holds whole.
fn address_block(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            IpAddr::from(octets)
        }
    }
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

/// Limits of the sign-in guard.
#[derive(Clone, Copy, Debug)]
pub struct SignInLimits {
    /// Sign-in attempts one address may make per window.
    pub per_address: Rate,
    /// Failures in a row under one name before it is locked.
    pub failures_before_lock: u32,
    /// The first lock-out; each failure after it doubles the next, up to `lock_max`.
    pub lock_first: Duration,
    pub lock_max: Duration,
}

/// Failures in a row under one name, and until when it is locked.
#[derive(Clone, Copy, Debug, Default)]
struct Failures {
    count: u32,
    locked_until: Option<Instant>,
    last: Option<Instant>,
}

/// Accounts by name and by player, and the sign-in guard's counters.
#[derive(Default)]
pub struct Accounts {
    by_key: DashMap<String, KnownAccount>,
    by_player: DashMap<String, String>,
    /// Name keys by their confusable skeleton.
    by_skeleton: DashMap<String, String>,
    attempts: DashMap<IpAddr, RateWindow>,
    failures: DashMap<String, Failures>,
}

/// Why a sign-in is not even tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Throttled {
    /// The address made too many attempts; try again after this long.
    Address(Duration),
    /// The name is locked after repeated failures, for this long more.
    Name(Duration),
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

    /// Counts a request from `address` that costs a password hash (a sign-in or a claim);
    /// refused past the address's attempts in the window.
    pub fn admit_address(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        now: Instant,
    ) -> Result<(), Throttled> {
        let mut window = self.attempts.entry(address_block(address)).or_default();
        if window.admit(limits.per_address, now) {
            Ok(())
        } else {
            // The time left in the window: a retry before it would be refused again.
            Err(Throttled::Address(
                window.closes_in(limits.per_address, now),
            ))
        }
    }

    /// Counts a sign-in attempt from `address` under `name`; refused (and not counted against
    /// the name) when the name is locked or the address throttled. The attempt counts as a
    /// failure of the name until [`Accounts::succeeded`] says otherwise: attempts sent all at
    /// once are counted before any of them is answered, so a burst cannot slip past the
    /// lock-out. Past the allowed failures in a row the name is locked, twice as long at each
    /// further one.
    pub fn attempt(
        &self,
        limits: &SignInLimits,
        address: IpAddr,
        name: &str,
        now: Instant,
    ) -> Result<(), Throttled> {
        let key = name_key(name);
        if let Some(f) = self.failures.get(&key) {
            if let Some(until) = f.locked_until.filter(|u| *u > now) {
                return Err(Throttled::Name(until - now));
            }
        }
        self.admit_address(limits, address, now)?;
        if self.failures.len() >= COUNTERS_MAX {
            self.expire(limits, now);
        }
        let mut f = self.failures.entry(key).or_default();
        f.count = f.count.saturating_add(1);
        f.last = Some(now);
        if f.count >= limits.failures_before_lock {
            let doublings = (f.count - limits.failures_before_lock).min(16);
            let lock = limits
                .lock_first
                .saturating_mul(1 << doublings)
                .min(limits.lock_max);
            f.locked_until = Some(now + lock);
        }
        Ok(())
    }

    /// A sign-in under `name` succeeded: its failures are forgotten.
    pub fn succeeded(&self, name: &str) {
        self.failures.remove(&name_key(name));
    }

    /// Forgets counters that no longer hold anything back, so that memory stays bounded
    /// however many addresses and names have tried.
    pub fn expire(&self, limits: &SignInLimits, now: Instant) {
        self.attempts
            .retain(|_, w| !w.is_idle(limits.per_address, now));
        self.failures.retain(|_, f| {
            let locked = f.locked_until.is_some_and(|u| u > now);
            let recent = f
                .last
                .is_some_and(|l| now.saturating_duration_since(l) < limits.lock_max);
            locked || recent
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> SignInLimits {
        SignInLimits {
            per_address: Rate::new(10, Duration::from_secs(60)),
            failures_before_lock: 3,
            lock_first: Duration::from_secs(30),
            lock_max: Duration::from_secs(600),
        }
    }

    #[test]
    fn names_and_passwords_follow_the_rules() {
        assert!(check_name("Alice_9-x").is_ok());
        assert!(check_name("al").is_err());
        assert!(check_name("a".repeat(21).as_str()).is_err());
        assert!(check_name("Al ice").is_err());
        assert!(check_name("Алиса").is_err());
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

    #[test]
    fn repeated_failures_lock_a_name_longer_each_time_and_success_clears_them() {
        let accounts = Accounts::default();
        let (l, ip) = (limits(), IpAddr::from([10, 0, 0, 1]));
        let t0 = Instant::now();
        // Three attempts, none answered yet: each already counts.
        for name in ["alice", "alice", "ALICE"] {
            assert!(accounts.attempt(&l, ip, name, t0).is_ok());
        }
        assert_eq!(
            accounts.attempt(&l, ip, "Alice", t0),
            Err(Throttled::Name(Duration::from_secs(30)))
        );
        // Another name from the same address is not locked.
        assert!(accounts.attempt(&l, ip, "bob", t0).is_ok());
        let t1 = t0 + Duration::from_secs(31);
        assert!(accounts.attempt(&l, ip, "alice", t1).is_ok());
        assert_eq!(
            accounts.attempt(&l, ip, "alice", t1),
            Err(Throttled::Name(Duration::from_secs(60)))
        );
        accounts.succeeded("alice");
        assert!(accounts.attempt(&l, ip, "alice", t1).is_ok());
    }

    #[test]
    fn an_address_has_so_many_attempts_a_window_and_idle_counters_are_forgotten() {
        let accounts = Accounts::default();
        let (l, ip) = (limits(), IpAddr::from([10, 0, 0, 2]));
        let t0 = Instant::now();
        for i in 0..10 {
            assert!(accounts.attempt(&l, ip, &format!("name{i}"), t0).is_ok());
        }
        assert_eq!(
            accounts.attempt(&l, ip, "name", t0),
            Err(Throttled::Address(Duration::from_secs(60)))
        );
        // Twenty seconds on, the address waits for what is left of its window.
        assert_eq!(
            accounts.attempt(&l, ip, "name", t0 + Duration::from_secs(20)),
            Err(Throttled::Address(Duration::from_secs(40)))
        );
        let later = t0 + Duration::from_secs(3600);
        accounts.expire(&l, later);
        assert!(accounts.attempts.is_empty() && accounts.failures.is_empty());
        assert!(accounts.attempt(&l, ip, "name", later).is_ok());
    }
}
