//! Opening rules against labelled tables: the legal choices and their counts at every phase of
//! swap2, Soosõrv-8 and Taraguchi-10 on the empty 15x15 board, perft counts of whole choice
//! trees, every branch played out, every refusal with its error, the notation, and the game
//! spec with and without an opening rule; then properties of random openings.

mod branches;
mod notation;
mod perft;
mod phases;
mod properties;
mod refusals;

use std::collections::BTreeSet;

use game_core::opening::{
    Area, ChoiceError, LegalChoice, Opening, OpeningChoice, OpeningError, OpeningPhase,
    ParseChoiceError, ReplayError, Role,
};
use game_core::symmetry::{self, Symmetry};
use game_core::{
    AnyPosition, Cell, Color, GameSpec, GomokuRule, IllegalMoveError, OpeningRule, Position,
    SpecError,
};
use proptest::prelude::*;

const SWAP2: OpeningRule = OpeningRule::Swap2;
const SOOSORV: OpeningRule = OpeningRule::Soosorv8;
const TARAGUCHI: OpeningRule = OpeningRule::Taraguchi10;

fn spec(rule: OpeningRule) -> GameSpec {
    match rule {
        OpeningRule::Swap2 => GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, rule),
        _ => GameSpec::gomoku_with_opening(15, GomokuRule::Renju, rule),
    }
}

fn cell(text: &str) -> Cell {
    text.parse().unwrap()
}

/// The opening after a script of choices separated by `;`, each made by the player whose
/// decision it is.
fn opened(rule: OpeningRule, script: &str) -> Opening {
    let mut opening = Opening::new(&spec(rule)).unwrap();
    for text in script.split(';').map(str::trim).filter(|t| !t.is_empty()) {
        let by = opening.to_act().expect("the script goes past the opening");
        opening
            .apply_str(by, text)
            .unwrap_or_else(|e| panic!("{text:?} in {script:?}: {e}"));
    }
    opening
}

/// The legal choices with the number of cells of each placement and offer (and, for offers,
/// the number of cells that are not symmetrical to each other), as one line of text.
fn summary(opening: &Opening) -> String {
    let items: Vec<String> = opening
        .legal_choices()
        .iter()
        .map(|choice| match *choice {
            LegalChoice::Place { color, count, area } => {
                format!(
                    "{color} x{count} {}={}",
                    area_name(area),
                    opening.cells(area).len()
                )
            }
            LegalChoice::ProposeFifths { n, area } => format!(
                "fifths {n} {}={}/{}",
                area_name(area),
                opening.cells(area).len(),
                opening.distinct_cells(area).len()
            ),
            LegalChoice::Swap => "swap".to_string(),
            LegalChoice::Stay => "stay".to_string(),
            LegalChoice::ChooseColor => "color".to_string(),
            LegalChoice::Declare { max } => format!("declare 1..={max}"),
            LegalChoice::ChooseFifth => format!("choose {}", opening.proposals().len()),
        })
        .collect();
    items.join(" | ")
}

fn area_name(area: Area) -> String {
    match area {
        Area::Board => "board".to_string(),
        Area::Central(side) => format!("c{side}"),
    }
}

// Black h8 and h10, white h9 and h7: the position is its own mirror image across column h, so
// of the 221 empty cells the 11 on column h stand alone and the other 210 pair up: 116 classes.
const COLUMN_H: &str = "h8; stay; h9; stay; h10; stay; h7; stay";

/// Soosõrv-8 at black's 5th moves (three declared), and Taraguchi-10 at its 5th move.
const SOOSORV_AT_FIFTHS: &str = "h8; h9; j10; stay; k12; declare 3; stay";
const TARAGUCHI_AT_FIFTH: &str = "h8; stay; i9; stay; j7; stay; e5; stay";
