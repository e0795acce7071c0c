//! Tournament logic — round-robin schedules (Berger tables), Swiss pairings and standings with
//! Buchholz and Sonneborn-Berger — as pure functions the server calls between rounds.
//!
//! Players are given in seeding order and referred to by id. Scores are integers so that every
//! comparison is exact: game scores, points and Buchholz are in half-points (win 2, draw 1,
//! loss 0) and Sonneborn-Berger is in quarter-points. A bye scores a win. Malformed input (a
//! duplicate or unknown id, a score above 2, a game against oneself) is an error, never a panic.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

/// A player's id as the server knows it.
pub type PlayerId = String;

/// A finished game; `first` moved first (plays black).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub first: PlayerId,
    pub second: PlayerId,
    /// What `first` scored, in half-points: 2 win, 1 draw, 0 loss.
    pub first_score: u8,
}

/// One game to play; `first` moves first (plays black).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub first: PlayerId,
    pub second: PlayerId,
}

/// One round: its games in table order, and the player who sits out, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    pub bye: Option<PlayerId>,
}

/// The next Swiss round, with the pairings that repeat an earlier game. `repeats` is empty
/// unless no repeat-free pairing existed; then it holds as few as the search could manage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SwissRound {
    pub round: Round,
    pub repeats: Vec<Pairing>,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub player: PlayerId,
    /// Position 1..=n; never shared, see `tied_with_previous`.
    pub rank: usize,
    /// Half-points, byes included.
    pub points: u64,
    /// Games played over the board (byes not counted), and of those the ones won.
    pub games: u32,
    pub wins: u32,
    pub byes: u32,
    /// Sum of the final points of every opponent met, in half-points; a bye adds nothing.
    pub buchholz: u64,
    /// Points of opponents beaten plus half the points of opponents drawn, in quarter-points.
    pub sonneborn_berger: u64,
    /// Same points, Buchholz and Sonneborn-Berger as the line above: only the seed split them.
    pub tied_with_previous: bool,
}

/// Why the input describes no tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    DuplicatePlayer(PlayerId),
    UnknownPlayer(PlayerId),
    SelfPairing(PlayerId),
    BadScore(u8),
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::DuplicatePlayer(id) => write!(f, "player {id:?} is listed twice"),
            PairingError::UnknownPlayer(id) => write!(f, "player {id:?} is not in the tournament"),
            PairingError::SelfPairing(id) => write!(f, "player {id:?} cannot play themself"),
            PairingError::BadScore(s) => write!(f, "score {s} is not 0, 1 or 2 half-points"),
        }
    }
}

impl std::error::Error for PairingError {}

/// The default length of a Swiss: ceil(log2 n) rounds, at least 1. That is the fewest rounds
/// after which a single player can be the only one with a perfect score.
#[must_use]
pub fn swiss_rounds(players: usize) -> usize {
    match players {
        0..=2 => 1,
        n => (usize::BITS - (n - 1).leading_zeros()) as usize,
    }
}

/// A single round-robin by the Berger tables: every pair meets once, in n-1 rounds for even n
/// and n rounds with one bye each for odd n. Fewer than two players need no rounds.
///
/// Colours: every player moves first (n-1)/2 or n/2 times — never more than one apart — the
/// fixed-seat player (the last seed) alternates, and nobody moves first or second three games
/// running.
pub fn round_robin(players: &[PlayerId]) -> Result<Vec<Round>, PairingError> {
    seat_index(players)?;
    let n = players.len();
    if n < 2 {
        return Ok(Vec::new());
    }
    // The circle: k seats rotating around a fixed seat, which an odd field leaves empty (meeting
    // the empty seat is the bye). Round r pairs the seats p, q with p + q ≡ r·m (mod k); since
    // 2m ≡ 1 (mod k), m is invertible and every pair's sum comes up in exactly one round.
    let fixed = n.is_multiple_of(2).then_some(n - 1);
    let k = if n.is_multiple_of(2) { n - 1 } else { n };
    let m = k.div_ceil(2);
    let pairing = |first, second| seated(players, first, second);
    let rounds = (0..k).map(|r| {
        let sum = r * m % k;
        let hub = sum * m % k; // the seat that meets the fixed seat: 2·hub ≡ sum
        let mut round = Round::default();
        match fixed {
            Some(f) if r.is_multiple_of(2) => round.pairings.push(pairing(f, hub)),
            Some(f) => round.pairings.push(pairing(hub, f)),
            None => round.bye = Some(players[hub].clone()),
        }
        for i in 1..m {
            let (p, q) = ((hub + i) % k, (hub + k - i) % k);
            // p moves first when q lies 1..m-1 seats ahead of it: each seat leads against exactly
            // m-1 others, and a seat's offset jumps by m each round, so its colours alternate.
            if (q + k - p) % k < m {
                round.pairings.push(pairing(p, q));
            } else {
                round.pairings.push(pairing(q, p));
            }
        }
        round
    });
    Ok(rounds.collect())
}

