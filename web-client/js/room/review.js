// Engine review of a finished game: asks the server for it, draws the evaluation graph over the moves with mistakes and missed wins marked, names the engine's best line at the shown position (drawn on the board as numbered ghost stones), and keeps the variation the viewer plays out from any position.

import { h, s, clear } from '../dom.js';
import { t } from '../i18n.js';
import { applyMove, parseCell, lineThrough, othelloLegal, stoneOf, dims } from '../rules.js';
import { forbiddenPoints } from '../renju.js';

const GRAPH_W = 320;
const GRAPH_H = 96;
const PAD = 6;
/** Ghost stones drawn of the best line: beyond a few the board is hard to read. */
const GHOSTS = 6;

/**
 * An evaluation as a player reads it: a proven win with its length when known ("black wins in
 * 7", else "black has a forced win"), or the engine's score in tenths as "+2.3: black is
 * better", "−1.5: white is better", "0.0: level" (within half a point).
 */
export function evalWords(entry) {
  const side = entry.eval > 0 ? 'black' : 'white';
  if (entry.proven && Math.abs(entry.eval) === 1000) {
    return entry.win_in != null ? t(`review.${side}Wins`, { n: Math.abs(entry.win_in) }) : t(`review.${side}Forced`);
  }
  const text = evalScore(entry.eval);
  if (Math.abs(entry.eval) <= 5) return t('review.level', { score: text });
  return t(`review.${side}Better`, { score: text });
}

/** The engine's score (-1000..1000, black's view) in points as evalWords begins: "+2.3",
 *  "−1.5", "0.0" (the analysis board's explorer shows it alone). */
export function evalScore(value) {
  const score = value / 10;
  return `${score > 0 ? '+' : score < 0 ? '−' : ''}${Math.abs(score).toFixed(1)}`;
}

/** The review's entry for position `k` of the room (the position before that move), or null. */
export function reviewAt(R, k) {
  const rv = R.review;
  if (!rv || !Array.isArray(rv.plies)) return null;
  const i = k - R.opening.length - (rv.from || 0);
  return i >= 0 && i < rv.plies.length ? rv.plies[i] : null;
}

/** The engine's best line from position `k`, as stones to draw (cell index, colour, number), and
 *  after a marked move the move that was better instead (a ring). */
export function bestLineMarks(R, k) {
  const entry = reviewAt(R, k);
  if (!R.positions[k]) return [];
  const game = { ...R.game, opening_rule: undefined };
  let pos = R.positions[k];
  const marks = [];
  (entry?.pv || []).slice(0, GHOSTS).forEach((mv, n) => {
    const seat = pos.toMove;
    pos = applyMove(game, pos, mv);
    if (pos.last >= 0) marks.push({ idx: pos.last, kind: 'best', seat, label: String(n + 1) });
  });
  // After a marked move: the move that was better instead of it, drawn where it would have gone.
  const before = k > 0 ? reviewAt(R, k - 1) : null;
  if (before?.mark && before.pv?.length && R.positions[k - 1]) {
    const prev = R.positions[k - 1];
    const idx = applyMove(game, prev, before.pv[0]).last;
    if (idx >= 0 && !R.positions[k].cells[idx]) marks.push({ idx, kind: 'better', seat: prev.toMove });
  }
  return marks;
}

/** Plays `move` in the viewer's variation from the shown position; false when it is not legal
 *  there. A variation is the page's own: nothing goes to the server. */
export function playVariation(R, move) {
  const game = { ...R.game, opening_rule: undefined };
  if (!R.variation) R.variation = { base: R.shownIndex, moves: [], positions: [R.positions[R.shownIndex]], over: false };
  const v = R.variation;
  const pos = v.positions[v.positions.length - 1];
  if (v.over) return false;
  const { cols } = dims(game);
  if (game.kind === 'gomoku' && game.rule === 'renju' && pos.toMove === 'black') {
    const idx = parseCell(game, move);
    if (forbiddenPoints(pos.cells, cols).some((f) => f.idx === idx)) return false;
  }
  let next = applyMove(game, pos, move);
  if (next.last < 0) return false;
  if (game.kind === 'othello') {
    const stuck = (p) => othelloLegal(p.cells, stoneOf(p.toMove)).length === 0;
    if (stuck(next)) {
      const passed = applyMove(game, next, 'pass');
      if (stuck(passed)) v.over = true;
      else next = passed;
    }
  } else {
    const run = game.kind === 'connect4' ? 4 : 5;
    if (lineThrough(game, next.cells, next.last, run) || !next.cells.includes(0)) v.over = true;
  }
  v.moves.push(move);
  v.positions.push(next);
  return true;
}

