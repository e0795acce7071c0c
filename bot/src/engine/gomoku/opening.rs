//! The Gomoku engine's decisions in an opening rule (swap2, Soosõrv-8, Taraguchi-10), as
//! either player (docs/engines.md, "Opening rules").
//!
//! Two measures of a position serve every decision:
//! - the *judgement*: a shallow search ([`JUDGE_DEPTH`] plies, at the bot's own level, so a
//!   weak bot judges with its own noise) scored for a colour; it decides swaps, colours,
//!   declarations and the choice among offered 5th moves;
//! - the *static value* ([`super::eval::evaluate`]) after a candidate stone, cheap enough to
//!   rank every cell near the stones.
//!
//! A stone after which the other player may still swap or pick a colour should leave the
//! position *balanced*: the bot places one of the few stones whose static value is nearest
//! to even (picked by the seed). A stone that ends the opening is a real move: the ordinary
//! search plays it. Offered 5th moves are the bot's best cells, one of each class of
//! symmetrical cells, since the opponent keeps the one worst for the bot.

use game_core::gomoku::Gomoku;
use game_core::opening::{Area, LegalChoice, Opening, OpeningChoice, OpeningPhase, Role};
use game_core::{Cell, Color, Position};

use super::board::{side, Board};
use super::eval;
use super::GomokuEngine;
use crate::engine::value::WIN_BOUND;
use crate::engine::{Score, SearchLimits, SearchRequest, SearchResult};

/// Depth of the search that judges a position.
pub const JUDGE_DEPTH: u32 = 3;
/// A judgement within this many centi-stones of even counts as balanced: swap2's second
/// player then places two more stones rather than take a colour.
pub const BALANCED: i32 = 40;
/// How far from the stones (in rows or columns) a candidate stone may be.
const REACH: u8 = 2;
/// The balanced stones a seed picks among.
const BALANCED_PICKS: usize = 3;

/// The decision for whoever acts in `opening`, as a search result whose `best` is the
/// choice's text; `None` once the opening is over.
pub fn decide(
    engine: &mut GomokuEngine,
    opening: &Opening,
    request: &SearchRequest,
) -> Option<SearchResult> {
    let role = opening.to_act()?;
    let me = opening.color_of(role);
    let legal = opening.legal_choices();
    let position = opening.position();
    let mut judged = Judge {
        engine,
        request,
        nodes: 0,
    };
    let (choice, score) = match opening.phase() {
        OpeningPhase::Over => return None,
        OpeningPhase::Swap => {
            // Staying keeps `me`; swapping hands `me` to the other player.
            let value = judged.value(position, me);
            let choice = if value >= 0 {
                OpeningChoice::Stay
            } else {
                OpeningChoice::Swap
            };
            (choice, value.abs())
        }
        // Swap2's second player: a colour when the position leans, two more stones when it
        // is balanced.
        OpeningPhase::Swap2 => {
            let value = judged.value(position, me);
            if value > BALANCED {
                (OpeningChoice::Stay, value)
            } else if value < -BALANCED {
                (OpeningChoice::Swap, -value)
            } else {
                judged.stone(opening, role, Area::Board)?
            }
        }
        OpeningPhase::Color => {
            let white = judged.value(position, Color::White);
            let color = if white >= 0 {
                Color::White
            } else {
                Color::Black
            };
            (OpeningChoice::Color(color), white.abs())
        }
        OpeningPhase::Declare => {
            let white = judged.value(position, Color::White);
            let max = legal.iter().find_map(|c| match c {
                LegalChoice::Declare { max } => Some(*max),
                _ => None,
            })?;
            (OpeningChoice::Declare(declaration(white, max)), white)
        }
        OpeningPhase::Choose => {
            let best = opening
                .proposals()
                .iter()
                .map(|&cell| (cell, judged.value(&with(position, cell), me)))
                .max_by_key(|&(_, value)| value)?;
            (OpeningChoice::Choose(best.0), best.1)
        }
        // A stone, or (Taraguchi-10 offers both) the 5th moves to choose from: a stone is
        // preferred, since a swap follows it.
        OpeningPhase::Place | OpeningPhase::Fifth => {
            let place = legal.iter().find_map(|c| match c {
                LegalChoice::Place { area, .. } => Some(*area),
                _ => None,
            });
            let propose = legal.iter().find_map(|c| match c {
                LegalChoice::ProposeFifths { n, area } => Some((*n, *area)),
                _ => None,
            });
            match (place, propose) {
                (Some(area), _) => judged.stone(opening, role, area)?,
                (None, Some((n, area))) => (OpeningChoice::Fifths(fifths(opening, n, area, me)), 0),
                (None, None) => return None,
            }
        }
    };
    Some(judged.result(choice, score))
}

/// Soosõrv-8's declaration: the worse the position looks for white, the more 5th moves white
/// asks black to offer (white keeps the best of them): two when even, one more or fewer for
/// each 100 centi-stones, within 1..=`max`.
#[must_use]
pub fn declaration(white: i32, max: u8) -> u8 {
    let n = 2 - white.clamp(-1_000, 1_000) / 100;
    n.clamp(1, i32::from(max)) as u8
}

