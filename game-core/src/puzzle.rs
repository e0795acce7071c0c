//! Puzzles: positions in which the side to move has a proven win, each stored with its proof —
//! a tree of every move of the attacker that keeps a proven win within the puzzle's length,
//! each with the defender's longest resistance — so that whoever checks an attempt (the server)
//! needs no solver: it walks the tree. The project's generator (`kibitz puzzles generate`)
//! writes them; a test proves every shipped tree again with the solvers.
//!
//! ```
//! use game_core::puzzle::{ProofNode, ProofStep, Verdict};
//!
//! // Win in two: a1 (answered by b1) then a2, or a3 at once.
//! let mut after = ProofNode::default();
//! after.0.insert("a2".into(), ProofStep { reply: None, next: ProofNode::default() });
//! let mut root = ProofNode::default();
//! root.0.insert("a1".into(), ProofStep { reply: Some("b1".into()), next: after });
//! root.0.insert("a3".into(), ProofStep { reply: None, next: ProofNode::default() });
//! let line = |s: &str| s.split(',').map(String::from).collect::<Vec<_>>();
//! assert_eq!(root.walk(&line("a1")), Ok(Verdict::Correct { reply: Some("b1".into()), solved: false }));
//! assert_eq!(root.walk(&line("a1,b1,a2")), Ok(Verdict::Correct { reply: None, solved: true }));
//! assert_eq!(root.walk(&line("a1,b1,c9")), Ok(Verdict::Wrong));
//! assert!(root.walk(&line("a1,c5,a2")).is_err());
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{AnyPosition, Color, GameSpec};

mod check;

pub use check::MOST_NODES;

/// One puzzle as the generator writes it and the server serves it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// `<variant>-<number>` for a shipped puzzle, `<variant>-h<12 hex digits>` (see
    /// [`hall_id`]) for one made from a game played in the hall; unique in a set.
    pub id: String,
    /// The rating key of its game (`gomoku-freestyle`, `gomoku-renju`, `othello`, `connect4`).
    pub variant: String,
    pub game: GameSpec,
    /// From the game's start to the puzzle's position, in canonical notation.
    pub moves: Vec<String>,
    /// The player's side: the attacker.
    pub to_move: Color,
    /// The attacker's moves to the end of the puzzle along the main line.
    pub length: u32,
    /// `vcf`, `vct`, `renju-foul`, `endgame`, `corner`, `parity`, `win`, `zugzwang`.
    pub themes: Vec<String>,
    /// The main line: the attacker's best moves and the defender's replies.
    pub line: Vec<String>,
    pub proof: ProofNode,
    /// The game of the hall it was found in (absent for the shipped set's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<PuzzleSource>,
}

/// Where a puzzle from the hall's games comes from: the room, and the index in the room's
/// moves of the move the player missed the win with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleSource {
    pub room: String,
    pub ply: u32,
}

/// A candidate for an analysis worker to prove (`prove_puzzle`): a position of a game of the
/// hall in which a review found a missed forced win.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleJob {
    pub job: String,
    pub variant: String,
    pub game: GameSpec,
    /// From the game's start to the position.
    pub moves: Vec<String>,
}

/// The position's key up to the board's symmetries: the least of its images' texts (eight for
/// square boards, two — the mirror — for others), with the side to move. Two puzzles with one
/// key are one puzzle.
#[must_use]
pub fn symmetry_key(pos: &AnyPosition) -> String {
    let text = pos.board_text();
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    let (h, w) = (rows.len(), rows.first().map_or(0, Vec::len));
    let image = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> String {
        let mut s = String::with_capacity(h * w);
        for r in 0..h {
            for c in 0..w {
                let (rr, cc) = f(r, c);
                s.push(rows[rr][cc]);
            }
        }
        s
    };
    let n = h.saturating_sub(1);
    let mirror = |r: usize, c: usize| (r, w - 1 - c);
    let mut images = vec![image(&|r, c| (r, c)), image(&mirror)];
    if h == w {
        let square: [&dyn Fn(usize, usize) -> (usize, usize); 6] = [
            &|r, c| (c, n - r),
            &|r, c| (n - r, n - c),
            &|r, c| (n - c, r),
            &|r, c| (n - r, c),
            &|r, c| (c, r),
            &|r, c| (n - c, n - r),
        ];
        images.extend(square.iter().map(|f| image(*f)));
    }
    let least = images.into_iter().min().unwrap_or_default();
    format!("{least} {}", pos.turn().as_str())
}

