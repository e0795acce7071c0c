// The lobby's "Bots" card: each bot connected to the hall, with its games, its levels and how busy it is.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { card } from './card.js';
import { listOf } from './list-items.js';

/** A bot's levels as a range ("1–10"), or as the server says them. */
function levelsText(levels) {
  if (Array.isArray(levels) && levels.length) {
    const nums = levels.map(Number).filter(Number.isFinite);
    return nums.length ? `${Math.min(...nums)}–${Math.max(...nums)}` : '';
  }
  return levels != null ? String(levels) : '';
}

/** The card. Returns { element, render(msg) } for each `lobby` message. */
export function createBotsList() {
  const list = h('ul', { class: 'room-list', 'data-testid': 'bots-list' });

  function render(msg) {
    clear(list);
    const bots = listOf(msg.bots);
    if (!bots.length) list.append(h('li', { class: 'empty' }, t('lobby.botsEmpty')));
    for (const b of bots) {
      const games = listOf(b.games).map((g) => t(`game.${g}`)).join(', ');
      const levels = levelsText(b.levels);
      list.append(h('li', { class: 'room-item bot-item' },
        h('span', { class: 'who' }, String(b.name ?? '?'), h('span', { class: 'bot-badge' }, t('player.bot'))),
        h('span', { class: 'room-game' }, games),
        levels ? h('span', { class: 'room-meta' }, t('lobby.botLevels', { levels })) : null,
        h('span', { class: 'room-meta' }, t('lobby.botBusy', { busy: b.busy ?? 0, capacity: b.capacity ?? '?' }))));
    }
  }

  return { element: card('lobby.bots', list), render };
}
