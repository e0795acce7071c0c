//! The opening rules of tournament Gomoku and Renju — swap2, Soosõrv-8 and Taraguchi-10 — as
//! a state machine over a [`Gomoku`] position. When the opening is over the position is an
//! ordinary game position, and who holds which colour is known.
//!
//! The two players are named by the part they play, [`Role::First`] (who starts the opening,
//! the "tentative black") and [`Role::Second`], because the colours can change hands. Stones
//! go on the board in the usual order — black, white, black... — so the colour of every stone
//! follows from the number of stones, as in an ordinary game; a swap changes who holds a
//! colour, never a stone. Each step of an opening is one decision of one player
//! ([`Opening::to_act`]), chosen from [`Opening::legal_choices`] and made with
//! [`Opening::apply`], which checks it and leaves the opening unchanged when it is refused.
//!
//! # The rules, as played here
//!
//! **Swap2** (Gomoku; the opening of the Gomoku World Championship and of Gomocup):
//! 1. The first player places three stones anywhere: black, white, black.
//! 2. The second player chooses: `stay` (keep white; the opening is over and they play the
//!    4th move as white), `swap` (take black; the first player, now white, plays the 4th
//!    move), or places two more stones anywhere, the 4th (white) and the 5th (black).
//! 3. After the two more stones the first player chooses a colour, `black` or `white`; the
//!    opening is over and white plays the 6th move.
//!
//! **Soosõrv-8** (Renju 15x15; the opening of the Renju World Championship since 2017):
//! 1. The first player places one of the 26 openings: the 1st move (black) on the centre,
//!    the 2nd (white) in the central 3x3 square, the 3rd (black) in the central 5x5 square.
//! 2. The second player may swap (`swap` or `stay`).
//! 3. White places the 4th move anywhere, then declares how many 5th moves will be offered,
//!    1 to 8 (`declare N`).
//! 4. Black may swap (`swap` or `stay`).
//! 5. Black offers that many 5th moves anywhere, no two of them symmetrical (`fifths ...`);
//!    with 1 declared, black simply places the 5th move.
//! 6. White chooses the offered 5th move that stays (`choose ...`); the others leave the
//!    board, the opening is over, and white plays the 6th move.
//!
//! **Taraguchi-10** (Renju 15x15):
//! 1. The first player places the 1st move (black) on the centre. The other player may swap.
//! 2. White places the 2nd move in the central 3x3 square. The other player may swap.
//! 3. Black places the 3rd move in the central 5x5 square. The other player may swap.
//! 4. White places the 4th move in the central 7x7 square. The other player may swap.
//! 5. Black either places the 5th move in the central 9x9 square, after which the other
//!    player may swap once more, or offers ten 5th moves anywhere, no two of them
//!    symmetrical, of which white chooses one. Either way the opening is then over and white
//!    plays the 6th move.
//!
//! "The other player may swap" is a decision of the player who did not place the last stone
//! (who holds the colour of the next one): `swap` hands the next stone to the other player.
//!
//! Two offered 5th moves are *symmetrical* when one of the eight symmetries of the board maps
//! the position with the one onto the position with the other ([`crate::symmetry`]). Renju's
//! forbidden points apply to black from the first move, offered 5th moves included; before
//! the 6th move black has at most two stones besides the one placed, too few for any forbidden
//! shape, so the check never refuses an opening stone in practice.
//!
//! Sources: the Renju International Federation's pages for the *Soosõrv-8* and
//! *Taraguchi-10* rules and *The International Rules of Renju* (renju.net); the swap2 rule of
//! the Gomoku World Championship and Gomocup as set out in Wikipedia's *Gomoku*; Wikipedia's
//! *Soosõrv opening rule* and *Taraguchi opening rule*, and the RIF discussion of Taraguchi
//! that makes "no two 5th moves symmetrical" part of every multi-5th rule.
//!
//! ```
//! use game_core::opening::{Opening, OpeningChoice, OpeningPhase, Role};
//! use game_core::{Color, GameSpec, GomokuRule, OpeningRule};
//!
//! let spec = GameSpec::gomoku_with_opening(15, GomokuRule::Freestyle, OpeningRule::Swap2);
//! let mut opening = Opening::new(&spec).unwrap();
//! for cell in ["h8", "i9", "j8"] {
//!     opening.apply_str(Role::First, cell).unwrap();
//! }
//! assert_eq!(opening.to_act(), Some(Role::Second));
//! assert!(opening.apply_str(Role::First, "swap").is_err()); // not the first player's call
//! opening.apply(Role::Second, &OpeningChoice::Swap).unwrap();
//! assert_eq!(opening.phase(), OpeningPhase::Over);
//! assert_eq!(opening.color_of(Role::Second), Color::Black);
//! assert_eq!(opening.position().stones().count(), 3); // white, the first player, moves next
//! ```

