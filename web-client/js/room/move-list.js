// The room's move list: the opening's stones, then the moves two to a row, each a button to show that position (the one on show marked, a review's mistakes marked), kept scrolled to the move on show; the step buttons' states; and the export panel's move string and download links.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { moveRows, moveString, exportLinks } from '../record.js';
import { reviewAt } from './review.js';
import { moveLabel } from './words.js';

/** Scrolls `list` (not the page) so that its item `cur` is in view, in its middle if it was not. */
function keepInView(list, cur) {
  // The item's place inside the list, measured on screen, against the list's own scrolled window.
  const top = cur.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  const bottom = top + cur.offsetHeight;
  if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - (list.clientHeight - cur.offsetHeight) / 2);
  }
}

/**
 * The move list of room `R` in the page's elements `el` (layout.js: moveList, nav,
 * moveStringEl, exportLinksEl); a move's button asks `emit` (intents.js) for `goTo(ply)`.
 * Returns { render() }.
 */
export function createMoveList({ state: R, el, emit }) {
  const list = el.moveList;

  function item(k, move, shown) {
    // The review's mark of the move played from the position before it.
    const mark = reviewAt(R, k - 1)?.mark;
    const b = h('button', { type: 'button', class: `mv${move === 'pass' ? ' pass' : ''}${k === shown ? ' current' : ''}${mark ? ` ${mark}` : ''}`, 'data-ply': k, 'data-testid': `move-${k}`, onclick: () => emit('goTo', k) }, moveLabel(move));
    if (mark) {
      b.dataset.mark = mark;
      b.title = t(`review.${mark}`);
    }
    if (k === shown) b.setAttribute('aria-current', 'step');
    return b;
  }

  function renderMoves(shown) {
    clear(list);
    if (R.opening.length) {
      list.append(h('li', { class: 'opening-row' }, h('span', { class: 'num', 'data-i18n': 'room.opening' }, t('room.opening')),
        ...R.opening.map((m, i) => item(i + 1, m, shown))));
    }
    if (!R.moves.length && !R.opening.length) list.append(h('li', { class: 'empty' }, t('room.noMoves')));
    for (const row of moveRows(R.moves, R.opening.length + 1)) {
      list.append(h('li', { class: 'move-row' },
        h('span', { class: 'num' }, `${row.number}.`),
        row.black ? item(row.black.ply, row.black.move, shown) : h('span', { class: 'mv empty' }, '…'),
        row.white ? item(row.white.ply, row.white.move, shown) : h('span', { class: 'mv empty' })));
    }
    const cur = list.querySelector('.current');
    if (cur && list.scrollHeight > list.clientHeight) keepInView(list, cur);
    else if (R.view == null) list.scrollTop = list.scrollHeight;
  }

  function renderExport() {
    if (!R.game) return;
    el.moveStringEl.value = moveString(R.game, R.opening, R.moves);
    clear(el.exportLinksEl);
    for (const l of exportLinks(R.id, R.game)) {
      el.exportLinksEl.append(h('a', { href: l.href, download: l.file, 'data-testid': `export-${l.key}`, class: 'button' }, t(`room.export.${l.key}`)));
    }
  }

  return {
    render() {
      const shown = R.shownIndex;
      renderMoves(shown);
      el.nav.first.disabled = el.nav.prev.disabled = shown <= 0;
      el.nav.next.disabled = el.nav.last.disabled = shown >= R.liveIndex;
      renderExport();
    },
  };
}
