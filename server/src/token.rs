//! Secrets and ids: identity tokens (128 random bits, stored only as a SHA-256 hash) and the
//! short public ids of players, rooms and seeks.

use rand::Rng;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicU64, Ordering};

const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A random id of `len` characters from an alphabet without look-alike characters.
#[must_use]
pub fn random_id(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// An id that sorts after every id this process made before it: the time in milliseconds,
/// then a per-process sequence (so entries written in the same millisecond keep their order),
/// then random characters (so two nodes never make the same id). Audit entries and reports
/// are listed newest first by it.
#[must_use]
pub fn ordered_id(at_ms: u64) -> String {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed) % 1_000_000;
    format!("{at_ms:013}{seq:06}{}", random_id(4))
}

/// A fresh identity token: 160 random bits as hex.
#[must_use]
pub fn new_token() -> String {
    let bytes: [u8; 20] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a token. Players are looked up by this hash, so neither the store nor
/// the lookup's timing says anything about the token itself.
#[must_use]
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Constant-time equality, for comparing secrets such as the bot key.
#[must_use]
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 40);
        assert_ne!(a, b);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), token_hash(&b));
        assert_eq!(token_hash(&a).len(), 64);
        assert!(constant_time_eq(b"key", b"key"));
        assert!(!constant_time_eq(b"key", b"kez"));
        assert!(!constant_time_eq(b"key", b"keys"));
        assert_eq!(random_id(8).len(), 8);
        let first = ordered_id(1_700_000_000_000);
        let second = ordered_id(1_700_000_000_000);
        assert!(second > first, "{first} {second}");
        assert!(ordered_id(1_700_000_000_001) > second);
    }
}
