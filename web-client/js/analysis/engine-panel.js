// Engine panel of the analysis board: a switch (on by default, remembered in this browser) and, while it is on, an analysis worker's evaluation, depth, best move and best line for the position on show, asked for again (after a short pause) whenever that position changes; a live region says the first line and the last of each analysis, and why one failed.
//
// The protocol (docs/protocol.md "Analysis board"):
//   C: {"t":"analyse","id":"<n>","game":<game spec>,"position":<text or null>,"moves":[...],"rate":[...]}
//      starts or replaces this connection's analysis; `position` is positionText() of
//      position.js (cells row by row from the top, X/O/-/#, a space, the side to move) for a
//      set-up position, null for the game's own start; `moves` are played from it; `rate`
//      (left out when empty) the moves to value one by one, at most RATE_MAX.
//   S: {"t":"analysis_status","id":"<n>","status":"running|done|failed","message":"…"}
//      the first answer to every accepted `analyse` (`running`, or `failed` with why: no
//      analysis worker is connected, all are busy), then `done` (10 s searched, or solved) or
//      `failed` (the worker left).
//   S: {"t":"analysis_line","id":"<n>","depth":9,"eval":35,"proven":false,"win_in":null,
//       "best":"h8","pv":["h8","i9"],"nodes":123456,"ms":800,"by":"Kibot"}
//      one a depth; `eval` from -1000 to 1000 from black's view; `proven` with ±1000 is a
//      proven win, `win_in` its length in plies, positive when black wins; a Gomoku win
//      proven for the side to move may say how, `"proof":"vcf"` or `"vct"`.
//   S: {"t":"analysis_move","id":"<n>","by":"Kibot","move":"h9","depth":9,"eval":-35,"proven":false}
//      one a move of the request's `rate` (the opening explorer's listed moves): the position
//      after it on the same scale, `win_in` and `proof` as a line's.
//   S: {"t":"error","code":"bad_game|illegal_move|bad_request","message":"…","ref":"analyse"}
//      a refused `analyse` (no id: the answers come in the order of the requests); the
//      analysis before it goes on, so the panel stops it.
//   C: {"t":"analyse_stop"}
// Messages of an id other than the last one asked for are old and are dropped.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { evalWords, evalScore } from '../room/review.js';
import { positionText, tryMove } from './position.js';

const STATUSES = ['pending', 'running', 'done', 'failed'];

/** The moves one `analyse` may ask to be rated (the server refuses more). */
export const RATE_MAX = 24;

/** How a proven Gomoku win goes, as the server names it, and as the page writes it. */
const PROOFS = { vcf: 'VCF', vct: 'VCT' };

/** After the pause, how long a request whose explorer list is still on its way waits for it
 *  before it is sent without (and sent again with it once it comes): the list is a local
 *  look-up, usually there well within the pause, and the main line must not wait long on it. */
export const RATE_WAIT_MS = 600;

/** Where this browser keeps whether the engine is on. */
export const ENGINE_KEY = 'kibitz.analysis.engine';

/** The pause after a change of the position on show before it is asked for: holding an arrow
 *  key walks the tree without asking for every position on the way. */
export const ENGINE_DELAY_MS = 200;

/** Request ids of this page, never used twice (a view mounted again goes on counting), so a
 *  late line of an analysis asked for before can never pass for one of the new. */
let lastId = 0;

