//! The evaluation's learnt weights and their file: one table per game phase for each
//! pattern of [`super::patterns`], and a few whole-board terms per phase.
//!
//! # File format (little-endian)
//! - the magic `KBZOTHW1`;
//! - the number of phases, then 61 bytes: the phase of each number of empty squares 0..=60;
//! - the shape: the number of patterns, then for each its number of squares (u8) and of
//!   canonical weights (u32); then the number of whole-board terms ([`SCALARS`]);
//! - for each phase, for each pattern, its canonical weights (one per index class, see
//!   [`super::patterns::Pattern::canonical`]) as runs: a varint count of zero weights, then
//!   a zigzag varint weight, until the table is full; then the whole-board weights as
//!   zigzag varints;
//! - an FNV-1a 64 checksum of everything before it.
//!
//! Weights are in 1/[`UNIT`] of a disc. Unseen pattern configurations keep the weight 0,
//! which is why runs of zeros make the file small.

use super::patterns::PATTERNS;
use crate::client::error::BotError;

/// Weights are in 1/UNIT discs.
pub const UNIT: i32 = 32;
/// Empty squares 0..=60.
pub const EMPTIES: usize = 61;
const MAGIC: &[u8; 8] = b"KBZOTHW1";

/// The whole-board terms of the evaluation, in file order.
pub const SCALARS: usize = 5;
/// Names of the whole-board terms (for reports).
pub const SCALAR_NAMES: [&str; SCALARS] = [
    "side to move",
    "own mobility",
    "opponent mobility",
    "own potential mobility",
    "opponent potential mobility",
];

/// The weights in the form the training works with: canonical weights, per phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CanonicalWeights {
    /// The phase of each number of empty squares.
    pub phase_of: [u8; EMPTIES],
    /// `patterns[phase][pattern][class]`.
    pub patterns: Vec<Vec<Vec<i16>>>,
    /// `scalars[phase][term]`.
    pub scalars: Vec<[i16; SCALARS]>,
}

/// The number of canonical weights of each pattern.
#[must_use]
pub fn canonical_counts() -> Vec<usize> {
    PATTERNS
        .iter()
        .map(|p| {
            let classes = p.canonical();
            let mut seen = vec![false; p.size()];
            classes.iter().for_each(|&c| seen[c as usize] = true);
            seen.iter().filter(|&&s| s).count()
        })
        .collect()
}

/// The class number (0..count) of every index of every pattern: the canonical index
/// renumbered densely.
#[must_use]
pub fn class_of_index() -> Vec<Vec<u32>> {
    PATTERNS
        .iter()
        .map(|p| {
            let canonical = p.canonical();
            let mut number = vec![u32::MAX; p.size()];
            let mut next = 0;
            for &c in &canonical {
                if number[c as usize] == u32::MAX {
                    number[c as usize] = next;
                    next += 1;
                }
            }
            canonical.iter().map(|&c| number[c as usize]).collect()
        })
        .collect()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i16) -> u64 {
    u64::from(((i32::from(v) << 1) ^ (i32::from(v) >> 31)) as u32)
}

/// Reads the file's parts in order, failing with a reason.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("the file ends early")?;
        self.at += 1;
        Ok(b)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for i in 0..4 {
            v |= u32::from(self.byte()?) << (8 * i);
        }
        Ok(v)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("a number runs too long".into())
    }

    fn weight(&mut self) -> Result<i16, String> {
        let z = self.varint()?;
        let v = (z >> 1) as i64 ^ -((z & 1) as i64);
        i16::try_from(v).map_err(|_| format!("weight {v} out of range"))
    }
}

impl CanonicalWeights {
    /// All zero, with `phase_of` as given.
    #[must_use]
    pub fn zero(phase_of: [u8; EMPTIES]) -> CanonicalWeights {
        let phases = usize::from(phase_of.iter().copied().max().unwrap_or(0)) + 1;
        let counts = canonical_counts();
        CanonicalWeights {
            phase_of,
            patterns: (0..phases)
                .map(|_| counts.iter().map(|&n| vec![0; n]).collect())
                .collect(),
            scalars: vec![[0; SCALARS]; phases],
        }
    }