/// The id of a puzzle of the hall's games: its variant and 48 bits of a hash of its
/// [`symmetry_key`] (FNV-1a, fixed for all builds), so that every node names one position
/// alike and a position found twice is one puzzle.
#[must_use]
pub fn hall_id(variant: &str, key: &str) -> String {
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{variant}-h{:012x}", hash & 0xffff_ffff_ffff)
}

/// The attacker to move: each move that keeps a proven win within the moves left, and what
/// follows it. Keys are canonical moves, so a tree reads the same however it was built.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofNode(pub BTreeMap<String, ProofStep>);

/// An accepted move: the defender's reply (`None` when the move ends the puzzle) and the
/// position after that reply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofStep {
    #[serde(rename = "r", default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    #[serde(rename = "n", default, skip_serializing_if = "ProofNode::is_empty")]
    pub next: ProofNode,
}

/// What a line whose last move is the attacker's comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move keeps the win: the defender answers `reply`, or (`solved`) the puzzle is over.
    Correct { reply: Option<String>, solved: bool },
    /// The move does not keep a proven win within the moves left.
    Wrong,
}

/// Why a line cannot be walked at all (as opposed to ending on a wrong move).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WalkError {
    #[error("the line is empty: it must end with the player's move")]
    Empty,
    #[error("move {0} is the defender's: a line ends with the player's move")]
    EndsWithReply(usize),
    #[error("move {0} was not accepted earlier in this line")]
    NotAccepted(usize),
    #[error("move {0} is not the reply the puzzle gave")]
    NotTheReply(usize),
    #[error("the puzzle was already solved before move {0}")]
    PastTheEnd(usize),
}

impl ProofNode {
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Nodes of the tree, this one included (what a puzzle costs to keep).
    #[must_use]
    pub fn size(&self) -> usize {
        1 + self.0.values().map(|s| s.next.size()).sum::<usize>()
    }

    /// Walks `line` (the player's moves and the replies in turn, from the puzzle's position,
    /// the last one the player's): every move but the last must follow the tree.
    pub fn walk(&self, line: &[String]) -> Result<Verdict, WalkError> {
        if line.is_empty() {
            return Err(WalkError::Empty);
        }
        if line.len().is_multiple_of(2) {
            return Err(WalkError::EndsWithReply(line.len()));
        }
        let mut node = self;
        let last = line.len() - 1;
        for (i, pair) in line[..last].chunks(2).enumerate() {
            let step = node
                .0
                .get(&pair[0])
                .ok_or(WalkError::NotAccepted(2 * i + 1))?;
            match &step.reply {
                None => return Err(WalkError::PastTheEnd(2 * i + 2)),
                Some(r) if *r != pair[1] => return Err(WalkError::NotTheReply(2 * i + 2)),
                Some(_) => node = &step.next,
            }
        }
        Ok(match node.0.get(&line[last]) {
            None => Verdict::Wrong,
            Some(step) => Verdict::Correct {
                reply: step.reply.clone(),
                solved: step.reply.is_none(),
            },
        })
    }

    /// The node that `line` (moves and replies in pairs, all accepted) leads to.
    #[must_use]
    pub fn at(&self, line: &[String]) -> Option<&ProofNode> {
        let mut node = self;
        for pair in line.chunks(2) {
            let step = node.0.get(&pair[0])?;
            match (pair.get(1), &step.reply) {
                (Some(r), Some(reply)) if r == reply => node = &step.next,
                _ => return None,
            }
        }
        Some(node)
    }
}

impl Puzzle {
    /// "White to play and win: VCF in 3" — the puzzle's task in words.
    #[must_use]
    pub fn goal(&self) -> String {
        let side = match self.to_move {
            Color::Black => "Black",
            Color::White => "White",
        };
        let n = self.length;
        let moves = if n == 1 { "move" } else { "moves" };
        match self.variant.as_str() {
            "othello" => format!(
                "{side} to play: find the only winning move, and keep the win for {n} {moves}"
            ),
            v if v.starts_with("gomoku") => {
                let kind = if self.themes.iter().any(|t| t == "vct") {
                    "VCT"
                } else {
                    "VCF"
                };
                format!("{side} to play and win: {kind} in {n}")
            }
            _ => format!("{side} to play and win in {n}"),
        }
    }

    /// Whether moves other than the main line's are accepted somewhere in the tree.
    #[must_use]
    pub fn has_alternatives(&self) -> bool {
        fn any(node: &ProofNode) -> bool {
            node.0.len() > 1 || node.0.values().any(|s| any(&s.next))
        }
        any(&self.proof)
    }
}