/** Whether the engine is on in this browser (on unless switched off). */
export function engineOn(storage = globalThis.localStorage) {
  try {
    return storage?.getItem(ENGINE_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Remembers the engine's switch. */
export function rememberEngine(on, storage = globalThis.localStorage) {
  try {
    storage?.setItem(ENGINE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage refused: the switch holds for this page.
  }
}

/** The `analyse` request's body for the position reached by `moves` from `setup` (the page's
 *  { cells, toMove }, null for the game's own start); `rate`, the moves to value one by one
 *  (rateList's), null while the explorer's list is not known yet (`ratePending`). */
export function engineRequest(game, setup, moves, rate = []) {
  const request = { game, position: setup ? positionText(setup.cells, setup.toMove) : null, moves: [...moves] };
  if (rate == null) request.ratePending = true;
  else if (rate.length) request.rate = [...rate];
  return request;
}

/** The moves of `listed` (the explorer's, as it writes them, most played first) that a request
 *  may ask to be rated at `pos`: legal there (tryMove with the position's `info`), each once,
 *  at most RATE_MAX; a move the board would write otherwise (canonicalMove) is left out, as the
 *  server would refuse it and the table could not match its answer. */
export function rateList(game, pos, info, listed) {
  const out = [];
  for (const move of listed || []) {
    if (out.length >= RATE_MAX) break;
    if (typeof move !== 'string' || out.includes(move)) continue;
    const res = tryMove(game, pos, move, info);
    if (res.ok && res.move === move) out.push(move);
  }
  return out;
}

/** The board's mark of the engine's best move `best` at `pos`: a ghost stone of the side to
 *  move where it would go ({ idx, kind: 'best', seat }), or null (a pass, or no move there). */
export function bestMark(game, pos, best) {
  if (!best || !pos) return null;
  const res = tryMove(game, pos, best);
  if (!res.ok || res.move === 'pass' || res.pos.last < 0) return null;
  return { idx: res.pos.last, kind: 'best', seat: pos.toMove };
}

/** The panel's state before anything was asked: `off` until the page connects it. */
export const engineState = () => ({ id: null, status: 'off', message: '', line: null, rate: null, moves: {} });

const num = (v) => (v != null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** The evaluation fields a line and a rated move share: { depth, eval (within ±1000), proven,
 *  win_in, proof ('vcf', 'vct' or null) }. */
function evaluation(msg) {
  return {
    depth: num(msg.depth),
    eval: Math.max(-1000, Math.min(1000, num(msg.eval) ?? 0)),
    proven: msg.proven === true,
    win_in: num(msg.win_in),
    proof: Object.hasOwn(PROOFS, msg.proof) ? msg.proof : null,
  };
}

/**
 * The state after server message `msg` (one of another id, or of another kind, changes
 * nothing). A rated move's value goes into `moves` by the move (one the request did not rate
 * is dropped: the table has no row waiting for it).
 */
export function engineReduce(state, msg) {
  if (!msg || state.id == null || String(msg.id) !== state.id) return state;
  if (msg.t === 'analysis_status' && STATUSES.includes(msg.status)) {
    return { ...state, status: msg.status, message: msg.message ? String(msg.message).slice(0, 300) : '' };
  }
  if (msg.t === 'analysis_move') {
    if (typeof msg.move !== 'string' || !(state.rate || []).includes(msg.move)) return state;
    return { ...state, moves: { ...state.moves, [msg.move]: evaluation(msg) } };
  }
  if (msg.t !== 'analysis_line') return state;
  const line = {
    ...evaluation(msg),
    best: typeof msg.best === 'string' ? msg.best : null,
    pv: Array.isArray(msg.pv) ? msg.pv.map(String).slice(0, 40) : [],
    nodes: num(msg.nodes),
    ms: num(msg.ms),
    by: typeof msg.by === 'string' ? msg.by.slice(0, 40) : null,
  };
  return { ...state, line, status: state.status === 'done' ? 'done' : 'running', message: '' };
}

const isProvenWin = (line) => line.proven && Math.abs(line.eval) === 1000;

/** Who wins a proven line: `win_in`'s sign (positive when black wins), else the eval's. */
const winner = (line) => (line.win_in != null ? (line.win_in > 0 ? 'black' : 'white') : line.eval > 0 ? 'black' : 'white');

/** An evaluation in words: "Black wins: forced win in 9 plies" for a proven win ("Black wins:
 *  VCF in 9 plies" when the line says how), else the review's words ("+3.5: black is better",
 *  black's view). */
export function engineEvalWords(line) {
  if (isProvenWin(line)) {
    const seat = t(`seat.${winner(line)}`);
    const proof = PROOFS[line.proof] ?? null;
    if (line.win_in == null) return proof ? t('engine.proofForced', { seat, proof }) : t('engine.forced', { seat });
    const n = Math.abs(line.win_in);
    if (proof) return t(n === 1 ? 'engine.proofIn1' : 'engine.proofIn', { seat, proof, n });
    return t(n === 1 ? 'engine.winIn1' : 'engine.winIn', { seat, n });
  }
  return evalWords(line);
}

/**
 * A rated move's evaluation as the explorer's table cell shows it: { text, words, proven }, the
 * short `text` ("+0.4", "−3.5", "0.0" in points from black's view, as the panel's words begin;
 * "Black wins in 9", "Black wins in 9 (VCF)" for a proven win) and the panel's whole `words`
 * (engineEvalWords) for its title and screen readers.
 */
export function engineCellWords(entry) {
  const words = engineEvalWords(entry);
  if (!isProvenWin(entry)) return { text: evalScore(entry.eval), words, proven: false };
  const seat = t(`seat.${winner(entry)}`);
  const proof = PROOFS[entry.proof] ?? null;
  if (entry.win_in == null) return { text: t('analysis.explorer.wins', { seat }), words, proven: true };
  const n = Math.abs(entry.win_in);
  return { text: t(proof ? 'analysis.explorer.proofIn' : 'analysis.explorer.winIn', { seat, n, proof }), words, proven: true };
}

/** Analyses under way: a rated move's cell waits for its value ("…") only then. */
const IN_FLIGHT = ['asked', 'pending', 'running'];

/**
 * What the table's engine cell of `move` says for the engine panel's `state` (its rated moves'
 * values in `moves`, the moves the request rated in `rate`, null before it is known): { kind:
 * 'value', text, words, proven } once the move's value came; { kind: 'wait' } while an
 * analysis that rates it (or may yet) is under way; else { kind: 'none' } (not rated, or the
 * analysis ended without it).
 */
export function engineCell(state, move) {
  const entry = state?.moves?.[move];
  if (entry) return { kind: 'value', ...engineCellWords(entry) };
  if (state && IN_FLIGHT.includes(state.status) && (state.rate == null || state.rate.includes(move))) return { kind: 'wait' };
  return { kind: 'none' };
}

/**
 * What the panel says for `state`: { status, eval, depth, best, pv, by } as texts (null for what
 * there is none of). `status` is the sentence under the title, with the server's message.
 */
export function engineWords(state) {
  const status = [t(`engine.status.${state.status}`), state.message].filter(Boolean).join(' ');
  const l = state.line;
  if (!l) return { status, eval: null, depth: null, best: null, pv: null, by: null };
  const secs = l.ms != null ? (l.ms / 1000).toFixed(1) : null;
  return {
    status,
    eval: engineEvalWords(l),
    depth: l.depth != null ? t('engine.depth', { n: l.depth }) : null,
    best: l.best,
    pv: l.pv.length ? l.pv.join(' ') : null,
    by: [l.by ? t('engine.by', { name: l.by }) : '', l.nodes != null && secs != null ? t('engine.nodes', { n: l.nodes.toLocaleString('en'), s: secs }) : '']
      .filter(Boolean).join(' · ') || null,
  };
}

/**
 * What a screen reader hears when the state goes from `prev` to `next`, or null: the first line
 * of an analysis, its last one when it is done, why it failed or was refused; never each depth.
 */
export function engineAnnouncement(prev, next) {
  if (next.id == null) return null;
  const same = prev && prev.id === next.id;
  if (next.status === 'failed' || next.status === 'refused') {
    return same && prev.status === next.status ? null : engineWords(next).status;
  }
  const lineWords = (key) => {
    const w = engineWords(next);
    return t(key, { depth: w.depth ?? '', eval: w.eval, best: w.best ?? '–' });
  };
  if (next.status === 'done' && !(same && prev.status === 'done')) {
    return next.line ? lineWords('engine.said.final') : engineWords(next).status;
  }
  if (next.line && !(same && prev.line)) return lineWords('engine.said.first');
  return null;
}

/**
 * The panel in `container`: the switch (`onToggle(on)` when it is flipped), the evaluation (in
 * words and points, black's view), the best line with its best move first, and a line with the
 * status, the depth and who searched how much. Returns { element, render(state), setOn(on) }.
 */
export function createEnginePanel(container, { on = true, onToggle = () => {} } = {}) {
  const title = h('h2', { class: 'panel-title', id: 'engine-title' });
  const toggle = h('input', { type: 'checkbox', role: 'switch', id: 'engine-toggle', 'data-testid': 'engine-toggle', checked: on });
  const toggleLabel = h('label', { for: 'engine-toggle' });
  toggle.addEventListener('change', () => onToggle(toggle.checked));
  const body = h('dl', { class: 'engine-lines', 'data-testid': 'engine-lines' });
  const status = h('p', { class: 'note engine-status', 'data-testid': 'engine-status' });
  const element = h('section', { class: 'engine-panel', 'data-testid': 'engine-panel', 'aria-labelledby': 'engine-title' },
    h('div', { class: 'panel-head' }, title, h('span', { class: 'field engine-switch' }, toggle, toggleLabel)), body, status);
  container.append(element);
  let last = engineState();

  function render(state = last) {
    last = state;
    title.textContent = t('engine.title');
    toggleLabel.textContent = t('engine.toggle');
    const w = engineWords(state);
    element.dataset.status = state.status;
    if (state.id != null) element.dataset.id = state.id;
    else delete element.dataset.id;
    clear(status);
    status.append(h('span', {}, w.status));
    if (w.depth) status.append(' · ', h('span', { 'data-testid': 'engine-depth' }, w.depth));
    if (w.by) status.append(' · ', h('span', { 'data-testid': 'engine-by' }, w.by));
    clear(body);
    body.hidden = !state.line;
    if (!state.line) return;
    const l = state.line;
    const proven = l.proven && Math.abs(l.eval) === 1000;
    body.append(h('dt', {}, t('engine.eval')),
      h('dd', {}, h('b', { 'data-testid': 'engine-eval', 'data-proven': proven ? 'true' : null }, w.eval), proven ? null : h('span', { class: 'note' }, ` ${t('engine.scale')}`)));
    if (w.best || w.pv) {
      const rest = l.best && l.pv[0] === l.best ? l.pv.slice(1) : l.pv;
      body.append(h('dt', {}, t('engine.pv')),
        h('dd', { class: 'engine-pv', 'data-testid': 'engine-pv' }, w.best ? h('b', { 'data-testid': 'engine-best' }, w.best) : null, rest.length ? `${w.best ? ' ' : ''}${rest.join(' ')}` : null));
    }
  }

  render(engineState());
  return {
    element,
    render,
    setOn(next) {
      toggle.checked = next;
    },
  };
}

/**
 * Connects `panel` (anything with `render(state, prev)`) to `net` (anything with `send(msg)`,
 * false when it could not). Returns:
 * - `want(request)`: the position on show changed; its old lines go at once and `request`
 *   ({ game, position, moves, rate }) is asked for after `delay` ms unless another comes
 *   first; one still waiting for the explorer's list (`ratePending`) waits up to `rateWait`
 *   ms more for `amend`;
 * - `amend(request)`: the same position's request, its explorer list now known: it replaces
 *   the one waiting to be sent (sent at once when the pause is over), or, when the analysis
 *   went without the list, is sent now (a new analysis: the rated moves need the request);
 * - `analyse(request)`: asks at once (replacing the analysis before);
 * - `stop(status)`: ends the analysis (the server is told when one may be running) and shows
 *   `status` (`stopped`, `off`, `over`, `editing`);
 * - `onReady()`: the connection is (again) welcomed: what was wanted and not finished is asked
 *   for again (a new connection has no analysis);
 * - `onMessage(msg)`: every server message; says whether it was the panel's;
 * - `state`.
 * `timers` ({ set, clear }) stand in for setTimeout and clearTimeout in tests.
 */
export function connectEnginePanel(panel, net, {
  delay = ENGINE_DELAY_MS, rateWait = RATE_WAIT_MS, timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id) },
} = {}) {
  let state = { ...engineState(), status: 'idle' };
  let wanted = null; // the request of the position on show, while the engine is on
  let unanswered = []; // ids sent whose first answer (a status or an error) has not come
  let mayRun = false; // whether the server may be running an analysis of ours
  let timer = null;
  let waitingRate = false; // the pause is over and `timer` waits for the explorer's list
  let sentPending = false; // the last request went before its explorer list was known

  const show = (next) => {
    const prev = state;
    state = next;
    panel.render(state, prev);
  };
  const cancelTimer = () => {
    if (timer != null) timers.clear(timer);
    timer = null;
    waitingRate = false;
  };

  function send(request) {
    cancelTimer();
    const id = String(++lastId);
    const msg = { t: 'analyse', id, game: request.game, position: request.position ?? null, moves: [...(request.moves || [])] };
    if (request.rate?.length) msg.rate = request.rate.slice(0, RATE_MAX);
    if (net.send(msg) === false) {
      show({ ...engineState(), status: 'offline' });
      return null;
    }
    unanswered.push(id);
    mayRun = true;
    sentPending = !!request.ratePending;
    // `rate` null: the moves to rate are not known yet (their cells wait for a request that has them).
    show({ ...engineState(), id, status: 'asked', rate: request.ratePending ? null : msg.rate || [] });
    return id;
  }

  /** The pause is over: the latest wanted request goes, unless its list is still on its way. */
  function pauseOver() {
    timer = null;
    if (!wanted) return;
    if (!wanted.ratePending) {
      send(wanted);
      return;
    }
    waitingRate = true;
    timer = timers.set(() => {
      timer = null;
      waitingRate = false;
      if (wanted) send(wanted);
    }, rateWait);
  }

  function stopServer() {
    if (!mayRun) return;
    net.send({ t: 'analyse_stop' });
    mayRun = false;
  }

  return {
    want(request) {
      wanted = request;
      cancelTimer();
      show({ ...engineState(), status: 'asked' });
      timer = timers.set(pauseOver, delay);
    },
    amend(request) {
      if (!wanted) return;
      wanted = request;
      if (request.ratePending) return;
      if (timer != null) {
        if (waitingRate) send(request);
        return;
      }
      if (sentPending && request.rate?.length && state.id != null && state.status !== 'refused') send(request);
    },
    analyse(request) {
      wanted = request;
      return send(request);
    },
    stop(status = 'stopped') {
      cancelTimer();
      wanted = null;
      stopServer();
      show({ ...engineState(), status });
    },
    onReady() {
      unanswered = [];
      mayRun = false;
      if (wanted && state.status !== 'done' && timer == null) send(wanted);
    },
    onMessage(msg) {
      if (msg?.t === 'error') {
        if (msg.ref !== 'analyse') return false;
        const id = msg.id != null ? String(msg.id) : unanswered.shift();
        if (id == null || id !== state.id) return true;
        // Refused: the analysis before this one was not replaced and goes on.
        stopServer();
        show({ ...state, status: 'refused', message: msg.message ? String(msg.message).slice(0, 300) : '' });
        return true;
      }
      if (msg?.t !== 'analysis_line' && msg?.t !== 'analysis_status' && msg?.t !== 'analysis_move') return false;
      if (msg.t === 'analysis_status') {
        const k = unanswered.indexOf(String(msg.id));
        if (k >= 0) unanswered = unanswered.slice(k + 1);
        if (String(msg.id) === state.id && (msg.status === 'done' || msg.status === 'failed')) mayRun = false;
      }
      const next = engineReduce(state, msg);
      if (next !== state) show(next);
      return true;
    },
    get state() {
      return state;
    },
  };
}
