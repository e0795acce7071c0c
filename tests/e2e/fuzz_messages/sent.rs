//! What the fuzzing clients send: messages, mostly valid, naming rooms and moves they have
//! seen, and the steps of a case (a message, raw text, a binary or oversized frame, a
//! reconnection), as proptest strategies.

use super::*;

/// A room a message names: one the clients have seen (counted from the newest), or not.
#[derive(Clone, Debug)]
pub(crate) enum RoomRef {
    Seen(usize),
    /// A room with both seats taken and its game not over, as the clients saw it.
    Live(usize),
    Unknown(String),
}

/// A move a message carries: a legal one in the room's position as the clients saw it, or a
/// text that may be anything.
#[derive(Clone, Debug)]
pub(crate) enum MoveRef {
    Legal(usize),
    Text(String),
}

#[derive(Clone, Debug)]
pub(crate) enum Msg {
    Hello {
        name: usize,
        resume: bool,
        bot: Option<bool>,
    },
    Create {
        game: usize,
        seat: usize,
        clock: usize,
        opening: Vec<MoveRef>,
        bots: bool,
        private: bool,
    },
    Join {
        room: RoomRef,
        player: bool,
    },
    Move {
        room: RoomRef,
        mv: MoveRef,
        id: Option<u8>,
    },
    /// `resign`, `undo`, `draw`, `rematch`, `leave` or `decline`.
    RoomOnly {
        t: usize,
        room: RoomRef,
    },
    Reply {
        undo: bool,
        room: RoomRef,
        accept: bool,
    },
    Chat {
        room: RoomRef,
        text: String,
    },
    InviteBot {
        room: RoomRef,
        level: i32,
    },
    Seek {
        game: usize,
        clock: usize,
    },
    Bare {
        t: usize,
    },
}

#[derive(Clone, Debug)]
pub(crate) enum Step {
    Send {
        client: usize,
        msg: Msg,
    },
    Mutated {
        client: usize,
        msg: Msg,
        mutations: Vec<Mutation>,
    },
    Corpus {
        client: usize,
        line: usize,
        mutations: Vec<Mutation>,
    },
    Raw {
        client: usize,
        text: String,
    },
    Binary {
        client: usize,
        bytes: Vec<u8>,
    },
    Oversized {
        client: usize,
    },
    Reconnect {
        client: usize,
    },
    /// A move sent by whichever client holds the seat to move in the room (as the clients saw
    /// it), so that games go on to their ends.
    Play {
        room: RoomRef,
        mv: MoveRef,
    },
    /// A `join` as a player by a client that has no seat in the room yet, so that rooms fill.
    Sit {
        room: RoomRef,
    },
}

/// The first three are the clients' own names, the rest are refused or odd.
pub(crate) const NAMES: &[&str] = &[
    "Ann",
    "Bob",
    "Cy",
    "",
    "  ",
    "a-name-far-longer-than-thirty-two-chars",
    "\u{0}x",
    "😀",
    "kibitz",
];
pub(crate) const ROOM_ONLY: &[&str] = &["resign", "undo", "draw", "rematch", "leave", "decline"];
pub(crate) const BARE: &[&str] = &["unseek", "lobby", "unlobby"];
pub(crate) const SEATS: &[&str] = &["black", "white", "random", "none", "green"];

/// Small boards, so that games end and their endings are fuzzed too; the last two are
/// refused.
pub(crate) fn games() -> Vec<Value> {
    vec![
        json!({"kind":"gomoku","size":5}),
        json!({"kind":"gomoku","size":6,"rule":"renju"}),
        json!({"kind":"gomoku","size":15,"rule":"standard"}),
        json!({"kind":"othello"}),
        json!({"kind":"connect4","cols":4,"rows":4}),
        json!({"kind":"connect4","cols":5,"rows":4,"blocked":[[2,1],[3,3]]}),
        json!({"kind":"gomoku","size":4}),
        json!({"kind":"connect4","cols":13}),
    ]
}

/// Clocks, short ones among them so that flags fall during a case; the last is refused.
pub(crate) fn clocks() -> Vec<Value> {
    vec![
        Value::Null,
        json!({"move_ms":1000}),
        json!({"initial_ms":1000,"increment_ms":0}),
        json!({"initial_ms":600000,"increment_ms":5000}),
        json!({"initial_ms":10}),
    ]
}

pub(crate) fn room_ref() -> impl Strategy<Value = RoomRef> {
    prop_oneof![
        6 => Just(RoomRef::Seen(0)),
        2 => Just(RoomRef::Seen(1)),
        1 => (2usize..5).prop_map(RoomRef::Seen),
        1 => "[a-zA-Z0-9]{0,10}".prop_map(RoomRef::Unknown),
    ]
}

/// Mostly a game in progress, for the moves that should carry games to their ends.
pub(crate) fn live_ref() -> impl Strategy<Value = RoomRef> {
    prop_oneof![
        6 => Just(RoomRef::Live(0)),
        2 => (1usize..4).prop_map(RoomRef::Live),
        1 => room_ref(),
    ]
}

