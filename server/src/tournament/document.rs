//! A tournament as it is stored — one JSON document: its rules (kind, game, clock, rounds,
//! rated), its players in seeding order, its status, and every round's games with their
//! rooms and results — and the steps that change it: joining and leaving while it is open,
//! the start, pairing the next round, recording a result, the end. Each step checks its own
//! rules and leaves the document unchanged when it refuses; none awaits, stores or panics.

use serde::{Deserialize, Serialize};

use game_core::protocol::{ClockSpec, ResultKind};
use game_core::GameSpec;

use super::pairing::{self, PairingError, PlayerId};
use crate::store::StoredTournament;

/// Longest tournament name, in characters.
pub const NAME_MAX_CHARS: usize = 40;
/// Most rounds a Swiss may be asked for.
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// Most players of a Swiss.
pub const MAX_SWISS_PLAYERS: usize = 64;
/// Most players of a round-robin: every pair meets, so its games grow with the square (16
/// players: 120 games in 15 rounds).
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 16;

/// How the rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Everyone meets everyone once (the Berger tables).
    RoundRobin,
    /// Players of equal scores meet, never twice when avoidable, for a fixed number of rounds.
    Swiss,
}

impl Kind {
    /// The kind named `name` as the API writes it.
    #[must_use]
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "round_robin" => Some(Kind::RoundRobin),
            "swiss" => Some(Kind::Swiss),
            _ => None,
        }
    }

    #[must_use]
    pub fn max_players(self) -> usize {
        match self {
            Kind::RoundRobin => MAX_ROUND_ROBIN_PLAYERS,
            Kind::Swiss => MAX_SWISS_PLAYERS,
        }
    }
}

/// Where a tournament is in its life: open to join, running its rounds, or over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Running,
    Over,
}

impl Status {
    /// As stored beside the document (the store lists the running ones by it).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Over => "over",
        }
    }
}

/// A player of the tournament: always an account (a person's or a bot's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub player: PlayerId,
    pub name: String,
    pub bot: bool,
    /// The level a bot plays at (absent: its best, the level of rated games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The account that plays, when it is not `player`: a bot entered at a second level is
    /// a player of its own in the tournament (`player` is `<account>#<level>`), played by
    /// the same bot account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<PlayerId>,
}

impl Entrant {
    /// The account that plays for this entrant: its rooms' seat, its connections.
    #[must_use]
    pub fn account(&self) -> &str {
        self.account.as_deref().unwrap_or(&self.player)
    }

    /// The level a bot entrant plays at: the one it was entered at, else its best (the level
    /// of rated games).
    #[must_use]
    pub fn bot_level(&self) -> u8 {
        self.level
            .unwrap_or(crate::accounts::ratings::RATED_BOT_LEVEL)
    }
}

/// One game of a round: its room (whose id is drawn, and stored here, before the room is
/// made), who was seated on which side, and once it is over its result and what black scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableGame {
    pub room: String,
    /// The player seated black (who moves first), by id.
    pub black: PlayerId,
    pub white: PlayerId,
    /// The room's result once it is over; `aborted` for a game that ended without one.
    #[serde(default)]
    pub result: Option<ResultKind>,
    /// What `black` scored, in half-points (2 a win, 1 a draw, 0 a loss); `white` scored the
    /// rest of 2. Absent while the game goes on.
    #[serde(default)]
    pub black_points: Option<u8>,
    /// A bot of the game, every place of which was taken when the room was to be made: the
    /// room waits for a free place rather than seat it in a game it would decline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits_for: Option<PlayerId>,
}

impl TableGame {
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.black_points.is_some()
    }
}

/// One round as paired: its games in table order, and the player who sits it out (an odd
/// field), who scores a win for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub games: Vec<TableGame>,
    #[serde(default)]
    pub bye: Option<PlayerId>,
}

impl Round {
    /// Every game of the round has its result.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.games.iter().all(TableGame::is_over)
    }
}

/// The whole tournament: what is stored, and what the API shows (with its standings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    pub id: String,
    pub name: String,
    pub kind: Kind,
    /// The one game every round plays (opening rule included).
    pub game: GameSpec,
    pub clock: ClockSpec,
    /// How many rounds: a Swiss's asked-for number, or, when it is decided at the start (a
    /// round-robin's table, a Swiss of the default length), `None` until then.
    pub rounds: Option<u32>,
    /// Its games are rated (the game has a rating: checked when it is made).
    pub rated: bool,
    /// Who made it (and alone may start it), and their name.
    pub creator: PlayerId,
    pub creator_name: String,
    pub created_ms: u64,
    #[serde(default)]
    pub started_ms: Option<u64>,
    #[serde(default)]
    pub finished_ms: Option<u64>,
    pub status: Status,
    /// In the order they joined: the seeding order of the pairings.
    pub players: Vec<Entrant>,
    /// Every round paired so far, the current one last.
    #[serde(default)]
    pub pairings: Vec<Round>,
}

