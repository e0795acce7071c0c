//! The root's threat-space decisions, around the alpha-beta search: a proven win (VCF, then
//! VCT) is played at once; when the opponent would have one were it his move, only the moves
//! after which he has none are searched (checked first against VCTs a little longer than his,
//! every move within a short slice of the move and then those cut short within a longer one,
//! the best-ranked still cut short longer again when others passed, then the moves that pass
//! against the longest, each in a share of the time, more when few passed); and the move the
//! search chose is checked the same way, the next-best taking its place when it loses by force.
//!
//! Every check runs under a [`Budget`]: a node count (deterministic searches) or an instant
//! (timed ones). A check cut short proves nothing, and the move it was about keeps its place.

use std::time::{Duration, Instant};

use super::board::{Board, Point};
use super::params::{
    LEADERS_CHECKED_FIRST, LEADERS_SLICED, VCF_PLIES, VCT_PLIES_FIRST, VCT_PLIES_STEP,
};
use super::threat::{ThreatSearch, ThreatWin};
use crate::engine::StopFlag;

/// What a threat search may spend.
#[derive(Clone, Debug)]
pub struct Budget {
    pub nodes: u64,
    pub until: Option<Instant>,
    pub stop: StopFlag,
}

impl Budget {
    fn apply(&self, threats: &mut ThreatSearch) {
        threats.set_budget(self.nodes, self.until, Some(self.stop.clone()));
    }

    /// Whether a timed budget's time is up or the stop was raised.
    pub fn spent(&self) -> bool {
        self.until.is_some_and(|t| Instant::now() >= t) || self.stop.is_stopped()
    }

    /// The same budget, timed ones ending `most` from now at the latest (`None`: as it is).
    fn at_most(&self, most: Option<Duration>) -> Budget {
        let until = match (self.until, most) {
            (Some(t), Some(most)) => Some(t.min(Instant::now() + most)),
            (t, _) => t,
        };
        Budget {
            until,
            ..self.clone()
        }
    }

    /// An even share of what is left of a timed budget among `n` checks (`None`: not timed,
    /// each check has the whole node count).
    fn share(&self, n: usize) -> Option<Duration> {
        let n = u32::try_from(n.max(1)).unwrap_or(u32::MAX);
        self.until
            .map(|t| t.saturating_duration_since(Instant::now()) / n)
    }
}

/// A threat search's answer and the nodes it took.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub win: Option<ThreatWin>,
    /// True when the search ran to its end (so `win: None` means none within its plies).
    pub complete: bool,
    pub nodes: u64,
}

/// A win for the side to move: by fours alone, or with `vct` by threes and fours, deepening
/// up to `max_plies`.
pub fn find_win(
    threats: &mut ThreatSearch,
    board: &mut Board,
    vct: bool,
    max_plies: u32,
    budget: &Budget,
) -> Found {
    budget.apply(threats);
    if !vct {
        let win = threats.vcf(board, max_plies);
        return Found {
            complete: !threats.aborted(),
            nodes: threats.nodes(),
            win,
        };
    }
    let mut found = Found::default();
    let mut plies = VCT_PLIES_FIRST.min(max_plies);
    loop {
        let win = threats.vct(board, plies);
        found.nodes += threats.nodes();
        found.complete = !threats.aborted();
        if win.is_some() || !found.complete || plies >= max_plies || budget.spent() {
            found.win = win;
            return found;
        }
        plies = (plies + VCT_PLIES_STEP).min(max_plies);
        // The node budget is for the whole deepening.
        threats.set_budget(
            budget.nodes.saturating_sub(found.nodes),
            budget.until,
            Some(budget.stop.clone()),
        );
    }
}

/// The opponent's win if it were his move (the side to move passes).
pub fn opponent_win(
    threats: &mut ThreatSearch,
    board: &mut Board,
    vct: bool,
    max_plies: u32,
    budget: &Budget,
) -> Found {
    board.pass();
    let found = find_win(threats, board, vct, max_plies, budget);
    board.unpass();
    found
}

