//! The Gomoku engine's tuned parameters, in one place: the shares of a move's time given to
//! each phase of the root, the search's pruning margins and extensions, the threat searches'
//! reach and budgets. Each was set by a match or a measurement (docs/benchmarks-log.md); a
//! change here is a change of strength, to be measured the same way. The evaluation's pattern
//! weights, fitted by `bot/examples/gomoku_train.rs`, stay in [`super::points`].

use std::time::Duration;

// The root: shares of a timed move for its phases, and its fixed budgets.

/// Node budget of `SearchLimits::Solve`.
pub(super) const SOLVE_NODES: u64 = 3_000_000;
/// Shares of a timed move for the root's threat phases, each counted from when it starts
/// (a phase that ends early leaves its time to the next): our VCF, our VCT, the opponent's
/// win were it his move, the checks of the moves against it (only when he has one), and the
/// second checks of those that held, against longer VCTs.
pub(super) const OWN_VCF_SHARE: f64 = 0.03;
pub(super) const OWN_VCT_SHARE: f64 = 0.12;
/// A decisive attack: when our VCT was cut short and a shallow search ([`RANKING_DEPTH`], an
/// [`ATTACK_PROBE_SHARE`] of the move; its table entries serve the main search after) scores
/// the position at [`ATTACK_SCORE`] or more, our VCT goes on for an [`ATTACK_VCT_SHARE`] more.
/// Such a score is rare where no win is near, and where one is the alpha-beta search's extra depth
/// is worth less than the proof (docs/benchmarks-log/gomoku-learned-1.md, "Forced wins in time").
pub(super) const ATTACK_SCORE: i32 = 200;
pub(super) const ATTACK_PROBE_SHARE: f64 = 0.03;
pub(super) const ATTACK_VCT_SHARE: f64 = 0.60;
/// A counter-attack: when the opponent has a win were it his move and our VCT was cut short,
/// our VCT goes on for this share more before his threat's checks. In the forced-win set the games
/// lost at 500 ms were such positions (docs/benchmarks-log/gomoku-learned-2.md, "A counter-win,
/// 2026-12-07 morning").
pub(super) const COUNTER_VCT_SHARE: f64 = 0.20;
/// A forced move (one root move: the block of his four, or the one defence left): when our
/// VCT through it was cut short, it goes on for this share more, as a decisive attack's does,
/// without the shallow search that tells one: the search after a forced move is for its score
/// alone, and a proof through it is worth more (docs/benchmarks-log/gomoku-learned-2.md, "A lighter
/// board for the threat search, and the forced move's time").
pub(super) const FORCED_VCT_SHARE: f64 = 0.60;
pub(super) const THREAT_SHARE: f64 = 0.10;
pub(super) const DEFENCE_SHARE: f64 = 0.20;
pub(super) const RECHECK_SHARE: f64 = 0.20;
/// The longest one move's first check may take, as a share of the move: a check cut short
/// proves nothing, and one that ran on would leave the moves after it unchecked. Every move
/// gets the short slice first, then those it cut short the long one ([`super::root::Slices`]).
pub(super) const CHECK_SLICE_SHORT: f64 = 0.02;
pub(super) const CHECK_SLICE: f64 = 0.05;
/// The longest check that each of the ranking's leaders ([`LEADERS_SLICED`]) still cut
/// short gets from the second checks' share when others held: the move the search prefers
/// is often a counter-attack whose check runs past the long slice (after `h8 f8 j10 g7 j8 h6
/// i5 e9 d10`, g9's at 23 plies takes 54 ms alone), and cut short it is left out while
/// others hold. Given at once, in the first pass, a leader's long check starved the moves
/// after it.
pub(super) const CHECK_SLICE_LEADERS: f64 = 0.08;
/// When this many moves or fewer held the first checks, the search has little to choose
/// and knowing that they hold is worth more: their second checks may take this share.
pub(super) const FEW_HOLD: usize = 2;
pub(super) const FEW_HOLD_RECHECK_SHARE: f64 = 0.45;
/// Where the alpha-beta search must end (the rest is the final check's) unless every root
/// move has been checked already.
pub(super) const SEARCH_END: f64 = 0.92;
/// The least share of the move the alpha-beta search is given from when it starts, however
/// late the phases before it ended (a decisive attack's VCT, then the checks of his threat,
/// may take it all): a move chosen with no search at all is the ranking's guess.
pub(super) const SEARCH_LEAST: f64 = 0.1;
/// Where the search ends when every move left held its first check but not all of them were
/// checked against the longest VCTs: the rest of the move goes to that check of the search's
/// choice. A move that held a threat of nine or eleven plies often only delays a win of
/// twenty-odd, which the solver finds in 0.3 s typically (0.01–1.1 s for the 21 such moves
/// of 59 games lost to Rapfi, docs/benchmarks.md).
pub(super) const DEEP_CHECK_START: f64 = 0.65;
/// When that check ends with at least [`RESUME_LEAST`] of the move left (its verdict was
/// known, or quick), the search goes on to [`RESUME_END`], and the rest checks a new choice.
pub(super) const RESUME_LEAST: f64 = 0.2;
pub(super) const RESUME_END: f64 = 0.88;
/// Plies beyond the opponent's threat that the first check of a defence looks for a VCT (the
/// second looks as far as [`VCT_PLIES_MAX`]).
pub(super) const VCT_CHECK_SLACK: u32 = 8;
/// Depth of the search of a forced move (only its score is wanted), and its time: by half
/// the move, or at least a tenth of it from when it starts — a forced move (the block of his
/// four, or the one move that held the checks) follows our VCT, which through a block in a
/// decisive attack may run past half the move.
pub(super) const FORCED_MOVE_DEPTH: u32 = 4;
pub(super) const FORCED_MOVE_END: f64 = 0.5;
pub(super) const FORCED_MOVE_LEAST: f64 = 0.1;
/// The shallow search that orders the checks of the moves against the opponent's win: its
/// depth and its share of a timed move.
pub(super) const RANKING_DEPTH: u32 = 8;
pub(super) const RANKING_SHARE: f64 = 0.03;

