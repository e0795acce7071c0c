//! The puzzle generator and the set's check. Bot-vs-bot games at weak levels (a few random
//! moves first, so that every game differs) leave positions where the side to move has a
//! forced win; each is proven by its game's prover, kept once up to the board's symmetries,
//! and at most one is taken from one game (the next positions of a game mostly repeat its
//! puzzle). The check proves every puzzle of a set again and compares the tree, the line and
//! the themes with what is stored.

use std::collections::HashSet;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use game_core::puzzle::{symmetry_key, Puzzle};
use game_core::{AnyPosition, GameSpec, GomokuRule};

use super::connect4::Connect4Prover;
use super::gomoku::GomokuProver;
use super::othello::OthelloProver;
use super::proof::{prove, NoProof, Proof};
use crate::engine::registry::engine_for;
use crate::engine::{Level, SearchLimits, StopFlag};

/// The games puzzles are made for, by rating key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    GomokuFreestyle,
    GomokuRenju,
    Othello,
    Connect4,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::GomokuFreestyle,
        Variant::GomokuRenju,
        Variant::Othello,
        Variant::Connect4,
    ];

    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Variant::GomokuFreestyle => "gomoku-freestyle",
            Variant::GomokuRenju => "gomoku-renju",
            Variant::Othello => "othello",
            Variant::Connect4 => "connect4",
        }
    }

    #[must_use]
    pub fn parse(key: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.key() == key)
    }

    #[must_use]
    pub fn spec(self) -> GameSpec {
        match self {
            Variant::GomokuFreestyle => GameSpec::gomoku(15, GomokuRule::Freestyle),
            Variant::GomokuRenju => GameSpec::gomoku(15, GomokuRule::Renju),
            Variant::Othello => GameSpec::Othello,
            Variant::Connect4 => GameSpec::connect4(7, 6),
        }
    }

    /// Random moves that open a game: at least the first, at most the second.
    fn random_plies(self) -> (usize, usize) {
        match self {
            Variant::GomokuFreestyle | Variant::GomokuRenju => (1, 4),
            Variant::Othello => (2, 8),
            Variant::Connect4 => (1, 5),
        }
    }
}

/// How many puzzles, from which games.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    pub variant: Variant,
    pub count: usize,
    pub seed: u64,
    /// Games played at most, however many puzzles they gave.
    pub max_games: usize,
    /// Nodes of the engines' moves in the games.
    pub move_nodes: u64,
    /// Gomoku: VCT puzzles (positions with no VCF), rather than VCF ones.
    pub vct: bool,
    /// The number of the first puzzle's id (a set made in two runs numbers on).
    pub first_id: usize,
}

/// What a run did: its games and positions, the candidates (positions with a forced win of
/// the wanted kind), why candidates were dropped, and the time.
#[derive(Clone, Debug, Default)]
pub struct GenerateReport {
    pub games: usize,
    pub positions: usize,
    pub candidates: usize,
    pub kept: usize,
    pub duplicates: usize,
    pub too_big: usize,
    pub unknown: usize,
    pub other: usize,
    pub ms: u128,
}

/// The three provers, made once for a run (`vct` for Gomoku VCT puzzles).
#[derive(Default)]
struct Provers {
    gomoku: GomokuProver,
    othello: OthelloProver,
    connect4: Connect4Prover,
    vct: bool,
}

/// The VCF's attacker moves a Gomoku puzzle has: from 3 to 7.
const GOMOKU_MOVES: (u32, u32) = (3, 7);
/// A VCT puzzle's: from 2 to 4 (with no VCF within 7).
const GOMOKU_VCT_MOVES: (u32, u32) = (2, 4);
/// Connect Four: win in 2 to 6.
const CONNECT4_MOVES: (u32, u32) = (2, 6);
/// Othello: empty squares, and the player's moves to keep the win.
const OTHELLO_EMPTIES: (u32, u32) = (10, 16);
const OTHELLO_MOVES: u32 = 2;

