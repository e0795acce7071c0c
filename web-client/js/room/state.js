// Room state: what one room is (game, moves, seats, clock reading, offers, seq, whether it is rated and how the ratings moved), updated from the server's messages; no DOM, so node can test it.

import { replay, applyMove, other } from '../rules.js';
import { openingStep, openingRuns, firstPlayerSteps } from '../opening.js';
import { ratingOutcome } from '../rating.js';

/** A seat's `away` (from a `state` or a `crowd`) as deadlines on this page's clock (ms): when
 *  the player must be back, and when the one who stayed may claim. */
export function awayDeadlines(away, now = performance.now()) {
  if (!away || typeof away.back_ms !== 'number') return null;
  const claim = typeof away.claim_ms === 'number' ? away.claim_ms : away.back_ms;
  return { backAt: now + away.back_ms, claimAt: now + claim };
}

/** How long our own undo or draw request shows as waiting: the server sets no deadline, and
 *  an opponent who ignores it should not leave the note up for ever. */
export const ASK_TIMEOUT_MS = 30000;

const noOffers = () => ({ undo: null, draw: null });

export class RoomState {
  /** `joinAs`: 'player' (take a free seat, else watch) or 'spectator'. */
  constructor(id, joinAs = 'player') {
    this.id = id;
    this.game = null;
    // The room's time control, known once a `state` has come (`hasState`).
    this.control = null;
    this.hasState = false;
    this.opening = [];
    this.moves = [];
    this.positions = [];
    this.toMove = 'black';
    this.status = 'loading';
    this.result = null;
    // A rated room (`state.rated`), and once its game is rated the outcome (rating.js's
    // `ratingOutcome`: each side's change, or why it was not rated after all).
    this.rated = false;
    this.rating = null;
    // The tournament whose game this is (`state.tournament`), kept once heard.
    this.tournament = null;
    this.seats = { black: null, white: null };
    this.clock = null;
    this.spectators = 0;
    this.online = {};
    // Seated players away from a game in progress: { backAt, claimAt } on this page's clock.
    this.away = { black: null, white: null };
    this.you = null;
    this.seq = null;
    this.view = null; // null: follow the game; else the position index on show
    this.joinAs = joinAs;
    this.resyncing = false;
    this.pending = null; // { id, msg, plies } a move sent and not yet answered
    this.offers = noOffers();
    this.asked = { undo: 0, draw: 0, rematch: 0 };
    this.rematchOffered = false;
    // An opening rule's view (`state.opening_state`), and the 5th moves we are picking to offer.
    this.openingState = null;
    this.picked = [];
    this.offering = false;
  }

  /** The opening rule's step now, seen from our seat; null when no opening runs. */
  get openingNow() {
    return this.playing ? openingStep(this.openingState, this.you) : null;
  }

  get liveIndex() {
    return this.positions.length - 1;
  }

  get shownIndex() {
    return this.view == null ? this.liveIndex : this.view;
  }

  get seated() {
    return this.you === 'black' || this.you === 'white';
  }

  get playing() {
    return this.status === 'playing';
  }

  /** The server takes back the asker's own last move, so there must be one (a pass is not). */
  get hasOwnMove() {
    // An opening rule's decisions cannot be taken back.
    return !openingRuns(this.openingState) && this.hasMoved(this.you);
  }

  /** Whether `seat` has made a move of its own in this game (a pass is the server's). Its
   *  clock runs only from then on. */
  hasMoved(seat) {
    return this.moves.some((m, k) => m !== 'pass' && this.positions[this.opening.length + k]?.toMove === seat);
  }

  /** Until both sides have made their first move the game can be aborted, without a result. */
  get abortable() {
    // With an opening rule: until the second player has made a decision.
    if (this.openingState) return this.playing && this.moves.length <= firstPlayerSteps(this.openingState.rule);
    return this.playing && !(this.hasMoved('black') && this.hasMoved('white'));
  }