mod choice;
mod error;
mod legal;
mod role;

use serde::{Deserialize, Serialize};

pub use choice::{opening_stones, OpeningChoice};
pub use error::{ChoiceError, OpeningError, ParseChoiceError, ReplayError};
pub use legal::{Area, LegalChoice, OpeningPhase};
pub use role::Role;

use crate::error::SpecError;
use crate::gomoku::Gomoku;
use crate::position::{Cell, Position};
use crate::spec::{GameSpec, OpeningRule};
use crate::symmetry;
use crate::Color;

/// Most 5th moves a Soosõrv-8 declaration may name.
pub const SOOSORV_MAX_FIFTHS: u8 = 8;
/// The number of 5th moves offered in Taraguchi-10.
pub const TARAGUCHI_FIFTHS: u8 = 10;
/// The central square of Taraguchi-10's single 5th move.
const TARAGUCHI_FIFTH_SQUARE: u8 = 9;

/// What a client needs to show an opening: the proposed `state.opening_state` of the
/// protocol (docs/protocol.md, "Opening rules").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningView {
    pub rule: OpeningRule,
    pub phase: OpeningPhase,
    /// Whose decision it is; `null` once the opening is over.
    pub to_act: Option<Role>,
    /// Who holds black now.
    pub black: Role,
    /// The choices open to `to_act`; empty once the opening is over.
    pub legal: Vec<LegalChoice>,
    /// Soosõrv-8: the number of 5th moves declared, once it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<u8>,
    /// The offered 5th moves while white chooses, in notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub proposals: Vec<String>,
}

/// An opening in progress (or over) on its Gomoku position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    position: Gomoku,
    phase: OpeningPhase,
    black: Role,
    declared: Option<u8>,
    proposals: Vec<Cell>,
    choices: Vec<OpeningChoice>,
}

impl Opening {
    /// The start of the opening of a spec, which must be a valid Gomoku spec with an opening
    /// rule.
    pub fn new(spec: &GameSpec) -> Result<Opening, SpecError> {
        spec.validate()?;
        let (GameSpec::Gomoku { size, rule, .. }, Some(opening)) = (spec, spec.opening_rule())
        else {
            return Err(SpecError::NoOpeningRule);
        };
        Ok(Opening {
            rule: opening,
            position: Gomoku::new(*size as u8, *rule)?,
            phase: OpeningPhase::Place,
            black: Role::First,
            declared: None,
            proposals: Vec::new(),
            choices: Vec::new(),
        })
    }

    /// The opening of `spec` after the choice texts `choices`, each made by the player whose
    /// decision it was; the first that fails is reported with its index.
    pub fn replay<S: AsRef<str>>(spec: &GameSpec, choices: &[S]) -> Result<Opening, ReplayError> {
        let mut opening = Opening::new(spec)?;
        for (index, text) in choices.iter().enumerate() {
            let by = opening.to_act().unwrap_or(Role::First);
            opening
                .apply_str(by, text.as_ref())
                .map_err(|error| ReplayError::Choice { index, error })?;
        }
        Ok(opening)
    }

    #[must_use]
    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    /// The board: the stones placed so far (offered 5th moves are not on it).
    #[must_use]
    pub fn position(&self) -> &Gomoku {
        &self.position
    }

    /// The position, to go on with the game once the opening is over.
    #[must_use]
    pub fn into_position(self) -> Gomoku {
        self.position
    }

    #[must_use]
    pub fn phase(&self) -> OpeningPhase {
        self.phase
    }

