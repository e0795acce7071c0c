// One attempt at a puzzle without the DOM: the line played so far (the player's accepted moves and the server's replies), the move being checked, the reply waiting for its beat, refused moves, hints, whether the attempt counts as solved or failed and when its result is due, the result's body, and stepping through the solution; node tests it.

import { toServerMove, toBoardMove } from './puzzle.js';

/**
 * A fresh attempt at `puzzle` (puzzle.js's readPuzzle). Phases: 'play' (the player's move),
 * 'checking' (a move sent to the server), 'reply' (a correct move; the defender's reply waits
 * for its beat), 'solved' (the last move won). `outcome` is null until the attempt is decided:
 * 'solved' (won without a refused move, a hint or the solution) or 'failed' (any of those, from
 * the first on: what follows may still finish the win, but is not rated as solved).
 */
export function createAttempt(puzzle) {
  return {
    puzzle,
    line: [],
    phase: 'play',
    pending: null,
    reply: null,
    failed: false,
    hinted: false,
    gaveUp: false,
    hint: null, // { at (the line's length), level, area, move }
    wrong: null, // { move, message }: the last refused move
    error: null, // a request that failed (the server's sentence)
    mistakes: 0,
    outcome: null,
    posted: false,
    solution: null, // the main line, once asked for
    step: 0, // the solution's moves on show
  };
}

/** Whether the player may move now (a wrong move leaves the attempt playable; the solution on
 *  show or a won line does not). */
export const canMove = (a) => a.phase === 'play' && !a.solution;

/** The player's side of the line: the moves at even places are the player's. */
export const playerPly = (a) => a.line.length % 2 === 0;

function decide(a) {
  if (a.outcome) return;
  if (a.failed) a.outcome = 'failed';
  else if (a.phase === 'solved') a.outcome = 'solved';
}

/** The player's `move` (board notation) is sent: the line to post ({ line } in the server's
 *  notation, ending with the move), or null when no move may be played now. */
export function sendMove(a, move) {
  if (!canMove(a)) return null;
  a.phase = 'checking';
  a.pending = move;
  a.wrong = null;
  a.error = null;
  return serverLine(a, [...a.line, move]);
}

/**
 * The server's answer to the move sent (apiRequest's { ok, data, error }). Returns what came of
 * it: 'solved', 'correct' (a reply waits: `showReply` after the beat), 'wrong' (refused: the
 * move is taken back, the attempt counts as failed) or 'error' (not checked: the move is taken
 * back and counts for nothing).
 */
export function answerMove(a, res) {
  if (a.phase !== 'checking') return null;
  const move = a.pending;
  a.pending = null;
  if (!res?.ok || typeof res.data?.correct !== 'boolean') {
    a.phase = 'play';
    a.error = res?.error || 'error';
    return 'error';
  }
  const d = res.data;
  if (!d.correct) {
    a.phase = 'play';
    a.failed = true;
    a.mistakes += 1;
    a.wrong = { move, message: typeof d.message === 'string' && d.message ? d.message : null };
    decide(a);
    return 'wrong';
  }
  a.line.push(move);
  a.hint = null;
  if (d.solved) {
    a.phase = 'solved';
    decide(a);
    return 'solved';
  }
  if (d.reply == null) {
    // No reply and not over: the player moves again (the defender passed without a word).
    a.phase = 'play';
    return 'correct';
  }
  a.reply = toBoardMove(a.puzzle.game, d.reply);
  a.phase = 'reply';
  return 'correct';
}

/** The reply's beat is over: it joins the line, and it is the player's move again. */
export function showReply(a) {
  if (a.phase !== 'reply') return false;
  a.line.push(a.reply);
  a.reply = null;
  a.phase = 'play';
  return true;
}

/** The next hint's level from where the attempt stands: 1 (the area), 2 (the move), or 0 when
 *  none is left (the move already shown, or no move to hint). */
export function nextHintLevel(a) {
  if (!canMove(a)) return 0;
  if (!a.hint || a.hint.at !== a.line.length) return 1;
  return a.hint.level < 2 ? 2 : 0;
}

/** A hint came (apiRequest's answer to level `level`): the attempt counts as failed (hinted).
 *  Returns whether it gave something to show. */
export function hintTaken(a, level, res) {
  if (!res?.ok) {
    a.error = res?.error || 'error';
    return false;
  }
  const game = a.puzzle.game;
  const at = a.line.length;
  const prev = a.hint && a.hint.at === at ? a.hint : { at, level: 0, area: [], move: null };
  if (level === 1) {
    const area = Array.isArray(res.data?.area) ? res.data.area.map((m) => toBoardMove(game, m)) : [];
    a.hint = { ...prev, level: 1, area };
  } else {
    const move = res.data?.move != null ? toBoardMove(game, res.data.move) : null;
    a.hint = { ...prev, level: 2, move };
  }
  a.hinted = true;
  a.failed = true;
  a.error = null;
  decide(a);
  return true;
}

/** The solution came (apiRequest's answer): shown from the puzzle's position, step by step.
 *  Asked for before the attempt was decided, it counts as failed. */
export function solutionShown(a, res) {
  if (!res?.ok || !Array.isArray(res.data?.line)) {
    a.error = res?.error || 'error';
    return false;
  }
  a.solution = res.data.line.map((m) => toBoardMove(a.puzzle.game, m));
  a.step = 0;
  a.hint = null;
  a.wrong = null;
  a.error = null;
  if (!a.outcome) {
    a.gaveUp = true;
    a.failed = true;
    decide(a);
  }
  return true;
}

/** Steps the solution to move `k` (clamped); returns whether it moved. */
export function stepSolution(a, k) {
  if (!a.solution) return false;
  const n = Math.max(0, Math.min(a.solution.length, k));
  if (n === a.step) return false;
  a.step = n;
  return true;
}

/** The moves on the board after the puzzle's own: the solution's steps on show, else the line
 *  with the move being checked (the reply joins it only after its beat). */
export function shownLine(a) {
  if (a.solution) return a.solution.slice(0, a.step);
  const out = [...a.line];
  if (a.phase === 'checking' && a.pending != null) out.push(a.pending);
  return out;
}

/** Whether the result is due: decided and not posted yet. */
export const resultDue = (a) => a.outcome != null && !a.posted;

/** `moves` in the server's notation, as the move route and the result want them. */
export function serverLine(a, moves = a.line) {
  return moves.map((m) => toServerMove(a.puzzle.game, m, a.puzzle.letters));
}

/**
 * The body of the attempt's result: { line (the accepted moves and replies, refused ones left
 * out), solved, hinted, guest? }; `guest` ({ rating, rd, volatility }) goes only without an
 * account's token. Marks the result posted.
 */
export function resultBody(a, guest = null) {
  a.posted = true;
  const body = { line: serverLine(a), solved: a.outcome === 'solved', hinted: a.hinted };
  if (guest) body.guest = { rating: guest.rating, rd: guest.rd, volatility: guest.volatility };
  return body;
}