/// How a root move fares against the opponent's threats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// After it, the opponent has no win within the searched plies.
    Holds,
    /// After it, the opponent wins by force.
    Loses,
    /// The check was cut short.
    Unknown,
}

/// Whether the opponent wins by force after `m`: a VCF, and with `vct_plies > 0` a VCT of
/// at most that many plies.
pub fn verdict(
    threats: &mut ThreatSearch,
    board: &mut Board,
    m: Point,
    vct_plies: u32,
    budget: &Budget,
    nodes: &mut u64,
) -> Verdict {
    let by_fours = win_after(threats, board, m, false, VCF_PLIES, budget, nodes);
    if by_fours != Verdict::Holds || vct_plies == 0 {
        return by_fours;
    }
    win_after(threats, board, m, true, vct_plies, budget, nodes)
}

/// Whether the opponent wins by force after `m` by fours alone, or with `vct` by threes and
/// fours, within `plies`.
fn win_after(
    threats: &mut ThreatSearch,
    board: &mut Board,
    m: Point,
    vct: bool,
    plies: u32,
    budget: &Budget,
    nodes: &mut u64,
) -> Verdict {
    board.make(m);
    let found = find_win(threats, board, vct, plies, budget);
    board.unmake();
    *nodes += found.nodes;
    if found.win.is_some() {
        Verdict::Loses
    } else if found.complete {
        Verdict::Holds
    } else {
        Verdict::Unknown
    }
}

/// What is known of the root moves against the opponent's threats, each move checked once
/// at the usual length and, when time allows, once more at the longest.
#[derive(Clone, Debug)]
pub struct Verdicts {
    /// Each move checked: its verdict and the VCT length it was checked at.
    known: Vec<(Point, Verdict, u32)>,
    /// The VCT length checked after a move (0: VCF only).
    pub vct_plies: u32,
    /// The longest VCT a second check looks for.
    deep_plies: u32,
}

impl Verdicts {
    /// Nothing known yet; after a move the opponent's VCTs up to `vct_plies` count (0: only
    /// his VCFs), and a second check may look for them up to that length too.
    #[must_use]
    pub fn new(vct_plies: u32) -> Verdicts {
        Verdicts {
            known: Vec::new(),
            vct_plies,
            deep_plies: vct_plies,
        }
    }

    /// The verdict on `m`, if it was checked to the end.
    #[must_use]
    pub fn get(&self, m: Point) -> Option<Verdict> {
        self.known
            .iter()
            .find(|&&(p, _, _)| p == m)
            .map(|&(_, v, _)| v)
            .filter(|&v| v != Verdict::Unknown)
    }

    /// Whether `m` held its check but only against VCTs shorter than a second check looks for.
    #[must_use]
    pub fn checked_short(&self, m: Point) -> bool {
        self.known
            .iter()
            .any(|&(p, v, plies)| p == m && v == Verdict::Holds && plies < self.deep_plies)
    }

    fn record(&mut self, m: Point, v: Verdict, plies: u32) {
        self.known.retain(|&(p, _, _)| p != m);
        self.known.push((m, v, plies));
    }

    /// The verdict on `m`, checked now unless known.
    pub fn check(
        &mut self,
        threats: &mut ThreatSearch,
        board: &mut Board,
        m: Point,
        budget: &Budget,
        nodes: &mut u64,
    ) -> Verdict {
        if let Some(v) = self.get(m) {
            return v;
        }
        let v = verdict(threats, board, m, self.vct_plies, budget, nodes);
        self.record(m, v, self.vct_plies);
        v
    }

