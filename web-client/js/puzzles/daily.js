// The lobby's daily puzzle card: today's puzzle asked from the server once, drawn as a small board with its goal, the whole a link to `/?puzzle=<id>`; no card when the server has no puzzle to give.

import { h, clear } from '../dom.js';
import { t, onLangChange } from '../i18n.js';
import { createBoard } from '../board.js';
import * as api from './api.js';
import { readPuzzle, goalKey, positionAfter } from './puzzle.js';

/** The card (a section, filled once the server answers). `app` gives viewLink(route, attrs, ...children). */
export function dailyPuzzleCard(app) {
  const body = h('div', { class: 'daily-body' }, h('p', { class: 'note', 'data-i18n': 'puz.loading' }, t('puz.loading')));
  const card = h('section', { class: 'card card-daily', 'data-testid': 'daily-puzzle', 'aria-labelledby': 'daily-title' },
    h('h2', { id: 'daily-title', 'data-i18n': 'puz.dailyTitle' }, t('puz.dailyTitle')), body);
  let puzzle = null;

  function render() {
    clear(body);
    const thumb = h('span', { class: 'daily-thumb' });
    createBoard(thumb, { mini: true, testPrefix: 'daily-', label: 'puz.dailyBoard' }).render({
      game: puzzle.game, pos: positionAfter(puzzle.game, puzzle.moves).pos, flipped: false, interactive: false, me: null, animate: false,
    });
    const g = goalKey(puzzle);
    body.append(app.viewLink({ page: 'puzzle', id: puzzle.id }, { class: 'daily-link', 'data-testid': 'daily-puzzle-link', 'data-puzzle': puzzle.id },
      thumb,
      h('span', { class: 'daily-text' },
        h('span', { class: 'daily-goal', 'data-testid': 'daily-puzzle-goal' }, t(g.key, { seat: t(`seat.${g.seat}`), n: g.n })),
        h('span', { class: 'note' }, [t(`ratingKey.${puzzle.variant}`), puzzle.rating != null ? t('puz.puzzleRating', { rating: Math.round(puzzle.rating) }) : ''].filter(Boolean).join(' · ')),
        h('span', { class: 'daily-go' }, t('puz.solveIt')))));
  }

  api.daily().then((res) => {
    puzzle = res.ok ? readPuzzle(res.data) : null;
    // No puzzle today (none loaded, or the server is older): no card rather than an error.
    if (!puzzle) {
      card.hidden = true;
      return;
    }
    render();
    const off = onLangChange(() => {
      // The lobby is gone: stop listening (after the listeners' round, which this one is in).
      if (!card.isConnected) setTimeout(off, 0);
      else render();
    });
  });
  return card;
}