/// A double round-robin: the single one twice, the second cycle with colours swapped, so every
/// pair meets once with each colour.
pub fn double_round_robin(players: &[PlayerId]) -> Result<Vec<Round>, PairingError> {
    let single = round_robin(players)?;
    let swap = |p: &Pairing| {
        let (first, second) = (p.second.clone(), p.first.clone());
        Pairing { first, second }
    };
    let swapped: Vec<Round> = (single.iter())
        .map(|round| Round {
            pairings: round.pairings.iter().map(swap).collect(),
            ..round.clone()
        })
        .collect();
    Ok(single.into_iter().chain(swapped).collect())
}

/// The pairing of two seats of the seeding list.
fn seated(players: &[PlayerId], first: usize, second: usize) -> Pairing {
    let (first, second) = (players[first].clone(), players[second].clone());
    Pairing { first, second }
}

/// Everything a player did so far, indexed like the seeding list.
#[derive(Default)]
struct Record {
    points: u64,
    byes: u32,
    games: Vec<Played>,
}

#[derive(Clone, Copy)]
struct Played {
    opponent: usize,
    score: u8,
    moved_first: bool,
}

fn seat_index(players: &[PlayerId]) -> Result<HashMap<&str, usize>, PairingError> {
    let mut index = HashMap::with_capacity(players.len());
    for (i, id) in players.iter().enumerate() {
        if index.insert(id.as_str(), i).is_some() {
            return Err(PairingError::DuplicatePlayer(id.clone()));
        }
    }
    Ok(index)
}

/// Tallies games (in the order played) and byes per player.
fn tally(
    players: &[PlayerId],
    games: &[GameResult],
    byes: &[PlayerId],
) -> Result<Vec<Record>, PairingError> {
    let index = seat_index(players)?;
    let seat = |id: &PlayerId| {
        let found = index.get(id.as_str()).copied();
        found.ok_or_else(|| PairingError::UnknownPlayer(id.clone()))
    };
    let mut records: Vec<Record> = players.iter().map(|_| Record::default()).collect();
    for game in games {
        let (a, b) = (seat(&game.first)?, seat(&game.second)?);
        if a == b {
            return Err(PairingError::SelfPairing(game.first.clone()));
        }
        let score = game.first_score;
        if score > 2 {
            return Err(PairingError::BadScore(score));
        }
        for (me, opponent, score, moved_first) in [(a, b, score, true), (b, a, 2 - score, false)] {
            records[me].points += u64::from(score);
            let game = Played {
                opponent,
                score,
                moved_first,
            };
            records[me].games.push(game);
        }
    }
    for id in byes {
        let i = seat(id)?;
        records[i].points += 2;
        records[i].byes += 1;
    }
    Ok(records)
}