impl Provers {
    /// The length to prove for a candidate position, or `None` when it is no candidate.
    fn candidate(&mut self, v: Variant, pos: &AnyPosition) -> Result<Option<u32>, NoProof> {
        if pos.is_over() {
            return Ok(None);
        }
        match v {
            Variant::GomokuFreestyle | Variant::GomokuRenju => {
                // Not an immediate five for either side: the puzzle is the VCF.
                if pos.ply() < 8 || self.gomoku.vcf_plies(pos, 1)?.is_some() {
                    return Ok(None);
                }
                if gomoku_threatened(pos) {
                    return Ok(None);
                }
                let plies = self.gomoku.vcf_plies(pos, 2 * GOMOKU_MOVES.1 - 1)?;
                if !self.vct {
                    return Ok(plies
                        .map(|p| p.div_ceil(2))
                        .filter(|&m| m >= GOMOKU_MOVES.0));
                }
                if plies.is_some() {
                    return Ok(None);
                }
                let bound = 2 * GOMOKU_VCT_MOVES.1 - 1;
                let plies = self.gomoku.vct_plies(pos, bound)?;
                Ok(plies
                    .filter(|&p| p <= bound)
                    .map(|p| p.div_ceil(2))
                    .filter(|&m| m >= GOMOKU_VCT_MOVES.0))
            }
            Variant::Connect4 => {
                if pos.ply() < 12 {
                    return Ok(None);
                }
                Ok(self
                    .connect4
                    .win_length(pos)?
                    .filter(|&j| (CONNECT4_MOVES.0..=CONNECT4_MOVES.1).contains(&j)))
            }
            Variant::Othello => {
                let AnyPosition::Othello(p) = pos else {
                    return Ok(None);
                };
                let (b, w) = p.bitboards();
                let empties = 64 - (b | w).count_ones();
                if !(OTHELLO_EMPTIES.0..=OTHELLO_EMPTIES.1).contains(&empties) || pos.must_pass() {
                    return Ok(None);
                }
                Ok((self.othello.score(pos)? > 0).then_some(OTHELLO_MOVES))
            }
        }
    }

    /// The proof and themes of a candidate, proven within `moves`; Othello's first move must
    /// be the only win.
    fn prove(
        &mut self,
        v: Variant,
        pos: &AnyPosition,
        moves: u32,
    ) -> Result<(Proof, Vec<String>), NoProof> {
        let (proof, themes) = match v {
            Variant::GomokuFreestyle | Variant::GomokuRenju => {
                self.gomoku.set_threes(self.vct);
                let proof = prove(&mut self.gomoku, pos, moves)?;
                let themes = GomokuProver::themes(pos, &proof.line, self.vct);
                (proof, themes)
            }
            Variant::Connect4 => {
                let proof = prove(&mut self.connect4, pos, moves)?;
                let themes = Connect4Prover::themes(pos, &proof.line);
                (proof, themes)
            }
            Variant::Othello => {
                let proof = prove(&mut self.othello, pos, moves)?;
                if proof.tree.0.len() != 1 {
                    return Err(NoProof::Unsuited);
                }
                let themes = OthelloProver::themes(pos, &proof.line[0]);
                (proof, themes)
            }
        };
        Ok((proof, themes))
    }

    /// [`Provers::prove`], then again within the main line's length while that is shorter (a
    /// threat search's first win is not always its quickest): the length a puzzle states is
    /// the tightest that proves.
    fn prove_tight(
        &mut self,
        v: Variant,
        pos: &AnyPosition,
        moves: u32,
    ) -> Result<(Proof, Vec<String>), NoProof> {
        let mut best = self.prove(v, pos, moves)?;
        loop {
            let line_moves = best.0.line.len().div_ceil(2) as u32;
            if line_moves >= best.0.length {
                return Ok(best);
            }
            match self.prove(v, pos, line_moves) {
                Ok(tighter) => best = tighter,
                Err(_) => return Ok(best),
            }
        }
    }
}

/// Whether the side not to move in a Gomoku position has a five-point (so the side to move
/// must block: no puzzle).
fn gomoku_threatened(pos: &AnyPosition) -> bool {
    let AnyPosition::Gomoku(g) = pos else {
        return false;
    };
    let board = crate::engine::gomoku::board::Board::from_position(g);
    let them = crate::engine::gomoku::board::side(pos.turn().other());
    !board.summary(them).fives.is_empty()
}