// Threat searches at the root: how far, and which moves first.

/// Plies the VCF may look ahead: long chains of fours are common and cheap to follow.
pub const VCF_PLIES: u32 = 41;
/// The VCT deepens by this many plies an iteration, up to [`VCT_PLIES_MAX`]: short wins are
/// found first, and a long search does not starve the short ones.
pub(super) const VCT_PLIES_FIRST: u32 = 9;
pub(super) const VCT_PLIES_STEP: u32 = 4;
pub const VCT_PLIES_MAX: u32 = 33;
/// How many of the best-ranked root moves are checked against the opponent's win before the
/// points of his line: a counter-attack the search likes would otherwise wait behind them
/// for a budget that runs out.
pub const LEADERS_CHECKED_FIRST: usize = 3;
/// How many of the best-ranked root moves whose first checks were cut short get a longer one
/// ([`super::root::Slices::leaders`]) from the second round's budget when other moves held: the search
/// would play one of them were it proven, and unproven it is left out. The short pass over
/// every move often spends the first round's budget before a long check starts.
pub const LEADERS_SLICED: usize = 6;

// The alpha-beta search: leaf threats, pruning margins, extensions, quiescence.

/// Nodes a VCF at a leaf may spend, and the plies it may look ahead: a miss costs a little
/// accuracy, a hit turns a guess into a proof.
pub(super) const LEAF_VCF_NODES: u64 = 48;
pub(super) const LEAF_VCF_PLIES: u32 = 15;
/// From this depth up, a free node asks whether the opponent would win by fours were it his
/// move (a VCF of [`LEAF_VCF_NODES`] at most), and if so searches only the moves that may stop
/// it: a quiet move that threatens a VCF is answered as an open three is.
pub(super) const VCF_THREAT_DEPTH: i32 = 2;
/// Largest magnitude of a history entry (the gravity formula keeps it inside).
pub(super) const HISTORY_MAX: i32 = 1 << 14;
/// Margin per ply of depth for reverse futility pruning (centi-stones), and the deepest
/// node it applies to.
pub(super) const FUTILITY_MARGIN: i32 = 70;
pub(super) const FUTILITY_DEPTH: i32 = 8;
/// Margin per ply below alpha for razoring (centi-stones).
pub(super) const RAZOR_MARGIN: i32 = 60;
/// Margin per ply above beta where a cutoff is likely enough to search the moves that make
/// no four a ply shallower (centi-stones).
pub(super) const FAIL_HIGH_MARGIN: i32 = 15;
/// Singular extension: the shallowest depth it is tried at, and the margin per ply below the
/// TT move's score that the other moves must all fail under (centi-stones).
pub(super) const SINGULAR_DEPTH: i32 = 7;
pub(super) const SINGULAR_MARGIN: i32 = 2;
/// Below this depth a trivial move of a free position is not searched.
pub(super) const TRIVIAL_DEPTH: i32 = 4;
/// Fours the quiescence search may make in a line, and how many of them may be plain fours
/// (the later ones must make a two or a three on another line as well).
pub(super) const QUIESCE_FOURS: u32 = 10;
pub(super) const QUIESCE_PLAIN_FOURS: u32 = 2;
/// The quiescence table has 2^this fewer entries than the main one.
pub(super) const QUIESCE_TT_SMALLER: u32 = 2;
/// Mixed into a position's key in the quiescence table with the number of fours made so far
/// (which decides the fours it may still make, and so its value).
pub(super) const QUIESCE_SALT: u64 = 0x9E37_79B9_7F4A_7C15;
/// Beyond this distance (king moves) from both last moves, a four under threat distracts.
pub(super) const DISTRACT_DISTANCE: usize = 4;