/// The position with a stone of the colour to move on `cell`.
fn with(position: &Gomoku, cell: Cell) -> Gomoku {
    let mut next = position.clone();
    next.play_unchecked(cell);
    next
}

/// The static value of `position` for `color`, in centi-stones.
fn static_value(position: &Gomoku, color: Color) -> i32 {
    let board = Board::from_position(position);
    let value = eval::evaluate(&board, false);
    if board.turn() == side(color) {
        value
    } else {
        -value
    }
}

/// The cells of `area` where a stone may go, near the stones (the centre on an empty board).
fn candidates(opening: &Opening, area: Area) -> Vec<Cell> {
    let position = opening.position();
    let stones: Vec<Cell> = position.stones().map(|(cell, _)| cell).collect();
    let centre = position.size() / 2;
    let near = |cell: &Cell| {
        if stones.is_empty() {
            return cell.col.abs_diff(centre) <= 1 && cell.row.abs_diff(centre) <= 1;
        }
        stones
            .iter()
            .any(|s| s.col.abs_diff(cell.col) <= REACH && s.row.abs_diff(cell.row) <= REACH)
    };
    let cells = opening.cells(area);
    let close: Vec<Cell> = cells.iter().copied().filter(near).collect();
    if close.is_empty() {
        cells
    } else {
        close
    }
}

/// `n` 5th moves for black (`me`), no two symmetrical: the best by static value.
fn fifths(opening: &Opening, n: u8, area: Area, me: Color) -> Vec<Cell> {
    let position = opening.position();
    let near = candidates(opening, area);
    let mut classes = opening.distinct_cells(area);
    // Near cells first, so the offer stays where the game is.
    classes.sort_by_key(|cell| !near.contains(cell));
    let mut ranked: Vec<(Cell, i32, bool)> = classes
        .into_iter()
        .map(|cell| {
            let value = static_value(&with(position, cell), me);
            (cell, value, near.contains(&cell))
        })
        .collect();
    ranked.sort_by_key(|&(_, value, close)| (!close, -value));
    ranked
        .into_iter()
        .take(usize::from(n))
        .map(|(cell, _, _)| cell)
        .collect()
}

/// The bot's searches within one decision, with the nodes they cost.
struct Judge<'a> {
    engine: &'a mut GomokuEngine,
    request: &'a SearchRequest,
    nodes: u64,
}

impl Judge<'_> {
    /// The judgement of `position` for `color`: a shallow search's score for the side to
    /// move, turned to `color`'s side; a win counts as [`WIN_BOUND`].
    fn value(&mut self, position: &Gomoku, color: Color) -> i32 {
        if let Some(outcome) = position.outcome() {
            return match outcome.winner {
                Some(winner) if winner == color => WIN_BOUND,
                Some(_) => -WIN_BOUND,
                None => 0,
            };
        }
        let request = SearchRequest {
            limits: SearchLimits::Depth(JUDGE_DEPTH),
            ..self.request.clone()
        };
        let Some(result) = self.engine.search_gomoku(position, &request) else {
            return 0;
        };
        self.nodes += result.nodes;
        let for_mover = match result.score {
            Score::Heuristic(v) | Score::Exact(v) => v,
            Score::WinIn(plies) if plies > 0 => WIN_BOUND,
            Score::WinIn(_) => -WIN_BOUND,
        };
        if position.turn() == color {
            for_mover
        } else {
            -for_mover
        }
    }

    /// A stone for `role` in `area`: the engine's own move when it ends the opening, else a
    /// balanced one.
    fn stone(&mut self, opening: &Opening, role: Role, area: Area) -> Option<(OpeningChoice, i32)> {
        let cells = candidates(opening, area);
        let ends = |cell: Cell| {
            let mut probe = opening.clone();
            probe.apply(role, &OpeningChoice::Place(cell)).is_ok() && probe.is_over()
        };
        let first = *cells.first()?;
        let position = opening.position();
        if ends(first) {
            if let Some(found) = self.engine.search_gomoku(position, self.request) {
                self.nodes += found.nodes;
                if let Ok(cell) = found.best.parse::<Cell>() {
                    if opening.cells(area).contains(&cell) {
                        let score = match found.score {
                            Score::Heuristic(v) | Score::Exact(v) => v,
                            Score::WinIn(_) => WIN_BOUND,
                        };
                        return Some((OpeningChoice::Place(cell), score));
                    }
                }
            }
        }
        let mover = position.turn();
        let mut ranked: Vec<(i32, Cell)> = cells
            .into_iter()
            .map(|cell| (static_value(&with(position, cell), mover).abs(), cell))
            .collect();
        ranked.sort();
        let picks = ranked.len().min(BALANCED_PICKS);
        let (value, cell) = ranked[(self.request.seed % picks as u64) as usize];
        Some((OpeningChoice::Place(cell), value))
    }

    fn result(&self, choice: OpeningChoice, score: i32) -> SearchResult {
        let best = choice.to_string();
        SearchResult {
            best: best.clone(),
            score: Score::Heuristic(score),
            exact: false,
            depth: JUDGE_DEPTH,
            nodes: self.nodes,
            ms: 0,
            pv: vec![best],
        }
    }
}

#[cfg(test)]
mod tests;