/// What a new tournament is asked to be.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub name: String,
    pub kind: Kind,
    pub game: GameSpec,
    pub clock: ClockSpec,
    pub rounds: Option<u32>,
    pub rated: bool,
}

/// Why a tournament refuses a request (the sentence is the answer's).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("a tournament's name is 1 to {NAME_MAX_CHARS} printable characters")]
    BadName,
    #[error("kind is round_robin or swiss")]
    BadKind,
    #[error("a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds")]
    BadRounds,
    #[error("a round-robin's rounds come from its table: leave rounds out")]
    RoundsOfRoundRobin,
    #[error("the tournament has started: players can no longer join or leave")]
    NotOpen,
    #[error("the tournament is full (at most {0} players)")]
    Full(usize),
    #[error("you are not a player of this tournament")]
    NotAPlayer,
    #[error("only the tournament's creator can start it")]
    NotCreator,
    #[error("a tournament needs at least 2 players to start")]
    TooFewPlayers,
}

/// What the director does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Nothing: the tournament is not running.
    Nothing,
    /// Watch the current round's games until each has its result.
    Watch,
    /// Pair the next round.
    Pair,
    /// Every round is played: end the tournament.
    Finish,
}

/// Checks a name: trimmed, 1 to [`NAME_MAX_CHARS`] characters, none a control character.
pub fn check_name(name: &str) -> Result<String, TournamentError> {
    let name = name.trim();
    let count = name.chars().count();
    if (1..=NAME_MAX_CHARS).contains(&count) && !name.chars().any(char::is_control) {
        Ok(name.to_string())
    } else {
        Err(TournamentError::BadName)
    }
}

impl Tournament {
    /// A new open tournament made by `creator`, its rules checked (the game and clock are
    /// checked by their maker: they are the rooms' own rules).
    pub fn new(
        id: String,
        asked: NewTournament,
        creator: &Entrant,
        now_ms: u64,
    ) -> Result<Tournament, TournamentError> {
        let name = check_name(&asked.name)?;
        match (asked.kind, asked.rounds) {
            (Kind::RoundRobin, Some(_)) => return Err(TournamentError::RoundsOfRoundRobin),
            (Kind::Swiss, Some(r)) if !(1..=MAX_SWISS_ROUNDS).contains(&r) => {
                return Err(TournamentError::BadRounds)
            }
            _ => {}
        }
        Ok(Tournament {
            id,
            name,
            kind: asked.kind,
            game: asked.game,
            clock: asked.clock,
            rounds: asked.rounds,
            rated: asked.rated,
            creator: creator.player.clone(),
            creator_name: creator.name.clone(),
            created_ms: now_ms,
            started_ms: None,
            finished_ms: None,
            status: Status::Open,
            players: Vec::new(),
            pairings: Vec::new(),
        })
    }

    /// Adds a player while the tournament is open. False (and nothing changed) when they are
    /// in already.
    pub fn join(&mut self, entrant: Entrant) -> Result<bool, TournamentError> {
        if self.status != Status::Open {
            return Err(TournamentError::NotOpen);
        }
        if self.has_player(&entrant.player) {
            return Ok(false);
        }
        let max = self.kind.max_players();
        if self.players.len() >= max {
            return Err(TournamentError::Full(max));
        }
        self.players.push(entrant);
        Ok(true)
    }

    /// Takes a player out while the tournament is open.
    pub fn leave(&mut self, player: &str) -> Result<(), TournamentError> {
        if self.status != Status::Open {
            return Err(TournamentError::NotOpen);
        }
        let before = self.players.len();
        self.players.retain(|e| e.player != player);
        if self.players.len() == before {
            return Err(TournamentError::NotAPlayer);
        }
        Ok(())
    }

    /// Starts the tournament at the request of `by`: the creator alone, with two players or
    /// more. The number of rounds is settled now: the round-robin table's length, or for a
    /// Swiss not asked for a number, ceil(log2 n) (at most [`MAX_SWISS_ROUNDS`]).
    pub fn start(&mut self, by: &str, now_ms: u64) -> Result<(), TournamentError> {
        if by != self.creator {
            return Err(TournamentError::NotCreator);
        }
        if self.status != Status::Open {
            return Err(TournamentError::NotOpen);
        }
        let n = self.players.len();
        if n < 2 {
            return Err(TournamentError::TooFewPlayers);
        }
        let rounds = match self.kind {
            // n players: n-1 rounds when n is even, n (one bye each) when it is odd.
            Kind::RoundRobin => n - usize::from(n.is_multiple_of(2)),
            Kind::Swiss => self.rounds.map_or_else(
                || pairing::swiss_rounds(n).min(MAX_SWISS_ROUNDS as usize),
                |r| r as usize,
            ),
        };
        self.rounds = Some(u32::try_from(rounds).unwrap_or(MAX_SWISS_ROUNDS));
        self.status = Status::Running;
        self.started_ms = Some(now_ms);
        Ok(())
    }

