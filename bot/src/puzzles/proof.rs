//! The proof of a puzzle, built the same way for every game: from the attacker's position,
//! every move the game's [`Prover`] offers is tried; a move is kept when every reply of the
//! defender still leaves the attacker a proven win within the moves left, and the reply kept
//! with it is the longest resistance. What counts as a win and which moves are worth trying
//! is each game's (`gomoku`, `connect4`, `othello` beside this file).

use game_core::puzzle::{ProofNode, ProofStep};
use game_core::{AnyPosition, Color};

/// A tree grown past this many nodes is given up: the puzzle would cost too much to ship.
pub const MAX_NODES: usize = 400;

/// Why no proof came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoProof {
    /// The attacker has no win within the moves asked.
    NoWin,
    /// A solver ran out of its budget: nothing is proven either way.
    Unknown,
    /// The tree grew past [`MAX_NODES`].
    TooBig,
    /// A position the generator does not make puzzles of (an attacker's forced pass).
    Unsuited,
}

/// One game's solver, as the proof needs it. Values are the defender's resistance: larger is
/// better for him (a longer win, a smaller margin).
pub trait Prover {
    /// The attacker to move: the moves that may keep his win, the best-looking first. A
    /// winning move left out would be refused, so this must cover every one (or the game's
    /// puzzle says which kind of move it asks for: fours in a VCF).
    fn attacker_moves(&mut self, pos: &AnyPosition) -> Result<Vec<String>, NoProof>;
    /// The defender to move: his replies worth trying; any he has that is not listed must
    /// lose at least as fast as one that is. None: nothing is proven after this move.
    fn defender_moves(&mut self, pos: &AnyPosition) -> Vec<String>;
    /// The attacker to move: `Some(resistance)` when he has a proven win within `moves` of
    /// his moves, `None` when he has none.
    fn wins_within(&mut self, pos: &AnyPosition, moves: u32) -> Result<Option<i32>, NoProof>;
    /// The defender to move, the puzzle's last move made: `Some(resistance)` when the attacker
    /// has a proven win without playing it out (Othello's exact score), else `None`.
    fn won_after(&mut self, _pos: &AnyPosition) -> Result<Option<i32>, NoProof> {
        Ok(None)
    }
}

/// A proof: the tree, the main line (the attacker's quickest moves and the replies) and the
/// length it was proven within, in attacker moves (the main line may be shorter).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub tree: ProofNode,
    pub line: Vec<String>,
    pub length: u32,
}

/// An accepted move while the tree grows: its value (the defender's best resistance after it)
/// and the node below the kept reply.
struct Kept {
    mv: String,
    value: i32,
    reply: Option<String>,
    next: Option<Box<Built>>,
}

struct Built {
    kept: Vec<Kept>,
}

/// Proves that the side to move in `pos` wins within `moves` of his moves.
pub fn prove(prover: &mut dyn Prover, pos: &AnyPosition, moves: u32) -> Result<Proof, NoProof> {
    let mut nodes = 0;
    let attacker = pos.turn();
    let built = grow(prover, pos, attacker, moves, &mut nodes)?;
    let mut line = Vec::new();
    let mut node = &built;
    loop {
        let best = node
            .kept
            .iter()
            .min_by_key(|k| k.value)
            .expect("a grown node keeps a move");
        line.push(best.mv.clone());
        match (&best.reply, &best.next) {
            (Some(reply), Some(next)) => {
                line.push(reply.clone());
                node = next;
            }
            _ => break,
        }
    }
    Ok(Proof {
        tree: to_tree(&built),
        line,
        length: moves,
    })
}

fn to_tree(built: &Built) -> ProofNode {
    let mut node = ProofNode::default();
    for k in &built.kept {
        let next = k.next.as_ref().map(|b| to_tree(b)).unwrap_or_default();
        node.0.insert(
            k.mv.clone(),
            ProofStep {
                reply: k.reply.clone(),
                next,
            },
        );
    }
    node
}

fn grow(
    prover: &mut dyn Prover,
    pos: &AnyPosition,
    attacker: Color,
    moves: u32,
    nodes: &mut usize,
) -> Result<Built, NoProof> {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return Err(NoProof::TooBig);
    }
    let mut kept = Vec::new();
    for mv in prover.attacker_moves(pos)? {
        let mut after = pos.clone();
        let mv = after.play_str(&mv).map_err(|_| NoProof::Unsuited)?;
        if let Some(k) = keep(prover, &after, mv, attacker, moves, nodes)? {
            kept.push(k);
        }
    }
    if kept.is_empty() {
        return Err(NoProof::NoWin);
    }
    Ok(Built { kept })
}

/// Whether the attacker's move `mv` (played: `after`) keeps the win, and with what.
fn keep(
    prover: &mut dyn Prover,
    after: &AnyPosition,
    mv: String,
    attacker: Color,
    moves: u32,
    nodes: &mut usize,
) -> Result<Option<Kept>, NoProof> {
    let done = |value| Kept {
        mv: mv.clone(),
        value,
        reply: None,
        next: None,
    };
    if let Some(outcome) = after.outcome() {
        return Ok((outcome.winner == Some(attacker)).then(|| done(0)));
    }
    if moves == 1 {
        return Ok(prover.won_after(after)?.map(done));
    }
    let mut longest: Option<(i32, String, AnyPosition)> = None;
    for reply in prover.defender_moves(after) {
        let mut next = after.clone();
        let reply = next.play_str(&reply).map_err(|_| NoProof::Unsuited)?;
        if next.is_over() {
            return Ok(None);
        }
        let Some(value) = prover.wins_within(&next, moves - 1)? else {
            return Ok(None);
        };
        if longest.as_ref().is_none_or(|(v, _, _)| value > *v) {
            longest = Some((value, reply, next));
        }
    }
    // No reply to try: the prover knows of no defence that loses (nothing forces him).
    let Some((value, reply, next)) = longest else {
        return Ok(None);
    };
    let below = match grow(prover, &next, attacker, moves - 1, nodes) {
        Ok(built) => built,
        // The solver said this reply loses within the moves left, yet no move below proves
        // it: the two disagree, and nothing is shipped on a disagreement.
        Err(NoProof::NoWin) => return Err(NoProof::Unknown),
        Err(e) => return Err(e),
    };
    Ok(Some(Kept {
        mv,
        value,
        reply: Some(reply),
        next: Some(Box::new(below)),
    }))
}