    #[must_use]
    pub fn phases(&self) -> usize {
        self.scalars.len()
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(self.phases() as u8);
        out.extend_from_slice(&self.phase_of);
        out.push(PATTERNS.len() as u8);
        for (pattern, count) in PATTERNS.iter().zip(canonical_counts()) {
            out.push(pattern.len() as u8);
            out.extend_from_slice(&(count as u32).to_le_bytes());
        }
        out.push(SCALARS as u8);
        for (tables, scalars) in self.patterns.iter().zip(&self.scalars) {
            for table in tables {
                let mut zeros = 0u64;
                for &w in table {
                    if w == 0 {
                        zeros += 1;
                    } else {
                        put_varint(&mut out, zeros);
                        put_varint(&mut out, zigzag(w));
                        zeros = 0;
                    }
                }
                if zeros > 0 {
                    put_varint(&mut out, zeros);
                }
            }
            for &s in scalars {
                put_varint(&mut out, zigzag(s));
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file; checks its checksum and that its shape is this build's.
    pub fn from_bytes(bytes: &[u8]) -> Result<CanonicalWeights, BotError> {
        Self::parse(bytes).map_err(|reason| BotError::Weights { reason })
    }

    fn parse(bytes: &[u8]) -> Result<CanonicalWeights, String> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not an Othello weights file".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if u64::from_le_bytes(stored) != fnv1a(body) {
            return Err("checksum mismatch".into());
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let phases = usize::from(r.byte()?);
        let mut phase_of = [0u8; EMPTIES];
        for p in &mut phase_of {
            *p = r.byte()?;
            if usize::from(*p) >= phases {
                return Err(format!("phase {p} of {phases}"));
            }
        }
        let counts = canonical_counts();
        if usize::from(r.byte()?) != PATTERNS.len() {
            return Err("another set of patterns".into());
        }
        for (pattern, &count) in PATTERNS.iter().zip(&counts) {
            let squares = usize::from(r.byte()?);
            let stored = r.u32()? as usize;
            if squares != pattern.len() || stored != count {
                return Err(format!(
                    "pattern {} has {squares} squares and {stored} weights here, {} and {count} in this build",
                    pattern.name,
                    pattern.len()
                ));
            }
        }
        if usize::from(r.byte()?) != SCALARS {
            return Err("another set of whole-board terms".into());
        }
        let mut weights = CanonicalWeights::zero(phase_of);
        weights.patterns.truncate(phases);
        weights.scalars.truncate(phases);
        while weights.phases() < phases {
            weights
                .patterns
                .push(counts.iter().map(|&n| vec![0; n]).collect());
            weights.scalars.push([0; SCALARS]);
        }
        for (tables, scalars) in weights.patterns.iter_mut().zip(&mut weights.scalars) {
            for table in tables.iter_mut() {
                let mut at = 0usize;
                while at < table.len() {
                    at = at.saturating_add(r.varint()? as usize);
                    if at > table.len() {
                        return Err("a run of zeros overflows its table".into());
                    }
                    if at < table.len() {
                        table[at] = r.weight()?;
                        at += 1;
                    }
                }
            }
            for s in scalars.iter_mut() {
                *s = r.weight()?;
            }
        }
        if r.at != body.len() {
            return Err("bytes left after the last phase".into());
        }
        Ok(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> CanonicalWeights {
        let mut phase_of = [0u8; EMPTIES];
        for (e, p) in phase_of.iter_mut().enumerate() {
            *p = (e / 30) as u8;
        }
        let mut w = CanonicalWeights::zero(phase_of);
        w.patterns[0][0][5] = -300;
        w.patterns[1][2][100] = 7;
        w.patterns[1][10][0] = i16::MAX;
        w.scalars[1] = [1, -2, 3, -4, i16::MIN];
        w
    }

    #[test]
    fn files_round_trip_and_reject_damage() {
        let w = sample();
        let bytes = w.to_bytes();
        assert_eq!(CanonicalWeights::from_bytes(&bytes).expect("reads"), w);
        // Mostly zeros: a few bytes per run.
        assert!(bytes.len() < 400, "{} bytes", bytes.len());
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        assert!(CanonicalWeights::from_bytes(&damaged).is_err());
        assert!(CanonicalWeights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(CanonicalWeights::from_bytes(b"KBZOTHW1").is_err());
    }

    #[test]
    fn canonical_counts_halve_the_symmetric_patterns() {
        let counts = canonical_counts();
        // Edge + 2X: 3^10 readings, mirrored pairs share a weight; 3^5 read the same both ways.
        assert_eq!(counts[0], (59_049 + 243) / 2);
        assert_eq!(counts[2], 59_049);
        let classes = class_of_index();
        assert_eq!(classes[0].iter().copied().max(), Some(counts[0] as u32 - 1));
    }
}