/// The standings after `games` (any order) and `byes`: by points, then Buchholz, then
/// Sonneborn-Berger, then seed. Both tie-breaks count each game, so an opponent met twice
/// counts twice; byes add nothing to either (the simple rule: no virtual opponent).
pub fn standings(
    players: &[PlayerId],
    games: &[GameResult],
    byes: &[PlayerId],
) -> Result<Vec<Standing>, PairingError> {
    let records = tally(players, games, byes)?;
    let mut lines: Vec<(usize, Standing)> = (records.iter().enumerate())
        .map(|(i, record)| {
            let opponent_points = |g: &Played| records[g.opponent].points;
            let line = Standing {
                player: players[i].clone(),
                rank: 0,
                points: record.points,
                games: record.games.len() as u32,
                wins: record.games.iter().filter(|g| g.score == 2).count() as u32,
                byes: record.byes,
                buchholz: record.games.iter().map(opponent_points).sum(),
                // Score (half-points) × opponent's points (half-points) = quarter-points.
                sonneborn_berger: (record.games.iter())
                    .map(|g| u64::from(g.score) * opponent_points(g))
                    .sum(),
                tied_with_previous: false,
            };
            (i, line)
        })
        .collect();
    let merit = |s: &Standing| Reverse((s.points, s.buchholz, s.sonneborn_berger));
    lines.sort_by_key(|(seed, s)| (merit(s), *seed));
    let mut previous = None;
    let mut result = Vec::with_capacity(lines.len());
    for (position, (_, mut line)) in lines.into_iter().enumerate() {
        line.rank = position + 1;
        line.tied_with_previous = previous == Some(merit(&line));
        previous = Some(merit(&line));
        result.push(line);
    }
    Ok(result)
}

/// How much work (about one unit per player looked at) one call to [`swiss_pairings`] may spend
/// searching, on top of 4n² for n players, before it settles for the plain top-down pairing.
/// It bounds the time on pathological inputs (a fraction of a second) and, being a count rather
/// than a clock, keeps the result deterministic. Swiss fields of up to twenty players never run
/// out of it in the tests, where an exhaustive check confirms every relaxation was forced.
const SEARCH_BUDGET: u64 = 2_000_000;