    #[must_use]
    pub fn is_over(&self) -> bool {
        self.phase == OpeningPhase::Over
    }

    /// Who holds black now; once the opening is over, for the rest of the game.
    #[must_use]
    pub fn black(&self) -> Role {
        self.black
    }

    /// The colour a player holds now.
    #[must_use]
    pub fn color_of(&self, role: Role) -> Color {
        if role == self.black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The player holding a colour now.
    #[must_use]
    pub fn role_of(&self, color: Color) -> Role {
        match color {
            Color::Black => self.black,
            Color::White => self.black.other(),
        }
    }

    /// Soosõrv-8: the number of 5th moves declared, once it is.
    #[must_use]
    pub fn declared(&self) -> Option<u8> {
        self.declared
    }

    /// The offered 5th moves while white chooses among them; empty otherwise.
    #[must_use]
    pub fn proposals(&self) -> &[Cell] {
        &self.proposals
    }

    /// The choices made so far, in order.
    #[must_use]
    pub fn choices(&self) -> &[OpeningChoice] {
        &self.choices
    }

    fn stones(&self) -> usize {
        self.position.ply()
    }

    /// The colour of the next stone on the board.
    fn next_stone(&self) -> Color {
        self.position.turn()
    }

    /// Whose decision it is; `None` once the opening is over (the game's moves then belong to
    /// [`Opening::role_of`] the colour to move).
    #[must_use]
    pub fn to_act(&self) -> Option<Role> {
        let stones = self.stones();
        let holder_of_next = self.role_of(self.next_stone());
        Some(match self.phase {
            OpeningPhase::Place => match self.rule {
                OpeningRule::Swap2 if stones < 3 => Role::First,
                OpeningRule::Swap2 => Role::Second,
                OpeningRule::Soosorv8 if stones < 3 => Role::First,
                OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => holder_of_next,
            },
            OpeningPhase::Swap | OpeningPhase::Fifth => holder_of_next,
            OpeningPhase::Swap2 => Role::Second,
            OpeningPhase::Color => Role::First,
            OpeningPhase::Declare | OpeningPhase::Choose => self.role_of(Color::White),
            OpeningPhase::Over => return None,
        })
    }

    /// The kinds of choice open to [`Opening::to_act`]; empty once the opening is over.
    #[must_use]
    pub fn legal_choices(&self) -> Vec<LegalChoice> {
        let stones = self.stones();
        // Stones counted from 1: the k-th stone of the opening rules goes in the central
        // (2k-1)x(2k-1) square.
        let growing = Area::Central(2 * stones as u8 + 1);
        let place = |count: u8, area: Area| LegalChoice::Place {
            color: self.next_stone(),
            count,
            area,
        };
        match self.phase {
            OpeningPhase::Place => vec![match self.rule {
                OpeningRule::Swap2 if stones < 3 => place(3 - stones as u8, Area::Board),
                OpeningRule::Swap2 => place(1, Area::Board),
                OpeningRule::Soosorv8 if stones < 3 => place(3 - stones as u8, growing),
                OpeningRule::Soosorv8 => place(1, Area::Board),
                OpeningRule::Taraguchi10 => place(1, growing),
            }],
            OpeningPhase::Swap => vec![LegalChoice::Swap, LegalChoice::Stay],
            OpeningPhase::Swap2 => {
                vec![LegalChoice::Stay, LegalChoice::Swap, place(2, Area::Board)]
            }
            OpeningPhase::Color => vec![LegalChoice::ChooseColor],
            OpeningPhase::Declare => vec![LegalChoice::Declare {
                max: SOOSORV_MAX_FIFTHS,
            }],
            OpeningPhase::Fifth => match (self.rule, self.declared) {
                (OpeningRule::Taraguchi10, _) => vec![
                    place(1, Area::Central(TARAGUCHI_FIFTH_SQUARE)),
                    LegalChoice::ProposeFifths {
                        n: TARAGUCHI_FIFTHS,
                        area: Area::Board,
                    },
                ],
                (_, Some(n)) if n > 1 => vec![LegalChoice::ProposeFifths {
                    n,
                    area: Area::Board,
                }],
                _ => vec![place(1, Area::Board)],
            },
            OpeningPhase::Choose => vec![LegalChoice::ChooseFifth],
            OpeningPhase::Over => Vec::new(),
        }
    }

    /// The cells of `area` where the next stone may go: empty, and not forbidden for black.
    /// With the area of a [`LegalChoice::Place`] these are its legal stones; with that of a
    /// [`LegalChoice::ProposeFifths`], the cells each 5th move may be offered on.
    #[must_use]
    pub fn cells(&self, area: Area) -> Vec<Cell> {
        if self.is_over() {
            return Vec::new();
        }
        let n = self.position.size();
        (0..n)
            .flat_map(|row| (0..n).map(move |col| Cell::new(col, row)))
            .filter(|&cell| area.contains(cell, n) && self.position.is_legal(cell).is_ok())
            .collect()
    }

    /// One cell of each class of [`Opening::cells`] that are symmetrical to each other (the
    /// first in row-major order from a1): how many different 5th moves there are to offer.
    #[must_use]
    pub fn distinct_cells(&self, area: Area) -> Vec<Cell> {
        symmetry::distinct(&self.position, &self.cells(area), self.next_stone())
    }

    /// What a client needs to show the opening.
    #[must_use]
    pub fn view(&self) -> OpeningView {
        OpeningView {
            rule: self.rule,
            phase: self.phase,
            to_act: self.to_act(),
            black: self.black,
            legal: self.legal_choices(),
            declared: self.declared,
            proposals: self.proposals.iter().map(ToString::to_string).collect(),
        }
    }

    fn not_now(&self, choice: &OpeningChoice) -> OpeningError {
        let expected: Vec<String> = self
            .legal_choices()
            .iter()
            .map(ToString::to_string)
            .collect();
        OpeningError::NotNow {
            choice: choice.kind(),
            expected: expected.join(", or "),
        }
    }

    /// A stone of the next colour on `cell` inside `area`.
    fn check_stone(&self, cell: Cell, area: Area) -> Result<(), OpeningError> {
        self.position.is_legal(cell)?;
        if !area.contains(cell, self.position.size()) {
            return Err(OpeningError::OutsideArea { cell, area });
        }
        Ok(())
    }

    /// Whether `by` may make `choice` now, and if not, why.
    pub fn is_legal(&self, by: Role, choice: &OpeningChoice) -> Result<(), OpeningError> {
        let Some(to_act) = self.to_act() else {
            return Err(OpeningError::Over);
        };
        if by != to_act {
            return Err(OpeningError::NotYourDecision { to_act });
        }
        let legal = self.legal_choices();
        let offers = |wanted: LegalChoice| legal.contains(&wanted);
        match choice {
            OpeningChoice::Place(cell) => {
                let area = legal.iter().find_map(|c| match c {
                    LegalChoice::Place { area, .. } => Some(*area),
                    _ => None,
                });
                match area {
                    Some(area) => self.check_stone(*cell, area),
                    None => Err(self.not_now(choice)),
                }
            }
            OpeningChoice::Swap if offers(LegalChoice::Swap) => Ok(()),
            OpeningChoice::Stay if offers(LegalChoice::Stay) => Ok(()),
            OpeningChoice::Color(_) if offers(LegalChoice::ChooseColor) => Ok(()),
            OpeningChoice::Declare(got) if self.phase == OpeningPhase::Declare => {
                if (1..=SOOSORV_MAX_FIFTHS).contains(got) {
                    Ok(())
                } else {
                    Err(OpeningError::DeclareRange {
                        got: *got,
                        max: SOOSORV_MAX_FIFTHS,
                    })
                }
            }
            OpeningChoice::Fifths(cells) => {
                let wanted = legal.iter().find_map(|c| match c {
                    LegalChoice::ProposeFifths { n, area } => Some((*n, *area)),
                    _ => None,
                });
                match wanted {
                    Some((n, area)) => self.check_fifths(cells, n, area),
                    None => Err(self.not_now(choice)),
                }
            }
            OpeningChoice::Choose(cell) if offers(LegalChoice::ChooseFifth) => {
                if self.proposals.contains(cell) {
                    Ok(())
                } else {
                    Err(OpeningError::NotOffered(*cell))
                }
            }
            _ => Err(self.not_now(choice)),
        }
    }

    /// `n` cells, each a legal stone in `area`, none twice, no two symmetrical. The count is
    /// checked first, so a long list costs nothing more.
    fn check_fifths(&self, cells: &[Cell], n: u8, area: Area) -> Result<(), OpeningError> {
        if cells.len() != usize::from(n) {
            return Err(OpeningError::WrongCount {
                expected: n,
                got: cells.len(),
            });
        }
        for (i, &cell) in cells.iter().enumerate() {
            if cells[..i].contains(&cell) {
                return Err(OpeningError::Repeated(cell));
            }
            self.check_stone(cell, area)?;
        }
        let color = self.next_stone();
        for (i, &b) in cells.iter().enumerate() {
            if let Some(&a) = cells[..i]
                .iter()
                .find(|&&a| symmetry::equivalent(&self.position, a, b, color))
            {
                return Err(OpeningError::Symmetrical(a, b));
            }
        }
        Ok(())
    }

    /// Makes `choice` for `by` if it is legal now; on error the opening is unchanged.
    pub fn apply(&mut self, by: Role, choice: &OpeningChoice) -> Result<(), OpeningError> {
        self.is_legal(by, choice)?;
        self.commit(choice.clone());
        Ok(())
    }

    /// Parses a choice text, checks it and makes it; returns the choice, whose `Display` is
    /// the canonical text. On error the opening is unchanged.
    pub fn apply_str(&mut self, by: Role, text: &str) -> Result<OpeningChoice, ChoiceError> {
        let choice: OpeningChoice = text.parse()?;
        self.apply(by, &choice)?;
        Ok(choice)
    }

    /// Moves the opening on by a choice already checked.
    fn commit(&mut self, choice: OpeningChoice) {
        self.phase = match &choice {
            OpeningChoice::Place(cell) => {
                self.position.play_unchecked(*cell);
                self.after_stone()
            }
            OpeningChoice::Swap | OpeningChoice::Stay => {
                if choice == OpeningChoice::Swap {
                    self.black = self.black.other();
                }
                self.after_swap()
            }
            OpeningChoice::Color(color) => {
                self.black = match color {
                    Color::Black => Role::First,
                    Color::White => Role::Second,
                };
                OpeningPhase::Over
            }
            OpeningChoice::Declare(n) => {
                self.declared = Some(*n);
                OpeningPhase::Swap
            }
            OpeningChoice::Fifths(cells) => {
                self.proposals = cells.clone();
                OpeningPhase::Choose
            }
            OpeningChoice::Choose(cell) => {
                self.position.play_unchecked(*cell);
                self.proposals.clear();
                OpeningPhase::Over
            }
        };
        self.choices.push(choice);
    }

    /// The phase after a stone, by the number of stones now on the board.
    fn after_stone(&self) -> OpeningPhase {
        let stones = self.stones();
        match self.rule {
            OpeningRule::Swap2 => match stones {
                ..=2 | 4 => OpeningPhase::Place,
                3 => OpeningPhase::Swap2,
                _ => OpeningPhase::Color,
            },
            OpeningRule::Soosorv8 => match stones {
                ..=2 => OpeningPhase::Place,
                3 => OpeningPhase::Swap,
                4 => OpeningPhase::Declare,
                _ => OpeningPhase::Over,
            },
            // Every Taraguchi stone, the single 5th move included, is followed by a swap.
            OpeningRule::Taraguchi10 => OpeningPhase::Swap,
        }
    }

    /// The phase after a swap decision, by the number of stones on the board: the next
    /// stone, black's 5th move after the 4th, the game after the 5th (or after swap2's
    /// choice).
    fn after_swap(&self) -> OpeningPhase {
        match (self.phase, self.stones()) {
            (OpeningPhase::Swap2, _) => OpeningPhase::Over,
            (_, ..=3) => OpeningPhase::Place,
            (_, 4) => OpeningPhase::Fifth,
            _ => OpeningPhase::Over,
        }
    }
}
