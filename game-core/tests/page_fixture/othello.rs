//! Othello positions with what the referee says there: the legal moves (a forced pass being
//! the only one), the discs each legal move flips, whether the game is over and who won by
//! the count. Hand-written boards show flips in all eight directions, a pass and the ends;
//! generated games are random playouts from the start, passes included.

use game_core::othello::Othello;
use game_core::{AnyPosition, Cell, GameSpec, Score};
use serde::Serialize;

use crate::shared::{play, position_text, winner_word, Lcg};

#[derive(Serialize)]
pub struct OthelloCase {
    name: String,
    game: GameSpec,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<String>,
    moves: Vec<String>,
    position: String,
    over: bool,
    winner: Option<&'static str>,
    discs: Score,
    /// Every legal move in board order (a1, b1, ... rows from the top), or just `pass`.
    legal: Vec<String>,
    must_pass: bool,
    /// For each legal square, the discs it flips in board order.
    flips: Vec<(String, Vec<String>)>,
}

fn square_name(square: u32) -> String {
    // Both parts are below 8.
    Cell::new((square % 8) as u8, (square / 8) as u8).to_string()
}

fn record(name: &str, setup: Option<&str>, moves: Vec<String>) -> OthelloCase {
    let game = GameSpec::Othello;
    let pos = play(name, &game, setup, &moves);
    let AnyPosition::Othello(board) = &pos else {
        panic!("{name}: not an othello position");
    };
    let flips = (0..64)
        .filter(|&sq| board.legal_mask() & (1 << sq) != 0)
        .map(|sq| {
            let mask = board.flips(sq);
            let flipped = (0..64).filter(|&f| mask & (1 << f) != 0).map(square_name);
            (square_name(sq), flipped.collect())
        })
        .collect();
    let outcome = pos.outcome();
    OthelloCase {
        name: name.to_string(),
        game,
        setup: setup.map(str::to_string),
        moves,
        position: position_text(&pos),
        over: outcome.is_some(),
        winner: winner_word(outcome.as_ref()),
        discs: board.count(),
        legal: pos.legal_moves(),
        must_pass: pos.must_pass(),
        flips,
    }
}

/// A set-up from its rows drawn top to bottom (`/` between them) and the side to move.
fn board(rows: &str, side: char) -> String {
    format!("{} {side}", rows.replace('/', ""))
}

/// White to move with nothing to flank: a1 black, b1 white.
const WHITE_PASSES: &str =
    "XO------/--------/--------/--------/--------/--------/--------/--------";

fn hand_written() -> Vec<OthelloCase> {
    #[rustfmt::skip]
    let cases = [
        ("flips in all eight directions from d4", "X--X--X-/-O-O-O--/--OOO---/XOO-OOX-/--OOO---/-O-O-O--/X--X--X-/--------", 'X', "on"),
        ("long runs along two edges from a1", "-OOOOOOX/O-------/O-------/O-------/O-------/O-------/O-------/X-------", 'X', "on"),
        ("white must pass: nothing to flank", WHITE_PASSES, 'O', "pass"),
        ("black must pass on a crowded board", "OOOOOOOO/OOOOOOOO/OOOOOOOO/OOOOOOOO/OOOOOOOO/OOOOOOOO/OOOOOOOX/OOOOOO--", 'X', "pass"),
        ("over: neither side can move, black has more", "XX------/--------/--------/--------/--------/--------/--------/-------O", 'O', "black"),
        ("over: neither side can move, equal discs draw", "X-------/--------/--------/--------/--------/--------/--------/-------O", 'X', "draw"),
        ("over: a full board, white has more", "OOOOOOOO/OOOOOOOO/OOOOOOOO/OOOOOOOO/XXXXXXXX/XXXXXXXX/XXXXXXXX/XXXXXXXO", 'X', "white"),
    ];
    let mut out: Vec<OthelloCase> = cases
        .into_iter()
        .map(|(name, rows, side, expect)| {
            let case = record(name, Some(&board(rows, side)), Vec::new());
            let said = match (&case.winner, case.must_pass) {
                (Some(w), _) => *w,
                (None, true) => "pass",
                (None, false) => "on",
            };
            assert_eq!(said, expect, "{name}");
            case
        })
        .collect();
    let star = out[0].flips.iter().find(|(sq, _)| sq == "d4");
    assert_eq!(
        star.map(|(_, f)| f.len()),
        Some(16),
        "two flips in each direction"
    );
    // The pass played: the other side moves on.
    let after_pass = record(
        "after white's forced pass",
        Some(&board(WHITE_PASSES, 'O')),
        vec!["pass".into()],
    );
    out.push(after_pass);
    out.push(record("the start", None, Vec::new()));
    out
}

/// Random games from the start; each keeps two positions on the way and its end, and every
/// position just before and after a pass.
fn generated() -> Vec<OthelloCase> {
    let mut rng = Lcg::new(0x5EED_0003);
    let mut out = Vec::new();
    let mut games = 0;
    let mut passes = 0;
    while games < 12 || passes < 3 {
        games += 1;
        let mut pos = AnyPosition::Othello(Othello::new());
        let mut moves: Vec<String> = Vec::new();
        while !pos.is_over() {
            let m = rng.pick(&pos.legal_moves()).clone();
            pos.play_str(&m).expect("a legal move");
            moves.push(m);
        }
        let had_pass = moves.iter().any(|m| m == "pass");
        if games > 12 && !had_pass {
            continue;
        }
        let mut cuts = vec![5 + rng.below(20), 25 + rng.below(25), moves.len()];
        for (i, m) in moves.iter().enumerate() {
            if m == "pass" {
                passes += 1;
                cuts.extend([i, i + 1]);
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for cut in cuts.into_iter().filter(|&c| c <= moves.len()) {
            let name = format!("random game {games}, after {cut} moves");
            out.push(record(&name, None, moves[..cut].to_vec()));
        }
    }
    out
}

pub fn cases() -> Vec<OthelloCase> {
    let mut all = hand_written();
    all.extend(generated());
    all
}
