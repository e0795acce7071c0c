// The room's result: the game-over banner (the result, its reason, the score, and in a rated game each side's rating change, or why it was not rated) and the game-over dialog with the same words.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { changeWords } from '../rating.js';
import { seatWord, playerWord, resultWords } from './words.js';

/** Room `R`'s rating lines: each side's change with its new rating ("Ada (Black): +12 →
 *  1512?"), or why the game was not rated after all, or that the changes are on their way.
 *  Each is { text, testid, attrs }; `prefix` names them ('over-dialog' or 'over'). */
function ratingLines(R, prefix) {
  if (R.rating?.unrated) {
    const key = R.rating.unrated === 'repeat' ? 'over.unratedRepeat' : 'over.unrated';
    return [{ text: t(key), testid: `${prefix}-unrated`, attrs: { class: 'rating-line unrated', 'data-reason': R.rating.unrated } }];
  }
  if (R.rating) {
    return R.rating.changes.map((c) => {
      const w = changeWords(c);
      return {
        text: t('over.ratingChange', { name: w.name || playerWord(R, c.color), seat: seatWord(c.color), change: w.change, rating: w.rating }),
        testid: `${prefix}-rating-${c.color}`,
        attrs: { class: `rating-line ${w.up}`, 'data-change': w.change, 'data-rating': w.rating, 'data-mine': String(c.color === R.you) },
      };
    });
  }
  if (R.ratingPending) return [{ text: t('over.ratingPending'), testid: `${prefix}-rating-pending`, attrs: { class: 'rating-line pending' } }];
  return [];
}

/**
 * The result of room `R`: the banner in `overEl`, the dialog `overDialog` (both layout.js's);
 * `quiet` leaves the dialog out (the TV page says the result its own way). Returns { render(),
 * open() }: open() opens the dialog (again: its words follow the language).
 */
export function createResult({ state: R, overEl, overDialog, quiet }) {
  function open() {
    if (quiet || R.status !== 'over' || !R.result) return;
    const words = resultWords(R, R.result);
    const lines = [];
    if (words.reason) lines.push({ text: words.reason, testid: 'over-dialog-reason' });
    if (words.score) lines.push({ text: words.score, testid: 'over-dialog-score' });
    lines.push(...ratingLines(R, 'over-dialog'));
    // A tournament's game has no rematch: the next game is the tournament's to pair.
    overDialog.open({ title: words.head, lines, canRematch: R.seated && !R.tournament, tournament: !!R.tournament });
  }

  function render() {
    clear(overEl);
    if (R.status !== 'over' || !R.result) {
      overEl.hidden = true;
      return;
    }
    const res = R.result;
    const words = resultWords(R, res);
    const parts = [h('strong', { class: 'over-head' }, words.head)];
    if (res.reason) parts.push(h('span', { class: 'over-reason', 'data-reason': res.reason }, ` — ${words.reason}`));
    if (res.score) parts.push(h('span', { class: 'over-score', 'data-testid': 'over-score' }, ` (${words.score})`));
    const rating = ratingLines(R, 'over');
    if (rating.length) parts.push(h('div', { class: 'over-rating' }, rating.map((l) => h('span', { ...l.attrs, 'data-testid': l.testid }, l.text))));
    overEl.append(...parts);
    overEl.dataset.result = res.result || '';
    overEl.dataset.reason = res.reason || '';
    overEl.hidden = false;
    if (overDialog.isOpen()) open();
  }

  return { render, open };
}
