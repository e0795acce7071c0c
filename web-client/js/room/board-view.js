// The room's board as it stands: the position on show (live, replayed, or a review's variation), what a click may do there (renju's forbidden points with the note that explains them, Othello's legal moves, an opening's offered 5th moves, the engine's line in review), the winning line, the board turned when the player asks, and on a phone the two-tap hint until it is understood.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { parseCell, cellName, othelloLegal, stoneOf, lineThrough, dims } from '../rules.js';
import { forbiddenPoints } from '../renju.js';
import { bestLineMarks } from './review.js';

const TOUCH_HINT_KEY = 'kibitz.touchHintSeen';

/** Whether the two-tap hint was shown and understood on this device already. */
function touchHintSeen() {
  try {
    return localStorage.getItem(TOUCH_HINT_KEY) === '1';
  } catch {
    return false;
  }
}

const coarsePointer = () => !!globalThis.matchMedia?.('(pointer: coarse)').matches;

/** The cells of room `R`'s winning line, at the end of a game won by one. */
function winLine(R) {
  const line = R.result && Array.isArray(R.result.line) ? R.result.line : null;
  if (line && line.length) return line.map((c) => parseCell(R.game, c)).filter((i) => i >= 0);
  if (R.result && (R.result.reason === 'five' || R.result.reason === 'four')) {
    const pos = R.positions[R.liveIndex];
    if (pos && pos.last >= 0) return lineThrough(R.game, pos.cells, pos.last, R.game.kind === 'connect4' ? 4 : 5) || [];
  }
  return [];
}

/** The marks on position `pos` (ply `k`; `live`: the game as it is played; `variation`: the
 *  viewer's): an opening's 5th moves, offered ones for everyone and the ones we pick for us;
 *  after the game, in review, the engine's line at the shown position. */
function marksOn(R, pos, k, live, variation) {
  const marks = [];
  if (live && R.openingState) {
    const fifth = pos.toMove;
    for (const c of R.openingState.proposals || []) marks.push({ idx: parseCell(R.game, c), kind: 'proposal', seat: fifth });
    for (const c of R.picked) marks.push({ idx: parseCell(R.game, c), kind: 'picked', seat: fifth });
  }
  if (R.status === 'over' && R.reviewMode && !variation) marks.push(...bestLineMarks(R, k));
  return marks.filter((m) => m.idx >= 0);
}

/**
 * The board view of room `R` in the page's elements `el` (layout.js: board, forbiddenNoteEl,
 * touchHintEl, buttons.flip). `app.net.ready` says whether a click can reach the server;
 * `emit` (intents.js) asks for the live position on a click on a replayed one; `onDrawn()`
 * follows every drawing (the position on show may have changed). Returns { render(animate),
 * flip(), touchHintSeen(), touchHintShown() }.
 */
export function createBoardView({ state: R, app, el, emit, onDrawn }) {
  const forbiddenCache = new WeakMap();
  let flipped = false;

  function forbiddenAt(pos, toMove) {
    if (R.game.kind !== 'gomoku' || R.game.rule !== 'renju' || toMove !== 'black') return [];
    if (!forbiddenCache.has(pos)) forbiddenCache.set(pos, forbiddenPoints(pos.cells, dims(R.game).cols));
    return forbiddenCache.get(pos);
  }

  function render(animate) {
    if (!R.game || !R.positions.length) return;
    const k = R.shownIndex;
    const variation = R.variation ? R.variation.positions[R.variation.positions.length - 1] : null;
    const live = R.view == null && !variation;
    const pos = variation || R.positions[k];
    const toMove = live ? R.toMove : pos.toMove;
    const atEnd = !variation && R.status === 'over' && k === R.liveIndex;
    const forbidden = atEnd ? [] : forbiddenAt(pos, toMove);
    const legal = !atEnd && R.game.kind === 'othello' ? othelloLegal(pos.cells, stoneOf(toMove)) : [];
    // After the game, in review, moves of the viewer's own variation (the page's alone; it
    // needs no connection).
    const exploring = R.status === 'over' && R.reviewMode && !atEnd && !(variation && R.variation.over);
    // Offline, a click could not reach the server: the board waits for the connection.
    const interactive = exploring || (live && R.playing && R.seated && R.you === R.toMove && !R.pending && app.net.ready);
    el.board.render({
      game: R.game,
      pos,
      flipped,
      interactive,
      me: exploring ? toMove : interactive ? R.you : toMove,
      forbidden,
      legal,
      marks: marksOn(R, pos, k, live, variation),
      winLine: atEnd ? winLine(R) : [],
      animate,
      onInactiveClick: () => {
        if (R.view != null) emit('goTo', Infinity);
      },
      onInspect: (idx) => renderForbiddenNote(forbidden, idx),
    });
    el.buttons.flip.setAttribute('aria-pressed', String(flipped));
    renderForbiddenNote(forbidden, -1);
    onDrawn();
    // On a phone a stone takes two taps: said once, until the player dismisses it or plays.
    el.touchHintEl.hidden = !(interactive && R.game.kind === 'gomoku' && coarsePointer() && !touchHintSeen());
  }

  /** The renju note under the board: what the crosses mean, and why the point `idx` (hovered,
   *  tapped or under the keyboard cursor) is forbidden when it is one. */
  function renderForbiddenNote(forbidden, idx) {
    const note = el.forbiddenNoteEl;
    clear(note);
    note.hidden = !forbidden.length;
    if (!forbidden.length) return;
    const f = forbidden.find((p) => p.idx === idx);
    if (f) {
      note.append(h('span', { class: 'why', 'data-testid': 'forbidden-why', 'data-kind': f.kind },
        t('room.forbiddenAt', { cell: cellName(R.game, idx), why: t(`forbidden.${f.kind}`) })));
    } else {
      note.append(h('span', {}, t('room.forbiddenNote')));
    }
  }

  return {
    render,
    flip() {
      flipped = !flipped;
      render(false);
    },
    /** The two-tap hint is understood: never again on this device. */
    touchHintSeen() {
      try {
        localStorage.setItem(TOUCH_HINT_KEY, '1');
      } catch {
        // storage disabled: the hint goes for this page only
      }
      el.touchHintEl.hidden = true;
    },
    touchHintShown: () => !el.touchHintEl.hidden,
  };
}