/// The next round of a Swiss, from the seeding list, the games so far in the order played and
/// the byes given so far (one entry per bye).
///
/// Ranking for pairing is by points, then seed. Priorities, highest first:
/// 1. no repeat pairings — backtracking as far as needed; only when none exists (or the search
///    budget runs out) are repeats allowed, as few as possible, preferring pairs that met least;
/// 2. with an odd field, the bye goes to a player with the fewest byes so far, the lowest-ranked
///    such player that still allows (1);
/// 3. no player moves first, or second, three games running, and no colour imbalance of three:
///    two players who both must have the same colour are not paired when avoidable;
/// 4. Dutch order: in each score group the top half meets the bottom half (1st with the
///    (g/2+1)th, …), an odd player floats down to the top of the next group, and the first
///    workable alternative in that order is taken.
///
/// Colours: each gets the colour they had fewer of, else the one they did not have last; a
/// clash is won by the stronger claim, then by the colour history (the latest game where the
/// two had different colours is reversed), then by the higher-ranked player. Round one gives
/// the higher-ranked player the first move on odd tables (1, 3, …) and the second on even ones.
pub fn swiss_pairings(
    players: &[PlayerId],
    games: &[GameResult],
    byes: &[PlayerId],
) -> Result<SwissRound, PairingError> {
    let records = tally(players, games, byes)?;
    let mut met: HashMap<(usize, usize), u32> = HashMap::new();
    for (a, record) in records.iter().enumerate() {
        for game in record.games.iter().filter(|g| a < g.opponent) {
            *met.entry((a, game.opponent)).or_default() += 1;
        }
    }
    let mut ranked: Vec<usize> = (0..players.len()).collect();
    ranked.sort_by_key(|&i| (Reverse(records[i].points), i));
    let bye_candidates: Vec<Option<usize>> = if players.len().is_multiple_of(2) {
        vec![None]
    } else {
        let fewest = records.iter().map(|r| r.byes).min().unwrap_or(0);
        let lowest_first = ranked.iter().rev().filter(|&&i| records[i].byes == fewest);
        lowest_first.map(|&i| Some(i)).collect()
    };
    let must: Vec<Option<bool>> = (records.iter())
        .map(|r| colour_claim(&r.games).filter(|c| c.0 == MUST).map(|c| c.1))
        .collect();
    // Enough for a few plain passes over any field, and for deep backtracking in small ones.
    let n = players.len() as u64;
    let mut budget = SEARCH_BUDGET.saturating_add(n.saturating_mul(n).saturating_mul(4));
    let attempt = |bye: Option<usize>, max_repeats: usize, avoid_clash: bool, budget: &mut u64| {
        let pool: Vec<usize> = ranked.iter().copied().filter(|&i| Some(i) != bye).collect();
        let search = Search {
            pool: &pool,
            records: &records,
            met: &met,
            must: &must,
            avoid_clash,
        };
        search.run(max_repeats, budget).map(|pairs| (bye, pairs))
    };
    let mut found = None;
    'levels: for max_repeats in 0..=players.len() / 2 {
        for &bye in &bye_candidates {
            for avoid_clash in [true, false] {
                found = attempt(bye, max_repeats, avoid_clash, &mut budget);
                if found.is_some() || budget == 0 {
                    break 'levels;
                }
            }
        }
    }
    // Out of budget: allowing everything, the search takes the first candidate every time.
    let first_bye = bye_candidates.first().copied().flatten();
    let fallback = || attempt(first_bye, players.len(), false, &mut { u64::MAX });
    let Some((bye, pairs)) = found.or_else(fallback) else {
        return Ok(SwissRound::default()); // unreachable: the unconstrained search cannot fail
    };
    let mut next = SwissRound::default();
    next.round.bye = bye.map(|i| players[i].clone());
    for (table, &(a, b)) in pairs.iter().enumerate() {
        let a_first = higher_moves_first(&records[a].games, &records[b].games, table);
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        let pairing = seated(players, first, second);
        if met.contains_key(&(a.min(b), a.max(b))) {
            next.repeats.push(pairing.clone());
        }
        next.round.pairings.push(pairing);
    }
    Ok(next)
}

/// Claim strengths on a colour: must (three in a row or an imbalance of three would follow),
/// imbalance of one, plain alternation.
const MUST: u8 = 3;
const BALANCE: u8 = 2;
const ALTERNATE: u8 = 1;

/// The colour a history asks for next, as (strength, wants to move first); none before a game.
fn colour_claim(games: &[Played]) -> Option<(u8, bool)> {
    let last = games.last()?.moved_first;
    let firsts = games.iter().filter(|g| g.moved_first).count();
    let seconds = games.len() - firsts;
    let twice = games.len() >= 2 && games[games.len() - 2].moved_first == last;
    Some(if twice {
        (MUST, !last)
    } else if firsts.abs_diff(seconds) >= 2 {
        (MUST, firsts < seconds)
    } else if firsts != seconds {
        (BALANCE, firsts < seconds)
    } else {
        (ALTERNATE, !last)
    })
}

/// Whether the higher-ranked player `a` moves first against `b` at `table` (0-based).
fn higher_moves_first(a: &[Played], b: &[Played], table: usize) -> bool {
    match (colour_claim(a), colour_claim(b)) {
        (None, None) => table.is_multiple_of(2),
        (Some((_, a_wants)), None) => a_wants,
        (None, Some((_, b_wants))) => !b_wants,
        (Some((sa, a_wants)), Some((sb, b_wants))) => {
            if a_wants != b_wants || sa > sb {
                a_wants
            } else if sb > sa {
                !b_wants
            } else {
                let mut histories = a.iter().rev().zip(b.iter().rev());
                let differ = histories.find(|(x, y)| x.moved_first != y.moved_first);
                differ.map_or(a_wants, |(x, _)| !x.moved_first)
            }
        }
    }
}