    /// Checks again a move that holds at the usual length, now against the opponent's VCTs
    /// up to the longest: a threat of eleven plies is often met by a move that only delays a
    /// win of thirty. `Loses` when one is found (and remembered); `Holds` when none is, or
    /// the move was checked that far already; `Unknown` when cut short (the move keeps its
    /// first verdict).
    pub fn recheck(
        &mut self,
        threats: &mut ThreatSearch,
        board: &mut Board,
        m: Point,
        budget: &Budget,
        nodes: &mut u64,
    ) -> Verdict {
        let plies = self.deep_plies;
        match self.known.iter().find(|&&(p, _, _)| p == m) {
            Some(&(_, Verdict::Loses, _)) => return Verdict::Loses,
            Some(&(_, Verdict::Holds, checked)) if checked >= plies => return Verdict::Holds,
            Some(&(_, Verdict::Holds, _)) => {}
            _ => return Verdict::Unknown,
        }
        let v = win_after(threats, board, m, true, plies, budget, nodes);
        if v != Verdict::Unknown {
            self.record(m, v, plies);
        }
        v
    }
}

/// The order in which [`defences`] checks the moves of `root` (best first) against the
/// opponent's winning `line`: the first [`LEADERS_CHECKED_FIRST`] of `root`, the points of his
/// line, our fours, then the rest, each group in `root`'s order.
#[must_use]
pub fn check_order(board: &Board, root: &[Point], line: &[Point]) -> Vec<Point> {
    let fours = &board.summary(board.turn()).fours;
    let group = |i: usize, m: Point| {
        if i < LEADERS_CHECKED_FIRST {
            0
        } else if line.contains(&m) {
            1
        } else if fours.contains(m) {
            2
        } else {
            3
        }
    };
    let mut order: Vec<(usize, Point)> = root.iter().copied().enumerate().collect();
    order.sort_by_key(|&(i, m)| group(i, m));
    order.into_iter().map(|(_, m)| m).collect()
}

/// How long one first check of [`defences`] may take (timed moves): `short` in a pass over
/// every move, then `long` for the moves that pass cut short, while the budget lasts. Most
/// checks end within the short slice, so every move gets one before a few costly ones take
/// the time; the long pass still proves the counter-attacks whose checks run longer. The
/// first [`LEADERS_SLICED`] of the ranking still cut short then get `leaders` from the second
/// round's budget when other moves held (`None`: they do not, as on moves that are not
/// timed): a leader's check given that much at once would starve the moves after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slices {
    pub short: Option<Duration>,
    pub long: Option<Duration>,
    pub leaders: Option<Duration>,
}

impl Slices {
    /// One pass, each check at most `slice` (`None`: as long as the budget), and no
    /// leaders' checks in the second round.
    #[must_use]
    pub fn one(slice: Option<Duration>) -> Slices {
        Slices {
            short: slice,
            long: slice,
            leaders: None,
        }
    }
}