pub(crate) fn move_ref() -> impl Strategy<Value = MoveRef> {
    prop_oneof![
        8 => any::<usize>().prop_map(MoveRef::Legal),
        1 => prop::sample::select(vec!["a1", "pass", "", "zz", "0", "h8", "A1 ", "4"]).prop_map(|m| MoveRef::Text(m.to_string())),
        1 => "\\PC{0,4}".prop_map(MoveRef::Text),
    ]
}

/// An index below `all`, most often one of the first `valid` (the choices the server accepts).
pub(crate) fn pick(valid: usize, all: usize) -> impl Strategy<Value = usize> {
    prop_oneof![9 => 0..valid, 1 => valid..all]
}

/// Most rooms start from the empty board.
pub(crate) fn opening() -> impl Strategy<Value = Vec<MoveRef>> {
    prop_oneof![
        4 => Just(Vec::new()),
        1 => prop::collection::vec(move_ref(), 1..4),
    ]
}

pub(crate) fn msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        2 => (0..NAMES.len(), any::<bool>(), prop::option::of(any::<bool>()))
            .prop_map(|(name, resume, bot)| Msg::Hello { name, resume, bot }),
        6 => (pick(6, 8), pick(4, 5), pick(4, 5), opening(), prop::bool::weighted(0.2), any::<bool>())
            .prop_map(|(game, seat, clock, opening, bots, private)| Msg::Create { game, seat, clock, opening, bots, private }),
        3 => (room_ref(), prop::bool::weighted(0.7)).prop_map(|(room, player)| Msg::Join { room, player }),
        20 => (room_ref(), move_ref(), prop::option::of(0u8..4)).prop_map(|(room, mv, id)| Msg::Move { room, mv, id }),
        2 => (0..ROOM_ONLY.len(), room_ref()).prop_map(|(t, room)| Msg::RoomOnly { t, room }),
        1 => (any::<bool>(), room_ref(), any::<bool>()).prop_map(|(undo, room, accept)| Msg::Reply { undo, room, accept }),
        1 => (room_ref(), "\\PC{0,8}").prop_map(|(room, text)| Msg::Chat { room, text }),
        1 => (room_ref(), -1i32..12).prop_map(|(room, level)| Msg::InviteBot { room, level }),
        1 => (pick(6, 8), pick(4, 5)).prop_map(|(game, clock)| Msg::Seek { game, clock }),
        1 => (0..BARE.len()).prop_map(|t| Msg::Bare { t }),
    ]
}

pub(crate) fn step() -> impl Strategy<Value = Step> {
    let client = 0..CLIENTS;
    prop_oneof![
        70 => (client.clone(), msg()).prop_map(|(client, msg)| Step::Send { client, msg }),
        12 => (client.clone(), msg(), prop::collection::vec(mutation(), 1..4))
            .prop_map(|(client, msg, mutations)| Step::Mutated { client, msg, mutations }),
        8 => (client.clone(), any::<usize>(), prop::collection::vec(mutation(), 0..3))
            .prop_map(|(client, line, mutations)| Step::Corpus { client, line, mutations }),
        4 => (client.clone(), "\\PC{0,40}").prop_map(|(client, text)| Step::Raw { client, text }),
        2 => (client.clone(), prop::collection::vec(any::<u8>(), 0..16))
            .prop_map(|(client, bytes)| Step::Binary { client, bytes }),
        1 => client.clone().prop_map(|client| Step::Oversized { client }),
        3 => client.prop_map(|client| Step::Reconnect { client }),
        50 => (live_ref(), move_ref()).prop_map(|(room, mv)| Step::Play { room, mv }),
        6 => room_ref().prop_map(|room| Step::Sit { room }),
    ]
}

/// A case: most clients say hello first (a player, or the third client sometimes a bot), so
/// that the steps after reach the rooms and games rather than `hello_required`.
pub(crate) fn case() -> impl Strategy<Value = Vec<Step>> {
    (
        prop::collection::vec(prop::bool::weighted(0.9), CLIENTS),
        prop::bool::weighted(0.3),
        prop::option::weighted(0.7, 0usize..6),
        prop::collection::vec(step(), 1..150),
    )
        .prop_map(|(hellos, third_is_bot, first_game, steps)| {
            let mut case: Vec<Step> = hellos
                .iter()
                .enumerate()
                .filter(|(_, hello)| **hello)
                .map(|(client, _)| Step::Send {
                    client,
                    msg: Msg::Hello {
                        name: client,
                        resume: false,
                        bot: (client == CLIENTS - 1 && third_is_bot).then_some(true),
                    },
                })
                .collect();
            // Most cases start with a game under way between the first two clients.
            if let Some(game) = first_game {
                let create = Msg::Create {
                    game,
                    seat: 0,
                    clock: 0,
                    opening: Vec::new(),
                    bots: false,
                    private: false,
                };
                case.push(Step::Send {
                    client: 0,
                    msg: create,
                });
                case.push(Step::Sit {
                    room: RoomRef::Seen(0),
                });
            }
            case.extend(steps);
            case
        })
}
