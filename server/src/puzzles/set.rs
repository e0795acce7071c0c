//! A set of puzzles — the ones shipped in the binary (`server/puzzles/<variant>.jsonl`,
//! written by `kibitz puzzles generate`, read once), with the hall's own added by
//! `library.rs`: by id, by variant and theme, the day's puzzle, and the position an
//! attempt's line leads to with the hint for its next move.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use game_core::puzzle::{ProofNode, Puzzle};
use game_core::{AnyPosition, Cell, GameKind};

/// The variants with puzzles, in the order the page lists them.
pub const VARIANTS: [&str; 4] = ["gomoku-freestyle", "gomoku-renju", "othello", "connect4"];

const SHIPPED: [&str; 4] = [
    include_str!("../../puzzles/gomoku-freestyle.jsonl"),
    include_str!("../../puzzles/gomoku-renju.jsonl"),
    include_str!("../../puzzles/othello.jsonl"),
    include_str!("../../puzzles/connect4.jsonl"),
];

/// A variant's name, its puzzles and its puzzles per theme.
pub type VariantSummary = (&'static str, usize, Vec<(String, usize)>);

/// Every puzzle, by id and by variant (each variant's in id order).
pub struct PuzzleSet {
    by_id: HashMap<String, Arc<Puzzle>>,
    by_variant: HashMap<String, Vec<Arc<Puzzle>>>,
}

impl PuzzleSet {
    /// The shipped set, read at its first use. A line that does not read is a broken build:
    /// the set's test reads them all.
    pub fn shipped() -> &'static PuzzleSet {
        static SET: OnceLock<PuzzleSet> = OnceLock::new();
        SET.get_or_init(|| {
            let puzzles = SHIPPED
                .iter()
                .flat_map(|text| text.lines().filter(|l| !l.trim().is_empty()))
                .map(|line| serde_json::from_str(line).expect("a shipped puzzle reads"))
                .collect();
            PuzzleSet::of(puzzles)
        })
    }

    #[must_use]
    pub fn of(puzzles: Vec<Puzzle>) -> PuzzleSet {
        PuzzleSet::of_shared(puzzles.into_iter().map(Arc::new))
    }

    /// A copy of this set (its puzzles shared).
    #[must_use]
    pub fn clone_set(&self) -> PuzzleSet {
        PuzzleSet::of_shared(self.by_id.values().cloned())
    }

    /// This set with `more` added.
    #[must_use]
    pub fn with(&self, more: &[Arc<Puzzle>]) -> PuzzleSet {
        PuzzleSet::of_shared(self.by_id.values().chain(more).cloned())
    }

    fn of_shared(puzzles: impl Iterator<Item = Arc<Puzzle>>) -> PuzzleSet {
        let mut by_id = HashMap::new();
        let mut by_variant: HashMap<String, Vec<Arc<Puzzle>>> = HashMap::new();
        for p in puzzles {
            by_id.insert(p.id.clone(), p.clone());
            by_variant.entry(p.variant.clone()).or_default().push(p);
        }
        for list in by_variant.values_mut() {
            list.sort_by(|a, b| a.id.cmp(&b.id));
        }
        PuzzleSet { by_id, by_variant }
    }

    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Arc<Puzzle>> {
        self.by_id.get(id)
    }

    /// The puzzles of `variant`, those of `theme` only when one is given.
    #[must_use]
    pub fn of_variant(&self, variant: &str, theme: Option<&str>) -> Vec<&Arc<Puzzle>> {
        self.by_variant
            .get(variant)
            .map(|list| {
                list.iter()
                    .filter(|p| theme.is_none_or(|t| p.themes.iter().any(|x| x == t)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Each variant's count, and its count per theme.
    #[must_use]
    pub fn summary(&self) -> Vec<VariantSummary> {
        VARIANTS
            .iter()
            .map(|&v| {
                let list = self.of_variant(v, None);
                let mut themes: Vec<(String, usize)> = Vec::new();
                for p in &list {
                    for t in &p.themes {
                        match themes.iter_mut().find(|(name, _)| name == t) {
                            Some((_, n)) => *n += 1,
                            None => themes.push((t.clone(), 1)),
                        }
                    }
                }
                (v, list.len(), themes)
            })
            .collect()
    }

    /// The puzzle of the day `day` (days since 1970-01-01, UTC): the same for everyone that
    /// day, going through the variants in turn; a shipped one (the hall's come and go by node).
    #[must_use]
    pub fn daily(&self, day: u64) -> Option<&Arc<Puzzle>> {
        let variant = VARIANTS[(day % VARIANTS.len() as u64) as usize];
        let list: Vec<&Arc<Puzzle>> = self
            .by_variant
            .get(variant)?
            .iter()
            .filter(|p| p.source.is_none())
            .collect();
        if list.is_empty() {
            return None;
        }
        // A fixed odd multiplier spreads consecutive days over the list.
        let index = (day / VARIANTS.len() as u64).wrapping_mul(2_654_435_761) % list.len() as u64;
        list.get(index as usize).copied()
    }
}

/// Where an attempt stands: the position its line reached and the proof's node there.
pub struct Standing<'a> {
    pub position: AnyPosition,
    pub node: &'a ProofNode,
    /// Whether the line so far is the main line's beginning.
    pub on_main_line: bool,
}

/// Why a line does not read.
#[derive(Debug, PartialEq, Eq)]
pub enum LineError {
    /// A move that is not legal where it stands (1-based), with the rules' reason.
    Illegal(usize, String),
    /// The line leaves the proof before its last move.
    Walk(game_core::puzzle::WalkError),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::Illegal(i, why) => write!(f, "move {i} of the line: {why}"),
            LineError::Walk(e) => write!(f, "{e}"),
        }
    }
}

/// The puzzle's position.
#[must_use]
pub fn start(p: &Puzzle) -> AnyPosition {
    AnyPosition::with_moves(&p.game, &p.moves).expect("a shipped puzzle's moves are legal")
}

/// Plays `line` from the puzzle's position, each move checked by the rules: the moves in
/// canonical notation and the position after them.
pub fn replay(p: &Puzzle, line: &[String]) -> Result<(Vec<String>, AnyPosition), LineError> {
    let mut pos = start(p);
    let mut canonical = Vec::with_capacity(line.len());
    for (i, mv) in line.iter().enumerate() {
        match pos.play_str(mv) {
            Ok(c) => canonical.push(c),
            Err(e) => return Err(LineError::Illegal(i + 1, e.to_string())),
        }
    }
    Ok((canonical, pos))
}

/// Where `line` (pairs of accepted moves and their replies) stands.
pub fn standing<'a>(p: &'a Puzzle, line: &[String]) -> Result<Standing<'a>, LineError> {
    let (canonical, position) = replay(p, line)?;
    if canonical.len() % 2 == 1 {
        return Err(LineError::Walk(
            game_core::puzzle::WalkError::EndsWithReply(canonical.len()),
        ));
    }
    let node = p.proof.at(&canonical).ok_or(LineError::Walk(
        game_core::puzzle::WalkError::NotAccepted(canonical.len()),
    ))?;
    Ok(Standing {
        position,
        node,
        on_main_line: p.line.starts_with(&canonical),
    })
}

