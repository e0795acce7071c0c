// Pieces of the lobby's lists: a seat's player (or that the seat is free) and the line that says how many more the server did not list.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/** A seat as a list shows it: the player's name with a badge for a bot, or "empty seat". */
export function seatName(seat) {
  if (!seat) return h('span', { class: 'muted' }, t('lobby.emptySeat'));
  const span = h('span', { class: 'who' }, String(seat.name ?? '?'));
  if (seat.bot) span.append(h('span', { class: 'bot-badge' }, t('player.bot')));
  return span;
}

/** Appends "and N more" to `list` when the server counted `total` and listed `shown` of them
 *  (it lists the newest open rooms and the most watched games). */
export function moreItem(list, total, shown, testid) {
  const more = (Number(total) || 0) - shown;
  if (more > 0) list.append(h('li', { class: 'empty more', 'data-testid': testid }, t('lobby.more', { n: more })));
}

/** The array `value`, or an empty one when it is not an array. */
export const listOf = (value) => (Array.isArray(value) ? value : []);