/// Plays games and proves their positions until `options.count` puzzles are kept (or the
/// games run out); `progress` hears a line now and then.
pub fn generate(
    options: &GenerateOptions,
    mut progress: impl FnMut(&str),
) -> (Vec<Puzzle>, GenerateReport) {
    let started = Instant::now();
    let v = options.variant;
    let spec = v.spec();
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut provers = Provers {
        vct: options.vct,
        ..Provers::default()
    };
    let mut engine = engine_for(spec.kind());
    let mut seen = HashSet::new();
    let mut puzzles = Vec::new();
    let mut report = GenerateReport::default();
    while puzzles.len() < options.count && report.games < options.max_games {
        report.games += 1;
        let moves = play_game(v, &spec, &mut *engine, &mut rng, options.move_nodes);
        let mut taken = 0;
        let mut pos = AnyPosition::new(&spec).expect("a puzzle variant's spec is valid");
        for (ply, mv) in moves.iter().enumerate() {
            if taken < 1 && puzzles.len() < options.count {
                report.positions += 1;
                if let Some(p) = consider(
                    &mut provers,
                    v,
                    &spec,
                    &pos,
                    &moves[..ply],
                    &mut seen,
                    &mut report,
                ) {
                    taken += 1;
                    puzzles.push(Puzzle {
                        id: format!("{}-{:04}", v.key(), options.first_id + puzzles.len()),
                        ..p
                    });
                }
            }
            pos.play_str(mv).expect("the game's own moves are legal");
        }
        if report.games % 20 == 0 {
            progress(&format!(
                "{} games, {} positions, {} candidates, {} puzzles",
                report.games,
                report.positions,
                report.candidates,
                puzzles.len()
            ));
        }
    }
    report.kept = puzzles.len();
    report.ms = started.elapsed().as_millis();
    (puzzles, report)
}

/// A puzzle with no id yet, from its proof.
fn puzzle_of(
    v: Variant,
    spec: &GameSpec,
    pos: &AnyPosition,
    moves: &[String],
    proof: Proof,
    themes: Vec<String>,
) -> Puzzle {
    Puzzle {
        id: String::new(),
        variant: v.key().to_string(),
        game: spec.clone(),
        moves: moves.to_vec(),
        to_move: pos.turn(),
        length: proof.length,
        themes,
        line: proof.line,
        proof: proof.tree,
        source: None,
    }
}

/// A position of a game played in the hall (one where a review found a missed forced win),
/// proven as the generator proves its own candidates: Gomoku's VCF of 3–7 moves or else its
/// VCT of 2–4, Connect Four's win in 2–6, Othello's endgame of 10–16 empty squares with one
/// winning move. The puzzle (no id yet), or why there is none.
pub fn prove_position(variant: &str, game: &GameSpec, moves: &[String]) -> Result<Puzzle, String> {
    let v = Variant::parse(variant).ok_or_else(|| format!("no puzzles for {variant:?}"))?;
    if *game != v.spec() {
        return Err(format!("{variant} puzzles are of another board"));
    }
    let pos = AnyPosition::with_moves(game, moves).map_err(|e| e.to_string())?;
    let gomoku = matches!(v, Variant::GomokuFreestyle | Variant::GomokuRenju);
    let mut provers = Provers::default();
    for vct in [false, true] {
        if vct && !gomoku {
            break;
        }
        provers.vct = vct;
        let length = match provers.candidate(v, &pos) {
            Ok(Some(length)) => length,
            Ok(None) => continue,
            Err(e) => return Err(why_not(e)),
        };
        return match provers.prove_tight(v, &pos, length) {
            Ok((proof, themes)) => Ok(puzzle_of(v, game, &pos, moves, proof, themes)),
            Err(e) => Err(why_not(e)),
        };
    }
    Err("no forced win of a puzzle's length, or not one of the kind puzzles ask for".into())
}

fn why_not(e: NoProof) -> String {
    match e {
        NoProof::NoWin => "no forced win within the length".into(),
        NoProof::Unknown => "the solver ran out of its budget".into(),
        NoProof::TooBig => "the proof's tree is too big to keep".into(),
        NoProof::Unsuited => {
            "a position puzzles are not made of (a forced pass, two winning moves)".into()
        }
    }
}