  /** Whether our own `kind` request is still waiting for an answer at `now`. */
  asking(kind, now) {
    return !!this.asked[kind] && now - this.asked[kind] < ASK_TIMEOUT_MS && this.playing;
  }

  /** Checks a numbered event against `seq`: 'apply' (and counts it), 'old' (seen already) or
   *  'gap' (something was missed: the room must be asked for again). */
  takeSeq(msg) {
    if (typeof msg.seq !== 'number' || this.seq == null) return 'apply';
    if (msg.seq <= this.seq) return 'old';
    if (msg.seq > this.seq + 1) return 'gap';
    this.seq = msg.seq;
    return 'apply';
  }

  /** Shows position `index` (clamped; past the end follows the game). Returns how many steps
   *  forward that was, or null with no positions yet. */
  showPosition(index) {
    if (!this.positions.length) return null;
    const before = this.shownIndex;
    const k = Math.max(0, Math.min(this.liveIndex, index));
    this.view = k >= this.liveIndex ? null : k;
    return k - before;
  }

  /** A move we sent: the board waits for its answer. */
  sent(id, msg) {
    this.pending = { id, msg, plies: this.moves.length };
  }

  /** A `state`: the whole room afresh. A pending move still unanswered stays pending (the
   *  caller sends it again when it is our turn). */
  applyState(msg) {
    this.game = msg.game;
    this.control = msg.control ?? null;
    this.hasState = true;
    this.opening = Array.isArray(msg.opening) ? msg.opening : [];
    this.moves = Array.isArray(msg.moves) ? msg.moves : [];
    this.positions = replay(this.game, [...this.opening, ...this.moves]);
    this.toMove = msg.to_move || this.positions[this.liveIndex].toMove;
    this.status = msg.status;
    this.result = msg.result || null;
    this.rated = msg.rated === true;
    if (typeof msg.tournament === 'string' && msg.tournament) this.tournament = msg.tournament;
    // A `rated` message may have come before this state: keep it unless the state says more.
    this.rating = ratingOutcome(msg.rating) ?? (this.status === 'over' ? this.rating : null);
    this.seats = msg.seats || { black: null, white: null };
    this.online = {};
    this.away = { black: awayDeadlines(this.seats.black?.away), white: awayDeadlines(this.seats.white?.away) };
    this.clock = msg.clock || null;
    this.spectators = msg.spectators ?? 0;
    this.you = msg.you === 'black' || msg.you === 'white' ? msg.you : null;
    this.seq = typeof msg.seq === 'number' ? msg.seq : null;
    this.resyncing = false;
    const phase = this.openingState && this.openingState.phase;
    this.openingState = msg.opening_state || null;
    // A new step of the opening starts the picking afresh.
    if (!this.openingState || this.openingState.phase !== phase) {
      this.picked = [];
      this.offering = false;
    }
    if (this.you) this.joinAs = 'player';
    else if (this.seats.black && this.seats.white) this.joinAs = 'spectator';
    if (this.view != null && this.view >= this.liveIndex) this.view = null;
    this.offers = noOffers();
    if (this.status !== 'over') this.rematchOffered = false;
    if (this.pending && (this.moves.length > this.pending.plies || this.status !== 'playing')) this.pending = null;
  }

  /** A `moved`; false (and nothing changed) when its `ply` shows a missed event. */
  applyMoved(msg) {
    // `ply` counts the moves after the opening, this one included.
    if (typeof msg.ply === 'number' && msg.ply !== this.moves.length + 1) return false;
    const last = this.positions[this.liveIndex];
    this.moves.push(msg.move);
    this.positions.push(applyMove(this.game, last, msg.move));
    this.toMove = msg.to_move || other(last.toMove);
    if ('clock' in msg) this.clock = msg.clock;
    if (this.pending && (msg.id === this.pending.id || msg.by === this.you)) this.pending = null;
    this.offers = noOffers();
    this.asked.undo = 0;
    this.asked.draw = 0;
    if (this.status === 'waiting') this.status = 'playing';
    return true;
  }

