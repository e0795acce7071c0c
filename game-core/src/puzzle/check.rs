//! A puzzle checked by the rules alone, as the server checks one an analysis worker sends: the
//! position stands, every move and reply of the tree is legal where it is played, in games won
//! by a line on the board (Gomoku, Connect Four) every branch ends in the attacker's win, the
//! main line is a branch, and the tree is small enough to keep. That a reply is the defender's
//! longest resistance the rules cannot tell; the worker's solver answers for it, as its
//! evaluations answer for a review.

use super::{ProofNode, Puzzle};
use crate::{AnyPosition, Color, GameKind};

/// The most nodes a puzzle's tree may have: over twice the largest the generator keeps (its
/// own bound counts the nodes it searched, not those it kept).
pub const MOST_NODES: usize = 1000;

impl Puzzle {
    /// Whether the puzzle stands by the rules (see the module's comment); why not, in words.
    pub fn check(&self) -> Result<(), String> {
        let start = AnyPosition::with_moves(&self.game, &self.moves)
            .map_err(|e| format!("the position does not stand: {e}"))?;
        if start.is_over() {
            return Err("the game is over in the position".into());
        }
        if start.turn() != self.to_move {
            return Err("the side to move is not the position's".into());
        }
        if self.proof.is_empty() {
            return Err("the tree accepts no move".into());
        }
        if self.proof.size() > MOST_NODES {
            return Err(format!("the tree has over {MOST_NODES} nodes"));
        }
        let wins_on_board = start.kind() != GameKind::Othello;
        check_node(
            &self.proof,
            &start,
            self.to_move,
            self.length,
            wins_on_board,
        )?;
        if self.line.len().is_multiple_of(2) || self.line.len().div_ceil(2) as u32 > self.length {
            return Err(
                "the main line does not end with the player's move within the length".into(),
            );
        }
        match self.proof.walk(&self.line) {
            Ok(super::Verdict::Correct { solved: true, .. }) => Ok(()),
            _ => Err("the main line is not a branch of the tree".into()),
        }
    }
}

/// One node of the tree, the attacker to move in `pos` with `moves_left` moves.
fn check_node(
    node: &ProofNode,
    pos: &AnyPosition,
    attacker: Color,
    moves_left: u32,
    wins_on_board: bool,
) -> Result<(), String> {
    if moves_left == 0 {
        return Err("a branch is longer than the puzzle's length".into());
    }
    for (mv, step) in &node.0 {
        let mut after = pos.clone();
        let canonical = after
            .play_str(mv)
            .map_err(|e| format!("{mv} is not legal: {e}"))?;
        if canonical != *mv {
            return Err(format!("{mv} is not written as the rules write it"));
        }
        let won = after.outcome().is_some_and(|o| o.winner == Some(attacker));
        match &step.reply {
            None => {
                if wins_on_board && !won {
                    return Err(format!("the branch ending with {mv} is no win"));
                }
                if !step.next.is_empty() {
                    return Err(format!("{mv} ends the puzzle yet is followed"));
                }
            }
            Some(reply) => {
                if after.is_over() {
                    return Err(format!("the game is over after {mv}: no reply"));
                }
                after
                    .play_str(reply)
                    .map_err(|e| format!("the reply {reply} to {mv} is not legal: {e}"))?;
                if after.is_over() || after.turn() != attacker || step.next.is_empty() {
                    return Err(format!("the branch {mv} {reply} does not go on"));
                }
                check_node(&step.next, &after, attacker, moves_left - 1, wins_on_board)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::ProofStep;
    use crate::GameSpec;

    fn step(reply: Option<&str>, next: ProofNode) -> ProofStep {
        ProofStep {
            reply: reply.map(String::from),
            next,
        }
    }

    fn node(entries: Vec<(&str, ProofStep)>) -> ProofNode {
        ProofNode(
            entries
                .into_iter()
                .map(|(m, s)| (m.to_string(), s))
                .collect(),
        )
    }

    /// Connect Four: black has three in column 1 (white's discs are on 2 and 7), to move.
    fn connect4(proof: ProofNode, line: &[&str]) -> Puzzle {
        Puzzle {
            id: "connect4-t".into(),
            variant: "connect4".into(),
            game: GameSpec::connect4(7, 6),
            moves: ["1", "2", "1", "2", "1", "7"].map(String::from).to_vec(),
            to_move: Color::Black,
            length: 1,
            themes: vec!["win".into()],
            line: line.iter().map(|s| s.to_string()).collect(),
            proof,
            source: None,
        }
    }

    #[test]
    fn a_true_win_passes_and_false_ones_say_why() {
        let p = connect4(node(vec![("1", step(None, ProofNode::default()))]), &["1"]);
        assert_eq!(p.check(), Ok(()));

        let mut wrong = p.clone();
        wrong.proof = node(vec![("3", step(None, ProofNode::default()))]);
        wrong.line = vec!["3".into()];
        assert!(wrong.check().unwrap_err().contains("no win"));

        let mut illegal = p.clone();
        illegal.proof = node(vec![("9", step(None, ProofNode::default()))]);
        assert!(illegal.check().unwrap_err().contains("not legal"));

        let mut side = p.clone();
        side.to_move = Color::White;
        assert!(side.check().unwrap_err().contains("side to move"));

        let mut off_tree = p.clone();
        off_tree.line = vec!["4".into()];
        assert!(off_tree.check().unwrap_err().contains("branch"));

        let mut long = p.clone();
        long.proof = node(vec![(
            "4",
            step(
                Some("5"),
                node(vec![("1", step(None, ProofNode::default()))]),
            ),
        )]);
        long.line = ["4", "5", "1"].map(String::from).to_vec();
        assert!(long.check().unwrap_err().contains("longer"));
        long.length = 2;
        assert_eq!(long.check(), Ok(()));
    }
}
