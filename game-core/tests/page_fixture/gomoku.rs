//! Gomoku positions reached by moves (or set up), with what the referee says there: whether
//! the game is over, who won and along which line, and which points black may not play. Five
//! or more wins in freestyle, exactly five in standard and for black in renju; white is never
//! forbidden a point. Generated games are random playouts near the stones already down.

use game_core::{AnyPosition, Cell, Color, GameSpec, GomokuRule, IllegalMoveError, MoveError};
use serde::Serialize;

use crate::shared::{
    forbidden_word, gomoku_spec, in_turn, line_words, play, position_text, winner_word, Lcg,
};

#[derive(Serialize)]
pub struct GomokuCase {
    name: String,
    game: GameSpec,
    /// A set-up start (the analysis board's text) instead of the empty board.
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<String>,
    moves: Vec<String>,
    /// The position after the moves.
    position: String,
    over: bool,
    winner: Option<&'static str>,
    line: Vec<String>,
    /// The empty points the referee refuses as forbidden, `[cell, kind]`, row-major from a1.
    forbidden: Vec<[String; 2]>,
}

fn record(name: &str, game: GameSpec, setup: Option<&str>, moves: Vec<String>) -> GomokuCase {
    let pos = play(name, &game, setup, &moves);
    let outcome = pos.outcome();
    let AnyPosition::Gomoku(board) = &pos else {
        panic!("{name}: not a gomoku position");
    };
    let n = board.size();
    let mut forbidden = Vec::new();
    for row in 0..n {
        for col in 0..n {
            let cell = Cell::new(col, row).to_string();
            if let Err(MoveError::Illegal(IllegalMoveError::Forbidden(_, kind))) =
                pos.check_str(&cell)
            {
                forbidden.push([cell, forbidden_word(kind).to_string()]);
            }
        }
    }
    GomokuCase {
        name: name.to_string(),
        game,
        setup: setup.map(str::to_string),
        moves,
        position: position_text(&pos),
        over: outcome.is_some(),
        winner: winner_word(outcome.as_ref()),
        line: line_words(outcome.as_ref()),
        forbidden,
    }
}

/// Stones out of the way of the shapes: columns a and o (or c), every other row, never five
/// in any line, never a forbidden shape.
const FAR_WHITE: &str = "a1 a3 a5 a7 a9 a11 a13 a15 o1 o3 o5 o7 o9 o11 o13";
const FAR_BLACK: &str = "a1 a3 a5 a7 a9 a11 a13 a15 c1 c3 c5 c7 c9 c11 c13";