/// The move a hint points at from where `s` stands: the main line's when the attempt follows
/// it, else the first accepted move.
#[must_use]
pub fn hinted_move(p: &Puzzle, s: &Standing<'_>, line_len: usize) -> Option<String> {
    if s.on_main_line {
        if let Some(mv) = p.line.get(line_len) {
            return Some(mv.clone());
        }
    }
    s.node.0.keys().next().cloned()
}

/// The area around `mv` that a first hint shows: the legal moves of a 3x3 square holding it
/// (Gomoku, 5x5 where the 3x3 is nearly full; placed by the puzzle's id so that the move is
/// not always its centre), of its quadrant (Othello), or of three columns holding it
/// (Connect Four).
#[must_use]
pub fn hint_area(p: &Puzzle, pos: &AnyPosition, mv: &str) -> Vec<String> {
    let legal = pos.legal_moves();
    let shift =
        p.id.bytes()
            .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    match pos.kind() {
        GameKind::Othello => {
            let Ok(cell) = mv.parse::<Cell>() else {
                return vec![mv.to_string()];
            };
            let quadrant = |c: &Cell| (c.col / 4, c.row / 4);
            legal
                .into_iter()
                .filter(|m| {
                    m.parse::<Cell>()
                        .is_ok_and(|c| quadrant(&c) == quadrant(&cell))
                })
                .collect()
        }
        GameKind::Gomoku => {
            let Ok(cell) = mv.parse::<Cell>() else {
                return vec![mv.to_string()];
            };
            let (dc, dr) = ((shift % 3) as i32 - 1, (shift / 3 % 3) as i32 - 1);
            let (cc, cr) = (i32::from(cell.col) + dc, i32::from(cell.row) + dr);
            // A 3x3 square, or 5x5 where the 3x3 holds fewer than four free points.
            let square = |reach: i32| -> Vec<String> {
                legal
                    .iter()
                    .filter(|m| {
                        m.parse::<Cell>().is_ok_and(|c| {
                            (i32::from(c.col) - cc).abs() <= reach
                                && (i32::from(c.row) - cr).abs() <= reach
                        })
                    })
                    .cloned()
                    .collect()
            };
            let small = square(1);
            if small.len() >= 4 {
                small
            } else {
                square(2)
            }
        }
        GameKind::Connect4 => {
            let index = legal.iter().position(|m| m == mv).unwrap_or(0);
            let from = index.saturating_sub((shift % 3) as usize);
            legal.into_iter().skip(from).take(3).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use game_core::puzzle::Verdict;

    use super::*;

    #[test]
    fn every_shipped_puzzle_reads_and_its_main_line_solves_it() {
        let set = PuzzleSet::shipped();
        for (variant, count, themes) in set.summary() {
            assert!(count >= 150, "{variant}: {count}");
            assert!(!themes.is_empty(), "{variant}");
            for p in set.of_variant(variant, None) {
                let (canonical, _) = replay(p, &p.line).expect("the main line is legal");
                assert_eq!(canonical, p.line, "{}", p.id);
                assert_eq!(
                    p.proof.walk(&p.line),
                    Ok(Verdict::Correct {
                        reply: None,
                        solved: true
                    }),
                    "{}",
                    p.id
                );
            }
        }
    }

    #[test]
    fn the_daily_puzzle_is_one_a_day_through_the_variants() {
        let set = PuzzleSet::shipped();
        let days: Vec<&str> = (20_000..20_008)
            .map(|d| set.daily(d).expect("a puzzle every day").variant.as_str())
            .collect();
        assert_eq!(days[..4], VARIANTS);
        assert_eq!(set.daily(20_001).unwrap().id, set.daily(20_001).unwrap().id);
        assert_ne!(set.daily(20_000).unwrap().id, set.daily(20_004).unwrap().id);
    }

    #[test]
    fn a_first_hint_shows_an_area_holding_the_move() {
        let set = PuzzleSet::shipped();
        for v in VARIANTS {
            for p in set.of_variant(v, None).into_iter().take(40) {
                let s = standing(p, &[]).unwrap();
                let mv = hinted_move(p, &s, 0).unwrap();
                let area = hint_area(p, &s.position, &mv);
                assert!(area.contains(&mv), "{}: {mv} {area:?}", p.id);
                if p.variant.starts_with("gomoku") {
                    assert!(area.len() >= 4, "{}: {mv} {area:?}", p.id);
                }
            }
        }
    }

    #[test]
    fn a_line_that_leaves_the_proof_or_the_rules_is_refused() {
        let set = PuzzleSet::shipped();
        let p = set.of_variant("connect4", None)[0];
        assert!(matches!(
            replay(p, &["9".into()]),
            Err(LineError::Illegal(1, _))
        ));
        let off: Vec<String> = vec![p.line[0].clone(), "1".into()];
        let replied = p.proof.0[&p.line[0]].reply.clone();
        if replied.as_deref() != Some("1") {
            assert!(standing(p, &off).is_err());
        }
    }
}
