//! Every puzzle a node serves: the shipped set and the puzzles made from the hall's own games
//! (stored, and read into memory by every node). A snapshot of the whole is handed to each
//! request; a new hall puzzle makes a new snapshot (they come a few a day, the set is a few
//! thousand). The positions' symmetry keys say whether a candidate is already a puzzle.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use game_core::puzzle::{symmetry_key, Puzzle};
use game_core::AnyPosition;

use super::set::PuzzleSet;

/// How far back a refresh reads before the newest hall puzzle it has: the clocks of the
/// nodes that stored them may differ by this much.
pub const CLOCK_SKEW_MS: u64 = 5 * 60 * 1000;

/// The key of a puzzle's position, or `None` for one whose moves do not stand.
#[must_use]
pub fn key_of(p: &Puzzle) -> Option<String> {
    AnyPosition::with_moves(&p.game, &p.moves)
        .ok()
        .map(|pos| symmetry_key(&pos))
}

/// The keys of the shipped set, made at their first use (a node with no review never does).
fn shipped_keys() -> &'static HashSet<String> {
    static KEYS: OnceLock<HashSet<String>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let set = PuzzleSet::shipped();
        super::set::VARIANTS
            .iter()
            .flat_map(|v| set.of_variant(v, None))
            .filter_map(|p| key_of(p))
            .collect()
    })
}

#[derive(Default)]
struct Hall {
    puzzles: Vec<Arc<Puzzle>>,
    keys: HashSet<String>,
    /// When the newest one read was stored (milliseconds since the Unix epoch).
    newest_ms: u64,
}

/// The shipped puzzles and the hall's.
pub struct PuzzleLibrary {
    set: RwLock<Arc<PuzzleSet>>,
    hall: Mutex<Hall>,
}

impl Default for PuzzleLibrary {
    fn default() -> Self {
        PuzzleLibrary::new()
    }
}

impl PuzzleLibrary {
    #[must_use]
    pub fn new() -> PuzzleLibrary {
        PuzzleLibrary {
            set: RwLock::new(Arc::new(PuzzleSet::shipped().clone_set())),
            hall: Mutex::new(Hall::default()),
        }
    }

    /// Every puzzle now.
    #[must_use]
    pub fn set(&self) -> Arc<PuzzleSet> {
        self.set
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether a position of this key is a puzzle already.
    #[must_use]
    pub fn knows(&self, key: &str) -> bool {
        shipped_keys().contains(key)
            || self
                .hall
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .keys
                .contains(key)
    }

    /// Where the next refresh reads from (see [`CLOCK_SKEW_MS`]).
    #[must_use]
    pub fn read_from_ms(&self) -> u64 {
        let hall = self.hall.lock().unwrap_or_else(PoisonError::into_inner);
        hall.newest_ms.saturating_sub(CLOCK_SKEW_MS)
    }

    /// Adds the hall's puzzles read from the store (`(stored at, puzzle)`); those known by id
    /// already are skipped. How many were new.
    pub fn add(&self, rows: Vec<(u64, Puzzle)>) -> usize {
        let mut hall = self.hall.lock().unwrap_or_else(PoisonError::into_inner);
        let set = self.set();
        let mut added = 0;
        for (made_ms, p) in rows {
            hall.newest_ms = hall.newest_ms.max(made_ms);
            // The store holds one of an id: only one read before is skipped.
            if set.get(&p.id).is_some() {
                continue;
            }
            if let Some(key) = key_of(&p) {
                hall.keys.insert(key);
            }
            hall.puzzles.push(Arc::new(p));
            added += 1;
        }
        if added > 0 {
            let next = PuzzleSet::shipped().with(&hall.puzzles);
            *self.set.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(next);
        }
        added
    }
}