/// One position of a game: a puzzle if it is a new candidate that proves.
fn consider(
    provers: &mut Provers,
    v: Variant,
    spec: &GameSpec,
    pos: &AnyPosition,
    moves: &[String],
    seen: &mut HashSet<String>,
    report: &mut GenerateReport,
) -> Option<Puzzle> {
    let length = match provers.candidate(v, pos) {
        Ok(Some(n)) => n,
        Ok(None) | Err(_) => return None,
    };
    report.candidates += 1;
    if !seen.insert(symmetry_key(pos)) {
        report.duplicates += 1;
        return None;
    }
    match provers.prove_tight(v, pos, length) {
        Ok((proof, themes)) => Some(puzzle_of(v, spec, pos, moves, proof, themes)),
        Err(NoProof::TooBig) => {
            report.too_big += 1;
            None
        }
        Err(NoProof::Unknown) => {
            report.unknown += 1;
            None
        }
        Err(_) => {
            report.other += 1;
            None
        }
    }
}

/// One bot-vs-bot game: a few random moves, then each move by a weak level (1 to 6, drawn per
/// game and side) on a node budget; its moves.
fn play_game(
    v: Variant,
    spec: &GameSpec,
    engine: &mut dyn crate::engine::Engine,
    rng: &mut StdRng,
    nodes: u64,
) -> Vec<String> {
    let mut pos = AnyPosition::new(spec).expect("a puzzle variant's spec is valid");
    let (lo, hi) = v.random_plies();
    let random = rng.random_range(lo..=hi);
    let levels = [rng.random_range(1..=6u8), rng.random_range(1..=6u8)];
    let mut moves = Vec::new();
    while !pos.is_over() {
        let legal = pos.legal_moves();
        let mv = if moves.len() < random {
            random_move(v, &pos, &legal, rng)
        } else {
            let level = Level::new(levels[moves.len() % 2]);
            match engine.search(
                &pos,
                SearchLimits::Nodes(nodes),
                level,
                &StopFlag::new(),
                rng.random(),
            ) {
                Some(r) => r.best,
                None => break,
            }
        };
        match pos.play_str(&mv) {
            Ok(canonical) => moves.push(canonical),
            Err(_) => break,
        }
    }
    moves
}

/// A random opening move; Gomoku's within two lines of the centre, so games stay whole.
fn random_move(v: Variant, pos: &AnyPosition, legal: &[String], rng: &mut StdRng) -> String {
    let near: Vec<&String> = match v {
        Variant::GomokuFreestyle | Variant::GomokuRenju => legal
            .iter()
            .filter(|m| {
                m.parse::<game_core::Cell>()
                    .is_ok_and(|c| c.col.abs_diff(7) <= 2 && c.row.abs_diff(7) <= 2)
            })
            .collect(),
        _ => legal.iter().collect(),
    };
    let _ = pos;
    near[rng.random_range(0..near.len())].clone()
}

/// Proves every puzzle of `set` again: the same tree, line, length and themes. The ids of
/// those that differ, with why.
#[must_use]
pub fn verify(set: &[Puzzle]) -> Vec<(String, String)> {
    let mut provers = Provers::default();
    let mut failures = Vec::new();
    for p in set {
        if let Err(why) = verify_one(&mut provers, p) {
            failures.push((p.id.clone(), why));
        }
    }
    failures
}

fn verify_one(provers: &mut Provers, p: &Puzzle) -> Result<(), String> {
    let v = Variant::parse(&p.variant).ok_or("an unknown variant")?;
    provers.vct = p.themes.iter().any(|t| t == "vct");
    if p.game != v.spec() {
        return Err("the game is not the variant's".into());
    }
    let pos = AnyPosition::with_moves(&p.game, &p.moves).map_err(|e| e.to_string())?;
    if pos.turn() != p.to_move {
        return Err("the side to move differs".into());
    }
    let (proof, themes) = provers
        .prove(v, &pos, p.length)
        .map_err(|e| format!("{e:?}"))?;
    if proof.tree != p.proof {
        return Err("the proof's tree differs".into());
    }
    if proof.line != p.line || proof.length != p.length {
        return Err("the main line differs".into());
    }
    if themes != p.themes {
        return Err("the themes differ".into());
    }
    Ok(())
}