/// The first `n` stones of a list.
fn first(list: &str, n: usize) -> String {
    list.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Black plays `black` in order, the last stone being the move the case is about; white
/// answers out of the way.
fn black_makes(black: &str) -> Vec<String> {
    let n = black.split_whitespace().count();
    in_turn(black, &first(FAR_WHITE, n - 1))
}

/// White plays `white` in order, the last stone being the move the case is about.
fn white_makes(white: &str) -> Vec<String> {
    let n = white.split_whitespace().count();
    in_turn(&first(FAR_BLACK, n), white)
}

/// Three shapes at once for renju: a double three at h8, an overline point at e2 and a
/// double four in one line at h13.
const THREE_FOULS: &str = "f8 g8 h9 h10 b2 c2 d2 f2 g2 e13 g13 i13 k13";

/// A 7x7 renju board full but for d4, black to move: d4 makes seven in a row, so black has no
/// move left and the game is drawn.
const NO_MOVE_LEFT: &str =
    concat!("XXXOXOX", "XXXOOOX", "OOOXXXO", "XXX-XXX", "OOXOOOO", "OXOOXOO", "OOXXOOX", " X");

/// Checks a hand-written case says what its name does: `on`, or the winner (`draw`).
fn expect(case: GomokuCase, result: &str) -> GomokuCase {
    let said = case.winner.unwrap_or("on");
    assert_eq!(said, result, "{}", case.name);
    case
}

fn hand_written() -> Vec<GomokuCase> {
    use GomokuRule::{Freestyle, Renju, Standard};
    let g15 = |rule| gomoku_spec(15, rule);
    let six = "d8 e8 f8 h8 i8 g8";
    let five_and_44 = "h9 h10 h11 i9 j10 k11 d8 e8 f8 g8 h8";
    let five_and_33 = "h9 h10 i9 j10 d8 e8 f8 g8 h8";
    let five_and_six = "h4 h5 h6 h7 h9 d8 e8 f8 g8 h8";
    let fouls = in_turn(THREE_FOULS, &first(FAR_WHITE, 13));
    let white_to_move = in_turn(THREE_FOULS, &first(FAR_WHITE, 12));
    let mut white_on_h8 = white_to_move.clone();
    white_on_h8.push("h8".into());
    let before = |moves: &str| {
        let mut moves = black_makes(moves);
        moves.pop();
        moves
    };
    #[rustfmt::skip]
    let cases = vec![
        ("freestyle: a black five wins", g15(Freestyle), black_makes("d8 e8 f8 g8 h8"), "black"),
        ("freestyle: a five on the anti-diagonal wins", g15(Freestyle), black_makes("d12 e11 f10 g9 h8"), "black"),
        ("freestyle: two fives at once, the column's first stone comes first", g15(Freestyle), black_makes("d8 e8 f8 g8 h4 h5 h6 h7 h8"), "black"),
        ("freestyle: two fives from the same stone, the row first", g15(Freestyle), black_makes("i8 j8 k8 l8 i9 j10 k11 l12 h8"), "black"),
        ("freestyle: a black six wins", g15(Freestyle), black_makes(six), "black"),
        ("freestyle: a white five against the edge wins", g15(Freestyle), white_makes("o1 o2 o3 o4 o5"), "white"),
        ("standard: a black six is no win", g15(Standard), black_makes(six), "on"),
        ("standard: a white six is no win", g15(Standard), white_makes(six), "on"),
        ("standard: exactly five wins", g15(Standard), black_makes("d8 e8 f8 g8 h8"), "black"),
        ("standard: a five made with a six elsewhere wins", g15(Standard), black_makes(five_and_six), "black"),
        ("renju: a white six wins", g15(Renju), white_makes(six), "white"),
        ("renju: a five made with an overline wins", g15(Renju), black_makes(five_and_six), "black"),
        ("renju: the five-point of a double four is not forbidden", g15(Renju), before(five_and_44), "on"),
        ("renju: a five made with a double four wins", g15(Renju), black_makes(five_and_44), "black"),
        ("renju: the five-point of a double three is not forbidden", g15(Renju), before(five_and_33), "on"),
        ("renju: a five made with a double three wins", g15(Renju), black_makes(five_and_33), "black"),
        ("renju: black to move, three kinds of foul on the board", g15(Renju), fouls, "on"),
        ("renju: white to move is never forbidden", g15(Renju), white_to_move, "on"),
        ("renju: white takes black's double-three point", g15(Renju), white_on_h8, "on"),
    ];
    let mut out: Vec<GomokuCase> = cases
        .into_iter()
        .map(|(name, game, moves, result)| expect(record(name, game, None, moves), result))
        .collect();
    let fouls_of = |name: &str| -> Vec<String> {
        let case = out.iter().find(|c| c.name == name).expect(name);
        case.forbidden
            .iter()
            .map(|[_, kind]| kind.clone())
            .collect()
    };
    let three = fouls_of("renju: black to move, three kinds of foul on the board");
    assert_eq!(three, ["overline", "double-three", "double-four"]);
    assert!(fouls_of("renju: white to move is never forbidden").is_empty());
    let g7 = gomoku_spec(7, Renju);
    let set_up = record(
        "renju: black has no move left, a draw (set up)",
        g7.clone(),
        Some(NO_MOVE_LEFT),
        Vec::new(),
    );
    let played = moves_to(&g7, NO_MOVE_LEFT, &mut Lcg::new(0x5EED_0006));
    let played = record(
        "renju: black has no move left, a draw (played)",
        g7,
        None,
        played,
    );
    out.extend([expect(set_up, "draw"), expect(played, "draw")]);
    out
}

/// Legal moves that fill the board of `spec` up to the position `text`: each stone of the
/// colour to move, black never on a point forbidden then. Random orders are tried until one
/// gets there.
fn moves_to(spec: &GameSpec, text: &str, rng: &mut Lcg) -> Vec<String> {
    let target = game_core::setup::position_from_text(spec, text).expect("a position");
    let AnyPosition::Gomoku(board) = &target else {
        panic!("not a gomoku position");
    };
    let of = |color| -> Vec<String> {
        let stones = board.stones().filter(|&(_, c)| c == color);
        stones.map(|(cell, _)| cell.to_string()).collect()
    };
    loop {
        let mut pos = AnyPosition::new(spec).expect("a gomoku spec");
        let mut left = [of(Color::Black), of(Color::White)];
        let mut moves = Vec::new();
        loop {
            let pool = &mut left[pos.turn().index()];
            let open: Vec<usize> = (0..pool.len())
                .filter(|&i| pos.check_str(&pool[i]).is_ok())
                .collect();
            if open.is_empty() {
                break;
            }
            let m = pool.swap_remove(*rng.pick(&open));
            pos.play_str(&m).expect("a legal move");
            moves.push(m);
        }
        if left.iter().all(Vec::is_empty) {
            return moves;
        }
    }
}

/// A random game: the first stone in the centre, then a random empty legal point next to a
/// stone already down (within two cells), until the game ends or `cap` moves are played.
fn playout(rng: &mut Lcg, size: u8, rule: GomokuRule, cap: usize) -> Vec<String> {
    let spec = gomoku_spec(u32::from(size), rule);
    let mut pos = AnyPosition::new(&spec).expect("a gomoku spec");
    let centre = Cell::new(size / 2, size / 2).to_string();
    pos.play_str(&centre).expect("the centre");
    let mut moves = vec![centre];
    let mut taken = vec![Cell::new(size / 2, size / 2)];
    while !pos.is_over() && moves.len() < cap {
        let near: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| {
                let c: Cell = m.parse().expect("a cell");
                taken
                    .iter()
                    .any(|t| t.col.abs_diff(c.col) <= 2 && t.row.abs_diff(c.row) <= 2)
            })
            .collect();
        let all = pos.legal_moves();
        let m = if near.is_empty() {
            rng.pick(&all)
        } else {
            rng.pick(&near)
        }
        .clone();
        pos.play_str(&m).expect("a legal move");
        taken.push(m.parse().expect("a cell"));
        moves.push(m);
    }
    moves
}

