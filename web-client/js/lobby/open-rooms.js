// The lobby's "Open rooms" card: the rooms waiting for a second player, each with its game, clock and host, and a "Join" button.

import { h, clear } from '../dom.js';
import { t, gameLabel, clockLabel } from '../i18n.js';
import { card } from './card.js';
import { seatName, moreItem, listOf } from './list-items.js';

/** The card; `app.go` takes a room's seat. Returns { element, render(msg) } for each `lobby`
 *  message. */
export function createOpenRooms({ app }) {
  const list = h('ul', { class: 'room-list', 'data-testid': 'open-rooms' });

  function render(msg) {
    clear(list);
    const open = listOf(msg.open);
    if (!open.length) list.append(h('li', { class: 'empty' }, t('lobby.openEmpty')));
    for (const r of open) {
      const seats = r.seats || {};
      const host = seats.black || seats.white;
      list.append(h('li', { class: 'room-item', 'data-room': r.room },
        h('span', { class: 'room-game' }, gameLabel(r.game)),
        h('span', { class: 'room-clock' }, clockLabel(r.clock)),
        h('span', { class: 'room-who' }, seatName(host), h('span', { class: `stone-icon ${seats.black ? 'black' : 'white'}`, 'aria-hidden': 'true' })),
        h('button', { type: 'button', class: 'primary', 'data-testid': `btn-join-${r.room}`, onclick: () => app.go(r.room, { as: 'player', clockSpec: r.clock ?? null }) }, t('lobby.join'))));
    }
    moreItem(list, msg.open_total, open.length, 'open-more');
  }

  return { element: card('lobby.open', list), render };
}