/// A depth-first search for a perfect matching of `pool` (seats in ranking order), always
/// pairing the highest unpaired player next, trying partners in Dutch order.
struct Search<'a> {
    pool: &'a [usize],
    records: &'a [Record],
    met: &'a HashMap<(usize, usize), u32>,
    must: &'a [Option<bool>],
    avoid_clash: bool,
}

/// One level of the search: pool position `p`, how many of its candidates were tried, and the
/// partner being tried (with whether that is a repeat).
struct Frame {
    p: usize,
    tried: usize,
    partner: Option<(usize, bool)>,
}

impl Search<'_> {
    fn met(&self, p: usize, q: usize) -> u32 {
        let (a, b) = (self.pool[p], self.pool[q]);
        self.met.get(&(a.min(b), a.max(b))).copied().unwrap_or(0)
    }

    /// Partners for `p`, the highest free position, in preference order.
    fn candidates(&self, p: usize, free: &[bool]) -> Vec<usize> {
        let points = |q: usize| self.records[self.pool[q]].points;
        let others = (p + 1..self.pool.len()).filter(|&q| free[q]);
        let group: Vec<usize> = others.clone().filter(|&q| points(q) == points(p)).collect();
        // `group` lacks p itself: p is the 1st of g = len+1 and meets the (g/2+1)th first, then
        // the rest of the bottom half, then the top half upwards, then the lower groups.
        let half = group.len().div_ceil(2);
        let mut order: Vec<usize> = group[half.saturating_sub(1)..].to_vec();
        order.extend(group[..half.saturating_sub(1)].iter().rev());
        order.extend(others.filter(|&q| points(q) != points(p)));
        let must = |q: usize| self.must[self.pool[q]];
        if self.avoid_clash && must(p).is_some() {
            order.retain(|&q| must(q) != must(p));
        }
        order.sort_by_key(|&q| self.met(p, q)); // stable: repeats last, least-met first
        order
    }

    /// Pairs of seats (higher-ranked first) using at most `max_repeats` repeat pairings, or
    /// none when impossible or the budget ran out. Iterative, so no input overflows the stack,
    /// and light on memory: a level's candidates are recomputed rather than stored. States
    /// (free players, repeats left) proven hopeless are remembered, so each is explored once.
    fn run(&self, max_repeats: usize, budget: &mut u64) -> Option<Vec<(usize, usize)>> {
        let mut free = vec![true; self.pool.len()];
        let mut repeats_left = max_repeats;
        let mut hopeless: HashSet<(Vec<bool>, usize)> = HashSet::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut descend = true;
        loop {
            // Every step looks at each free player a few times: charge for that.
            *budget = budget.saturating_sub(free.len() as u64 + 1);
            if *budget == 0 {
                return None;
            }
            if descend {
                let Some(p) = free.iter().position(|&f| f) else {
                    let pairs = stack.iter().filter_map(|f| Some((f.p, f.partner?.0)));
                    return Some(pairs.map(|(p, q)| (self.pool[p], self.pool[q])).collect());
                };
                if !hopeless.contains(&(free.clone(), repeats_left)) {
                    free[p] = false;
                    let frame = Frame {
                        p,
                        tried: 0,
                        partner: None,
                    };
                    stack.push(frame);
                }
            }
            let frame = stack.last_mut()?;
            if let Some((q, repeat)) = frame.partner.take() {
                free[q] = true;
                repeats_left += usize::from(repeat);
            }
            // `free` is now as it was when this level began, so the list is the same again.
            let candidates = self.candidates(frame.p, &free);
            descend = false;
            for &q in candidates.iter().skip(frame.tried) {
                frame.tried += 1;
                let repeat = self.met(frame.p, q) > 0;
                if !repeat || repeats_left > 0 {
                    free[q] = false;
                    repeats_left -= usize::from(repeat);
                    frame.partner = Some((q, repeat));
                    descend = true;
                    break;
                }
            }
            if !descend {
                let done = stack.pop()?;
                free[done.p] = true;
                hopeless.insert((free.clone(), repeats_left));
            }
        }
    }
}

#[cfg(test)]
mod tests;