fn generated() -> Vec<GomokuCase> {
    use GomokuRule::{Freestyle, Renju, Standard};
    let mut rng = Lcg::new(0x5EED_0002);
    let boards = [
        (7, Freestyle),
        (9, Freestyle),
        (9, Standard),
        (9, Renju),
        (11, Standard),
        (11, Renju),
        (15, Freestyle),
        (15, Standard),
        (15, Renju),
        (15, Renju),
    ];
    let mut out = Vec::new();
    for round in 0..3 {
        for (i, &(size, rule)) in boards.iter().enumerate() {
            let moves = playout(&mut rng, size, rule, usize::from(size).pow(2));
            let spec = gomoku_spec(u32::from(size), rule);
            let label = format!("{} {size}x{size}", rule.as_str());
            // A position on the way, then the end.
            let cut = 1 + rng.below(moves.len() - 1);
            let game = round * boards.len() + i + 1;
            let name = format!("random {label}, game {game}, after {cut} moves");
            out.push(record(&name, spec.clone(), None, moves[..cut].to_vec()));
            let name = format!("random {label}, game {game}, the end");
            out.push(record(&name, spec, None, moves));
        }
    }
    out
}

pub fn cases() -> Vec<GomokuCase> {
    let mut all = hand_written();
    all.extend(generated());
    all
}