    #[must_use]
    pub fn has_player(&self, player: &str) -> bool {
        self.players.iter().any(|e| e.player == player)
    }

    #[must_use]
    pub fn entrant(&self, player: &str) -> Option<&Entrant> {
        self.players.iter().find(|e| e.player == player)
    }

    /// The player ids in seeding order.
    #[must_use]
    pub fn seeds(&self) -> Vec<PlayerId> {
        self.players.iter().map(|e| e.player.clone()).collect()
    }

    /// The round being played (the last one paired).
    #[must_use]
    pub fn current_round(&self) -> Option<&Round> {
        self.pairings.last()
    }

    /// What the director does next.
    #[must_use]
    pub fn next(&self) -> Next {
        if self.status != Status::Running {
            return Next::Nothing;
        }
        if self.current_round().is_some_and(|r| !r.is_over()) {
            return Next::Watch;
        }
        let rounds = self.rounds.unwrap_or(0) as usize;
        if self.pairings.len() >= rounds {
            Next::Finish
        } else {
            Next::Pair
        }
    }

    /// The finished games in the order played (black first, what black scored) and the byes
    /// given, as the pairing and the standings read them.
    #[must_use]
    pub fn results(&self) -> (Vec<pairing::GameResult>, Vec<PlayerId>) {
        let games = self
            .pairings
            .iter()
            .flat_map(|r| &r.games)
            .filter_map(|g| {
                Some(pairing::GameResult {
                    first: g.black.clone(),
                    second: g.white.clone(),
                    first_score: g.black_points?,
                })
            })
            .collect();
        let byes = self.pairings.iter().filter_map(|r| r.bye.clone()).collect();
        (games, byes)
    }

    /// Pairs the next round — the round-robin table's next line, or a Swiss pairing by the
    /// results so far — drawing each game's room id with `room_id`. Only when [`Self::next`]
    /// says so; otherwise nothing changes and `Ok(false)`.
    pub fn pair_next_round(
        &mut self,
        mut room_id: impl FnMut() -> String,
    ) -> Result<bool, PairingError> {
        if self.next() != Next::Pair {
            return Ok(false);
        }
        let seeds = self.seeds();
        let round = match self.kind {
            Kind::RoundRobin => {
                let table = pairing::round_robin(&seeds)?;
                match table.into_iter().nth(self.pairings.len()) {
                    Some(round) => round,
                    // The table is shorter than the rounds settled at the start: nothing is
                    // left to pair (`next` then says to finish).
                    None => {
                        self.rounds = Some(self.pairings.len() as u32);
                        return Ok(false);
                    }
                }
            }
            Kind::Swiss => {
                let (games, byes) = self.results();
                pairing::swiss_pairings(&seeds, &games, &byes)?.round
            }
        };
        let games = round
            .pairings
            .into_iter()
            .map(|p| TableGame {
                room: room_id(),
                black: p.first,
                white: p.second,
                result: None,
                black_points: None,
                waits_for: None,
            })
            .collect();
        self.pairings.push(Round {
            games,
            bye: round.bye,
        });
        Ok(true)
    }

    /// Records the result of the current round's game in `room`; false when no game of it is
    /// played there or it has its result already.
    pub fn record(&mut self, room: &str, result: ResultKind, black_points: u8) -> bool {
        let Some(round) = self.pairings.last_mut() else {
            return false;
        };
        match round.games.iter_mut().find(|g| g.room == room) {
            Some(game) if !game.is_over() => {
                game.result = Some(result);
                game.black_points = Some(black_points.min(2));
                true
            }
            _ => false,
        }
    }

    /// Notes that the room of the current round's game in `room` waits for `bot` (a free
    /// place of it), or no longer waits (`None`). Returns whether that changed.
    pub fn mark_waiting(&mut self, room: &str, bot: Option<&str>) -> bool {
        let Some(game) = self
            .pairings
            .last_mut()
            .and_then(|r| r.games.iter_mut().find(|g| g.room == room))
        else {
            return false;
        };
        if game.waits_for.as_deref() == bot {
            return false;
        }
        game.waits_for = bot.map(str::to_string);
        true
    }

    /// Ends the tournament (every round played).
    pub fn finish(&mut self, now_ms: u64) {
        if self.status == Status::Running {
            self.status = Status::Over;
            self.finished_ms = Some(now_ms);
        }
    }

    /// The document as the store keeps it.
    pub fn stored(&self) -> Result<StoredTournament, serde_json::Error> {
        Ok(StoredTournament {
            id: self.id.clone(),
            status: self.status.as_str().to_string(),
            created_ms: self.created_ms,
            doc: serde_json::to_string(self)?,
        })
    }

    /// The tournament of a stored document.
    pub fn from_stored(stored: &StoredTournament) -> Result<Tournament, serde_json::Error> {
        serde_json::from_str(&stored.doc)
    }
}

#[cfg(test)]
mod tests;