  applyOver(msg) {
    this.status = 'over';
    this.result = { result: msg.result, reason: msg.reason, line: msg.line, score: msg.score };
    this.pending = null;
    this.offers = noOffers();
    this.asked = { undo: 0, draw: 0, rematch: 0 };
  }

  /** A `rated`: how the game changed the players' ratings (or that it was not rated after
   *  all). Returns whether it said anything. */
  applyRated(msg) {
    const outcome = ratingOutcome(msg);
    if (!outcome) return false;
    this.rating = outcome;
    return true;
  }

  /** Whether the game's rating outcome is still to come: a rated game that ended with a
   *  result (an aborted game is never rated). */
  get ratingPending() {
    const res = this.result?.result;
    return this.rated && this.status === 'over' && !this.rating && (res === 'black' || res === 'white' || res === 'draw');
  }

  /** An `undone`; false (and nothing changed) when its `ply` does not fit. `shownClock` is the
   *  clock as displayed now: `undone` carries none, and the time spent so far stays spent. */
  applyUndone(msg, shownClock) {
    // `ply` counts the moves after the opening, like `moves` in `state`.
    if (typeof msg.ply !== 'number' || msg.ply > this.moves.length) return false;
    const n = Math.max(0, msg.ply);
    this.moves.length = n;
    this.positions.length = this.opening.length + n + 1;
    this.toMove = this.positions[this.liveIndex].toMove;
    // The side to move's clock runs again, unless the take-back went to before its first move.
    if (shownClock && shownClock.running) this.clock = { ...shownClock, running: this.hasMoved(this.toMove) ? this.toMove : null };
    if (this.view != null && this.view >= this.liveIndex) this.view = null;
    this.offers.undo = null;
    this.asked.undo = 0;
    return true;
  }

  /** An `undo_offer` or `draw_offer`: only the opponent's needs an answer from us. */
  offered(kind, by) {
    if (by && by !== this.you) this.offers[kind] = by;
  }

  /** The room's chat line "X offers a rematch": our own request comes back as the same line,
   *  so only the opponent's is an offer to answer. Returns whether it was taken as one. */
  rematchAnnounced() {
    if (this.status !== 'over' || this.asked.rematch) return false;
    this.rematchOffered = true;
    return true;
  }

  applyCrowd(msg) {
    if (typeof msg.spectators === 'number') this.spectators = msg.spectators;
    if (msg.online && typeof msg.online === 'object') {
      this.online = { ...msg.online };
      // A crowd names every away player: one it leaves out is back.
      this.away = { black: awayDeadlines(msg.away?.black), white: awayDeadlines(msg.away?.white) };
    }
  }

  /** A `chat` line. Returns { show, gap }: show false for a line seen already, gap true when
   *  its seq shows a missed event. Three kinds of line: players' (numbered), spectators' (they
   *  carry the current seq without taking a number, since players never see them) and the
   *  room's own (`from` empty, numbered). */
  chatLine(msg) {
    const numbered = typeof msg.seq === 'number' && this.seq != null;
    if (!msg.seat && msg.from) return { show: true, gap: numbered && msg.seq > this.seq };
    if (numbered && msg.seq <= this.seq) return { show: false, gap: false };
    return { show: true, gap: this.takeSeq(msg) === 'gap' };
  }

  /** An `error` answering one of our requests: what it was is no longer waiting. Returns
   *  which of our waits ended: { move, ask }. */
  refused(msg) {
    const move = msg.ref === 'move' || (!!this.pending && msg.id === this.pending.id);
    if (move) this.pending = null;
    if (msg.ref === 'join') this.resyncing = false;
    const ask = msg.ref === 'undo' || msg.ref === 'draw' || msg.ref === 'rematch';
    if (ask) this.asked[msg.ref] = 0;
    return { move, ask };
  }
}
