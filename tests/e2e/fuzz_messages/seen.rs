//! What the fuzzing clients have seen: each room's game as they saw it, the tokens and ids
//! they were given, and the checks on every frame a client receives.

use super::*;

/// A room's game as the clients saw it: its spec, the length of its opening, and every move.
pub(crate) struct Mirror {
    pub(crate) spec: GameSpec,
    pub(crate) opening: usize,
    pub(crate) moves: Vec<String>,
    /// The player ids on the black and white seats.
    pub(crate) seats: [Option<String>; 2],
    pub(crate) over: bool,
}

/// The rooms the clients have heard of, with each room's game as they saw it. Each client
/// reads its frames at its own pace, so a mirror may lag or lead; it only has to make most
/// generated moves legal.
#[derive(Default)]
pub(crate) struct Seen {
    pub(crate) rooms: Vec<String>,
    pub(crate) games: HashMap<String, Mirror>,
}

impl Seen {
    pub(crate) fn room(&self, r: &RoomRef) -> String {
        match r {
            RoomRef::Seen(k) if !self.rooms.is_empty() => {
                self.rooms[self.rooms.len() - 1 - k % self.rooms.len()].clone()
            }
            RoomRef::Seen(_) => "no-room-yet".to_string(),
            RoomRef::Live(k) => {
                let live: Vec<&String> = self
                    .rooms
                    .iter()
                    .rev()
                    .filter(|r| {
                        self.games
                            .get(*r)
                            .is_some_and(|g| !g.over && g.seats.iter().all(Option::is_some))
                    })
                    .collect();
                if live.is_empty() {
                    self.room(&RoomRef::Seen(0))
                } else {
                    live[k % live.len()].clone()
                }
            }
            RoomRef::Unknown(id) => id.clone(),
        }
    }

    pub(crate) fn heard_of(&mut self, room: &str) {
        if !self.rooms.iter().any(|r| r == room) {
            self.rooms.push(room.to_string());
        }
    }

    /// The move `m` names in `room`'s position.
    pub(crate) fn mv(&self, room: &str, m: &MoveRef) -> String {
        match m {
            MoveRef::Text(text) => text.clone(),
            MoveRef::Legal(k) => self
                .games
                .get(room)
                .map_or_else(|| "a1".to_string(), |g| legal_move(&g.spec, &g.moves, *k)),
        }
    }

    /// Whether `player` has a seat in `room`.
    pub(crate) fn seated(&self, room: &str, player: &str) -> bool {
        self.games
            .get(room)
            .is_some_and(|g| g.seats.iter().flatten().any(|p| p == player))
    }

    /// The player id on the seat to move in `room`.
    pub(crate) fn to_move(&self, room: &str) -> Option<String> {
        let g = self.games.get(room)?;
        let turn = AnyPosition::with_moves(&g.spec, &g.moves).ok()?.turn();
        g.seats[usize::from(turn == game_core::Color::White)].clone()
    }

    pub(crate) fn note(&mut self, msg: &ServerMsg) {
        match msg {
            ServerMsg::Created { room } | ServerMsg::Invite { room, .. } => self.heard_of(room),
            ServerMsg::Rematch { next, .. } => self.heard_of(next),
            ServerMsg::State(s) => {
                self.heard_of(&s.room);
                let mut moves = s.opening.clone();
                moves.extend(s.moves.iter().cloned());
                let seat = |info: &Option<game_core::protocol::SeatInfo>| {
                    info.as_ref().map(|i| i.player.clone())
                };
                let mirror = Mirror {
                    spec: s.game.clone(),
                    opening: s.opening.len(),
                    moves,
                    seats: [seat(&s.seats.black), seat(&s.seats.white)],
                    over: s.status == game_core::protocol::RoomStatus::Over,
                };
                self.games.insert(s.room.clone(), mirror);
            }
            ServerMsg::Moved { room, ply, mv, .. } => {
                if let Some(g) = self.games.get_mut(room) {
                    // Every client hears every move: the next one is kept, others are known.
                    if g.moves.len() + 1 == g.opening + *ply as usize {
                        g.moves.push(mv.clone());
                    }
                }
            }
            ServerMsg::Over { room, .. } => {
                if let Some(g) = self.games.get_mut(room) {
                    g.over = true;
                }
            }
            ServerMsg::Undone { room, ply, .. } => {
                if let Some(g) = self.games.get_mut(room) {
                    g.moves.truncate(g.opening + *ply as usize);
                }
            }
            _ => {}
        }
    }
}

/// The `k`-th legal move (modulo their number) after `moves`, or `a1` when there is none.
pub(crate) fn legal_move(spec: &GameSpec, moves: &[String], k: usize) -> String {
    AnyPosition::with_moves(spec, moves)
        .ok()
        .map(|p| p.legal_moves())
        .filter(|legal| !legal.is_empty())
        .map_or_else(|| "a1".to_string(), |legal| legal[k % legal.len()].clone())
}