/** The review panel in `panel`; `send` goes to the server, `goTo` shows a position. */
export function createReviewPanel({ state: R, panel, send, goTo, backToGame }) {
  function ask() {
    R.reviewMode = true;
    if (R.reviewStatus !== 'done') send({ t: 'review', room: R.id });
    render();
  }

  function graph() {
    const plies = R.review.plies;
    const base = R.opening.length + (R.review.from || 0);
    const n = plies.length;
    const x = (i) => PAD + (n <= 1 ? 0 : (i * (GRAPH_W - 2 * PAD)) / (n - 1));
    const y = (e) => GRAPH_H / 2 - (e / 1000) * (GRAPH_H / 2 - PAD);
    const pts = plies.map((p, i) => `${x(i).toFixed(1)},${y(p.eval).toFixed(1)}`);
    const svg = s('svg', { class: 'eval-graph', viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, 'data-testid': 'eval-graph', role: 'group', 'aria-label': t('review.graph') },
      s('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H / 2, class: 'eval-black' }),
      s('rect', { x: 0, y: GRAPH_H / 2, width: GRAPH_W, height: GRAPH_H / 2, class: 'eval-white' }),
      s('line', { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, class: 'eval-zero' }),
      s('polyline', { points: pts.join(' '), class: 'eval-line' }));
    const shown = R.shownIndex - base;
    if (shown >= 0 && shown < n) svg.append(s('line', { x1: x(shown), y1: 0, x2: x(shown), y2: GRAPH_H, class: 'eval-now', 'data-testid': 'eval-now' }));
    plies.forEach((p, i) => {
      const k = base + i;
      const label = t('review.point', { n: k + 1, move: p.move, eval: (p.eval / 10).toFixed(0) })
        + (p.mark ? ` — ${t(`review.${p.mark}`)}` : '');
      const dot = s('circle', {
        cx: x(i), cy: y(p.eval), r: p.mark ? 4.5 : 3,
        class: `eval-pt${p.mark ? ` ${p.mark}` : ''}${i === shown ? ' current' : ''}`,
        tabindex: 0, role: 'button', 'aria-label': label,
        'data-testid': p.mark ? `eval-${p.mark}-${k}` : `eval-pt-${k}`,
      }, s('title', {}, label));
      dot.addEventListener('click', () => goTo(k));
      dot.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          goTo(k);
        }
      });
      svg.append(dot);
    });
    return svg;
  }

  function bestLine() {
    const entry = reviewAt(R, R.shownIndex);
    if (!entry) return h('p', { class: 'review-best', 'data-testid': 'review-best' }, t('review.noLine'));
    const mark = entry.mark ? h('span', { class: `review-mark ${entry.mark}`, 'data-testid': 'review-mark' }, t(`review.${entry.mark}`)) : null;
    // The move that led here, if the review marks it: what would have been better instead.
    const before = R.shownIndex > 0 ? reviewAt(R, R.shownIndex - 1) : null;
    const better = before?.mark && before.pv?.length ? h('p', { 'data-testid': 'review-better' },
      t('review.better', { move: before.move, mark: t(`review.${before.mark}`), best: before.pv[0] })) : null;
    return h('div', { class: 'review-best', 'data-testid': 'review-best' },
      better,
      h('p', {}, t('review.eval'), ' ', h('b', { 'data-testid': 'review-eval' }, evalWords(entry)),
        ' ', h('span', { class: 'note' }, t('review.scale'))),
      h('p', {}, t('review.bestLine'), ' ', h('span', { class: 'pv', 'data-testid': 'review-pv' }, (entry.pv || []).join(' '))),
      h('p', {}, t('review.played'), ' ', h('b', {}, entry.move), ' ', mark));
  }

  function render() {
    clear(panel);
    panel.hidden = R.status !== 'over';
    if (panel.hidden) return;
    panel.append(h('h2', { class: 'panel-title', 'data-i18n': 'review.title' }, t('review.title')));
    if (R.reviewStatus === 'done' && R.review) {
      panel.append(graph(), bestLine());
      if (R.variation) {
        panel.append(h('p', { class: 'variation', 'data-testid': 'variation' },
          t('review.variation'), ' ', h('span', { 'data-testid': 'variation-moves' }, R.variation.moves.join(' ')), ' ',
          h('button', { type: 'button', 'data-testid': 'btn-variation-back', onclick: backToGame }, t('review.back'))));
      } else if (R.reviewMode) {
        panel.append(h('p', { class: 'hint' }, t('review.hint')));
      }
      return;
    }
    const pending = R.reviewStatus === 'pending';
    panel.append(h('button', { type: 'button', 'data-testid': 'btn-review-ask', disabled: pending ? true : null, onclick: ask }, t('review.ask')));
    const words = pending ? t('review.pending') : R.reviewStatus === 'failed' ? t('review.failed') : '';
    if (words || R.reviewMessage) {
      panel.append(h('p', { class: 'review-status', 'data-testid': 'review-status', 'aria-live': 'polite' }, words, R.reviewMessage ? ` ${R.reviewMessage}` : ''));
    }
  }

  return {
    render,
    ask,
    /** A `review` message for this room. */
    onReview(msg) {
      R.reviewStatus = msg.status;
      R.reviewMessage = msg.message || '';
      if (msg.status === 'done' && msg.review) {
        R.review = msg.review;
        R.reviewMode = true;
      }
      render();
    },
  };
}
