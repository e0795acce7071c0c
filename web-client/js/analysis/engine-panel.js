// Engine panel of the analysis board: an analysis worker's evaluation, depth, best move and best line for the position on show, from the server's messages.
//
// What it expects from the server (the WebSocket protocol; the page sends nothing until
// `connectEnginePanel` is called):
//   C: {"t":"analyse","id":"<n>","game":<game spec, as a room's state.game>,"position":<text or null>,"moves":[...]}
//      starts or replaces this connection's analysis; `position` is positionText() of
//      position.js (cells row by row from the top, X/O/-/#, a space, the side to move) for a
//      set-up position, null for the game's own start; `moves` are played from it.
//   S: {"t":"analysis_line","id":"<n>","depth":9,"eval":35,"proven":false,"win_in":null,
//       "best":"h8","pv":["h8","i9"],"nodes":123456,"ms":800,"by":"Kibot"}
//      `eval` from -1000 to 1000 from black's view; `proven` with ±1000 is a proven win,
//      `win_in` its length in plies, positive when black wins.
//   S: {"t":"analysis_status","id":"<n>","status":"pending|running|done|failed","message":"…"}
//      `message` says why it waits or failed (no analysis worker is connected, say).
//   C: {"t":"analyse_stop"}
// Messages of an id other than the last one asked for are old and are dropped.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { evalWords } from '../room/review.js';

const STATUSES = ['pending', 'running', 'done', 'failed'];

/** The panel's state before anything was asked: `off` until the page connects it. */
export const engineState = () => ({ id: null, status: 'off', message: '', line: null });

const num = (v) => (v != null && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null);

/** The state after server message `msg` (one of another id, or of another kind, changes nothing). */
export function engineReduce(state, msg) {
  if (!msg || state.id == null || String(msg.id) !== state.id) return state;
  if (msg.t === 'analysis_status' && STATUSES.includes(msg.status)) {
    return { ...state, status: msg.status, message: msg.message ? String(msg.message).slice(0, 300) : '' };
  }
  if (msg.t !== 'analysis_line') return state;
  const evalNum = Math.max(-1000, Math.min(1000, num(msg.eval) ?? 0));
  const line = {
    depth: num(msg.depth),
    eval: evalNum,
    proven: msg.proven === true,
    win_in: num(msg.win_in),
    best: typeof msg.best === 'string' ? msg.best : null,
    pv: Array.isArray(msg.pv) ? msg.pv.map(String).slice(0, 40) : [],
    nodes: num(msg.nodes),
    ms: num(msg.ms),
    by: typeof msg.by === 'string' ? msg.by.slice(0, 40) : null,
  };
  return { ...state, line, status: state.status === 'done' ? 'done' : 'running', message: '' };
}

/** An evaluation in words: "Black wins: forced win in 9 plies" for a proven win, else the
 *  review's words ("+3.5: black is better"). */
export function engineEvalWords(line) {
  if (line.proven && Math.abs(line.eval) === 1000) {
    const side = line.win_in != null ? (line.win_in > 0 ? 'black' : 'white') : line.eval > 0 ? 'black' : 'white';
    const seat = t(`seat.${side}`);
    return line.win_in != null ? t('engine.winIn', { seat, n: Math.abs(line.win_in) }) : t('engine.forced', { seat });
  }
  return evalWords(line);
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

/** The panel in `container`: { element, render(state) }. */
export function createEnginePanel(container) {
  const status = h('p', { class: 'note engine-status', 'data-testid': 'engine-status', 'aria-live': 'polite' });
  const body = h('dl', { class: 'engine-lines', 'data-testid': 'engine-lines' });
  const title = h('h2', { class: 'panel-title', 'data-i18n': 'engine.title' }, t('engine.title'));
  const element = h('section', { class: 'engine-panel', 'data-testid': 'engine-panel', 'aria-labelledby': 'engine-title' }, title, status, body);
  title.id = 'engine-title';
  container.append(element);

  function row(key, text, testid) {
    if (text == null) return [];
    return [h('dt', {}, t(key)), h('dd', { 'data-testid': testid }, text)];
  }

  function render(state) {
    const w = engineWords(state);
    element.dataset.status = state.status;
    status.textContent = w.status;
    clear(body);
    body.hidden = !state.line;
    body.append(...row('engine.eval', w.eval, 'engine-eval'), ...row('engine.depthLabel', w.depth, 'engine-depth'),
      ...row('engine.best', w.best, 'engine-best'), ...row('engine.pv', w.pv, 'engine-pv'), ...row('engine.byLabel', w.by, 'engine-by'));
  }

  render(engineState());
  return { element, render };
}

/**
 * Connects `panel` (createEnginePanel's, or anything with `render(state)`) to `net` (anything
 * with `send(msg)`). Returns { analyse({ game, position, moves }), stop(), onMessage(msg), state }:
 * `analyse` asks for the position (replacing the analysis before), `stop` ends it, and the page
 * hands every server message to `onMessage`, which says whether it was the panel's.
 */
export function connectEnginePanel(panel, net) {
  let state = { ...engineState(), status: 'idle' };
  let asked = 0;
  const show = () => panel.render(state);
  show();
  return {
    analyse({ game, position = null, moves = [] }) {
      const id = String(++asked);
      state = { ...engineState(), id, status: 'asked' };
      if (net.send({ t: 'analyse', id, game, position, moves: [...moves] }) === false) state = { ...state, status: 'offline' };
      show();
      return id;
    },
    stop() {
      if (state.id == null) return;
      net.send({ t: 'analyse_stop' });
      state = { ...state, id: null, status: state.status === 'done' ? 'done' : 'stopped' };
      show();
    },
    onMessage(msg) {
      if (msg?.t !== 'analysis_line' && msg?.t !== 'analysis_status') return false;
      state = engineReduce(state, msg);
      show();
      return true;
    },
    get state() {
      return state;
    },
  };
}