/// The moves of `root` worth searching against the opponent's forced win `threat` (his
/// line were it his move): those proven to hold; when none is, all but those proven to lose
/// (those not checked in time stay: the final check looks at the one chosen), or all of them
/// when every move loses, so that the search finds the longest defence. `root` comes best
/// first; the checks go in [`check_order`], within the [`Slices`]: one costly check must not
/// leave the moves after it unchecked. Under the budget `recheck` gives, for how many held
/// when the first checks are done, the leaders cut short get their slice, and the moves
/// that hold are checked again against longer VCTs ([`Verdicts::recheck`]), best first.
#[allow(clippy::too_many_arguments)]
pub fn defences(
    threats: &mut ThreatSearch,
    board: &mut Board,
    root: &[Point],
    threat: &ThreatWin,
    verdicts: &mut Verdicts,
    budget: &Budget,
    slices: Slices,
    recheck: impl FnOnce(usize) -> Budget,
    nodes: &mut u64,
) -> Vec<Point> {
    let (mut holds, mut unknown) = (Vec::new(), Vec::new());
    for m in check_order(board, root, &threat.line) {
        let v = if budget.spent() {
            Verdict::Unknown
        } else {
            verdicts.check(threats, board, m, &budget.at_most(slices.short), nodes)
        };
        match v {
            Verdict::Holds => holds.push(m),
            Verdict::Unknown => unknown.push(m),
            Verdict::Loses => {}
        }
    }
    if slices.long != slices.short {
        unknown.retain(|&m| {
            if budget.spent() {
                return true;
            }
            match verdicts.check(threats, board, m, &budget.at_most(slices.long), nodes) {
                Verdict::Unknown => true,
                Verdict::Holds => {
                    holds.push(m);
                    false
                }
                Verdict::Loses => false,
            }
        });
    }
    // The second round: the leaders cut short, when others held, each checked within the
    // leaders' slice (a counter-attack the search prefers often needs a check a little past
    // the long slice: after `h8 f8 j10 g7 j8 h6 i5 e9 d10`, g9's at 23 plies takes 54 ms
    // alone); the moves that hold, checked again for longer VCTs; when all of them fail it,
    // the moves the first round had no time for, each one that holds checked for the longer
    // ones at once, until one passes both or the time runs out.
    let recheck = recheck(holds.len());
    if let Some(slice) = slices.leaders.filter(|_| !holds.is_empty()) {
        for &m in root.iter().take(LEADERS_SLICED) {
            if recheck.spent() {
                break;
            }
            if !unknown.contains(&m) {
                continue;
            }
            match verdicts.check(threats, board, m, &recheck.at_most(Some(slice)), nodes) {
                Verdict::Unknown => continue,
                Verdict::Holds => holds.push(m),
                Verdict::Loses => {}
            }
            unknown.retain(|&p| p != m);
        }
    }
    // The rechecks go in the ranking's order, each first within an even share of what is
    // left of the round, then those cut short with the rest: one recheck given the whole
    // round at once, cut short, left the holds after it unchecked (at 5 s after `h8 g8 i8`'s
    // 45th stone, l13's took the round and j11, which loses in 19 plies, was kept).
    holds.sort_by_key(|m| root.iter().position(|p| p == m));
    let (mut lost, mut cut) = (Vec::new(), Vec::new());
    for (i, &m) in holds.iter().enumerate() {
        if recheck.spent() {
            break;
        }
        let share = recheck.at_most(recheck.share(holds.len() - i));
        match verdicts.recheck(threats, board, m, &share, nodes) {
            Verdict::Loses => lost.push(m),
            Verdict::Unknown => cut.push(m),
            Verdict::Holds => {}
        }
    }
    for m in cut {
        if recheck.spent() {
            break;
        }
        if verdicts.recheck(threats, board, m, &recheck, nodes) == Verdict::Loses {
            lost.push(m);
        }
    }
    holds.retain(|m| !lost.contains(m));
    let unchecked = unknown.clone();
    for m in unchecked {
        if !holds.is_empty() || recheck.spent() {
            break;
        }
        match verdicts.check(threats, board, m, &recheck, nodes) {
            Verdict::Unknown => continue,
            Verdict::Loses => {}
            Verdict::Holds => {
                if verdicts.recheck(threats, board, m, &recheck, nodes) != Verdict::Loses {
                    holds.push(m);
                }
            }
        }
        unknown.retain(|&p| p != m);
    }
    if holds.is_empty() && unknown.is_empty() {
        return root.to_vec();
    }
    // A move proven to hold beats one whose check was cut short: long VCTs hide behind
    // those, and the final check rarely has the time to find them.
    let keep = if holds.is_empty() { &unknown } else { &holds };
    root.iter().copied().filter(|m| keep.contains(m)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_budget_is_shared_evenly_and_a_node_budget_not_at_all() {
        let timed = |until| Budget {
            nodes: u64::MAX,
            until: Some(until),
            stop: StopFlag::new(),
        };
        let minute = timed(Instant::now() + Duration::from_secs(60));
        let quarter = minute.share(4).expect("a timed budget has shares");
        assert!(quarter <= Duration::from_secs(15), "{quarter:?}");
        assert!(quarter > Duration::from_secs(14), "{quarter:?}");
        let whole = minute.share(0).expect("timed");
        assert!(
            whole > Duration::from_secs(59),
            "no checks: the whole, {whole:?}"
        );
        let spent = timed(Instant::now());
        assert_eq!(spent.share(3), Some(Duration::ZERO), "nothing left");
        let nodes = Budget {
            nodes: 1000,
            until: None,
            stop: StopFlag::new(),
        };
        assert_eq!(nodes.share(3), None, "each check has the node count");
    }
}