// The threat search (VCF, VCT): quiet threats.

/// Quiet threats: tried only with this many plies left (the move, an answer, and a VCF of
/// at least three plies), at most this many a node (best-ranked first), each probed for a
/// VCF of at most this many plies and nodes; made only in the first plies of a search, and
/// answered (the VCF after a block looked for) only a few plies further. Everywhere, they
/// made a VCT several times dearer and left the long classical wins past its budget; in the
/// first plies they find most of what they find everywhere.
pub(super) const QUIET_DEPTH_LEAST: u32 = 5;
pub(super) const QUIET_PLIES: usize = 4;
pub(super) const QUIET_ANSWER_PLIES: usize = 8;
pub(super) const QUIET_MOVES: usize = 6;
pub(super) const QUIET_VCF_PLIES: u32 = 15;
pub(super) const QUIET_VCF_NODES: u64 = 48;

/// The fewest plies in which a threat that one stone answers wins: a four, its block, a
/// second four, its block and the five (or an open three, any answer, the open four, its
/// block and the five).
pub(super) const OPEN_THREE_PLIES: u32 = 5;

// The evaluation: the side to move's share.

/// The side to move's share in the prior of the learned worths ([`super::learned::prior`]):
/// its points count `MOVER_NUM / MOVER_DEN`
/// (1.69) times the opponent's.
pub(super) const MOVER_NUM: i32 = 22;
pub(super) const MOVER_DEN: i32 = 13;

// The clock of one move: the margin before the deadline, and when a move under a clock is
// given more time.

/// A fall of the search's score by this much (centi-stones) from the iteration two before
/// makes it unsure of its move ([`super::time::Swings`]), as a change of its best move does:
/// under a clock such a move is given up to its longest time
/// ([`crate::engine::longest_move_time`]).
pub(super) const SWING_DROP: i32 = 30;

/// Longest and shortest margin kept before the caller's deadline.
pub(super) const MARGIN_MAX: Duration = Duration::from_millis(15);
pub(super) const MARGIN_MIN: Duration = Duration::from_millis(2);
