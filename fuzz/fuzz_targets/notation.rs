//! Any bytes as move notation and game records: the first byte picks a game, the lines are
//! moves played on it (a refused move changes nothing), and the whole text is read as a move
//! string, SGF and PSQ; whatever is read writes out and reads back the same.
#![no_main]

use game_core::record::GameRecord;
use game_core::{AnyPosition, GameSpec, GomokuRule};
use libfuzzer_sys::fuzz_target;

fn spec(pick: u8) -> GameSpec {
    match pick % 5 {
        0 => GameSpec::gomoku(15, GomokuRule::Freestyle),
        1 => GameSpec::gomoku(7, GomokuRule::Renju),
        2 => GameSpec::Othello,
        3 => GameSpec::connect4(7, 6),
        _ => GameSpec::Connect4 {
            cols: 12,
            rows: 12,
            blocked: vec![[1, 1], [12, 12]],
        },
    }
}

fn reads_back(record: &GameRecord) {
    let again = GameRecord::from_move_string(&record.spec, &record.move_string());
    assert_eq!(again.map(|r| r.moves), Ok(record.moves.clone()));
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let spec = spec(pick);
    let Ok(mut position) = AnyPosition::new(&spec) else {
        return;
    };
    for line in text.lines() {
        let before = position.clone();
        match position.play_str(line) {
            Ok(canonical) => {
                let mut replay = before.clone();
                assert_eq!(replay.play_str(&canonical), Ok(canonical));
                assert_eq!(replay, position);
            }
            Err(_) => assert_eq!(position, before),
        }
    }
    if let Ok(record) = GameRecord::from_move_string(&spec, text) {
        reads_back(&record);
    }
    if let Ok(record) = GameRecord::from_sgf(text) {
        reads_back(&record);
    }
    if let Ok(record) = GameRecord::from_psq(text, GomokuRule::Freestyle) {
        reads_back(&record);
    }
});
